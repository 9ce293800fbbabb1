//! Tri-Chess's move generator against a plain reference written from the book's words alone
//! (Adams, chess IV.1), on the triangles' outlines: rooks parallel to an edge through sides,
//! bishops perpendicular to an edge through side and point in turn, kings to every triangle
//! touching theirs, knights two bishop steps and one through a side to either side, pawns a
//! bishop's step ahead and taking on the two same-coloured triangles diagonally forward. It
//! finds neighbours by searching the outlines and centres, never through the engine's step or
//! leap tables, and judges check by trying every enemy piece. It must list the same legal moves
//! on random positions, and count the same perft from every start in `tri-chess.perft`.

use std::collections::HashMap;

use engine::board::{Board, BoardSpec, Cell};
use engine::chess::{Piece, Position, Role, RulesSpec, Seat, Setup};
use engine::game::Options;
use proptest::prelude::*;
use rookery_tests::reference::{engine_moves, random_armies};

type P = (f64, f64);

const ROW: f64 = 0.866_025_403_784_438_6; // sqrt(3) / 2

fn unit(deg: f64) -> P {
    let r = deg.to_radians();
    (r.cos(), r.sin())
}

fn key(p: P) -> (i64, i64) {
    ((p.0 * 1000.0).round() as i64, (p.1 * 1000.0).round() as i64)
}

/// The board as outlines: centres, corners, and a search by centre.
struct Geometry {
    centres: Vec<P>,
    corners: Vec<Vec<(i64, i64)>>,
    at: HashMap<(i64, i64), Cell>,
    /// Per seat, the direction it faces (degrees) and its distance scale from its edge.
    facing: Vec<f64>,
    centre: P,
    apothem: f64,
    /// Per triangle, the next one along each line every 30 degrees (rooks at multiples of 60,
    /// bishops between), searched once over all outlines.
    lines: Vec<[Option<Cell>; 12]>,
}

impl Geometry {
    fn new(board: &Board) -> Geometry {
        let BoardSpec::TriHex { side, facing, .. } = board.spec() else {
            panic!("a tri-board")
        };
        let centres: Vec<P> = board
            .cells()
            .map(|c| {
                let poly = &board.info(c).polygon;
                let n = poly.len() as f64;
                (
                    poly.iter().map(|p| p[0] as f64).sum::<f64>() / n,
                    poly.iter().map(|p| p[1] as f64).sum::<f64>() / n,
                )
            })
            .collect();
        let corners = board
            .cells()
            .map(|c| {
                board
                    .info(c)
                    .polygon
                    .iter()
                    .map(|p| key((p[0] as f64, p[1] as f64)))
                    .collect()
            })
            .collect();
        let at = centres
            .iter()
            .enumerate()
            .map(|(i, &c)| (key(c), Cell(i as u16)))
            .collect();
        let n = *side as f64;
        let mut g = Geometry {
            centres,
            corners,
            at,
            facing: facing.iter().map(|&e| 90.0 - 60.0 * e as f64).collect(),
            centre: (n / 2.0, n * ROW),
            apothem: n * ROW,
            lines: Vec::new(),
        };
        g.lines = (0..g.centres.len())
            .map(|i| {
                std::array::from_fn(|d| {
                    let deg = 30.0 * d as f64;
                    if d % 2 == 0 {
                        g.search_rook_step(Cell(i as u16), deg)
                    } else {
                        g.search_bishop_step(Cell(i as u16), deg)
                    }
                })
            })
            .collect();
        g
    }

    fn find(&self, p: P) -> Option<Cell> {
        self.at.get(&key(p)).copied()
    }

    fn shared(&self, a: Cell, b: Cell) -> usize {
        self.corners[a.index()]
            .iter()
            .filter(|k| self.corners[b.index()].contains(k))
            .count()
    }

    /// Whether a triangle points up (one corner above its centre).
    fn up(&self, c: Cell) -> bool {
        let centre = self.centres[c.index()];
        self.corners[c.index()]
            .iter()
            .filter(|k| k.1 as f64 / 1000.0 > centre.1 + 0.01)
            .count()
            == 1
    }

