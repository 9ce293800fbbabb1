//! Adams' checkers family: Checkers, Stax and Queens, each on a flat, cylindrical or universal
//! board, each with or without Numbers: eighteen games on one machinery.
//!
//! - Checkers (American rules, as the book takes them for granted): Black moves first. Men
//!   move and jump one square diagonally forward; kings move and jump diagonally both ways.
//!   Jumping is compulsory and a multi-jump must be finished; a man reaching the far row is
//!   crowned and its move ends there.
//! - Stax: jumped checkers are carried underneath as prisoners; a stack belongs to, and moves
//!   with, its top checker; jumping a stack takes only its top checker and frees what it held.
//!   Only the top checker is crowned; a king jumped off a stack leaves the rest to earn their
//!   crown again unless the next checker is already a king; released kings stay kings.
//! - Queens: Stax on all 64 squares, Black's men on the dark squares and White's on the light;
//!   moves are diagonal only; men also jump straight forward; kings jump in all eight
//!   directions.
//! - Boards (option `board`): `flat`; `cylinder` (the side edges touch, for moves and jumps);
//!   `universal` or `torus` (all edges touch, but only kings cross the ends: a man must be
//!   crowned in the far row before it may).
//! - Numbers (option `numbers=on`): men numbered 1-12, shuffled into their start squares by the
//!   game's seeded RNG; no man jumps a higher number; kings jump anything; only a king jumps a
//!   king.
//! - A player with no piece (or every piece a prisoner) or no move loses. Draws: by agreement,
//!   threefold repetition, and forty moves of each side without a capture or a man's move.

use serde::{Deserialize, Serialize};

use crate::board::{Cell, Wrap};
use crate::checkers::{divide, perft, CheckersMove, CheckersPosition, CheckersRules, Kind, Stack};
use crate::chess::{MoveParseError, Seat};
use crate::game::{
    EndReason, Event, Family, Game, GameError, OptionSpec, OptionValues, Options, Outcome, Prompt,
    PromptKind, VariantInfo,
};
use crate::view::{Figure, Layer, Placed, View, Viewer};

/// One game of the family; the registry holds [`CHECKERS`], [`STAX`] and [`QUEENS`].
pub struct CheckersFamily {
    kind: Kind,
    info: fn() -> &'static VariantInfo,
}

/// Checkers.
pub static CHECKERS: CheckersFamily = CheckersFamily {
    kind: Kind::Checkers,
    info: checkers_info,
};
/// Stax.
pub static STAX: CheckersFamily = CheckersFamily {
    kind: Kind::Stax,
    info: stax_info,
};
/// Queens.
pub static QUEENS: CheckersFamily = CheckersFamily {
    kind: Kind::Queens,
    info: queens_info,
};

/// Plies without a capture or a man's move that make a draw (forty moves each).
const NO_PROGRESS_PLIES: u32 = 80;

const BOARD_HELP: &str = "flat, cylinder (side edges touch) or universal / torus (all edges touch)";

fn family_options(with_fen: bool) -> Vec<OptionSpec> {
    let mut options = vec![
        OptionSpec {
            key: "board",
            help: BOARD_HELP,
            default: Some("flat"),
            values: OptionValues::Choice(&["flat", "cylinder", "universal", "torus"]),
        },
        OptionSpec {
            key: "numbers",
            help:
                "on: men numbered 1-12 at random; none jumps a higher number, only kings jump kings",
            default: Some("off"),
            values: OptionValues::Choice(&["off", "on"]),
        },
    ];
    if with_fen {
        options.push(OptionSpec {
            key: "fen",
            help: "start from this position (PDN FEN, like B:W21,22:BK1); not with numbers",
            default: None,
            values: OptionValues::Text,
        });
    }
    options
}

