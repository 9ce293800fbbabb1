//! Checkers (American rules, as Adams' book takes them for granted).
//!
//! - Black moves first. Men move one square diagonally forward and jump forward; kings move and
//!   jump diagonally both ways, one square at a time.
//! - Jumping is compulsory, and a multi-jump must be completed (any complete chain may be
//!   chosen). A man reaching the far row is crowned and its move ends there.
//! - A player with no piece or no move loses. Draws: by agreement, by threefold repetition, and
//!   by forty moves of each side (80 in all) without a capture or a move of an uncrowned man.

use serde::{Deserialize, Serialize};

use crate::board::Cell;
use crate::checkers::{divide, perft, CheckersMove, CheckersPosition, CheckersRules, Stack};
use crate::chess::{MoveParseError, Seat};
use crate::game::{
    EndReason, Event, Family, Game, GameError, OptionSpec, OptionValues, Options, Outcome, Prompt,
    PromptKind, VariantInfo,
};
use crate::view::{Figure, Layer, Placed, View, Viewer};

/// Checkers.
pub struct Checkers;

/// Plies without a capture or a man's move that make a draw (forty moves each).
const NO_PROGRESS_PLIES: u32 = 80;

/// The state of a game of checkers.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CheckersState {
    /// The rules and the position as PDN FEN with its quiet-move count.
    rules: CheckersRules,
    fen: String,
    quiet: u32,
    #[serde(skip)]
    position: Option<CheckersPosition>,
    moves: Vec<String>,
    repetitions: Vec<String>,
    last_move: Vec<Cell>,
}

impl CheckersState {
    fn new(position: CheckersPosition) -> CheckersState {
        let fen = position.fen();
        CheckersState {
            rules: position.rules().clone(),
            quiet: position.quiet_moves(),
            repetitions: vec![fen.clone()],
            fen,
            position: Some(position),
            moves: Vec::new(),
            last_move: Vec::new(),
        }
    }

    /// The position (rebuilt from the stored FEN after loading).
    fn position(&self) -> CheckersPosition {
        match &self.position {
            Some(p) => p.clone(),
            None => CheckersPosition::from_fen(&self.fen, self.rules.clone())
                .expect("stored positions are valid"),
        }
    }

    fn store(&mut self, position: CheckersPosition) {
        self.fen = position.fen();
        self.quiet = position.quiet_moves();
        self.position = Some(position);
    }

    fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        if pos.legal_moves().is_empty() {
            return Some(Outcome::win(
                vec![Seat(1 - pos.turn().0)],
                EndReason::NoMoves,
            ));
        }
        if self.quiet >= NO_PROGRESS_PLIES {
            return Some(Outcome::draw(EndReason::FiftyMoveRule));
        }
        if self.repetitions.iter().filter(|f| **f == self.fen).count() >= 3 {
            return Some(Outcome::draw(EndReason::ThreefoldRepetition));
        }
        None
    }
}

fn figure(stack: &Stack) -> Option<(Seat, Figure, Option<u8>)> {
    let top = stack.last()?;
    let figure = if stack.len() > 1 {
        Figure::Stack(
            stack
                .iter()
                .map(|c| Layer {
                    army: c.seat,
                    king: c.king,
                })
                .collect(),
        )
    } else if top.king {
        Figure::CheckersKing
    } else {
        Figure::Man
    };
    Some((top.seat, figure, top.number))
}

impl Game for Checkers {
    type State = CheckersState;
    type Action = CheckersMove;

    fn info(&self) -> &VariantInfo {
        static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
        INFO.get_or_init(|| VariantInfo {
            id: "checkers",
            aliases: &["draughts", "american-checkers"],
            name: "Checkers",
            family: Family::Checkers,
            seat_counts: &[2],
            options: vec![OptionSpec {
                key: "fen",
                help: "start from this position (PDN FEN, like B:W21,22:BK1)",
                default: None,
                values: OptionValues::Text,
            }],
            hidden_information: false,
            simultaneous: false,
            rules: "American checkers. Black moves first. Men move and jump one square diagonally \
                    forward; kings move and jump diagonally both ways. Jumping is compulsory and \
                    a multi-jump must be finished; a man reaching the far row is crowned and its \
                    move ends. No piece or no move loses. Forty moves each without a capture or \
                    a man's move, or a position repeated three times, is a draw. Moves are \
                    written with square numbers (11-15, 15x24x31) or coordinates (c3-d4).",
            source: "Will Adams, Variations on Chess and Checkers: 'Checkers'",
        })
    }

