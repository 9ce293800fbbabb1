//! Superchess's move generator against a plain reference written from the rules alone: a 14x14
//! mailbox with the centre and the corners walled off, every pawn on its own course, castling by
//! swapping king and rook, and legality judged by playing each move on a copy and looking for
//! attacks on the kings. It must count the same perft from the start in every way of taking
//! turns, and find as many moves as the engine in positions from random games.

use engine::game::{AnyGame, AnyState, Options};
use engine::registry;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

// ---- the board ------------------------------------------------------------------------------

/// A square as (file, rank), both counted from 0: a1 is (0, 0), n14 is (13, 13).
type Sq = (i32, i32);

/// Whether a square is on the board: not off the edge, not the centre f6-i9, and not one of the
/// eight walled squares at each corner (the innermost square of each corner block plays).
fn playable((file, rank): Sq) -> bool {
    let on_board = (0..14).contains(&file) && (0..14).contains(&rank);
    let centre = (5..=8).contains(&file) && (5..=8).contains(&rank);
    let (f, r) = (file.min(13 - file), rank.min(13 - rank));
    let corner = f < 3 && r < 3 && (f, r) != (2, 2);
    on_board && !centre && !corner
}

fn add((f, r): Sq, (df, dr): Sq) -> Sq {
    (f + df, r + dr)
}

fn square(label: &str) -> Sq {
    let file = label.as_bytes()[0] - b'a';
    let rank: i32 = label[1..].parse().unwrap();
    (file as i32, rank - 1)
}

fn label((file, rank): Sq) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

fn all_squares() -> impl Iterator<Item = Sq> {
    (0..14)
        .flat_map(|f| (0..14).map(move |r| (f, r)))
        .filter(|&s| playable(s))
}

