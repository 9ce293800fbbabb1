//! Four two-player chess variants against a plain reference written from their rules alone:
//! chess on a cylinder, Shadow Chess (flat and on the cylinder), Half Alice Chess (12 and 16
//! checkers) and Adrenaline Chess.
//!
//! The reference is deliberately naive: an 8x8 mailbox of (file, rank) squares, moves generated
//! piece by piece as the rules describe them, and every question of legality answered by playing
//! the action on a copy and asking whether the king is then in check in the variant's sense. It
//! shares nothing with the engine's move generation; it only reads the positions the engine
//! saves (`game.save`), so a mistake would have to be made twice, the same way, to go unnoticed.
//!
//! Two comparisons for each game:
//!
//! - perft from the start, depth 1 to 3: the same count of action sequences; on a difference the
//!   line of actions (through the engine's `divide`) down to the first position whose actions
//!   differ, with both lists of actions there;
//! - random games: in every position the reference must find as many legal actions as the
//!   engine (`perft` 1), and the engine must ask the side the reference expects to act; on a
//!   difference the saved game and both lists of actions.
//!
//! The rules each reference implements are written at its module, readings of the books
//! included. One reading is a switch, set as the engine reads the book:
//! `shadow::CHECK_FROM_WITHIN_THE_SHADOW` (whether a piece standing next to the king, on its
//! shadow, checks by covering another square of that shadow).

use engine::game::{AnyGame, AnyState, Options};
use engine::registry;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use chess::{bit, square, Position};

// ---- the board and ordinary chess -----------------------------------------------------------

/// The board, the pieces and ordinary chess moves, shared by the four references: FIDE moves,
/// castling (king to the g- or c-file, rook beside it on the f- or d-file), en passant and
/// promotion to queen, rook, bishop or knight; on a cylinder the a- and h-files are neighbours.
mod chess {
    use serde_json::Value;

    /// A square as (file, rank), both counted from 0: a1 is (0, 0), h8 is (7, 7).
    pub type Sq = (i32, i32);

