//! Adams' checkers family: Checkers, Stax and Queens, each on a flat, cylindrical or universal
//! board, each with or without Numbers, for two players or for four (partners or cut-throat):
//! fifty-four games on one machinery.
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
//!
//! Doubles (`players=4`, the book's section IV) on a 12x12 board, each player on the middle
//! eight files of his edge (starting positions: [`crate::checkers`]'s layout module):
//!
//! - `mode=partners`: A and C against B and D. `seating=adjacent` (standard doubles: partners
//!   at adjacent sides with a dark corner between them, order A, B, C, D) or `opposite`
//!   (partners across the board, the turn going clockwise). Nobody moves or jumps his partner's
//!   checkers. Kings are crowned anywhere on the far edge. A player with nothing to move is
//!   passed over, and in Stax and Queens returns when his partner frees a checker. A team wins
//!   when both opponents are captured or cannot move.
//! - `mode=cutthroat`: everyone for himself, clockwise. In Stax and Queens a player who owns no
//!   stack when his turn comes vanishes: all his checkers are taken out of the stacks. A player
//!   whose pieces are all immobile misses his turns. The last player able to move wins.
//! - `board=cylinder`: players sitting across from each other have their own left and right
//!   edges touching (a cylinder one way for two of them, the other way for the other two).
//! - Queens `colours=same|mixed`: partners on one colour of squares, or one of each.
//! - *Interpretations*: forty moves of each player still in without a capture or a man's move
//!   draw, as in singles; a cut-throat player who resigns or runs out of time takes all his
//!   checkers off the board (stacks he topped pass to the checker beneath).

use serde::{Deserialize, Serialize};

use crate::board::{Cell, Wrap};
use crate::checkers::{
    divide, perft, CheckersMove, CheckersPosition, CheckersRules, Colours, Kind, Mode, Seating,
    Stack,
};
use crate::chess::{MoveParseError, Seat};
use crate::game::{
    EndReason, Event, Family, Game, GameError, OptionSpec, OptionValues, Options, Outcome, Prompt,
    PromptKind, Standing, VariantInfo,
};
use crate::table::{ArmyStatus, Table};
use crate::view::{Figure, Layer, Placed, View, Viewer};

/// One game of the family; the registry holds [`CHECKERS`], [`STAX`] and [`QUEENS`], and the
/// triangle games of [`crate::variants::tri_checkers`].
pub struct CheckersFamily {
    kind: Kind,
    /// Played on Adams' tri-board (Tri-Chek, Tri-Stax, Tri-Queens).
    tri: bool,
    info: fn() -> &'static VariantInfo,
}

impl CheckersFamily {
    /// A game of the family on the tri-board.
    pub const fn on_triangles(kind: Kind, info: fn() -> &'static VariantInfo) -> CheckersFamily {
        CheckersFamily {
            kind,
            tri: true,
            info,
        }
    }
}

/// What a player does: a move, or (Tri-Chek, once every piece is a king) invoking the 40-move
/// option, which does not use the turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CheckersAction {
    Move(CheckersMove),
    InvokeFortyMoves,
}

/// Moves of each player without a jump, after the 40-move option is invoked, that end the
/// game: counted per player, as checkers counts its forty moves.
pub const FORTY_MOVES: u32 = 40;

/// Checkers.
pub static CHECKERS: CheckersFamily = CheckersFamily {
    kind: Kind::Checkers,
    tri: false,
    info: checkers_info,
};
/// Stax.
pub static STAX: CheckersFamily = CheckersFamily {
    kind: Kind::Stax,
    tri: false,
    info: stax_info,
};
/// Queens.
pub static QUEENS: CheckersFamily = CheckersFamily {
    kind: Kind::Queens,
    tri: false,
    info: queens_info,
};

/// Moves of each player without a capture or a man's move that make a draw.
const NO_PROGRESS_ROUNDS: u32 = 40;

/// The four players' names, by seat (A, B, C, D in order of play): the colours their checkers
/// are drawn in.
const FOUR_NAMES: [&str; 4] = ["White", "Black", "Orange", "Blue"];

/// The Numbers variation's option, for every game of the family.
pub const NUMBERS_OPTION: OptionSpec = OptionSpec {
    key: "numbers",
    help: "on: men numbered 1-12 at random; none jumps a higher number, only kings jump kings",
    default: Some("off"),
    values: OptionValues::Choice(&["off", "on"]),
};

const BOARD_HELP: &str = "flat, cylinder (side edges touch) or universal / torus (all edges touch)";

fn family_options(kind: Kind) -> Vec<OptionSpec> {
    let mut options = vec![
        OptionSpec {
            key: "board",
            help: BOARD_HELP,
            default: Some("flat"),
            values: OptionValues::Choice(&["flat", "cylinder", "universal", "torus"]),
        },
        NUMBERS_OPTION,
        OptionSpec {
            key: "mode",
            help: "with players=4: partners (two against two) or cutthroat (each for himself)",
            default: Some("partners"),
            values: OptionValues::Choice(&["partners", "cutthroat"]),
        },
        OptionSpec {
            key: "seating",
            help: "four-player partners: adjacent (standard doubles) or opposite (clockwise)",
            default: Some("adjacent"),
            values: OptionValues::Choice(&["adjacent", "opposite"]),
        },
    ];
    if kind == Kind::Queens {
        options.push(OptionSpec {
            key: "colours",
            help: "four-player partners: same (partners on one colour) or mixed (one of each)",
            default: Some("same"),
            values: OptionValues::Choice(&["same", "mixed"]),
        });
    }
    if kind == Kind::Checkers {
        options.push(OptionSpec {
            key: "fen",
            help: "start from this position (PDN FEN, like B:W21,22:BK1); two players, no numbers",
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
        seat_counts: &[2, 4],
        options: family_options(Kind::Checkers),
        hidden_information: false,
        simultaneous: false,
        rules: rules_text::CHECKERS,
        source: "Will Adams, Variations on Chess and Checkers: 'Checkers', 'Cylindrical', 'Universal', 'Numbers', 'Doubles'",
    })
}

fn stax_info() -> &'static VariantInfo {
    static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
    INFO.get_or_init(|| VariantInfo {
        id: "stax",
        aliases: &[],
        name: "Stax",
        family: Family::Checkers,
        seat_counts: &[2, 4],
        options: family_options(Kind::Stax),
        hidden_information: false,
        simultaneous: false,
        rules: rules_text::STAX,
        source: "Will Adams, Variations on Chess and Checkers: 'Stax', 'Cylindrical', 'Universal', 'Numbers', 'Doubles'",
    })
}

