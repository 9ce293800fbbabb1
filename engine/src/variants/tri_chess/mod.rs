//! Tri-Chess (Will Adams, *Variations on Chess and Checkers*, chess IV): chess for two to six
//! players on hexagons of triangles.
//!
//! - The boards: side 4 (8 rows) for two players, 5 (10 rows) for three or four, 6 (12 rows)
//!   with the corners cut out for five or six ([`crate::board::BoardSpec::TriHex`]).
//! - The pieces, "half again as much territory" as on squares: rooks parallel to an edge
//!   through sides (six lines), bishops perpendicular to an edge alternately through side and
//!   angle (six), queens both, kings to the twelve triangles around, knights two bishop steps
//!   then one aside (twelve leaps). Pawns one or two triangles first, then one, straight ahead
//!   (a bishop's step), capturing on the two same-coloured triangles diagonally forward.
//! - With three or more players the extended pawn move of Doubles (`pawns=extended`, the
//!   default) and the extended knight hop (`knight=extended`, by agreement) may be used.
//! - Nine pawns, or the unoccupied outer edges cut out of play (`edges=nine-pawns|cut`); five
//!   and six players always have nine pawns on the board with its corners cut.
//! - Three and five players, and four or six cut-throat, play cut-throat; four and six may
//!   play partners (`teams=AB-CD|AC-BD|AD-BC`, `teams=AB-CD-EF|ABC-DEF`) under the Doubles
//!   rules, with the book's sequences of moves. The rules of play are shared with Doubles
//!   Chess ([`super::team_chess`]).
//! - Starting positions are data (`engine/data/tri-chess.txt`), reconstructed: the figures are
//!   lost.
//!
//! *Interpretations*, said also in `/rules`: castling (the book is silent) as in Doubles, the
//! king two triangles along its row toward the rook, the rook on the triangle it crossed; en
//! passant as in chess (and Doubles, on every triangle a long step passed); a pawn promotes on
//! reaching a triangle with none ahead of it in the far half of the board; a knight leaps over
//! cut-out triangles; its extended hop repeats the first leap's bishop direction and side from
//! the landing triangle (which points the other way, so it is not the same offset).

pub(crate) mod layout;
pub mod notation;
#[cfg(test)]
mod tests;

pub use layout::{Layout, ALL as LAYOUTS};

use crate::chess::{
    CastlingRule, Move, MoveParseError, PawnRule, Position, RulesSpec, Seat, Setup,
};
use crate::game::{
    EndReason, Event, Family, Game, GameError, OptionSpec, OptionValues, Options, Outcome, Prompt,
    VariantInfo,
};
use crate::table::Table;
use crate::view::{View, Viewer};

use super::patterns::{read_pattern, MODE_OPTION};
use super::team_chess::{Mode, TeamChess, Writing};

/// Tri-Chess.
pub struct TriChess;

/// The armies' names in seat order, after the colours they are drawn in.
pub const NAMES: [&str; 6] = ["White", "Black", "Orange", "Blue", "Green", "Pink"];

/// The partner patterns the book lists, for four and for six players.
const FOUR_TEAMS: [&str; 3] = ["ab-cd", "ac-bd", "ad-bc"];
const SIX_TEAMS: [&str; 2] = ["ab-cd-ef", "abc-def"];

/// A game's choices, checked against each other and the number of players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choices {
    pub mode: Mode,
    /// `cutthroat` or the partner pattern, lower case.
    pub pattern: String,
    pub edges: String,
    pub extended_knight: bool,
    pub extended_pawns: bool,
}

