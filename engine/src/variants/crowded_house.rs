//! Crowded House (Don Kirkby, *Chess Kit*): four players, two teams, one ordinary chess set.
//!
//! Each player moves the pieces of his team's colour on his half of the board: the king side
//! (files e-h) or the queen side (files a-d). A player may move a piece that **starts** or
//! **ends** on his side. Order: king-side White, king-side Black, queen-side White, queen-side
//! Black. A player who can move nothing passes.
//!
//! "The rest of the rule changes flow from whether a piece may be captured immediately": check
//! means the *next* player can take the king. So a king may move into check, stay in it or
//! castle out of it, as long as the next player (an opponent with his own half) cannot make the
//! capture; en passant can only be taken by the very next player; checkmate is a player who
//! cannot stop the next player taking his king.
//!
//! Interpretations, said also in `/rules`: castling is judged by the king's move (king side
//! starts and ends on the king side; queen-side castling starts on the king side and ends on the
//! queen side, so either player of the team may make it), and needs only the squares between
//! king and rook empty and the king safe from the next player afterwards; a player not in check
//! whose every move would hand his king to the next player passes, as one who can move nothing
//! does (the book names only the latter; chess would call it stalemate); four passes in a row
//! draw (nobody can move); the fifty-move rule counts fifty moves by each colour. There is no
//! draw for insufficient material: the book has none, and even a lone king can mate, since a
//! player with nothing on his half passes and a king may stand next to the enemy king when
//! the next player cannot take it.

use serde::{Deserialize, Serialize};

use crate::board::Cell;
use crate::chess::{Move, MoveKind, MoveParseError, Position, Seat};
use crate::game::{
    EndReason, Event, Family, Game, GameError, Options, Outcome, Prompt, PromptKind, VariantInfo,
};
use crate::table::{ArmyStatus, Table, TableArmy, Turn};
use crate::view::{View, Viewer};

use super::chess::{board_view, counting_draws_by};

/// Crowded House.
pub struct CrowdedHouse;

/// The players in the order they move: (name, army, the half they play).
const PLAYERS: [(&str, u8, Half); 4] = [
    ("king-side White", 0, Half::King),
    ("king-side Black", 1, Half::King),
    ("queen-side White", 0, Half::Queen),
    ("queen-side Black", 1, Half::Queen),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Half {
    /// Files e-h.
    King,
    /// Files a-d.
    Queen,
}

impl Half {
    fn holds(self, pos: &Position, cell: Cell) -> bool {
        let queen_side = pos.board().coord(cell).0 < 4;
        queen_side == (self == Half::Queen)
    }
    fn files(self) -> &'static str {
        match self {
            Half::King => "e-h",
            Half::Queen => "a-d",
        }
    }
}

/// A game of Crowded House.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CrowdedState {
    position: Position,
    table: Table,
    /// Every move in SAN with its player, passes included.
    moves: Vec<String>,
    /// Repetition keys (with whose turn it is) since the last capture or pawn move.
    repetitions: Vec<u64>,
    /// Passes in a row.
    passes: u8,
    last_move: Vec<Cell>,
    outcome: Option<Outcome>,
}

fn half_of(player: Seat) -> Half {
    PLAYERS[player.index() % 4].2
}

impl Default for CrowdedState {
    fn default() -> CrowdedState {
        CrowdedState::new()
    }
}