    /// The next triangle along a rook's line at `deg` (a multiple of 60): across a side, in the
    /// same band between two lattice lines parallel to the line.
    fn search_rook_step(&self, from: Cell, deg: f64) -> Option<Cell> {
        let u = unit(deg);
        let n = unit(deg + 90.0);
        let c = self.centres[from.index()];
        let band = |p: P| ((p.0 * n.0 + p.1 * n.1) / ROW).floor() as i64;
        (0..self.centres.len())
            .map(|i| Cell(i as u16))
            .filter(|&t| self.shared(from, t) == 2)
            .find(|&t| {
                let p = self.centres[t.index()];
                band(p) == band(c) && (p.0 - c.0) * u.0 + (p.1 - c.1) * u.1 > 0.0
            })
    }

    /// The next triangle along a bishop's line at `deg` (30 + a multiple of 60): the nearest
    /// touching triangle whose centre lies straight that way.
    fn search_bishop_step(&self, from: Cell, deg: f64) -> Option<Cell> {
        let c = self.centres[from.index()];
        let u = unit(deg);
        (0..self.centres.len())
            .map(|i| Cell(i as u16))
            .filter(|&t| t != from && self.shared(from, t) >= 1)
            .find(|&t| {
                let p = self.centres[t.index()];
                let (dx, dy) = (p.0 - c.0, p.1 - c.1);
                let along = dx * u.0 + dy * u.1;
                along > 0.0 && (dx * u.1 - dy * u.0).abs() < 1e-3
            })
    }

    /// The knight's leaps: two bishop steps (their lengths sum to sqrt 3 whichever comes
    /// first), then one step through a side of the triangle reached, to either side. Each with
    /// its bishop direction and side, so a second leap can go on the same way.
    fn knight_ways(&self, from: Cell) -> Vec<(Cell, usize, bool)> {
        let c = self.centres[from.index()];
        // The triangle reached points as `from` does; its sides face these ways.
        let sides: [f64; 3] = if self.up(from) {
            [30.0, 150.0, 270.0]
        } else {
            [90.0, 210.0, 330.0]
        };
        let mut out = Vec::new();
        for k in 0..6 {
            let d = 30.0 + 60.0 * k as f64;
            let u = unit(d);
            let landing = (c.0 + 3f64.sqrt() * u.0, c.1 + 3f64.sqrt() * u.1);
            for turn in [60.0, 120.0, -60.0, -120.0] {
                let psi = (d + turn).rem_euclid(360.0);
                if sides.iter().any(|s| (s - psi).abs() < 1e-6) {
                    let v = unit(psi);
                    let side = 1.0 / 3f64.sqrt();
                    if let Some(t) = self.find((landing.0 + side * v.0, landing.1 + side * v.1)) {
                        out.push((t, k, turn > 0.0));
                    }
                }
            }
        }
        out
    }

    fn knight(&self, from: Cell) -> Vec<Cell> {
        self.knight_ways(from).into_iter().map(|w| w.0).collect()
    }

    /// A rook's step, from the table searched once.
    fn rook_step(&self, from: Cell, deg: f64) -> Option<Cell> {
        self.lines[from.index()][(deg.rem_euclid(360.0) / 30.0).round() as usize % 12]
    }

    /// A bishop's step, from the table searched once.
    fn bishop_step(&self, from: Cell, deg: f64) -> Option<Cell> {
        self.lines[from.index()][(deg.rem_euclid(360.0) / 30.0).round() as usize % 12]
    }

    /// Rows from a seat's own edge, from 0.
    fn rank(&self, seat: usize, c: Cell) -> i64 {
        let u = unit(self.facing[seat]);
        let p = self.centres[c.index()];
        let toward = (p.0 - self.centre.0) * u.0 + (p.1 - self.centre.1) * u.1;
        ((self.apothem + toward) / ROW).floor() as i64
    }
}

type Squares = Vec<Option<Piece>>;

/// A legal move as (from, to, promotion), the position after it, and the long step it makes.
type Played = ((Cell, Cell, Option<Role>), Squares, Option<Passed>);

/// A long pawn step enemies may still take en passant.
#[derive(Clone)]
struct Passed {
    cells: Vec<Cell>,
    pawn: Cell,
    army: usize,
    waiting: u8,
}