    fn setup(
        &self,
        options: &Options,
        _seats: usize,
        _seed: u64,
    ) -> Result<CheckersState, GameError> {
        let position = match options.get("fen") {
            Some(fen) => CheckersPosition::from_fen(fen, CheckersRules::american())
                .map_err(GameError::BadSetup)?,
            None => CheckersPosition::american(),
        };
        Ok(CheckersState::new(position))
    }

    fn prompts(&self, state: &CheckersState) -> Vec<Prompt> {
        if state.outcome().is_some() {
            return Vec::new();
        }
        let turn = state.position().turn();
        vec![Prompt {
            seat: turn,
            kind: PromptKind::Move,
            text: format!("{} to move", turn.colour_name()),
        }]
    }

    fn legal(&self, state: &CheckersState, seat: Seat) -> Vec<CheckersMove> {
        let pos = state.position();
        if seat != pos.turn() || state.outcome().is_some() {
            return Vec::new();
        }
        pos.legal_moves()
    }

    fn action_text(&self, state: &CheckersState, action: &CheckersMove) -> String {
        state.position().move_text(action)
    }

    fn parse(
        &self,
        state: &CheckersState,
        seat: Seat,
        text: &str,
    ) -> Result<CheckersMove, GameError> {
        let pos = state.position();
        if seat != pos.turn() {
            return Err(GameError::NotYourTurn(format!(
                "{} to move",
                pos.turn().colour_name()
            )));
        }
        pos.parse_move(text).map_err(|reason| {
            GameError::Move(MoveParseError::Illegal {
                text: text.trim().into(),
                reason: reason.split(": ").nth(1).unwrap_or(&reason).to_string(),
            })
        })
    }

    fn apply(
        &self,
        state: &mut CheckersState,
        seat: Seat,
        m: CheckersMove,
    ) -> Result<Vec<Event>, GameError> {
        let mut pos = state.position();
        if seat != pos.turn() || !pos.legal_moves().contains(&m) {
            return Err(GameError::Move(MoveParseError::Illegal {
                text: pos.move_text(&m),
                reason: "it is not a legal move now".into(),
            }));
        }
        let text = pos.move_text(&m);
        let crowned = pos.top(m.from).is_some_and(|c| !c.king) && pos.is_king_row(m.to(), seat);
        pos.play(&m);
        state.last_move = std::iter::once(m.from)
            .chain(m.path.iter().copied())
            .collect();
        state.store(pos);
        if state.quiet == 0 {
            state.repetitions.clear();
        }
        state.repetitions.push(state.fen.clone());
        let mut line = format!("{} played {text}", seat.colour_name());
        if crowned {
            line.push_str(" and is crowned");
        }
        state.moves.push(text);
        let mut events = vec![Event::Public(line)];
        if let Some(o) = state.outcome() {
            events.push(Event::GameOver(o));
        }
        Ok(events)
    }

    fn view(&self, state: &CheckersState, viewer: Viewer) -> View {
        let pos = state.position();
        let outcome = state.outcome();
        View {
            variant: self.info().id,
            board: pos.board_arc().clone(),
            viewer,
            bottom: match viewer {
                Viewer::Seat(s) => s,
                Viewer::Spectator => Seat::WHITE,
            },
            figures: pos
                .board()
                .cells()
                .filter_map(|c| {
                    let (army, figure, number) = figure(pos.stack(c))?;
                    let mut placed = Placed::new(c, army, figure);
                    placed.number = number;
                    Some(placed)
                })
                .collect(),
            last_move: state.last_move.clone(),
            checks: Vec::new(),
            to_act: if outcome.is_some() {
                Vec::new()
            } else {
                vec![pos.turn()]
            },
            players: vec![Seat::WHITE.colour_name(), Seat::BLACK.colour_name()],
            move_number: state.moves.len() as u32 / 2 + 1,
            status: match &outcome {
                Some(o) => o.to_string(),
                None => format!("{} to move", pos.turn().colour_name()),
            },
            panel: None,
        }
    }