impl CrowdedState {
    /// A game from the usual array.
    pub fn new() -> CrowdedState {
        let armies = vec![
            TableArmy {
                name: "White".into(),
                controller: Seat(0),
                team: 0,
                status: ArmyStatus::Playing,
            },
            TableArmy {
                name: "Black".into(),
                controller: Seat(1),
                team: 1,
                status: ArmyStatus::Playing,
            },
        ];
        let order = (0..4u8)
            .map(|p| Turn {
                army: PLAYERS[p as usize].1,
                player: Seat(p),
            })
            .collect();
        let position = Position::startpos();
        let mut state = CrowdedState {
            position,
            table: Table::new(armies, order),
            moves: Vec::new(),
            repetitions: Vec::new(),
            passes: 0,
            last_move: Vec::new(),
            outcome: None,
        };
        state.repetitions.push(state.repetition_key());
        state
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }
    /// The moves played, each with its player.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    fn repetition_key(&self) -> u64 {
        self.position.repetition_key() ^ (self.table.current().player.0 as u64).rotate_left(40)
    }

    /// Whether the player to move is in check: the next player could take his king now.
    fn in_check(&self) -> bool {
        in_check_at(&self.position, &self.table)
    }

    /// The moves of the player to move: a piece of his colour starting or ending on his half,
    /// leaving his king out of the next player's reach.
    fn moves_now(&self) -> Vec<Move> {
        moves_at(&self.position, &self.table)
    }

    fn name(player: Seat) -> &'static str {
        PLAYERS[player.index() % 4].0
    }

    /// SAN (among the moves `allowed` now) with `+` when the move puts the opponent who moves
    /// next in check (his king in reach of the mover's partner), `#` when he cannot get out of
    /// it. Only a check the move gives is marked: by the moved piece or one it uncovered, not
    /// one that stood before the move (a king that walked into a piece the next player could
    /// not use then).
    fn notate(&self, m: Move, allowed: &[Move]) -> String {
        let mut text = self.position.san_plain_among(m, allowed);
        let mut pos = self.position.clone();
        pos.play_unchecked(m);
        let mut table = self.table.clone();
        table.advance(|_, _| true);
        if newly_in_check(&self.position, &pos, &table) {
            text.push(if moves_at(&pos, &table).is_empty() {
                '#'
            } else {
                '+'
            });
        }
        text
    }

    fn apply_move(&mut self, m: Move, allowed: &[Move]) -> Vec<Event> {
        let turn = self.table.current();
        let player = turn.player;
        let text = self.notate(m, allowed);
        let number = self.table.rounds() + 1;
        let mut events = vec![Event::Public(format!(
            "{} played {number}. {text}",
            Self::name(player)
        ))];
        self.moves.push(format!("{}: {text}", Self::name(player)));
        self.position.play_unchecked(m);
        // A castle is shown by the king's move, as in chess.
        let to = match m.kind {
            MoveKind::Castle => self.position.king(Seat(turn.army)).unwrap_or(m.to),
            _ => m.to,
        };
        self.last_move = vec![m.from, to];
        self.passes = 0;
        if self.position.halfmoves() == 0 {
            self.repetitions.clear();
        }
        events.extend(self.next_turn());
        events
    }

    /// Hands the turn on; a player who can move nothing passes, one who cannot keep his king
    /// from the next player is mated.
    fn next_turn(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        loop {
            self.table.advance(|_, _| true);
            self.repetitions.push(self.repetition_key());
            if !self.moves_now().is_empty() {
                break;
            }
            let player = self.table.current().player;
            if self.in_check() {
                let loser = self.table.team(self.table.current().army);
                self.outcome = Some(Outcome::win(
                    self.table.players_of_team(1 - loser),
                    EndReason::Checkmate,
                ));
                return events;
            }
            events.push(Event::Public(format!(
                "{} cannot move and passes.",
                Self::name(player)
            )));
            self.moves.push(format!("{}: pass", Self::name(player)));
            self.position.pass();
            self.passes += 1;
            if self.passes >= 4 {
                self.outcome = Some(Outcome::draw(EndReason::Stalemate));
                return events;
            }
        }
        // No draw for insufficient material: lone kings can still mate here.
        self.outcome = counting_draws_by(
            self.position.halfmoves(),
            100,
            self.repetition_key(),
            &self.repetitions,
        );
        events
    }

    /// Why a move the chess rules allow is refused here.
    fn why_refused(&self, m: Move) -> String {
        let turn = self.table.current();
        let half = half_of(turn.player);
        if !half_allows(&self.position, half, m) {
            return format!(
                "you may only move a piece that starts or ends on your half of the board (files {})",
                half.files()
            );
        }
        format!(
            "{} could then take your king",
            Self::name(self.table.following().player)
        )
    }
}

static INFO: std::sync::LazyLock<VariantInfo> = std::sync::LazyLock::new(|| VariantInfo {
    id: "crowded-house",
    aliases: &["crowded", "crowdedhouse"],
    name: "Crowded House",
    family: Family::Chess,
    seat_counts: &[4],
    options: Vec::new(),
    hidden_information: false,
    simultaneous: false,
    rules: RULES,
    source: "Don Kirkby, Chess Kit: Crowded House",
});