fn checkers_info() -> &'static VariantInfo {
    static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
    INFO.get_or_init(|| VariantInfo {
        id: "checkers",
        aliases: &["draughts", "american-checkers"],
        name: "Checkers",
        family: Family::Checkers,
        seat_counts: &[2],
        options: family_options(true),
        hidden_information: false,
        simultaneous: false,
        rules: const_format_rules::CHECKERS,
        source: "Will Adams, Variations on Chess and Checkers: 'Checkers', 'Cylindrical', 'Universal', 'Numbers'",
    })
}

fn stax_info() -> &'static VariantInfo {
    static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
    INFO.get_or_init(|| VariantInfo {
        id: "stax",
        aliases: &[],
        name: "Stax",
        family: Family::Checkers,
        seat_counts: &[2],
        options: family_options(false),
        hidden_information: false,
        simultaneous: false,
        rules: const_format_rules::STAX,
        source: "Will Adams, Variations on Chess and Checkers: 'Stax', 'Cylindrical', 'Universal', 'Numbers'",
    })
}

fn queens_info() -> &'static VariantInfo {
    static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
    INFO.get_or_init(|| VariantInfo {
        id: "queens",
        aliases: &["queens-checkers"],
        name: "Queens",
        family: Family::Checkers,
        seat_counts: &[2],
        options: family_options(false),
        hidden_information: false,
        simultaneous: false,
        rules: const_format_rules::QUEENS,
        source: "Will Adams, Variations on Chess and Checkers: 'Queens', 'Cylindrical', 'Universal', 'Numbers'",
    })
}

/// The rules texts for /rules.
mod const_format_rules {
    pub const CHECKERS: &str =
        "American checkers. Black moves first. Men move and jump one square \
        diagonally forward; kings move and jump diagonally both ways. Jumping is compulsory and a \
        multi-jump must be finished; a man reaching the far row is crowned and its move ends. No \
        piece or no move loses; forty moves each without a capture or a man's move, or a position \
        repeated three times, is a draw. Moves: square numbers (11-15, 15x24x31) or coordinates \
        (c3-d4). Options: board=cylinder (the sides touch) or universal (all edges touch, but only \
        kings cross the ends); numbers=on (no man jumps a higher number, only kings jump kings).";
    pub const STAX: &str =
        "Checkers, but a jumped checker is carried underneath the jumping stack \
        as a prisoner. A stack belongs to its top checker; jumping a stack takes only its top \
        checker and frees what it held. Only the top checker is crowned; kings keep their crowns \
        when freed. You lose when all your checkers are prisoners or cannot move. Moves as in \
        checkers (11-15, 15x24). Options: board=cylinder or universal; numbers=on.";
    pub const QUEENS: &str =
        "Stax on all 64 squares: Black's men on the dark squares, White's on the \
        light. Everything moves diagonally; men jump diagonally forward or straight forward; kings \
        jump in all eight directions (two squares, over an enemy). Moves in coordinates (c3-d4, \
        c3xc5). Options: board=cylinder or universal; numbers=on.";
}

/// The state of a game of the family.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CheckersState {
    position: CheckersPosition,
    moves: Vec<String>,
    repetitions: Vec<u64>,
    last_move: Vec<Cell>,
}

impl CheckersState {
    fn new(position: CheckersPosition) -> CheckersState {
        CheckersState {
            repetitions: vec![position.repetition_key()],
            position,
            moves: Vec::new(),
            last_move: Vec::new(),
        }
    }

    fn position(&self) -> &CheckersPosition {
        &self.position
    }

