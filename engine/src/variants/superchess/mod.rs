//! Superchess (Rolf W. Jacobson, *Superchess: The Official Rules and Game Description*, 1989 and
//! 1992): four armies on a 14x14 board with a walled centre, for two, three or four people.
//!
//! The board (the grid form of the book's diamond, `RULES-NOTES.md`): files a-n, ranks 1-14; the
//! centre zone f6-i9 and the outer eight squares of each 3x3 corner are walls, not squares.
//! Sliders stop at walls, knights jump over their corners. White sits in the a10-e14 quadrant
//! (the book's south), Black in j10-n14 (west), Tan in j1-n5 (north), Brown in a1-e5 (east);
//! they move in that order, White and Tan against Black and Brown.
//!
//! - Pawns move toward the army opposite them; each row of pawns faces one enemy, and the point
//!   pawn at the corner of the centre zone takes either course with its first move and keeps it.
//!   A pawn promotes at the end of its line, or when a capture takes it into the frontier beyond
//!   the enemy it faces, to any piece but a king, its partner's too. Only a pawn beside a pawn
//!   that stepped two squares may take it en passant (pawns at right angles reach the square
//!   passed from further off).
//! - Castling swaps king and rook of one quadrant (a knight's move apart), whatever stands
//!   between, when neither has moved, the king is not in check and does not land in check.
//! - No move may put the mover's or his partner's king in check (a partner's check need not be
//!   answered). A checkmated king is removed by its player as his move; its army plays on for
//!   the brother king. Resigning a king is a move too. The first side to mate (or force the
//!   resignation of) both opposing kings wins.
//! - Two people: each moves either of his armies on his turn. When both his kings are in check
//!   and no move frees both, he frees one and the other is mated on the same turn.
//! - Stalemate draws the two-person game; with three or four people the stalemated (or
//!   armyless) army passes, and the game is drawn when every army of a team is stalemated.
//!
//! Interpretations (also in `/rules`):
//! - a mate is judged when the mated army comes to move (its partner may break it first); the
//!   mate is credited to the army whose move last checked that king (new allegiance, free for
//!   all);
//! - two-person `turns=quadrant`: an army without a move passes, and the game is drawn when
//!   neither of a player's armies can move;
//! - free for all: a fallen king's pieces leave the board (unless `new-allegiance` hands them
//!   to the mater); three players play White, Black and Tan;
//! - "neither side can checkmate": no side with a king has a pawn, rook, queen or two minor
//!   pieces; fifty moves of every army without a capture or pawn move, or a threefold
//!   repetition, also draw (the orthodox rules apply);
//! - `capture-king`: nothing is judged by check at all; castling needs only unmoved pieces;
//! - a resigned king's army stays with its player even under `new-allegiance`.

use serde::{Deserialize, Serialize};

use crate::board::{Cell, SquareBoard};
use crate::chess::{
    CastlingRule, Move, MoveKind, MoveParseError, PawnRule, Piece, Position, Role, RulesSpec, Seat,
    Setup,
};
use crate::game::{
    EndReason, Event, Family, Game, GameError, OptionSpec, OptionValues, Options, Outcome, Prompt,
    PromptKind, VariantInfo,
};
use crate::table::{ArmyStatus, Table, TableArmy, Turn};
use crate::view::{Figure, Placed, SeatLine, View, Viewer};

use super::chess::counting_draws_by;

#[cfg(test)]
mod tests;

/// Superchess.
pub struct Superchess;

/// The armies by index, in the order of play.
pub const NAMES: [&str; 4] = ["White", "Black", "Tan", "Brown"];
/// Each army's forward, in quarter turns clockwise from up the grid: White's pawns go east and
/// south, Black's south and west, Tan's west and north, Brown's north and east.
const FACING: [u8; 4] = [1, 2, 3, 0];
/// The renderer's palette slots for Tan and Brown (White and Black keep slots 0 and 1).
const TAN: u8 = 6;
const BROWN: u8 = 7;
/// The book's teams: White and Tan (light) against Black and Brown (dark).
const TEAMS: [u8; 4] = [0, 1, 0, 1];

/// The preferred array (`RULES-NOTES.md`): king, queen, rooks, knights, bishops, point pawn,
/// then the two rows of pawns.
const ARMIES: [&str; 4] = [
    "Kc12 Qd11 Ra11 Rd14 Nb11 Nd13 Bc11 Bd12 Pe10 Pe11 Pe12 Pe13 Pe14 Pa10 Pb10 Pc10 Pd10",
    "Kl12 Qk11 Rn11 Rk14 Nm11 Nk13 Bl11 Bk12 Pj10 Pj11 Pj12 Pj13 Pj14 Pk10 Pl10 Pm10 Pn10",
    "Kl3 Qk4 Rn4 Rk1 Nm4 Nk2 Bl4 Bk3 Pj5 Pj1 Pj2 Pj3 Pj4 Pk5 Pl5 Pm5 Pn5",
    "Kc3 Qd4 Ra4 Rd1 Nb4 Nd2 Bc4 Bd3 Pe5 Pe1 Pe2 Pe3 Pe4 Pa5 Pb5 Pc5 Pd5",
];

/// The walls: the centre zone, and each 3x3 corner but its innermost square.
pub fn walls() -> Vec<(u8, u8)> {
    let mut walls: Vec<(u8, u8)> = (5..9).flat_map(|f| (5..9).map(move |r| (f, r))).collect();
    let corner = [
        (0, 0),
        (1, 0),
        (2, 0),
        (0, 1),
        (1, 1),
        (2, 1),
        (0, 2),
        (1, 2),
    ];
    for (f, r) in corner {
        walls.extend([(f, r), (13 - f, r), (f, 13 - r), (13 - f, 13 - r)]);
    }
    walls
}

// ---- options -------------------------------------------------------------------------------

/// How a game of several players is won when each plays for himself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FreeForAll {
    /// The first player to checkmate a king wins.
    FirstMate,
    /// The player with the last king on the board wins.
    LastKing,
}

/// What becomes of an army whose king is mated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fallen {
    /// It plays on for the brother king (the book's rule).
    PlaysOn,
    /// Its pieces leave the board (the piece removal variation).
    Removed,
    /// Its pieces go over to the mater (the new allegiance variation).
    NewAllegiance,
}

/// When a player of four may move his partner's pieces too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PartnerMoves {
    Never,
    Always,
    AfterFirstMate,
}

/// The way a game is played, from its options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub players: u8,
    pub free_for_all: Option<FreeForAll>,
    pub first_mate_wins: bool,
    pub fallen: Fallen,
    pub capture_king: bool,
    /// Two people, one quadrant at a time.
    pub quadrant_order: bool,
    /// Two people with two armies: White against this army (Black or Tan).
    pub two_armies: Option<u8>,
    pub partner_moves: PartnerMoves,
}

