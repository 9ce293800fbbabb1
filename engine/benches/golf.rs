//! The Chess Golf solver on the book's holes (the issue asks for any hole of the book's
//! difficulty in under two seconds): the introduction (3 moves), problem 1 (5 moves, two
//! cards), and problems 2 and 3 (6 moves, three cards).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use engine::variants::golf::{Chosen, GolfBoard};

fn bench(c: &mut Criterion) {
    let holes = [
        (
            "introduction",
            "2B3R1/5k2/1r1n1N2/1r2b3/R5q1/1B1n1N2/b6K/5Q2",
            "K,b",
        ),
        (
            "problem-1",
            "3R2b1/1Q3K1N/3R4/b5n1/N6B/3n2k1/1B2q2r/1r6",
            "b,b",
        ),
        (
            "problem-2",
            "5r1b/2n5/8/3Q4/Bk4n1/4N3/Rr1KR1B1/N4qb1",
            "n,n,r",
        ),
        (
            "problem-3",
            "1N2b1b1/1nr2B2/3B3R/6k1/N5q1/4Qn2/2r3R1/5K2",
            "N,N,B",
        ),
    ];
    let mut group = c.benchmark_group("golf");
    group.sample_size(10);
    for (name, fen, chosen) in holes {
        let board = GolfBoard::from_fen(fen).unwrap();
        let chosen = Chosen::parse(chosen).unwrap();
        group.bench_function(name, |b| {
            b.iter(|| {
                black_box(&board)
                    .solve(&chosen, 8)
                    .unwrap()
                    .map(|p| p.len())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