impl Choices {
    /// Reads the options for `players`, refusing what the book does not allow, with the reason.
    pub fn read(options: &Options, players: usize) -> Result<Choices, GameError> {
        let get = |key: &str| options.get(key).map(str::to_ascii_lowercase);
        let patterns: &[&str] = match players {
            4 => &FOUR_TEAMS,
            6 => &SIX_TEAMS,
            _ => &[],
        };
        let pattern = read_pattern(options, players, patterns, "Tri-Chess")?;
        let mode = if pattern == "cutthroat" {
            Mode::CutThroat
        } else {
            Mode::Partners
        };
        let edges = get("edges").unwrap_or_else(|| "nine-pawns".into());
        if edges != "nine-pawns" && edges != "cut" {
            return Err(GameError::BadOption(format!(
                "edges must be nine-pawns or cut, not '{edges}'"
            )));
        }
        if edges == "cut" && players >= 5 {
            return Err(GameError::BadOption(
                "edges=cut is for two to four players: with five or six the board's corners \
                 are cut out and every army has nine pawns"
                    .into(),
            ));
        }
        let extended = |key: &str, default: bool| -> Result<bool, GameError> {
            match get(key).as_deref() {
                None => Ok(default && players > 2),
                Some("extended") if players == 2 => Err(GameError::BadOption(format!(
                    "{key}=extended is for three or more players: the book keeps two-player \
                     Tri-Chess to the plain moves"
                ))),
                Some("extended") => Ok(true),
                Some("plain") => Ok(false),
                Some(other) => Err(GameError::BadOption(format!(
                    "{key} must be plain or extended, not '{other}'"
                ))),
            }
        };
        Ok(Choices {
            mode,
            pattern,
            edges,
            extended_knight: extended("knight", false)?,
            extended_pawns: extended("pawns", true)?,
        })
    }

    /// The teams of the armies: each its own in cut-throat, else by the pattern's groups.
    fn teams(&self, players: usize) -> Vec<u8> {
        if self.mode == Mode::CutThroat {
            return (0..players as u8).collect();
        }
        let mut teams = vec![0; players];
        for (team, group) in self.pattern.split('-').enumerate() {
            for letter in group.chars() {
                if let Some(army) = layout::army_letter(&letter.to_string()) {
                    teams[army as usize] = team as u8;
                }
            }
        }
        teams
    }
}

/// A new game of Tri-Chess for `players` with the given choices.
pub fn new_game(players: usize, choices: &Choices, seed: u64) -> Result<TeamChess, GameError> {
    let layout = layout::find(players, &choices.pattern, &choices.edges).ok_or_else(|| {
        GameError::BadOption(format!(
            "Tri-Chess has no starting position for {players} players with teams {} and edges={}",
            choices.pattern, choices.edges
        ))
    })?;
    let teams = choices.teams(players);
    let mut spec = RulesSpec::new(layout.board(), teams.clone());
    spec.castling = CastlingRule::KingTwoSquares;
    spec.extended_knight = choices.extended_knight;
    if choices.extended_pawns {
        spec.pawns = PawnRule::Doubles;
    }
    // O-O is the king's side: toward the rook nearer the king at the start.
    let board = spec.board.build();
    let pieces = layout.pieces(&board);
    spec.short_castle = (0..players)
        .map(|seat| {
            let file = |role: crate::chess::Role| -> Vec<i16> {
                pieces
                    .iter()
                    .filter(|(_, p)| p.seat.index() == seat && p.role == role)
                    .filter_map(|(c, _)| board.frame_coord(seat, *c).map(|rc| rc.1))
                    .collect()
            };
            let king = file(crate::chess::Role::King)[0];
            let nearest = file(crate::chess::Role::Rook)
                .into_iter()
                .min_by_key(|r| (r - king).abs())
                .unwrap_or(king + 1);
            if nearest > king {
                crate::chess::CastleSide::High
            } else {
                crate::chess::CastleSide::Low
            }
        })
        .collect();
    let rules = spec.build();
    let board = rules.board();
    let mut cells = vec![None; board.len()];
    let mut rooks = Vec::new();
    for (cell, piece) in layout.pieces(board) {
        cells[cell.index()] = Some(piece);
        if piece.role == crate::chess::Role::Rook {
            rooks.push(cell);
        }
    }
    let setup = Setup {
        cells,
        turn: Seat(layout.order[0]),
        castling_rooks: rooks,
        ep_target: None,
        halfmoves: 0,
        fullmoves: 1,
    };
    let position = Position::from_setup(setup, rules)
        .map_err(|e| GameError::BadSetup(format!("the Tri-Chess start is not legal: {e}")))?;
    let names = &NAMES[..players];
    Ok(TeamChess::start(
        choices.mode,
        position,
        Table::with_order(names, &teams, &layout.order),
        Writing::Numbered,
        seed,
    ))
}