impl Settings {
    /// Reads the options for `players`, refusing combinations the book does not offer.
    pub fn read(options: &Options, players: usize) -> Result<Settings, GameError> {
        let bad = |s: String| Err(GameError::BadOption(s));
        let on = |key: &str| {
            options
                .get(key)
                .is_some_and(|v| v.eq_ignore_ascii_case("on"))
        };
        let free_for_all = match options.get("free-for-all").map(str::to_ascii_lowercase) {
            None => None,
            Some(v) if v == "off" => None,
            Some(v) if v == "first-mate" => Some(FreeForAll::FirstMate),
            Some(v) if v == "last-king" => Some(FreeForAll::LastKing),
            Some(v) => {
                return bad(format!(
                    "free-for-all={v}: the values are off, first-mate and last-king"
                ))
            }
        };
        let fallen = match (on("piece-removal"), on("new-allegiance")) {
            (true, true) => {
                return bad("piece-removal and new-allegiance cannot both be on: a mated army either leaves the board or changes sides".into())
            }
            (true, false) => Fallen::Removed,
            (false, true) => Fallen::NewAllegiance,
            (false, false) => Fallen::PlaysOn,
        };
        let quadrant_order = options
            .get("turns")
            .is_some_and(|v| v.eq_ignore_ascii_case("quadrant"));
        let two = options.get("armies") == Some("2");
        let north = options
            .get("against")
            .is_some_and(|v| v.eq_ignore_ascii_case("north"));
        let partner_moves = match options.get("partner-moves").map(str::to_ascii_lowercase) {
            None => PartnerMoves::Never,
            Some(v) if v == "never" => PartnerMoves::Never,
            Some(v) if v == "always" => PartnerMoves::Always,
            Some(v) if v == "after-first-mate" => PartnerMoves::AfterFirstMate,
            Some(v) => {
                return bad(format!(
                    "partner-moves={v}: the values are never, always and after-first-mate"
                ))
            }
        };
        if free_for_all.is_some() && players < 3 {
            return bad("free-for-all is for three or four players, each for himself".into());
        }
        if free_for_all.is_some() && on("first-mate-wins") {
            return bad(
                "first-mate-wins is for teams; free-for-all=first-mate is its free-for-all form"
                    .into(),
            );
        }
        if quadrant_order && players != 2 {
            return bad("turns=quadrant is a two-person variation (with more players each army already moves on its own turn)".into());
        }
        if two && players != 2 {
            return bad(
                "armies=2 is a two-person variation: one army against another on the big board"
                    .into(),
            );
        }
        if two && quadrant_order {
            return bad(
                "armies=2 already moves one army at a time: turns=quadrant adds nothing".into(),
            );
        }
        if north && !two {
            return bad("against=north chooses the second army with armies=2 only".into());
        }
        if partner_moves != PartnerMoves::Never && (players != 4 || free_for_all.is_some()) {
            return bad(
                "partner-moves is a four-person variation for two teams of partners".into(),
            );
        }
        Ok(Settings {
            players: players as u8,
            free_for_all,
            first_mate_wins: on("first-mate-wins"),
            fallen,
            capture_king: on("capture-king"),
            quadrant_order,
            two_armies: two.then_some(if north { 2 } else { 1 }),
            partner_moves,
        })
    }

    /// The armies on the board.
    fn present(&self) -> Vec<u8> {
        match (self.two_armies, self.free_for_all, self.players) {
            (Some(other), _, _) => vec![0, other],
            (None, Some(_), 3) => vec![0, 1, 2],
            _ => vec![0, 1, 2, 3],
        }
    }

    /// Each army's team.
    fn teams(&self) -> Vec<u8> {
        match (self.free_for_all, self.two_armies) {
            (Some(_), _) => vec![0, 1, 2, 3],
            // White alone against the other army (the absent two on its side, never seen).
            (None, Some(_)) => vec![0, 1, 1, 1],
            (None, None) => TEAMS.to_vec(),
        }
    }

    /// Whether there are partners to promote for.
    fn partners(&self) -> bool {
        self.free_for_all.is_none() && self.two_armies.is_none()
    }

    /// The player of each army (absent armies go to player 0; they never move).
    fn players_of_armies(&self) -> [u8; 4] {
        match (self.players, self.free_for_all) {
            (2, _) if self.two_armies == Some(2) => [0, 0, 1, 0],
            (2, _) => [0, 1, 0, 1],
            // One player with two armies (White and Tan) against two partners.
            (3, None) => [0, 1, 0, 2],
            _ => [0, 1, 2, 3],
        }
    }

    /// Whether turns belong to players, each moving any army he holds: two people in the
    /// book's normal order.
    fn player_turns(&self) -> bool {
        self.players == 2 && !self.quadrant_order && self.two_armies.is_none()
    }
}

// ---- the state -----------------------------------------------------------------------------

/// How a king left the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FallKind {
    Mated,
    Resigned,
    Captured,
}

/// A king that has left the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fall {
    pub how: FallKind,
    /// The army credited with it.
    pub by: Option<u8>,
}

/// One thing a player does on his turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    Move(Move),
    /// Resigns this army's king (a move: the king leaves the board).
    ResignKing(u8),
}

/// A game of Superchess.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SuperchessGame {
    settings: Settings,
    position: Position,
    table: Table,
    /// The team each player plays for, whatever armies he holds.
    player_teams: Vec<u8>,
    /// Per army, its king's fall.
    fallen: Vec<Option<Fall>>,
    /// Per army, the army whose move last put its king in check.
    checked_by: Vec<Option<u8>>,
    /// Every move, as "White: Nf3".
    moves: Vec<String>,
    repetitions: Vec<u64>,
    last_move: Vec<Cell>,
    outcome: Option<Outcome>,
    seed: u64,
}

/// What the player to move may do now.
struct TurnMoves {
    moves: Vec<Move>,
    /// His kings in check that no move frees together with the other: whichever stays in
    /// check after his move is mated on the same turn.
    left_in_check: Vec<u8>,
}

