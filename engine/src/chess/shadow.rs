//! Shadow Chess's addition to the machinery (Will Adams, *Variations on Chess and Checkers*,
//! chess II.1): every piece casts a shadow on the squares it could move to, cut short where the
//! shadows of its own side meet; a piece also captures by moving, with its capturing movement,
//! from outside an enemy piece's shadow into it; and a king is in check when attacked directly
//! or on its shadow.
//!
//! The book leaves these things open; the engine reads them so (each marked as an
//! interpretation in the game's rules text):
//! - "could move to" is the piece's movement, check and pins ignored;
//! - a shadow is cut by the *reach* of the side's other pieces (the squares they could move
//!   to), not by their already-cut shadows, which would make the definition circular;
//! - castling and en passant are not part of a shadow: they are moves of the whole position,
//!   not of one piece's movement;
//! - a shadow capture lands on an empty square: the only capturing movement onto an occupied
//!   square is the ordinary capture of its occupant;
//! - a piece is "trained on" the king's shadow when it could move onto an empty square of it
//!   (a square held by its own side it defends, not attacks), wherever it stands.
//!
//! ```
//! use engine::chess::{Position, Rules, Seat};
//!
//! // Figure 24: the black bishop's shadow runs to a6 and to White's bishop on g4.
//! let pos = Position::from_fen("2b4k/8/8/2N5/4P1B1/8/8/4K3 w - - 0 1", Rules::chess()).unwrap();
//! let c8 = pos.board().cell("c8").unwrap();
//! let shadows = pos.shadows(Seat::BLACK);
//! let mut bishop: Vec<&str> = shadows.of(c8).unwrap().iter().map(|c| pos.board().label(c)).collect();
//! bishop.sort();
//! assert_eq!(bishop, ["a6", "b7", "d7", "e6", "f5", "g4"]);
//! ```

use std::cell::OnceCell;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use super::{role_of, seat_of, Move, MoveKind, Occupancy, Patch, Plain, Position, Role, Seat};
use crate::board::{Cell, CellSet, Dir, MAX_CELLS};

/// The most pieces of one side whose shadows are kept.
const MAX_CASTERS: usize = 32;

/// The shadows of one side's pieces (or of every enemy of a side).
#[derive(Clone, Debug, Default)]
pub struct Shadows {
    /// The casting pieces' squares, and each one's shadow (kept apart: a set is 8-aligned,
    /// a cell is not).
    casters: ArrayVec<Cell, MAX_CASTERS>,
    sets: ArrayVec<CellSet, MAX_CASTERS>,
    /// Each caster's reach, its shadow before cutting: on a square of the other side's, the
    /// pieces attacking it.
    reach: ArrayVec<CellSet, MAX_CASTERS>,
    all: CellSet,
    /// The empty squares, and the other side's pieces, the side's pieces attack: the reach of
    /// its pieces but pawns, and the pawns' diagonals.
    attacks: CellSet,
}

impl Shadows {
    /// The shadow of the piece on `cell`, if a piece of this side stands there.
    pub fn of(&self, cell: Cell) -> Option<&CellSet> {
        let i = self.casters.iter().position(|&c| c == cell)?;
        Some(&self.sets[i])
    }
    /// Every square in some shadow of the side.
    pub fn all(&self) -> CellSet {
        self.all
    }
    /// Each piece with its reach (see [`Shadows::reach`]).
    fn iter_reach(&self) -> impl Iterator<Item = (Cell, &CellSet)> {
        self.casters.iter().copied().zip(&self.reach)
    }
    /// Each piece with its shadow.
    pub fn iter(&self) -> impl Iterator<Item = (Cell, &CellSet)> {
        self.casters.iter().copied().zip(&self.sets)
    }
}

/// A move of Shadow Chess: a chess move, and the enemy piece it takes by moving into that
/// piece's shadow (`None` for an ordinary move or capture).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ShadowMove {
    pub mv: Move,
    pub victim: Option<Cell>,
}

impl ShadowMove {
    /// An ordinary move.
    pub fn plain(mv: Move) -> ShadowMove {
        ShadowMove { mv, victim: None }
    }
}

/// Rays of reach, kept flat: the cells of every ray of every piece, and where each ends.
struct Rays {
    cells: ArrayVec<Cell, 2048>,
    /// (caster index, end of the ray in `cells`).
    ends: ArrayVec<(u8, u16), 512>,
}