impl TeamChess {
    /// Reads a Tri-Chess move for `army`, explaining a refusal.
    fn parse_numbered(&self, army: u8, text: &str) -> Result<Move, GameError> {
        let allowed = self.moves_of(army);
        let pos = self.as_turn_of(army);
        let refuse = |reason: String| {
            GameError::Move(MoveParseError::Illegal {
                text: text.trim().to_string(),
                reason,
            })
        };
        match notation::read(&pos, &allowed, text) {
            Ok(m) => Ok(m),
            Err(reason) => {
                // A move the chess rules allow, refused by the rules of several players.
                let chess = pos.legal_moves();
                match notation::read(&pos, &chess, text) {
                    Ok(m) => Err(refuse(self.why_refused(army, m))),
                    Err(_) => Err(refuse(reason)),
                }
            }
        }
    }
}

static INFO: std::sync::LazyLock<VariantInfo> = std::sync::LazyLock::new(|| {
    VariantInfo {
    id: "tri-chess",
    aliases: &["trichess", "triangle-chess", "adams-tri-chess"],
    name: "Tri-Chess",
    family: Family::Chess,
    seat_counts: &[2, 3, 4, 5, 6],
    options: vec![
        MODE_OPTION,
        OptionSpec {
            key: "teams",
            help: "partners: AB-CD, AC-BD or AD-BC with four; AB-CD-EF or ABC-DEF with six",
            default: None,
            values: OptionValues::Choice(&["AB-CD", "AC-BD", "AD-BC", "AB-CD-EF", "ABC-DEF"]),
        },
        OptionSpec {
            key: "edges",
            help: "nine-pawns, or cut (the unoccupied outer edges out of play; two to four players)",
            default: Some("nine-pawns"),
            values: OptionValues::Choice(&["nine-pawns", "cut"]),
        },
        OptionSpec {
            key: "knight",
            help: "plain, or extended (a second hop the same way to an empty triangle; three or more players)",
            default: Some("plain"),
            values: OptionValues::Choice(&["plain", "extended"]),
        },
        OptionSpec {
            key: "pawns",
            help: "extended (Doubles' longer steps; the default with three or more players) or plain",
            default: None,
            values: OptionValues::Choice(&["plain", "extended"]),
        },
    ],
    hidden_information: false,
    simultaneous: false,
    rules: RULES,
    source: "Will Adams, Variations on Chess and Checkers, chess IV (Tri-Chess)",
}
});

const RULES: &str = "\
Chess on a hexagon of triangles, numbered 1 up from the bottom row, for 2 to 6 players: side 4 \
(8 rows) for two, 5 for three or four, 6 with its corners cut out for five or six. Players A-F \
are White, Black, Orange, Blue, Green and Pink, in the order they sit.\n\
Moves: rooks parallel to an edge through the sides of the triangles (six lines); bishops \
perpendicular to an edge, alternately through a side and a point (six lines, both colours); \
queens both; kings to any of the twelve triangles around; knights two bishop steps, then one \
step through a side to either side (twelve leaps; it jumps, cut-out triangles too). Pawns go \
straight ahead one triangle, or two from their first row, and take on the two triangles of \
their own colour diagonally forward; en passant as in chess, on every triangle a long step \
passed, by each enemy on his next turn (our reading). A pawn promotes on reaching a triangle with none \
ahead of it in the far half of the board (our reading of 'the last rank').\n\
Castling (the book is silent; our house rule, as in Doubles Chess): the king goes two triangles \
along its row toward the rook, which lands on the triangle it crossed; O-O is the king's side.\n\
Options: edges=nine-pawns (each army has a ninth pawn that shuts its rook in) or edges=cut (the \
unoccupied outer edges are out of play; two to four players; the four-player open position \
keeps its nine pawns anyway, as the book requires). Corners are cut out with three players \
(each army's right-hand one), in the four-player open position (between neighbours) and \
always with five or six; with three or more players \
pawns=extended (the default: 1-3 triangles on the first move, then 1-2 until past the centre) \
and knight=extended (a second, non-capturing hop over an empty landing triangle: the same \
bishop direction, turning to the same side).\n\
Two players: White against Black. Three and five players, and four or six with mode=cutthroat: \
clockwise, each for himself, under the Doubles cut-throat rules: a mated army is frozen in place \
(its pieces may be captured and still give check) and the mater must take its king next move \
unless checked meanwhile; the taker is immune for one move from the players who took part in \
the mate (we count those attacking the king or a square next to it); a king left attacked may \
be taken by another enemy (our reading, not forced); a stalemated player passes while two \
others play on, and a mate leaving only the mater and a stalemated player draws; the last \
player in wins.\n\
Partners (mode=partners): four players teams=AB-CD (closed position, moves A, C, B, D), AC-BD \
(A, B, C, D) or AD-BC (D, C, A, B); these two come from the book's triangle checkers games, \
which give AD-BC as D, C, A, B and also D, B, A, C (we use the first), played from the open \
position. Six players teams=AB-CD-EF (A, C, E, B, D, F) or ABC-DEF (A, D, B, E, C, F). The \
Doubles partner rules apply: you need not defend your partner's king; a mated player misses \
turns until the king is taken or the mate broken; the mater must take the king (a king left \
attacked when an enemy who attacks it comes to move is lost the same way), and the taker is \
immune from the victim for one move; a player without a king plays on; any stalemate draws \
unless the stalemated player has lost his king; a team whose kings are all mated or taken has \
lost. With three teams a beaten team leaves the game, its pieces frozen, and the last team in \
wins (our reading).\n\
The book's diagrams are lost: every starting position is reconstructed from its text (kings on \
triangles pointing inward; queens on the centre triangle on 8 and 12 rows, beside the king on \
the centre on 10 rows; empty corners; rooks shut in by the ninth pawn or the cut edges) and \
kept as data. Some pawns can take pawns at the corners on the first move.\n\
Moves are written N45-67, 58-71 (a pawn), Q12x80, 150-161=Q, O-O; N67 is enough when only one \
knight can go there. O-O castles toward the rook nearer the king at the start.";