fn queens_info() -> &'static VariantInfo {
    static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
    INFO.get_or_init(|| VariantInfo {
        id: "queens",
        aliases: &["queens-checkers"],
        name: "Queens",
        family: Family::Checkers,
        seat_counts: &[2, 4],
        options: family_options(Kind::Queens),
        hidden_information: false,
        simultaneous: false,
        rules: rules_text::QUEENS,
        source: "Will Adams, Variations on Chess and Checkers: 'Queens', 'Cylindrical', 'Universal', 'Numbers', 'Doubles'",
    })
}

/// The rules texts for /rules.
mod rules_text {
    macro_rules! with_doubles {
        ($singles:expr, $extra:expr) => {
            concat!(
                $singles,
                "\n\nFour players (players=4), on a 12x12 board, each on the middle eight files \
                of his edge, moves in coordinates (c3-d4, c3xe5xg7). mode=partners: White and \
                Orange against Black and Blue; seating=adjacent (standard doubles: partners at \
                adjacent sides, a dark corner between them, order White, Black, Orange, Blue) or \
                seating=opposite (partners across the board, turns going clockwise). Nobody \
                moves or jumps his partner's checkers; kings are crowned anywhere on the far \
                edge; a player with nothing to move is passed over",
                $extra,
                "; a team wins when both opponents are captured or cannot move. \
                mode=cutthroat: each for himself, clockwise; a player who cannot move misses \
                his turns; the last player able to move wins. board=cylinder: players across \
                from each other have their own left and right edges touching. Starting \
                positions are reconstructed from the book's words (its figures are lost): \
                where two players' rows would share the square three in from a dark corner, the \
                earlier player keeps it and the other's checker stands diagonally behind. \
                Interpretations: forty moves of each player still in without a capture or a \
                man's move draw; a cut-throat player who resigns takes all his checkers off the \
                board."
            )
        };
    }

    pub const CHECKERS: &str = with_doubles!(
        "American checkers. Black moves first. Men move and jump one square \
        diagonally forward; kings move and jump diagonally both ways. Jumping is compulsory and a \
        multi-jump must be finished; a man reaching the far row is crowned and its move ends. No \
        piece or no move loses; forty moves each without a capture or a man's move, or a position \
        repeated three times, is a draw. Moves: square numbers (11-15, 15x24x31) or coordinates \
        (c3-d4). Options: board=cylinder (the sides touch) or universal (all edges touch, but only \
        kings cross the ends); numbers=on (no man jumps a higher number, only kings jump kings).",
        ""
    );
    pub const STAX: &str = with_doubles!(
        "Checkers, but a jumped checker is carried underneath the jumping stack \
        as a prisoner. A stack belongs to its top checker; jumping a stack takes only its top \
        checker and frees what it held. Only the top checker is crowned; kings keep their crowns \
        when freed. You lose when all your checkers are prisoners or cannot move. Moves as in \
        checkers (11-15, 15x24). Options: board=cylinder or universal; numbers=on.",
        ", and comes back when his partner frees one of his checkers. In cut-throat, a player \
        who owns no stack when his turn comes vanishes: all his checkers are taken out of the \
        stacks"
    );
    pub const QUEENS: &str = with_doubles!(
        "Stax on all 64 squares: Black's men on the dark squares, White's on the \
        light. Everything moves diagonally; men jump diagonally forward or straight forward; kings \
        jump in all eight directions (two squares, over an enemy). Moves in coordinates (c3-d4, \
        c3xc5). Options: board=cylinder or universal; numbers=on.",
        ", and comes back when his partner frees one of his checkers. In cut-throat, a player \
        who owns no stack when his turn comes vanishes: all his checkers are taken out of the \
        stacks. colours=same puts partners on one colour of squares, colours=mixed one of each \
        (cut-throat: neighbours on different colours). Against a long first-move jump, where \
        enemies on different colours meet at a corner the one holding the square three in from \
        it starts that checker at the far end of his back row instead (reconstructed)"
    );
}

/// The state of a game of the family.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CheckersState {
    position: CheckersPosition,
    moves: Vec<String>,
    repetitions: Vec<u64>,
    last_move: Vec<Cell>,
    /// Four players: names, teams, the order of turns and each player's standing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    table: Option<Table>,
    /// Whether the 40-move option may be invoked (Tri-Chek).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    forty_option: bool,
    /// Once invoked: moves made since, or since the last jump.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    forty: Option<u32>,
}