    pub fn square(label: &str) -> Sq {
        let b = label.as_bytes();
        assert!(
            b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]),
            "'{label}' is not a square of an 8x8 board"
        );
        (i32::from(b[0] - b'a'), i32::from(b[1] - b'1'))
    }

    pub fn label((file, rank): Sq) -> String {
        format!("{}{}", (b'a' + file as u8) as char, rank + 1)
    }

    /// A square as one bit of a set of squares.
    pub fn bit((file, rank): Sq) -> u64 {
        1u64 << (rank * 8 + file)
    }

    pub fn all_squares() -> impl Iterator<Item = Sq> {
        (0..8).flat_map(|rank| (0..8).map(move |file| (file, rank)))
    }

    /// The square one step `d` from `from`, if there is one. On a cylinder (`wrap`) a step off
    /// the a- or h-file comes back on the other side; ranks never wrap.
    pub fn step((file, rank): Sq, (df, dr): Sq, wrap: bool) -> Option<Sq> {
        let (file, rank) = (file + df, rank + dr);
        if !(0..8).contains(&rank) {
            None
        } else if wrap {
            Some((file.rem_euclid(8), rank))
        } else if (0..8).contains(&file) {
            Some((file, rank))
        } else {
            None
        }
    }

    pub const ORTHOGONAL: [Sq; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    pub const DIAGONAL: [Sq; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    pub const EIGHT_WAYS: [Sq; 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    pub const KNIGHT: [Sq; 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum Role {
        King,
        Queen,
        Rook,
        Bishop,
        Knight,
        Pawn,
    }

    /// What a pawn may become on its last rank, each choice a separate action.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    impl Role {
        pub fn letter(self) -> char {
            match self {
                Role::King => 'K',
                Role::Queen => 'Q',
                Role::Rook => 'R',
                Role::Bishop => 'B',
                Role::Knight => 'N',
                Role::Pawn => 'P',
            }
        }

        pub fn from_letter(letter: char) -> Role {
            match letter {
                'K' => Role::King,
                'Q' => Role::Queen,
                'R' => Role::Rook,
                'B' => Role::Bishop,
                'N' => Role::Knight,
                'P' => Role::Pawn,
                other => panic!("'{other}' is not a piece letter"),
            }
        }

        /// The directions a piece other than a pawn moves in, and whether it slides along them.
        pub fn lines(self) -> (&'static [Sq], bool) {
            match self {
                Role::King => (&EIGHT_WAYS, false),
                Role::Queen => (&EIGHT_WAYS, true),
                Role::Rook => (&ORTHOGONAL, true),
                Role::Bishop => (&DIAGONAL, true),
                Role::Knight => (&KNIGHT, false),
                Role::Pawn => unreachable!("a pawn's moves depend on its side"),
            }
        }
    }

    /// A piece: side 0 is White, side 1 Black.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct Piece {
        pub side: usize,
        pub role: Role,
    }

    /// The way a side's pawns go along the ranks.
    pub fn forward(side: usize) -> i32 {
        if side == 0 {
            1
        } else {
            -1
        }
    }

    /// The rank a side's king and rooks start on.
    pub fn home_rank(side: usize) -> i32 {
        if side == 0 {
            0
        } else {
            7
        }
    }

    /// The rank a side's pawns start on (and step two squares from).
    pub fn pawn_rank(side: usize) -> i32 {
        if side == 0 {
            1
        } else {
            6
        }
    }

    /// The rank a side's pawns promote on.
    pub fn last_rank(side: usize) -> i32 {
        7 - home_rank(side)
    }

    /// A pawn of `army` that has just stepped two squares over `skipped`; the sides with a bit
    /// in `waiting` may take it en passant.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct EnPassant {
        pub pawn: Sq,
        pub skipped: Sq,
        pub army: usize,
        pub waiting: u8,
    }

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum Kind {
        Plain,
        /// A pawn's two-square step.
        Double,
        /// Taking en passant the pawn on this square.
        EnPassant(Sq),
        /// The king goes to `to`, the rook from `rook` to `rook_to`.
        Castle {
            rook: Sq,
            rook_to: Sq,
        },
        Promotion(Role),
    }

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct Move {
        pub from: Sq,
        pub to: Sq,
        pub kind: Kind,
    }

    impl Move {
        /// The move for a human: `Ng1-f3`, `e4xd5`, `e7-e8=Q`, `e5xd6 e.p.`, `O-O`.
        pub fn text(&self, pos: &Position) -> String {
            if let Kind::Castle { .. } = self.kind {
                let side = if self.to.0 == 6 { "O-O" } else { "O-O-O" };
                return side.to_string();
            }
            let piece = pos.at(self.from).expect("a piece to move");
            let letter = match piece.role {
                Role::Pawn => String::new(),
                role => role.letter().to_string(),
            };
            let takes = pos.at(self.to).is_some() || matches!(self.kind, Kind::EnPassant(_));
            let mut text = format!(
                "{letter}{}{}{}",
                label(self.from),
                if takes { 'x' } else { '-' },
                label(self.to)
            );
            if let Kind::Promotion(role) = self.kind {
                text.push('=');
                text.push(role.letter());
            }
            if let Kind::EnPassant(_) = self.kind {
                text.push_str(" e.p.");
            }
            text
        }
    }

    /// A chess position as the engine stores it, read field by field.
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct Position {
        /// By file, then rank.
        pub board: [[Option<Piece>; 8]; 8],
        /// The squares of the rooks that keep a castling right.
        pub castling: u64,
        pub en_passant: Option<EnPassant>,
        /// The side whose chess move is next.
        pub turn: usize,
        /// Whether the a- and h-files touch.
        pub wrap: bool,
    }

    impl Position {
        pub fn empty(wrap: bool) -> Position {
            Position {
                board: [[None; 8]; 8],
                castling: 0,
                en_passant: None,
                turn: 0,
                wrap,
            }
        }

        /// The usual array, White to move, every castling right.
        pub fn start(wrap: bool) -> Position {
            let mut pos = Position::empty(wrap);
            let back = [
                Role::Rook,
                Role::Knight,
                Role::Bishop,
                Role::Queen,
                Role::King,
                Role::Bishop,
                Role::Knight,
                Role::Rook,
            ];
            for side in 0..2 {
                for (file, role) in (0..8).zip(back) {
                    pos.put((file, home_rank(side)), Some(Piece { side, role }));
                    let pawn = Piece {
                        side,
                        role: Role::Pawn,
                    };
                    pos.put((file, pawn_rank(side)), Some(pawn));
                }
            }
            for rook in ["a1", "h1", "a8", "h8"] {
                pos.castling |= bit(square(rook));
            }
            pos
        }

        /// The `position` field of a saved game: `armies` (White's pieces, then Black's, as
        /// `Ke1 Pe2`), `castling` (rooks keeping the right), `en_passant` and `turn`.
        pub fn read(p: &Value, wrap: bool) -> Position {
            let mut pos = Position::empty(wrap);
            let armies = p["armies"].as_array().expect("the armies");
            assert_eq!(armies.len(), 2, "two armies: {p}");
            for (side, line) in armies.iter().enumerate() {
                for word in line.as_str().expect("a line of pieces").split_whitespace() {
                    let role = Role::from_letter(word.chars().next().unwrap());
                    pos.put(square(&word[1..]), Some(Piece { side, role }));
                }
            }
            for rook in p["castling"].as_array().into_iter().flatten() {
                pos.castling |= bit(square(rook.as_str().expect("a square")));
            }
            let chances: Vec<&Value> = p["en_passant"].as_array().into_iter().flatten().collect();
            assert!(
                chances.len() <= 1,
                "two sides leave at most one chance to take en passant: {p}"
            );
            pos.en_passant = chances.first().map(|e| EnPassant {
                pawn: square(e["pawn"].as_str().expect("the pawn's square")),
                skipped: square(e["skipped"][0].as_str().expect("the skipped square")),
                army: e["army"].as_u64().expect("the pawn's army") as usize,
                waiting: e["waiting"].as_u64().expect("who may take it") as u8,
            });
            pos.turn = p["turn"].as_u64().expect("whose turn") as usize;
            pos
        }

        pub fn at(&self, (file, rank): Sq) -> Option<Piece> {
            self.board[file as usize][rank as usize]
        }

        pub fn put(&mut self, (file, rank): Sq, piece: Option<Piece>) {
            self.board[file as usize][rank as usize] = piece;
        }

        pub fn pieces(&self, side: usize) -> Vec<(Sq, Piece)> {
            all_squares()
                .filter_map(|s| self.at(s).filter(|p| p.side == side).map(|p| (s, p)))
                .collect()
        }

        pub fn king(&self, side: usize) -> Option<Sq> {
            let king = Piece {
                side,
                role: Role::King,
            };
            all_squares().find(|&s| self.at(s) == Some(king))
        }

        pub fn occupied(&self) -> u64 {
            all_squares()
                .filter(|&s| self.at(s).is_some())
                .fold(0, |set, s| set | bit(s))
        }

        /// The same position with only the pieces on squares `keep` accepts.
        pub fn only(&self, keep: impl Fn(Sq) -> bool) -> Position {
            let mut view = *self;
            for s in all_squares() {
                if !keep(s) {
                    view.put(s, None);
                }
            }
            view
        }

        /// The same position with `side`'s king lifted and put down on `to`: the test of a
        /// square a castling king crosses.
        pub fn with_king_on(&self, side: usize, to: Sq) -> Position {
            let mut pos = *self;
            let from = self.king(side).expect("a castling king");
            pos.put(from, None);
            pos.put(
                to,
                Some(Piece {
                    side,
                    role: Role::King,
                }),
            );
            pos
        }

        /// The squares from `from` (not included) in direction `d` up to the first piece
        /// (included) or the edge; round a cylinder, up to the square before `from` again.
        pub fn ray(&self, from: Sq, d: Sq) -> Vec<Sq> {
            let mut out = Vec::new();
            let mut at = from;
            while let Some(next) = step(at, d, self.wrap) {
                if next == from {
                    break;
                }
                out.push(next);
                if self.at(next).is_some() {
                    break;
                }
                at = next;
            }
            out
        }

        /// The squares the piece on `from` could capture on, were an enemy there: a pawn's two
        /// diagonals ahead, a knight's leaps, a king's steps, a slider's lines up to and
        /// including the first piece.
        pub fn attacks_from(&self, from: Sq) -> u64 {
            let piece = self.at(from).expect("a piece attacks");
            let mut set = 0;
            if piece.role == Role::Pawn {
                for df in [-1, 1] {
                    if let Some(to) = step(from, (df, forward(piece.side)), self.wrap) {
                        set |= bit(to);
                    }
                }
                return set;
            }
            let (lines, slides) = piece.role.lines();
            for &d in lines {
                if slides {
                    for to in self.ray(from, d) {
                        set |= bit(to);
                    }
                } else if let Some(to) = step(from, d, self.wrap) {
                    set |= bit(to);
                }
            }
            set
        }

        /// Whether a piece of `side` attacks `target` in the ordinary way.
        pub fn attacked_by(&self, target: Sq, side: usize) -> bool {
            self.pieces(side)
                .iter()
                .any(|&(from, _)| self.attacks_from(from) & bit(target) != 0)
        }

        /// Ordinary check: `side`'s king attacked by an enemy piece.
        pub fn in_check(&self, side: usize) -> bool {
            self.king(side)
                .is_some_and(|king| self.attacked_by(king, 1 - side))
        }

        /// Every chess move of `side` but castling, whether or not it leaves its king in check.
        /// One move per (from, to, promotion): round a cylinder a slider may reach a square both
        /// ways, still one move.
        pub fn pseudo_moves(&self, side: usize) -> Vec<Move> {
            let mut out = Vec::new();
            for (from, piece) in self.pieces(side) {
                if piece.role == Role::Pawn {
                    self.pawn_moves(from, side, &mut out);
                    continue;
                }
                let (lines, slides) = piece.role.lines();
                for &d in lines {
                    let targets: Vec<Sq> = if slides {
                        self.ray(from, d)
                    } else {
                        step(from, d, self.wrap).into_iter().collect()
                    };
                    for to in targets {
                        if self.at(to).is_none_or(|p| p.side != side) {
                            out.push(Move {
                                from,
                                to,
                                kind: Kind::Plain,
                            });
                        }
                    }
                }
            }
            if self.wrap {
                let mut unique: Vec<Move> = Vec::with_capacity(out.len());
                for m in out {
                    if !unique.contains(&m) {
                        unique.push(m);
                    }
                }
                out = unique;
            }
            out
        }

        fn pawn_moves(&self, from: Sq, side: usize, out: &mut Vec<Move>) {
            let ahead = forward(side);
            let empty = |s: &Sq| self.at(*s).is_none();
            let mut targets: Vec<(Sq, Kind)> = Vec::new();
            if let Some(one) = step(from, (0, ahead), self.wrap).filter(empty) {
                targets.push((one, Kind::Plain));
                let two = step(one, (0, ahead), self.wrap).filter(empty);
                if let Some(two) = two.filter(|_| from.1 == pawn_rank(side)) {
                    targets.push((two, Kind::Double));
                }
            }
            for df in [-1, 1] {
                let Some(to) = step(from, (df, ahead), self.wrap) else {
                    continue;
                };
                match self.at(to) {
                    Some(p) if p.side != side => targets.push((to, Kind::Plain)),
                    Some(_) => {}
                    None => {
                        let victim = Some(Piece {
                            side: 1 - side,
                            role: Role::Pawn,
                        });
                        let open = self.en_passant.filter(|e| {
                            e.army != side
                                && e.waiting & (1 << side) != 0
                                && e.skipped == to
                                && self.at(e.pawn) == victim
                        });
                        if let Some(e) = open {
                            targets.push((to, Kind::EnPassant(e.pawn)));
                        }
                    }
                }
            }
            for (to, kind) in targets {
                if to.1 == last_rank(side) {
                    out.extend(PROMOTIONS.map(|role| Move {
                        from,
                        to,
                        kind: Kind::Promotion(role),
                    }));
                } else {
                    out.push(Move { from, to, kind });
                }
            }
        }

        /// `side`'s castling moves as far as the board goes: the king on its home square, a
        /// rook keeping its right on its corner, the squares between them empty. Each comes
        /// with the two squares the king crosses (its destination the second); whether the king
        /// is in check, or would be on those squares, is the variant's to judge.
        pub fn castlings(&self, side: usize) -> Vec<(Move, [Sq; 2])> {
            let home = home_rank(side);
            let king = (4, home);
            let mut out = Vec::new();
            let own = |role: Role| Some(Piece { side, role });
            if self.at(king) != own(Role::King) {
                return out;
            }
            // The rook's file, the king's destination file, the rook's destination file.
            let wings: [(i32, i32, i32); 2] = [(7, 6, 5), (0, 2, 3)];
            for (rook_file, king_to, rook_to) in wings {
                let rook = (rook_file, home);
                if self.castling & bit(rook) == 0 || self.at(rook) != own(Role::Rook) {
                    continue;
                }
                let (low, high) = (rook_file.min(4) + 1, rook_file.max(4));
                if (low..high).any(|file| self.at((file, home)).is_some()) {
                    continue;
                }
                let m = Move {
                    from: king,
                    to: (king_to, home),
                    kind: Kind::Castle {
                        rook,
                        rook_to: (rook_to, home),
                    },
                };
                out.push((m, [((4 + king_to) / 2, home), (king_to, home)]));
            }
            out
        }

        /// The position after `m`, and the square of the piece it took (if any). Castling
        /// rights go with a king that moves and with anything leaving or landing on a rook's
        /// corner; a two-square step opens en passant to the other side, any other move closes
        /// what was open; the turn passes.
        pub fn apply(&self, m: &Move) -> (Position, Option<Sq>) {
            let mut after = *self;
            let piece = self.at(m.from).expect("a piece to move");
            let side = piece.side;
            let mut taken = self.at(m.to).map(|_| m.to);
            let mut placed = piece;
            after.put(m.from, None);
            match m.kind {
                Kind::EnPassant(pawn) => {
                    after.put(pawn, None);
                    taken = Some(pawn);
                }
                Kind::Castle { rook, rook_to } => {
                    after.put(rook, None);
                    after.put(
                        rook_to,
                        Some(Piece {
                            side,
                            role: Role::Rook,
                        }),
                    );
                }
                Kind::Promotion(role) => placed = Piece { side, role },
                Kind::Plain | Kind::Double => {}
            }
            after.put(m.to, Some(placed));
            after.touch(piece, m.from, m.to);
            if let Some(t) = taken {
                after.castling &= !bit(t);
            }
            after.en_passant = match m.kind {
                Kind::Double => Some(EnPassant {
                    pawn: m.to,
                    skipped: (m.from.0, m.from.1 + forward(side)),
                    army: side,
                    waiting: 1 << (1 - side),
                }),
                _ => None,
            };
            after.turn = 1 - side;
            (after, taken)
        }

        /// What a piece moving from `from` to `to` does to the castling rights.
        pub fn touch(&mut self, piece: Piece, from: Sq, to: Sq) {
            if piece.role == Role::King {
                self.castling &= !(0xFFu64 << (8 * home_rank(piece.side)));
            }
            self.castling &= !(bit(from) | bit(to));
        }
    }
}