impl SuperchessGame {
    /// A new game.
    pub fn new(settings: Settings, seed: u64) -> SuperchessGame {
        let board = SquareBoard::new(14, 14)
            .holes(walls())
            .seats_facing(&FACING)
            .spec();
        let teams = settings.teams();
        let mut spec = RulesSpec::new(board, teams.clone());
        spec.pawns = PawnRule::Superchess;
        spec.castling = CastlingRule::Swap;
        spec.promote_to_partners = settings.partners();
        let rules = spec.build();
        let b = rules.board();
        let present = settings.present();
        let mut cells = vec![None; b.len()];
        let mut rooks = Vec::new();
        for &army in &present {
            for word in ARMIES[army as usize].split_whitespace() {
                let role = Role::from_char(word.chars().next().unwrap()).unwrap();
                let cell = b.cell(&word[1..]).expect("the armies stand on the board");
                cells[cell.index()] = Some(Piece {
                    seat: Seat(army),
                    role,
                });
                if role == Role::Rook {
                    rooks.push(cell);
                }
            }
        }
        let setup = Setup {
            cells,
            turn: Seat(0),
            castling_rooks: rooks,
            ep_target: None,
            halfmoves: 0,
            fullmoves: 1,
        };
        let position = Position::from_setup_with(setup, rules, crate::chess::KingRule::Stored)
            .expect("the preferred array is a legal position");
        let players = settings.players_of_armies();
        let armies: Vec<TableArmy> = (0..4u8)
            .map(|a| TableArmy {
                name: NAMES[a as usize].to_string(),
                controller: Seat(players[a as usize]),
                team: teams[a as usize],
                status: if present.contains(&a) {
                    ArmyStatus::Playing
                } else {
                    ArmyStatus::Eliminated
                },
            })
            .collect();
        let order: Vec<Turn> = if settings.player_turns() {
            vec![
                Turn {
                    army: 0,
                    player: Seat(0),
                },
                Turn {
                    army: 1,
                    player: Seat(1),
                },
            ]
        } else {
            present
                .iter()
                .map(|&a| Turn {
                    army: a,
                    player: Seat(players[a as usize]),
                })
                .collect()
        };
        let player_teams = (0..settings.players)
            .map(|p| {
                let army = players.iter().position(|&q| q == p).unwrap_or(0);
                teams[army]
            })
            .collect();
        let mut game = SuperchessGame {
            settings,
            repetitions: vec![position.repetition_key()],
            position,
            table: Table::new(armies, order),
            player_teams,
            fallen: vec![None; 4],
            checked_by: vec![None; 4],
            moves: Vec::new(),
            last_move: Vec::new(),
            outcome: None,
            seed,
        };
        game.settle();
        game
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }
    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }
    /// The table.
    pub fn table(&self) -> &Table {
        &self.table
    }
    /// Every move so far.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }
    /// Per army, how its king fell, if it has.
    pub fn falls(&self) -> &[Option<Fall>] {
        &self.fallen
    }

    fn name(&self, army: u8) -> &'static str {
        NAMES[army as usize]
    }

    /// The player whose turn it is.
    fn player(&self) -> Seat {
        self.table.current().player
    }

    /// Whether this turn's player may move every army of his team (two people; partners'
    /// pieces in the four-person variations).
    fn together(&self) -> bool {
        self.settings.player_turns()
            || match self.settings.partner_moves {
                PartnerMoves::Never => false,
                PartnerMoves::Always => true,
                PartnerMoves::AfterFirstMate => self.fallen.iter().any(Option::is_some),
            }
    }

    /// The armies that may move this turn: the turn's army, or in player turns every army of
    /// the player's team; only armies still in play with pieces on the board.
    fn movable(&self) -> Vec<u8> {
        let turn = self.table.current();
        let candidates: Vec<u8> = if self.together() {
            let team = self.player_teams[turn.player.index()];
            (0..4).filter(|&a| self.table.team(a) == team).collect()
        } else {
            vec![turn.army]
        };
        candidates
            .into_iter()
            .filter(|&a| !self.table.status(a).is_out())
            .filter(|&a| !self.position.cells_of(Seat(a)).is_empty())
            .collect()
    }

    /// Whether the player to move must answer a check to `army`'s king: the kings of his own
    /// armies moving now (both, for two people), not a partner's, though the partner-moves
    /// variation lets him move the partner's pieces. The book: "If your partner's King is put
    /// in check, you are obliged—but not required—to alleviate the check on your move."
    fn must_answer(&self, movable: &[u8], army: u8) -> bool {
        movable.contains(&army) && self.table.controller(army) == self.player()
    }

    /// The position with `army` to move.
    fn as_turn_of(&self, army: u8) -> Position {
        let mut pos = self.position.clone();
        pos.set_turn(Seat(army));
        pos
    }

    fn army_at(&self, cell: Cell) -> u8 {
        self.position.piece_at(cell).map_or(0, |p| p.seat.0)
    }

    /// The kings of a team on the board.
    fn team_kings(&self, team: u8) -> Vec<u8> {
        (0..4)
            .filter(|&a| self.table.team(a) == team && self.position.king(Seat(a)).is_some())
            .collect()
    }

    /// The team moving now.
    fn moving_team(&self, movable: &[u8]) -> u8 {
        movable
            .first()
            .map_or(self.player_teams[self.player().index()], |&a| {
                self.table.team(a)
            })
    }

    /// Everything the player to move may do, judged by the book's rules of check.
    fn turn_moves(&self) -> TurnMoves {
        let movable = self.movable();
        if self.settings.capture_king {
            let moves = movable
                .iter()
                .flat_map(|&a| self.as_turn_of(a).pseudo_legal_moves())
                .collect();
            return TurnMoves {
                moves,
                left_in_check: Vec::new(),
            };
        }
        let team = self.moving_team(&movable);
        let kings = self.team_kings(team);
        let checked: Vec<bool> = kings
            .iter()
            .map(|&k| self.position.seat_in_check(Seat(k)))
            .collect();
        // The player's own kings in check must be freed; no other king of the team may be put
        // in check (a partner's existing check need not be answered, even by a player who may
        // move the partner's pieces).
        let must_free: Vec<u8> = kings
            .iter()
            .zip(&checked)
            .filter(|(&k, &c)| c && self.must_answer(&movable, k))
            .map(|(&k, _)| k)
            .collect();
        let mut full = Vec::new();
        let mut partial = Vec::new();
        for &army in &movable {
            let pos = self.as_turn_of(army);
            // The book's castling conditions include a king not in check; the pseudo-legal
            // generator leaves that to the caller.
            let king_in_check = pos.seat_in_check(Seat(army));
            for m in pos.pseudo_legal_moves() {
                if king_in_check && m.kind == MoveKind::Castle {
                    continue;
                }
                let mut after = pos.clone();
                after.play_unchecked(m);
                let mut exposes = false;
                let (mut freed, mut kept) = (0, 0);
                for (&k, &was) in kings.iter().zip(&checked) {
                    let attacked = after.seat_in_check(Seat(k));
                    if must_free.contains(&k) {
                        if attacked {
                            kept += 1;
                        } else {
                            freed += 1;
                        }
                    } else if attacked && !was {
                        exposes = true;
                    }
                }
                if exposes {
                    continue;
                }
                if kept == 0 {
                    full.push(m);
                } else if freed > 0 {
                    partial.push(m);
                }
            }
        }
        if !full.is_empty() || partial.is_empty() {
            TurnMoves {
                moves: full,
                left_in_check: must_free,
            }
        } else {
            TurnMoves {
                moves: partial,
                left_in_check: must_free,
            }
        }
    }

    /// The moves of the player to move.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.turn_moves().moves
    }

    /// The player's kings that he may resign now.
    fn resignable(&self) -> Vec<u8> {
        self.movable()
            .into_iter()
            .filter(|&a| self.position.king(Seat(a)).is_some())
            .collect()
    }

    // ---- notation ------------------------------------------------------------------------

    /// A move as the game writes it: SAN from the mover's army, the army named before a
    /// castle when two of the player's armies could castle, a partner's promotion followed by
    /// the army it joins (`e14=Q(Tan)`).
    pub fn write(&self, m: Move, allowed: &[Move]) -> String {
        let army = self.army_at(m.from);
        let pos = self.as_turn_of(army);
        let own: Vec<Move> = allowed
            .iter()
            .filter(|o| !matches!(o.kind, MoveKind::PromotionFor(..)))
            .copied()
            .collect();
        let mut text = pos.san_plain_among(plain(m), &own);
        if m.is_castle() {
            let other_army_castles = allowed
                .iter()
                .any(|o| o.is_castle() && self.army_at(o.from) != army);
            if other_army_castles {
                text = format!("{} {text}", self.name(army));
            }
        }
        if let MoveKind::PromotionFor(_, to) = m.kind {
            text.push_str(&format!("({})", self.name(to.0)));
        }
        text
    }

    /// An action's text.
    pub fn action_text(&self, action: Action, allowed: &[Move]) -> String {
        match action {
            Action::Move(m) => self.write(m, allowed),
            Action::ResignKing(army) => format!("resign {}", self.name(army)),
        }
    }

    /// Reads what a player typed.
    pub fn parse(&self, seat: Seat, text: &str) -> Result<Action, GameError> {
        self.check_turn(seat)?;
        let text = text.trim();
        let lower = text.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("resign") {
            return self.parse_resignation(rest.trim());
        }
        let movable = self.movable();
        // An army's name before the move chooses among the player's armies.
        let (named, rest) = match NAMES
            .iter()
            .position(|n| lower.starts_with(&format!("{} ", n.to_ascii_lowercase())))
        {
            Some(a) => (Some(a as u8), text[NAMES[a].len()..].trim()),
            None => (None, text),
        };
        if let Some(a) = named {
            if !movable.contains(&a) {
                return Err(self.not_this_army(a));
            }
        }
        // A partner's promotion: `e14=Q(Tan)`.
        let (joins, rest) = match rest.rfind('(') {
            Some(i) if rest.ends_with(')') => {
                let inner = rest[i + 1..rest.len() - 1].trim();
                match NAMES.iter().position(|n| n.eq_ignore_ascii_case(inner)) {
                    Some(a) => (Some(a as u8), rest[..i].trim()),
                    None => (None, rest),
                }
            }
            _ => (None, rest),
        };
        let legal = self.legal_moves();
        let armies: Vec<u8> = movable
            .iter()
            .copied()
            .filter(|a| named.is_none_or(|n| n == *a))
            .collect();
        // One reading over every army's moves (the chess reader looks at the pieces, whoever
        // owns them), from the first army's side.
        let allowed: Vec<Move> = legal
            .iter()
            .filter(|m| armies.contains(&self.army_at(m.from)))
            .filter(|m| match (joins, m.kind) {
                (Some(j), MoveKind::PromotionFor(_, to)) => to.0 == j,
                (Some(_), _) => false,
                (None, kind) => !matches!(kind, MoveKind::PromotionFor(..)),
            })
            .map(|&m| plain(m))
            .collect();
        let Some(&first) = armies.first() else {
            return Err(GameError::Refused(
                "there is nothing you can move now".into(),
            ));
        };
        match self.as_turn_of(first).parse_move_among(rest, &allowed) {
            Ok(m) => {
                if m.is_castle() && named.is_none() {
                    let castlers: Vec<u8> = allowed
                        .iter()
                        .filter(|o| o.is_castle())
                        .map(|o| self.army_at(o.from))
                        .collect();
                    if castlers.iter().any(|&a| a != self.army_at(m.from)) {
                        return Err(GameError::Move(MoveParseError::Ambiguous {
                            text: text.to_string(),
                            candidates: armies
                                .iter()
                                .filter(|a| castlers.contains(a))
                                .map(|&a| format!("{} {rest}", self.name(a)))
                                .collect(),
                        }));
                    }
                }
                Ok(Action::Move(match (joins, m.kind) {
                    (Some(j), MoveKind::Promotion(r)) => Move {
                        kind: MoveKind::PromotionFor(r, Seat(j)),
                        ..m
                    },
                    _ => m,
                }))
            }
            Err(e) => Err(self.explain(rest, joins, e)),
        }
    }

    fn parse_resignation(&self, named: &str) -> Result<Action, GameError> {
        let kings = self.resignable();
        let choice = if named.is_empty() {
            match kings.as_slice() {
                [one] => *one,
                [] => return Err(GameError::Refused("you have no king to resign".into())),
                _ => {
                    return Err(GameError::Refused(format!(
                        "say which king you resign: {}",
                        kings
                            .iter()
                            .map(|&a| format!("resign {}", self.name(a)))
                            .collect::<Vec<_>>()
                            .join(" or ")
                    )))
                }
            }
        } else {
            let Some(a) = NAMES.iter().position(|n| n.eq_ignore_ascii_case(named)) else {
                return Err(GameError::Refused(format!(
                    "'{named}' is not an army: the armies are White, Black, Tan and Brown"
                )));
            };
            a as u8
        };
        if !kings.contains(&choice) {
            return Err(GameError::Refused(format!(
                "you cannot resign {}'s king now: {}",
                self.name(choice),
                if self.position.king(Seat(choice)).is_none() {
                    "it has left the board".to_string()
                } else {
                    format!(
                        "only the king of the army you move now ({})",
                        self.movable_names()
                    )
                }
            )));
        }
        Ok(Action::ResignKing(choice))
    }

    fn movable_names(&self) -> String {
        self.movable()
            .iter()
            .map(|&a| self.name(a))
            .collect::<Vec<_>>()
            .join(" or ")
    }

    fn not_this_army(&self, army: u8) -> GameError {
        let player = self.player();
        let reason = if self.table.controller(army) == player {
            format!(
                "it is {}'s turn, not {}'s: each army moves on its own turn",
                self.movable_names(),
                self.name(army)
            )
        } else if self.table.team(army) == self.player_teams[player.index()] {
            format!(
                "{} is your partner's army and moves on its own turn; you move {}",
                self.name(army),
                self.movable_names()
            )
        } else {
            format!(
                "{} is not your army; you move {}",
                self.name(army),
                self.movable_names()
            )
        };
        GameError::Refused(reason)
    }

    /// Why a move text matched no move: a partner's army out of turn, a pawn changing course,
    /// a partner's king put in check, or the chess rules' own reason.
    fn explain(&self, text: &str, joins: Option<u8>, error: MoveParseError) -> GameError {
        let movable = self.movable();
        let illegal = |reason: String| {
            GameError::Move(MoveParseError::Illegal {
                text: text.to_string(),
                reason,
            })
        };
        if let Some(j) = joins {
            if self.table.team(j) != self.moving_team(&movable)
                || movable.contains(&j) && movable.len() == 1
            {
                return illegal(format!("a pawn may promote to a piece of its own army or a partner's, and {} is neither", self.name(j)));
            }
        }
        // The chess rules allow it to an army that does not move now, and it cannot be meant
        // for one that does.
        for army in 0..4u8 {
            if movable.contains(&army) || self.table.status(army).is_out() {
                continue;
            }
            if let Ok(m) = self.as_turn_of(army).parse_move(text) {
                if self.table.team(army) == self.moving_team(&movable)
                    && !self.movable_could_mean(&movable, text, m)
                {
                    return self.not_this_army(army);
                }
            }
        }
        for &army in &movable {
            let pos = self.as_turn_of(army);
            if let Some(reason) = course_problem(&pos, army, text) {
                return illegal(reason);
            }
            // Allowed by the chess rules, refused by Superchess's.
            if let Ok(m) = pos.parse_move(text) {
                return illegal(self.why_refused(army, m));
            }
        }
        if let MoveParseError::NoMoves { .. } = error {
            // Only the moves the text asked for were read (a partner's promotion), and there
            // were none: the chess rules' reason for the mover's own pieces says why.
            for &army in &movable {
                match self.as_turn_of(army).parse_move(text) {
                    Err(MoveParseError::NoMoves { .. }) | Ok(_) => {}
                    Err(e) => return GameError::Move(e),
                }
            }
        }
        GameError::Move(error)
    }

    /// Whether a move text another army could make may still be meant for an army moving now:
    /// castling (each player castles his own king), or a move one of its pieces could make
    /// were it not for check.
    fn movable_could_mean(&self, movable: &[u8], text: &str, other: Move) -> bool {
        movable.iter().any(|&army| {
            let pos = self.as_turn_of(army);
            if other.is_castle() {
                return pos.king(Seat(army)).is_some();
            }
            matches!(
                pos.parse_move_among(text, &pos.pseudo_legal_moves()),
                Ok(_) | Err(MoveParseError::Ambiguous { .. })
            )
        })
    }

    /// Why a move the chess rules allow is not allowed here.
    fn why_refused(&self, army: u8, m: Move) -> String {
        let mut after = self.as_turn_of(army);
        after.play_unchecked(m);
        let team = self.table.team(army);
        for k in self.team_kings(team) {
            if k != army && after.seat_in_check(Seat(k)) && !self.position.seat_in_check(Seat(k)) {
                return format!(
                    "it would put your partner's king ({}) in check",
                    self.name(k)
                );
            }
        }
        let movable = self.movable();
        let checked: Vec<&str> = movable
            .iter()
            .copied()
            .filter(|&k| self.must_answer(&movable, k))
            .filter(|&k| self.position.seat_in_check(Seat(k)) && after.seat_in_check(Seat(k)))
            .map(|k| self.name(k))
            .collect();
        if !checked.is_empty() {
            return format!(
                "{}'s king is in check and this does not free it",
                checked.join(" and ")
            );
        }
        "it is not a legal move now".into()
    }

    fn check_turn(&self, seat: Seat) -> Result<(), GameError> {
        if self.outcome.is_some() {
            return Err(GameError::GameOver("the game has ended".into()));
        }
        if self.player() != seat {
            return Err(GameError::NotYourTurn(self.to_move_text()));
        }
        Ok(())
    }

    fn to_move_text(&self) -> String {
        format!("{} to move", self.movable_names())
    }

    // ---- playing -------------------------------------------------------------------------

    /// Plays an action of the player to move, already checked legal.
    pub fn apply(&mut self, action: Action) -> Vec<Event> {
        let mut events = Vec::new();
        let movable = self.movable();
        // A move played: its army, text, places in the move list and the events, and the
        // enemy kings it checks.
        let mut announced: Option<(u8, String, usize, usize, Vec<u8>)> = None;
        match action {
            Action::ResignKing(army) => {
                let credit = self.credit(army);
                self.moves
                    .push(format!("{}: resigns the king", self.name(army)));
                events.extend(self.fall(army, FallKind::Resigned, credit));
            }
            Action::Move(m) => {
                let turn = self.turn_moves();
                let allowed = turn.moves;
                let army = self.army_at(m.from);
                let text = self.write(m, &allowed);
                let captured_king = self
                    .position
                    .piece_at(m.to)
                    .filter(|p| p.role == Role::King && !m.is_castle())
                    .map(|p| p.seat.0);
                let checked_before: Vec<bool> = (0..4u8)
                    .map(|a| self.position.seat_in_check(Seat(a)))
                    .collect();
                self.position.set_turn(Seat(army));
                self.position.play_unchecked(m);
                for &other in &movable {
                    if other != army {
                        self.position.skip_turn(Seat(other));
                    }
                }
                self.last_move = vec![m.from, m.to];
                for a in 0..4u8 {
                    if let Some(k) = self.position.king(Seat(a)) {
                        if self.table.team(a) != self.table.team(army)
                            && self.position.attacked_by(k, Seat(army))
                        {
                            self.checked_by[a as usize] = Some(army);
                        }
                    }
                }
                // The move is announced before what follows from it; whether it checks or
                // mates is written once the turn is played out (below). It checks the enemy
                // kings in check now that were not before, or that its army attacks.
                let judged = !self.settings.capture_king;
                let checks: Vec<u8> = (0..4u8)
                    .filter(|&a| judged && self.table.team(a) != self.table.team(army))
                    .filter(|&a| match self.position.king(Seat(a)) {
                        Some(k) if self.position.seat_in_check(Seat(a)) => {
                            !checked_before[a as usize] || self.position.attacked_by(k, Seat(army))
                        }
                        _ => false,
                    })
                    .collect();
                announced = Some((army, text, self.moves.len(), events.len(), checks));
                self.moves.push(String::new());
                events.push(Event::Public(String::new()));
                if let Some(victim) = captured_king {
                    events.extend(self.fall(victim, FallKind::Captured, Some(army)));
                }
                // Of two kings in check that no move could free together, the one left in
                // check is mated on the same turn.
                for k in turn.left_in_check {
                    if self.outcome.is_none() && self.position.seat_in_check(Seat(k)) {
                        let credit = self.credit(k);
                        events.extend(self.fall(k, FallKind::Mated, credit));
                    }
                }
            }
        }
        for a in movable {
            if self.table.status(a) == ArmyStatus::Stalemated {
                self.table.set_status(a, ArmyStatus::Playing);
            }
        }
        if self.outcome.is_none() {
            self.outcome = self.decided();
        }
        if self.outcome.is_none() {
            self.repetitions.push(self.position.repetition_key());
            self.table.advance(|_, _| true);
            events.extend(self.settle());
        }
        if let Some((army, text, at_move, at_event, checks)) = announced {
            // "#" when a king it checked fell mated before anyone else moved (the mate is
            // judged when the mated army comes to move, so a partner may still break it).
            let mated = checks.iter().any(|&k| {
                matches!(
                    self.fallen[k as usize],
                    Some(Fall {
                        how: FallKind::Mated,
                        ..
                    })
                )
            });
            let mark = match (mated, checks.is_empty()) {
                (true, _) => "#",
                (false, false) => "+",
                (false, true) => "",
            };
            self.moves[at_move] = format!("{}: {text}{mark}", self.name(army));
            events[at_event] = Event::Public(format!("{} played {text}{mark}", self.name(army)));
        }
        if let Some(o) = &self.outcome {
            events.push(Event::GameOver(o.clone()));
        }
        events
    }

    /// The army credited with `victim`'s fall: the one whose move last checked it, if it still
    /// attacks the king, else the first enemy that does.
    fn credit(&self, victim: u8) -> Option<u8> {
        let king = self.position.king(Seat(victim))?;
        let attacks = |a: u8| {
            self.table.team(a) != self.table.team(victim)
                && self.position.attacked_by(king, Seat(a))
        };
        self.checked_by[victim as usize]
            .filter(|&a| attacks(a))
            .or_else(|| (0..4).find(|&a| attacks(a)))
            .or(self.checked_by[victim as usize])
    }

    /// A king leaves the board, and its army goes the way the game's rules say.
    fn fall(&mut self, army: u8, how: FallKind, by: Option<u8>) -> Vec<Event> {
        let mut events = Vec::new();
        if let Some(k) = self.position.king(Seat(army)) {
            self.position.set_piece(k, None);
        }
        self.fallen[army as usize] = Some(Fall { how, by });
        let name = self.name(army);
        let what = match (how, by) {
            (FallKind::Mated, Some(b)) => {
                format!("{name}'s king is checkmated by {}", self.name(b))
            }
            (FallKind::Mated, None) => format!("{name}'s king is checkmated"),
            (FallKind::Resigned, _) => format!("{name} resigns the king"),
            (FallKind::Captured, Some(b)) => {
                format!("{name}'s king is captured by {}", self.name(b))
            }
            (FallKind::Captured, None) => format!("{name}'s king is captured"),
        };
        let rest = match (self.settings.fallen, self.settings.free_for_all, how, by) {
            (Fallen::NewAllegiance, _, FallKind::Mated | FallKind::Captured, Some(b)) => {
                self.change_allegiance(army, b);
                format!("; its pieces now serve {}", self.name(b))
            }
            (Fallen::Removed, _, _, _) | (_, Some(_), _, _) => {
                for cell in self.position.cells_of(Seat(army)).iter() {
                    self.position.set_piece(cell, None);
                }
                self.table.set_status(army, ArmyStatus::Eliminated);
                "; its pieces leave the board".to_string()
            }
            _ => {
                let brothers: Vec<&str> = self
                    .team_kings(self.table.team(army))
                    .into_iter()
                    .map(|a| self.name(a))
                    .collect();
                if brothers.is_empty() || self.position.cells_of(Seat(army)).is_empty() {
                    String::new()
                } else {
                    format!("; its army plays on for {}'s king", brothers.join(" and "))
                }
            }
        };
        events.push(Event::Public(format!("{what}{rest}.")));
        self.outcome = self.decided();
        events
    }

    /// `army` goes over to the side of `to`'s player.
    fn change_allegiance(&mut self, army: u8, to: u8) {
        let team = self.table.team(to);
        let player = self.table.controller(to);
        self.table.set_team(army, team);
        if self.settings.player_turns() {
            self.table.give(army, player);
        } else {
            self.table.set_controller(army, player);
        }
        let mut spec = self.position.rules().spec().clone();
        spec.teams = (0..4).map(|a| self.table.team(a)).collect();
        self.position = self.position.with_rules(spec.build());
    }

    /// Plays out what needs no choice at the start of a turn: a mated king leaves the board
    /// as its player's move, a stalemated or armyless army passes, and the game may end.
    fn settle(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        let mut passes = 0;
        while self.outcome.is_none() {
            let movable = self.movable();
            if movable.is_empty() {
                let army = self.table.current().army;
                if !self.table.status(army).is_out() {
                    self.table.set_status(army, ArmyStatus::Eliminated);
                    events.push(Event::Public(format!(
                        "{} has no pieces left and passes from now on.",
                        self.name(army)
                    )));
                }
            } else {
                let turn = self.turn_moves();
                if !turn.moves.is_empty() {
                    self.position.set_turn(Seat(movable[0]));
                    return events;
                }
                if !turn.left_in_check.is_empty() {
                    // Checkmate: removing the king is the player's move.
                    for k in turn.left_in_check {
                        if self.outcome.is_none() {
                            let credit = self.credit(k);
                            self.moves
                                .push(format!("{}: king checkmated", self.name(k)));
                            events.extend(self.fall(k, FallKind::Mated, credit));
                        }
                    }
                    passes = 0;
                } else {
                    events.extend(self.stalemate(&movable));
                }
            }
            if self.outcome.is_some() {
                break;
            }
            for &a in &movable {
                self.position.skip_turn(Seat(a));
            }
            passes += 1;
            if passes > 8 {
                // Nobody can move at all.
                self.outcome = Some(Outcome::draw(EndReason::Stalemate));
                break;
            }
            self.table.advance(|_, _| true);
        }
        events
    }

    /// The armies moving now have no move and no king in check.
    fn stalemate(&mut self, movable: &[u8]) -> Vec<Event> {
        let names = movable
            .iter()
            .map(|&a| self.name(a))
            .collect::<Vec<_>>()
            .join(" and ");
        if self.settings.players == 2 && !self.settings.quadrant_order {
            self.outcome = Some(Outcome::draw(EndReason::Stalemate));
            return vec![Event::Public(format!(
                "{names} is stalemated: the game is drawn."
            ))];
        }
        for &a in movable {
            self.table.set_status(a, ArmyStatus::Stalemated);
        }
        let team = self.table.team(movable[0]);
        let all = (0..4u8)
            .filter(|&a| self.table.team(a) == team && !self.table.status(a).is_out())
            .filter(|&a| !self.position.cells_of(Seat(a)).is_empty())
            .all(|a| self.table.status(a) == ArmyStatus::Stalemated);
        if all && self.settings.free_for_all.is_none() {
            self.outcome = Some(Outcome::draw(EndReason::Stalemate));
            return vec![Event::Public(format!(
                "{names} is stalemated, and so is every army of its side: the game is drawn."
            ))];
        }
        vec![Event::Public(format!("{names} is stalemated and passes."))]
    }

    /// The result, if the game is decided.
    fn decided(&self) -> Option<Outcome> {
        let reason = |how: FallKind| match how {
            FallKind::Captured => EndReason::KingCaptured,
            FallKind::Resigned => EndReason::Resignation,
            FallKind::Mated => EndReason::Checkmate,
        };
        let last = self
            .fallen
            .iter()
            .flatten()
            .next_back()
            .map_or(EndReason::Checkmate, |f| reason(f.how));
        let players = self.settings.players;
        let players_where = |keep: &dyn Fn(Seat) -> bool| -> Vec<Seat> {
            (0..players).map(Seat).filter(|&p| keep(p)).collect()
        };
        match self.settings.free_for_all {
            Some(FreeForAll::FirstMate) => {
                if let Some(fall) = self
                    .fallen
                    .iter()
                    .flatten()
                    .find(|f| f.how != FallKind::Resigned)
                {
                    if let Some(by) = fall.by {
                        return Some(Outcome::win(
                            vec![self.table.controller(by)],
                            reason(fall.how),
                        ));
                    }
                }
                self.last_player_with_a_king(last)
            }
            Some(FreeForAll::LastKing) => self.last_player_with_a_king(last),
            None => {
                let teams_with_kings: Vec<u8> = {
                    let mut t: Vec<u8> = (0..4)
                        .filter(|&a| self.position.king(Seat(a)).is_some())
                        .map(|a| self.table.team(a))
                        .collect();
                    t.sort_unstable();
                    t.dedup();
                    t
                };
                if self.settings.first_mate_wins {
                    if let Some((army, fall)) = self
                        .fallen
                        .iter()
                        .enumerate()
                        .find_map(|(a, f)| f.map(|f| (a, f)))
                    {
                        let loser = self.settings.teams()[army];
                        let winners = players_where(&|p| self.player_teams[p.index()] != loser);
                        return Some(Outcome::win(winners, reason(fall.how)));
                    }
                }
                match teams_with_kings.as_slice() {
                    [team] => {
                        let winners = players_where(&|p| self.player_teams[p.index()] == *team);
                        Some(Outcome::win(winners, last))
                    }
                    [] => Some(Outcome::draw(last)),
                    _ => self.counting_draws(),
                }
            }
        }
    }

    /// Free for all: the last player with a king wins.
    fn last_player_with_a_king(&self, reason: EndReason) -> Option<Outcome> {
        let mut players: Vec<Seat> = (0..4)
            .filter(|&a| self.position.king(Seat(a)).is_some())
            .map(|a| self.table.controller(a))
            .collect();
        players.sort();
        players.dedup();
        match players.as_slice() {
            [one] => Some(Outcome::win(vec![*one], reason)),
            [] => Some(Outcome::draw(reason)),
            _ => self.counting_draws(),
        }
    }

    /// Fifty moves of every army without a capture or pawn move, a threefold repetition, or
    /// no side able to mate.
    fn counting_draws(&self) -> Option<Outcome> {
        let per_round = self.table.upcoming().count() as u32;
        let counted = counting_draws_by(
            self.position.halfmoves(),
            50 * per_round.max(2),
            self.position.repetition_key(),
            &self.repetitions,
        );
        if counted.is_some() {
            return counted;
        }
        let can_mate = |team: u8| {
            let mut minors = 0;
            for (_, p) in self.position.pieces() {
                if self.table.team(p.seat.0) != team {
                    continue;
                }
                match p.role {
                    Role::Pawn | Role::Rook | Role::Queen => return true,
                    Role::Knight | Role::Bishop => minors += 1,
                    Role::King => {}
                }
            }
            minors >= 2
        };
        let any = (0..4u8)
            .filter(|&a| self.position.king(Seat(a)).is_some())
            .any(|a| {
                // A side with a king can be mated only by another side with material.
                (0..4u8)
                    .filter(|&b| self.table.team(b) != self.table.team(a))
                    .any(|b| can_mate(self.table.team(b)))
            });
        (!any).then(|| Outcome::draw(EndReason::InsufficientMaterial))
    }

    // ---- views ---------------------------------------------------------------------------

    fn prompts(&self) -> Vec<Prompt> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let movable = self.movable();
        let checked: Vec<&str> = movable
            .iter()
            .filter(|&&a| self.position.seat_in_check(Seat(a)))
            .map(|&a| self.name(a))
            .collect();
        let mut text = self.to_move_text();
        if !checked.is_empty() {
            text.push_str(&format!(" ({} in check)", checked.join(" and ")));
        }
        vec![Prompt {
            seat: self.player(),
            kind: PromptKind::Move,
            text,
        }]
    }

    fn lines(&self) -> Vec<SeatLine> {
        (0..4u8)
            .filter(|&a| self.settings.present().contains(&a))
            .map(|a| {
                let status = match (self.fallen[a as usize], self.table.status(a)) {
                    (_, ArmyStatus::Eliminated) if self.position.cells_of(Seat(a)).is_empty() => {
                        Some("off the board".to_string())
                    }
                    (Some(f), _) => Some(match f.how {
                        FallKind::Mated => "king checkmated".to_string(),
                        FallKind::Resigned => "king resigned".to_string(),
                        FallKind::Captured => "king captured".to_string(),
                    }),
                    (None, ArmyStatus::Stalemated) => Some("stalemated: passes".into()),
                    _ => None,
                };
                SeatLine {
                    player: self.table.controller(a),
                    army: Seat(a),
                    side: self.name(a).to_string(),
                    status,
                }
            })
            .collect()
    }

    fn view(&self, variant: &'static str, viewer: Viewer) -> View {
        let pos = &self.position;
        let checks: Vec<Cell> = (0..4u8)
            .filter(|&a| pos.seat_in_check(Seat(a)))
            .filter_map(|a| pos.king(Seat(a)))
            .collect();
        let status = match &self.outcome {
            Some(o) => o.describe(|s| self.seat_name(s)),
            None => self.to_move_text(),
        };
        let bottom = match viewer {
            Viewer::Seat(s) => (0..4u8)
                .find(|&a| self.table.controller(a) == s && self.settings.present().contains(&a))
                .unwrap_or(0),
            Viewer::Spectator => 0,
        };
        View {
            variant,
            board: pos.rules().board_arc().clone(),
            viewer,
            bottom: Seat(bottom),
            figures: pos
                .pieces()
                .map(|(cell, piece)| Placed::new(cell, piece.seat, Figure::Chess(piece.role)))
                .collect(),
            last_move: self.last_move.clone(),
            checks,
            to_act: if self.outcome.is_some() {
                Vec::new()
            } else {
                vec![self.player()]
            },
            players: (0..self.settings.players)
                .map(|p| self.seat_name(Seat(p)))
                .collect(),
            move_number: self.table.rounds() + 1,
            status,
            panel: None,
            square_names: Vec::new(),
            table: self.lines(),
            colours: vec![0, 1, TAN, BROWN],
            labels: Vec::new(),
            tinted: Vec::new(),
            cards: Vec::new(),
        }
    }

    /// A player's name in messages: his armies ("White and Tan").
    fn seat_name(&self, seat: Seat) -> String {
        let present = self.settings.present();
        let names: Vec<&str> = (0..4u8)
            .filter(|&a| {
                present.contains(&a) && self.settings.players_of_armies()[a as usize] == seat.0
            })
            .map(|a| self.name(a))
            .collect();
        if names.is_empty() {
            seat.colour_name()
        } else {
            names.join(" and ")
        }
    }

    fn concede(&self, seat: Seat, reason: EndReason) -> Outcome {
        let team = self.player_teams.get(seat.index()).copied().unwrap_or(0);
        let others: Vec<Seat> = (0..self.settings.players)
            .map(Seat)
            .filter(|p| self.player_teams[p.index()] != team)
            .collect();
        Outcome::win(others, reason)
    }

    fn leave(&mut self, seat: Seat, reason: EndReason) -> Result<Vec<Event>, GameError> {
        if self.settings.free_for_all.is_none() {
            return Ok(vec![Event::GameOver(self.concede(seat, reason))]);
        }
        let armies: Vec<u8> = (0..4u8)
            .filter(|&a| self.table.controller(a) == seat && !self.table.status(a).is_out())
            .collect();
        if armies.is_empty() {
            return Err(GameError::Refused(
                "you are already out of this game".into(),
            ));
        }
        let mut events = Vec::new();
        let current = self.table.current().army;
        for a in armies {
            for cell in self.position.cells_of(Seat(a)).iter() {
                self.position.set_piece(cell, None);
            }
            self.table.set_status(a, ArmyStatus::Eliminated);
            if self.fallen[a as usize].is_none() {
                self.fallen[a as usize] = Some(Fall {
                    how: FallKind::Resigned,
                    by: None,
                });
            }
            events.push(Event::Public(format!(
                "{} is out ({}); its pieces leave the board.",
                self.name(a),
                reason.describe()
            )));
        }
        self.outcome = self.last_player_with_a_king(reason);
        if self.outcome.is_none() && self.table.status(current).is_out() {
            self.table.advance(|_, _| true);
            events.extend(self.settle());
        }
        if let Some(o) = &self.outcome {
            events.push(Event::GameOver(o.clone()));
        }
        Ok(events)
    }

    fn is_out(&self, seat: Seat) -> bool {
        let armies: Vec<u8> = (0..4u8)
            .filter(|&a| self.table.controller(a) == seat)
            .collect();
        self.settings.free_for_all.is_some()
            && armies
                .iter()
                .all(|&a| self.position.king(Seat(a)).is_none())
    }

    fn waiting_reason(&self, seat: Seat) -> Option<String> {
        if self.outcome.is_some() || self.player() == seat {
            return None;
        }
        if self.is_out(seat) {
            return Some(format!(
                "your king has left the board; {}",
                self.to_move_text()
            ));
        }
        None
    }

    // ---- perft ---------------------------------------------------------------------------

    /// Perft through the game's own turns (mates and passes played out as they come).
    pub fn perft(&self, depth: u32) -> u64 {
        if self.outcome.is_some() {
            return u64::from(depth == 0);
        }
        let moves = self.legal_moves();
        match depth {
            0 => 1,
            1 => moves.len() as u64,
            _ => moves
                .into_iter()
                .map(|m| self.after(m).perft(depth - 1))
                .sum(),
        }
    }

    /// Perft split by the first move.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        if depth == 0 || self.outcome.is_some() {
            return Vec::new();
        }
        let moves = self.legal_moves();
        moves
            .iter()
            .map(|&m| (self.write(m, &moves), self.after(m).perft(depth - 1)))
            .collect()
    }

    fn after(&self, m: Move) -> SuperchessGame {
        let mut child = self.clone();
        child.moves.clear();
        child.apply(Action::Move(m));
        child
    }
}

