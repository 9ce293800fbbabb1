//! Zombie Chess (Chess Kit, "Zombie Chess").
//!
//! - Chess, until a capture: the capturer secretly buries the captured piece under one of their
//!   own pieces, at most one under each ("I cannot bury this piece" when every piece already
//!   has one: it goes to the dust bin).
//! - At the end of the turn, each square a moved piece left is checked: a piece its mover
//!   buried there rises as a zombie (the opponent's piece, marked with a coin); if the mover
//!   buried nothing there they say "no zombie" and the square, or "no zombies anywhere" when
//!   they have nothing buried. A piece the *opponent* buried there (under a piece of theirs
//!   that the mover since captured) rises as the mover's own zombie. Only then are the turn's
//!   captures buried ("First, they check for zombies. ... Then, they choose where to bury").
//! - Zombies move like their kind. All of a player's zombies may move on their turn, each once,
//!   besides the ordinary move; those not moved are destroyed at the end of the turn.
//! - A move that would expose the mover's king by revealing a zombie is illegal. Castling is
//!   completed before any reveal. A pawn rising on its last row is promoted.
//! - The goal is checkmate.
//! - Check at the end of the turn: the book forbids revealing a zombie that would check your
//!   own king although the zombie rises only when the turn ends, so what is judged is the board
//!   the turn leaves. The unmoved zombies crumble at that same moment, and under "all the
//!   normal rules of Chess" a turn may no more end with the mover's king in check through a
//!   crumbling zombie than through a rising one. A move is legal only if the turn can still end
//!   with the king safe (at once, or after some of the zombie moves still allowed); "done" only
//!   if it is safe now. An opponent's pawn risen on its last row counts, until promoted, as
//!   any piece its owner may make of it, since "they can immediately be promoted when they
//!   come back".
//! - Reconstructed where the book is silent: a turn is one ordinary move plus each zombie's
//!   move in any order, ended with "done" (or by itself when nothing is left to move); a
//!   square that a piece of the turn took again keeps its buried piece, now under the newcomer;
//!   a zombie that rises for the mover (see above) is not destroyed in that turn and first
//!   moves on their next; a captured zombie is buried again like any piece; a risen pawn on
//!   its last row is promoted by its owner before their next move; en passant is possible only
//!   when the double step ended the turn. Since a turn holds several moves, a zombie can take a
//!   king its side's ordinary move has just checked: taking the king wins.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::board::Cell;
use crate::chess::{Move, MoveKind, MoveParseError, Piece, Position, Role, Seat};
use crate::game::{
    EndReason, Event, Family, Game, GameError, Options, Outcome, Prompt, PromptKind, VariantInfo,
};
use crate::view::{Marker, Panel, View, Viewer};

use super::chess::{board_view, counting_draws, stored_position};

/// Zombie Chess.
pub struct Zombie;

/// What a player does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// A move of an ordinary piece or a zombie.
    Move(Move),
    /// Bury the captured piece under one's own piece on this cell (secret).
    Bury(Cell),
    /// Promote a risen pawn.
    Promote(Role),
    /// End the turn (unmoved zombies are destroyed).
    Done,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Phase {
    /// The player to move moves pieces.
    Move,
    /// The turn's moves are over; the player to move must bury what they captured.
    Bury { captured: Role },
    /// The player to move promotes a pawn that rose on its last row.
    Promote { cell: Cell },
}

/// The state of a game of Zombie Chess.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ZombieState {
    #[serde(with = "stored_position")]
    position: Position,
    phase: Phase,
    /// `burials[s]`: where seat `s` has buried the opponent's pieces (cell, buried role).
    burials: [Vec<(Cell, Role)>; 2],
    /// Cells holding zombies (owned by the piece standing there).
    zombies: Vec<Cell>,
    /// Cells (where they now stand) of pieces that moved this turn.
    moved: Vec<Cell>,
    /// Squares the moved pieces left this turn: checked for zombies when the turn ends.
    #[serde(default)]
    left: Vec<Cell>,
    /// Pieces captured this turn and not yet buried: they are buried when the turn ends.
    #[serde(default)]
    captures: Vec<Piece>,
    /// Whether the ordinary (non-zombie) move of this turn is made.
    ordinary_done: bool,
    /// Whether a capture or pawn move happened this turn (fifty-move rule).
    progress_this_turn: bool,
    /// Pawns that rose on their last row, waiting for their owner to promote them.
    pending_promotions: Vec<Cell>,
    /// Destroyed pieces, by owner.
    dust: [Vec<Role>; 2],
    repetitions: Vec<u64>,
    last_move: Vec<Cell>,
    /// Every burial, in order, told when the game ends.
    secret_log: Vec<String>,
}

/// The squares a check on `seat`'s king runs over: the king's, each checking piece's and those
/// between them (none if the king is not in check).
fn check_lines(board: &Position, seat: Seat) -> Vec<Cell> {
    let Some(king) = board.king(seat).filter(|_| board.seat_in_check(seat)) else {
        return Vec::new();
    };
    let mut lines = vec![king];
    for (cell, piece) in board.attackers(king, seat.opponent()) {
        lines.push(cell);
        if matches!(piece.role, Role::Bishop | Role::Rook | Role::Queen) {
            let reach = board.reach(cell, piece.role, piece.seat);
            let from_king = board.reach(king, piece.role, seat);
            lines.extend(reach.into_iter().filter(|c| from_king.contains(c)));
        }
    }
    lines
}

fn describe(seat: Seat, role: Role) -> String {
    format!("{} {}", seat.colour_name().to_lowercase(), role.name())
}

impl ZombieState {
    fn new(position: Position) -> ZombieState {
        ZombieState {
            repetitions: vec![position.repetition_key()],
            position,
            phase: Phase::Move,
            burials: [Vec::new(), Vec::new()],
            zombies: Vec::new(),
            moved: Vec::new(),
            left: Vec::new(),
            captures: Vec::new(),
            ordinary_done: false,
            progress_this_turn: false,
            pending_promotions: Vec::new(),
            dust: [Vec::new(), Vec::new()],
            last_move: Vec::new(),
            secret_log: Vec::new(),
        }
    }

    fn label(&self, cell: Cell) -> String {
        self.position.board().label(cell).to_string()
    }

    fn buried_by(&self, seat: Seat, cell: Cell) -> Option<Role> {
        self.burials[seat.index()]
            .iter()
            .find(|(c, _)| *c == cell)
            .map(|(_, r)| *r)
    }

    /// The cells a move leaves empty (castling completes first: a square the king or rook
    /// lands on is not left).
    fn vacated(&self, m: Move) -> Vec<Cell> {
        let moves = self.position.displacements(m);
        moves
            .iter()
            .map(|d| d.0)
            .filter(|from| !moves.iter().any(|d| d.1 == *from))
            .collect()
    }

    /// The chess moves of the pieces that may still move this turn: each piece once, and
    /// besides the zombies only one ordinary piece.
    fn candidate_moves(&self) -> Vec<Move> {
        self.position
            .legal_moves()
            .into_iter()
            .filter(|m| !self.moved.contains(&m.from))
            .filter(|m| self.zombies.contains(&m.from) || !self.ordinary_done)
            .collect()
    }

    /// The moves the player to move may make now: those after which the turn can still end
    /// with their king out of check.
    fn move_options(&self) -> Vec<Move> {
        if self.phase != Phase::Move {
            return Vec::new();
        }
        self.candidate_moves()
            .into_iter()
            .filter(|m| self.after(*m).can_end_safely())
            .collect()
    }