// ---- Shadow Chess, and chess on a cylinder ---------------------------------------------------

/// Shadow Chess (Will Adams), and with `shadows` off plain chess (both also on a cylinder).
///
/// - The raw reach of a piece: the squares its ordinary moves could go to, empty or held by an
///   enemy (a pawn: its steps ahead onto empty squares, its diagonals only onto enemies);
///   castling and en passant are no part of it.
/// - Its shadow: its reach ray by ray from the piece outward (a leap, a king's step or a pawn's
///   diagonal a ray of one square, a pawn's steps ahead one ray), each ray ending on (and
///   including) the first square another piece of the same side also reaches.
/// - Besides ordinary moves, a shadow capture: a piece moves with a capturing movement (any move
///   but castling of a piece other than a pawn; a pawn's diagonal step) onto an empty square in
///   an enemy's shadow, from a square outside that shadow, and the enemy leaves the board. One
///   action per victim (and per promotion); never the king. Shadows are those before the move.
/// - Check: the king attacked in the ordinary way, or an enemy piece standing outside the king's
///   shadow (its reach) could move with its capturing movement onto an empty square of it. No
///   move may leave one's own king so; a king may not castle out of check, nor across or onto a
///   square where it would be in check (tried with the king standing there).
mod shadow {
    use super::chess::*;

    /// Whether an enemy piece standing on the king's own shadow (next to it, where the king
    /// could take it) also checks by covering an empty square of that shadow. The book: a king
    /// is in check when an opposing piece is "trained directly on it, or on its shadow", with
    /// no word of where the piece stands, and its Figure 25 ends in mate by a rook that takes
    /// the interposed rook beside the king; so yes. (`false` would be the other reading: check
    /// only as a capturing movement into the shadow from outside it, as a shadow capture.)
    pub const CHECK_FROM_WITHIN_THE_SHADOW: bool = true;

    #[derive(Clone, Copy, Debug)]
    pub struct State {
        pub pos: Position,
        /// Shadow Chess, or plain chess.
        pub shadows: bool,
    }

    /// The raw reach of the piece on `from`, ray by ray from the piece outward.
    fn reach_rays(pos: &Position, from: Sq) -> Vec<Vec<Sq>> {
        let piece = pos.at(from).expect("a piece casts the shadow");
        let side = piece.side;
        let mut rays = Vec::new();
        if piece.role == Role::Pawn {
            let ahead = (0, forward(side));
            if let Some(one) = step(from, ahead, pos.wrap).filter(|&s| pos.at(s).is_none()) {
                let mut ray = vec![one];
                let two = step(one, ahead, pos.wrap).filter(|&s| pos.at(s).is_none());
                if let Some(two) = two.filter(|_| from.1 == pawn_rank(side)) {
                    ray.push(two);
                }
                rays.push(ray);
            }
            for df in [-1, 1] {
                if let Some(to) = step(from, (df, forward(side)), pos.wrap) {
                    if pos.at(to).is_some_and(|p| p.side != side) {
                        rays.push(vec![to]);
                    }
                }
            }
            return rays;
        }
        let (lines, slides) = piece.role.lines();
        for &d in lines {
            let ray: Vec<Sq> = if slides {
                pos.ray(from, d)
            } else {
                step(from, d, pos.wrap).into_iter().collect()
            };
            // Only a ray's last square can hold a piece: an enemy stays, an own piece goes.
            let ray: Vec<Sq> = ray
                .into_iter()
                .filter(|&s| pos.at(s).is_none_or(|p| p.side != side))
                .collect();
            if !ray.is_empty() {
                rays.push(ray);
            }
        }
        rays
    }

