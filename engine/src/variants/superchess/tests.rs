use super::*;

fn game(players: usize, options: &[&str]) -> SuperchessGame {
    let options = Options::parse(options).unwrap();
    Superchess.setup(&options, players, 7).unwrap()
}

#[test]
fn the_board_has_148_squares_and_the_armies_17_pieces_each() {
    let g = game(4, &[]);
    assert_eq!(g.position().board().len(), 148);
    for army in 0..4 {
        assert_eq!(
            g.position().cells_of(Seat(army)).len(),
            17,
            "{}",
            NAMES[army as usize]
        );
    }
}