    fn outcome(&self, state: &CheckersState) -> Option<Outcome> {
        state.outcome()
    }

    fn perft(&self, state: &CheckersState, depth: u32) -> Option<u64> {
        Some(perft(&state.position(), depth))
    }

    fn divide(&self, state: &CheckersState, depth: u32) -> Option<Vec<(String, u64)>> {
        Some(divide(&state.position(), depth))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(fen: &str) -> CheckersState {
        let mut o = Options::new();
        o.set("fen", fen);
        Checkers.setup(&o, 2, 0).unwrap()
    }

    fn play(s: &mut CheckersState, text: &str) -> Vec<Event> {
        let seat = s.position().turn();
        Game::play(&Checkers, s, seat, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .1
    }

    #[test]
    fn black_opens_and_notation_reads_both_ways() {
        let mut s = Checkers.setup(&Options::new(), 2, 0).unwrap();
        assert_eq!(Game::legal(&Checkers, &s, Seat::BLACK).len(), 7);
        assert!(Game::legal(&Checkers, &s, Seat::WHITE).is_empty());
        play(&mut s, "11-15");
        play(&mut s, "c3-d4");
        assert_eq!(s.moves, ["11-15", "22-18"]);
    }

    #[test]
    fn jumps_are_compulsory_and_multi_jumps_complete() {
        // Black's man on 9 can jump 14 and then 23.
        let mut s = from("B:W14,23,30:B9");
        let err = Game::play(&Checkers, &mut s, Seat::BLACK, "9-13").unwrap_err();
        assert!(err.to_string().contains("jumping is compulsory"), "{err}");
        let events = play(&mut s, "9x18x27");
        assert!(matches!(&events[0], Event::Public(t) if t == "Black played 9x18x27"));
        assert_eq!(s.fen, "W:W30:B27");
        // "9x27" with the middle square left out reads the same.
        let mut s = from("B:W14,23,30:B9");
        play(&mut s, "9x27");
        assert_eq!(s.fen, "W:W30:B27");
    }

    #[test]
    fn a_man_reaching_the_king_row_is_crowned_and_stops() {
        // White's man on 10 jumps 6 onto 1 and is crowned; it may not go on jumping 5 as a king.
        let mut s = from("W:W10:B6,5,2");
        let legal: Vec<String> = Game::legal(&Checkers, &s, Seat::WHITE)
            .iter()
            .map(|m| s.position().move_text(m))
            .collect();
        assert_eq!(legal, ["10x1"]);
        let events = play(&mut s, "10x1");
        assert!(matches!(&events[0], Event::Public(t) if t.ends_with("and is crowned")));
        assert_eq!(s.fen, "B:WK1:B2,5");
    }

    #[test]
    fn no_move_loses_and_quiet_play_draws() {
        let mut s = from("B:W14,18:B5");
        play(&mut s, "5-9");
        play(&mut s, "14x5");
        assert_eq!(
            Checkers.outcome(&s),
            Some(Outcome::win(vec![Seat::WHITE], EndReason::NoMoves))
        );
        let mut s = from("W:WK29:BK4");
        for _ in 0..20 {
            for (w, b) in [("29-25", "4-8"), ("25-29", "8-4")] {
                if Checkers.outcome(&s).is_some() {
                    break;
                }
                play(&mut s, w);
                if Checkers.outcome(&s).is_some() {
                    break;
                }
                play(&mut s, b);
            }
        }
        assert_eq!(
            Checkers.outcome(&s),
            Some(Outcome::draw(EndReason::ThreefoldRepetition))
        );
    }

    #[test]
    fn states_store_and_load() {
        let mut s = Checkers.setup(&Options::new(), 2, 0).unwrap();
        play(&mut s, "11-15");
        let json = serde_json::to_string(&s).unwrap();
        let back: CheckersState = serde_json::from_str(&json).unwrap();
        assert_eq!(back.position().fen(), s.fen);
        assert_eq!(Game::legal(&Checkers, &back, Seat::WHITE).len(), 7);
    }
}