impl Position {
    /// The reach of the piece on `from` as rays from it outward: a slider's lines up to and
    /// including the first enemy, a leap, step or pawn capture as a ray of one square, a pawn's
    /// forward steps as one ray. Castling and en passant are left out.
    fn push_reach_rays(&self, from: Cell, caster: u8, rays: &mut Rays) {
        let v = self.squares[from.index()];
        let us = seat_of(v);
        let army = &self.rules.armies[us];
        let board = &*army.board;
        let lines = army.lines_in_use(self.rules.triangles);
        let open = |c: Cell| {
            let w = self.squares[c.index()];
            w == 0 || self.is_enemy(w, us)
        };
        let one = |c: Cell, rays: &mut Rays| {
            rays.cells.push(c);
            rays.ends.push((caster, rays.cells.len() as u16));
        };
        match role_of(v) {
            Role::Pawn => {
                let way = &army.pawn;
                if let Some(first) = board.step(from, way.forward) {
                    if self.squares[first.index()] == 0 {
                        rays.cells.push(first);
                        if way.double_step.contains(from) {
                            if let Some(second) = board.step(first, way.forward) {
                                if self.squares[second.index()] == 0 {
                                    rays.cells.push(second);
                                }
                            }
                        }
                        rays.ends.push((caster, rays.cells.len() as u16));
                    }
                }
                for &d in &way.captures {
                    if let Some(c) = board.step(from, d) {
                        if self.is_enemy(self.squares[c.index()], us) {
                            one(c, rays);
                        }
                    }
                }
            }
            Role::Knight => {
                for &c in board.leaps(from, army.knight) {
                    if open(c) {
                        one(c, rays);
                    }
                }
            }
            Role::King => {
                for &d in lines.king {
                    if let Some(c) = board.step(from, d) {
                        if open(c) {
                            one(c, rays);
                        }
                    }
                }
            }
            role => {
                let dirs = [
                    (role != Role::Bishop).then_some(lines.rook),
                    (role != Role::Rook).then_some(lines.bishop),
                ];
                for &d in dirs.into_iter().flatten().flatten() {
                    let start = rays.cells.len();
                    for c in board.ray(from, d) {
                        if c == from {
                            break;
                        }
                        let w = self.squares[c.index()];
                        if w != 0 && !self.is_enemy(w, us) {
                            break;
                        }
                        rays.cells.push(c);
                        if w != 0 {
                            break;
                        }
                    }
                    if rays.cells.len() > start {
                        rays.ends.push((caster, rays.cells.len() as u16));
                    }
                }
            }
        }
    }

    /// The shadows of `seat`'s pieces: each piece's reach, every ray ending on the first
    /// square another piece of the side could also move to.
    pub fn shadows(&self, seat: Seat) -> Shadows {
        self.shadows_of(self.cells_of(seat))
    }

    /// The shadows of every enemy of `seat`, together.
    pub fn enemy_shadows(&self, seat: Seat) -> Shadows {
        let mut pieces = CellSet::EMPTY;
        for &e in &self.rules.enemies[seat.index()] {
            pieces = pieces | self.by_seat[e];
        }
        self.shadows_of(pieces)
    }

    /// Shadows of the pieces in `pieces`; a ray is cut by the reach of another piece of the
    /// same army.
    fn shadows_of(&self, pieces: CellSet) -> Shadows {
        let mut rays = Rays {
            cells: ArrayVec::new(),
            ends: ArrayVec::new(),
        };
        let mut shadows = Shadows::default();
        // Per army, the cells one of its pieces reaches, and those two or more reach.
        let mut once = [CellSet::EMPTY; super::MAX_SEATS];
        let mut twice = [CellSet::EMPTY; super::MAX_SEATS];
        let mut army_of: ArrayVec<usize, MAX_CASTERS> = ArrayVec::new();
        for from in pieces.iter().take(MAX_CASTERS) {
            let caster = shadows.casters.len() as u8;
            let start = rays.cells.len();
            self.push_reach_rays(from, caster, &mut rays);
            let mut set = CellSet::EMPTY;
            for &c in &rays.cells[start..] {
                set.insert(c);
            }
            let v = self.squares[from.index()];
            let army = seat_of(v);
            if role_of(v) == Role::Pawn {
                let rules = &self.rules.armies[army];
                for &d in &rules.pawn.captures {
                    if let Some(c) = rules.board.step(from, d) {
                        shadows.attacks.insert(c);
                    }
                }
            } else {
                shadows.attacks = shadows.attacks | set;
            }
            twice[army] = twice[army] | (once[army] & set);
            once[army] = once[army] | set;
            shadows.reach.push(set);
            army_of.push(army);
            shadows.casters.push(from);
        }
        // Each piece's rays, in order, cut by the reach of the other pieces of its army.
        let mut ray = 0;
        let mut start = 0usize;
        for (i, own) in shadows.reach.iter().enumerate() {
            let army = army_of[i];
            let cut = twice[army] | once[army].without(*own);
            let mut shadow = CellSet::EMPTY;
            while let Some(&(caster, end)) = rays.ends.get(ray) {
                if caster as usize != i {
                    break;
                }
                for &c in &rays.cells[start..end as usize] {
                    shadow.insert(c);
                    if cut.contains(c) {
                        break;
                    }
                }
                start = end as usize;
                ray += 1;
            }
            shadows.all = shadows.all | shadow;
            shadows.sets.push(shadow);
        }
        shadows
    }

