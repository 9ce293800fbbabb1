//! The checkers move generator against a plain reference written from the rules alone: on
//! random positions of every game of the family, for two and for four players, both must list
//! the same moves. The reference works in board coordinates and the rule book's words (forward
//! is where the seat faces; edges touch as its board says; only kings cross the ends of a
//! universal board; jumps are compulsory and complete; a man crowned mid-chain stops; partners
//! are never jumped; numbered men jump no higher number; only kings jump kings), with none of
//! the engine's step tables, bit sets or jump search.

use engine::board::Wrap;
use engine::checkers::{Checker, CheckersPosition, CheckersRules, Colours, Kind, Mode, Seating};
use engine::{Cell, Seat};
use proptest::prelude::*;

/// A square in board coordinates (file, rank), from 0 at the bottom left.
type Xy = (i32, i32);
/// A move as listed for comparison: where it starts and every square it lands on.
type Listed = (Xy, Vec<Xy>);

/// A seat's view of the board: (file, rank) steps for its headings.
struct Frame {
    /// Quarter turns clockwise from facing up the board.
    quarter_turns: u8,
    wrap: Wrap,
    team: u8,
}

impl Frame {
    /// The board offset of a step `(right, forward)` in this seat's own terms.
    fn turn(&self, right: i32, forward: i32) -> (i32, i32) {
        match self.quarter_turns % 4 {
            0 => (right, forward),
            1 => (forward, -right),
            2 => (-right, -forward),
            _ => (-forward, right),
        }
    }
}

struct Reference<'a> {
    pos: &'a CheckersPosition,
    files: i32,
    ranks: i32,
    frames: Vec<Frame>,
}

