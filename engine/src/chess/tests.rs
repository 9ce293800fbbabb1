use super::*;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen, Rules::chess()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn start_position_counts() {
    let p = Position::startpos();
    assert_eq!(perft(&p, 1), 20);
    assert_eq!(perft(&p, 2), 400);
    assert_eq!(perft(&p, 3), 8902);
}

#[test]
fn kiwipete_shallow() {
    let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    assert_eq!(perft(&p, 1), 48);
    assert_eq!(perft(&p, 2), 2039);
    assert_eq!(perft(&p, 3), 97862);
}