    /// `enemy`'s attacks (see [`Shadows`]) with `us`'s king on `king` lifted off the board:
    /// an enemy slider's line through the king's square goes on beyond it, up to and
    /// including the next piece.
    fn attacks_through_king(&self, enemy: &Shadows, king: Cell, us: usize) -> CellSet {
        let board = self.board();
        let mut attacks = enemy.attacks;
        for d in 0..board.dir_count() {
            let toward = Dir(d as u8);
            let mut c = king;
            let slider = loop {
                match board.step(c, toward) {
                    Some(t) if t != king => {
                        let v = self.squares[t.index()];
                        if v == 0 {
                            c = t;
                            continue;
                        }
                        let away = board.opposite(toward);
                        break self.is_enemy(v, us)
                            && self.rules.armies[seat_of(v)].slides(away, role_of(v));
                    }
                    _ => break false,
                }
            };
            if !slider {
                continue;
            }
            let away = board.opposite(toward);
            let mut c = king;
            while let Some(t) = board.step(c, away) {
                if t == king {
                    break;
                }
                attacks.insert(t);
                if self.squares[t.index()] != 0 {
                    break;
                }
                c = t;
            }
        }
        attacks
    }

    /// Whether `seat`'s king is in check by Shadow Chess's rule: "when an opposing piece is
    /// trained directly on it, or on its shadow": attacked itself, or some enemy piece could
    /// move with its capturing movement onto an empty square the king could step to.
    pub fn shadow_check(&self, seat: Seat) -> bool {
        self.king(seat)
            .is_some_and(|king| self.shadow_check_on(&Plain(&self.squares), king, seat.index()))
    }

    /// The squares a castling king crosses, its destination included (its start left out).
    pub(crate) fn castle_path(&self, m: Move) -> Vec<Cell> {
        let side = self.castle_side_of(m);
        let Some((king_to, _)) = self.castle_targets(m.from, side) else {
            return Vec::new();
        };
        let us = seat_of(self.squares[m.from.index()]);
        let army = &self.rules.armies[us];
        let (Some(k), Some(t)) = (army.line_at(m.from), army.line_at(king_to)) else {
            return vec![king_to];
        };
        let line = &army.home_line;
        if k < t {
            line[k + 1..=t].to_vec()
        } else {
            line[t..k].iter().rev().copied().collect()
        }
    }

    /// Whether a king standing on `cell` instead of where it is would be in check by `test`,
    /// everything else unchanged: the test of a square a castling king crosses.
    pub(crate) fn check_if_king_stood(
        &self,
        seat: Seat,
        cell: Cell,
        test: impl Fn(&Position) -> bool,
    ) -> bool {
        let Some(king) = self.king(seat) else {
            return false;
        };
        let mut p = self.clone();
        let piece = p.piece_at(king);
        p.take(king);
        p.set_piece(cell, piece);
        test(&p)
    }

    /// Plays a move of Shadow Chess known to be legal: the chess move, then its shadow victim
    /// leaves the board (a capture, so the fifty-move count starts again).
    pub fn play_shadow_unchecked(&mut self, sm: ShadowMove) {
        self.play_unchecked(sm.mv);
        if let Some(victim) = sm.victim {
            self.set_piece(victim, None);
            self.halfmoves = 0;
        }
    }