impl Game for TriChess {
    type State = TeamChess;
    type Action = Move;

    fn info(&self) -> &VariantInfo {
        &INFO
    }

    fn setup(&self, options: &Options, seats: usize, seed: u64) -> Result<TeamChess, GameError> {
        let choices = Choices::read(options, seats)?;
        new_game(seats, &choices, seed)
    }

    fn prompts(&self, state: &TeamChess) -> Vec<Prompt> {
        state.prompts()
    }

    fn king_room(&self, state: &TeamChess, army: Seat) -> Option<usize> {
        state.king_room(army.0)
    }

    fn legal(&self, state: &TeamChess, seat: Seat) -> Vec<Move> {
        state.legal_for(seat)
    }

    fn action_text(&self, state: &TeamChess, action: &Move) -> String {
        notation::write(&state.position, *action)
    }

    fn legal_texts(&self, state: &TeamChess, seat: Seat) -> Vec<String> {
        Game::legal(self, state, seat)
            .iter()
            .map(|m| notation::write(&state.position, *m))
            .collect()
    }

    fn parse(&self, state: &TeamChess, seat: Seat, text: &str) -> Result<Move, GameError> {
        let army = state.check_turn(seat)?;
        state.parse_numbered(army, text)
    }

    fn apply(
        &self,
        state: &mut TeamChess,
        seat: Seat,
        action: Move,
    ) -> Result<Vec<Event>, GameError> {
        state.apply_for(seat, action)
    }

    fn view(&self, state: &TeamChess, viewer: Viewer) -> View {
        state.view(self.info().id, viewer)
    }

    fn outcome(&self, state: &TeamChess) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn seat_name(&self, state: &TeamChess, seat: Seat) -> String {
        state.seat_name(seat)
    }

    fn concede(&self, state: &TeamChess, seat: Seat, _seats: usize, reason: EndReason) -> Outcome {
        state.concede(seat, reason)
    }

    fn leave(
        &self,
        state: &mut TeamChess,
        seat: Seat,
        _seats: usize,
        reason: EndReason,
    ) -> Result<Vec<Event>, GameError> {
        state.leave(seat, reason)
    }

    fn is_out(&self, state: &TeamChess, seat: Seat) -> bool {
        state.is_out(seat)
    }

    fn waiting_reason(&self, state: &TeamChess, seat: Seat) -> Option<String> {
        state.waiting_reason(seat)
    }

    fn perft(&self, state: &TeamChess, depth: u32) -> Option<u64> {
        Some(state.perft(depth))
    }

    fn divide(&self, state: &TeamChess, depth: u32) -> Option<Vec<(String, u64)>> {
        Some(state.divide(depth))
    }
}