    /// The shadow of each piece of `side`, by square.
    pub fn shadows(pos: &Position, side: usize) -> Vec<(Sq, u64)> {
        let casters: Vec<(Sq, Vec<Vec<Sq>>)> = pos
            .pieces(side)
            .into_iter()
            .map(|(s, _)| (s, reach_rays(pos, s)))
            .collect();
        let reach: Vec<u64> = casters
            .iter()
            .map(|(_, rays)| rays.iter().flatten().fold(0, |set, &s| set | bit(s)))
            .collect();
        casters
            .iter()
            .enumerate()
            .map(|(i, (from, rays))| {
                let others = reach
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .fold(0, |set, (_, &r)| set | r);
                let mut shadow = 0;
                for ray in rays {
                    for &s in ray {
                        shadow |= bit(s);
                        if others & bit(s) != 0 {
                            break;
                        }
                    }
                }
                (*from, shadow)
            })
            .collect()
    }

    /// Whether `side`'s king is in check by Shadow Chess's rule (see the module).
    pub fn shadow_check(pos: &Position, side: usize) -> bool {
        let Some(king) = pos.king(side) else {
            return false;
        };
        // The king's shadow is its reach: steps are rays of one square, nothing cuts them.
        let mut shadow = 0;
        for d in EIGHT_WAYS {
            if let Some(s) = step(king, d, pos.wrap) {
                if pos.at(s).is_none_or(|p| p.side != side) {
                    shadow |= bit(s);
                }
            }
        }
        let empty_shadow = shadow & !pos.occupied();
        pos.pieces(1 - side).iter().any(|&(from, _)| {
            let attacks = pos.attacks_from(from);
            let outside = shadow & bit(from) == 0;
            attacks & bit(king) != 0
                || ((outside || CHECK_FROM_WITHIN_THE_SHADOW) && attacks & empty_shadow != 0)
        })
    }

    /// Every shadow capture of `side` with its victim, legal or not.
    fn shadow_captures(pos: &Position, side: usize) -> Vec<(Move, Sq)> {
        let victims: Vec<(Sq, u64)> = shadows(pos, 1 - side)
            .into_iter()
            .filter(|&(s, _)| pos.at(s).is_some_and(|p| p.role != Role::King))
            .collect();
        // Capturing movements onto empty squares: every move of a piece other than a pawn
        // (castling is not among them), and a pawn's diagonal steps.
        let mut moves: Vec<Move> = pos
            .pseudo_moves(side)
            .into_iter()
            .filter(|m| {
                pos.at(m.from).is_some_and(|p| p.role != Role::Pawn) && pos.at(m.to).is_none()
            })
            .collect();
        for (from, piece) in pos.pieces(side) {
            if piece.role != Role::Pawn {
                continue;
            }
            for df in [-1, 1] {
                let Some(to) = step(from, (df, forward(side)), pos.wrap) else {
                    continue;
                };
                if pos.at(to).is_some() {
                    continue;
                }
                if to.1 == last_rank(side) {
                    moves.extend(PROMOTIONS.map(|role| Move {
                        from,
                        to,
                        kind: Kind::Promotion(role),
                    }));
                } else {
                    moves.push(Move {
                        from,
                        to,
                        kind: Kind::Plain,
                    });
                }
            }
        }
        let mut out = Vec::new();
        for m in moves {
            for &(victim, shadow) in &victims {
                if shadow & bit(m.to) != 0 && shadow & bit(m.from) == 0 {
                    out.push((m, victim));
                }
            }
        }
        out
    }

    impl State {
        fn check(&self, pos: &Position, side: usize) -> bool {
            if self.shadows {
                shadow_check(pos, side)
            } else {
                pos.in_check(side)
            }
        }

        /// The legal moves with the position after each.
        pub fn legal(&self) -> Vec<(String, State)> {
            let pos = &self.pos;
            let side = pos.turn;
            let mut out = Vec::new();
            let mut keep = |text: String, after: Position| {
                if !self.check(&after, side) {
                    out.push((
                        text,
                        State {
                            pos: after,
                            shadows: self.shadows,
                        },
                    ));
                }
            };
            for m in pos.pseudo_moves(side) {
                keep(m.text(pos), pos.apply(&m).0);
            }
            if !self.check(pos, side) {
                for (m, crossed) in pos.castlings(side) {
                    let clear = crossed
                        .iter()
                        .all(|&c| !self.check(&pos.with_king_on(side, c), side));
                    if clear {
                        keep(m.text(pos), pos.apply(&m).0);
                    }
                }
            }
            if self.shadows {
                for (m, victim) in shadow_captures(pos, side) {
                    let mut after = pos.apply(&m).0;
                    after.put(victim, None);
                    after.castling &= !bit(victim);
                    keep(format!("{}(x{})", m.text(pos), label(victim)), after);
                }
            }
            out
        }
    }
}

// ---- Half Alice Chess -------------------------------------------------------------------------

/// Half Alice Chess: one board, two sides of a mirror (`mirror`: the squares of the pieces on
/// side 1, on a checker; everyone starts on side 0).
///
/// - A move is an ordinary chess move among the pieces on the moving piece's side only (the
///   others are not there for it: it passes through their squares and cannot take them), but it
///   may not land on a square a piece of the other side stands on. Then the moved piece crosses
///   to the other side (castling: king and rook, which must stand on one side).
/// - Before the crossing, on the moving piece's side alone, the mover's king (if there, or
///   moving) must not be in check; after it, the king must not be in check from the pieces on
///   the side it then stands on (only those attack or block).
/// - Castling as in chess on that side: rights, empty squares between, not out of, across or
///   into check there.
/// - En passant only by a pawn on the side the double-stepped pawn crossed to, onto an empty
///   square.
/// - With 12 checkers a side has at most 12 pieces on side 1: a piece crosses to side 1 only
///   with a free checker (castling from side 0 needs two).
mod half_alice {
    use super::chess::*;

    #[derive(Clone, Copy, Debug)]
    pub struct State {
        pub pos: Position,
        pub mirror: u64,
        /// Checkers each side has: 12, or 16 (no limit).
        pub checkers: usize,
    }

    impl State {
        fn beyond(&self, s: Sq) -> bool {
            self.mirror & bit(s) != 0
        }

        /// The pieces on one side of the mirror only.
        fn side_view(&self, beyond: bool) -> Position {
            self.pos.only(|s| self.beyond(s) == beyond)
        }

        /// Whether `side`'s king is safe from the pieces on its side of the mirror.
        fn king_safe(&self, side: usize) -> bool {
            match self.pos.king(side) {
                Some(king) => !self.side_view(self.beyond(king)).in_check(side),
                None => true,
            }
        }

        /// The whole board after `m`, the moved pieces crossed.
        fn play(&self, m: &Move) -> State {
            let beyond = self.beyond(m.from);
            let (pos, taken) = self.pos.apply(m);
            let mut mirror = self.mirror & !bit(m.from);
            if let Some(t) = taken {
                mirror &= !bit(t);
            }
            let mut landings = vec![m.to];
            if let Kind::Castle { rook, rook_to } = m.kind {
                mirror &= !bit(rook);
                landings.push(rook_to);
            }
            for s in landings {
                if beyond {
                    mirror &= !bit(s);
                } else {
                    mirror |= bit(s);
                }
            }
            State {
                pos,
                mirror,
                checkers: self.checkers,
            }
        }