    /// The legal moves of Shadow Chess for the seat to move: ordinary moves and captures, and
    /// shadow captures, none leaving the mover's king in check (directly or on its shadow).
    pub fn shadow_moves(&self) -> Vec<ShadowMove> {
        let us = self.turn as usize;
        let seat = Seat(self.turn);
        let enemy = self.enemy_shadows(seat);
        let pseudo = self.pseudo_legal_moves();
        let mut candidates: Vec<ShadowMove> = Vec::with_capacity(pseudo.len() + 16);
        let mut castles = ArrayVec::<Move, 4>::new();
        let army = &self.rules.armies[us];
        let board = &*army.board;
        // Per square, the enemy pieces (by caster index) whose shadow holds it; a king is
        // never taken by shadow.
        let mut shading = [0u32; MAX_CELLS];
        for (i, (caster, shadow)) in enemy.iter().enumerate() {
            if role_of(self.squares[caster.index()]) != Role::King {
                for c in shadow.iter() {
                    shading[c.index()] |= 1 << i;
                }
            }
        }
        let add_victims = |m: Move, out: &mut Vec<ShadowMove>| {
            let mut victims = shading[m.to.index()] & !shading[m.from.index()];
            while victims != 0 {
                let i = victims.trailing_zeros() as usize;
                victims &= victims - 1;
                out.push(ShadowMove {
                    mv: m,
                    victim: Some(enemy.casters[i]),
                });
            }
        };
        for &m in &pseudo {
            if m.kind == MoveKind::Castle {
                castles.push(m);
                continue;
            }
            candidates.push(ShadowMove::plain(m));
            let pawn = role_of(self.squares[m.from.index()]) == Role::Pawn;
            if !pawn && self.squares[m.to.index()] == 0 {
                add_victims(m, &mut candidates);
            }
        }
        // A pawn's capturing movement is its diagonal step, onto an empty square here.
        if !enemy.all.is_empty() {
            for from in self.by_seat[us].iter() {
                if role_of(self.squares[from.index()]) != Role::Pawn {
                    continue;
                }
                for &d in &army.pawn.captures {
                    let Some(to) = board.step(from, d) else {
                        continue;
                    };
                    if self.squares[to.index()] != 0 || !enemy.all.contains(to) {
                        continue;
                    }
                    if army.pawn.promotes(to, true) {
                        for &role in &self.rules.promotion_roles {
                            let kind = MoveKind::Promotion(role);
                            add_victims(Move { from, to, kind }, &mut candidates);
                        }
                    } else {
                        let kind = MoveKind::Normal;
                        add_victims(Move { from, to, kind }, &mut candidates);
                    }
                }
            }
        }
        let king = self.king(seat);
        // The empty squares (and the king's) attacked with the king lifted off the board: a
        // king stepping to an empty square is safe when neither that square nor any empty
        // square beside it is (it cannot block a line to a neighbour without standing on it).
        let lifted = king.map_or(enemy.attacks, |k| self.attacks_through_king(&enemy, k, us));
        let attacked_without_king = |c: Cell| lifted.contains(c);
        // Whether a square beside the king is attacked once its piece has left, wherever it
        // goes: if not, no move of that piece exposes it (where it lands can only block). A
        // square's own occupant does not change whether it is attacked, and the enemy's reach
        // includes the squares of our pieces it could take.
        let attacked_once_left = |from: Cell| enemy.attacks.contains(from);
        let lines = army.lines_in_use(self.rules.triangles);
        let king_may_stand = |to: Cell| -> bool {
            !attacked_without_king(to)
                && !lines.king.iter().any(|&d| {
                    board.step(to, d).is_some_and(|c| {
                        (Some(c) == king || self.squares[c.index()] == 0)
                            && attacked_without_king(c)
                    })
                })
        };
        // In check now: the king's square or an empty square beside it is attacked. Read with
        // the king lifted, which only differs along a line through the king's own square, and
        // then that square is attacked too.
        let in_check = king.is_some_and(|k| !king_may_stand(k));
        let watch = if in_check {
            None
        } else {
            self.shadow_watch(seat)
        };
        let mut legal: Vec<ShadowMove> = Vec::with_capacity(candidates.len() + castles.len());
        for sm in candidates {
            let m = sm.mv;
            let taken = sm.victim.or_else(|| {
                (m.kind == MoveKind::EnPassant)
                    .then(|| self.en_passant_victim(m, us))
                    .flatten()
            });
            let safe = if taken.is_none() && Some(m.from) == king && self.squares[m.to.index()] == 0
            {
                king_may_stand(m.to)
            } else {
                match &watch {
                    Some(w) if Some(m.from) != king && !w.wrapped => {
                        // Only the square it leaves can join the king's shadow; a shield it
                        // moves, or a piece taken off the board elsewhere, may have blocked a
                        // line to the king's square or its shadow: look along those lines.
                        let exposes_left = w.near.contains(m.from)
                            && attacked_once_left(m.from)
                            && self.leaves_attacked_square(&enemy, m, taken, us);
                        let opens_shielded =
                            w.shields.contains(m.from) && self.opens_line(w, m, m.from, taken, us);
                        let opens_taken = taken.is_some_and(|t| {
                            (w.near.contains(t) || w.exposable().contains(t))
                                && self.opens_line(w, m, t, taken, us)
                        });
                        !(exposes_left || opens_shielded || opens_taken)
                    }
                    _ => self.shadow_safe(sm, seat),
                }
            };
            if safe {
                legal.push(sm);
            }
        }
        if !in_check {
            for m in castles {
                // Each square the king crosses before its last, as if it stood there with the
                // rook not yet moved (a Chess960 king may cross its own rook's square, which a
                // copy of the position answers); the last with the rook beside it.
                let path = self.castle_path(m);
                let crossed = &path[..path.len().saturating_sub(1)];
                let crossing_safe = crossed.iter().all(|&c| {
                    if self.squares[c.index()] == 0 {
                        king_may_stand(c)
                    } else {
                        !self.check_if_king_stood(seat, c, |p| p.shadow_check(seat))
                    }
                });
                if crossing_safe && self.castle_safe(m, &lifted, seat) {
                    legal.push(ShadowMove::plain(m));
                }
            }
        }
        legal
    }

