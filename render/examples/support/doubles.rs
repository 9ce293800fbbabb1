//! A cut-throat Doubles Chess board from the engine itself, as the gallery and the benchmark
//! draw it: four armies on 12x12 with the corners off limits, one move played, seen by White 2
//! (the army at the left edge, facing right), captions naming each player's army.

use engine::game::Options;
use engine::registry;
use engine::view::{View, Viewer};
use engine::Seat;

/// White 1 has played g5; White 2 is to move and looks at the board from its own side.
pub fn doubles_view() -> View {
    let game = registry::variant("doubles").unwrap();
    let mut options = Options::new();
    options.set("mode", "cutthroat");
    let mut state = game.setup(&options, 4, 0).unwrap();
    game.play(&mut state, Seat(0), "g5").unwrap();
    let mut view = game.view(&state, Viewer::Seat(Seat(2))).unwrap();
    view.players = ["ann", "ben", "cat", "dan"].map(String::from).to_vec();
    view
}