/// A pawn of `army` named by its square (`f10-e10`, `f10e10`) sent off its course: back, or
/// the other way than its first move took it.
fn course_problem(pos: &Position, army: u8, text: &str) -> Option<String> {
    use crate::board::Heading;
    use crate::chess::Course;
    let board = pos.board();
    let lower = text.to_ascii_lowercase();
    let chars: Vec<char> = lower.chars().collect();
    // The squares the text names, in order.
    let mut squares = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let found = (2..=3).rev().find_map(|len| {
            let word: String = chars.get(i..i + len)?.iter().collect();
            let next_is_digit = chars.get(i + len).is_some_and(|c| c.is_ascii_digit());
            (!next_is_digit)
                .then(|| board.cell(&word))
                .flatten()
                .map(|c| (c, len))
        });
        match found {
            Some((cell, len)) => {
                squares.push(cell);
                i += len;
            }
            None => i += 1,
        }
    }
    let [from, to] = squares[..] else {
        return None;
    };
    let course = pos.pawn_course(from)?;
    if pos.piece_at(from)?.seat != Seat(army) {
        return None;
    }
    let frame = board.frame(army as usize);
    let heading = Heading::ALL.into_iter().find(|&h| {
        let d = frame.dir(h);
        let one = board.step(from, d);
        one == Some(to) || one.and_then(|c| board.step(c, d)) == Some(to)
    })?;
    let forward = [
        Heading::Forward,
        Heading::ForwardLeft,
        Heading::ForwardRight,
    ];
    let side = [Heading::Right, Heading::ForwardRight, Heading::BackRight];
    let allowed = match course {
        Course::Forward => forward.contains(&heading),
        Course::Side => side.contains(&heading),
        Course::Either => forward.contains(&heading) || side.contains(&heading),
    };
    if allowed {
        return None;
    }
    let toward = |offset: u8| NAMES[((army + offset) % 4) as usize];
    Some(match course {
        Course::Either => format!(
            "the point pawn on {} may go toward {} or {}, never back",
            board.label(from),
            toward(1),
            toward(3)
        ),
        Course::Forward | Course::Side => format!(
            "the pawn on {} goes toward {}, the course it took from the start: pawns never turn back or change course",
            board.label(from),
            toward(if course == Course::Forward { 1 } else { 3 })
        ),
    })
}