const RULES: &str = "\
Two teams of two on one ordinary chess set. Seats in order: king-side White, king-side Black, \
queen-side White, queen-side Black, and that is the order of play. You may move a piece of your \
colour only if it starts or ends on your half: the king side is files e-h, the queen side a-d. \
If you can move nothing, you pass.\n\
Check means the next player can take the king. So a king may move into check, stay in it, or \
castle out of it, as long as the next player cannot make the capture; en passant works only for \
the very next player; checkmate is when you cannot stop the next player taking your king, and \
your team loses.\n\
Our readings (interpretations): castling counts as the king's move (O-O is the king side's, \
O-O-O either partner's), needs the squares between king and rook empty and your king out of \
the next player's reach afterwards, and may pass attacked squares; a player not in check whose every move would let the next \
player take his king passes (no stalemate); four passes in a row draw; \
fifty moves by each colour without a capture or pawn move, and threefold repetition (with the \
same player to move) draw. There is no draw for insufficient material: even a lone king can \
mate, because a player with nothing on his half passes.";

impl Game for CrowdedHouse {
    type State = CrowdedState;
    type Action = Move;

    fn info(&self) -> &VariantInfo {
        &INFO
    }

    fn setup(
        &self,
        _options: &Options,
        _seats: usize,
        _seed: u64,
    ) -> Result<CrowdedState, GameError> {
        Ok(CrowdedState::new())
    }

    fn prompts(&self, state: &CrowdedState) -> Vec<Prompt> {
        if state.outcome.is_some() {
            return Vec::new();
        }
        let player = state.table.current().player;
        let mut text = format!("{} to move", CrowdedState::name(player));
        if state.in_check() {
            text.push_str(&format!(
                ": in check ({} could take your king)",
                CrowdedState::name(state.table.following().player)
            ));
        }
        vec![Prompt {
            seat: player,
            kind: PromptKind::Move,
            text,
        }]
    }

    fn legal(&self, state: &CrowdedState, seat: Seat) -> Vec<Move> {
        if state.outcome.is_some() || state.table.current().player != seat {
            return Vec::new();
        }
        state.moves_now()
    }

    fn action_text(&self, state: &CrowdedState, action: &Move) -> String {
        state.position.san_plain_among(*action, &state.moves_now())
    }

    fn legal_texts(&self, state: &CrowdedState, seat: Seat) -> Vec<String> {
        let moves = Game::legal(self, state, seat);
        moves
            .iter()
            .map(|m| state.position.san_plain_among(*m, &moves))
            .collect()
    }

    fn parse(&self, state: &CrowdedState, seat: Seat, text: &str) -> Result<Move, GameError> {
        let turn = state.table.current();
        if turn.player != seat {
            return Err(GameError::NotYourTurn(format!(
                "{} to move",
                CrowdedState::name(turn.player)
            )));
        }
        let allowed = state.moves_now();
        match state.position.parse_move_among(text, &allowed) {
            Ok(m) => Ok(m),
            Err(err) => {
                let all = state.position.pseudo_legal_moves();
                match state.position.parse_move_among(text, &all) {
                    Ok(m) => Err(GameError::Move(MoveParseError::Illegal {
                        text: text.trim().to_string(),
                        reason: state.why_refused(m),
                    })),
                    Err(_) => Err(GameError::Move(err)),
                }
            }
        }
    }

    fn apply(
        &self,
        state: &mut CrowdedState,
        seat: Seat,
        action: Move,
    ) -> Result<Vec<Event>, GameError> {
        let allowed = state.moves_now();
        if state.table.current().player != seat || !allowed.contains(&action) {
            return Err(GameError::Move(MoveParseError::Illegal {
                text: state.position.san_plain(action),
                reason: "it is not a legal move now".into(),
            }));
        }
        Ok(state.apply_move(action, &allowed))
    }

    fn view(&self, state: &CrowdedState, viewer: Viewer) -> View {
        let pos = &state.position;
        let mut view = board_view(self.info().id, pos, viewer);
        let turn = state.table.current();
        view.bottom = match viewer {
            Viewer::Seat(s) => Seat(state.table.armies_of(s).first().copied().unwrap_or(0)),
            Viewer::Spectator => Seat::WHITE,
        };
        view.players = PLAYERS.iter().map(|p| p.0.to_string()).collect();
        // Each player is named by his half as well as his colour.
        view.table = state.table.lines();
        for line in &mut view.table {
            line.side = CrowdedState::name(line.player).to_string();
        }
        view.last_move = state.last_move.clone();
        view.move_number = state.table.rounds() + 1;
        let in_check = state.in_check();
        if in_check {
            view.checks = pos.king(Seat(turn.army)).into_iter().collect();
        }
        view.status = match &state.outcome {
            Some(o) => o.describe(|s| CrowdedState::name(s).to_string()),
            None if in_check => {
                format!("{} to move, in check", CrowdedState::name(turn.player))
            }
            None => format!("{} to move", CrowdedState::name(turn.player)),
        };
        if state.outcome.is_none() {
            view.to_act = vec![turn.player];
        }
        view
    }