struct Game<'a> {
    g: &'a Geometry,
    teams: Vec<u8>,
    extended_pawns: bool,
    extended_knight: bool,
}

impl Game<'_> {
    fn enemy(&self, a: usize, b: usize) -> bool {
        self.teams[a] != self.teams[b]
    }

    /// The cells a piece on `from` attacks (for check), or may move to.
    fn targets(&self, sq: &Squares, from: Cell, p: Piece) -> Vec<Cell> {
        let g = self.g;
        let mut out = Vec::new();
        let slide = |step: &dyn Fn(Cell) -> Option<Cell>, out: &mut Vec<Cell>| {
            let mut c = from;
            while let Some(t) = step(c) {
                out.push(t);
                if sq[t.index()].is_some() {
                    break;
                }
                c = t;
            }
        };
        match p.role {
            Role::Rook | Role::Queen | Role::Bishop => {
                for k in 0..6 {
                    if p.role != Role::Bishop {
                        slide(&|c| g.rook_step(c, 60.0 * k as f64), &mut out);
                    }
                    if p.role != Role::Rook {
                        slide(&|c| g.bishop_step(c, 30.0 + 60.0 * k as f64), &mut out);
                    }
                }
            }
            Role::King => {
                out.extend(
                    (0..g.centres.len())
                        .map(|i| Cell(i as u16))
                        .filter(|&t| t != from && g.shared(from, t) >= 1),
                );
            }
            Role::Knight => out.extend(g.knight(from)),
            Role::Pawn => {
                let f = g.facing[p.seat.index()];
                let c = g.centres[from.index()];
                for d in [f - 30.0, f + 30.0] {
                    let u = unit(d);
                    out.extend(g.find((c.0 + u.0, c.1 + u.1)));
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    fn attacked(&self, sq: &Squares, target: Cell, us: usize) -> bool {
        sq.iter().enumerate().any(|(i, piece)| {
            piece.is_some_and(|p| {
                self.enemy(us, p.seat.index())
                    && self.targets(sq, Cell(i as u16), p).contains(&target)
            })
        })
    }

    /// Legal moves of `us` as (from, to, promotion), and the position after each.
    fn moves(&self, sq: &Squares, passed: &[Passed], us: usize) -> Vec<Played> {
        let g = self.g;
        let depth = 2 * (g.apothem / ROW).round() as i64;
        let mut out = Vec::new();
        let foe = |c: Cell| sq[c.index()].is_some_and(|p| self.enemy(us, p.seat.index()));
        for (i, piece) in sq.iter().enumerate() {
            let Some(p) = piece.filter(|p| p.seat.index() == us) else {
                continue;
            };
            let from = Cell(i as u16);
            // (to, long step's passed cells, pawn taken en passant)
            let mut dests: Vec<(Cell, Vec<Cell>, Option<Cell>)> = Vec::new();
            if p.role == Role::Pawn {
                let f = g.facing[us];
                let rank = g.rank(us, from);
                let most = if self.extended_pawns {
                    if rank == 1 {
                        3
                    } else if rank < depth / 2 {
                        2
                    } else {
                        1
                    }
                } else if rank == 1 {
                    2
                } else {
                    1
                };
                let mut c = from;
                let mut path = Vec::new();
                for _ in 0..most {
                    match g.bishop_step(c, f) {
                        Some(t) if sq[t.index()].is_none() => {
                            dests.push((t, path.clone(), None));
                            path.push(t);
                            c = t;
                        }
                        _ => break,
                    }
                }
                for t in self.targets(sq, from, p) {
                    if foe(t) {
                        dests.push((t, Vec::new(), None));
                    } else if sq[t.index()].is_none() {
                        if let Some(e) = passed.iter().find(|e| {
                            e.waiting & (1 << us) != 0
                                && e.cells.contains(&t)
                                && self.enemy(us, e.army)
                        }) {
                            dests.push((t, Vec::new(), Some(e.pawn)));
                        }
                    }
                }
            } else {
                for t in self.targets(sq, from, p) {
                    // Never onto a piece of one's own or a partner's.
                    if sq[t.index()].is_none() || foe(t) {
                        dests.push((t, Vec::new(), None));
                    }
                }
                if p.role == Role::Knight && self.extended_knight {
                    // Two knight's moves the same way (the same bishop direction, turning to
                    // the same side), over an empty landing triangle to an empty one.
                    for (mid, k, left) in g.knight_ways(from) {
                        if sq[mid.index()].is_some() {
                            continue;
                        }
                        for (to, k2, left2) in g.knight_ways(mid) {
                            if (k2, left2) == (k, left) && sq[to.index()].is_none() {
                                dests.push((to, Vec::new(), None));
                            }
                        }
                    }
                }
            }
            for (to, path, victim) in dests {
                let promotes = p.role == Role::Pawn
                    && g.bishop_step(to, g.facing[us]).is_none()
                    && 2 * g.rank(us, to) >= depth;
                let roles: Vec<Option<Role>> = if promotes {
                    [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
                        .map(Some)
                        .to_vec()
                } else {
                    vec![None]
                };
                for promo in roles {
                    let mut after = sq.clone();
                    after[from.index()] = None;
                    if let Some(v) = victim {
                        after[v.index()] = None;
                    }
                    after[to.index()] = Some(Piece {
                        seat: p.seat,
                        role: promo.unwrap_or(p.role),
                    });
                    let king = after.iter().position(|x| {
                        x.is_some_and(|x| x.seat.index() == us && x.role == Role::King)
                    });
                    if king.is_some_and(|k| self.attacked(&after, Cell(k as u16), us)) {
                        continue;
                    }
                    let long = (!path.is_empty()).then(|| Passed {
                        cells: path.clone(),
                        pawn: to,
                        army: us,
                        waiting: (0..self.teams.len())
                            .filter(|&e| self.enemy(us, e))
                            .fold(0, |m, e| m | 1 << e),
                    });
                    out.push(((from, to, promo), after, long));
                }
            }
        }
        out.sort_by_key(|m| m.0);
        out.dedup_by_key(|m| m.0);
        out
    }

    fn perft(
        &self,
        sq: &Squares,
        passed: &[Passed],
        order: &[usize],
        turn: usize,
        depth: u32,
    ) -> u64 {
        let us = order[turn % order.len()];
        let moves = self.moves(sq, passed, us);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|(_, after, long)| {
                // The mover's own long steps lapse, as does its chance at the others'.
                let mut next: Vec<Passed> = passed
                    .iter()
                    .filter(|e| e.army != us && after[e.pawn.index()].is_some())
                    .cloned()
                    .map(|mut e| {
                        e.waiting &= !(1 << us);
                        e
                    })
                    .filter(|e| e.waiting != 0)
                    .collect();
                next.extend(long);
                self.perft(&after, &next, order, turn + 1, depth - 1)
            })
            .sum()
    }
}

/// A random position on one of the boards: each army's king and a handful of pieces.
fn random_position(kind: u8, seed: u64) -> Option<(Position, Squares)> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (side, facing, cut): (u8, Vec<u8>, Vec<u16>) = match kind {
        0 => (4, vec![3, 0], Vec::new()),
        1 => (5, vec![0, 2, 4], vec![1, 2, 11, 12]),
        _ => (6, (0..6).collect(), vec![1, 2, 13, 14, 200, 216]),
    };
    let seats = facing.len();
    let mut spec = RulesSpec::new(
        BoardSpec::TriHex {
            side,
            facing,
            cut,
            extra: Vec::new(),
        },
        (0..seats as u8).collect(),
    );
    spec.extended_knight = rng.gen_bool(0.5);
    let rules = spec.build();
    let n = rules.board().len();
    let cells = random_armies(&mut rng, n, seats, 1..6);
    let setup = Setup {
        cells: cells.clone(),
        turn: Seat(rng.gen_range(0..seats as u8)),
        castling_rooks: Vec::new(),
        ep_target: None,
        halfmoves: 0,
        fullmoves: 1,
    };
    let pos = Position::from_setup(setup, rules).ok()?;
    Some((pos, cells))
}

/// A random position the chess rules accept (most are refused with several armies: one not to
/// move stands in check), trying up to twenty draws from the seed.
fn accepted_position(kind: u8, seed: u64) -> Option<(Position, Squares)> {
    (0..20).find_map(|i| random_position(kind, seed.wrapping_mul(31).wrapping_add(i)))
}

fn compare(kind: u8, seed: u64) -> bool {
    let Some((pos, sq)) = accepted_position(kind, seed) else {
        return false;
    };
    let g = Geometry::new(pos.board());
    let game = Game {
        g: &g,
        teams: (0..pos.rules().seats() as u8).collect(),
        extended_pawns: false,
        extended_knight: pos.rules().extended_knight(),
    };
    let mut reference: Vec<_> = game
        .moves(&sq, &[], pos.turn().index())
        .into_iter()
        .map(|m| m.0)
        .collect();
    reference.sort();
    assert_eq!(engine_moves(&pos), reference, "board {kind}, seed {seed}");
    true
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn the_generator_agrees_with_the_reference(kind in 0u8..3, seed in any::<u64>()) {
        compare(kind, seed);
    }
}

/// Random positions are really compared: nearly every seed finds one the chess rules accept.
#[test]
fn most_random_positions_are_compared() {
    let compared = (0..45u64).filter(|&s| compare((s % 3) as u8, s)).count();
    assert!(
        compared >= 40,
        "only {compared} of 45 positions were compared"
    );
}

/// Perft from every start in `tests/data/tri-chess.perft`, counted by the reference alone in
/// the book's sequence of moves, equals the engine's counts (depth 3 for two and three
/// players, depth 2 from four up, to keep the reference's
/// plain search short).
#[test]
fn the_reference_counts_the_starts_like_the_engine() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/tri-chess.perft"),
    )
    .unwrap();
    let mut players = 0;
    let mut options = Vec::new();
    let mut checked = 0;
    for line in text.lines().map(str::trim) {
        if let Some(n) = line.strip_prefix("players =") {
            players = n.trim().parse().unwrap();
            options.clear();
        } else if let Some(o) = line.strip_prefix("option =") {
            options.push(o.trim().to_string());
        } else if let Some(counts) = line.strip_prefix("start ;") {
            let counts: Vec<u64> = counts
                .split(';')
                .map(|f| f.split_whitespace().nth(1).unwrap().parse().unwrap())
                .collect();
            let opts = Options::parse(&options).unwrap();
            let variant = engine::registry::variant("tri-chess").unwrap();
            let state = variant.setup(&opts, players, 0).unwrap();
            let view = variant.view(&state, engine::Viewer::Spectator).unwrap();
            let mut sq: Squares = vec![None; view.board.len()];
            for f in &view.figures {
                if let engine::view::Figure::Chess(role) = f.figure {
                    sq[f.cell.index()] = Some(Piece { seat: f.army, role });
                }
            }
            // Teams and sequences as the book gives them.
            let pattern = options
                .iter()
                .find_map(|o| o.strip_prefix("teams="))
                .unwrap_or("");
            let (teams, order): (Vec<u8>, Vec<usize>) = match pattern {
                "AB-CD" => (vec![0, 0, 1, 1], vec![0, 2, 1, 3]),
                "AC-BD" => (vec![0, 1, 0, 1], vec![0, 1, 2, 3]),
                "AD-BC" => (vec![0, 1, 1, 0], vec![3, 2, 0, 1]),
                "AB-CD-EF" => (vec![0, 0, 1, 1, 2, 2], vec![0, 2, 4, 1, 3, 5]),
                "ABC-DEF" => (vec![0, 0, 0, 1, 1, 1], vec![0, 3, 1, 4, 2, 5]),
                _ => ((0..players as u8).collect(), (0..players).collect()),
            };
            let g = Geometry::new(&view.board);
            let game = Game {
                g: &g,
                teams,
                extended_pawns: players > 2 && !options.iter().any(|o| o == "pawns=plain"),
                extended_knight: options.iter().any(|o| o == "knight=extended"),
            };
            let deepest = if players >= 4 { 2 } else { 3 };
            for (depth, &n) in (1..=deepest).zip(&counts) {
                assert_eq!(
                    game.perft(&sq, &[], &order, 0, depth),
                    n,
                    "{players} players {options:?}, depth {depth}"
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 17);
}