/// A partner's promotion read as one's own, for the chess notation.
fn plain(m: Move) -> Move {
    match m.kind {
        MoveKind::PromotionFor(r, _) => Move {
            kind: MoveKind::Promotion(r),
            ..m
        },
        _ => m,
    }
}

// ---- the game ------------------------------------------------------------------------------

static INFO: std::sync::LazyLock<VariantInfo> = std::sync::LazyLock::new(|| {
    let on_off = OptionValues::Choice(&["off", "on"]);
    VariantInfo {
        id: "superchess",
        aliases: &["super-chess", "jacobson"],
        name: "Superchess",
        family: Family::Chess,
        seat_counts: &[2, 3, 4],
        options: vec![
            OptionSpec {
                key: "first-mate-wins",
                help: "on: the first side to checkmate a king wins",
                default: Some("off"),
                values: on_off.clone(),
            },
            OptionSpec {
                key: "free-for-all",
                help: "3 or 4 players each for himself: first-mate (the first to mate wins) or last-king (the last king on the board wins)",
                default: Some("off"),
                values: OptionValues::Choice(&["off", "first-mate", "last-king"]),
            },
            OptionSpec {
                key: "piece-removal",
                help: "on: a mated king's whole army leaves the board",
                default: Some("off"),
                values: on_off.clone(),
            },
            OptionSpec {
                key: "new-allegiance",
                help: "on: a mated king's army goes over to the mater",
                default: Some("off"),
                values: on_off.clone(),
            },
            OptionSpec {
                key: "capture-king",
                help: "on: kings are captured, not checkmated; check is not judged",
                default: Some("off"),
                values: on_off,
            },
            OptionSpec {
                key: "turns",
                help: "two people: alternate (light, dark; move either of your armies) or quadrant (White, Black, Tan, Brown, one army a turn)",
                default: Some("alternate"),
                values: OptionValues::Choice(&["alternate", "quadrant"]),
            },
            OptionSpec {
                key: "armies",
                help: "two people: 4 (the whole game) or 2 (White against one army on the big board)",
                default: Some("4"),
                values: OptionValues::Choice(&["4", "2"]),
            },
            OptionSpec {
                key: "against",
                help: "with armies=2: White against west (Black) or north (Tan)",
                default: Some("west"),
                values: OptionValues::Choice(&["west", "north"]),
            },
            OptionSpec {
                key: "partner-moves",
                help: "four people: never, always (move your partner's pieces or your own on your turn) or after-first-mate",
                default: Some("never"),
                values: OptionValues::Choice(&["never", "always", "after-first-mate"]),
            },
        ],
        hidden_information: false,
        simultaneous: false,
        rules: RULES,
        source: "Rolf W. Jacobson, Superchess: The Official Rules and Game Description (1989, 1992)",
    }
});