    /// Whether a move leaves `seat`'s king out of shadow check, read through a patch of the
    /// board (castling, which moves two pieces, is played on a copy).
    fn shadow_safe(&self, sm: ShadowMove, seat: Seat) -> bool {
        let m = sm.mv;
        let us = seat.index();
        if m.kind == MoveKind::Castle {
            let Some((king_to, rook_to)) = self.castle_targets(m.from, self.castle_side_of(m))
            else {
                return false;
            };
            let patch = Patch {
                squares: &self.squares,
                vacated: [m.from.0, m.to.0],
                filled: [
                    (king_to.0, self.squares[m.from.index()]),
                    (rook_to.0, self.squares[m.to.index()]),
                ],
            };
            return !self.shadow_check_on(&patch, king_to, us);
        }
        let moving = self.squares[m.from.index()];
        let placed = match m.kind {
            MoveKind::Promotion(r) => super::pack(us as u8, r),
            MoveKind::PromotionFor(r, army) => super::pack(army.0, r),
            _ => moving,
        };
        let taken = sm
            .victim
            .or_else(|| self.en_passant_victim(m, us))
            .map_or(super::NO_CELL, |c| c.0);
        let patch = Patch {
            squares: &self.squares,
            vacated: [m.from.0, taken],
            filled: [(m.to.0, placed), (super::NO_CELL, 0)],
        };
        let king = if role_of(moving) == Role::King {
            m.to
        } else {
            match self.king(seat) {
                Some(k) => k,
                None => return true,
            }
        };
        !self.shadow_check_on(&patch, king, us)
    }

    /// Shadow check of the king on `king`, the board read through `occ` (the position itself,
    /// or a move patched in).
    fn shadow_check_on<O: Occupancy>(&self, occ: &O, king: Cell, us: usize) -> bool {
        if self.attacked(occ, king, us) {
            return true;
        }
        let army = &self.rules.armies[us];
        let board = &*army.board;
        let lines = army.lines_in_use(self.rules.triangles);
        lines.king.iter().any(|&d| {
            board
                .step(king, d)
                .is_some_and(|c| occ.get(c) == 0 && self.attacked(occ, c, us))
        })
    }