    fn outcome(&self, state: &CrowdedState) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn seat_name(&self, _state: &CrowdedState, seat: Seat) -> String {
        CrowdedState::name(seat).to_string()
    }

    fn concede(
        &self,
        state: &CrowdedState,
        seat: Seat,
        _seats: usize,
        reason: EndReason,
    ) -> Outcome {
        // The resigner's team loses; the partner never wins by it.
        let army = state.table.armies_of(seat).first().copied().unwrap_or(0);
        let team = state.table.team(army);
        Outcome::win(state.table.players_of_team(1 - team), reason)
    }
}

/// Whether a move starts or ends on `half` (castling: the king's move).
fn half_allows(pos: &Position, half: Half, m: Move) -> bool {
    let to = if m.kind == MoveKind::Castle {
        pos.displacements(m).first().map_or(m.to, |(_, to, _)| *to)
    } else {
        m.to
    };
    half.holds(pos, m.from) || half.holds(pos, to)
}

/// Whether `player`'s army could take `army`'s king in `pos`: with any piece if the king stands
/// on his half, else with a piece standing on his half.
fn can_take_king(pos: &Position, player: Turn, army: Seat) -> bool {
    let Some(king) = pos.king(army) else {
        return false;
    };
    let taker = Seat(player.army);
    if !pos.attacked_by(king, taker) {
        return false;
    }
    let half = half_of(player.player);
    half.holds(pos, king)
        || pos
            .attackers(king, taker)
            .iter()
            .any(|(c, _)| half.holds(pos, *c))
}

/// Whether the player to move at `table` is in check in `pos`: the next player could take his
/// king now.
fn in_check_at(pos: &Position, table: &Table) -> bool {
    can_take_king(pos, table.following(), Seat(table.current().army))
}

/// Whether the move from `before` to `after` put the player to move at `table` in check: the
/// next player could take his king with a piece that did not attack it before the move (the
/// moved piece, or one it uncovered).
fn newly_in_check(before: &Position, after: &Position, table: &Table) -> bool {
    let taker = table.following();
    let Some(king) = after.king(Seat(table.current().army)) else {
        return false;
    };
    if !can_take_king(after, taker, Seat(table.current().army)) {
        return false;
    }
    let half = half_of(taker.player);
    let old: Vec<Cell> = before
        .attackers(king, Seat(taker.army))
        .into_iter()
        .map(|(c, _)| c)
        .collect();
    after
        .attackers(king, Seat(taker.army))
        .iter()
        .any(|(c, _)| !old.contains(c) && (half.holds(after, king) || half.holds(after, *c)))
}