const RULES: &str = "\
Four armies on a 14x14 board (the book's diamond drawn as a grid, files a-n, ranks 1-14): the \
centre f6-i9 and the outer eight squares of each 3x3 corner are walls. Sliders stop at walls; \
knights jump over their corners. White (the book's south) stands in a10-e14, Black (west) in \
j10-n14, Tan (north) in j1-n5, Brown (east) in a1-e5; they move in that order, White and Tan \
against Black and Brown. Only the preferred array is offered: the alternative arrays 1-7 and \
Superchess II are lost from our copy of the book.\n\
Pieces move as in chess. Pawns go toward the army opposite their row (White's e-file pawns \
east, its tenth-rank pawns south); the point pawn at the centre's corner (e10, j10, j5, e5) \
takes either course with its first move and keeps it. One or two squares on a pawn's first \
move; en passant as in chess, by a pawn beside the one that stepped (\"an opponent's pawn \
situated on an adjoining square of an adjacent file\"), for each enemy on its next turn. A pawn \
promotes at the end of its line, or when a capture takes it into the frontier beyond the enemy \
it faces, to any piece but a king, also a partner's (write e14=Q(Tan)). Castling swaps king \
and rook of one quadrant, \
whatever stands between, if neither has moved, the king is not in check and does not land in \
check (O-O is the rook on the king's right as its army faces).\n\
You may not put your own or your partner's king in check; you need not answer a check to your \
partner. A mated king leaves the board as its player's move (done for you when the turn comes: \
a partner may still break the mate first); its army plays on for the brother king. Resigning a \
king (/move resign) is a move too. The first side to mate (or force the resignation of) both \
opposing kings wins.\n\
Two people (players=2): each moves either of his armies on his turn, light then dark. With \
both kings in check and no move freeing both, you free one and the other is mated on the same \
turn. Three (players=3): player 1 holds White and Tan against two partners, one army a turn. \
Four: one army each, partners opposite.\n\
Stalemate draws the two-person game; with three or four, a stalemated or armyless army passes, \
and the game is drawn when every army of a side is stalemated. Draws also when no side can \
mate (our reading: no side has a pawn, rook, queen or two minor pieces), by fifty moves of \
every army without a capture or pawn move, and by threefold repetition.\n\
Variations: first-mate-wins=on; free-for-all=first-mate|last-king (3 or 4 players each for \
himself; a fallen king's pieces leave the board, our reading; three play White, Black and Tan); \
piece-removal=on (a mated army leaves the board); new-allegiance=on (a mated army goes over to \
the mater; a resigned one does not, our reading); capture-king=on (kings are captured; check \
is not judged at all, our reading); turns=quadrant (two people, one army a turn: an army with \
no move passes, and a player with none at all is stalemated, our reading); armies=2 with \
against=west|north (White against one army on the big board); partner-moves=always|\
after-first-mate (four people may move their partner's pieces too; a partner's check still need \
not be answered, and a mated king still leaves the board on its own player's turn).\n\
Our readings: a mate is judged when the mated army comes to move, and credited to the army \
whose move last checked that king.";