    fn outcome(&self) -> Option<Outcome> {
        let pos = &self.position;
        if pos.legal_moves().is_empty() {
            // Both lose the same way, but "no move" is wrong to say of a player with no piece.
            let loser = pos.turn();
            let reason = if pos
                .board()
                .cells()
                .any(|c| pos.top(c).is_some_and(|top| top.seat == loser))
            {
                EndReason::NoMoves
            } else {
                EndReason::NoPieces
            };
            return Some(Outcome::win(vec![Seat(1 - loser.0)], reason));
        }
        if pos.quiet_moves() >= NO_PROGRESS_PLIES {
            return Some(Outcome::draw(EndReason::FiftyMoveRule));
        }
        let now = pos.repetition_key();
        if self.repetitions.iter().filter(|k| **k == now).count() >= 3 {
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

impl CheckersFamily {
    fn rules(&self, options: &Options) -> Result<CheckersRules, GameError> {
        let wrap = match options.get("board").unwrap_or("flat") {
            "flat" => Wrap::None,
            "cylinder" => Wrap::Files,
            "universal" | "torus" => Wrap::Both,
            other => {
                return Err(GameError::BadOption(format!(
                    "board must be {BOARD_HELP}, not '{other}'"
                )))
            }
        };
        let numbers = options.get("numbers") == Some("on");
        Ok(CheckersRules::new(self.kind, wrap, numbers))
    }
}

impl Game for CheckersFamily {
    type State = CheckersState;
    type Action = CheckersMove;

    fn info(&self) -> &VariantInfo {
        (self.info)()
    }

    fn setup(
        &self,
        options: &Options,
        _seats: usize,
        seed: u64,
    ) -> Result<CheckersState, GameError> {
        let rules = self.rules(options)?;
        let position = match options.get("fen") {
            Some(_) if rules.numbers => {
                return Err(GameError::BadOption(
                    "fen and numbers=on do not go together: PDN FEN has no numbers".into(),
                ))
            }
            Some(fen) => CheckersPosition::from_fen(fen, rules).map_err(GameError::BadSetup)?,
            None => CheckersPosition::start(rules, seed),
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
            let reason = reason
                .split_once(": ")
                .map_or(reason.as_str(), |(_, r)| r)
                .to_string();
            GameError::Move(MoveParseError::Illegal {
                text: text.trim().into(),
                reason,
            })
        })
    }

    fn apply(
        &self,
        state: &mut CheckersState,
        seat: Seat,
        m: CheckersMove,
    ) -> Result<Vec<Event>, GameError> {
        let pos = &mut state.position;
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
        if pos.quiet_moves() == 0 {
            state.repetitions.clear();
        }
        state.repetitions.push(pos.repetition_key());
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
            // Moves are written in square numbers (none in Queens, written in coordinates).
            square_names: pos
                .board()
                .cells()
                .filter_map(|c| Some((c, pos.square_number(c)?.to_string())))
                .collect(),
            table: Vec::new(),
        }
    }

    fn outcome(&self, state: &CheckersState) -> Option<Outcome> {
        state.outcome()
    }

    fn perft(&self, state: &CheckersState, depth: u32) -> Option<u64> {
        Some(perft(state.position(), depth))
    }

    fn divide(&self, state: &CheckersState, depth: u32) -> Option<Vec<(String, u64)>> {
        Some(divide(state.position(), depth))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(fen: &str) -> CheckersState {
        let mut o = Options::new();
        o.set("fen", fen);
        CHECKERS.setup(&o, 2, 0).unwrap()
    }

    fn play(s: &mut CheckersState, text: &str) -> Vec<Event> {
        let seat = s.position().turn();
        Game::play(&CHECKERS, s, seat, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .1
    }

    #[test]
    fn black_opens_and_notation_reads_both_ways() {
        let mut s = CHECKERS.setup(&Options::new(), 2, 0).unwrap();
        assert_eq!(Game::legal(&CHECKERS, &s, Seat::BLACK).len(), 7);
        assert!(Game::legal(&CHECKERS, &s, Seat::WHITE).is_empty());
        play(&mut s, "11-15");
        play(&mut s, "c3-d4");
        assert_eq!(s.moves, ["11-15", "22-18"]);
    }

    #[test]
    fn jumps_are_compulsory_and_multi_jumps_complete() {
        // Black's man on 9 can jump 14 and then 23.
        let mut s = from("B:W14,23,30:B9");
        let err = Game::play(&CHECKERS, &mut s, Seat::BLACK, "9-13").unwrap_err();
        assert!(err.to_string().contains("jumping is compulsory"), "{err}");
        let events = play(&mut s, "9x18x27");
        assert!(matches!(&events[0], Event::Public(t) if t == "Black played 9x18x27"));
        assert_eq!(s.position().fen(), "W:W30:B27");
        // "9x27" with the middle square left out reads the same.
        let mut s = from("B:W14,23,30:B9");
        play(&mut s, "9x27");
        assert_eq!(s.position().fen(), "W:W30:B27");
    }

    #[test]
    fn a_man_reaching_the_king_row_is_crowned_and_stops() {
        // White's man on 10 jumps 6 onto 1 and is crowned; it may not go on jumping 5 as a king.
        let mut s = from("W:W10:B6,5,2");
        let legal: Vec<String> = Game::legal(&CHECKERS, &s, Seat::WHITE)
            .iter()
            .map(|m| s.position().move_text(m))
            .collect();
        assert_eq!(legal, ["10x1"]);
        let events = play(&mut s, "10x1");
        assert!(matches!(&events[0], Event::Public(t) if t.ends_with("and is crowned")));
        assert_eq!(s.position().fen(), "B:WK1:B2,5");
    }

    #[test]
    fn no_move_loses_and_quiet_play_draws() {
        let mut s = from("B:W14,18:B5");
        play(&mut s, "5-9");
        play(&mut s, "14x5");
        let outcome = CHECKERS.outcome(&s).unwrap();
        assert_eq!(
            outcome,
            Outcome::win(vec![Seat::WHITE], EndReason::NoPieces)
        );
        assert_eq!(outcome.to_string(), "White wins by capturing every piece");
        // Black's man on 1 is hemmed in by 5, 6 and 10: pieces, but no move.
        let s = from("B:W5,6,10:B1");
        assert_eq!(
            CHECKERS.outcome(&s),
            Some(Outcome::win(vec![Seat::WHITE], EndReason::NoMoves))
        );
        let mut s = from("W:WK29:BK4");
        for _ in 0..20 {
            for (w, b) in [("29-25", "4-8"), ("25-29", "8-4")] {
                if CHECKERS.outcome(&s).is_some() {
                    break;
                }
                play(&mut s, w);
                if CHECKERS.outcome(&s).is_some() {
                    break;
                }
                play(&mut s, b);
            }
        }
        assert_eq!(
            CHECKERS.outcome(&s),
            Some(Outcome::draw(EndReason::ThreefoldRepetition))
        );
    }

    #[test]
    fn the_view_names_the_dark_squares_by_number() {
        let s = CHECKERS.setup(&Options::new(), 2, 0).unwrap();
        let view = Game::view(&CHECKERS, &s, Viewer::Spectator);
        assert_eq!(view.square_names.len(), 32);
        let name = |label: &str| {
            let cell = view.board.cell(label).unwrap();
            view.square_names
                .iter()
                .find(|(c, _)| *c == cell)
                .map(|(_, n)| n.as_str())
        };
        assert_eq!(name("b8"), Some("1"));
        assert_eq!(name("f6"), Some("11"));
        assert_eq!(name("g1"), Some("32"));
        assert_eq!(name("a8"), None, "light squares have no number");
        // Queens is written in coordinates.
        let q = QUEENS.setup(&Options::new(), 2, 0).unwrap();
        assert!(Game::view(&QUEENS, &q, Viewer::Spectator)
            .square_names
            .is_empty());
    }

    #[test]
    fn states_store_and_load() {
        let mut s = CHECKERS.setup(&Options::new(), 2, 0).unwrap();
        play(&mut s, "11-15");
        let json = serde_json::to_string(&s).unwrap();
        let back: CheckersState = serde_json::from_str(&json).unwrap();
        assert_eq!(back.position().fen(), s.position().fen());
        assert_eq!(Game::legal(&CHECKERS, &back, Seat::WHITE).len(), 7);
    }
}