    /// This turn as it would stand after one more move (a sketch: see `sketch`).
    fn after(&self, m: Move) -> ZombieState {
        let mut next = self.sketch();
        next.advance(m);
        next
    }

    /// A copy to try moves and turn ends on: the board and the turn so far, without the
    /// history that trying moves neither reads nor needs (repetitions, secrets, the dust bin),
    /// and without the opponent's burials: what the mover may do must not give away the
    /// opponent's secret. A piece rising from the opponent's grid is the mover's own and can
    /// only make the real end of the turn safer, so a turn judged safe without it is safe.
    fn sketch(&self) -> ZombieState {
        let mut burials = self.burials.clone();
        burials[self.position.turn().opponent().index()].clear();
        ZombieState {
            position: self.position.clone(),
            phase: self.phase.clone(),
            burials,
            zombies: self.zombies.clone(),
            moved: self.moved.clone(),
            left: self.left.clone(),
            captures: Vec::new(),
            ordinary_done: self.ordinary_done,
            progress_this_turn: self.progress_this_turn,
            pending_promotions: self.pending_promotions.clone(),
            dust: [Vec::new(), Vec::new()],
            repetitions: Vec::new(),
            last_move: Vec::new(),
            secret_log: Vec::new(),
        }
    }

    /// Whether the turn can end with the mover's king out of check: now, or after some of the
    /// moves still allowed. Only a move onto or off one of the squares the check runs over can
    /// lift it (nothing else changes what stands there when the turn ends), so only those are
    /// tried: a way out that first needs another piece to make room is not looked for, and the
    /// move that would need it is refused. Whatever is found is a real way to end the turn.
    fn can_end_safely(&self) -> bool {
        let Some(lines) = self.check_at_end() else {
            return true;
        };
        self.candidate_moves()
            .into_iter()
            .filter(|m| self.touched(*m).iter().any(|c| lines.contains(c)))
            .any(|m| self.after(m).can_end_safely())
    }

    /// The squares a move empties or fills (an en passant capture empties a third).
    fn touched(&self, m: Move) -> Vec<Cell> {
        let mut cells: Vec<Cell> = self
            .position
            .displacements(m)
            .iter()
            .flat_map(|d| [d.0, d.1])
            .collect();
        cells.extend(self.captured_at(m));
        cells
    }

    /// Where the piece a move takes stands, if it takes one.
    fn captured_at(&self, m: Move) -> Option<Cell> {
        let us = self.position.turn();
        match m.kind {
            MoveKind::EnPassant => {
                let (file, _) = self.position.board().coord(m.to);
                let (_, rank) = self.position.board().coord(m.from);
                self.position.board().at(file as i32, rank as i32)
            }
            MoveKind::Castle => None,
            _ => Some(m.to).filter(|c| self.position.piece_at(*c).is_some_and(|p| p.seat != us)),
        }
    }

    /// Whether ending the turn now leaves the mover's king out of check.
    fn ends_safely(&self) -> bool {
        self.check_at_end().is_none()
    }

    /// Whether ending the turn now would change the board: a zombie rising or crumbling, or an
    /// opponent's pawn waiting to be promoted.
    fn end_changes_board(&self) -> bool {
        let us = self.position.turn();
        // Only the mover's own burials count: the opponent's are his secret (see `sketch`).
        let rises = self
            .left
            .iter()
            .any(|v| self.position.piece_at(*v).is_none() && self.buried_by(us, *v).is_some());
        let promotes = self.pending_promotions.iter().any(|c| {
            self.position
                .piece_at(*c)
                .is_some_and(|p| p.seat != us && p.role == Role::Pawn)
        });
        rises || promotes || self.own_zombies(us).iter().any(|z| !self.moved.contains(z))
    }

    /// The boards the turn would end on now: zombies risen and, with `crumbling`, the unmoved
    /// ones crumbled; then the same once more for each piece an opponent's pawn risen on its
    /// last row could become, since "they can immediately be promoted when they come back" (a
    /// queen checks wherever a rook or bishop would).
    fn end_boards(&self, crumbling: bool) -> Vec<Position> {
        let us = self.position.turn();
        let mut end = self.sketch();
        let (_, risen) = end.raise_zombies();
        if crumbling {
            end.crumble(&risen);
        }
        let mut boards = vec![end.position.clone()];
        for &c in &end.pending_promotions {
            let Some(pawn) = end
                .position
                .piece_at(c)
                .filter(|p| p.seat != us && p.role == Role::Pawn)
            else {
                continue;
            };
            for role in [Role::Queen, Role::Knight] {
                let mut promoted = end.position.clone();
                promoted.set_piece(c, Some(Piece { role, ..pawn }));
                boards.push(promoted);
            }
        }
        boards
    }

    /// If ending the turn now would leave the mover's king in check, the squares that check
    /// runs over: the king's, each checking piece's and those between them.
    fn check_at_end(&self) -> Option<Vec<Cell>> {
        let us = self.position.turn();
        let lines: Vec<Cell> = if self.end_changes_board() {
            self.end_boards(true)
                .iter()
                .flat_map(|b| check_lines(b, us))
                .collect()
        } else {
            check_lines(&self.position, us)
        };
        (!lines.is_empty()).then_some(lines)
    }

    /// "done" ends the turn once the ordinary move is made (or none is possible), and only
    /// with the king safe.
    fn may_end_turn(&self) -> bool {
        self.phase == Phase::Move
            && self.ends_safely()
            && (self.ordinary_done
                || !self
                    .move_options()
                    .iter()
                    .any(|m| !self.zombies.contains(&m.from)))
    }

    fn own_zombies(&self, seat: Seat) -> Vec<Cell> {
        self.zombies
            .iter()
            .copied()
            .filter(|c| self.position.piece_at(*c).is_some_and(|p| p.seat == seat))
            .collect()
    }

    /// Plays `m` as one move of the turn: the board, the zombies, what has moved and which
    /// squares were left. Returns the piece it took.
    fn advance(&mut self, m: Move) -> Option<Piece> {
        let us = self.position.turn();
        let (half, full) = (self.position.halfmoves(), self.position.fullmoves());
        let captured_at = self.captured_at(m);
        let captured = captured_at.and_then(|c| self.position.piece_at(c));
        let mover_was_zombie = self.zombies.contains(&m.from);
        let vacated = self.vacated(m);
        let landed: Vec<Cell> = self.position.displacements(m).iter().map(|d| d.1).collect();
        self.position.play_unchecked(m);
        // A turn may hold several moves: the turn's end keeps the counters, not each move.
        self.position.set_turn(us);
        self.position.set_counters(half, full);
        if let Some(c) = captured_at {
            self.zombies.retain(|z| *z != c);
            self.pending_promotions.retain(|z| *z != c);
        }
        if mover_was_zombie {
            self.zombies.retain(|z| *z != m.from);
            self.zombies.push(m.to);
        } else {
            self.ordinary_done = true;
        }
        self.moved.extend(landed);
        self.left.extend(vacated);
        captured
    }