        pub fn legal(&self) -> Vec<(String, State)> {
            let pos = &self.pos;
            let side = pos.turn;
            let used = pos
                .pieces(side)
                .iter()
                .filter(|&&(s, _)| self.beyond(s))
                .count();
            let mut out = Vec::new();
            for beyond in [false, true] {
                let view = self.side_view(beyond);
                if view.pieces(side).is_empty() {
                    continue;
                }
                let mut moves = view.pseudo_moves(side);
                if !view.in_check(side) {
                    for (m, crossed) in view.castlings(side) {
                        let clear = crossed
                            .iter()
                            .all(|&c| !view.with_king_on(side, c).in_check(side));
                        if clear {
                            moves.push(m);
                        }
                    }
                }
                for m in moves {
                    let mut landings = vec![m.to];
                    if let Kind::Castle { rook_to, .. } = m.kind {
                        landings.push(rook_to);
                    }
                    let blocked = landings
                        .iter()
                        .any(|&s| pos.at(s).is_some() && self.beyond(s) != beyond);
                    if blocked {
                        continue;
                    }
                    if !beyond && used + landings.len() > self.checkers {
                        continue;
                    }
                    if view.apply(&m).0.in_check(side) {
                        continue;
                    }
                    let next = self.play(&m);
                    if next.king_safe(side) {
                        out.push((m.text(pos), next));
                    }
                }
            }
            out
        }
    }
}

// ---- Adrenaline Chess -------------------------------------------------------------------------

/// Adrenaline Chess: pieces carry checkers, and a turn is a run of actions by one side.
///
/// - Stage Move: an ordinary chess move (no castling if the king or that rook carries
///   checkers; no two-square step by a pawn that came back to its first row by steps). The
///   moving piece keeps its checkers and adds those of what it takes (en passant too).
/// - Stage Steps, if the moved piece now carries checkers: a king's step in any direction onto
///   an empty square or onto an enemy piece other than the king (taking it and its checkers),
///   each step spending one checker, a pawn stepping onto its last rank promoting (each choice
///   an action); or `stop`. When the checkers run out the steps end by themselves.
/// - Stage Place, if anything was taken during the turn: one checker put under a piece of the
///   opponent's (the king too), one action per piece. Then the turn passes.
/// - Check: an enemy piece could reach the king within one turn of its own: a chess move (en
///   passant if open to its side now, no castling), then with its checkers and those of what it
///   took, king's steps onto empty squares or the king's side's pieces (taking their checkers
///   too), the last onto the king.
/// - Every action must leave the acting side's king out of check, and leave a legal way to
///   finish the turn; a king may not castle out of, across or into check. Perft counts actions.
mod adrenaline {
    use std::collections::HashSet;

    use super::chess::*;

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum Stage {
        Move,
        /// The piece on `at` takes steps; `captured`: something was taken this turn.
        Steps {
            at: Sq,
            captured: bool,
        },
        Place,
    }

    /// Checkers under the pieces, by file, then rank.
    pub type Checkers = [[u8; 8]; 8];

    fn get(checkers: &Checkers, (file, rank): Sq) -> u32 {
        u32::from(checkers[file as usize][rank as usize])
    }

    fn set(checkers: &mut Checkers, (file, rank): Sq, n: u32) {
        checkers[file as usize][rank as usize] = u8::try_from(n).expect("a pile of checkers");
    }

    /// King's steps between two squares.
    fn distance(a: Sq, b: Sq, wrap: bool) -> u32 {
        let files = (a.0 - b.0).abs();
        let files = if wrap { files.min(8 - files) } else { files };
        files.max((a.1 - b.1).abs()) as u32
    }

    /// Where a run has been: square, checkers left, pieces taken.
    type Seen = HashSet<(Sq, u32, u64)>;

    /// Whether a piece on `at` with `budget` steps left can step onto `king`: each step onto an
    /// empty square or onto a piece of the king's side (not in `taken` yet), which it takes
    /// with its checkers. `board` is the position with the running piece lifted off.
    fn runs_to(
        board: &Position,
        checkers: &Checkers,
        at: Sq,
        budget: u32,
        king: Sq,
        taken: u64,
        seen: &mut Seen,
    ) -> bool {
        if !seen.insert((at, budget, taken)) {
            return false;
        }
        let side = board.at(king).expect("the king").side;
        let spare: u32 = board
            .pieces(side)
            .iter()
            .filter(|&&(s, _)| taken & bit(s) == 0)
            .map(|&(s, _)| get(checkers, s))
            .sum();
        if distance(at, king, board.wrap) > budget + spare {
            return false;
        }
        for d in EIGHT_WAYS {
            let Some(to) = step(at, d, board.wrap) else {
                continue;
            };
            if to == king {
                return true;
            }
            let standing = if taken & bit(to) != 0 {
                None
            } else {
                board.at(to)
            };
            let reaches = match standing {
                None => budget > 1 && runs_to(board, checkers, to, budget - 1, king, taken, seen),
                Some(p) if p.side == side => {
                    let left = budget - 1 + get(checkers, to);
                    let taken = taken | bit(to);
                    left > 0 && runs_to(board, checkers, to, left, king, taken, seen)
                }
                Some(_) => false,
            };
            if reaches {
                return true;
            }
        }
        false
    }

    #[derive(Clone, Copy, Debug)]
    pub struct State {
        pub pos: Position,
        pub checkers: Checkers,
        pub stage: Stage,
        /// Pawns on their first row again after steps: they have moved, so they step one.
        pub moved: u64,
    }

    impl State {
        /// The side acting: in stage Move the side to make a chess move; after it, while it
        /// steps and places, the side that made it (the position's turn has passed already).
        pub fn actor(&self) -> usize {
            match self.stage {
                Stage::Move => self.pos.turn,
                _ => 1 - self.pos.turn,
            }
        }

        /// Whether `side`'s king is in check by Adrenaline Chess's rule (see the module).
        pub fn in_danger(&self, side: usize) -> bool {
            let pos = &self.pos;
            let Some(king) = pos.king(side) else {
                return false;
            };
            for m in pos.pseudo_moves(1 - side) {
                if m.kind == Kind::Double && self.moved & bit(m.from) != 0 {
                    continue;
                }
                if m.to == king {
                    return true;
                }
                let taken = match m.kind {
                    Kind::EnPassant(pawn) => Some(pawn),
                    _ => pos.at(m.to).map(|_| m.to),
                };
                let budget =
                    get(&self.checkers, m.from) + taken.map_or(0, |t| get(&self.checkers, t));
                if budget == 0 {
                    continue;
                }
                let (mut board, _) = pos.apply(&m);
                board.put(m.to, None);
                let mut checkers = self.checkers;
                set(&mut checkers, m.from, 0);
                if let Some(t) = taken {
                    set(&mut checkers, t, 0);
                }
                let mut seen = Seen::new();
                if runs_to(&board, &checkers, m.to, budget, king, 0, &mut seen) {
                    return true;
                }
            }
            false
        }

        /// The state after a chess move of the side to move.
        fn after_move(&self, m: &Move) -> State {
            let (pos, taken) = self.pos.apply(m);
            let mut checkers = self.checkers;
            let carried = get(&checkers, m.from) + taken.map_or(0, |t| get(&checkers, t));
            set(&mut checkers, m.from, 0);
            if let Some(t) = taken {
                set(&mut checkers, t, 0);
            }
            if let Kind::Castle { rook, rook_to } = m.kind {
                let n = get(&checkers, rook);
                set(&mut checkers, rook, 0);
                set(&mut checkers, rook_to, n);
            }
            set(&mut checkers, m.to, carried);
            let mut moved = self.moved & !(bit(m.from) | bit(m.to));
            if let Some(t) = taken {
                moved &= !bit(t);
            }
            let stage = if carried > 0 {
                Stage::Steps {
                    at: m.to,
                    captured: taken.is_some(),
                }
            } else if taken.is_some() {
                Stage::Place
            } else {
                Stage::Move
            };
            State {
                pos,
                checkers,
                stage,
                moved,
            }
        }

