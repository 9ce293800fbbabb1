//! Chess Golf against the book: every hole in `tests/data/golf.holes` is read, each of the
//! book's paths must be legal move by move and solve the hole, and the solver must find a
//! solution of exactly the recorded shortest length (and none shorter), which it must also be
//! able to replay.

use engine::variants::golf::{parse_square, Chosen, GolfBoard, Square};

struct Hole {
    fen: String,
    chosen: String,
    book: Vec<Vec<(Square, Square)>>,
    shortest: usize,
}

fn holes() -> Vec<Hole> {
    let text = include_str!("../data/golf.holes");
    let mut holes: Vec<Hole> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (word, rest) = line.split_once(' ').expect("a keyword and a value");
        match word {
            "fen" => holes.push(Hole {
                fen: rest.into(),
                chosen: String::new(),
                book: Vec::new(),
                shortest: 0,
            }),
            "chosen" => holes.last_mut().unwrap().chosen = rest.into(),
            "book" => {
                let path = rest
                    .split_whitespace()
                    .map(|m| {
                        let from = parse_square(&m[..2]).expect("a square");
                        let to = parse_square(&m[2..]).expect("a square");
                        (from, to)
                    })
                    .collect();
                holes.last_mut().unwrap().book.push(path);
            }
            "shortest" => holes.last_mut().unwrap().shortest = rest.parse().unwrap(),
            other => panic!("unknown keyword {other}"),
        }
    }
    holes
}

#[test]
fn the_books_holes_solve_as_recorded() {
    let holes = holes();
    assert_eq!(holes.len(), 5);
    for hole in &holes {
        let board = GolfBoard::from_fen(&hole.fen).unwrap();
        let chosen = Chosen::parse(&hole.chosen).unwrap();
        for path in &hole.book {
            board
                .check_path(&chosen, path)
                .unwrap_or_else(|e| panic!("{}: the book's path fails: {e}", hole.fen));
        }
        let best = board
            .solve(&chosen, hole.shortest)
            .unwrap()
            .unwrap_or_else(|| panic!("{}: no solution of {}", hole.fen, hole.shortest));
        assert_eq!(best.len(), hole.shortest, "{}", hole.fen);
        let replay: Vec<(Square, Square)> = best.iter().map(|m| (m.from, m.to)).collect();
        board.check_path(&chosen, &replay).unwrap();
        assert_eq!(
            board.solve(&chosen, hole.shortest - 1).unwrap(),
            None,
            "{}: shorter than recorded",
            hole.fen
        );
    }
}
