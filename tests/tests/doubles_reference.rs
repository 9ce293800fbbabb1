//! Doubles Chess's move generator against a plain reference written from the book's rules alone
//! (Adams, chess III): a 12x12 array with the corners' four squares cut away in cut-throat,
//! every army's own pair of side edges joined on the cylinder, pawns going one to three squares
//! on their first move, one or two until the centre, then one, and taken en passant on any
//! square they passed, at right angles too, by each enemy on its next turn; knights adding a
//! second hop the same way to an empty square over an empty one; legality judged by playing each
//! move on a copy and looking for attacks on the mover's own king (a partner's need not be
//! defended). Castling is left out: no army can castle in the first round, every king having
//! its own pieces beside it. It must count the same perft as the engine from every start, and
//! the counts in `tests/data/doubles.perft`.

use engine::game::{AnyGame, AnyState, Options};
use engine::registry;
use engine::view::{Figure, Viewer};

/// A square as (file, rank), both from 0: a1 is (0, 0), l12 is (11, 11).
type Sq = (i32, i32);

const SIZE: i32 = 12;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
}

impl Role {
    fn read(letter: char) -> Role {
        match letter {
            'K' => Role::King,
            'Q' => Role::Queen,
            'R' => Role::Rook,
            'B' => Role::Bishop,
            'N' => Role::Knight,
            'P' => Role::Pawn,
            other => panic!("'{other}' is not a piece"),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Piece {
    army: usize,
    role: Role,
}

fn square(label: &str) -> Sq {
    let file = label.as_bytes()[0] - b'a';
    let rank: i32 = label[1..].parse().unwrap();
    (file as i32, rank - 1)
}

fn label((file, rank): Sq) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// The armies as the book's text fixes them (`RULES-NOTES.md`): White 1 on the bottom edge,
/// Black 1 at the top, White 2 at the left, Black 2 at the right, each on the middle eight
/// squares of its edge with its pawns in front, kings toward the friendly corners (a1 for the
/// Whites, l12 for the Blacks): "W2's King rests on square A6, while B2's QBP rests on K5".
const START: [&str; 4] = [
    "Rc1 Nd1 Be1 Kf1 Qg1 Bh1 Ni1 Rj1 Pc2 Pd2 Pe2 Pf2 Pg2 Ph2 Pi2 Pj2",
    "Rc12 Nd12 Be12 Qf12 Kg12 Bh12 Ni12 Rj12 Pc11 Pd11 Pe11 Pf11 Pg11 Ph11 Pi11 Pj11",
    "Ra3 Na4 Ba5 Ka6 Qa7 Ba8 Na9 Ra10 Pb3 Pb4 Pb5 Pb6 Pb7 Pb8 Pb9 Pb10",
    "Rl3 Nl4 Bl5 Ql6 Kl7 Bl8 Nl9 Rl10 Pk3 Pk4 Pk5 Pk6 Pk7 Pk8 Pk9 Pk10",
];

/// Each army's forward direction: White 1 up, Black 1 down, White 2 right, Black 2 left.
const FORWARD: [Sq; 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

const ORTHOGONAL: [Sq; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [Sq; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
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

/// The two directions a pawn of `army` captures in: one square forward and one to a side.
fn pawn_captures(army: usize) -> [Sq; 2] {
    let (df, dr) = FORWARD[army];
    [(df + dr, dr + df), (df - dr, dr - df)]
}

/// How far a square lies from `army`'s own edge, 0 to 11.
fn row(army: usize, (file, rank): Sq) -> i32 {
    match army {
        0 => rank,
        1 => SIZE - 1 - rank,
        2 => file,
        _ => SIZE - 1 - file,
    }
}

/// A long pawn step enemies may still take en passant: the pawn, its army, the squares it
/// passed, and the armies (a bit each) whose next turn has not come yet.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Passed {
    pawn: Sq,
    army: usize,
    squares: Vec<Sq>,
    waiting: u8,
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct Position {
    /// By file, then rank.
    board: [[Option<Piece>; 12]; 12],
    passed: Vec<Passed>,
}

impl Position {
    fn at(&self, (f, r): Sq) -> Option<Piece> {
        self.board[f as usize][r as usize]
    }
    fn put(&mut self, (f, r): Sq, piece: Option<Piece>) {
        self.board[f as usize][r as usize] = piece;
    }
    fn king(&self, army: usize) -> Option<Sq> {
        (0..SIZE)
            .flat_map(|f| (0..SIZE).map(move |r| (f, r)))
            .find(|&s| {
                self.at(s)
                    == Some(Piece {
                        army,
                        role: Role::King,
                    })
            })
    }
}

/// A move as (from, to, promotion), and the position after it.
type Played = ((Sq, Sq, Option<Role>), Position);

/// A way of playing: partners or cut-throat, on the flat board or the cylinder.
struct Rules {
    cut_throat: bool,
    cylinder: bool,
}

impl Rules {
    fn teams(&self) -> [usize; 4] {
        if self.cut_throat {
            [0, 1, 2, 3]
        } else {
            [0, 1, 0, 1]
        }
    }

    /// Partners: W1, B1, W2, B2. Cut-throat: clockwise from White 1.
    fn order(&self) -> [usize; 4] {
        if self.cut_throat {
            [0, 2, 1, 3]
        } else {
            [0, 1, 2, 3]
        }
    }

    fn enemies(&self, a: usize, b: usize) -> bool {
        self.teams()[a] != self.teams()[b]
    }

    fn playable(&self, (f, r): Sq) -> bool {
        let inside = (0..SIZE).contains(&f) && (0..SIZE).contains(&r);
        let corner = self.cut_throat && f.min(SIZE - 1 - f) < 2 && r.min(SIZE - 1 - r) < 2;
        inside && !corner
    }

    /// Where `army`'s piece lands going from `from` by `(df, dr)` in one move: on the cylinder
    /// White 1's and Black 1's files wrap round, White 2's and Black 2's ranks.
    fn go(&self, army: usize, (f, r): Sq, (df, dr): Sq) -> Option<Sq> {
        let (mut f, mut r) = (f + df, r + dr);
        if self.cylinder {
            if army < 2 {
                f = f.rem_euclid(SIZE);
            } else {
                r = r.rem_euclid(SIZE);
            }
        }
        self.playable((f, r)).then_some((f, r))
    }

    fn start(&self) -> Position {
        let mut pos = Position {
            board: [[None; 12]; 12],
            passed: Vec::new(),
        };
        for (army, line) in START.iter().enumerate() {
            for word in line.split_whitespace() {
                let role = Role::read(word.chars().next().unwrap());
                pos.put(square(&word[1..]), Some(Piece { army, role }));
            }
        }
        pos
    }

    /// Whether a piece of an enemy of `army` attacks `target`. Each enemy's lines are traced
    /// back from the target on that enemy's own board.
    fn attacked(&self, pos: &Position, target: Sq, army: usize) -> bool {
        (0..4).filter(|&e| self.enemies(army, e)).any(|e| {
            let is = |s: Option<Sq>, roles: &[Role]| {
                s.and_then(|s| pos.at(s))
                    .is_some_and(|p| p.army == e && roles.contains(&p.role))
            };
            let back = |(df, dr): Sq| (-df, -dr);
            let slider = |d: Sq, roles: &[Role]| {
                let mut s = target;
                while let Some(next) = self.go(e, s, d) {
                    if next == target {
                        return false;
                    }
                    if pos.at(next).is_some() {
                        return is(Some(next), roles);
                    }
                    s = next;
                }
                false
            };
            KNIGHT
                .iter()
                .any(|&j| is(self.go(e, target, back(j)), &[Role::Knight]))
                || ORTHOGONAL
                    .iter()
                    .chain(&DIAGONAL)
                    .any(|&d| is(self.go(e, target, back(d)), &[Role::King]))
                || pawn_captures(e)
                    .iter()
                    .any(|&d| is(self.go(e, target, back(d)), &[Role::Pawn]))
                || ORTHOGONAL
                    .iter()
                    .any(|&d| slider(d, &[Role::Rook, Role::Queen]))
                || DIAGONAL
                    .iter()
                    .any(|&d| slider(d, &[Role::Bishop, Role::Queen]))
        })
    }

    /// Every move of `army` by how its pieces move, as (from, to, promotion, pawn taken en
    /// passant, squares a long pawn step passed).
    #[allow(clippy::type_complexity)]
    fn pseudo_moves(
        &self,
        pos: &Position,
        army: usize,
    ) -> Vec<(Sq, Sq, Option<Role>, Option<Sq>, Vec<Sq>)> {
        let mut out = Vec::new();
        let open = |s: Sq| pos.at(s).is_none_or(|p| self.enemies(army, p.army));
        for f in 0..SIZE {
            for r in 0..SIZE {
                let from = (f, r);
                let Some(piece) = pos.at(from).filter(|p| p.army == army) else {
                    continue;
                };
                match piece.role {
                    Role::Pawn => self.pawn_moves(pos, from, army, &mut out),
                    Role::Knight => {
                        for &j in &KNIGHT {
                            let Some(to) = self.go(army, from, j) else {
                                continue;
                            };
                            if open(to) {
                                out.push((from, to, None, None, Vec::new()));
                            }
                            // The second hop: the same way again, over an empty square to an
                            // empty one, never capturing.
                            if pos.at(to).is_none() {
                                if let Some(far) = self.go(army, to, j) {
                                    if pos.at(far).is_none() && far != from {
                                        out.push((from, far, None, None, Vec::new()));
                                    }
                                }
                            }
                        }
                    }
                    Role::King => {
                        for &d in ORTHOGONAL.iter().chain(&DIAGONAL) {
                            if let Some(to) = self.go(army, from, d).filter(|&s| open(s)) {
                                out.push((from, to, None, None, Vec::new()));
                            }
                        }
                    }
                    slider => {
                        let lines: Vec<Sq> = match slider {
                            Role::Rook => ORTHOGONAL.to_vec(),
                            Role::Bishop => DIAGONAL.to_vec(),
                            _ => ORTHOGONAL.iter().chain(&DIAGONAL).copied().collect(),
                        };
                        for d in lines {
                            let mut s = from;
                            while let Some(to) = self.go(army, s, d) {
                                if to == from || !open(to) {
                                    break;
                                }
                                out.push((from, to, None, None, Vec::new()));
                                if pos.at(to).is_some() {
                                    break;
                                }
                                s = to;
                            }
                        }
                    }
                }
            }
        }
        out
    }

    #[allow(clippy::type_complexity)]
    fn pawn_moves(
        &self,
        pos: &Position,
        from: Sq,
        army: usize,
        out: &mut Vec<(Sq, Sq, Option<Role>, Option<Sq>, Vec<Sq>)>,
    ) {
        let promotions = |to: Sq| -> Vec<Option<Role>> {
            if row(army, to) == SIZE - 1 {
                [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
                    .map(Some)
                    .to_vec()
            } else {
                vec![None]
            }
        };
        // One, two or three squares from the second row; one or two until the centre; then
        // one.
        let most = match row(army, from) {
            1 => 3,
            r if (1..SIZE / 2).contains(&r) => 2,
            _ => 1,
        };
        let mut passed = Vec::new();
        let mut s = from;
        for _ in 0..most {
            match self.go(army, s, FORWARD[army]) {
                Some(to) if pos.at(to).is_none() => {
                    for promo in promotions(to) {
                        out.push((from, to, promo, None, passed.clone()));
                    }
                    passed.push(to);
                    s = to;
                }
                _ => break,
            }
        }
        for d in pawn_captures(army) {
            let Some(to) = self.go(army, from, d) else {
                continue;
            };
            match pos.at(to) {
                Some(p) if self.enemies(army, p.army) => {
                    for promo in promotions(to) {
                        out.push((from, to, promo, None, Vec::new()));
                    }
                }
                Some(_) => {}
                None => {
                    let chance = pos.passed.iter().find(|e| {
                        e.waiting & (1 << army) != 0
                            && e.squares.contains(&to)
                            && self.enemies(army, e.army)
                            && pos.at(e.pawn)
                                == Some(Piece {
                                    army: e.army,
                                    role: Role::Pawn,
                                })
                    });
                    if let Some(e) = chance {
                        for promo in promotions(to) {
                            out.push((from, to, promo, Some(e.pawn), Vec::new()));
                        }
                    }
                }
            }
        }
    }

    /// The legal moves of `army`: those that leave its own king unattacked.
    fn legal(&self, pos: &Position, army: usize) -> Vec<Played> {
        let mut moves = Vec::new();
        for (from, to, promo, taken, passed) in self.pseudo_moves(pos, army) {
            let mut after = pos.clone();
            let piece = pos.at(from).unwrap();
            after.put(from, None);
            if let Some(t) = taken {
                after.put(t, None);
            }
            after.put(
                to,
                Some(Piece {
                    army,
                    role: promo.unwrap_or(piece.role),
                }),
            );
            if after
                .king(army)
                .is_some_and(|k| self.attacked(&after, k, army))
            {
                continue;
            }
            // The mover's own chances lapse, as does its chance at the others'; a pawn no
            // longer there cannot be taken.
            after.passed.retain(|e| e.army != army);
            for e in &mut after.passed {
                e.waiting &= !(1 << army);
            }
            let board = after.clone();
            after.passed.retain(|e| {
                e.waiting != 0
                    && board.at(e.pawn)
                        == Some(Piece {
                            army: e.army,
                            role: Role::Pawn,
                        })
            });
            if !passed.is_empty() {
                let waiting = (0..4)
                    .filter(|&b| self.enemies(army, b))
                    .fold(0, |w, b| w | (1 << b));
                after.passed.push(Passed {
                    pawn: to,
                    army,
                    squares: passed,
                    waiting,
                });
            }
            moves.push(((from, to, promo), after));
        }
        moves
    }

    fn perft(&self, pos: &Position, turn: usize, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let army = self.order()[turn % 4];
        let moves = self.legal(pos, army);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|(_, after)| self.perft(after, turn + 1, depth - 1))
            .sum()
    }
}

// ---- against the engine ---------------------------------------------------------------------

const WAYS: [(&str, &str); 4] = [
    ("partners", "flat"),
    ("partners", "cylinder"),
    ("cutthroat", "flat"),
    ("cutthroat", "cylinder"),
];

fn doubles() -> &'static dyn AnyGame {
    registry::variant("doubles").unwrap()
}

fn setup(mode: &str, board: &str) -> (AnyState, Rules) {
    let options = Options::parse([format!("mode={mode}"), format!("board={board}")]).unwrap();
    let state = doubles().setup(&options, 4, 0).unwrap();
    let rules = Rules {
        cut_throat: mode == "cutthroat",
        cylinder: board == "cylinder",
    };
    (state, rules)
}

/// The engine's start, read from its picture: (square, army, role) sorted.
fn engine_start(state: &AnyState) -> Vec<(String, usize, char)> {
    let view = doubles().view(state, Viewer::Spectator).unwrap();
    let mut pieces: Vec<(String, usize, char)> = view
        .figures
        .iter()
        .map(|f| {
            let Figure::Chess(role) = f.figure else {
                panic!("a chess piece")
            };
            (
                view.board.label(f.cell).to_string(),
                f.army.index(),
                role.upper_char(),
            )
        })
        .collect();
    pieces.sort();
    pieces
}

fn reference_start(pos: &Position) -> Vec<(String, usize, char)> {
    let mut pieces = Vec::new();
    for f in 0..SIZE {
        for r in 0..SIZE {
            if let Some(p) = pos.at((f, r)) {
                let letter = match p.role {
                    Role::King => 'K',
                    Role::Queen => 'Q',
                    Role::Rook => 'R',
                    Role::Bishop => 'B',
                    Role::Knight => 'N',
                    Role::Pawn => 'P',
                };
                pieces.push((label((f, r)), p.army, letter));
            }
        }
    }
    pieces.sort();
    pieces
}

/// Where the counts part: the engine's first moves with their counts, and the reference's.
fn explain(state: &AnyState, rules: &Rules, depth: u32) -> String {
    let pos = rules.start();
    let mut engine: Vec<String> = doubles()
        .divide(state, depth)
        .unwrap()
        .unwrap()
        .into_iter()
        .map(|(text, n)| format!("{text}: {n}"))
        .collect();
    engine.sort();
    let mut mine: Vec<String> = rules
        .legal(&pos, rules.order()[0])
        .iter()
        .map(|((from, to, _), after)| {
            format!(
                "{}-{}: {}",
                label(*from),
                label(*to),
                rules.perft(after, 1, depth - 1)
            )
        })
        .collect();
    mine.sort();
    format!(
        "engine ({}): {}\nreference ({}): {}",
        engine.len(),
        engine.join(", "),
        mine.len(),
        mine.join(", ")
    )
}

#[test]
fn the_reference_starts_from_the_engines_position() {
    for (mode, board) in WAYS {
        let (state, rules) = setup(mode, board);
        assert_eq!(
            engine_start(&state),
            reference_start(&rules.start()),
            "{mode} {board}"
        );
    }
}

#[test]
fn perft_from_every_start_matches_the_reference() {
    let mut failures = Vec::new();
    for (mode, board) in WAYS {
        let (state, rules) = setup(mode, board);
        let pos = rules.start();
        for depth in 1..=3 {
            let mine = rules.perft(&pos, 0, depth);
            let engine = doubles().perft(&state, depth).unwrap().unwrap();
            if mine != engine {
                failures.push(format!(
                    "{mode} {board} depth {depth}: engine {engine}, reference {mine}\n{}",
                    explain(&state, &rules, depth)
                ));
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The counts in `tests/data/doubles.perft` (which the generic perft test checks against the
/// engine) are the reference's too.
#[test]
fn the_reference_counts_the_published_starts() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/doubles.perft"),
    )
    .unwrap();
    let mut options: Vec<String> = Vec::new();
    let mut checked = 0;
    for line in text.lines().map(str::trim) {
        if line.starts_with("variant =") {
            options.clear();
        } else if let Some(o) = line.strip_prefix("option =") {
            options.push(o.trim().to_string());
        } else if let Some(counts) = line.strip_prefix("start ;") {
            let value = |key: &str, default: &'static str| {
                options
                    .iter()
                    .find_map(|o| o.strip_prefix(key).map(str::to_string))
                    .unwrap_or_else(|| default.to_string())
            };
            let rules = Rules {
                cut_throat: value("mode=", "partners") == "cutthroat",
                cylinder: value("board=", "flat") == "cylinder",
            };
            let pos = rules.start();
            for field in counts.split(';') {
                let (depth, n) = field.trim().split_once(' ').unwrap();
                let depth: u32 = depth.trim_start_matches('D').parse().unwrap();
                let n: u64 = n.trim().parse().unwrap();
                assert_eq!(rules.perft(&pos, 0, depth), n, "{options:?} depth {depth}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 4, "every mode on both boards");
}