        /// Every action the board allows now, with the state after it, before the acting
        /// king's safety and the rest of the turn are considered. Castling's own conditions
        /// (no checkers, not out of or across check) are judged here.
        fn candidates(&self) -> Vec<(String, State)> {
            let pos = &self.pos;
            let mut out = Vec::new();
            match self.stage {
                Stage::Move => {
                    let side = pos.turn;
                    for m in pos.pseudo_moves(side) {
                        if m.kind == Kind::Double && self.moved & bit(m.from) != 0 {
                            continue;
                        }
                        out.push((m.text(pos), self.after_move(&m)));
                    }
                    let castlings = pos.castlings(side);
                    if !castlings.is_empty() && !self.in_danger(side) {
                        for (m, crossed) in castlings {
                            let Kind::Castle { rook, .. } = m.kind else {
                                unreachable!("a castling");
                            };
                            let fresh =
                                get(&self.checkers, m.from) == 0 && get(&self.checkers, rook) == 0;
                            let clear = crossed.iter().all(|&c| {
                                let standing = State {
                                    pos: pos.with_king_on(side, c),
                                    ..*self
                                };
                                !standing.in_danger(side)
                            });
                            if fresh && clear {
                                out.push((m.text(pos), self.after_move(&m)));
                            }
                        }
                    }
                }
                Stage::Steps { at, captured } => {
                    let side = self.actor();
                    let piece = pos.at(at).expect("the piece taking steps");
                    let left = get(&self.checkers, at);
                    assert!(
                        piece.side == side && left > 0,
                        "steps from {} by {piece:?} with {left} checkers, side {side} acting",
                        label(at)
                    );
                    let end = |captured: bool| {
                        if captured {
                            Stage::Place
                        } else {
                            Stage::Move
                        }
                    };
                    let stop = State {
                        stage: end(captured),
                        ..*self
                    };
                    out.push(("stop".to_string(), stop));
                    for d in EIGHT_WAYS {
                        let Some(to) = step(at, d, pos.wrap) else {
                            continue;
                        };
                        let gain = match pos.at(to) {
                            None => 0,
                            Some(p) if p.side != side && p.role != Role::King => {
                                get(&self.checkers, to)
                            }
                            Some(_) => continue,
                        };
                        let takes = pos.at(to).is_some();
                        let remaining = left - 1 + gain;
                        let captured = captured || takes;
                        let promotes = piece.role == Role::Pawn && to.1 == last_rank(side);
                        let roles: &[Role] = if promotes {
                            &PROMOTIONS
                        } else {
                            std::slice::from_ref(&piece.role)
                        };
                        for &role in roles {
                            let mut next = *self;
                            next.pos.put(at, None);
                            next.pos.put(to, Some(Piece { side, role }));
                            next.pos.touch(piece, at, to);
                            set(&mut next.checkers, at, 0);
                            set(&mut next.checkers, to, remaining);
                            next.moved &= !(bit(at) | bit(to));
                            if piece.role == Role::Pawn && !promotes && to.1 == pawn_rank(side) {
                                next.moved |= bit(to);
                            }
                            next.stage = if remaining > 0 {
                                Stage::Steps { at: to, captured }
                            } else {
                                end(captured)
                            };
                            let promotion = if promotes {
                                format!("={}", role.letter())
                            } else {
                                String::new()
                            };
                            let text = format!(
                                "step {}{}{}{promotion}",
                                label(at),
                                if takes { 'x' } else { '-' },
                                label(to)
                            );
                            out.push((text, next));
                        }
                    }
                }
                Stage::Place => {
                    for (s, _) in pos.pieces(pos.turn) {
                        let mut next = *self;
                        set(&mut next.checkers, s, get(&self.checkers, s) + 1);
                        next.stage = Stage::Move;
                        out.push((format!("place {}", label(s)), next));
                    }
                }
            }
            out
        }

        /// Whether `side`, having acted, may leave the game in this state: its king not in
        /// check, and its turn either over or still possible to finish legally.
        fn acceptable(&self, side: usize) -> bool {
            !self.in_danger(side) && self.finishable()
        }

        fn finishable(&self) -> bool {
            match self.stage {
                Stage::Move => true,
                _ => {
                    let side = self.actor();
                    self.candidates()
                        .iter()
                        .any(|(_, next)| next.acceptable(side))
                }
            }
        }

        pub fn legal(&self) -> Vec<(String, State)> {
            let side = self.actor();
            self.candidates()
                .into_iter()
                .filter(|(_, next)| next.acceptable(side))
                .collect()
        }
    }
}

// ---- the games and their saved positions ----------------------------------------------------

/// Which reference plays a game.
#[derive(Clone, Copy, Debug)]
enum Rules {
    Chess { shadows: bool, wrap: bool },
    HalfAlice,
    Adrenaline,
}

/// A position of one of the games, as the reference sees it.
#[derive(Clone, Debug)]
enum Reference {
    /// Chess on a cylinder, or Shadow Chess.
    Chess(shadow::State),
    HalfAlice(half_alice::State),
    Adrenaline(adrenaline::State),
}

impl Reference {
    /// The legal actions, each with the state after it.
    fn legal(&self) -> Vec<(String, Reference)> {
        match self {
            Reference::Chess(s) => s
                .legal()
                .into_iter()
                .map(|(t, next)| (t, Reference::Chess(next)))
                .collect(),
            Reference::HalfAlice(s) => s
                .legal()
                .into_iter()
                .map(|(t, next)| (t, Reference::HalfAlice(next)))
                .collect(),
            Reference::Adrenaline(s) => s
                .legal()
                .into_iter()
                .map(|(t, next)| (t, Reference::Adrenaline(next)))
                .collect(),
        }
    }

    /// The side to act.
    fn actor(&self) -> usize {
        match self {
            Reference::Chess(s) => s.pos.turn,
            Reference::HalfAlice(s) => s.pos.turn,
            Reference::Adrenaline(s) => s.actor(),
        }
    }

    fn position(&self) -> &Position {
        match self {
            Reference::Chess(s) => &s.pos,
            Reference::HalfAlice(s) => &s.pos,
            Reference::Adrenaline(s) => &s.pos,
        }
    }
}

/// Counts every sequence of `depth` legal actions.
fn perft(reference: &Reference, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let legal = reference.legal();
    if depth == 1 {
        return legal.len() as u64;
    }
    legal.iter().map(|(_, next)| perft(next, depth - 1)).sum()
}

/// A game as compared: the engine's variant id, its options, the reference that plays it, and
/// how deep perft from the start is compared.
struct Case {
    game: &'static str,
    options: &'static [&'static str],
    rules: Rules,
    depth: u32,
}

const CHESS_ON_A_CYLINDER: Case = Case {
    game: "chess",
    options: &["board=cylinder"],
    rules: Rules::Chess {
        shadows: false,
        wrap: true,
    },
    depth: 3,
};

const SHADOW: Case = Case {
    game: "shadow",
    options: &[],
    rules: Rules::Chess {
        shadows: true,
        wrap: false,
    },
    depth: 3,
};

const SHADOW_ON_A_CYLINDER: Case = Case {
    game: "shadow",
    options: &["board=cylinder"],
    rules: Rules::Chess {
        shadows: true,
        wrap: true,
    },
    depth: 3,
};