impl CheckersState {
    /// A game from its start; `names` names the seats of games of more than two, which take
    /// their turns in the position's order.
    pub(crate) fn new(
        position: CheckersPosition,
        names: &[&str],
        forty_option: bool,
    ) -> CheckersState {
        let table = (position.seat_count() > 2).then(|| {
            let n = position.seat_count();
            let teams: Vec<u8> = (0..n).map(|s| position.team(Seat(s as u8))).collect();
            let order: Vec<u8> = position.sequence().iter().map(|s| s.0).collect();
            Table::with_order(&names[..n], &teams, &order)
        });
        let mut state = CheckersState {
            repetitions: vec![position.repetition_key()],
            position,
            moves: Vec::new(),
            last_move: Vec::new(),
            table,
            forty_option,
            forty: None,
        };
        state.follow_turn();
        state
    }

    pub(crate) fn position(&self) -> &CheckersPosition {
        &self.position
    }

    fn name(&self, seat: Seat) -> String {
        match &self.table {
            Some(table) if seat.index() < table.armies().len() => table.army(seat.0).name.clone(),
            _ => seat.colour_name(),
        }
    }

    /// Brings the table up to the position: whose turn it is (reporting the players passed
    /// over) and each player's standing.
    fn follow_turn(&mut self) -> Vec<Seat> {
        let pos = &self.position;
        let Some(table) = &mut self.table else {
            return Vec::new();
        };
        for s in 0..pos.seat_count() {
            let seat = Seat(s as u8);
            let status = if pos.is_out(seat) {
                ArmyStatus::Eliminated
            } else if pos.can_move(seat) {
                ArmyStatus::Playing
            } else {
                ArmyStatus::Idle
            };
            table.set_status(seat.0, status);
        }
        let turn = pos.turn();
        if table.current().player == turn {
            return Vec::new();
        }
        table
            .advance(|_, t| t.player == turn)
            .into_iter()
            .map(|t| t.player)
            .filter(|s| !pos.is_out(*s))
            .collect()
    }

    /// The seats still in the game.
    fn in_play(&self) -> Vec<Seat> {
        (0..self.position.seat_count() as u8)
            .map(Seat)
            .filter(|s| !self.position.is_out(*s))
            .collect()
    }

    /// Every seat of `team`.
    fn team_seats(&self, team: u8) -> Vec<Seat> {
        (0..self.position.seat_count() as u8)
            .map(Seat)
            .filter(|s| self.position.team(*s) == team)
            .collect()
    }

    /// Whether the 40-move option may be invoked now: offered, not yet invoked, and every
    /// piece on the board a king.
    fn may_invoke_forty(&self) -> bool {
        let pos = &self.position;
        self.forty_option
            && self.forty.is_none()
            && pos
                .board()
                .cells()
                .flat_map(|c| pos.stack(c).iter())
                .all(|c| c.king)
    }

    /// The moves in all, without a jump, that end the game under the 40-move option: forty of
    /// each player still in (the book's "if 40 moves are made", counted as checkers counts).
    fn forty_limit(&self) -> u32 {
        FORTY_MOVES * self.in_play().len() as u32
    }

    /// The end under the 40-move option: each player (or team) scores his pieces left.
    fn forty_moves_outcome(&self) -> Outcome {
        let pos = &self.position;
        let in_play = self.in_play();
        let team_count = |team: u8| -> i64 {
            in_play
                .iter()
                .filter(|s| pos.team(**s) == team)
                .map(|s| pos.checkers_of(*s) as i64)
                .sum()
        };
        Outcome::by_score(
            in_play
                .iter()
                .map(|&seat| Standing {
                    seat,
                    score: team_count(pos.team(seat)),
                })
                .collect(),
            EndReason::FortyMoves,
        )
    }

    fn outcome(&self) -> Option<Outcome> {
        let pos = &self.position;
        let in_play = self.in_play();
        if self.forty.is_some_and(|n| n >= self.forty_limit()) {
            return Some(self.forty_moves_outcome());
        }
        if pos.seat_count() > 2 {
            // Only one team left in the game (the others resigned or vanished).
            if let Some(first) = in_play.first() {
                let team = pos.team(*first);
                if in_play.iter().all(|s| pos.team(*s) == team) {
                    return Some(Outcome::win(self.team_seats(team), EndReason::LastStanding));
                }
            }
        }
        if pos.legal_moves().is_empty() {
            // The player to move has none: the side that moved last has captured or blocked
            // every enemy. "No move" is wrong to say when none has a piece left.
            let stuck = pos.turn();
            let winning_team = match pos.last_mover() {
                Some(m) if !pos.is_out(m) && pos.team(m) != pos.team(stuck) => pos.team(m),
                _ => in_play
                    .iter()
                    .map(|s| pos.team(*s))
                    .find(|t| *t != pos.team(stuck))
                    .unwrap_or(1 - pos.team(stuck).min(1)),
            };
            let losers = in_play.iter().filter(|s| pos.team(**s) != winning_team);
            let reason = if losers.clone().all(|s| pos.owned(*s).is_empty()) {
                EndReason::NoPieces
            } else {
                EndReason::NoMoves
            };
            return Some(Outcome::win(self.team_seats(winning_team), reason));
        }
        if self.forty.is_some() {
            // Once the 40-move option is invoked, it alone ends a game without jumps.
            return None;
        }
        if pos.quiet_moves() >= NO_PROGRESS_ROUNDS * in_play.len() as u32 {
            return Some(Outcome::draw(EndReason::NoProgress));
        }
        let now = pos.repetition_key();
        if self.repetitions.iter().filter(|k| **k == now).count() >= 3 {
            return Some(Outcome::draw(EndReason::ThreefoldRepetition));
        }
        None
    }