impl Game for Superchess {
    type State = SuperchessGame;
    type Action = Action;

    fn info(&self) -> &VariantInfo {
        &INFO
    }

    fn setup(
        &self,
        options: &Options,
        seats: usize,
        seed: u64,
    ) -> Result<SuperchessGame, GameError> {
        Ok(SuperchessGame::new(Settings::read(options, seats)?, seed))
    }

    fn prompts(&self, state: &SuperchessGame) -> Vec<Prompt> {
        state.prompts()
    }

    fn legal(&self, state: &SuperchessGame, seat: Seat) -> Vec<Action> {
        if state.outcome.is_some() || state.player() != seat {
            return Vec::new();
        }
        let mut actions: Vec<Action> = state.legal_moves().into_iter().map(Action::Move).collect();
        actions.extend(state.resignable().into_iter().map(Action::ResignKing));
        actions
    }

    fn action_text(&self, state: &SuperchessGame, action: &Action) -> String {
        state.action_text(*action, &state.legal_moves())
    }

    fn legal_texts(&self, state: &SuperchessGame, seat: Seat) -> Vec<String> {
        let moves = state.legal_moves();
        Game::legal(self, state, seat)
            .into_iter()
            .map(|a| state.action_text(a, &moves))
            .collect()
    }

    fn parse(&self, state: &SuperchessGame, seat: Seat, text: &str) -> Result<Action, GameError> {
        state.parse(seat, text)
    }