const HALF_ALICE_12: Case = Case {
    game: "half-alice",
    options: &["checkers=12"],
    rules: Rules::HalfAlice,
    depth: 3,
};

const HALF_ALICE_16: Case = Case {
    game: "half-alice",
    options: &["checkers=16"],
    rules: Rules::HalfAlice,
    depth: 3,
};

const ADRENALINE: Case = Case {
    game: "adrenaline",
    options: &[],
    rules: Rules::Adrenaline,
    depth: 3,
};

impl Case {
    fn name(&self) -> String {
        format!("{} {:?}", self.game, self.options)
    }

    fn engine(&self) -> &'static dyn AnyGame {
        registry::variant(self.game)
            .unwrap_or_else(|e| panic!("the engine has no game '{}': {e}", self.game))
    }

    fn setup(&self, seed: u64) -> AnyState {
        let options = Options::parse(self.options).unwrap();
        self.engine()
            .setup(&options, 2, seed)
            .unwrap_or_else(|e| panic!("{}: no game set up: {e}", self.name()))
    }

    fn wrap(&self) -> bool {
        matches!(self.rules, Rules::Chess { wrap: true, .. })
    }

    /// The reference's state of a saved game, or `None` when there is nothing to compare (the
    /// game over, a king gone).
    fn read_saved(&self, json: &str) -> Option<Reference> {
        let v: Value = serde_json::from_str(json).expect("the engine saves JSON");
        if !v["outcome"].is_null() {
            return None;
        }
        let pos = Position::read(&v["position"], self.wrap());
        if pos.king(0).is_none() || pos.king(1).is_none() {
            return None;
        }
        Some(match self.rules {
            Rules::Chess { shadows, .. } => Reference::Chess(shadow::State { pos, shadows }),
            Rules::HalfAlice => {
                let mut mirror = 0;
                for s in v["mirror"].as_array().expect("the mirror") {
                    mirror |= bit(square(s.as_str().expect("a square")));
                }
                let checkers = v["checkers"].as_u64().expect("the checkers") as usize;
                Reference::HalfAlice(half_alice::State {
                    pos,
                    mirror,
                    checkers,
                })
            }
            Rules::Adrenaline => {
                let mut checkers = [[0u8; 8]; 8];
                for (at, n) in v["adrenaline"].as_object().into_iter().flatten() {
                    let (file, rank) = square(at);
                    let n = n.as_u64().expect("a number of checkers");
                    checkers[file as usize][rank as usize] =
                        u8::try_from(n).expect("a pile of checkers");
                }
                let stage = &v["stage"];
                let stage = match stage.as_str() {
                    Some("Move") => adrenaline::Stage::Move,
                    Some("Place") => adrenaline::Stage::Place,
                    _ => {
                        let steps = stage
                            .get("Steps")
                            .unwrap_or_else(|| panic!("a stage the reference knows: {stage}"));
                        adrenaline::Stage::Steps {
                            at: square(steps["at"].as_str().expect("the stepping piece")),
                            captured: steps["captured"].as_bool().expect("whether it took"),
                        }
                    }
                };
                let mut moved = 0;
                for s in v["moved_pawns"].as_array().into_iter().flatten() {
                    moved |= bit(square(s.as_str().expect("a square")));
                }
                Reference::Adrenaline(adrenaline::State {
                    pos,
                    checkers,
                    stage,
                    moved,
                })
            }
        })
    }
}

// ---- against the engine -----------------------------------------------------------------------

/// Both lists of actions in a position, for a report.
fn describe(game: &dyn AnyGame, state: &AnyState, case: &Case) -> String {
    let json = game.save(state).unwrap();
    let engine = match game.prompts(state).unwrap().first() {
        Some(prompt) => game.legal_texts(state, prompt.seat).unwrap(),
        None => Vec::new(),
    };
    let Some(reference) = case.read_saved(&json) else {
        return format!("{json}\n(no position to compare)");
    };
    let mine: Vec<String> = reference.legal().into_iter().map(|(t, _)| t).collect();
    format!(
        "{json}\nengine ({}): {}\nreference ({}, side {} to act): {}",
        engine.len(),
        engine.join(" "),
        mine.len(),
        reference.actor(),
        mine.join(", ")
    )
}

/// Where the engine's perft and the reference's part: the line of actions down to the first
/// position whose actions differ, and both lists of actions there.
fn explain(game: &dyn AnyGame, state: &AnyState, case: &Case, depth: u32) -> String {
    if depth > 1 {
        let seat = game.prompts(state).unwrap()[0].seat;
        for (text, count) in game.divide(state, depth).unwrap().unwrap_or_default() {
            let mut child = state.clone();
            if game.play(&mut child, seat, &text).is_err() {
                continue;
            }
            let Some(reference) = case.read_saved(&game.save(&child).unwrap()) else {
                continue;
            };
            let mine = perft(&reference, depth - 1);
            if mine != count {
                return format!(
                    "after {text} (engine {count}, reference {mine}) {}",
                    explain(game, &child, case, depth - 1)
                );
            }
        }
    }
    format!("here:\n{}", describe(game, state, case))
}

/// Perft from the start, depth 1 to the case's depth, against the engine's.
fn perft_from_the_start(case: &Case) {
    let game = case.engine();
    let state = case.setup(0);
    let start = case
        .read_saved(&game.save(&state).unwrap())
        .expect("a game just set up goes on");
    assert_eq!(
        *start.position(),
        Position::start(case.wrap()),
        "{}: the start as the engine saved it",
        case.name()
    );
    match &start {
        Reference::Chess(_) => {}
        Reference::HalfAlice(s) => {
            let checkers = if case.options.contains(&"checkers=16") {
                16
            } else {
                12
            };
            assert_eq!(s.mirror, 0, "everyone starts on the near side");
            assert_eq!(s.checkers, checkers, "{}: the checkers", case.name());
        }
        Reference::Adrenaline(s) => {
            assert_eq!(s.checkers, [[0; 8]; 8], "no checkers at the start");
            assert_eq!(s.stage, adrenaline::Stage::Move, "a chess move first");
        }
    }
    for depth in 1..=case.depth {
        let mine = perft(&start, depth);
        let engine = game
            .perft(&state, depth)
            .unwrap()
            .expect("the engine counts perft");
        assert!(
            mine == engine,
            "{} perft {depth} from the start: engine {engine}, reference {mine}; {}",
            case.name(),
            explain(game, &state, case, depth)
        );
    }
}

/// The reference's count of actions against the engine's in a saved position, and the side
/// acting: `None` when they agree or there is nothing to compare, else a report.
fn compare(game: &dyn AnyGame, state: &AnyState, case: &Case) -> Option<String> {
    let reference = case.read_saved(&game.save(state).unwrap())?;
    let seat = game.prompts(state).unwrap().first()?.seat;
    if usize::from(seat.0) != reference.actor() {
        return Some(format!(
            "the engine asks seat {} to act, the reference side {}\n{}",
            seat.0,
            reference.actor(),
            describe(game, state, case)
        ));
    }
    let mine = reference.legal().len() as u64;
    let engine = game
        .perft(state, 1)
        .unwrap()
        .expect("the engine counts perft");
    (mine != engine).then(|| {
        format!(
            "engine {engine}, reference {mine}\n{}",
            describe(game, state, case)
        )
    })
}

/// Random games per case, and actions at most per game.
const GAMES: u64 = 40;
const ACTIONS: usize = 120;

