//! Masquerade Chess (Chess Kit, "Masquerade Chess").
//!
//! - Before play, each player secretly gives the opponent's king, queen, rook, bishop and
//!   knight their capture moves: one of the five capture moves to each, each used once (a piece
//!   may keep its own). Pieces move as usual when not capturing; pawns capture as usual.
//! - On a turn a player either makes an ordinary non-capturing move, or attempts a capture:
//!   "Capture?". If the piece's secret capture move can make it, it happens; if not, nothing
//!   moves and the turn is over. Either way both players see the answer, and each keeps a table
//!   of what they have learned (O: certain, X: impossible), here worked out for them.
//! - There is no check: kings need not escape attack, may step into it, may castle out of or
//!   through it. Capturing the enemy king wins; a king may capture a king.
//! - Reconstructed where the book is silent: a failed attempt ends the turn like a pass (an en
//!   passant chance lapses); a promoted piece captures as its new type was assigned; fifty moves
//!   without capture or pawn move, threefold repetition, and a player without any possible move
//!   are draws.
//! - Interpretation (repetition): the game is "regular chess" plus what each player has learned,
//!   and an attempt is how one learns ("Either way, record what you learned in your table").
//!   So an attempt, failed or not, is irreversible like a capture or a pawn move: the repetition
//!   count starts again from the position it leaves, and no position before it counts as a
//!   repetition of one after it. Failed attempts alone therefore never repeat a position; they
//!   do count toward the fifty moves, which ends a game of nothing but failed attempts.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::board::Cell;
use crate::chess::{Move, MoveKind, MoveParseError, Position, Role, Seat};
use crate::game::{
    EndReason, Event, Family, Game, GameError, Options, Outcome, Prompt, PromptKind, VariantInfo,
};
use crate::view::{Panel, View, Viewer};

use super::chess::{board_view, counting_draws, stored_position};

/// Masquerade Chess.
pub struct Masquerade;

/// The pieces that wear masks, in the order of the book's table.
const MASKED: [Role; 5] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
];

fn masked_index(role: Role) -> Option<usize> {
    MASKED.iter().position(|r| *r == role)
}

/// Which capture move each masked piece type uses, in [`MASKED`] order.
pub type Assignment = [Role; 5];

/// A capture attempt, as both players saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Attempt {
    seat: Seat,
    role: Role,
    from: Cell,
    to: Cell,
    /// The capture moves that could have made this capture on the board as it stood.
    fits: Vec<Role>,
    success: bool,
}

/// What a player does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// The secret assignment of the opponent's capture moves.
    Assign(Assignment),
    /// A move, or a capture attempt by a masked piece.
    Move(Move),
}

/// The state of a game of Masquerade Chess.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MasqueradeState {
    #[serde(with = "stored_position")]
    position: Position,
    /// `captures[s]`: the capture moves of seat `s`'s pieces, chosen by the other seat.
    captures: [Option<Assignment>; 2],
    attempts: Vec<Attempt>,
    moves: Vec<String>,
    repetitions: Vec<u64>,
    last_move: Option<(Cell, Cell)>,
    /// Set when a king is captured.
    king_taken_by: Option<Seat>,
}