    /// What a move must touch to put `seat`'s king in check when it is not in check now: the
    /// king's square and its neighbours (its shadow and the pieces beside it), and the pieces
    /// that alone shield the king or an empty square of its shadow from an enemy slider (moving
    /// one may open the line). `None` on tri-boards, where every move is tested.
    fn shadow_watch(&self, seat: Seat) -> Option<Watch<'_>> {
        if self.rules.triangles {
            return None;
        }
        let us = seat.index();
        let king = self.king(seat)?;
        let army = &self.rules.armies[us];
        let board = &*army.board;
        let lines = army.lines_in_use(self.rules.triangles);
        let mut shields = self.pin_candidates(king, us);
        let mut near = CellSet::EMPTY;
        near.insert(king);
        for &d in lines.king {
            if let Some(c) = board.step(king, d) {
                near.insert(c);
                if self.squares[c.index()] == 0 {
                    shields = shields | self.pin_candidates(c, us);
                }
            }
        }
        let wrapped = board.wrap() != crate::board::Wrap::None;
        let around = near.iter().map(|c| (c, board.coord(c))).collect();
        Some(Watch {
            shields,
            near,
            around,
            king_at: board.coord(king),
            wrapped,
            exposable: OnceCell::new(),
            position: self,
            king,
            us,
        })
    }

    /// The pieces whose removal, together with at most one other, could open a line from an
    /// enemy slider to a square beside `us`'s king or the king's own (the 3x3 box around
    /// `king`): walking each enemy slider's lines that lead into the box, the pieces met
    /// before it when there are at most two of them. Plain square boards only, where a rook
    /// slides straight, a bishop diagonally and a queen both (as [`Self::attacked_along`]
    /// reads them).
    fn exposable_from(&self, king: Cell, us: usize) -> CellSet {
        let board = self.board();
        let (kf, kr) = board.coord(king);
        let mut exposable = CellSet::EMPTY;
        // The steps t >= 1 at which a ray from s by v is inside the box, in one coordinate.
        let within = |s: i16, v: i16, k: i16| -> (i16, i16) {
            match v {
                0 if (s - k).abs() <= 1 => (1, i16::MAX),
                0 => (1, 0),
                _ => {
                    let (a, b) = ((k - 1 - s) * v, (k + 1 - s) * v);
                    (a.min(b), a.max(b))
                }
            }
        };
        for &e in &self.rules.enemies[us] {
            for s in self.by_seat[e].iter() {
                let (straight, diagonal) = match role_of(self.squares[s.index()]) {
                    Role::Queen => (true, true),
                    Role::Rook => (true, false),
                    Role::Bishop => (false, true),
                    _ => continue,
                };
                let (sf, sr) = board.coord(s);
                for (vf, vr) in crate::board::COMPASS.map(|(f, r)| (f as i16, r as i16)) {
                    if !(if vf == 0 || vr == 0 {
                        straight
                    } else {
                        diagonal
                    }) {
                        continue;
                    }
                    let (f_lo, f_hi) = within(sf, vf, kf);
                    let (r_lo, r_hi) = within(sr, vr, kr);
                    let enter = f_lo.max(r_lo).max(1);
                    if enter > f_hi.min(r_hi) {
                        continue;
                    }
                    let mut met: ArrayVec<Cell, 2> = ArrayVec::new();
                    let mut overfull = false;
                    for t in 1..enter {
                        let at = board.at((sf + t * vf) as i32, (sr + t * vr) as i32);
                        let Some(c) = at else { break };
                        if self.squares[c.index()] != 0 && met.try_push(c).is_err() {
                            overfull = true;
                            break;
                        }
                    }
                    if !overfull {
                        for &m in &met {
                            exposable.insert(m);
                        }
                    }
                }
            }
        }
        exposable
    }

    /// Whether emptying `opened` (the square move `m` leaves, or the square of the piece it
    /// takes, `taken`) lets an enemy slider attack the king's square or an empty square of its
    /// shadow: only squares in line with it can be reached through it, and none of them was
    /// attacked before (the king is not in check).
    fn opens_line(&self, w: &Watch, m: Move, opened: Cell, taken: Option<Cell>, us: usize) -> bool {
        let board = self.board();
        let patch = Patch {
            squares: &self.squares,
            vacated: [m.from.0, taken.map_or(super::NO_CELL, |t| t.0)],
            filled: [(m.to.0, self.squares[m.from.index()]), (super::NO_CELL, 0)],
        };
        if w.out_of_line(board, opened) {
            return false;
        }
        let (tf, tr) = board.coord(opened);
        let king = self.kings[us];
        w.around.iter().any(|&(x, (xf, xr))| {
            let (df, dr) = (tf - xf, tr - xr);
            let straight = df == 0 || dr == 0;
            if !(straight || df.abs() == dr.abs()) || (x.0 != king && patch.get(x) != 0) {
                return false;
            }
            if x == opened {
                // The piece stood beside the king: its square joins the shadow (the square a
                // move leaves is tested by the caller).
                return opened != m.from && self.attacked(&patch, x, us);
            }
            // Nothing else changed for x but this line (it was not attacked before): look along
            // it, through the taken piece's square, for the first piece.
            self.attacked_along(&patch, (xf, xr), (df, dr), us)
        })
    }

    /// Whether the first piece out from the square at `from` along the line of `(df, dr)` (a
    /// straight or diagonal offset to a square in line) is an enemy of `us` that attacks back
    /// along it, the board read through `occ`. Plain square boards only.
    fn attacked_along<O: Occupancy>(
        &self,
        occ: &O,
        (xf, xr): (i16, i16),
        (df, dr): (i16, i16),
        us: usize,
    ) -> bool {
        let board = self.board();
        let straight = df == 0 || dr == 0;
        let (sf, sr) = (df.signum() as i32, dr.signum() as i32);
        let (mut f, mut r) = (xf as i32 + sf, xr as i32 + sr);
        let mut first = true;
        while let Some(c) = board.at(f, r) {
            let v = occ.get(c);
            if v != 0 {
                if !self.is_enemy(v, us) {
                    return false;
                }
                return match role_of(v) {
                    Role::Queen => true,
                    Role::Rook => straight,
                    Role::Bishop => !straight,
                    Role::King => first,
                    _ => false,
                };
            }
            first = false;
            f += sf;
            r += sr;
        }
        false
    }

    /// Whether castling `m` leaves `us`'s king out of shadow check, given `lifted`, the enemy's
    /// attacks with the king lifted off the board: the patched board differs from that one
    /// only by the rook, which can block a line where it lands (then the square is tested in
    /// full) and open one where it stood (looked along from each square in line with it).
    fn castle_safe(&self, m: Move, lifted: &CellSet, seat: Seat) -> bool {
        let board = self.board();
        if self.rules.triangles || board.wrap() != crate::board::Wrap::None {
            return self.shadow_safe(ShadowMove::plain(m), seat);
        }
        let us = seat.index();
        let Some((king_to, rook_to)) = self.castle_targets(m.from, self.castle_side_of(m)) else {
            return false;
        };
        let rook_from = m.to;
        let patch = Patch {
            squares: &self.squares,
            vacated: [m.from.0, rook_from.0],
            filled: [
                (king_to.0, self.squares[m.from.index()]),
                (rook_to.0, self.squares[rook_from.index()]),
            ],
        };
        let (rf, rr) = board.coord(rook_from);
        let attacked = |x: Cell| {
            if lifted.contains(x) {
                return self.attacked(&patch, x, us);
            }
            let (xf, xr) = board.coord(x);
            let (df, dr) = (rf - xf, rr - xr);
            x != rook_from
                && (df == 0 || dr == 0 || df.abs() == dr.abs())
                && self.attacked_along(&patch, (xf, xr), (df, dr), us)
        };
        let army = &self.rules.armies[us];
        let lines = army.lines_in_use(false);
        !attacked(king_to)
            && !lines.king.iter().any(|&d| {
                board
                    .step(king_to, d)
                    .is_some_and(|c| patch.get(c) == 0 && attacked(c))
            })
    }

    /// Whether the square a piece leaves beside its king is attacked once it has left (the
    /// move's landing square may block a line to it, or take the attacker), given `enemy`'s
    /// reach. Unless the move also takes a piece in line with that square (which may open a
    /// line to it), the square's attackers are the enemy pieces reaching it now, less those
    /// taken or blocked. Plain square boards only.
    fn leaves_attacked_square(
        &self,
        enemy: &Shadows,
        m: Move,
        taken: Option<Cell>,
        us: usize,
    ) -> bool {
        let board = self.board();
        let at = |c: Cell| board.coord(c);
        let in_line = |(af, ar): (i16, i16), (bf, br): (i16, i16)| {
            let (df, dr) = (bf - af, br - ar);
            df == 0 || dr == 0 || df.abs() == dr.abs()
        };
        let (from, to) = (at(m.from), at(m.to));
        if taken.is_some_and(|t| in_line(at(t), from)) {
            let patch = Patch {
                squares: &self.squares,
                vacated: [m.from.0, taken.map_or(super::NO_CELL, |t| t.0)],
                filled: [(m.to.0, self.squares[m.from.index()]), (super::NO_CELL, 0)],
            };
            return self.attacked(&patch, m.from, us);
        }
        enemy.iter_reach().any(|(attacker, reach)| {
            if !reach.contains(m.from) || attacker == m.to || Some(attacker) == taken {
                return false;
            }
            let slides = matches!(
                role_of(self.squares[attacker.index()]),
                Role::Queen | Role::Rook | Role::Bishop
            );
            // Blocked: the landing square lies on the line strictly between them.
            let a = at(attacker);
            let blocked = slides && in_line(a, to) && in_line(to, from) && {
                let (lo_f, hi_f) = (a.0.min(from.0), a.0.max(from.0));
                let (lo_r, hi_r) = (a.1.min(from.1), a.1.max(from.1));
                let between = (lo_f..=hi_f).contains(&to.0) && (lo_r..=hi_r).contains(&to.1);
                let (d1f, d1r) = (to.0 - a.0, to.1 - a.1);
                let (d2f, d2r) = (from.0 - a.0, from.1 - a.1);
                between && d1f * d2r == d1r * d2f
            };
            !blocked
        })
    }
}