    /// Plays a move of the player to move; returns what is said aloud. What it uncovers rises
    /// and what it took is buried only when the turn ends.
    fn play_move(&mut self, m: Move) -> Vec<String> {
        let us = self.position.turn();
        let before = self.position.clone();
        let san = before.san_plain(m);
        let number = before.fullmoves();
        let mover_was_zombie = self.zombies.contains(&m.from);
        let pawn = before
            .piece_at(m.from)
            .is_some_and(|p| p.role == Role::Pawn);
        let vacated = self.vacated(m);
        let captured = self.advance(m);
        if captured.is_some() || pawn {
            self.progress_this_turn = true;
        }
        self.last_move = vacated
            .into_iter()
            .chain(before.displacements(m).iter().map(|d| d.1))
            .collect();
        self.captures.extend(captured);
        // Whether it is mate is known only when the turn ends (zombies may still move):
        // `apply` makes the check sign `#` then.
        let check = if self.position.seat_in_check(us.opponent()) {
            "+"
        } else {
            ""
        };
        let dots = if us == Seat::WHITE { "." } else { "..." };
        let who = if mover_was_zombie { " (zombie)" } else { "" };
        vec![format!(
            "{} played {number}{dots} {san}{check}{who}.",
            us.colour_name()
        )]
    }

    /// The check of a vacated square: a buried piece rises, or "no zombie" is said. Returns
    /// what is said and the square if something rose.
    fn reveal(&mut self, mover: Seat, v: Cell) -> (String, Option<Cell>) {
        let rising = match self.buried_by(mover, v) {
            Some(role) => Some((
                mover,
                Piece {
                    seat: mover.opponent(),
                    role,
                },
            )),
            None => self
                .buried_by(mover.opponent(), v)
                .map(|role| (mover.opponent(), Piece { seat: mover, role })),
        };
        let Some((burier, piece)) = rising else {
            let said = if self.burials[mover.index()].is_empty() {
                format!("{}: no zombies anywhere.", mover.colour_name())
            } else {
                format!("{}: no zombie on {}.", mover.colour_name(), self.label(v))
            };
            return (said, None);
        };
        self.burials[burier.index()].retain(|(c, _)| *c != v);
        self.position.set_piece(v, Some(piece));
        self.zombies.push(v);
        if piece.role == Role::Pawn
            && self
                .position
                .rules()
                .promotion_zone(piece.seat.index())
                .contains(v)
        {
            self.pending_promotions.push(v);
        }
        let said = format!(
            "A {} rises from the grave on {}!",
            describe(piece.seat, piece.role),
            self.label(v)
        );
        (said, Some(v))
    }

    /// "At the end of your turn, check to see whether there was a piece buried under the piece
    /// you moved": every square the turn left is checked. Returns what is said and where
    /// zombies rose.
    fn raise_zombies(&mut self) -> (Vec<String>, Vec<Cell>) {
        let us = self.position.turn();
        let mut said = Vec::new();
        let mut risen = Vec::new();
        for v in std::mem::take(&mut self.left) {
            // Taken again by another piece of the turn, the square was not left: what lies
            // there stays buried, under the newcomer.
            if self.position.piece_at(v).is_some() {
                continue;
            }
            let (line, rose) = self.reveal(us, v);
            // "No zombies anywhere" is said once a turn, however many squares were left.
            if !said.contains(&line) {
                said.push(line);
            }
            risen.extend(rose);
        }
        (said, risen)
    }

    /// "Also at the end of your turn, check if you have any zombie pieces that you didn't
    /// move": they go to the dust bin. One that has just risen (`spared`) has had no turn to
    /// move yet.
    fn crumble(&mut self, spared: &[Cell]) -> Vec<String> {
        let us = self.position.turn();
        let mut said = Vec::new();
        for z in self.own_zombies(us) {
            if self.moved.contains(&z) || spared.contains(&z) {
                continue;
            }
            let piece = self.position.piece_at(z).expect("a zombie stands there");
            self.position.set_piece(z, None);
            self.zombies.retain(|c| *c != z);
            self.pending_promotions.retain(|c| *c != z);
            self.dust[us.index()].push(piece.role);
            said.push(format!(
                "The {} zombie on {} was not moved and crumbles to dust.",
                describe(us, piece.role),
                self.label(z)
            ));
        }
        said
    }

    /// The cells of `seat`'s pieces with nothing of theirs buried under them.
    fn burial_cells(&self, seat: Seat) -> Vec<Cell> {
        self.position
            .cells_of(seat)
            .iter()
            .filter(|c| self.buried_by(seat, *c).is_none())
            .collect()
    }

    /// Ends the player's turn, in the book's order: zombies rise, unmoved zombies crumble, then
    /// the captures are buried (after the crumbling, so that nothing is buried under a zombie
    /// about to vanish); the move passes after the last burial.
    fn end_turn(&mut self) -> Vec<String> {
        let (mut said, risen) = self.raise_zombies();
        said.extend(self.crumble(&risen));
        self.bury_next(&mut said);
        said
    }

    /// Asks for the burial of the turn's next capture, or sends it to the dust bin when every
    /// piece of the mover already covers one; passes the move when none is left.
    fn bury_next(&mut self, said: &mut Vec<String>) {
        let us = self.position.turn();
        while !self.captures.is_empty() {
            let piece = self.captures.remove(0);
            if self.burial_cells(us).is_empty() {
                self.dust[piece.seat.index()].push(piece.role);
                said.push(format!(
                    "{} cannot bury this piece: the {} goes to the dust bin.",
                    us.colour_name(),
                    describe(piece.seat, piece.role)
                ));
            } else {
                self.phase = Phase::Bury {
                    captured: piece.role,
                };
                said.push(format!(
                    "{} buries the {} in secret.",
                    us.colour_name(),
                    describe(piece.seat, piece.role)
                ));
                return;
            }
        }
        self.pass_turn();
    }

    /// The move passes to the opponent.
    fn pass_turn(&mut self) {
        let us = self.position.turn();
        let half = if self.progress_this_turn {
            0
        } else {
            self.position.halfmoves() + 1
        };
        let full = self.position.fullmoves() + u32::from(us == Seat::BLACK);
        self.position.set_counters(half, full);
        self.position.set_turn(us.opponent());
        self.moved.clear();
        self.left.clear();
        self.ordinary_done = false;
        self.progress_this_turn = false;
        if half == 0 {
            self.repetitions.clear();
        }
        self.repetitions.push(self.position.repetition_key());
        self.phase = Phase::Move;
        self.next_promotion();
    }

    fn next_promotion(&mut self) {
        let us = self.position.turn();
        if let Some(&cell) = self.pending_promotions.iter().find(|c| {
            self.position
                .piece_at(**c)
                .is_some_and(|p| p.seat == us && p.role == Role::Pawn)
        }) {
            self.phase = Phase::Promote { cell };
        }
    }

    /// After an action: end the turn by itself when nothing more can be done.
    fn settle(&mut self, said: &mut Vec<String>) {
        if self.phase == Phase::Move
            && self.ordinary_done
            && self.fallen_king().is_none()
            && self.move_options().is_empty()
        {
            said.extend(self.end_turn());
        }
    }

    /// A seat whose king has been taken.
    fn fallen_king(&self) -> Option<Seat> {
        [Seat::WHITE, Seat::BLACK]
            .into_iter()
            .find(|s| self.position.king(*s).is_none())
    }