/// "KR QK RN BB NQ": each masked piece followed by the piece whose capture it uses.
pub fn assignment_text(a: &Assignment) -> String {
    MASKED
        .iter()
        .zip(a)
        .map(|(p, c)| format!("{}{}", p.upper_char(), c.upper_char()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads an assignment: pairs like `KR QK RN BB NQ` (any order, `K=R` or `K:R` too), or the
/// five capture letters for K, Q, R, B, N in that order (`RKNBQ`).
///
/// ```
/// use engine::variants::masquerade::{parse_assignment, assignment_text};
/// use engine::Role;
/// let a = parse_assignment("kr qk rn bb nq").unwrap();
/// assert_eq!(a[0], Role::Rook);
/// assert_eq!(assignment_text(&a), "KR QK RN BB NQ");
/// assert_eq!(parse_assignment("RKNBQ").unwrap(), a);
/// assert!(parse_assignment("KK QQ RR BB NQ").unwrap_err().contains("Q is given twice"));
/// ```
pub fn parse_assignment(text: &str) -> Result<Assignment, String> {
    let cleaned: String = text
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let role = |c: char| -> Result<Role, String> {
        Role::from_char(c)
            .filter(|r| masked_index(*r).is_some())
            .ok_or_else(|| format!("'{c}' is not K, Q, R, B or N"))
    };
    let mut out: [Option<Role>; 5] = [None; 5];
    let chars: Vec<char> = cleaned.chars().collect();
    match chars.len() {
        5 => {
            for (i, c) in chars.iter().enumerate() {
                out[i] = Some(role(*c)?);
            }
        }
        10 => {
            for pair in chars.chunks(2) {
                let piece = masked_index(role(pair[0])?).unwrap();
                if out[piece].is_some() {
                    return Err(format!("{} is given a capture twice", pair[0]));
                }
                out[piece] = Some(role(pair[1])?);
            }
        }
        _ => {
            return Err(
                "write five pairs, a piece then the capture it uses, like KR QK RN BB NQ".into(),
            )
        }
    }
    let out: Vec<Role> = out.iter().map(|r| r.expect("all five set")).collect();
    for capture in MASKED {
        let uses = out.iter().filter(|r| **r == capture).count();
        if uses != 1 {
            let verb = if uses == 0 {
                "is not given to any piece"
            } else {
                "is given twice"
            };
            return Err(format!(
                "each capture move goes to exactly one piece: {} {verb}",
                capture.upper_char()
            ));
        }
    }
    Ok([out[0], out[1], out[2], out[3], out[4]])
}

/// All 120 assignments.
fn all_assignments() -> Vec<Assignment> {
    let mut out = Vec::with_capacity(120);
    let mut roles = MASKED;
    permute(&mut roles, 0, &mut out);
    out
}

fn permute(roles: &mut Assignment, k: usize, out: &mut Vec<Assignment>) {
    if k == roles.len() {
        out.push(*roles);
        return;
    }
    for i in k..roles.len() {
        roles.swap(k, i);
        permute(roles, k + 1, out);
        roles.swap(k, i);
    }
}

impl MasqueradeState {
    fn new(position: Position) -> MasqueradeState {
        MasqueradeState {
            repetitions: vec![position.repetition_key()],
            position,
            captures: [None, None],
            attempts: Vec::new(),
            moves: Vec::new(),
            last_move: None,
            king_taken_by: None,
        }
    }

    fn setting_up(&self) -> bool {
        self.captures.iter().any(Option::is_none)
    }

    /// Whether `m` by the side to move is a capture attempt by a masked piece.
    fn is_attempt(&self, m: Move) -> bool {
        let pos = &self.position;
        let mover = pos.piece_at(m.from);
        let target = pos.piece_at(m.to);
        m.kind != MoveKind::Castle
            && mover.is_some_and(|p| p.role != Role::Pawn)
            && target.is_some_and(|t| Some(t.seat) != mover.map(|p| p.seat))
    }

    /// Everything the side to move may do: non-captures and pawn captures as in chess (check
    /// ignored), and capture attempts by masked pieces on any enemy piece some capture move
    /// could reach.
    fn candidates(&self) -> Vec<Move> {
        let pos = &self.position;
        let us = pos.turn();
        let mut out: Vec<Move> = pos
            .pseudo_legal_moves()
            .into_iter()
            .filter(|m| {
                let mover = pos.piece_at(m.from).map(|p| p.role);
                !self.is_attempt(*m)
                    && (mover == Some(Role::Pawn)
                        || m.kind == MoveKind::Castle
                        || pos.piece_at(m.to).is_none())
            })
            .collect();
        for from in pos.cells_of(us).iter() {
            if pos.piece_at(from).is_none_or(|p| p.role == Role::Pawn) {
                continue;
            }
            let mut targets: Vec<Cell> = MASKED
                .iter()
                .flat_map(|r| pos.reach(from, *r, us))
                .filter(|t| pos.piece_at(*t).is_some_and(|p| p.seat != us))
                .collect();
            targets.sort_unstable();
            targets.dedup();
            out.extend(targets.into_iter().map(|to| Move {
                from,
                to,
                kind: MoveKind::Normal,
            }));
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// `Ng1-f3`, `Nf3xe5`, `e7-e8=Q`, `O-O`: every square named, so the text says exactly which
    /// piece tried what.
    fn move_text(&self, m: Move) -> String {
        let pos = &self.position;
        let board = pos.board();
        if m.kind == MoveKind::Castle {
            return pos.san_plain(m);
        }
        let piece = pos.piece_at(m.from).expect("a move starts on a piece");
        let letter = if piece.role == Role::Pawn {
            String::new()
        } else {
            piece.role.upper_char().to_string()
        };
        let capture = pos.piece_at(m.to).is_some() || m.kind == MoveKind::EnPassant;
        let promotion = m
            .promotion()
            .map(|r| format!("={}", r.upper_char()))
            .unwrap_or_default();
        format!(
            "{letter}{}{}{}{promotion}",
            board.label(m.from),
            if capture { 'x' } else { '-' },
            board.label(m.to)
        )
    }

    /// The assignments still possible for `seat`'s own pieces given its attempts so far.
    fn possible_for(&self, seat: Seat) -> Vec<Assignment> {
        all_assignments()
            .into_iter()
            .filter(|a| {
                self.attempts.iter().filter(|t| t.seat == seat).all(|t| {
                    let capture = a[masked_index(t.role).expect("attempts are by masked pieces")];
                    t.fits.contains(&capture) == t.success
                })
            })
            .collect()
    }

    /// The state as `seat` may take it to be (see [`Game::determinize`]): the capture moves
    /// the opponent gave `seat`'s pieces are drawn among the assignments its attempts so far
    /// leave possible (those its table allows); the ones `seat` gave stay. Whether the
    /// opponent has assigned yet is public.
    fn determinized(&self, seat: Seat, seed: u64) -> MasqueradeState {
        let mut sample = self.clone();
        if self.captures[seat.index()].is_some() {
            let possible = self.possible_for(seat);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            // The true assignment is always among those possible: the fallback never serves.
            sample.captures[seat.index()] =
                Some(possible.choose(&mut rng).copied().unwrap_or(MASKED));
        }
        sample
    }

    fn knowledge_panel(&self, seat: Seat) -> Panel {
        let possible = self.possible_for(seat);
        let rows = MASKED
            .iter()
            .enumerate()
            .map(|(i, piece)| {
                let cells = MASKED
                    .iter()
                    .map(|capture| {
                        let with = possible.iter().filter(|a| a[i] == *capture).count();
                        if with == 0 {
                            "X".to_string()
                        } else if with == possible.len() {
                            "O".to_string()
                        } else {
                            String::new()
                        }
                    })
                    .collect();
                (piece.upper_char().to_string(), cells)
            })
            .collect();
        let mut notes = vec![format!(
            "Your pieces (rows) capture like (columns): O certain, X impossible; {} assignment{} still possible.",
            possible.len(),
            if possible.len() == 1 { "" } else { "s" }
        )];
        notes.push(match &self.captures[seat.opponent().index()] {
            Some(a) => format!("You gave your opponent's pieces: {}.", assignment_text(a)),
            None => {
                "You have not yet given your opponent's pieces their captures (/secret).".into()
            }
        });
        Panel {
            title: "Masquerade: what you know".into(),
            columns: MASKED.iter().map(|r| r.upper_char().to_string()).collect(),
            rows,
            notes,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(winner) = self.king_taken_by {
            return Some(Outcome::win(vec![winner], EndReason::KingCaptured));
        }
        if self.setting_up() {
            return None;
        }
        if self.candidates().is_empty() {
            return Some(Outcome::draw(EndReason::Stalemate));
        }
        counting_draws(&self.position, &self.repetitions)
    }
}

impl Game for Masquerade {
    type State = MasqueradeState;
    type Action = Action;

    fn info(&self) -> &VariantInfo {
        static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
        INFO.get_or_init(|| VariantInfo {
            id: "masquerade",
            aliases: &["masquerade-chess"],
            name: "Masquerade Chess",
            family: Family::Chess,
            seat_counts: &[2],
            options: Vec::new(),
            hidden_information: true,
            simultaneous: true,
            rules: "Before play each of you secretly gives your opponent's K, Q, R, B and N their \
                    capture moves, one each (send it with /secret, e.g. KR QK RN BB NQ: the king \
                    captures like a rook, the queen like a king...). Pieces move as usual; pawns \
                    capture as usual. To capture with another piece you ask \"Capture?\": if its \
                    secret capture move can do it, it happens; if not, nothing moves and your \
                    turn ends. Your private table shows what you have learned about your own \
                    pieces. There is no check: capture the enemy king to win. Draws \
                    (reconstructed, the book is silent): fifty moves without a capture or pawn \
                    move, the same position three times, or no possible move. A \"Capture?\" \
                    teaches something, so like a capture it starts the repetition count again: \
                    failed attempts never repeat a position.",
            source: "Chess Kit, 'Masquerade Chess'",
        })
    }

    fn setup(
        &self,
        _options: &Options,
        _seats: usize,
        _seed: u64,
    ) -> Result<MasqueradeState, GameError> {
        Ok(MasqueradeState::new(Position::startpos()))
    }

    fn prompts(&self, state: &MasqueradeState) -> Vec<Prompt> {
        if state.outcome().is_some() {
            return Vec::new();
        }
        if state.setting_up() {
            return (0..2u8)
                .map(Seat)
                .filter(|s| state.captures[s.opponent().index()].is_none())
                .map(|s| Prompt {
                    seat: s,
                    kind: PromptKind::Secret,
                    text:
                        "Give your opponent's pieces their capture moves: a piece then the capture \
                           it uses, each capture once, like KR QK RN BB NQ"
                            .into(),
                })
                .collect();
        }
        let turn = state.position.turn();
        vec![Prompt {
            seat: turn,
            kind: PromptKind::Move,
            text: format!("{} to move", turn.colour_name()),
        }]
    }

    fn legal(&self, state: &MasqueradeState, seat: Seat) -> Vec<Action> {
        if !self.prompts(state).iter().any(|p| p.seat == seat) {
            return Vec::new();
        }
        if state.setting_up() {
            return all_assignments().into_iter().map(Action::Assign).collect();
        }
        state.candidates().into_iter().map(Action::Move).collect()
    }

    fn action_text(&self, state: &MasqueradeState, action: &Action) -> String {
        match action {
            Action::Assign(a) => assignment_text(a),
            Action::Move(m) => state.move_text(*m),
        }
    }

    fn parse(&self, state: &MasqueradeState, seat: Seat, text: &str) -> Result<Action, GameError> {
        if state.setting_up() {
            return parse_assignment(text)
                .map(Action::Assign)
                .map_err(|reason| {
                    GameError::Move(MoveParseError::Illegal {
                        text: text.trim().into(),
                        reason,
                    })
                });
        }
        if seat != state.position.turn() {
            return Err(GameError::NotYourTurn(format!(
                "{} to move",
                state.position.turn().colour_name()
            )));
        }
        let candidates = state.candidates();
        match state.position.parse_move_among(text, &candidates) {
            Ok(m) => Ok(Action::Move(m)),
            Err(MoveParseError::Illegal { text, .. }) if looks_like_capture(&text) => {
                Err(GameError::Move(MoveParseError::Illegal {
                    text,
                    reason: "no piece could capture like that (and a move onto an enemy piece is always a capture)".into(),
                }))
            }
            Err(e) => Err(GameError::Move(e)),
        }
    }

    fn apply(
        &self,
        state: &mut MasqueradeState,
        seat: Seat,
        action: Action,
    ) -> Result<Vec<Event>, GameError> {
        match action {
            Action::Assign(a) => {
                let slot = &mut state.captures[seat.opponent().index()];
                if slot.is_some() {
                    return Err(GameError::BadSetup(
                        "you have already given your opponent's pieces their captures".into(),
                    ));
                }
                *slot = Some(a);
                let mut events = vec![Event::Public(format!(
                    "{} has secretly given the opponent's pieces their capture moves.",
                    seat.colour_name()
                ))];
                if !state.setting_up() {
                    events.push(Event::Public(
                        "Both tables are filled in: the masquerade begins. White to move.".into(),
                    ));
                }
                Ok(events)
            }
            Action::Move(m) => {
                if seat != state.position.turn() || state.setting_up() {
                    return Err(GameError::NotYourTurn(format!(
                        "{} to move",
                        state.position.turn().colour_name()
                    )));
                }
                if !state.candidates().contains(&m) {
                    return Err(GameError::Move(MoveParseError::Illegal {
                        text: state.move_text(m),
                        reason: "it is not a possible move here".into(),
                    }));
                }
                let text = state.move_text(m);
                let number = state.position.fullmoves();
                let dots = if seat == Seat::WHITE { "." } else { "..." };
                let mut events = Vec::new();
                let attempt = state.is_attempt(m);
                if attempt {
                    let pos = &state.position;
                    let mover = pos.piece_at(m.from).expect("attempts start on a piece");
                    let target = pos.piece_at(m.to).expect("attempts end on a piece");
                    let fits: Vec<Role> = MASKED
                        .iter()
                        .copied()
                        .filter(|r| pos.reach(m.from, *r, seat).contains(&m.to))
                        .collect();
                    let assigned = state.captures[seat.index()].expect("play starts after setup")
                        [masked_index(mover.role).expect("masked piece")];
                    let success = fits.contains(&assigned);
                    state.attempts.push(Attempt {
                        seat,
                        role: mover.role,
                        from: m.from,
                        to: m.to,
                        fits,
                        success,
                    });
                    if success {
                        if target.role == Role::King {
                            state.king_taken_by = Some(seat);
                        }
                        state.position.play_unchecked(m);
                        events.push(Event::Public(format!(
                            "{} played {number}{dots} {text}: Capture? Yes, the {} falls.",
                            seat.colour_name(),
                            target.role.name()
                        )));
                        state.last_move = Some((m.from, m.to));
                    } else {
                        state.position.pass();
                        events.push(Event::Public(format!(
                            "{} tried {number}{dots} {text}: Capture? No. Nothing moves.",
                            seat.colour_name()
                        )));
                    }
                } else {
                    let captured = state.position.piece_at(m.to);
                    if captured.is_some_and(|p| p.role == Role::King) {
                        state.king_taken_by = Some(seat);
                    }
                    state.position.play_unchecked(m);
                    events.push(Event::Public(format!(
                        "{} played {number}{dots} {text}",
                        seat.colour_name()
                    )));
                    state.last_move = Some((m.from, m.to));
                }
                // An attempt, answered yes or no, is irreversible like a capture or a pawn move:
                // both players learn from it, so no earlier position can come back.
                if attempt || state.position.halfmoves() == 0 {
                    state.repetitions.clear();
                }
                state.repetitions.push(state.position.repetition_key());
                state.moves.push(text);
                if let Some(o) = state.outcome() {
                    events.push(Event::GameOver(o));
                }
                Ok(events)
            }
        }
    }

    fn view(&self, state: &MasqueradeState, viewer: Viewer) -> View {
        let pos = &state.position;
        let mut view = board_view(self.info().id, pos, viewer);
        view.status = match state.outcome() {
            Some(o) => o.to_string(),
            None if state.setting_up() => {
                "Both players are secretly assigning capture moves".into()
            }
            None => format!("{} to move", pos.turn().colour_name()),
        };
        view.last_move = state.last_move.map(|(a, b)| vec![a, b]).unwrap_or_default();
        view.to_act = self.prompts(state).iter().map(|p| p.seat).collect();
        if let Viewer::Seat(s) = viewer {
            view.panel = Some(state.knowledge_panel(s));
        }
        view
    }

    fn outcome(&self, state: &MasqueradeState) -> Option<Outcome> {
        state.outcome()
    }

    fn determinize(&self, state: &MasqueradeState, seat: Seat, seed: u64) -> MasqueradeState {
        state.determinized(seat, seed)
    }

    fn secret_history(&self, state: &MasqueradeState) -> Vec<String> {
        (0..2u8)
            .map(Seat)
            .filter_map(|s| {
                state.captures[s.opponent().index()].map(|a| {
                    format!(
                        "{} gave {}'s pieces these captures: {}.",
                        s.colour_name(),
                        s.opponent().colour_name(),
                        assignment_text(&a)
                    )
                })
            })
            .collect()
    }
}

fn looks_like_capture(text: &str) -> bool {
    text.contains('x') || text.contains('X') || text.contains(':')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Piece, Rules};
    use crate::game::public_text;

    fn started(
        white_gives_black: &str,
        black_gives_white: &str,
        fen: Option<&str>,
    ) -> MasqueradeState {
        let mut s = Masquerade.setup(&Options::new(), 2, 0).unwrap();
        if let Some(fen) = fen {
            s = MasqueradeState::new(Position::from_fen(fen, Rules::chess()).unwrap());
        }
        let w = Masquerade
            .parse(&s, Seat::WHITE, white_gives_black)
            .unwrap();
        Masquerade.apply(&mut s, Seat::WHITE, w).unwrap();
        let b = Masquerade
            .parse(&s, Seat::BLACK, black_gives_white)
            .unwrap();
        Masquerade.apply(&mut s, Seat::BLACK, b).unwrap();
        s
    }

    fn play(s: &mut MasqueradeState, text: &str) -> Vec<Event> {
        let seat = s.position.turn();
        Game::play(&Masquerade, s, seat, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .1
    }

    fn public(events: &[Event]) -> String {
        public_text(events)
    }

    #[test]
    fn both_assign_in_secret_before_play() {
        let mut s = Masquerade.setup(&Options::new(), 2, 0).unwrap();
        let prompts = Masquerade.prompts(&s);
        assert_eq!(prompts.len(), 2, "both choose at once");
        assert!(prompts.iter().all(|p| p.kind == PromptKind::Secret));
        assert_eq!(Masquerade.legal(&s, Seat::WHITE).len(), 120);
        let a = Masquerade.parse(&s, Seat::BLACK, "KR QK RN BB NQ").unwrap();
        let events = Masquerade.apply(&mut s, Seat::BLACK, a).unwrap();
        assert!(
            !public(&events).contains("KR"),
            "the assignment stays secret"
        );
        assert_eq!(Masquerade.prompts(&s).len(), 1);
        assert!(
            Game::play(&Masquerade, &mut s, Seat::BLACK, "KK QQ RR BB NN").is_err(),
            "only once"
        );
    }

    #[test]
    fn capture_attempts_follow_the_secret_assignment() {
        // White's knight was given the bishop's capture, White's queen the knight's.
        let mut s = started("KK QQ RR BB NN", "KK QN RR BQ NB", None);
        play(&mut s, "e4");
        play(&mut s, "d5");
        // The pawn captures as a pawn always does.
        assert!(public(&play(&mut s, "exd5")).contains("e4xd5"));
        play(&mut s, "Nf6");
        play(&mut s, "Nc3");
        play(&mut s, "Nxd5");
        // Nc3xd5 is a knight's jump: White's knight captures like a bishop, so it fails.
        let events = play(&mut s, "Nxd5");
        assert!(
            public(&events).contains("Capture? No. Nothing moves."),
            "{}",
            public(&events)
        );
        assert_eq!(
            s.position.turn(),
            Seat::BLACK,
            "a failed attempt ends the turn"
        );
        let c3 = s.position.board().cell("c3").unwrap();
        assert_eq!(
            s.position.piece_at(c3).map(|p| p.role),
            Some(Role::Knight),
            "nothing moved"
        );
        // The table now rules out "knight captures like a knight" for White, and only that.
        let table = s.knowledge_panel(Seat::WHITE);
        assert_eq!(table.rows[4].1[4], "X");
        assert_eq!(table.rows[0].1, ["", "", "", "", ""]);
        // A capture no piece type could make is refused outright and costs nothing.
        play(&mut s, "e6");
        let err = Game::play(&Masquerade, &mut s, Seat::WHITE, "Qd1xd8").unwrap_err();
        assert!(
            err.to_string().contains("no piece could capture like that"),
            "{err}"
        );
        assert_eq!(s.position.turn(), Seat::WHITE);
    }

    #[test]
    fn a_sample_draws_the_opponents_secret_among_what_the_table_leaves_possible() {
        // "Either way, record what you learned in your table": a sample for White may give
        // White's pieces any capture moves its table allows, and none that it rules out.
        let mut s = started("KK QQ RR BB NN", "KK QN RR BQ NB", None);
        for m in ["e4", "d5", "exd5", "Nf6", "Nc3", "Nxd5", "Nxd5"] {
            play(&mut s, m);
        }
        let mut drawn = Vec::new();
        for seed in 0..30 {
            let sample = Masquerade.determinize(&s, Seat::WHITE, seed);
            let given = sample.captures[Seat::WHITE.index()].unwrap();
            assert_ne!(given[4], Role::Knight, "the failed Nc3xd5 ruled it out");
            assert_eq!(
                sample.captures[Seat::BLACK.index()],
                s.captures[Seat::BLACK.index()],
                "what White gave stays"
            );
            drawn.push(given);
        }
        drawn.sort_unstable();
        drawn.dedup();
        assert!(drawn.len() > 5, "{drawn:?}");
    }

    #[test]
    fn there_is_no_check_and_the_king_is_captured() {
        let mut s = started("KK QQ RR BB NN", "KK QQ RR BB NN", None);
        for m in ["e4", "f5", "Qh5"] {
            play(&mut s, m);
        }
        // Black ignores the check; so White takes the king.
        play(&mut s, "a6");
        let events = play(&mut s, "Qxe8");
        assert!(public(&events).contains("the king falls"));
        assert_eq!(
            events.last(),
            Some(&Event::GameOver(Outcome::win(
                vec![Seat::WHITE],
                EndReason::KingCaptured
            )))
        );
        assert!(s.position.king(Seat::BLACK).is_none());
        // The state with a king missing still stores and loads.
        let json = serde_json::to_string(&s).unwrap();
        let back: MasqueradeState = serde_json::from_str(&json).unwrap();
        assert_eq!(back.position.fen(), s.position.fen());
    }

    #[test]
    fn kings_may_step_into_attack_castle_through_it_and_take_kings() {
        let fen = "r3k3/8/8/8/8/8/5r2/4K2R w K - 0 1";
        let mut s = started("KK QQ RR BB NN", "KK QQ RR BB NN", Some(fen));
        // The f2 rook attacks f1, the square the king crosses: castling is still allowed.
        let castle = play(&mut s, "O-O");
        assert!(public(&castle).contains("O-O"));
        play(&mut s, "Kd8");
        // White's king may step onto h2, which the f2 rook attacks...
        play(&mut s, "Kh2");
        // ...and the rook takes it.
        let events = play(&mut s, "Rxh2");
        assert!(public(&events).contains("the king falls"));
    }

    #[test]
    fn a_promoted_piece_captures_as_its_new_type_was_assigned() {
        let fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
        // White's queens capture like knights.
        let mut s = started("KK QQ RR BB NN", "KK QN RR BQ NB", Some(fen));
        play(&mut s, "a8=Q");
        play(&mut s, "Kd7");
        // a8 to c7 is a knight's jump, but c7 is empty: move there as a queen can't (not a line).
        let err = Game::play(&Masquerade, &mut s, Seat::WHITE, "Qc7").unwrap_err();
        assert!(err.to_string().contains("not legal"), "{err}");
        s.position.set_piece(
            s.position.board().cell("b6").unwrap(),
            Some(Piece {
                seat: Seat::BLACK,
                role: Role::Knight,
            }),
        );
        // a8 to b6 is a knight's jump: White's queens capture like knights, so it works.
        let events = play(&mut s, "Qxb6");
        assert!(
            public(&events).contains("Capture? Yes"),
            "{}",
            public(&events)
        );
    }

    #[test]
    fn failed_attempts_do_not_repeat_positions() {
        // Both queens capture like knights, so neither can take the other down the d-file.
        let fen = "4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1";
        let mut s = started("KK QN RR BQ NB", "KK QN RR BQ NB", Some(fen));
        for _ in 0..6 {
            for attempt in ["Qd2xd5", "Qd5xd2"] {
                let events = play(&mut s, attempt);
                assert!(public(&events).contains("Capture? No"), "{attempt}");
                assert_eq!(
                    Masquerade.outcome(&s),
                    None,
                    "a position reached by a failed attempt is not a repetition"
                );
            }
        }
        // Moves after the last attempt repeat positions as in chess: the position the attempt
        // left counts once, and its third appearance is a draw.
        for (i, m) in ["Kf1", "Kf8", "Ke1", "Ke8", "Kf1", "Kf8", "Ke1", "Ke8"]
            .into_iter()
            .enumerate()
        {
            let events = play(&mut s, m);
            let over = events.iter().any(|e| matches!(e, Event::GameOver(_)));
            assert_eq!(over, i == 7, "after {m}");
        }
        assert_eq!(
            Masquerade.outcome(&s),
            Some(Outcome::draw(EndReason::ThreefoldRepetition))
        );
    }

    #[test]
    fn endless_failed_attempts_end_by_the_fifty_move_rule() {
        let fen = "4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1";
        let mut s = started("KK QN RR BQ NB", "KK QN RR BQ NB", Some(fen));
        for _ in 0..50 {
            assert_eq!(Masquerade.outcome(&s), None);
            play(&mut s, "Qd2xd5");
            play(&mut s, "Qd5xd2");
        }
        assert_eq!(
            Masquerade.outcome(&s),
            Some(Outcome::draw(EndReason::FiftyMoveRule))
        );
    }

    #[test]
    fn the_true_assignment_always_stays_possible() {
        let mut s = started("KN QK RQ BR NB", "KB QR RK BN NQ", None);
        let truth = s.captures[0].unwrap();
        let mut rng = 12345u64;
        for _ in 0..80 {
            if Masquerade.outcome(&s).is_some() {
                break;
            }
            let seat = s.position.turn();
            let legal = Masquerade.legal(&s, seat);
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1);
            let action = legal[(rng >> 33) as usize % legal.len()].clone();
            Masquerade.apply(&mut s, seat, action).unwrap();
            assert!(s.possible_for(Seat::WHITE).contains(&truth));
        }
    }
}