/// Plays random games (captures half the time, so that pieces come off, pawns promote and
/// checkers pile up) and compares every position on the way; a game stops at its first
/// difference.
fn random_positions_agree(case: &Case) {
    let game = case.engine();
    let (mut compared, mut failures) = (0, Vec::new());
    for seed in 0..GAMES {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = case.setup(seed);
        for action in 0..ACTIONS {
            if game.outcome(&state).unwrap().is_some() {
                break;
            }
            compared += 1;
            if let Some(difference) = compare(game, &state, case) {
                failures.push(format!(
                    "{} seed {seed} action {action}: {difference}",
                    case.name()
                ));
                break;
            }
            let seat = game.prompts(&state).unwrap()[0].seat;
            let texts: Vec<String> = game
                .legal_texts(&state, seat)
                .unwrap()
                .into_iter()
                .filter(|t| !t.starts_with("resign") && !t.contains("draw"))
                .collect();
            if texts.is_empty() {
                break;
            }
            let captures: Vec<&String> = texts.iter().filter(|t| t.contains('x')).collect();
            let text = if !captures.is_empty() && rng.gen_bool(0.5) {
                captures[rng.gen_range(0..captures.len())]
            } else {
                &texts[rng.gen_range(0..texts.len())]
            };
            game.play(&mut state, seat, text).unwrap();
        }
    }
    assert!(
        compared >= 500,
        "{}: only {compared} positions compared",
        case.name()
    );
    assert!(
        failures.is_empty(),
        "{}: {} of {compared} positions differ (the first five shown):\n\n{}",
        case.name(),
        failures.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

#[test]
fn perft_from_the_start_chess_on_a_cylinder() {
    perft_from_the_start(&CHESS_ON_A_CYLINDER);
}

#[test]
fn perft_from_the_start_shadow() {
    perft_from_the_start(&SHADOW);
}

#[test]
fn perft_from_the_start_shadow_on_a_cylinder() {
    perft_from_the_start(&SHADOW_ON_A_CYLINDER);
}

#[test]
fn perft_from_the_start_half_alice_12_checkers() {
    perft_from_the_start(&HALF_ALICE_12);
}

#[test]
fn perft_from_the_start_half_alice_16_checkers() {
    perft_from_the_start(&HALF_ALICE_16);
}

#[test]
fn perft_from_the_start_adrenaline() {
    perft_from_the_start(&ADRENALINE);
}

#[test]
fn random_positions_agree_chess_on_a_cylinder() {
    random_positions_agree(&CHESS_ON_A_CYLINDER);
}

#[test]
fn random_positions_agree_shadow() {
    random_positions_agree(&SHADOW);
}

#[test]
fn random_positions_agree_shadow_on_a_cylinder() {
    random_positions_agree(&SHADOW_ON_A_CYLINDER);
}

#[test]
fn random_positions_agree_half_alice_12_checkers() {
    random_positions_agree(&HALF_ALICE_12);
}

#[test]
fn random_positions_agree_half_alice_16_checkers() {
    random_positions_agree(&HALF_ALICE_16);
}

#[test]
fn random_positions_agree_adrenaline() {
    random_positions_agree(&ADRENALINE);
}

// ---- two positions from the books -------------------------------------------------------------

/// Shadow Chess, Figure 25 as rebuilt: Black's rook on b8 is trained on b1 and b2, the white
/// king's shadow, though it does not attack the king itself. The knight on d4 cuts the rook's
/// shadow at b5 (so interposing on b2 takes nothing) and covers the squares the king might flee
/// to: the one answer is Rb2.
#[test]
fn shadow_check_on_the_kings_shadow_is_answered_only_by_interposing() {
    let case = Case {
        options: &["fen=1r6/5k2/8/8/3n4/8/7R/K7 w - - 0 1"],
        ..SHADOW
    };
    let game = case.engine();
    let state = case.setup(0);
    let reference = case.read_saved(&game.save(&state).unwrap()).unwrap();
    let Reference::Chess(s) = &reference else {
        unreachable!("Shadow Chess");
    };
    assert!(shadow::shadow_check(&s.pos, 0), "White is in shadow check");
    assert!(!s.pos.in_check(0), "no piece attacks the king itself");
    let mine: Vec<String> = reference.legal().into_iter().map(|(t, _)| t).collect();
    assert_eq!(mine, ["Rh2-b2"], "the reference");
    let seat = game.prompts(&state).unwrap()[0].seat;
    assert_eq!(
        game.legal_texts(&state, seat).unwrap(),
        ["Rb2"],
        "the engine"
    );
}

/// Half Alice Chess, the book's example: Black's king on b8 in check from the queen on d8, the
/// white rook on b6 beyond the mirror. Ka8 and Kc8 stay in check, Kc7 walks into it, Kb7 is
/// safe before crossing but meets the rook after: Ka7 is the one move.
#[test]
fn half_alice_a_king_may_not_cross_into_check() {
    let case = Case {
        options: &["fen=1k1Q4/8/1R6/8/8/8/8/7K b - - 0 1", "checkers=12"],
        ..HALF_ALICE_12
    };
    let game = case.engine();
    let mut json: Value = serde_json::from_str(&game.save(&case.setup(0)).unwrap()).unwrap();
    json["mirror"] = serde_json::json!(["b6"]);
    let state = game.load(&json.to_string()).unwrap();
    let reference = case.read_saved(&game.save(&state).unwrap()).unwrap();
    let mine: Vec<String> = reference.legal().into_iter().map(|(t, _)| t).collect();
    assert_eq!(mine, ["Kb8-a7"], "the reference");
    let seat = game.prompts(&state).unwrap()[0].seat;
    assert_eq!(
        game.legal_texts(&state, seat).unwrap(),
        ["Ka7"],
        "the engine"
    );
}

/// Adrenaline Chess, the book's checkmate (after Black's Bg4xe2): three checkers under White's
/// bishop on c1, one each under e5, e6, h5 and g7. No piece attacks the white king, but the
/// queen would take c1 and walk three king steps to f2, and no answer helps: Kg3 fails because
/// the h5 pawn would go to h4 and step on to g3. Without that checker Kg3 escapes.
#[test]
fn adrenaline_the_books_checkmate_counts_the_extra_steps() {
    let case = Case {
        options: &["fen=rn2k1nr/5pp1/4p3/4P2p/1pq5/P7/1P1PbKPP/R1B3Q1 w - - 0 20"],
        ..ADRENALINE
    };
    let game = case.engine();
    let start = game.save(&case.setup(0)).unwrap();
    let with = |checkers: Value| {
        let mut json: Value = serde_json::from_str(&start).unwrap();
        json["adrenaline"] = checkers;
        game.load(&json.to_string()).unwrap()
    };
    let mate = with(serde_json::json!({"c1": 3, "e5": 1, "e6": 1, "h5": 1, "g7": 1}));
    let reference = case.read_saved(&game.save(&mate).unwrap()).unwrap();
    let Reference::Adrenaline(s) = &reference else {
        unreachable!("Adrenaline Chess");
    };
    assert!(!s.pos.in_check(0), "no ordinary check");
    assert!(s.in_danger(0), "check by extra steps");
    let answers: Vec<String> = reference.legal().into_iter().map(|(t, _)| t).collect();
    assert!(
        answers.is_empty(),
        "the reference finds answers: {answers:?}"
    );
    assert!(
        game.outcome(&mate).unwrap().is_some(),
        "the engine sees the game over"
    );

    let escape = with(serde_json::json!({"c1": 3, "e5": 1, "e6": 1, "g7": 1}));
    let reference = case.read_saved(&game.save(&escape).unwrap()).unwrap();
    let answers: Vec<String> = reference.legal().into_iter().map(|(t, _)| t).collect();
    assert!(answers.contains(&"Kf2-g3".to_string()), "{answers:?}");
    if let Some(difference) = compare(game, &escape, &case) {
        panic!("without the checker on h5: {difference}");
    }
}