    /// Why `seat` cannot move now, beyond whose turn it is.
    fn waiting(&self, seat: Seat) -> Option<String> {
        let pos = &self.position;
        if pos.seat_count() == 2 || seat == pos.turn() {
            return None;
        }
        let now = format!("{} to move", self.name(pos.turn()));
        if pos.is_out(seat) {
            Some(format!("{} is out of the game; {now}", self.name(seat)))
        } else if !pos.can_move(seat) {
            let why = if pos.owned(seat).is_empty() {
                "has nothing on the board"
            } else {
                "has nothing that can move"
            };
            Some(format!(
                "{} {why} and misses its turns; {now}",
                self.name(seat)
            ))
        } else {
            None
        }
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
    fn rules(&self, options: &Options, seats: usize) -> Result<CheckersRules, GameError> {
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
        let mode = options.get("mode").unwrap_or("partners");
        let seating = options.get("seating").unwrap_or("adjacent");
        let colours = options.get("colours").unwrap_or("same");
        match seats {
            2 => {
                for (key, value, default) in [
                    ("mode", mode, "partners"),
                    ("seating", seating, "adjacent"),
                    ("colours", colours, "same"),
                ] {
                    if value != default {
                        return Err(GameError::BadOption(format!(
                            "{key}={value} is for four players: add players=4"
                        )));
                    }
                }
                Ok(CheckersRules::new(self.kind, wrap, numbers))
            }
            4 => {
                let mode = match (mode, seating) {
                    ("partners", "adjacent") => Mode::Partners(Seating::Adjacent),
                    ("partners", "opposite") => Mode::Partners(Seating::Opposite),
                    ("cutthroat", "adjacent") => Mode::CutThroat,
                    ("cutthroat", _) => {
                        return Err(GameError::BadOption(
                            "seating is for partners: cut-throat players sit in turn clockwise"
                                .into(),
                        ))
                    }
                    (other, _) => {
                        return Err(GameError::BadOption(format!(
                            "mode must be partners or cutthroat, not '{other}'"
                        )))
                    }
                };
                let colours = match colours {
                    "same" => Colours::Same,
                    "mixed" if self.kind != Kind::Queens => {
                        return Err(GameError::BadOption(
                            "colours is for Queens: Checkers and Stax play on the dark squares"
                                .into(),
                        ))
                    }
                    "mixed" if mode == Mode::CutThroat => {
                        return Err(GameError::BadOption(
                            "colours is for partners: cut-throat Queens puts each player's \
                             neighbours on the other colour"
                                .into(),
                        ))
                    }
                    "mixed" if mode == Mode::Partners(Seating::Opposite) && wrap != Wrap::None => {
                        return Err(GameError::BadOption(
                            "colours=mixed with seating=opposite gives three players a long \
                             first-move jump across the joined edges: use board=flat, \
                             colours=same or seating=adjacent"
                                .into(),
                        ))
                    }
                    "mixed" => Colours::Mixed,
                    other => {
                        return Err(GameError::BadOption(format!(
                            "colours must be same or mixed, not '{other}'"
                        )))
                    }
                };
                Ok(CheckersRules::doubles(
                    self.kind, mode, colours, wrap, numbers,
                ))
            }
            n => Err(GameError::BadOption(format!(
                "{} is played by 2 or 4 players, not {n}",
                self.info().name
            ))),
        }
    }
}

impl Game for CheckersFamily {
    type State = CheckersState;
    type Action = CheckersAction;

    fn info(&self) -> &VariantInfo {
        (self.info)()
    }

    fn setup(
        &self,
        options: &Options,
        seats: usize,
        seed: u64,
    ) -> Result<CheckersState, GameError> {
        if self.tri {
            let (position, forty_option) =
                crate::variants::tri_checkers::start(self.kind, options, seats, seed)?;
            return Ok(CheckersState::new(
                position,
                &crate::variants::tri_checkers::NAMES,
                forty_option,
            ));
        }
        let rules = self.rules(options, seats)?;
        let position = match options.get("fen") {
            Some(_) if rules.numbers => {
                return Err(GameError::BadOption(
                    "fen and numbers=on do not go together: PDN FEN has no numbers".into(),
                ))
            }
            Some(_) if seats != 2 => {
                return Err(GameError::BadOption(
                    "fen describes two-player positions only".into(),
                ))
            }
            Some(fen) => CheckersPosition::from_fen(fen, rules).map_err(GameError::BadSetup)?,
            None => CheckersPosition::start(rules, seed),
        };
        Ok(CheckersState::new(position, &FOUR_NAMES, false))
    }

    fn prompts(&self, state: &CheckersState) -> Vec<Prompt> {
        if state.outcome().is_some() {
            return Vec::new();
        }
        let turn = state.position().turn();
        let mut text = format!("{} to move", state.name(turn));
        if state.may_invoke_forty() {
            text.push_str(
                " (every piece is a king: /move forty invokes the 40-move option, and you still move)",
            );
        }
        vec![Prompt {
            seat: turn,
            kind: PromptKind::Move,
            text,
        }]
    }

    fn legal(&self, state: &CheckersState, seat: Seat) -> Vec<CheckersAction> {
        let pos = state.position();
        if seat != pos.turn() || state.outcome().is_some() {
            return Vec::new();
        }
        let mut legal: Vec<CheckersAction> = pos
            .legal_moves()
            .into_iter()
            .map(CheckersAction::Move)
            .collect();
        if state.may_invoke_forty() {
            legal.push(CheckersAction::InvokeFortyMoves);
        }
        legal
    }

    fn action_text(&self, state: &CheckersState, action: &CheckersAction) -> String {
        match action {
            CheckersAction::Move(m) => state.position().move_text(m),
            CheckersAction::InvokeFortyMoves => "forty".into(),
        }
    }