impl<'a> Reference<'a> {
    fn new(pos: &'a CheckersPosition) -> Reference<'a> {
        let (files, ranks) = pos.board().grid_size().unwrap();
        let frames = pos
            .rules()
            .plans()
            .iter()
            .enumerate()
            .map(|(i, plan)| Frame {
                quarter_turns: pos.board().frame(i).quarter_turns(),
                wrap: plan.wrap,
                team: plan.team,
            })
            .collect();
        Reference {
            pos,
            files: files as i32,
            ranks: ranks as i32,
            frames,
        }
    }

    fn at(&self, f: i32, r: i32) -> Option<Cell> {
        self.pos.board().at(f, r)
    }

    /// One step of `checker` from (f, r) by the board offset (df, dr): where it lands, if the
    /// board lets it (wrapping where the seat's edges touch; a man never crosses the ends of
    /// a universal board, which are the edges before and behind it).
    fn step(
        &self,
        checker: Checker,
        (f, r): (i32, i32),
        (df, dr): (i32, i32),
    ) -> Option<(i32, i32)> {
        let frame = &self.frames[checker.seat.index()];
        let (mut nf, mut nr) = (f + df, r + dr);
        let wraps_files = matches!(frame.wrap, Wrap::Files | Wrap::Both);
        let wraps_ranks = matches!(frame.wrap, Wrap::Ranks | Wrap::Both);
        let crossed_files = !(0..self.files).contains(&nf);
        let crossed_ranks = !(0..self.ranks).contains(&nr);
        if crossed_files {
            if !wraps_files {
                return None;
            }
            nf = nf.rem_euclid(self.files);
        }
        if crossed_ranks {
            if !wraps_ranks {
                return None;
            }
            nr = nr.rem_euclid(self.ranks);
        }
        if !checker.king && frame.wrap == Wrap::Both {
            // The ends of a universal board: ranks for seats at the top and bottom, files
            // for seats at the sides.
            let ends_are_files = frame.quarter_turns % 2 == 1;
            if (ends_are_files && crossed_files) || (!ends_are_files && crossed_ranks) {
                return None;
            }
        }
        self.at(nf, nr).map(|_| (nf, nr))
    }

    fn coord(&self, cell: Cell) -> (i32, i32) {
        let (f, r) = self.pos.board().coord(cell);
        (f as i32, r as i32)
    }

    fn top(&self, at: (i32, i32)) -> Option<Checker> {
        self.pos.top(self.at(at.0, at.1)?)
    }

    fn empty(&self, at: (i32, i32)) -> bool {
        self.pos.stack(self.at(at.0, at.1).unwrap()).is_empty()
    }

    /// Whether `checker` would be crowned on `at`: the far edge as its seat faces the board.
    fn king_row(&self, seat: Seat, (f, r): (i32, i32)) -> bool {
        match self.frames[seat.index()].quarter_turns % 4 {
            0 => r == self.ranks - 1,
            1 => f == self.files - 1,
            2 => r == 0,
            _ => f == 0,
        }
    }

    fn step_offsets(&self, checker: Checker) -> Vec<(i32, i32)> {
        let frame = &self.frames[checker.seat.index()];
        let forward: &[(i32, i32)] = &[(-1, 1), (1, 1)];
        let all_diagonal: &[(i32, i32)] = &[(-1, 1), (1, 1), (-1, -1), (1, -1)];
        let list = if checker.king { all_diagonal } else { forward };
        list.iter().map(|&(x, y)| frame.turn(x, y)).collect()
    }

    fn jump_offsets(&self, checker: Checker) -> Vec<(i32, i32)> {
        let frame = &self.frames[checker.seat.index()];
        let list: Vec<(i32, i32)> = match (self.pos.rules().kind, checker.king) {
            (Kind::Queens, false) => vec![(-1, 1), (0, 1), (1, 1)],
            (Kind::Queens, true) => vec![
                (-1, 1),
                (0, 1),
                (1, 1),
                (-1, 0),
                (1, 0),
                (-1, -1),
                (0, -1),
                (1, -1),
            ],
            (_, false) => vec![(-1, 1), (1, 1)],
            (_, true) => vec![(-1, 1), (1, 1), (-1, -1), (1, -1)],
        };
        list.iter().map(|&(x, y)| frame.turn(x, y)).collect()
    }

    fn may_jump(&self, mover: Checker, victim: Checker) -> bool {
        if self.frames[mover.seat.index()].team == self.frames[victim.seat.index()].team {
            return false;
        }
        match (mover.number, victim.number) {
            (Some(a), Some(b)) => mover.king || (!victim.king && b <= a),
            _ => true,
        }
    }

    /// Every complete chain of jumps from `at` (origin `from`), as paths of landing squares.
    fn chains(
        &self,
        mover: Checker,
        from: (i32, i32),
        at: (i32, i32),
        jumped: &mut Vec<(i32, i32)>,
        path: &mut Vec<(i32, i32)>,
        out: &mut Vec<Vec<(i32, i32)>>,
    ) {
        let mut extended = false;
        for d in self.jump_offsets(mover) {
            let Some(over) = self.step(mover, at, d) else {
                continue;
            };
            let Some(land) = self.step(mover, over, d) else {
                continue;
            };
            let Some(victim) = self.top(over) else {
                continue;
            };
            if !self.may_jump(mover, victim) || jumped.contains(&over) {
                continue;
            }
            if !(land == from || self.empty(land)) {
                continue;
            }
            extended = true;
            jumped.push(over);
            path.push(land);
            if !mover.king && self.king_row(mover.seat, land) {
                out.push(path.clone());
            } else {
                self.chains(mover, from, land, jumped, path, out);
            }
            jumped.pop();
            path.pop();
        }
        if !extended && !path.is_empty() {
            out.push(path.clone());
        }
    }

    /// The legal moves of the side to move, as (from, path) in coordinates, sorted.
    fn moves(&self) -> Vec<Listed> {
        let turn = self.pos.turn();
        if self.pos.is_out(turn) {
            return Vec::new();
        }
        let mine: Vec<(i32, i32)> = self
            .pos
            .board()
            .cells()
            .filter(|&c| self.pos.top(c).is_some_and(|t| t.seat == turn))
            .map(|c| self.coord(c))
            .collect();
        let mut jumps = Vec::new();
        for &from in &mine {
            let mover = self.top(from).unwrap();
            let mut out = Vec::new();
            self.chains(
                mover,
                from,
                from,
                &mut Vec::new(),
                &mut Vec::new(),
                &mut out,
            );
            jumps.extend(out.into_iter().map(|p| (from, p)));
        }
        let mut moves = if !jumps.is_empty() {
            jumps
        } else {
            let mut steps = Vec::new();
            for &from in &mine {
                let mover = self.top(from).unwrap();
                for d in self.step_offsets(mover) {
                    if let Some(to) = self.step(mover, from, d).filter(|to| self.empty(*to)) {
                        steps.push((from, vec![to]));
                    }
                }
            }
            steps
        };
        moves.sort();
        moves
    }
}

fn engine_moves(pos: &CheckersPosition) -> Vec<Listed> {
    let c = |cell: Cell| {
        let (f, r) = pos.board().coord(cell);
        (f as i32, r as i32)
    };
    let mut moves: Vec<_> = pos
        .legal_moves()
        .iter()
        .map(|m| (c(m.from), m.path.iter().map(|&x| c(x)).collect::<Vec<_>>()))
        .collect();
    moves.sort();
    moves
}

fn all_rules() -> Vec<CheckersRules> {
    let mut all = Vec::new();
    for kind in [Kind::Checkers, Kind::Stax, Kind::Queens] {
        for wrap in [Wrap::None, Wrap::Files, Wrap::Both] {
            for numbers in [false, true] {
                all.push(CheckersRules::new(kind, wrap, numbers));
                for mode in [
                    Mode::Partners(Seating::Adjacent),
                    Mode::Partners(Seating::Opposite),
                    Mode::CutThroat,
                ] {
                    for colours in [Colours::Same, Colours::Mixed] {
                        if colours == Colours::Mixed
                            && (kind != Kind::Queens || mode == Mode::CutThroat)
                        {
                            continue;
                        }
                        all.push(CheckersRules::doubles(kind, mode, colours, wrap, numbers));
                    }
                }
            }
        }
    }
    all
}

/// A random position under `rules`: stacks of random checkers (crowned or not, numbered when
/// the rules number them) on random squares, and a random seat to move.
fn random_position(rules: CheckersRules, seed: u64) -> CheckersPosition {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let numbers = rules.numbers;
    let seats = rules.seat_count() as u8;
    let mut pos = CheckersPosition::empty(rules);
    let cells: Vec<Cell> = pos.board().cells().collect();
    let density = rng.gen_range(0.1..0.6);
    for cell in cells {
        if !rng.gen_bool(density) {
            continue;
        }
        let height = if rng.gen_bool(0.7) {
            1
        } else {
            rng.gen_range(2..5)
        };
        let stack = (0..height)
            .map(|_| Checker {
                seat: Seat(rng.gen_range(0..seats)),
                king: rng.gen_bool(0.3),
                number: numbers.then(|| rng.gen_range(1..=12)),
            })
            .collect();
        pos.set_stack(cell, stack);
    }
    pos.set_turn(Seat(rng.gen_range(0..seats)));
    pos
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_generator_agrees_with_the_reference(which in 0usize..1000, seed in any::<u64>()) {
        let rules = all_rules();
        let rules = rules[which % rules.len()].clone();
        let pos = random_position(rules, seed);
        let reference = Reference::new(&pos).moves();
        prop_assert_eq!(engine_moves(&pos), reference, "{:?}", pos);
    }
}

/// Perft from every start counted by the reference generator (moves made by the engine), to
/// depth 4 for four players and 3 for two: the counts kept in `tests/data/checkers-four.perft`
/// rest on it.
#[test]
fn perft_from_every_start_agrees_with_the_reference() {
    fn reference_perft(pos: &CheckersPosition, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = Reference::new(pos).moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        let legal = pos.legal_moves();
        moves
            .iter()
            .map(|(from, path)| {
                let m = legal
                    .iter()
                    .find(|m| {
                        let c = |cell: Cell| {
                            let (f, r) = pos.board().coord(cell);
                            (f as i32, r as i32)
                        };
                        c(m.from) == *from
                            && m.path.iter().map(|&x| c(x)).collect::<Vec<_>>() == *path
                    })
                    .expect("the engine knows the reference's move");
                let mut child = pos.clone();
                child.play(m);
                reference_perft(&child, depth - 1)
            })
            .sum()
    }
    for rules in all_rules() {
        let depth = if rules.seat_count() == 4 { 4 } else { 3 };
        let start = CheckersPosition::start(rules.clone(), 5);
        assert_eq!(
            reference_perft(&start, depth),
            engine::checkers::perft(&start, depth),
            "{rules:?}"
        );
    }
}