const ORTHOGONAL: [Sq; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [Sq; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const EIGHT_WAYS: [Sq; 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];
const KNIGHT: [Sq; 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The two directions square to `d`.
fn sideways((df, dr): Sq) -> [Sq; 2] {
    [(dr, df), (-dr, -df)]
}

// ---- armies ---------------------------------------------------------------------------------

/// The armies: 0 White, 1 Black, 2 Tan, 3 Brown.
const START: [&str; 4] = [
    "Kc12 Qd11 Ra11 Rd14 Nb11 Nd13 Bc11 Bd12 P^e10 Pe11 Pe12 Pe13 Pe14 P>a10 P>b10 P>c10 P>d10",
    "Kl12 Qk11 Rn11 Rk14 Nm11 Nk13 Bl11 Bk12 P^j10 Pk10 Pl10 Pm10 Pn10 P>j11 P>j12 P>j13 P>j14",
    "Kl3 Qk4 Rn4 Rk1 Nm4 Nk2 Bl4 Bk3 P^j5 Pj1 Pj2 Pj3 Pj4 P>k5 P>l5 P>m5 P>n5",
    "Kc3 Qd4 Ra4 Rd1 Nb4 Nd2 Bc4 Bd3 P^e5 Pa5 Pb5 Pc5 Pd5 P>e1 P>e2 P>e3 P>e4",
];
const KING_START: [&str; 4] = ["c12", "l12", "l3", "c3"];
const CASTLING_ROOKS: [[&str; 2]; 4] = [["a11", "d14"], ["n11", "k14"], ["n4", "k1"], ["a4", "d1"]];

/// Each army's forward direction (its forward pawns' course) and its right (its side pawns').
const FORWARD: [Sq; 4] = [(1, 0), (0, -1), (-1, 0), (0, 1)];
const RIGHT: [Sq; 4] = [(0, -1), (-1, 0), (0, 1), (1, 0)];

/// How far a square lies along direction `d`, counted from the board's edge behind it.
fn distance((file, rank): Sq, d: Sq) -> i32 {
    match d {
        (1, 0) => file,
        (-1, 0) => 13 - file,
        (0, 1) => rank,
        _ => 13 - rank,
    }
}

fn rook_squares(army: usize) -> [Sq; 2] {
    CASTLING_ROOKS[army].map(square)
}

fn start_pawns(army: usize) -> Vec<Sq> {
    START[army]
        .split_whitespace()
        .filter(|w| w.starts_with('P'))
        .map(|w| square(w.trim_start_matches(['P', '>', '^'])))
        .collect()
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Course {
    Forward,
    Side,
    /// A point pawn that has not chosen yet.
    Either,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn(Course),
}

impl Role {
    fn letter(self) -> char {
        match self {
            Role::King => 'K',
            Role::Queen => 'Q',
            Role::Rook => 'R',
            Role::Bishop => 'B',
            Role::Knight => 'N',
            Role::Pawn(_) => 'P',
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Piece {
    army: usize,
    role: Role,
}

/// The direction a pawn of `army` goes on `course`.
fn direction(army: usize, course: Course) -> Sq {
    match course {
        Course::Forward => FORWARD[army],
        Course::Side => RIGHT[army],
        Course::Either => unreachable!("a point pawn goes one way or the other"),
    }
}

/// The courses a pawn may take now.
fn courses(course: Course) -> Vec<Course> {
    match course {
        Course::Either => vec![Course::Forward, Course::Side],
        c => vec![c],
    }
}

/// The squares a pawn on `from` attacks.
fn pawn_attacks(from: Sq, army: usize, course: Course) -> Vec<Sq> {
    let mut out = Vec::new();
    for c in courses(course) {
        let ahead = add(from, direction(army, c));
        for side in sideways(direction(army, c)) {
            out.push(add(ahead, side));
        }
    }
    out
}

// ---- positions ------------------------------------------------------------------------------

/// A chance to take en passant: the pawn that stepped two squares, its army, the square it
/// passed over, and the armies (a bit each) that may still take it.
#[derive(Clone, PartialEq, Eq, Debug)]
struct EnPassant {
    pawn: Sq,
    army: usize,
    passed: Vec<Sq>,
    waiting: u8,
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct Position {
    /// By file, then rank.
    board: [[Option<Piece>; 14]; 14],
    /// The rooks that may still castle, sorted.
    castling: Vec<Sq>,
    en_passant: Vec<EnPassant>,
}

impl Position {
    /// A position from one line of pieces per army (`Kc12 Pe11 P>a10 P^e10`, a pawn on its
    /// side course marked `>`, a point pawn yet to choose `^`) and the rooks that may castle.
    fn read(armies: &[&str], castling: &[&str]) -> Position {
        let mut pos = Position {
            board: [[None; 14]; 14],
            castling: castling.iter().map(|l| square(l)).collect(),
            en_passant: Vec::new(),
        };
        pos.castling.sort();
        for (army, line) in armies.iter().enumerate() {
            for word in line.split_whitespace() {
                let (letter, rest) = word.split_at(1);
                let (course, at) = if let Some(at) = rest.strip_prefix('>') {
                    (Course::Side, at)
                } else if let Some(at) = rest.strip_prefix('^') {
                    (Course::Either, at)
                } else {
                    (Course::Forward, rest)
                };
                let role = match letter {
                    "K" => Role::King,
                    "Q" => Role::Queen,
                    "R" => Role::Rook,
                    "B" => Role::Bishop,
                    "N" => Role::Knight,
                    "P" => Role::Pawn(course),
                    _ => panic!("'{word}' is not a piece"),
                };
                assert!(playable(square(at)), "{word} stands on a wall");
                pos.put(square(at), Some(Piece { army, role }));
            }
        }
        pos
    }

    fn at(&self, (f, r): Sq) -> Option<Piece> {
        self.board[f as usize][r as usize]
    }

    fn put(&mut self, (f, r): Sq, piece: Option<Piece>) {
        self.board[f as usize][r as usize] = piece;
    }

    fn king(&self, army: usize) -> Option<Sq> {
        all_squares().find(|&s| {
            self.at(s)
                == Some(Piece {
                    army,
                    role: Role::King,
                })
        })
    }

    fn has_pieces(&self, army: usize) -> bool {
        all_squares().any(|s| self.at(s).is_some_and(|p| p.army == army))
    }

    /// The first piece met going from `from` (not included) in direction `d`.
    fn first_along(&self, from: Sq, d: Sq) -> Option<Piece> {
        let mut s = add(from, d);
        while playable(s) {
            if let Some(p) = self.at(s) {
                return Some(p);
            }
            s = add(s, d);
        }
        None
    }
}

#[derive(Clone, Debug)]
struct Move {
    army: usize,
    from: Sq,
    to: Sq,
    /// What stands on `to` afterwards: the piece itself, a pawn with its course fixed, or what
    /// a pawn promotes to.
    piece: Piece,
    /// King and rook swap: `from` is the king's square, `to` the rook's.
    castle: bool,
    /// The pawn taken en passant.
    en_passant: Option<Sq>,
    /// The square a pawn's two-square step passed over.
    passed: Option<Sq>,
}

impl Move {
    fn text(&self, pos: &Position) -> String {
        let moving = pos.at(self.from).unwrap();
        if self.castle {
            return format!("castle {}-{}", label(self.from), label(self.to));
        }
        let mut text = format!(
            "{}{}-{}",
            moving.role.letter(),
            label(self.from),
            label(self.to)
        );
        if let Role::Pawn(course) = self.piece.role {
            text.push_str(&format!(" {course:?}"));
        } else if moving.role != self.piece.role || moving.army != self.piece.army {
            text.push_str(&format!("={}{}", self.piece.role.letter(), self.piece.army));
        }
        if self.en_passant.is_some() {
            text.push_str(" e.p.");
        }
        text
    }
}

// ---- the ways of playing --------------------------------------------------------------------

/// One turn: the armies whose pieces may move, and the armies whose turn it counts as (whose en
/// passant chances it uses up, and whose kings it must free from check).
struct Turn {
    movers: Vec<usize>,
    owners: Vec<usize>,
}

/// How a game is set up and whose turn follows whose.
struct Mode {
    seats: usize,
    options: &'static [&'static str],
    teams: [usize; 4],
    present: [bool; 4],
    partner_promotions: bool,
    turns: Vec<Turn>,
}

fn one_army_a_turn(order: &[usize]) -> Vec<Turn> {
    order
        .iter()
        .map(|&a| Turn {
            movers: vec![a],
            owners: vec![a],
        })
        .collect()
}

impl Mode {
    fn new(seats: usize, options: &'static [&'static str]) -> Mode {
        let has = |o: &str| options.contains(&o);
        let four = Mode {
            seats,
            options,
            teams: [0, 1, 0, 1],
            present: [true; 4],
            partner_promotions: true,
            turns: one_army_a_turn(&[0, 1, 2, 3]),
        };
        if has("armies=2") && has("against=north") {
            Mode {
                teams: [0, 1, 1, 1],
                present: [true, false, true, false],
                partner_promotions: false,
                turns: one_army_a_turn(&[0, 2]),
                ..four
            }
        } else if has("armies=2") {
            Mode {
                present: [true, true, false, false],
                partner_promotions: false,
                turns: one_army_a_turn(&[0, 1]),
                ..four
            }
        } else if has("partner-moves=always") {
            let turns = (0..4)
                .map(|a| Turn {
                    movers: vec![a, (a + 2) % 4],
                    owners: vec![a],
                })
                .collect();
            Mode { turns, ..four }
        } else if seats == 2 && !has("turns=quadrant") {
            let turns = vec![
                Turn {
                    movers: vec![0, 2],
                    owners: vec![0, 2],
                },
                Turn {
                    movers: vec![1, 3],
                    owners: vec![1, 3],
                },
            ];
            Mode { turns, ..four }
        } else {
            four
        }
    }

    fn start(&self) -> Position {
        let armies: Vec<&str> = (0..4)
            .map(|a| if self.present[a] { START[a] } else { "" })
            .collect();
        let castling: Vec<&str> = (0..4)
            .filter(|&a| self.present[a])
            .flat_map(|a| CASTLING_ROOKS[a])
            .collect();
        Position::read(&armies, &castling)
    }

    fn enemies(&self, a: usize, b: usize) -> bool {
        self.teams[a] != self.teams[b]
    }

    /// Whether an enemy of `army` attacks `sq`.
    fn attacked(&self, pos: &Position, sq: Sq, army: usize) -> bool {
        let enemy = |p: Option<Piece>| p.filter(|p| self.enemies(army, p.army));
        let enemy_at = |s: Sq| if playable(s) { enemy(pos.at(s)) } else { None };
        let knight = KNIGHT
            .iter()
            .any(|&j| enemy_at(add(sq, j)).is_some_and(|p| p.role == Role::Knight));
        let king = EIGHT_WAYS
            .iter()
            .any(|&d| enemy_at(add(sq, d)).is_some_and(|p| p.role == Role::King));
        let rook = ORTHOGONAL.iter().any(|&d| {
            enemy(pos.first_along(sq, d))
                .is_some_and(|p| matches!(p.role, Role::Rook | Role::Queen))
        });
        let bishop = DIAGONAL.iter().any(|&d| {
            enemy(pos.first_along(sq, d))
                .is_some_and(|p| matches!(p.role, Role::Bishop | Role::Queen))
        });
        let pawn = DIAGONAL.iter().any(|&d| {
            let from = add(sq, d);
            enemy_at(from).is_some_and(|p| match p.role {
                Role::Pawn(course) => pawn_attacks(from, p.army, course).contains(&sq),
                _ => false,
            })
        });
        knight || king || rook || bishop || pawn
    }

    fn in_check(&self, pos: &Position, army: usize) -> bool {
        pos.king(army).is_some_and(|k| self.attacked(pos, k, army))
    }

    /// Every move of `army`, legal or not.
    fn pseudo_moves(&self, pos: &Position, army: usize) -> Vec<Move> {
        let mut out = Vec::new();
        let plain = |from: Sq, to: Sq, piece: Piece| Move {
            army,
            from,
            to,
            piece,
            castle: false,
            en_passant: None,
            passed: None,
        };
        // A square a piece may go to: on the board and empty or held by an enemy.
        let open = |to: Sq| playable(to) && pos.at(to).is_none_or(|p| self.enemies(army, p.army));
        for from in all_squares() {
            let Some(piece) = pos.at(from).filter(|p| p.army == army) else {
                continue;
            };
            let (steps, slides): (&[Sq], bool) = match piece.role {
                Role::King => (&EIGHT_WAYS, false),
                Role::Knight => (&KNIGHT, false),
                Role::Rook => (&ORTHOGONAL, true),
                Role::Bishop => (&DIAGONAL, true),
                Role::Queen => (&EIGHT_WAYS, true),
                Role::Pawn(course) => {
                    self.pawn_moves(pos, from, army, course, &mut out);
                    continue;
                }
            };
            for &d in steps {
                let mut to = add(from, d);
                while open(to) {
                    out.push(plain(from, to, piece));
                    if !slides || pos.at(to).is_some() {
                        break;
                    }
                    to = add(to, d);
                }
            }
        }
        let king = Piece {
            army,
            role: Role::King,
        };
        let king_home = square(KING_START[army]);
        if pos.at(king_home) == Some(king) && !self.in_check(pos, army) {
            for rook in rook_squares(army) {
                let is_rook = pos.at(rook)
                    == Some(Piece {
                        army,
                        role: Role::Rook,
                    });
                if pos.castling.contains(&rook) && is_rook {
                    out.push(Move {
                        castle: true,
                        ..plain(king_home, rook, king)
                    });
                }
            }
        }
        out
    }

    fn pawn_moves(
        &self,
        pos: &Position,
        from: Sq,
        army: usize,
        course: Course,
        out: &mut Vec<Move>,
    ) {
        for c in courses(course) {
            let ahead = direction(army, c);
            let mut push = |to: Sq, capture: bool, en_passant: Option<Sq>, passed: Option<Sq>| {
                for piece in self.pawn_becomes(pos, army, to, c, capture) {
                    out.push(Move {
                        army,
                        from,
                        to,
                        piece,
                        castle: false,
                        en_passant,
                        passed,
                    });
                }
            };
            let one = add(from, ahead);
            if playable(one) && pos.at(one).is_none() {
                push(one, false, None, None);
                let two = add(one, ahead);
                if start_pawns(army).contains(&from) && playable(two) && pos.at(two).is_none() {
                    push(two, false, None, Some(one));
                }
            }
            for side in sideways(ahead) {
                let to = add(one, side);
                if !playable(to) {
                    continue;
                }
                match pos.at(to) {
                    Some(p) if self.enemies(army, p.army) => push(to, true, None, None),
                    Some(_) => {}
                    None => {
                        // "an opponent's pawn situated on an adjoining square of an adjacent
                        // file may capture it": beside the pawn that stepped.
                        let chance = pos.en_passant.iter().find(|e| {
                            e.passed.contains(&to)
                                && ORTHOGONAL.iter().any(|&d| add(from, d) == e.pawn)
                                && e.waiting & (1 << army) != 0
                                && self.enemies(army, e.army)
                                && pos.at(e.pawn).is_some_and(|p| {
                                    p.army == e.army && matches!(p.role, Role::Pawn(_))
                                })
                        });
                        if let Some(e) = chance {
                            push(to, true, Some(e.pawn), None);
                        }
                    }
                }
            }
        }
    }

    /// What a pawn of `army` going on `course` becomes on reaching `to`: itself, or one of the
    /// promotion choices when its next step would leave the board or hit a wall, or when it
    /// captures into the frontier beyond the enemy it faces.
    fn pawn_becomes(
        &self,
        pos: &Position,
        army: usize,
        to: Sq,
        course: Course,
        capture: bool,
    ) -> Vec<Piece> {
        let ahead = direction(army, course);
        let across = match course {
            Course::Forward => RIGHT[army],
            _ => FORWARD[army],
        };
        let frontier = distance(to, ahead) >= 9 && distance(to, across) >= 5;
        let promotes = !playable(add(to, ahead)) || (capture && frontier);
        if !promotes {
            return vec![Piece {
                army,
                role: Role::Pawn(course),
            }];
        }
        let armies = (0..4).filter(|&b| {
            b == army || (self.partner_promotions && !self.enemies(army, b) && pos.has_pieces(b))
        });
        armies
            .flat_map(|b| {
                [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
                    .map(|role| Piece { army: b, role })
            })
            .collect()
    }

    fn apply(&self, pos: &Position, m: &Move) -> Position {
        let mut after = pos.clone();
        let moving = pos.at(m.from).unwrap();
        if m.castle {
            after.put(m.from, pos.at(m.to));
            after.put(m.to, Some(moving));
        } else {
            after.put(m.from, None);
            if let Some(taken) = m.en_passant {
                after.put(taken, None);
            }
            after.put(m.to, Some(m.piece));
        }
        if moving.role == Role::King {
            after.castling.retain(|s| !rook_squares(m.army).contains(s));
        }
        after.castling.retain(|&s| s != m.from && s != m.to);
        if let Some(passed) = m.passed {
            let waiting = (0..4)
                .filter(|&b| self.present[b] && self.enemies(m.army, b))
                .fold(0, |w, b| w | (1 << b));
            after.en_passant.push(EnPassant {
                pawn: m.to,
                army: m.army,
                passed: vec![passed],
                waiting,
            });
        }
        after
    }

    /// The legal moves of a turn, with the position after each: any of its movers' pieces may
    /// move. A move must leave its own king safe and put no king of its team in check that was
    /// not already; moving several armies, it must also free every king of the turn's owners in
    /// check (or, if no move can, at least one). A partner's king whose pieces the owner may
    /// move (partner-moves) need not be freed: "obliged—but not required—to alleviate the
    /// check".
    fn legal(&self, pos: &Position, turn: &Turn) -> Vec<(Move, Position)> {
        let checked: Vec<bool> = (0..4).map(|a| self.in_check(pos, a)).collect();
        let mut moves = Vec::new();
        for &army in &turn.movers {
            let own = turn.owners.contains(&army);
            for m in self.pseudo_moves(pos, army) {
                let after = self.apply(pos, &m);
                let safe = (0..4)
                    .filter(|&b| !self.enemies(army, b))
                    .all(|b| ((b != army || !own) && checked[b]) || !self.in_check(&after, b));
                if safe {
                    moves.push((m, after));
                }
            }
        }
        let in_check: Vec<usize> = turn
            .owners
            .iter()
            .copied()
            .filter(|&a| checked[a])
            .collect();
        if turn.movers.len() > 1 && !in_check.is_empty() {
            let frees_all = |after: &Position| in_check.iter().all(|&a| !self.in_check(after, a));
            if moves.iter().any(|(_, after)| frees_all(after)) {
                moves.retain(|(_, after)| frees_all(after));
            } else {
                moves.retain(|(_, after)| in_check.iter().any(|&a| !self.in_check(after, a)));
            }
        }
        moves
    }

    fn perft(&self, pos: &Position, at: usize, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let turn = &self.turns[at];
        let moves = self.legal(pos, turn);
        if depth == 1 {
            return moves.len() as u64;
        }
        let next = (at + 1) % self.turns.len();
        moves
            .into_iter()
            .map(|(_, mut after)| {
                for e in &mut after.en_passant {
                    for &a in &turn.owners {
                        e.waiting &= !(1 << a);
                    }
                }
                after.en_passant.retain(|e| e.waiting != 0);
                self.perft(&after, next, depth - 1)
            })
            .sum()
    }

    /// The position and the index of the turn in a stored game, or `None` when there is nothing
    /// to compare (the game over, an army mated or stalemated, a king gone).
    fn read_saved(&self, json: &str) -> Option<(Position, usize)> {
        let v: Value = serde_json::from_str(json).unwrap();
        if !v["outcome"].is_null() {
            return None;
        }
        let table = &v["table"];
        for (a, army) in table["armies"].as_array().unwrap().iter().enumerate() {
            let expected = if self.present[a] {
                "Playing"
            } else {
                "Eliminated"
            };
            if army["status"] != expected {
                return None;
            }
        }
        let strings = |v: &Value| -> Vec<String> {
            v.as_array()
                .into_iter()
                .flatten()
                .map(|s| s.as_str().unwrap().to_string())
                .collect()
        };
        let p = &v["position"];
        let armies = strings(&p["armies"]);
        let castling = strings(&p["castling"]);
        let mut pos = Position::read(
            &armies.iter().map(String::as_str).collect::<Vec<_>>(),
            &castling.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        for e in p["en_passant"].as_array().into_iter().flatten() {
            pos.en_passant.push(EnPassant {
                pawn: square(e["pawn"].as_str().unwrap()),
                army: e["army"].as_u64().unwrap() as usize,
                passed: strings(&e["skipped"]).iter().map(|s| square(s)).collect(),
                waiting: e["waiting"].as_u64().unwrap() as u8,
            });
        }
        if (0..4).any(|a| self.present[a] && pos.king(a).is_none()) {
            return None;
        }
        let at = table["at"].as_u64().unwrap() as usize;
        let army = table["order"][at]["army"].as_u64().unwrap() as usize;
        assert_eq!(
            army, self.turns[at].owners[0],
            "turn {at} of {:?} with {} seats is not the army expected",
            self.options, self.seats
        );
        Some((pos, at))
    }
}

// ---- against the engine ---------------------------------------------------------------------

fn superchess() -> &'static dyn AnyGame {
    registry::variant("superchess").unwrap()
}

/// Both move lists of a position, for a report.
fn describe(game: &dyn AnyGame, state: &AnyState, mode: &Mode) -> String {
    let json = game.save(state).unwrap();
    let seat = game.prompts(state).unwrap()[0].seat;
    let engine: Vec<String> = game
        .legal_texts(state, seat)
        .unwrap()
        .into_iter()
        .filter(|t| !t.starts_with("resign"))
        .collect();
    let Some((pos, at)) = mode.read_saved(&json) else {
        return format!("{json}\n(no position to compare)");
    };
    let mine: Vec<String> = mode
        .legal(&pos, &mode.turns[at])
        .iter()
        .map(|(m, _)| m.text(&pos))
        .collect();
    format!(
        "{json}\nengine ({}): {}\nreference ({}): {}",
        engine.len(),
        engine.join(" "),
        mine.len(),
        mine.join(", ")
    )
}

/// Where the engine's perft and the reference's part: the line of moves down to the first
/// position whose moves differ.
fn explain(game: &dyn AnyGame, state: &AnyState, mode: &Mode, depth: u32) -> String {
    if depth > 1 {
        let seat = game.prompts(state).unwrap()[0].seat;
        for (text, count) in game.divide(state, depth).unwrap().unwrap() {
            let mut child = state.clone();
            game.play(&mut child, seat, &text).unwrap();
            let Some((pos, at)) = mode.read_saved(&game.save(&child).unwrap()) else {
                continue;
            };
            if mode.perft(&pos, at, depth - 1) != count {
                return format!("{text} {}", explain(game, &child, mode, depth - 1));
            }
        }
    }
    format!("then:\n{}", describe(game, state, mode))
}

#[test]
fn perft_from_the_start_in_every_way_of_taking_turns() {
    let game = superchess();
    let cases: [(usize, &'static [&'static str], u32); 7] = [
        (4, &[], 3),
        (3, &[], 3),
        (2, &[], 3),
        (2, &["turns=quadrant"], 3),
        (2, &["armies=2"], 4),
        (2, &["armies=2", "against=north"], 3),
        (4, &["partner-moves=always"], 3),
    ];
    let mut failures = Vec::new();
    for (seats, options, depth) in cases {
        let mode = Mode::new(seats, options);
        let state = game
            .setup(&Options::parse(options).unwrap(), seats, 0)
            .unwrap();
        let (pos, at) = mode.read_saved(&game.save(&state).unwrap()).unwrap();
        assert_eq!(
            pos,
            mode.start(),
            "the start of {options:?} with {seats} seats"
        );
        for d in 1..=depth {
            let mine = mode.perft(&pos, at, d);
            let engine = game.perft(&state, d).unwrap().unwrap();
            if mine != engine {
                failures.push(format!(
                    "{seats} seats {options:?} depth {d}: engine {engine}, reference {mine}; {}",
                    explain(game, &state, &mode, d)
                ));
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The reference's count of moves against the engine's in a stored position: `None` when they
/// agree or there is nothing to compare, else both lists.
fn compare(game: &dyn AnyGame, state: &AnyState, mode: &Mode) -> Option<String> {
    let (pos, at) = mode.read_saved(&game.save(state).unwrap())?;
    let mine = mode.legal(&pos, &mode.turns[at]).len() as u64;
    let engine = game.perft(state, 1).unwrap().unwrap();
    (mine != engine).then(|| {
        format!(
            "engine {engine}, reference {mine}\n{}",
            describe(game, state, mode)
        )
    })
}

#[test]
fn random_positions_have_as_many_moves_as_the_engine_finds() {
    let game = superchess();
    let ways: [(usize, &'static [&'static str]); 7] = [
        (4, &[]),
        (3, &[]),
        (2, &[]),
        (2, &["turns=quadrant"]),
        (2, &["armies=2"]),
        (2, &["armies=2", "against=north"]),
        (4, &["partner-moves=always"]),
    ];
    let (mut compared, mut failures) = (0, Vec::new());
    for (seats, options) in ways {
        let mode = Mode::new(seats, options);
        for seed in 0..8 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut state = game
                .setup(&Options::parse(options).unwrap(), seats, seed)
                .unwrap();
            for ply in 0..240 {
                if mode.read_saved(&game.save(&state).unwrap()).is_none() {
                    break;
                }
                if ply % 3 == 0 {
                    compared += 1;
                    if let Some(difference) = compare(game, &state, &mode) {
                        failures.push(format!(
                            "{seats} seats {options:?} seed {seed} ply {ply}: {difference}"
                        ));
                    }
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
                // Captures half the time, so that pawns break through and promote.
                let captures: Vec<&String> = texts.iter().filter(|t| t.contains('x')).collect();
                let text = if !captures.is_empty() && rng.gen_bool(0.5) {
                    captures[rng.gen_range(0..captures.len())]
                } else {
                    &texts[rng.gen_range(0..texts.len())]
                };
                game.play(&mut state, seat, text).unwrap();
            }
        }
    }
    assert!(compared >= 300, "only {compared} positions compared");
    assert!(
        failures.is_empty(),
        "{} of {compared} positions differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Brown's king on c3 in check from Tan's queen on c4, both Brown rooks (a4, d1) unmoved: Brown
/// may take the queen three ways, but not castle out of check.
#[test]
fn no_castling_out_of_check() {
    let game = superchess();
    let armies = [
        "Ra11 Nb11 Bc11 Qd11 Kc12 Bd12 Nd13 Rd14 Pe11 Pe12 Pe13 Pe14 P>a10 P>c10 P>d9 P>e8",
        "Kl12 Qk11 Rn11 Rk14 Nm11 Nk13 Bl11 Bk12 P^j10 Pk10 Pl10 Pm10 Pn10 P>j11 P>i12 P>h13 \
         P>j14",
        "Kk1 Qc4 Rl3 Rn4 Nj5 Nm4 Bk3 Bl4 Pj1 Pj2 Pj3 P>k5 P>l7 P>m5 P>n5",
        "Kc3 Ra4 Rd1 Nb4 Nd2 Bd3 Pb6 Pb8 Pc5 Pd5 P^e5 P>e2 P>e3 P>f1 P>h5",
    ];
    let castling = ["a11", "d14", "k14", "n11", "d1", "a4"];
    let mut failures = Vec::new();
    for (seats, options, at) in [(4, &[][..], 3), (2, &[][..], 1)] {
        let mode = Mode::new(seats, options);
        let start = game
            .setup(&Options::parse(options).unwrap(), seats, 0)
            .unwrap();
        let mut json: Value = serde_json::from_str(&game.save(&start).unwrap()).unwrap();
        json["position"]["armies"] = armies.into();
        json["position"]["castling"] = castling.into();
        json["position"]["turn"] = 3.into();
        json["table"]["at"] = at.into();
        let state = game.load(&json.to_string()).unwrap();
        let (pos, _) = mode.read_saved(&json.to_string()).unwrap();
        assert!(mode.in_check(&pos, 3), "Brown is in check");
        if let Some(difference) = compare(game, &state, &mode) {
            failures.push(format!("{seats} seats: {difference}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