/// The moves of the player to move at `table`: a piece of his colour starting or ending on his
/// half, leaving his king out of the next player's reach.
fn moves_at(pos: &Position, table: &Table) -> Vec<Move> {
    let turn = table.current();
    let half = half_of(turn.player);
    let next = table.following();
    pos.pseudo_legal_moves()
        .into_iter()
        .filter(|m| half_allows(pos, half, *m))
        .filter(|m| {
            let mut after = pos.clone();
            after.play_unchecked(*m);
            !can_take_king(&after, next, Seat(turn.army))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Rules;

    fn play(state: &mut CrowdedState, text: &str) -> Vec<Event> {
        let seat = state.table.current().player;
        CrowdedHouse
            .play(state, seat, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .1
    }

    #[test]
    fn each_player_moves_pieces_starting_or_ending_on_his_half() {
        let mut state = CrowdedState::new();
        // King-side White: e-h pawns and the g-knight, and nothing of the queen side.
        let legal: Vec<String> = CrowdedHouse
            .legal(&state, Seat(0))
            .iter()
            .map(|m| state.position.san_plain(*m))
            .collect();
        assert!(legal.contains(&"e4".to_string()) && legal.contains(&"Nf3".to_string()));
        assert!(!legal.contains(&"d4".to_string()) && !legal.contains(&"Nc3".to_string()));
        let err = CrowdedHouse.play(&mut state, Seat(0), "d4").unwrap_err();
        assert!(err.to_string().contains("files e-h"), "{err}");
        play(&mut state, "e4"); // king-side White
        play(&mut state, "e5"); // king-side Black
                                // Queen-side White may move the bishop f1, which starts on the king side, to c4 on
                                // his own side, but not to e2 (start and end on the king side).
        play(&mut state, "Bc4");
        assert_eq!(state.table.current().player, Seat(3));
        let err = CrowdedHouse.play(&mut state, Seat(0), "Nf3").unwrap_err();
        assert!(err.to_string().contains("not your turn"), "{err}");
    }

    #[test]
    fn check_is_only_what_the_next_player_can_take() {
        let mut state = CrowdedState::new();
        // f3 (king-side White), e5 (king-side Black), a3 (queen-side White), Qh4 (queen-side
        // Black: the queen starts on d8, on his half).
        play(&mut state, "f3");
        play(&mut state, "e5");
        play(&mut state, "a3");
        play(&mut state, "Qh4");
        // King-side White is to move, and the player after him, king-side Black, could take
        // on e1 with the queen on his half: check.
        assert!(state.in_check());
        // g3 blocks.
        play(&mut state, "g3");
        assert!(state.outcome.is_none());
    }

    #[test]
    fn fools_mate_needs_the_next_player_to_be_able_to_take() {
        let mut state = CrowdedState::new();
        play(&mut state, "f3");
        play(&mut state, "e5");
        play(&mut state, "a3");
        play(&mut state, "b6");
        play(&mut state, "g4");
        play(&mut state, "h6");
        play(&mut state, "b3");
        // Queen-side Black's queen d8 to h4 is the queen side's move (it starts on d8).
        let events = play(&mut state, "Qh4");
        // King-side White is to move, and king-side Black (next) could take on e1 from h4:
        // nothing saves the king, so Black wins.
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::GameOver(o) if o.winners == vec![Seat(1), Seat(3)])),
            "{events:?}"
        );
    }

    /// The book has no insufficient-material rule, and lone pieces can still mate: "Win by
    /// check mate, as usual, but remember that the next player on the attacking team has to be
    /// able to make the capture", while a player with nothing on his half passes. The audit's
    /// line (ch4.txt): after Kxf5 only White's king faces Black's king and knight, and White
    /// mates.
    #[test]
    fn a_lone_king_can_still_mate_so_there_is_no_material_draw() {
        let mut state = CrowdedState::new();
        state.position =
            Position::from_fen("8/n2k4/8/5pK1/8/8/8/8 w - - 0 1", Rules::chess()).unwrap();
        state.repetitions = vec![state.repetition_key()];
        play(&mut state, "Kxf5"); // king-side White
        assert!(state.outcome.is_none(), "{:?}", state.outcome);
        play(&mut state, "Ke8"); // king-side Black; queen-side White has nothing and passes
        play(&mut state, "Nc8"); // queen-side Black
        play(&mut state, "Kg6"); // king-side White
                                 // King-side Black may stand next to White's king: queen-side White, next, cannot take
                                 // on f7. He passes again, and queen-side Black cannot keep the king from king-side
                                 // White.
        let events = play(&mut state, "Kf7");
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::GameOver(o) if o.winners == vec![Seat(0), Seat(2)])),
            "{events:?}"
        );
    }

    /// A move is marked `+` for the check it gives, not for one that stood before it: after
    /// White's king walked to d2 facing the bishop on b4 (safe then: king-side Black, next,
    /// could not use the bishop), king-side Black's h6 leaves queen-side White in check, but
    /// h6 gave no check (the audit's ch2.txt).
    #[test]
    fn a_move_is_marked_with_the_check_it_gives_not_one_that_stood() {
        let mut state = CrowdedState::new();
        for text in ["Nf3", "e6", "d3"] {
            play(&mut state, text);
        }
        play(&mut state, "Bb4");
        assert_eq!(state.moves.last().unwrap(), "queen-side Black: Bb4+");
        play(&mut state, "Kd2");
        assert_eq!(state.moves.last().unwrap(), "king-side White: Kd2");
        play(&mut state, "h6");
        assert!(
            state.in_check(),
            "queen-side White is in check from the bishop"
        );
        assert_eq!(state.moves.last().unwrap(), "king-side Black: h6");
    }

    #[test]
    fn a_resignation_hands_the_game_to_the_other_team() {
        let state = CrowdedState::new();
        let o = CrowdedHouse.concede(&state, Seat(2), 4, EndReason::Resignation);
        assert_eq!(o.winners, vec![Seat(1), Seat(3)]);
    }
}