    fn outcome(&self) -> Option<Outcome> {
        // A turn of several moves can check a king and then take it: the game is over.
        if let Some(fallen) = self.fallen_king() {
            return Some(Outcome::win(
                vec![fallen.opponent()],
                EndReason::KingCaptured,
            ));
        }
        let fresh = self.phase == Phase::Move && self.moved.is_empty() && !self.ordinary_done;
        if fresh && self.move_options().is_empty() {
            let us = self.position.turn();
            return Some(if self.position.is_check() {
                Outcome::win(vec![us.opponent()], EndReason::Checkmate)
            } else {
                Outcome::draw(EndReason::Stalemate)
            });
        }
        if !fresh {
            return None;
        }
        if self.position.is_insufficient_material() && self.burials.iter().all(Vec::is_empty) {
            return Some(Outcome::draw(EndReason::InsufficientMaterial));
        }
        counting_draws(&self.position, &self.repetitions)
    }

    /// The state as `seat` may take it to be (see [`Game::determinize`]). Which pieces the
    /// opponent has buried is public (each capture, burial and rising is announced); where
    /// they lie is not. Each is laid again under a square drawn from those that could hide it:
    /// the opponent's pieces that have not moved this turn and, while the opponent's turn goes
    /// on, the empty squares it has left (checked only when that turn ends). Only if these are
    /// too few are other pieces' squares drawn, then empty ones: the count of burials stays,
    /// since everyone knows it. While the opponent is burying (announced, rather than the
    /// dust bin), one of its pieces is kept free to bury under. The record of secrets keeps the
    /// seat's own burials only.
    fn determinized(&self, seat: Seat, seed: u64) -> ZombieState {
        let them = seat.opponent();
        let mut roles: Vec<Role> = self.burials[them.index()].iter().map(|(_, r)| *r).collect();
        roles.sort_unstable();
        let their_turn = self.position.turn() == them;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let burying = their_turn && matches!(self.phase, Phase::Bury { .. });
        let theirs: Vec<Cell> = self.position.cells_of(them).iter().collect();
        let free = theirs.choose(&mut rng).copied().filter(|_| burying);
        let likeliness = |c: Cell| match self.position.piece_at(c) {
            Some(p) if p.seat == them && !self.moved.contains(&c) => 0,
            None if their_turn && self.left.contains(&c) => 0,
            Some(_) => 1,
            None => 2,
        };
        let mut tiers: [Vec<Cell>; 3] = Default::default();
        for c in self.position.board().cells() {
            if Some(c) != free {
                tiers[likeliness(c)].push(c);
            }
        }
        for tier in &mut tiers {
            tier.shuffle(&mut rng);
        }
        let mut sample = self.clone();
        sample.burials[them.index()] = tiers.into_iter().flatten().zip(roles).collect();
        let own = format!("{} buried ", seat.colour_name());
        sample.secret_log.retain(|line| line.starts_with(&own));
        sample
    }

    fn panel(&self, seat: Seat) -> Panel {
        let board = self.position.board();
        let (files, ranks) = board.grid_size().unwrap_or((8, 8));
        // Laid out as the board is drawn for this seat: Black's is turned half round, with
        // rank 1 on top and the h-file on the left.
        let turned = seat == Seat::BLACK;
        let file_order: Vec<i32> = if turned {
            (0..files as i32).rev().collect()
        } else {
            (0..files as i32).collect()
        };
        let rank_order: Vec<i32> = if turned {
            (0..ranks as i32).collect()
        } else {
            (0..ranks as i32).rev().collect()
        };
        let rows = rank_order
            .iter()
            .map(|&r| {
                let cells = file_order
                    .iter()
                    .map(|&f| {
                        board
                            .at(f, r)
                            .and_then(|c| self.buried_by(seat, c))
                            .map(|role| role.upper_char().to_string())
                            .unwrap_or_default()
                    })
                    .collect();
                ((r + 1).to_string(), cells)
            })
            .collect();
        let count = self.burials[seat.index()].len();
        Panel {
            title: "Zombie Chess: your secret burial grid".into(),
            columns: file_order
                .iter()
                .map(|&f| ((b'a' + f as u8) as char).to_string())
                .collect(),
            rows,
            notes: vec![format!(
                "{count} of {}'s pieces buried by you; each rises when the piece above it leaves.",
                seat.opponent().colour_name()
            )],
        }
    }
}

impl Game for Zombie {
    type State = ZombieState;
    type Action = Action;

    fn info(&self) -> &VariantInfo {
        static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
        INFO.get_or_init(|| VariantInfo {
            id: "zombie",
            aliases: &["zombie-chess", "zombies"],
            name: "Zombie Chess",
            family: Family::Chess,
            seat_counts: &[2],
            options: Vec::new(),
            hidden_information: true,
            simultaneous: false,
            rules:
                "Chess, but whatever you capture you secretly bury under one of your own pieces \
                    (/secret with its square; one per piece). When that piece has left its square, \
                    at the end of the turn the buried piece rises there as its owner's zombie (a \
                    coin marks it); if not, you announce \"no zombie\" and the square. On your \
                    turn all your zombies may move, each once, besides your ordinary move; those \
                    you leave still crumble to dust at the end of your turn (say 'done' to end \
                    it). Your turn may not end with your king in check, whether a zombie rising or \
                    one crumbling exposes it. Checkmate wins; so does taking a king.",
            source: "Chess Kit, 'Zombie Chess'",
        })
    }

    fn setup(
        &self,
        _options: &Options,
        _seats: usize,
        _seed: u64,
    ) -> Result<ZombieState, GameError> {
        Ok(ZombieState::new(Position::startpos()))
    }

    fn prompts(&self, state: &ZombieState) -> Vec<Prompt> {
        if state.outcome().is_some() {
            return Vec::new();
        }
        let seat = state.position.turn();
        let (kind, text) = match &state.phase {
            Phase::Bury { captured } => (
                PromptKind::Secret,
                format!(
                    "bury the captured {} under one of your pieces: name its square",
                    describe(seat.opponent(), *captured)
                ),
            ),
            Phase::Promote { cell } => (
                PromptKind::Move,
                format!(
                    "promote your risen pawn on {}: Q, R, B or N",
                    state.label(*cell)
                ),
            ),
            Phase::Move => {
                let zombies = state.own_zombies(seat).len();
                let text = if state.ordinary_done && !state.ends_safely() {
                    "your zombies may move now, each once; one must move first: ending your turn \
                        now would leave your king in check"
                        .to_string()
                } else if state.ordinary_done {
                    // The turn goes on only while a zombie can still move: say how to stop.
                    "your zombies may move now, each once; /move done ends your turn".to_string()
                } else if zombies > 0 {
                    format!(
                        "{} to move; your zombies may move too, each once, before or after your ordinary move",
                        seat.colour_name()
                    )
                } else {
                    format!("{} to move", seat.colour_name())
                };
                (PromptKind::Move, text)
            }
        };
        vec![Prompt { seat, kind, text }]
    }