    fn apply(
        &self,
        state: &mut SuperchessGame,
        seat: Seat,
        action: Action,
    ) -> Result<Vec<Event>, GameError> {
        state.check_turn(seat)?;
        let allowed = match action {
            Action::Move(m) => state.legal_moves().contains(&m),
            Action::ResignKing(a) => state.resignable().contains(&a),
        };
        if !allowed {
            return Err(GameError::Refused("that is not a legal move now".into()));
        }
        Ok(state.apply(action))
    }

    fn view(&self, state: &SuperchessGame, viewer: Viewer) -> View {
        state.view(self.info().id, viewer)
    }

    fn outcome(&self, state: &SuperchessGame) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn seat_name(&self, state: &SuperchessGame, seat: Seat) -> String {
        state.seat_name(seat)
    }

    fn concede(
        &self,
        state: &SuperchessGame,
        seat: Seat,
        _seats: usize,
        reason: EndReason,
    ) -> Outcome {
        state.concede(seat, reason)
    }

    fn leave(
        &self,
        state: &mut SuperchessGame,
        seat: Seat,
        _seats: usize,
        reason: EndReason,
    ) -> Result<Vec<Event>, GameError> {
        state.leave(seat, reason)
    }

    fn is_out(&self, state: &SuperchessGame, seat: Seat) -> bool {
        state.is_out(seat)
    }

    fn waiting_reason(&self, state: &SuperchessGame, seat: Seat) -> Option<String> {
        state.waiting_reason(seat)
    }

    fn perft(&self, state: &SuperchessGame, depth: u32) -> Option<u64> {
        Some(state.perft(depth))
    }

    fn divide(&self, state: &SuperchessGame, depth: u32) -> Option<Vec<(String, u64)>> {
        Some(state.divide(depth))
    }
}
