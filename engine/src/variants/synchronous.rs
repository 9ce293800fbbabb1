//! Synchronous Chess (Chess Kit, "Synchronous Chess").
//!
//! - Both players write down a move at the same time, each legal in regular chess from the
//!   position as it stands; then both are revealed and resolved:
//!   1. a move ending on an enemy piece that stood still captures it;
//!   2. a move ending on an enemy piece that moved at the same time captures nothing (pieces
//!      may swap places or pass through each other);
//!   3. two moves ending on the same empty square: both pieces are captured (a king among them
//!      is captured, and that wins).
//! - Then an exchange of blows: a piece that moved onto a square an enemy piece attacked before
//!   the moves and still attacks may be captured by that enemy piece; the mover's side may then
//!   recapture on that square, and so on, each piece moving once, until nobody can or will.
//!   When both sides may strike at once they write it down together (X to pass).
//! - A king under attack must move to a square that was not attacked (no blocking, no capturing
//!   the attacker with another piece, no castling); with no such square it is checkmated.
//! - No en passant. Capturing the king, or mating it, wins; both at once is a draw. The usual
//!   draws (stalemate, fifty moves, threefold repetition, bare material) apply.
//! - Reconstructed where the book is silent: an exchange strike must itself be a legal chess
//!   capture; the fifty-move count runs in single moves of either side, two per turn.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::board::Cell;
use crate::chess::{Move, MoveKind, MoveParseError, Piece, Position, Role, Seat};
use crate::game::{
    EndReason, Event, Family, Game, GameError, Options, Outcome, Prompt, PromptKind, VariantInfo,
};
use crate::view::{Panel, View, Viewer};

use super::chess::{board_view, counting_draws, stored_position};

/// Synchronous Chess.
pub struct Synchronous;

/// A sealed choice: a move (or an exchange strike), or a pass in an exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Choice {
    Move(Move),
    Pass,
}

/// A square where a blow may be struck, and by whom.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Contest {
    square: Cell,
    striker: Seat,
    /// The pieces (by cell) allowed to strike; `None`: any piece with a legal capture.
    allowed: Option<Vec<Cell>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Phase {
    /// Both players write down a move.
    Moves,
    /// Blows may be struck on these squares.
    Exchange {
        contests: Vec<Contest>,
        used: Vec<Cell>,
    },
}

/// The state of a game of Synchronous Chess.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SyncState {
    #[serde(with = "stored_position")]
    position: Position,
    phase: Phase,
    /// Choices written down but not yet revealed, by seat.
    sealed: [Option<Choice>; 2],
    turn: u32,
    moves: Vec<String>,
    repetitions: Vec<u64>,
    last_move: Vec<Cell>,
    result: Option<Outcome>,
}

impl SyncState {
    fn new(mut position: Position) -> SyncState {
        position.set_turn(Seat::WHITE);
        SyncState {
            repetitions: vec![position.repetition_key()],
            position,
            phase: Phase::Moves,
            sealed: [None, None],
            turn: 1,
            moves: Vec::new(),
            last_move: Vec::new(),
            result: None,
        }
    }

    /// The position with `seat` to move, to ask chess what that side may do.
    fn as_mover(&self, seat: Seat) -> Position {
        let mut p = self.position.clone();
        p.set_turn(seat);
        p
    }

    fn in_check(&self, seat: Seat) -> bool {
        self.position.seat_in_check(seat)
    }

    /// A seat's moves in the writing phase: legal chess moves without en passant; a king under
    /// attack must step to a square that was not attacked.
    fn turn_moves(&self, seat: Seat) -> Vec<Move> {
        let pos = self.as_mover(seat);
        let in_check = self.in_check(seat);
        pos.legal_moves()
            .into_iter()
            .filter(|m| m.kind != MoveKind::EnPassant)
            .filter(|m| {
                !in_check
                    || (m.kind != MoveKind::Castle
                        && pos.piece_at(m.from).is_some_and(|p| p.role == Role::King)
                        && !self.position.is_attacked(m.to, seat))
            })
            .collect()
    }