impl Watch<'_> {
    /// See [`Position::exposable_from`].
    fn exposable(&self) -> CellSet {
        *self
            .exposable
            .get_or_init(|| self.position.exposable_from(self.king, self.us))
    }

    /// Whether `cell` is in line with none of the nine squares around the king (a quick test:
    /// it may say no for some cells that are not).
    fn out_of_line(&self, board: &crate::board::Board, cell: Cell) -> bool {
        let (f, r) = board.coord(cell);
        let (kf, kr) = self.king_at;
        let (af, ar) = ((f - kf).abs(), (r - kr).abs());
        af > 1 && ar > 1 && (af - ar).abs() > 2
    }
}

/// See [`Position::shadow_watch`].
struct Watch<'a> {
    shields: CellSet,
    near: CellSet,
    /// The same squares with their coordinates, and the king's.
    around: ArrayVec<(Cell, (i16, i16)), 9>,
    king_at: (i16, i16),
    /// Whether lines bend round the board (a cylinder): then everything is in line.
    wrapped: bool,
    /// [`Position::exposable_from`] the squares around the king, worked out when a move first
    /// takes a piece somewhere (most positions have few such moves to test).
    exposable: OnceCell<CellSet>,
    position: &'a Position,
    king: Cell,
    us: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Rules;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, Rules::chess()).unwrap()
    }

    fn labels(pos: &Position, set: &CellSet) -> Vec<String> {
        let mut v: Vec<String> = set.iter().map(|c| pos.board().label(c).into()).collect();
        v.sort();
        v
    }

    #[test]
    fn at_the_start_half_the_pawns_cast_two_squares_and_half_one() {
        let p = Position::startpos();
        let shadows = p.shadows(Seat::WHITE);
        let mut two = Vec::new();
        for file in "abcdefgh".chars() {
            let pawn = p.board().cell(&format!("{file}2")).unwrap();
            if shadows.of(pawn).unwrap().len() == 2 {
                two.push(file);
            }
        }
        assert_eq!(two, ['b', 'd', 'e', 'g']);
        let b1 = p.board().cell("b1").unwrap();
        assert_eq!(labels(&p, shadows.of(b1).unwrap()), ["a3", "c3"]);
    }

    #[test]
    fn a_shadow_ends_where_it_meets_another_of_its_side() {
        // Figure 24, White's bishop on g4: its shadow toward c8 ends on e6, where the knight's
        // shadow crosses it, so d7 is not in it.
        let p = pos("2b4k/8/8/2N5/4P1B1/8/8/4K3 w - - 0 1");
        let g4 = p.board().cell("g4").unwrap();
        let shadows = p.shadows(Seat::WHITE);
        let bishop = labels(&p, shadows.of(g4).unwrap());
        assert!(bishop.contains(&"e6".to_string()), "{bishop:?}");
        assert!(!bishop.contains(&"d7".to_string()), "{bishop:?}");
    }
}
