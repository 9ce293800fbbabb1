//! Shadow Chess's move generation against plain chess's on the same positions (the issue asks
//! for no worse than five times slower): every legal move of the side to move, shadow captures
//! and the shadow-check test included, from the start, an open middlegame (Kiwipete), Figure 24
//! of the book, and a closed middlegame; and the two biggest parts of it alone (the enemy's
//! shadows, the pseudo-legal moves).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use engine::chess::{Position, Rules};

fn bench(c: &mut Criterion) {
    let positions = [
        (
            "startpos",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ),
        (
            "kiwipete",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ),
        ("figure24", "2b4k/8/8/2N5/4P1B1/8/8/4K3 w - - 0 1"),
        (
            "middlegame",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
        ),
    ];
    let mut group = c.benchmark_group("movegen");
    for (name, fen) in positions {
        let pos = Position::from_fen(fen, Rules::chess()).unwrap();
        group.bench_function(format!("chess/{name}"), |b| {
            b.iter(|| black_box(&pos).legal_moves().len())
        });
        group.bench_function(format!("shadow/{name}"), |b| {
            b.iter(|| black_box(&pos).shadow_moves().len())
        });
        // Parts of the shadow generator, to see where its time goes.
        group.bench_function(format!("parts/enemy-shadows/{name}"), |b| {
            b.iter(|| black_box(&pos).enemy_shadows(pos.turn()).all().len())
        });
        group.bench_function(format!("parts/pseudo-legal/{name}"), |b| {
            b.iter(|| black_box(&pos).pseudo_legal_moves().len())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