    fn legal(&self, state: &ZombieState, seat: Seat) -> Vec<Action> {
        if !self.prompts(state).iter().any(|p| p.seat == seat) {
            return Vec::new();
        }
        match &state.phase {
            Phase::Bury { .. } => state
                .burial_cells(seat)
                .into_iter()
                .map(Action::Bury)
                .collect(),
            Phase::Promote { .. } => [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
                .map(Action::Promote)
                .to_vec(),
            Phase::Move => {
                let mut out: Vec<Action> =
                    state.move_options().into_iter().map(Action::Move).collect();
                if state.may_end_turn() {
                    out.push(Action::Done);
                }
                out
            }
        }
    }

    fn action_text(&self, state: &ZombieState, action: &Action) -> String {
        match action {
            Action::Move(m) => state.position.san_plain(*m),
            Action::Bury(c) => state.label(*c),
            Action::Promote(r) => format!("={}", r.upper_char()),
            Action::Done => "done".into(),
        }
    }

    fn parse(&self, state: &ZombieState, seat: Seat, text: &str) -> Result<Action, GameError> {
        if seat != state.position.turn() {
            return Err(GameError::NotYourTurn(format!(
                "{} to move",
                state.position.turn().colour_name()
            )));
        }
        let t = text.trim();
        let illegal = |reason: &str| {
            GameError::Move(MoveParseError::Illegal {
                text: t.into(),
                reason: reason.into(),
            })
        };
        match &state.phase {
            Phase::Bury { .. } => {
                let square = t
                    .trim_start_matches("bury")
                    .trim()
                    .trim_start_matches("under")
                    .trim();
                let cell = state
                    .position
                    .board()
                    .cell(square)
                    .ok_or_else(|| illegal("name the square of one of your pieces, like b2"))?;
                if state.position.piece_at(cell).is_none_or(|p| p.seat != seat) {
                    return Err(illegal("you can only bury under one of your own pieces"));
                }
                if state.buried_by(seat, cell).is_some() {
                    return Err(illegal(
                        "you have already buried a piece there; one per piece",
                    ));
                }
                Ok(Action::Bury(cell))
            }
            Phase::Promote { .. } => {
                let letter = t.trim_start_matches('=').chars().next().unwrap_or(' ');
                match Role::from_char(letter) {
                    Some(r @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) => {
                        Ok(Action::Promote(r))
                    }
                    _ => Err(illegal("promote to Q, R, B or N")),
                }
            }
            Phase::Move => {
                if matches!(t.to_ascii_lowercase().as_str(), "done" | "end" | "pass") {
                    return if state.may_end_turn() {
                        Ok(Action::Done)
                    } else if !state.ends_safely() {
                        Err(illegal(
                            "your king would be in check at the end of your turn; a zombie must \
                                move first",
                        ))
                    } else {
                        Err(illegal("make your ordinary move first"))
                    };
                }
                let options = state.move_options();
                match state.position.parse_move_among(t, &options) {
                    Ok(m) => Ok(Action::Move(m)),
                    Err(e) => {
                        let Ok(m) = state.position.parse_move(t) else {
                            return Err(GameError::Move(e));
                        };
                        let reason = if state.moved.contains(&m.from) {
                            "that piece has already moved this turn"
                        } else if state.ordinary_done && !state.zombies.contains(&m.from) {
                            "you have made your ordinary move; only zombies may still move ('done' ends the turn)"
                        } else if let Some(exposed) = state
                            .after(m)
                            .end_boards(false)
                            .iter()
                            .position(|b| b.seat_in_check(seat))
                        {
                            if exposed == 0 {
                                "it would reveal a zombie that checks your own king"
                            } else {
                                "a pawn risen on its last row would check your king once promoted"
                            }
                        } else {
                            "your king would be in check at the end of your turn, when your \
                                unmoved zombies crumble"
                        };
                        Err(illegal(reason))
                    }
                }
            }
        }
    }

    fn apply(
        &self,
        state: &mut ZombieState,
        seat: Seat,
        action: Action,
    ) -> Result<Vec<Event>, GameError> {
        if !Game::legal(self, state, seat).contains(&action) {
            return Err(GameError::Move(MoveParseError::Illegal {
                text: self.action_text(state, &action),
                reason: "it is not possible now".into(),
            }));
        }
        let mut said: Vec<String> = Vec::new();
        let mut private = Vec::new();
        let is_move = matches!(action, Action::Move(_));
        match action {
            Action::Move(m) => said.extend(state.play_move(m)),
            Action::Bury(cell) => {
                let Phase::Bury { captured } = state.phase else {
                    return Err(GameError::Corrupt("burial outside a burial".into()));
                };
                state.burials[seat.index()].push((cell, captured));
                let secret = format!(
                    "{} buried the {} under {} (move {}).",
                    seat.colour_name(),
                    describe(seat.opponent(), captured),
                    state.label(cell),
                    state.position.fullmoves()
                );
                private.push(Event::Private {
                    seat,
                    text: format!(
                        "You buried the {} under {}.",
                        describe(seat.opponent(), captured),
                        state.label(cell)
                    ),
                });
                state.secret_log.push(secret);
                said.push(format!(
                    "{} has buried the {}.",
                    seat.colour_name(),
                    describe(seat.opponent(), captured)
                ));
                state.phase = Phase::Move;
                state.bury_next(&mut said);
            }
            Action::Promote(role) => {
                let Phase::Promote { cell } = state.phase else {
                    return Err(GameError::Corrupt("promotion outside a promotion".into()));
                };
                state.position.set_piece(cell, Some(Piece { seat, role }));
                state.pending_promotions.retain(|c| *c != cell);
                said.push(format!(
                    "{}'s risen pawn on {} becomes a {}.",
                    seat.colour_name(),
                    state.label(cell),
                    role.name()
                ));
                state.phase = Phase::Move;
                state.next_promotion();
            }
            Action::Done => said.extend(state.end_turn()),
        }
        state.settle(&mut said);
        said.retain(|s| !s.is_empty());
        let outcome = state.outcome();
        // A move that ends its turn in mate: its check sign (the first line) becomes a mate sign.
        if is_move
            && outcome
                .as_ref()
                .is_some_and(|o| o.reason == EndReason::Checkmate)
        {
            said[0] = said[0].replacen('+', "#", 1);
        }
        let mut events = vec![Event::Public(said.join(" "))];
        events.extend(private);
        if let Some(o) = outcome {
            events.push(Event::GameOver(o));
        }
        Ok(events)
    }

    fn view(&self, state: &ZombieState, viewer: Viewer) -> View {
        let pos = &state.position;
        let mut view = board_view(self.info().id, pos, viewer);
        view.status = match state.outcome() {
            Some(o) => o.to_string(),
            None => match &state.phase {
                Phase::Bury { .. } => {
                    format!("{} is burying a piece in secret", pos.turn().colour_name())
                }
                _ => format!("{} to move", pos.turn().colour_name()),
            },
        };
        for placed in &mut view.figures {
            if state.zombies.contains(&placed.cell) {
                placed.markers.push(Marker::ZombieCoin);
            }
        }
        view.last_move = state.last_move.clone();
        if pos.is_check() {
            view.checks = pos.king(pos.turn()).into_iter().collect();
        }
        view.to_act = self.prompts(state).iter().map(|p| p.seat).collect();
        if let Viewer::Seat(s) = viewer {
            view.panel = Some(state.panel(s));
        }
        view
    }

    fn outcome(&self, state: &ZombieState) -> Option<Outcome> {
        state.outcome()
    }

    fn secret_history(&self, state: &ZombieState) -> Vec<String> {
        state.secret_log.clone()
    }

    fn determinize(&self, state: &ZombieState, seat: Seat, seed: u64) -> ZombieState {
        state.determinized(seat, seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Rules;
    use crate::game::public_text;

    fn from(fen: &str) -> ZombieState {
        ZombieState::new(Position::from_fen(fen, Rules::chess()).unwrap())
    }

    fn act(s: &mut ZombieState, text: &str) -> String {
        let seat = s.position.turn();
        let (_, events) =
            Game::play(&Zombie, s, seat, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        public_text(&events)
    }

    fn at(s: &ZombieState, label: &str) -> Option<Piece> {
        s.position.piece_at(s.position.board().cell(label).unwrap())
    }

    fn placement(s: &ZombieState) -> String {
        s.position.fen().split(' ').next().unwrap().to_string()
    }

    #[test]
    fn a_sample_for_white_lays_blacks_secret_burial_anew_and_keeps_what_white_knows() {
        // "The capturing player secretly buries the captured piece under one of their own
        // pieces": White heard that Black buried the pawn, not where.
        let mut s = Zombie.setup(&Options::new(), 2, 0).unwrap();
        for m in ["e4", "e5", "Nf3", "Nc6", "d4", "exd4", "c6"] {
            act(&mut s, m);
        }
        let c6 = s.position.board().cell("c6").unwrap();
        let mut places = Vec::new();
        for seed in 0..20 {
            let sample = Zombie.determinize(&s, Seat::WHITE, seed);
            let [white, black] = &sample.burials;
            assert!(white.is_empty());
            assert_eq!(black.len(), 1, "everyone knows one pawn is buried");
            let (cell, role) = black[0];
            assert_eq!(role, Role::Pawn);
            assert!(sample
                .position
                .piece_at(cell)
                .is_some_and(|p| p.seat == Seat::BLACK));
            assert!(
                sample.secret_log.is_empty(),
                "Black's secret is not White's to read"
            );
            places.push(cell);
            let own = Zombie.determinize(&s, Seat::BLACK, seed);
            assert_eq!(own.burials[1], vec![(c6, Role::Pawn)], "Black's own stays");
        }
        places.sort_unstable();
        places.dedup();
        assert!(places.len() > 3, "drawn under many pieces: {places:?}");
    }

    #[test]
    fn the_books_example() {
        let mut s = Zombie.setup(&Options::new(), 2, 0).unwrap();
        for m in ["e4", "e5", "Nf3", "Nc6", "d4"] {
            act(&mut s, m);
        }
        act(&mut s, "exd4");
        act(&mut s, "c6"); // Black buries the white pawn under the knight on c6.
        assert_eq!(
            placement(&s),
            "r1bqkbnr/pppp1ppp/2n5/8/3pP3/5N2/PPP2PPP/RNBQKB1R"
        );
        let said = act(&mut s, "Nxd4");
        assert!(said.contains("White: no zombies anywhere."), "{said}");
        act(&mut s, "b2");
        let said = act(&mut s, "Nxd4");
        assert!(
            said.contains("A white pawn rises from the grave on c6!"),
            "{said}"
        );
        act(&mut s, "g7");
        assert_eq!(
            placement(&s),
            "r1bqkbnr/pppp1ppp/2P5/8/3nP3/8/PPP2PPP/RNBQKB1R"
        );
        assert_eq!(s.position.fullmoves(), 5);
        assert!(s.zombies.contains(&s.position.board().cell("c6").unwrap()));
        // Each player's grid holds only their own burial.
        let grid = |seat: Seat| {
            s.panel(seat)
                .rows
                .iter()
                .flat_map(|(_, c)| c.clone())
                .filter(|c| !c.is_empty())
                .collect::<Vec<_>>()
        };
        assert_eq!(grid(Seat::WHITE), ["P"]);
        assert_eq!(grid(Seat::BLACK), ["N"]);
        // Each grid is laid out as its owner sees the board: White's P under b2 and Black's N
        // under g7 both stand in the second column of the second row from the bottom.
        let corners = [(Seat::WHITE, "b", "2", "P"), (Seat::BLACK, "g", "7", "N")];
        for (seat, file, rank, role) in corners {
            let panel = s.panel(seat);
            assert_eq!(panel.columns[1], file);
            assert_eq!(panel.rows[6].0, rank);
            assert_eq!(panel.rows[6].1[1], role);
        }
        assert_eq!(Zombie.secret_history(&s).len(), 3);
    }

    #[test]
    fn the_zombie_that_is_not_moved_is_destroyed() {
        let mut s = from("4k3/8/2P5/8/8/8/8/4K3 w - - 0 1");
        s.zombies.push(s.position.board().cell("c6").unwrap());
        act(&mut s, "Kd2");
        let said = act(&mut s, "done");
        assert!(
            said.contains("The white pawn zombie on c6 was not moved and crumbles to dust."),
            "{said}"
        );
        assert_eq!(at(&s, "c6"), None);
        assert_eq!(s.dust[0], [Role::Pawn]);
        assert_eq!(s.position.turn(), Seat::BLACK);
    }

    #[test]
    fn a_horde_of_zombies_may_all_move_each_once() {
        let mut s = from("4k3/8/8/8/8/8/P6P/4K3 w - - 0 1");
        let (a2, h2) = (
            s.position.board().cell("a2").unwrap(),
            s.position.board().cell("h2").unwrap(),
        );
        s.zombies.extend([a2, h2]);
        act(&mut s, "a3");
        let err = Game::play(&Zombie, &mut s, Seat::WHITE, "a4").unwrap_err();
        assert!(err.to_string().contains("already moved this turn"), "{err}");
        act(&mut s, "h4");
        assert_eq!(
            s.position.turn(),
            Seat::WHITE,
            "the ordinary move is still to come"
        );
        let err = Game::play(&Zombie, &mut s, Seat::WHITE, "done").unwrap_err();
        assert!(err.to_string().contains("ordinary move first"), "{err}");
        act(&mut s, "Kd2");
        assert_eq!(
            s.position.turn(),
            Seat::BLACK,
            "nothing left to move: the turn ends by itself"
        );
        assert_eq!(s.zombies.len(), 2, "both zombies moved and survive");
    }

    #[test]
    fn checks_and_mates_carry_their_signs() {
        let mut s = from("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let said = act(&mut s, "Ra8");
        assert!(said.contains("White played 1. Ra8+."), "{said}");
        let mut s = from("7k/6pp/8/8/8/8/8/R3K3 w - - 0 1");
        let said = act(&mut s, "Ra8");
        assert!(said.contains("White played 1. Ra8#."), "{said}");
        assert_eq!(
            Zombie.outcome(&s),
            Some(Outcome::win(vec![Seat::WHITE], EndReason::Checkmate))
        );
    }

    #[test]
    fn after_the_ordinary_move_the_prompt_says_the_zombies_may_move() {
        let mut s = from("4k3/8/2P5/8/8/8/8/4K3 w - - 0 1");
        s.zombies.push(s.position.board().cell("c6").unwrap());
        assert!(Zombie.prompts(&s)[0]
            .text
            .contains("your zombies may move too"));
        act(&mut s, "Kd2");
        let prompts = Zombie.prompts(&s);
        assert_eq!(prompts[0].seat, Seat::WHITE);
        assert_eq!(
            prompts[0].text,
            "your zombies may move now, each once; /move done ends your turn"
        );
    }

    #[test]
    fn a_buried_piece_survives_the_capture_of_the_piece_above_it() {
        // Black buried a white knight under the rook on a8; White takes the rook and later
        // leaves a8: White's own knight rises as White's zombie.
        let mut s = from("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        s.burials[1].push((s.position.board().cell("a8").unwrap(), Role::Knight));
        act(&mut s, "Rxa8+");
        act(&mut s, "e1"); // bury the rook under the king
        act(&mut s, "Kd7");
        let said = act(&mut s, "Rb8");
        assert!(
            said.contains("A white knight rises from the grave on a8!"),
            "{said}"
        );
        assert!(s.burials[1].is_empty());
        // It rose during White's own turn: it waits, and is not destroyed this turn.
        assert_eq!(
            at(&s, "a8"),
            Some(Piece {
                seat: Seat::WHITE,
                role: Role::Knight
            })
        );
        assert_eq!(s.position.turn(), Seat::BLACK);
    }

    #[test]
    fn a_capture_with_every_piece_already_covering_one_goes_to_the_dust_bin() {
        // White has buried pieces under e1 (its king) and under h8 (a square its captured
        // piece stood on, now held by Black). The rook takes on h8: both White pieces now
        // cover a burial, so the black rook cannot be buried.
        let mut s = from("4k2r/8/8/8/8/8/8/4K2R w - - 0 1");
        let cell = |l: &str| s.position.board().cell(l).unwrap();
        let (e1, h8) = (cell("e1"), cell("h8"));
        s.burials[0].extend([(e1, Role::Pawn), (h8, Role::Knight)]);
        let said = act(&mut s, "Rxh8+");
        assert!(said.contains("White: no zombie on h1."), "{said}");
        assert!(
            said.contains("White cannot bury this piece: the black rook goes to the dust bin."),
            "{said}"
        );
        assert_eq!(s.dust[1], [Role::Rook]);
        assert_eq!(
            s.position.turn(),
            Seat::BLACK,
            "no burial to make: the turn is over"
        );
    }

    #[test]
    fn revealing_a_zombie_that_checks_your_own_king_is_illegal() {
        // White buried a black rook under the knight on e2; the knight may not leave, since
        // the rook would rise on e2 next to... attacking White's own king on e1.
        let mut s = from("4k3/8/8/8/8/8/4N3/4K3 w - - 0 1");
        s.burials[0].push((s.position.board().cell("e2").unwrap(), Role::Rook));
        let err = Game::play(&Zombie, &mut s, Seat::WHITE, "Nc3").unwrap_err();
        assert!(
            err.to_string()
                .contains("reveal a zombie that checks your own king"),
            "{err}"
        );
        act(&mut s, "Kd2");
    }

    #[test]
    fn castling_completes_before_the_reveal() {
        // A black piece is buried under h1: after O-O the rook has left h1 and the king is on
        // g1; the black rook rising on h1 checks White's king, so castling is illegal.
        let mut s = from("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        s.burials[0].push((s.position.board().cell("h1").unwrap(), Role::Rook));
        assert!(Game::play(&Zombie, &mut s, Seat::WHITE, "O-O").is_err());
        // A buried knight does not check g1 from h1: castling goes ahead and the knight rises.
        let mut s = from("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        s.burials[0].push((s.position.board().cell("h1").unwrap(), Role::Knight));
        let said = act(&mut s, "O-O");
        assert!(
            said.contains("A black knight rises from the grave on h1!"),
            "{said}"
        );
        assert_eq!(
            at(&s, "g1"),
            Some(Piece {
                seat: Seat::WHITE,
                role: Role::King
            })
        );
    }

    #[test]
    fn a_pawn_rising_on_its_last_row_is_promoted_by_its_owner() {
        // White buried a black pawn under the rook on a1 (Black's last row).
        let mut s = from("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        s.burials[0].push((s.position.board().cell("a1").unwrap(), Role::Pawn));
        // It comes back promoted: as a queen on a1 it would check the king along the first
        // row, so the rook may not leave the row open.
        let err = Game::play(&Zombie, &mut s, Seat::WHITE, "Ra2").unwrap_err();
        assert!(
            err.to_string()
                .contains("a pawn risen on its last row would check your king once promoted"),
            "{err}"
        );
        let said = act(&mut s, "Rb1");
        assert!(
            said.contains("A black pawn rises from the grave on a1!"),
            "{said}"
        );
        let prompts = Zombie.prompts(&s);
        assert_eq!(prompts[0].seat, Seat::BLACK);
        assert!(prompts[0].text.contains("promote your risen pawn on a1"));
        let said = act(&mut s, "Q");
        assert!(said.contains("becomes a queen"), "{said}");
        assert_eq!(
            at(&s, "a1"),
            Some(Piece {
                seat: Seat::BLACK,
                role: Role::Queen
            })
        );
        // The new queen is still a zombie and may move this turn.
        act(&mut s, "Qa2");
        assert_eq!(
            s.position.turn(),
            Seat::BLACK,
            "the ordinary move is still to come"
        );
    }

    #[test]
    fn a_risen_pawn_waiting_to_be_promoted_counts_as_its_promotion() {
        // A black pawn rose on g1 as Black's own zombie at the end of Black's turn; Black
        // promotes it before moving again, so White's king may not end its turn where a queen
        // or a knight on g1 would check it.
        let mut s = from("4k3/8/8/8/8/3K4/8/8 w - - 0 1");
        let g1 = s.position.board().cell("g1").unwrap();
        let pawn = Piece {
            seat: Seat::BLACK,
            role: Role::Pawn,
        };
        s.position.set_piece(g1, Some(pawn));
        s.zombies.push(g1);
        s.pending_promotions.push(g1);
        for m in ["Ke3", "Ke2"] {
            let err = Game::play(&Zombie, &mut s.clone(), Seat::WHITE, m).unwrap_err();
            assert!(err.to_string().contains("once promoted"), "{m}: {err}");
        }
        act(&mut s, "Kd2");
        act(&mut s, "Q");
        assert!(!s.position.seat_in_check(Seat::WHITE));
    }

    #[test]
    fn burial_choices_are_checked() {
        let mut s = Zombie.setup(&Options::new(), 2, 0).unwrap();
        for m in ["e4", "d5", "exd5"] {
            act(&mut s, m);
        }
        assert_eq!(Zombie.prompts(&s)[0].kind, PromptKind::Secret);
        for (text, why) in [
            ("e7", "your own pieces"),
            ("e4", "your own pieces"),
            ("z9", "name the square"),
        ] {
            let err = Game::play(&Zombie, &mut s, Seat::WHITE, text).unwrap_err();
            assert!(err.to_string().contains(why), "{text}: {err}");
        }
        // Under the capturing pawn itself is fine.
        let said = act(&mut s, "d5");
        assert_eq!(said, "White has buried the black pawn.");
        assert_eq!(
            s.panel(Seat::WHITE).rows[3].1[3],
            "P",
            "d5 holds a P in White's grid"
        );
        assert!(s
            .panel(Seat::BLACK)
            .rows
            .iter()
            .all(|(_, cells)| cells.iter().all(String::is_empty)));
    }

    #[test]
    fn a_zombie_left_to_crumble_may_not_expose_its_own_king() {
        // Black takes the knight on c3 and buries it under the bishop there; when the bishop
        // goes back to b4 the knight rises as White's zombie, between the bishop and White's
        // king, with the d2 pawn behind it.
        let mut s = Zombie.setup(&Options::new(), 2, 0).unwrap();
        for m in ["Nc3", "e6", "Nf3", "Bb4", "Ng1", "Bxc3", "c3", "h3"] {
            act(&mut s, m);
        }
        let said = act(&mut s, "Bb4");
        assert!(
            said.contains("A white knight rises from the grave on c3!"),
            "{said}"
        );
        // With d2 gone the knight is pinned: it cannot move, so it would crumble at the end of
        // the turn and leave the king in check. No move may end a turn that way.
        for m in ["d4", "d3"] {
            let err = Game::play(&Zombie, &mut s, Seat::WHITE, m).unwrap_err();
            assert!(err.to_string().contains("in check"), "{m}: {err}");
        }
        // A move that keeps d2 in place is fine; the knight crumbles and the king is safe.
        act(&mut s, "e3");
        let said = act(&mut s, "done");
        assert!(said.contains("crumbles to dust"), "{said}");
        assert_eq!(s.position.turn(), Seat::BLACK);
        assert!(!s.position.is_check());
    }

    #[test]
    fn the_turn_may_not_end_while_a_crumbling_zombie_would_expose_the_king() {
        // White's zombie bishop on c3 shields the king from the bishop on b4; it can still move
        // along the line, so the ordinary move is legal, but "done" is not until it has.
        let mut s = from("4k3/8/8/8/1b6/2B5/7P/4K3 w - - 0 1");
        s.zombies.push(s.position.board().cell("c3").unwrap());
        act(&mut s, "h3");
        assert!(!Zombie.legal(&s, Seat::WHITE).contains(&Action::Done));
        let err = Game::play(&Zombie, &mut s, Seat::WHITE, "done").unwrap_err();
        assert!(err.to_string().contains("in check"), "{err}");
        act(&mut s, "Bd2");
        assert_eq!(s.position.turn(), Seat::BLACK);
        assert!(!s.position.is_check());
    }

    #[test]
    fn zombies_shielding_the_king_on_two_lines_must_both_move() {
        // The zombie bishop on c3 and the zombie rook on e4 each stand between a black piece
        // and White's king: the ordinary move is legal because both can still move along
        // their lines, and the turn cannot end until both have.
        let mut s = from("k3r3/8/8/8/1b2R3/2B5/7P/4K3 w - - 0 1");
        let cell = |l: &str| s.position.board().cell(l).unwrap();
        let (c3, e4) = (cell("c3"), cell("e4"));
        s.zombies.extend([c3, e4]);
        act(&mut s, "h3");
        assert!(!Zombie.legal(&s, Seat::WHITE).contains(&Action::Done));
        act(&mut s, "Bd2");
        assert!(!Zombie.legal(&s, Seat::WHITE).contains(&Action::Done));
        let err = Game::play(&Zombie, &mut s, Seat::WHITE, "Rf4").unwrap_err();
        assert!(err.to_string().contains("in check"), "{err}");
        act(&mut s, "Re3");
        assert_eq!(s.position.turn(), Seat::BLACK);
        assert_eq!(s.zombies.len(), 2, "both moved and survive");
    }

    #[test]
    fn the_opponents_burials_never_decide_what_the_mover_may_do() {
        // White's zombie knight on e2 and rook on e4 stand between Black's rook and White's
        // king. Whether Black buried a white pawn under e4 (which would rise when the rook
        // leaves, as White's own) is Black's secret: White's legal moves, and so autocomplete
        // and refusals, must be the same either way.
        let plain = {
            let mut s = from("k3r3/8/8/8/4R3/8/4N3/4K3 w - - 0 1");
            s.zombies.push(s.position.board().cell("e2").unwrap());
            s
        };
        let mut buried = plain.clone();
        let e4 = buried.position.board().cell("e4").unwrap();
        buried.burials[1].push((e4, Role::Pawn));
        assert_eq!(
            Zombie.legal(&plain, Seat::WHITE),
            Zombie.legal(&buried, Seat::WHITE)
        );
        let refusal = |s: &ZombieState| {
            Game::play(&Zombie, &mut s.clone(), Seat::WHITE, "Ra4").map(|(text, _)| text)
        };
        assert_eq!(refusal(&plain), refusal(&buried));
    }

    #[test]
    fn a_captured_king_ends_the_game() {
        // Black's knight uncovers the zombie rook's line to White's king, and the zombie, still
        // free to move this turn, takes the king.
        let mut s = from("4k3/8/8/8/8/8/6PP/r2n3K b - - 0 1");
        s.zombies.push(s.position.board().cell("a1").unwrap());
        act(&mut s, "Ne3");
        assert_eq!(Zombie.outcome(&s), None);
        let (_, events) = Game::play(&Zombie, &mut s, Seat::BLACK, "Rxh1").unwrap();
        let over = Outcome::win(vec![Seat::BLACK], EndReason::KingCaptured);
        assert_eq!(Zombie.outcome(&s), Some(over.clone()));
        assert!(
            events.contains(&Event::GameOver(over.clone())),
            "{events:?}"
        );
        assert!(Zombie.prompts(&s).is_empty());
        // Stored without its white king, the game reloads still over.
        let stored = serde_json::to_string(&s).unwrap();
        let reloaded: ZombieState = serde_json::from_str(&stored).unwrap();
        assert_eq!(Zombie.outcome(&reloaded), Some(over));
    }

    #[test]
    fn buried_pieces_rise_at_the_end_of_the_turn() {
        // White buried a black pawn under the knight on a5; White's zombie rook on a1 may still
        // move after the knight leaves.
        let setup = || {
            let mut s = from("4k3/8/8/N7/8/8/8/R3K3 w - - 0 1");
            let cell = |l: &str| s.position.board().cell(l).unwrap();
            let (a5, a1) = (cell("a5"), cell("a1"));
            s.burials[0].push((a5, Role::Pawn));
            s.zombies.push(a1);
            s
        };
        let mut s = setup();
        let said = act(&mut s, "Nb3");
        assert!(!said.contains("rises"), "{said}");
        assert_eq!(at(&s, "a5"), None, "nothing rises before the turn ends");
        assert_eq!(s.position.turn(), Seat::WHITE);
        let said = act(&mut s, "Ra4");
        assert!(
            said.contains("A black pawn rises from the grave on a5!"),
            "{said}"
        );
        assert_eq!(
            at(&s, "a5"),
            Some(Piece {
                seat: Seat::BLACK,
                role: Role::Pawn
            })
        );
        assert_eq!(s.position.turn(), Seat::BLACK);
        // A square taken again before the turn ends keeps its buried piece under the newcomer.
        let mut s = setup();
        act(&mut s, "Nb3");
        let said = act(&mut s, "Ra5");
        assert!(!said.contains("rises"), "{said}");
        assert_eq!(s.burials[0].len(), 1);
        assert_eq!(s.position.turn(), Seat::BLACK);
    }

    #[test]
    fn a_capture_is_buried_at_the_end_of_the_turn() {
        // "First, they check for zombies ... Then, they choose where to bury": the burial waits
        // for the zombies to have moved.
        let mut s = from("4k3/8/8/3p4/8/2N5/8/R3K3 w - - 0 1");
        s.zombies.push(s.position.board().cell("a1").unwrap());
        let said = act(&mut s, "Nxd5");
        assert!(!said.contains("buries"), "{said}");
        assert_eq!(Zombie.prompts(&s)[0].kind, PromptKind::Move);
        let said = act(&mut s, "Ra4");
        assert!(said.contains("White: no zombies anywhere."), "{said}");
        assert!(
            said.contains("White buries the black pawn in secret."),
            "{said}"
        );
        assert_eq!(Zombie.prompts(&s)[0].kind, PromptKind::Secret);
        act(&mut s, "d5");
        assert_eq!(s.position.turn(), Seat::BLACK);
        assert_eq!(s.burials[0].len(), 1);
    }
}
