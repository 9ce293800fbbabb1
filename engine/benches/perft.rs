//! Perft speed: nodes per second (criterion's "elements/s"): chess from the start and from
//! Kiwipete, American checkers from the start, and Stax for four (standard doubles) from its
//! start.
//! The last level is bulk-counted (the number of legal moves, not played).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use engine::board::Wrap;
use engine::checkers::{self, CheckersPosition, CheckersRules, Colours, Kind, Mode, Seating};
use engine::chess::{perft, Position, Rules};

fn bench(c: &mut Criterion) {
    let cases = [
        (
            "startpos",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            4,
            197_281,
        ),
        (
            "kiwipete",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            3,
            97_862,
        ),
    ];
    let mut group = c.benchmark_group("perft");
    for (name, fen, depth, nodes) in cases {
        let pos = Position::from_fen(fen, Rules::chess()).unwrap();
        assert_eq!(perft(&pos, depth), nodes);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}/depth{depth}"), |b| {
            b.iter(|| perft(black_box(&pos), depth))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("checkers-perft");
    group.sample_size(10);
    let american = CheckersPosition::american();
    let doubles = CheckersPosition::start(
        CheckersRules::doubles(
            Kind::Stax,
            Mode::Partners(Seating::Adjacent),
            Colours::Same,
            Wrap::None,
            false,
        ),
        0,
    );
    for (name, pos, depth, nodes) in [
        ("american", &american, 8, 845_931),
        ("stax-doubles", &doubles, 6, 36_320),
    ] {
        assert_eq!(checkers::perft(pos, depth), nodes);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}/depth{depth}"), |b| {
            b.iter(|| checkers::perft(black_box(pos), depth))
        });
    }
    group.finish();

    let pos = Position::startpos();
    c.bench_function("legal_moves/startpos", |b| {
        b.iter(|| black_box(&pos).legal_moves())
    });
    let e4 = pos.parse_move("e4").unwrap();
    c.bench_function("san/e4", |b| b.iter(|| black_box(&pos).san(e4)));
}

criterion_group!(benches, bench);
criterion_main!(benches);