    /// A seat's strikes in an exchange.
    fn strikes(&self, seat: Seat) -> Vec<Move> {
        let Phase::Exchange { contests, used } = &self.phase else {
            return Vec::new();
        };
        let pos = self.as_mover(seat);
        let mut out: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.kind != MoveKind::EnPassant && m.kind != MoveKind::Castle)
            .filter(|m| !used.contains(&m.from))
            .filter(|m| {
                contests.iter().any(|c| {
                    c.striker == seat
                        && c.square == m.to
                        && c.allowed.as_ref().is_none_or(|a| a.contains(&m.from))
                })
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    fn choices(&self, seat: Seat) -> Vec<Choice> {
        match &self.phase {
            Phase::Moves => self
                .turn_moves(seat)
                .into_iter()
                .map(Choice::Move)
                .collect(),
            Phase::Exchange { .. } => {
                let strikes = self.strikes(seat);
                if strikes.is_empty() {
                    return Vec::new();
                }
                strikes
                    .into_iter()
                    .map(Choice::Move)
                    .chain([Choice::Pass])
                    .collect()
            }
        }
    }

    /// The seats that must choose now.
    fn to_choose(&self) -> Vec<Seat> {
        if self.result.is_some() || self.mate_or_stalemate().is_some() {
            return Vec::new();
        }
        (0..2u8)
            .map(Seat)
            .filter(|s| self.sealed[s.index()].is_none() && !self.choices(*s).is_empty())
            .collect()
    }

    /// Whether the whole group of choosers writes in secret (both at once) or one acts openly.
    fn sealed_step(&self) -> bool {
        match self.phase {
            Phase::Moves => true,
            Phase::Exchange { .. } => {
                (0..2u8)
                    .map(Seat)
                    .filter(|s| !self.strikes(*s).is_empty())
                    .count()
                    == 2
            }
        }
    }

    fn choice_text(&self, seat: Seat, c: Choice) -> String {
        match c {
            Choice::Pass => "X".into(),
            Choice::Move(m) => self.as_mover(seat).san_plain(m),
        }
    }

    /// Checkmate and stalemate at the start of a turn.
    fn mate_or_stalemate(&self) -> Option<Outcome> {
        if self.phase != Phase::Moves {
            return None;
        }
        let stuck: Vec<Seat> = (0..2u8)
            .map(Seat)
            .filter(|s| self.turn_moves(*s).is_empty())
            .collect();
        let mated: Vec<Seat> = stuck
            .iter()
            .copied()
            .filter(|s| self.in_check(*s))
            .collect();
        match mated.len() {
            2 => Some(Outcome::draw(EndReason::BothKingsFell)),
            1 => Some(Outcome::win(
                vec![mated[0].opponent()],
                EndReason::Checkmate,
            )),
            _ if !stuck.is_empty() => Some(Outcome::draw(EndReason::Stalemate)),
            _ => None,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(r) = &self.result {
            return Some(r.clone());
        }
        if let Some(o) = self.mate_or_stalemate() {
            return Some(o);
        }
        if self.phase != Phase::Moves {
            return None;
        }
        if self.position.is_insufficient_material() {
            return Some(Outcome::draw(EndReason::InsufficientMaterial));
        }
        counting_draws(&self.position, &self.repetitions)
    }

    /// Plays moves of both sides at once by the book's three cases. Returns the captures (cell
    /// and piece) and the squares where two pieces fell together.
    fn resolve(&mut self, moves: &[(Seat, Move)]) -> (Vec<(Cell, Piece)>, Vec<Cell>) {
        let before = self.position.clone();
        let mut carried: Vec<(Seat, Cell, Cell, Piece)> = Vec::new();
        for (seat, m) in moves {
            for (from, to, piece) in before.displacements(*m) {
                carried.push((*seat, from, to, piece));
            }
        }
        let starts: Vec<Cell> = carried.iter().map(|c| c.1).collect();
        for c in &carried {
            self.position.set_piece(c.1, None);
        }
        let mut captured = Vec::new();
        let mut mutual = Vec::new();
        for c in &carried {
            let (seat, _, to, piece) = *c;
            let rivals = carried.iter().filter(|d| d.2 == to && d.0 != seat).count();
            if rivals > 0 {
                // Case 3: both end on the same square; both fall.
                if !mutual.contains(&to) {
                    mutual.push(to);
                }
                captured.push((to, piece));
                continue;
            }
            if let Some(occupant) = before.piece_at(to) {
                // Case 1: an enemy that stood still is captured. Case 2: one that moved was
                // already lifted, so nothing is captured.
                if occupant.seat != seat && !starts.contains(&to) {
                    captured.push((to, occupant));
                }
            }
            self.position.set_piece(to, Some(piece));
        }
        for &cell in &mutual {
            self.position.set_piece(cell, None);
        }
        (captured, mutual)
    }

    fn king_fell(&mut self, captured: &[(Cell, Piece)]) -> bool {
        let kings: Vec<Seat> = captured
            .iter()
            .filter(|(_, p)| p.role == Role::King)
            .map(|(_, p)| p.seat)
            .collect();
        match kings.len() {
            0 => false,
            1 => {
                self.result = Some(Outcome::win(
                    vec![kings[0].opponent()],
                    EndReason::KingCaptured,
                ));
                true
            }
            _ => {
                self.result = Some(Outcome::draw(EndReason::BothKingsFell));
                true
            }
        }
    }

    /// Resolves the written moves of a turn and opens the exchange of blows.
    fn resolve_turn(&mut self, white: Move, black: Move) -> Vec<String> {
        let before = self.position.clone();
        let texts = [
            self.choice_text(Seat::WHITE, Choice::Move(white)),
            self.choice_text(Seat::BLACK, Choice::Move(black)),
        ];
        let pawn_moved = [white, black].iter().any(|m| {
            before
                .piece_at(m.from)
                .is_some_and(|p| p.role == Role::Pawn)
        });
        let (captured, mutual) = self.resolve(&[(Seat::WHITE, white), (Seat::BLACK, black)]);
        let label = |c: Cell| before.board().label(c).to_string();
        let mut lines = vec![format!(
            "Turn {}: White {}, Black {}.",
            self.turn, texts[0], texts[1]
        )];
        for cell in &mutual {
            lines.push(format!(
                "Both pieces landing on {} are captured.",
                label(*cell)
            ));
        }
        for (cell, piece) in captured.iter().filter(|(c, _)| !mutual.contains(c)) {
            lines.push(format!(
                "The {} on {} is captured.",
                piece.describe(),
                label(*cell)
            ));
        }
        self.moves
            .push(format!("{}. {} {}", self.turn, texts[0], texts[1]));
        self.last_move = [white, black]
            .iter()
            .flat_map(|m| before.displacements(*m))
            .flat_map(|(f, t, _)| [f, t])
            .collect();
        let (half, full) = (self.position.halfmoves(), self.position.fullmoves());
        let reset = pawn_moved || !captured.is_empty();
        self.position
            .set_counters(if reset { 0 } else { half + 2 }, full + 1);
        self.turn += 1;
        if self.king_fell(&captured) {
            return lines;
        }
        // An exchange of blows where a moved piece stands on a square its enemy attacked before
        // the moves and, with the same piece, still attacks.
        let mut contests = Vec::new();
        for (seat, m) in [(Seat::WHITE, white), (Seat::BLACK, black)] {
            let enemy = seat.opponent();
            let moved_enemy: Vec<(Cell, Cell)> = before
                .displacements(if seat == Seat::WHITE { black } else { white })
                .iter()
                .map(|(f, t, _)| (*f, *t))
                .collect();
            for (_, to, piece) in before.displacements(m) {
                if self.position.piece_at(to) != Some(piece) {
                    continue;
                }
                let then = before.attackers(to, enemy);
                let now = self.position.attackers(to, enemy);
                let allowed: Vec<Cell> = now
                    .iter()
                    .filter(|(cell, p)| {
                        let was_at = moved_enemy
                            .iter()
                            .find(|(_, t)| t == cell)
                            .map_or(*cell, |(f, _)| *f);
                        then.iter().any(|(c, q)| *c == was_at && q == p)
                    })
                    .map(|(c, _)| *c)
                    .collect();
                if !allowed.is_empty() {
                    contests.push(Contest {
                        square: to,
                        striker: enemy,
                        allowed: Some(allowed),
                    });
                }
            }
        }
        self.open_exchange(contests, Vec::new(), &mut lines);
        lines
    }

    fn open_exchange(&mut self, contests: Vec<Contest>, used: Vec<Cell>, lines: &mut Vec<String>) {
        self.phase = Phase::Exchange { contests, used };
        let strikers: Vec<Seat> = (0..2u8)
            .map(Seat)
            .filter(|s| !self.strikes(*s).is_empty())
            .collect();
        if strikers.is_empty() {
            self.end_turn();
            return;
        }
        let squares: Vec<String> = match &self.phase {
            Phase::Exchange { contests, .. } => contests
                .iter()
                .map(|c| self.position.board().label(c.square).to_string())
                .collect(),
            Phase::Moves => Vec::new(),
        };
        let who: Vec<String> = strikers.iter().map(|s| s.colour_name()).collect();
        lines.push(format!(
            "Exchange of blows on {}: {} may strike{}.",
            squares.join(", "),
            who.join(" and "),
            if strikers.len() == 2 {
                ", both writing it down at once"
            } else {
                ""
            }
        ));
    }

    /// Resolves the strikes of an exchange step and opens the next one.
    fn resolve_exchange(&mut self, choices: [Option<Choice>; 2]) -> Vec<String> {
        let Phase::Exchange { used, .. } = self.phase.clone() else {
            return Vec::new();
        };
        let before = self.position.clone();
        let strikes: Vec<(Seat, Move)> = (0..2u8)
            .map(Seat)
            .filter_map(|s| match choices[s.index()] {
                Some(Choice::Move(m)) => Some((s, m)),
                _ => None,
            })
            .collect();
        let mut lines: Vec<String> = (0..2u8)
            .map(Seat)
            .filter_map(|s| {
                choices[s.index()].map(|c| {
                    format!(
                        "{} {}.",
                        s.colour_name(),
                        match c {
                            Choice::Pass => "lets it be (X)".to_string(),
                            Choice::Move(_) => format!("strikes: {}", self.choice_text(s, c)),
                        }
                    )
                })
            })
            .collect();
        let (captured, _) = self.resolve(&strikes);
        for (cell, piece) in &captured {
            lines.push(format!(
                "The {} on {} is captured.",
                piece.describe(),
                before.board().label(*cell)
            ));
        }
        if !strikes.is_empty() {
            // A strike is a capture: the fifty-move count starts again.
            let full = self.position.fullmoves();
            self.position.set_counters(0, full);
            self.last_move = strikes.iter().flat_map(|(_, m)| [m.from, m.to]).collect();
        }
        if self.king_fell(&captured) {
            return lines;
        }
        // Each striker has now moved; the other side may answer on the same square.
        let mut used = used;
        let mut next = Vec::new();
        for (seat, m) in &strikes {
            used.retain(|c| *c != m.from);
            if self
                .position
                .piece_at(m.to)
                .is_some_and(|p| p.seat == *seat)
            {
                used.push(m.to);
                next.push(Contest {
                    square: m.to,
                    striker: seat.opponent(),
                    allowed: None,
                });
            }
        }
        self.open_exchange(next, used, &mut lines);
        lines
    }

    fn end_turn(&mut self) {
        self.phase = Phase::Moves;
        self.sealed = [None, None];
        if self.position.halfmoves() == 0 {
            self.repetitions.clear();
        }
        self.repetitions.push(self.position.repetition_key());
    }

    /// The state as `seat` may take it to be (see [`Game::determinize`]): a choice the
    /// opponent has written down (that it has is announced) is replaced by one drawn among
    /// the choices the opponent had; `seat`'s own stays.
    fn determinized(&self, seat: Seat, seed: u64) -> SyncState {
        let mut sample = self.clone();
        let them = seat.opponent();
        if self.sealed[them.index()].is_some() {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            sample.sealed[them.index()] = self.choices(them).choose(&mut rng).copied();
        }
        sample
    }

    fn sealed_panel(&self, seat: Seat) -> Option<Panel> {
        let choice = self.sealed[seat.index()]?;
        Some(Panel {
            title: "Synchronous: your sealed choice".into(),
            columns: Vec::new(),
            rows: Vec::new(),
            notes: vec![format!(
                "You wrote down {}; it is revealed when your opponent has written theirs.",
                self.choice_text(seat, choice)
            )],
        })
    }
}

impl Game for Synchronous {
    type State = SyncState;
    type Action = Choice;

    fn info(&self) -> &VariantInfo {
        static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
        INFO.get_or_init(|| VariantInfo {
            id: "synchronous",
            aliases: &["synchronous-chess", "sync"],
            name: "Synchronous Chess",
            family: Family::Chess,
            seat_counts: &[2],
            options: Vec::new(),
            hidden_information: true,
            simultaneous: true,
            rules: "Both players write down a move at the same time (/secret), then both are \
                    revealed. A move onto an enemy piece that stood still captures it; onto one \
                    that moved, it captures nothing (pieces may swap); two moves onto the same \
                    empty square capture both. Then an exchange of blows may follow where a \
                    moved piece stands on a square its enemy attacked before and still attacks. \
                    A king under attack must move to a square that was not attacked; with none \
                    it is mated. No en passant. Capture or mate the king to win; both at once is \
                    a draw.",
            source: "Chess Kit, 'Synchronous Chess'",
        })
    }

    fn setup(&self, _options: &Options, _seats: usize, _seed: u64) -> Result<SyncState, GameError> {
        Ok(SyncState::new(Position::startpos()))
    }

    fn prompts(&self, state: &SyncState) -> Vec<Prompt> {
        let sealed = state.sealed_step();
        state
            .to_choose()
            .into_iter()
            .map(|seat| Prompt {
                seat,
                kind: if sealed {
                    PromptKind::Secret
                } else {
                    PromptKind::Move
                },
                text: match &state.phase {
                    Phase::Moves => format!("write down your move for turn {}", state.turn),
                    // A sealed strike is chosen from a menu that offers X; a public one is
                    // typed, so it is told the whole command that declines.
                    Phase::Exchange { .. } if sealed => {
                        "strike in the exchange of blows, or X to let it be".into()
                    }
                    Phase::Exchange { .. } => {
                        "strike in the exchange of blows, or let it be with /move X".into()
                    }
                },
            })
            .collect()
    }

    fn legal(&self, state: &SyncState, seat: Seat) -> Vec<Choice> {
        if !state.to_choose().contains(&seat) {
            return Vec::new();
        }
        state.choices(seat)
    }

    fn action_text(&self, state: &SyncState, action: &Choice) -> String {
        // The seat is whoever may make it; moves of the two sides never coincide.
        let seat = (0..2u8)
            .map(Seat)
            .find(|s| state.choices(*s).contains(action))
            .unwrap_or(Seat::WHITE);
        state.choice_text(seat, *action)
    }

    fn parse(&self, state: &SyncState, seat: Seat, text: &str) -> Result<Choice, GameError> {
        if !state.to_choose().contains(&seat) {
            return Err(GameError::NotYourTurn("waiting for your opponent".into()));
        }
        let t = text.trim();
        if matches!(t.to_ascii_lowercase().as_str(), "x" | "pass" | "-") {
            return if state.choices(seat).contains(&Choice::Pass) {
                Ok(Choice::Pass)
            } else {
                Err(GameError::Move(MoveParseError::Illegal {
                    text: t.into(),
                    reason: "you can only pass in an exchange of blows".into(),
                }))
            };
        }
        let allowed: Vec<Move> = state
            .choices(seat)
            .into_iter()
            .filter_map(|c| match c {
                Choice::Move(m) => Some(m),
                Choice::Pass => None,
            })
            .collect();
        let pos = state.as_mover(seat);
        match pos.parse_move_among(t, &allowed) {
            Ok(m) => Ok(Choice::Move(m)),
            Err(e) => {
                // Explain the rules this game adds to chess's.
                if let Ok(m) = pos.parse_move(t) {
                    let reason = if m.kind == MoveKind::EnPassant {
                        "there is no en passant in Synchronous Chess"
                    } else if state.phase != Phase::Moves {
                        "in an exchange of blows you may only capture on the contested square"
                    } else {
                        "your king is attacked: it must step to a square that was not attacked"
                    };
                    return Err(GameError::Move(MoveParseError::Illegal {
                        text: t.into(),
                        reason: reason.into(),
                    }));
                }
                Err(GameError::Move(e))
            }
        }
    }

    fn apply(
        &self,
        state: &mut SyncState,
        seat: Seat,
        action: Choice,
    ) -> Result<Vec<Event>, GameError> {
        if !state.to_choose().contains(&seat) {
            return Err(GameError::NotYourTurn("waiting for your opponent".into()));
        }
        if !state.choices(seat).contains(&action) {
            return Err(GameError::Move(MoveParseError::Illegal {
                text: state.choice_text(seat, action),
                reason: "it is not a possible choice now".into(),
            }));
        }
        state.sealed[seat.index()] = Some(action);
        if !state.to_choose().is_empty() {
            return Ok(vec![Event::Public(format!(
                "{} has written down a choice.",
                seat.colour_name()
            ))]);
        }
        let choices = std::mem::take(&mut state.sealed);
        let lines = match (&state.phase, choices) {
            (Phase::Moves, [Some(Choice::Move(w)), Some(Choice::Move(b))]) => {
                state.resolve_turn(w, b)
            }
            (Phase::Exchange { .. }, c) => state.resolve_exchange(c),
            _ => {
                return Err(GameError::Corrupt(
                    "a turn resolved without both moves".into(),
                ))
            }
        };
        let mut events = vec![Event::Public(lines.join(" "))];
        if let Some(o) = state.outcome() {
            events.push(Event::GameOver(o));
        }
        Ok(events)
    }

    fn view(&self, state: &SyncState, viewer: Viewer) -> View {
        let pos = &state.position;
        let mut view = board_view(self.info().id, pos, viewer);
        view.status = match state.outcome() {
            Some(o) => o.to_string(),
            None => match &state.phase {
                Phase::Moves => format!("Turn {}: both write down a move", state.turn),
                Phase::Exchange { .. } => "Exchange of blows".into(),
            },
        };
        view.last_move = state.last_move.clone();
        view.checks = (0..2u8)
            .map(Seat)
            .filter(|s| state.in_check(*s))
            .filter_map(|s| pos.king(s))
            .collect();
        view.to_act = state.to_choose();
        view.move_number = state.turn;
        if let Viewer::Seat(s) = viewer {
            view.panel = state.sealed_panel(s);
        }
        view
    }

    fn outcome(&self, state: &SyncState) -> Option<Outcome> {
        state.outcome()
    }

    fn determinize(&self, state: &SyncState, seat: Seat, seed: u64) -> SyncState {
        state.determinized(seat, seed)
    }

    fn secret_history(&self, state: &SyncState) -> Vec<String> {
        (0..2u8)
            .map(Seat)
            .filter_map(|s| {
                state.sealed[s.index()].map(|c| {
                    format!(
                        "{} had written down {} when the game ended.",
                        s.colour_name(),
                        state.choice_text(s, c)
                    )
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Rules;
    use crate::game::public_text;

    fn from(fen: &str) -> SyncState {
        SyncState::new(Position::from_fen(fen, Rules::chess()).unwrap())
    }

    fn write(s: &mut SyncState, seat: Seat, text: &str) -> Vec<Event> {
        let c = Synchronous
            .parse(s, seat, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        Synchronous.apply(s, seat, c).unwrap()
    }

    fn turn(s: &mut SyncState, white: &str, black: &str) -> String {
        write(s, Seat::WHITE, white);
        public_text(&write(s, Seat::BLACK, black))
    }

    fn at(s: &SyncState, label: &str) -> Option<Piece> {
        s.position.piece_at(s.position.board().cell(label).unwrap())
    }

    fn piece(seat: Seat, role: Role) -> Option<Piece> {
        Some(Piece { seat, role })
    }

    #[test]
    fn a_sample_for_black_draws_whites_written_move_among_whites_moves() {
        // "Both players write down a move at the same time": until both are revealed, Black
        // knows only that White has written one.
        let start = from("n3k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let mut rook = start.clone();
        write(&mut rook, Seat::WHITE, "Rxa8");
        let mut king = start.clone();
        write(&mut king, Seat::WHITE, "Kd2");
        let moves: Vec<Choice> = start.choices(Seat::WHITE);
        let mut drawn = Vec::new();
        for seed in 0..20 {
            let a = Synchronous.determinize(&rook, Seat::BLACK, seed);
            let b = Synchronous.determinize(&king, Seat::BLACK, seed);
            assert_eq!(a.sealed, b.sealed, "what White wrote makes no difference");
            let white = a.sealed[0].unwrap();
            assert!(moves.contains(&white));
            drawn.push(white);
            let own = Synchronous.determinize(&rook, Seat::WHITE, seed);
            assert_eq!(own.sealed, rook.sealed, "White's own choice stays");
        }
        drawn.sort_by_key(|c| format!("{c:?}"));
        drawn.dedup();
        assert!(drawn.len() > 3, "{drawn:?}");
    }

    #[test]
    fn a_move_onto_a_piece_that_stood_still_captures_it() {
        let mut s = from("n3k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let text = turn(&mut s, "Rxa8", "Kd7");
        assert!(
            text.contains("The black knight on a8 is captured."),
            "{text}"
        );
        assert_eq!(at(&s, "a8"), piece(Seat::WHITE, Role::Rook));
        assert_eq!(s.phase, Phase::Moves);
    }

    #[test]
    fn a_move_onto_a_piece_that_moved_captures_nothing_and_pieces_may_swap() {
        let mut s = from("n3k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let text = turn(&mut s, "Rxa8", "Nb6");
        assert!(!text.contains("captured"), "{text}");
        assert_eq!(at(&s, "a8"), piece(Seat::WHITE, Role::Rook));
        assert_eq!(at(&s, "b6"), piece(Seat::BLACK, Role::Knight));
        let mut s = from("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        turn(&mut s, "Rxa8", "Rxa1");
        assert_eq!(
            at(&s, "a8"),
            piece(Seat::WHITE, Role::Rook),
            "the rooks swapped"
        );
        assert_eq!(at(&s, "a1"), piece(Seat::BLACK, Role::Rook));
    }

    #[test]
    fn two_moves_onto_one_empty_square_capture_both() {
        let mut s = from("4k3/8/8/8/8/2n5/7R/4K3 w - - 0 1");
        let text = turn(&mut s, "Re2", "Ne2");
        assert!(
            text.contains("Both pieces landing on e2 are captured."),
            "{text}"
        );
        assert_eq!(at(&s, "e2"), None);
        assert_eq!(s.position.pieces().count(), 2, "only the kings are left");
        assert_eq!(
            Synchronous.outcome(&s),
            Some(Outcome::draw(EndReason::InsufficientMaterial))
        );
    }

    #[test]
    fn a_king_meeting_a_piece_on_one_square_falls_and_loses() {
        let mut s = from("4k3/8/8/8/8/4p3/8/4K3 w - - 0 1");
        turn(&mut s, "Ke2", "e2");
        assert_eq!(
            Synchronous.outcome(&s),
            Some(Outcome::win(vec![Seat::BLACK], EndReason::KingCaptured))
        );
        assert!(Synchronous.prompts(&s).is_empty());
    }

    #[test]
    fn an_exchange_of_blows_follows_a_move_onto_an_attacked_square() {
        let mut s = from("4k3/8/3p4/8/5P2/5N2/8/4K3 w - - 0 1");
        let text = turn(&mut s, "Ne5", "Ke7");
        assert!(
            text.contains("Exchange of blows on e5: Black may strike."),
            "{text}"
        );
        // Only Black may strike, so it does so openly.
        let prompts = Synchronous.prompts(&s);
        assert_eq!(prompts.len(), 1);
        assert_eq!(
            (prompts[0].seat, prompts[0].kind.clone()),
            (Seat::BLACK, PromptKind::Move)
        );
        assert!(
            prompts[0].text.ends_with("let it be with /move X"),
            "{}",
            prompts[0].text
        );
        write(&mut s, Seat::BLACK, "dxe5");
        assert_eq!(at(&s, "e5"), piece(Seat::BLACK, Role::Pawn));
        // White may answer on the same square.
        assert_eq!(Synchronous.prompts(&s)[0].seat, Seat::WHITE);
        write(&mut s, Seat::WHITE, "fxe5");
        assert_eq!(at(&s, "e5"), piece(Seat::WHITE, Role::Pawn));
        // Nobody else can reach e5: the turn is over.
        assert_eq!(s.phase, Phase::Moves);
        assert_eq!(Synchronous.prompts(&s).len(), 2);
    }

    #[test]
    fn passing_ends_the_exchange_and_both_strike_at_once_when_both_may() {
        let mut s = from("4k3/8/2np4/8/4P3/5N2/8/4K3 w - - 0 1");
        let text = turn(&mut s, "Ne5", "d5");
        assert!(text.contains("both writing it down at once"), "{text}");
        let prompts = Synchronous.prompts(&s);
        assert_eq!(prompts.len(), 2);
        assert!(prompts.iter().all(|p| p.kind == PromptKind::Secret));
        assert!(prompts
            .iter()
            .all(|p| p.text.ends_with("or X to let it be")));
        write(&mut s, Seat::WHITE, "exd5");
        let text = turn_rest(&mut s, Seat::BLACK, "Nxe5");
        assert!(
            text.contains("White strikes: exd5.") && text.contains("Black strikes: Nxe5."),
            "{text}"
        );
        assert_eq!(at(&s, "d5"), piece(Seat::WHITE, Role::Pawn));
        assert_eq!(at(&s, "e5"), piece(Seat::BLACK, Role::Knight));
        assert_eq!(s.phase, Phase::Moves);
        // In a fresh exchange a player may also let it be.
        let mut s = from("4k3/8/3p4/8/5P2/5N2/8/4K3 w - - 0 1");
        turn(&mut s, "Ne5", "Ke7");
        write(&mut s, Seat::BLACK, "X");
        assert_eq!(s.phase, Phase::Moves);
        assert_eq!(at(&s, "e5"), piece(Seat::WHITE, Role::Knight));
    }

    fn turn_rest(s: &mut SyncState, seat: Seat, text: &str) -> String {
        public_text(&write(s, seat, text))
    }

    #[test]
    fn a_king_under_attack_must_step_away_and_may_be_mated() {
        let s = from("1k2r3/8/8/8/8/8/8/R1B1K3 w Q - 0 1");
        let mut moves: Vec<String> = Synchronous
            .legal(&s, Seat::WHITE)
            .iter()
            .map(|c| s.choice_text(Seat::WHITE, *c))
            .collect();
        moves.sort();
        assert_eq!(moves, ["Kd1", "Kd2", "Kf1", "Kf2"]);
        let err = Synchronous.parse(&s, Seat::WHITE, "Be3").unwrap_err();
        assert!(
            err.to_string()
                .contains("must step to a square that was not attacked"),
            "{err}"
        );
        assert!(
            Synchronous.parse(&s, Seat::WHITE, "O-O-O").is_err(),
            "no castling out of check"
        );
        // With no safe square it is mate, though a block was there.
        let s = from("k3r3/8/8/8/8/8/3P1P2/3QKB2 w - - 0 1");
        assert_eq!(
            Synchronous.outcome(&s),
            Some(Outcome::win(vec![Seat::BLACK], EndReason::Checkmate))
        );
    }

    #[test]
    fn both_kings_mated_at_once_is_a_draw() {
        // A back-rank mate on each side: neither king may step away, and no other piece may
        // answer the check. Ordinary FEN refuses both kings in check, so build it directly.
        let fen = "4R2k/6pp/8/8/8/8/6PP/4r2K w - - 0 1";
        let setup = crate::chess::parse_setup(fen, &Rules::chess()).unwrap();
        let pos = Position::from_setup_with(setup, Rules::chess(), crate::chess::KingRule::Stored)
            .unwrap();
        let s = SyncState::new(pos);
        assert_eq!(
            Synchronous.outcome(&s),
            Some(Outcome::draw(EndReason::BothKingsFell))
        );
        assert!(Synchronous.prompts(&s).is_empty());
    }

    #[test]
    fn there_is_no_en_passant() {
        let mut s = from("4k3/3p4/8/4P3/8/8/8/4K3 w - - 0 1");
        turn(&mut s, "Kf1", "d5");
        assert!(Synchronous.parse(&s, Seat::WHITE, "exd6").is_err());
        assert_eq!(
            Synchronous.legal(&s, Seat::WHITE).len(),
            6,
            "five king moves and e6"
        );
    }

    #[test]
    fn a_written_move_stays_hidden_until_both_are_in() {
        let mut s = Synchronous.setup(&Options::new(), 2, 0).unwrap();
        let before = Synchronous.view(&s, Viewer::Spectator);
        let events = write(&mut s, Seat::WHITE, "e4");
        assert_eq!(
            events,
            [Event::Public("White has written down a choice.".into())]
        );
        let after = Synchronous.view(&s, Viewer::Spectator);
        assert_eq!(after.figures, before.figures);
        assert!(after.panel.is_none());
        assert!(Synchronous
            .view(&s, Viewer::Seat(Seat::BLACK))
            .panel
            .is_none());
        let own = Synchronous
            .view(&s, Viewer::Seat(Seat::WHITE))
            .panel
            .unwrap();
        assert!(own.notes[0].contains("e4"));
        assert_eq!(
            Synchronous.secret_history(&s),
            ["White had written down e4 when the game ended."]
        );
        let err = Synchronous.parse(&s, Seat::WHITE, "d4").unwrap_err();
        assert!(err.to_string().contains("waiting for your opponent"));
    }
}