    fn parse(
        &self,
        state: &CheckersState,
        seat: Seat,
        text: &str,
    ) -> Result<CheckersAction, GameError> {
        let pos = state.position();
        let word = text.trim().to_ascii_lowercase();
        if ["forty", "40", "40-move", "40-moves", "forty-moves"].contains(&word.as_str()) {
            return if !state.forty_option {
                Err(GameError::Refused(format!(
                    "the 40-move option is Tri-Chek's alone: {} has none",
                    self.info().name
                )))
            } else if state.forty.is_some() {
                Err(GameError::Refused(
                    "the 40-move option is already invoked".into(),
                ))
            } else if !state.may_invoke_forty() {
                Err(GameError::Refused(
                    "the 40-move option may be invoked only once every piece on the board is a king"
                        .into(),
                ))
            } else {
                Ok(CheckersAction::InvokeFortyMoves)
            };
        }
        if pos.is_out(seat) {
            return Err(GameError::Refused(format!(
                "{} is out of this game",
                state.name(seat)
            )));
        }
        if seat != pos.turn() {
            return Err(GameError::NotYourTurn(
                state
                    .waiting(seat)
                    .unwrap_or_else(|| format!("{} to move", state.name(pos.turn()))),
            ));
        }
        pos.parse_move(text)
            .map(CheckersAction::Move)
            .map_err(|reason| {
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
        action: CheckersAction,
    ) -> Result<Vec<Event>, GameError> {
        let m = match action {
            CheckersAction::Move(m) => m,
            CheckersAction::InvokeFortyMoves => {
                if seat != state.position.turn() || !state.may_invoke_forty() {
                    return Err(GameError::Refused(
                        "the 40-move option cannot be invoked now".into(),
                    ));
                }
                state.forty = Some(0);
                return Ok(vec![Event::Public(format!(
                    "{} invokes the 40-move option: after {FORTY_MOVES} moves of each player \
                     without a jump, the player with the most pieces wins.",
                    state.name(seat)
                ))]);
            }
        };
        let pos = &mut state.position;
        if seat != pos.turn() || !pos.legal_moves().contains(&m) {
            return Err(GameError::Move(MoveParseError::Illegal {
                text: pos.move_text(&m),
                reason: "it is not a legal move now".into(),
            }));
        }
        let text = pos.move_text(&m);
        let crowned = pos.top(m.from).is_some_and(|c| !c.king) && pos.is_king_row(m.to(), seat);
        let out_before: Vec<bool> = (0..pos.seat_count() as u8)
            .map(|s| pos.is_out(Seat(s)))
            .collect();
        pos.play(&m);
        state.last_move = std::iter::once(m.from)
            .chain(m.path.iter().copied())
            .collect();
        if pos.quiet_moves() == 0 {
            state.repetitions.clear();
        }
        state.repetitions.push(pos.repetition_key());
        let mut line = format!("{} played {text}", state.name(seat));
        if crowned {
            line.push_str(" and is crowned");
        }
        state.moves.push(text);
        if let Some(count) = &mut state.forty {
            *count = if m.is_jump() { 0 } else { *count + 1 };
        }
        let mut events = vec![Event::Public(line)];
        let vanished: Vec<Seat> = (0..out_before.len() as u8)
            .map(Seat)
            .filter(|s| !out_before[s.index()] && state.position.is_out(*s))
            .collect();
        let passed = state.follow_turn();
        if state.outcome().is_none() {
            for s in passed {
                let why = if state.position.owned(s).is_empty() {
                    "has nothing on the board"
                } else {
                    "has nothing that can move"
                };
                events.push(Event::Public(format!(
                    "{} {why} and misses the turn.",
                    state.name(s)
                )));
            }
        }
        for s in vanished {
            events.push(Event::Public(format!(
                "{} has nothing left to move: every checker of {} is taken out of the stacks, \
                 and {} is out.",
                state.name(s),
                state.name(s),
                state.name(s)
            )));
        }
        if let Some(o) = state.outcome() {
            events.push(Event::GameOver(o));
        }
        Ok(events)
    }

    fn view(&self, state: &CheckersState, viewer: Viewer) -> View {
        let pos = state.position();
        let outcome = state.outcome();
        let four = state.table.as_ref();
        View {
            variant: self.info().id,
            board: pos.board_arc().clone(),
            viewer,
            bottom: match viewer {
                Viewer::Seat(s) => s,
                Viewer::Spectator if four.is_some() => Seat(0),
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
            players: (0..pos.seat_count() as u8)
                .map(|s| state.name(Seat(s)))
                .collect(),
            move_number: match four {
                Some(table) => table.rounds() + 1,
                None => state.moves.len() as u32 / 2 + 1,
            },
            status: match (&outcome, state.forty) {
                (Some(o), _) => o.describe(|s| state.name(s)),
                (None, Some(n)) => format!(
                    "{} to move; 40-move option: {n} of {} moves without a jump ({FORTY_MOVES} \
                     each)",
                    state.name(pos.turn()),
                    state.forty_limit()
                ),
                (None, None) => format!("{} to move", state.name(pos.turn())),
            },
            panel: None,
            // Moves are written in square numbers (none in Queens or on 12x12: coordinates).
            // Square numbers on the 8x8 board; every triangle's number on the tri-board.
            square_names: pos
                .board()
                .cells()
                .filter_map(|c| match pos.board().grid_size() {
                    Some(_) => Some((c, pos.square_number(c)?.to_string())),
                    None => Some((c, pos.board().label(c).to_string())),
                })
                .collect(),
            table: four.map(Table::lines).unwrap_or_default(),
            colours: Vec::new(),
            labels: Vec::new(),
            tinted: Vec::new(),
            cards: Vec::new(),
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

    fn seat_name(&self, state: &CheckersState, seat: Seat) -> String {
        state.name(seat)
    }

    fn concede(
        &self,
        state: &CheckersState,
        seat: Seat,
        seats: usize,
        reason: EndReason,
    ) -> Outcome {
        // The other side wins: both opponents in partners, never the leaver's partner.
        let pos = state.position();
        let team = pos.team(seat);
        let winners = (0..seats.min(pos.seat_count()) as u8)
            .map(Seat)
            .filter(|s| pos.team(*s) != team && !pos.is_out(*s))
            .collect();
        Outcome::win(winners, reason)
    }

    fn leave(
        &self,
        state: &mut CheckersState,
        seat: Seat,
        seats: usize,
        reason: EndReason,
    ) -> Result<Vec<Event>, GameError> {
        let pos = &mut state.position;
        if !pos.rules().vanishing {
            return Ok(vec![Event::GameOver(
                self.concede(state, seat, seats, reason),
            )]);
        }
        // Cut-throat: the player leaves, his checkers with him; the game goes on.
        if pos.is_out(seat) {
            return Err(GameError::Refused(
                "you are already out of this game".into(),
            ));
        }
        pos.withdraw(seat);
        state.repetitions.clear();
        state.repetitions.push(state.position.repetition_key());
        let mut events = vec![Event::Public(format!(
            "{} is out ({}); all of {}'s checkers leave the board.",
            state.name(seat),
            reason.describe(),
            state.name(seat)
        ))];
        state.follow_turn();
        if let Some(o) = state.outcome() {
            events.push(Event::GameOver(o));
        }
        Ok(events)
    }

    fn is_out(&self, state: &CheckersState, seat: Seat) -> bool {
        state.position().is_out(seat)
    }

    fn waiting_reason(&self, state: &CheckersState, seat: Seat) -> Option<String> {
        state.waiting(seat)
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
            .map(|m| CHECKERS.action_text(&s, m))
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

    /// Forty moves of each player without a capture or a man's move draw, and the draw is
    /// announced as that ("forty moves of each player", the rules say), not as chess's
    /// fifty-move rule.
    #[test]
    fn forty_quiet_moves_each_draw_under_their_own_name() {
        let s = from("W:WK29:BK4");
        // The game after 79 quiet moves: the stored count, as a reload would bring it back.
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.contains("\"quiet\":0"), "{json}");
        let json = json.replace("\"quiet\":0", "\"quiet\":79");
        let mut s: CheckersState = serde_json::from_str(&json).unwrap();
        assert_eq!(CHECKERS.outcome(&s), None);
        play(&mut s, "29-25");
        let outcome = CHECKERS.outcome(&s).unwrap();
        assert_eq!(outcome, Outcome::draw(EndReason::NoProgress));
        assert_eq!(
            outcome.to_string(),
            "Draw by forty moves of each player without a capture or a man's move"
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

/// The games for four: the book's section IV, rule by rule.
#[cfg(test)]
mod four_player_tests {
    use super::*;
    use crate::checkers::Checker;

    const A: Seat = Seat(0);
    const B: Seat = Seat(1);
    const C: Seat = Seat(2);
    const D: Seat = Seat(3);

    fn rules(kind: Kind, mode: Mode, wrap: Wrap) -> CheckersRules {
        CheckersRules::doubles(kind, mode, Colours::Same, wrap, false)
    }

    /// A state from stacks (label, bottom-first seats; `K` after a seat makes a king).
    fn state(
        rules: CheckersRules,
        turn: Seat,
        stacks: &[(&str, &[(Seat, bool)])],
    ) -> CheckersState {
        let mut p = CheckersPosition::empty(rules);
        for (label, checkers) in stacks {
            let cell = p.board().cell(label).unwrap();
            let stack = checkers
                .iter()
                .map(|&(seat, king)| {
                    if king {
                        Checker::king(seat)
                    } else {
                        Checker::man(seat)
                    }
                })
                .collect();
            p.set_stack(cell, stack);
        }
        p.set_turn(turn);
        CheckersState::new(p, &FOUR_NAMES, false)
    }

    fn game(kind: Kind) -> &'static CheckersFamily {
        match kind {
            Kind::Checkers => &CHECKERS,
            Kind::Stax => &STAX,
            Kind::Queens => &QUEENS,
        }
    }

    fn play(kind: Kind, s: &mut CheckersState, text: &str) -> Vec<Event> {
        let seat = s.position().turn();
        Game::play(game(kind), s, seat, text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .1
    }

    fn public(events: &[Event]) -> Vec<String> {
        Event::public_texts(events)
    }

    #[test]
    fn standard_doubles_goes_a_b_c_d_in_coordinates() {
        let mut o = Options::new();
        o.set("mode", "partners");
        let mut s = STAX.setup(&o, 4, 7).unwrap();
        let order: Vec<Seat> = (0..5)
            .map(|_| {
                let seat = s.position().turn();
                let text = STAX.legal_texts(&s, seat)[0].clone();
                assert!(text.contains('-') && text.chars().next().unwrap().is_ascii_lowercase());
                play(Kind::Stax, &mut s, &text);
                seat
            })
            .collect();
        assert_eq!(order, [A, B, C, D, A]);
        assert_eq!(STAX.seat_name(&s, C), "Orange");
        let view = Game::view(&STAX, &s, Viewer::Seat(C));
        assert_eq!(view.bottom, C, "Orange sees the board from the left edge");
        assert_eq!(view.board.frame(C.index()).quarter_turns(), 1);
        assert_eq!(view.table.len(), 4);
        assert_eq!(view.move_number, 2);
    }

    #[test]
    fn partners_neither_move_nor_jump_each_other() {
        // White (A, bottom) and Orange (C, left) are partners. White's man on e5 may not jump
        // Orange's man on f6; it may jump Black's on d6.
        let r = rules(
            Kind::Checkers,
            Mode::Partners(Seating::Adjacent),
            Wrap::None,
        );
        let s = state(
            r,
            A,
            &[
                ("e5", &[(A, false)]),
                ("f6", &[(C, false)]),
                ("d6", &[(B, false)]),
                ("l12", &[(D, false)]),
            ],
        );
        let texts = CHECKERS.legal_texts(&s, A);
        assert_eq!(texts, ["e5xc7"]);
        let err = Game::play(&CHECKERS, &mut s.clone(), A, "f6-g7").unwrap_err();
        assert!(err.to_string().contains("your partner's"), "{err}");
    }

    #[test]
    fn a_player_with_nothing_to_move_is_passed_over_and_told_why() {
        // Black (B, top) has no checker at all: after White moves, Orange plays.
        let r = rules(
            Kind::Checkers,
            Mode::Partners(Seating::Adjacent),
            Wrap::None,
        );
        let mut s = state(
            r,
            A,
            &[
                ("e3", &[(A, false)]),
                ("b8", &[(C, false)]),
                ("k9", &[(D, false)]),
            ],
        );
        let events = play(Kind::Checkers, &mut s, "e3-f4");
        assert_eq!(s.position().turn(), C);
        assert!(
            public(&events)
                .iter()
                .any(|t| t == "Black has nothing on the board and misses the turn."),
            "{events:?}"
        );
        let err = Game::play(&CHECKERS, &mut s, B, "k9-j8").unwrap_err();
        assert!(
            err.to_string()
                .contains("Black has nothing on the board and misses its turns"),
            "{err}"
        );
        assert!(CHECKERS.outcome(&s).is_none(), "Blue can still move");
    }

    #[test]
    fn in_partners_stax_a_freed_player_comes_back() {
        // Black's only checker is a prisoner under White's stack on e5; Blue jumps the stack,
        // freeing it, and Black moves again on his next turn.
        let r = rules(Kind::Stax, Mode::Partners(Seating::Adjacent), Wrap::None);
        let mut s = state(
            r,
            C,
            &[
                ("e5", &[(B, false), (A, false)]),
                ("f6", &[(D, false)]),
                ("a3", &[(C, false)]),
                ("a1", &[(A, false)]),
            ],
        );
        // Orange moves; Blue (D, right edge, moving left) must jump e5 from f6 onto d4.
        play(Kind::Stax, &mut s, "a3-b4");
        assert_eq!(s.position().turn(), D);
        play(Kind::Stax, &mut s, "f6xd4");
        let e5 = s.position().board().cell("e5").unwrap();
        assert_eq!(
            s.position().top(e5).unwrap().seat,
            B,
            "Black's checker is free"
        );
        // White moves next, then Black is back.
        assert_eq!(s.position().turn(), A);
    }

    #[test]
    fn a_team_wins_when_both_opponents_are_captured_or_immobile() {
        // Black's last man is jumped; Blue's only man is hemmed in: White and Orange win.
        let r = rules(
            Kind::Checkers,
            Mode::Partners(Seating::Adjacent),
            Wrap::None,
        );
        let mut s = state(
            r,
            A,
            &[
                ("e5", &[(A, false)]),
                ("f6", &[(B, false)]),
                // Blue on l1 (moving left) is blocked by Orange on k2 and nothing else.
                ("l2", &[(D, false)]),
                ("k1", &[(C, false)]),
                ("k3", &[(C, false)]),
                ("j4", &[(C, false)]),
            ],
        );
        let events = play(Kind::Checkers, &mut s, "e5xg7");
        let outcome = CHECKERS.outcome(&s).expect("the game is over");
        assert_eq!(outcome.winners, vec![A, C]);
        assert!(matches!(events.last(), Some(Event::GameOver(_))));
    }

    #[test]
    fn cut_throat_stax_removes_a_vanished_player_at_his_turn() {
        // Black (B, left edge) owns nothing: his only checker is a prisoner under White's
        // stack. When the turn reaches him he vanishes: his checker leaves the stack.
        let r = rules(Kind::Stax, Mode::CutThroat, Wrap::None);
        let mut s = state(
            r,
            A,
            &[
                ("e5", &[(B, false), (A, false)]),
                ("h8", &[(C, false)]),
                ("k3", &[(D, false)]),
            ],
        );
        let events = play(Kind::Stax, &mut s, "e5-f6");
        let f6 = s.position().board().cell("f6").unwrap();
        assert_eq!(s.position().stack(f6).len(), 1, "Black's prisoner is gone");
        assert!(s.position().is_out(B));
        assert_eq!(s.position().turn(), C);
        assert!(
            public(&events).iter().any(|t| t.contains("Black is out")),
            "{events:?}"
        );
        let err = Game::play(&STAX, &mut s, B, "a1-b2").unwrap_err();
        assert!(err.to_string().contains("out of the game"), "{err}");
    }

    #[test]
    fn a_cut_throat_player_whose_pieces_are_all_blocked_misses_turns_and_stays() {
        // Black (B, left edge, moving right) has one man on a5, hemmed in by White's men on
        // b4 and b6 with c3 and c7 behind them: it cannot move, so Black misses the turn, but
        // owns a piece and does not vanish.
        let r = rules(Kind::Stax, Mode::CutThroat, Wrap::None);
        let mut s = state(
            r,
            A,
            &[
                ("a5", &[(B, false)]),
                ("b4", &[(A, false)]),
                ("b6", &[(A, false)]),
                ("c3", &[(A, false)]),
                ("c7", &[(A, false)]),
                ("h3", &[(A, false)]),
                ("h10", &[(C, false)]),
                ("k5", &[(D, false)]),
            ],
        );
        let events = play(Kind::Stax, &mut s, "h3-g4");
        assert_eq!(s.position().turn(), C);
        assert!(!s.position().is_out(B));
        assert_eq!(s.position().checkers_of(B), 1);
        assert!(
            public(&events)
                .iter()
                .any(|t| t == "Black has nothing that can move and misses the turn."),
            "{events:?}"
        );
    }

    #[test]
    fn a_cut_throat_player_who_resigns_leaves_and_the_game_goes_on() {
        let mut o = Options::new();
        o.set("mode", "cutthroat");
        let mut s = CHECKERS.setup(&o, 4, 1).unwrap();
        let events = CHECKERS
            .leave(&mut s, A, 4, EndReason::Resignation)
            .unwrap();
        assert!(!events.iter().any(|e| matches!(e, Event::GameOver(_))));
        assert_eq!(s.position().checkers_of(A), 0);
        assert_eq!(s.position().turn(), B, "the turn passes on");
        assert!(CHECKERS.is_out(&s, A));
        assert!(CHECKERS
            .leave(&mut s, A, 4, EndReason::Resignation)
            .is_err());
        CHECKERS.leave(&mut s, B, 4, EndReason::Timeout).unwrap();
        let events = CHECKERS
            .leave(&mut s, D, 4, EndReason::Resignation)
            .unwrap();
        match events.last() {
            Some(Event::GameOver(o)) => assert_eq!(o.winners, vec![C]),
            other => panic!("{other:?}"),
        }
        // Partners: the other team wins, never the partner.
        let mut s = CHECKERS.setup(&Options::new(), 4, 1).unwrap();
        match CHECKERS
            .leave(&mut s, B, 4, EndReason::Resignation)
            .unwrap()
            .last()
        {
            Some(Event::GameOver(o)) => assert_eq!(o.winners, vec![A, C]),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_cylinder_touches_each_pair_of_opposite_players_own_sides() {
        // Partners opposite: White bottom, Black left, Orange top, Blue right.
        let r = rules(
            Kind::Checkers,
            Mode::Partners(Seating::Opposite),
            Wrap::Files,
        );
        // White's man on a5 steps forward-left across its left edge onto l6.
        let s = state(
            r.clone(),
            A,
            &[("a5", &[(A, false)]), ("f12", &[(C, false)])],
        );
        let texts = CHECKERS.legal_texts(&s, A);
        assert!(texts.contains(&"a5-l6".to_string()), "{texts:?}");
        // Black (left edge, moving right) crosses the top and bottom edges, not the sides.
        let s = state(r, B, &[("e12", &[(B, false)]), ("h3", &[(D, false)])]);
        let mut texts = CHECKERS.legal_texts(&s, B);
        texts.sort();
        assert_eq!(texts, ["e12-f1", "e12-f11"]);
    }

    #[test]
    fn on_the_universal_board_a_side_players_ends_are_the_left_and_right_edges() {
        let r = rules(Kind::Checkers, Mode::CutThroat, Wrap::Both);
        // Blue (D) sits at the right edge and moves left: its man on b6 may not jump White's
        // on a5 across the left edge (its far end) onto l4, but its men cross the top edge.
        let s = state(
            r.clone(),
            D,
            &[("b6", &[(D, false)]), ("a5", &[(A, false)])],
        );
        assert_eq!(CHECKERS.legal_texts(&s, D), ["b6-a7"]);
        let s = state(r, D, &[("c12", &[(D, false)]), ("f6", &[(A, false)])]);
        let mut texts = CHECKERS.legal_texts(&s, D);
        texts.sort();
        assert_eq!(texts, ["c12-b1", "c12-b11"]);
    }

    #[test]
    fn kings_are_crowned_anywhere_on_the_far_edge() {
        let r = rules(
            Kind::Checkers,
            Mode::Partners(Seating::Adjacent),
            Wrap::None,
        );
        // White's man on k11 reaches l12, a corner file no opponent started on.
        let mut s = state(
            r,
            A,
            &[
                ("k11", &[(A, false)]),
                ("a12", &[(B, false)]),
                ("d8", &[(D, false)]),
            ],
        );
        let events = play(Kind::Checkers, &mut s, "k11-l12");
        assert!(public(&events)[0].ends_with("and is crowned"), "{events:?}");
    }

    #[test]
    fn options_that_do_not_fit_are_refused_with_the_valid_ones_named() {
        let refuse = |game: &CheckersFamily, pairs: &[&str], seats: usize| {
            let o = Options::parse(pairs.iter().map(|s| s.to_string())).unwrap();
            game.setup(&o, seats, 0).unwrap_err().to_string()
        };
        assert!(refuse(&CHECKERS, &["mode=cutthroat"], 2).contains("players=4"));
        assert!(refuse(&STAX, &["colours=mixed"], 4).contains("colours is for Queens"));
        assert!(refuse(&QUEENS, &["mode=cutthroat", "seating=opposite"], 4)
            .contains("seating is for partners"));
        assert!(refuse(&CHECKERS, &["fen=B:W21:B1"], 4).contains("two-player"));
        assert!(refuse(&CHECKERS, &[], 3).contains("2 or 4"));
    }

    #[test]
    fn four_player_states_store_and_load() {
        let mut o = Options::new();
        o.set("mode", "cutthroat");
        o.set("numbers", "on");
        let mut s = QUEENS.setup(&o, 4, 3).unwrap();
        for _ in 0..12 {
            let seat = s.position().turn();
            let text = QUEENS.legal_texts(&s, seat).last().unwrap().clone();
            play(Kind::Queens, &mut s, &text);
        }
        let json = serde_json::to_string(&s).unwrap();
        let back: CheckersState = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
        assert_eq!(
            back.position().repetition_key(),
            s.position().repetition_key()
        );
        assert_eq!(
            QUEENS.legal_texts(&back, back.position().turn()),
            QUEENS.legal_texts(&s, s.position().turn())
        );
    }
}
