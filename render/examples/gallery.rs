//! Writes sample boards to a folder, to look at what the renderer draws for figures no
//! variant uses yet: `cargo run -p render --example gallery -- out/`.

use std::sync::Arc;

use engine::board::{Board, SquareBoard, Wrap};
use engine::chess::{Role, Seat};

#[path = "support/doubles.rs"]
mod doubles;
use engine::view::{Figure, Layer, Marker, Placed, View, Viewer};

fn view(board: Arc<Board>, bottom: Seat, figures: Vec<Placed>, players: &[&str]) -> View {
    View {
        variant: "gallery",
        board,
        viewer: Viewer::Seat(bottom),
        bottom,
        figures,
        last_move: vec![],
        checks: vec![],
        to_act: vec![bottom],
        players: players.iter().map(|p| p.to_string()).collect(),
        move_number: 7,
        status: format!("{} to move", bottom.colour_name()),
        panel: None,
        square_names: vec![],
        table: Vec::new(),
        colours: Vec::new(),
        labels: Vec::new(),
        tinted: Vec::new(),
        cards: Vec::new(),
    }
}

fn main() {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "out".into()));
    std::fs::create_dir_all(&dir).expect("the output folder can be made");
    let save = |name: &str, v: &View| {
        let path = dir.join(name);
        std::fs::write(&path, render::render_png(v).unwrap()).unwrap();
        println!("{}", path.display());
    };

    // Checkers: men, kings, numbers, stacks.
    let board = Arc::new(SquareBoard::new(8, 8).seats_facing(&[0, 2]).build());
    let c = |l: &str| board.cell(l).unwrap();
    let mut figures = Vec::new();
    for (i, l) in ["a1", "c1", "e1", "g1", "b2", "d2"].iter().enumerate() {
        let mut p = Placed::new(c(l), Seat(0), Figure::Man);
        p.number = Some(i as u8 + 7);
        figures.push(p);
    }
    let mut king = Placed::new(c("f2"), Seat(0), Figure::CheckersKing);
    king.number = Some(5);
    figures.push(king);
    for l in ["b8", "d8", "f8", "h8", "a7", "c7"] {
        figures.push(Placed::new(c(l), Seat(1), Figure::Man));
    }
    figures.push(Placed::new(c("e7"), Seat(1), Figure::CheckersKing));
    let layers = |v: &[(u8, bool)]| {
        Figure::Stack(
            v.iter()
                .map(|&(a, k)| Layer {
                    army: Seat(a),
                    king: k,
                })
                .collect(),
        )
    };
    figures.push(Placed::new(
        c("d4"),
        Seat(1),
        layers(&[(0, false), (0, true), (1, false)]),
    ));
    // A numbered checker holding a prisoner of the other colour.
    let mut numbered = Placed::new(c("f4"), Seat(0), layers(&[(1, false), (0, false)]));
    numbered.number = Some(10);
    figures.push(numbered);
    figures.push(Placed::new(
        c("e5"),
        Seat(0),
        layers(&[
            (1, false),
            (1, false),
            (1, true),
            (0, false),
            (0, false),
            (0, true),
        ]),
    ));
    let mut checkers = view(board.clone(), Seat(0), figures, &["alice", "bob"]);
    let numbering = engine::checkers::CheckersPosition::american();
    checkers.square_names = board
        .cells()
        .filter_map(|c| Some((c, numbering.square_number(c)?.to_string())))
        .collect();
    save("checkers.png", &checkers);

    // Chess Kit markers.
    let mut figures = Vec::new();
    let mut zombie = Placed::new(c("c3"), Seat(0), Figure::Chess(Role::Pawn));
    zombie.markers = vec![Marker::ZombieCoin];
    let mut tar = Placed::new(c("e4"), Seat(1), Figure::Chess(Role::Knight));
    tar.markers = vec![Marker::Checker(Seat::BLACK)];
    let mut adrenaline = Placed::new(c("f5"), Seat(0), Figure::Chess(Role::Bishop));
    adrenaline.markers = vec![Marker::Adrenaline(3)];
    let mut mirror = Placed::new(c("b6"), Seat(1), Figure::Chess(Role::Rook));
    mirror.markers = vec![Marker::MirrorSide];
    figures.extend([zombie, tar, adrenaline, mirror]);
    save(
        "markers.png",
        &view(board.clone(), Seat(1), figures, &["White", "Black"]),
    );

    // Adams' Doubles Chess armies on the cut-throat 12x12 board (the four squares of each
    // corner off limits), as the game draws them for White 2 (facing right).
    save("four-armies.png", &doubles::doubles_view());

    // Four-player Stax from the engine's own game, 60 moves in: stacks of several colours,
    // seen by Orange from the left edge.
    save("four-player-stax.png", &four_player_stax());

    // Caverly's Trimens board, its triangles numbered, from player 1's side and from player
    // 2's (turned 120 degrees).
    for (name, seat) in [("trimens.png", 0), ("trimens-player-2.png", 1)] {
        save(name, &trimens_view(Seat(seat)));
    }

    // Adams' tri-board for three or four (a hexagon of side 5), numbered, from the bottom
    // edge and from the next edge clockwise.
    for (name, seat) in [("tri-board.png", 0), ("tri-board-edge-2.png", 1)] {
        let board = engine::board::BoardSpec::TriHex {
            side: 5,
            facing: (0..6).collect(),
            cut: Vec::new(),
            extra: Vec::new(),
        }
        .build();
        let mut v = view(board.clone(), Seat(seat), Vec::new(), &["ann", "ben"]);
        v.square_names = board
            .cells()
            .map(|c| (c, board.label(c).to_string()))
            .collect();
        save(name, &v);
    }

    // A cylinder and a torus.
    for (name, wrap) in [("cylinder.png", Wrap::Files), ("torus.png", Wrap::Both)] {
        let board = Arc::new(
            SquareBoard::new(8, 8)
                .wrap(wrap)
                .seats_facing(&[0, 2])
                .build(),
        );
        let figures = vec![Placed::new(board.cell("a3").unwrap(), Seat(0), Figure::Man)];
        save(name, &view(board, Seat(0), figures, &["White", "Black"]));
    }
}

/// A four-player Stax game played 60 moves by the engine (the longest jump, else the first
/// move listed, each turn), as Orange sees it.
fn four_player_stax() -> View {
    let game = engine::registry::variant("stax").unwrap();
    let mut state = game.setup(&engine::game::Options::new(), 4, 11).unwrap();
    for _ in 0..60 {
        let Some(prompt) = game.prompts(&state).unwrap().first().cloned() else {
            break;
        };
        let texts = game.legal_texts(&state, prompt.seat).unwrap();
        let text = texts
            .iter()
            .max_by_key(|t| t.matches('x').count())
            .unwrap()
            .clone();
        game.play(&mut state, prompt.seat, &text).unwrap();
    }
    let mut view = game.view(&state, Viewer::Seat(Seat(2))).unwrap();
    view.players = ["alice", "bob", "carol", "dave"].map(String::from).to_vec();
    view
}

/// The Trimens board with its numbers and a few pieces of each army, seen by `bottom`.
fn trimens_view(bottom: Seat) -> View {
    let board = engine::board::BoardSpec::Trimens { seats: 3 }.build();
    let c = |n: &str| board.cell(n).unwrap();
    let figures = vec![
        Placed::new(c("1"), Seat(0), Figure::Chess(Role::Rook)),
        Placed::new(c("6"), Seat(0), Figure::Chess(Role::King)),
        Placed::new(c("15"), Seat(0), Figure::Chess(Role::Pawn)),
        Placed::new(c("129"), Seat(1), Figure::Chess(Role::Queen)),
        Placed::new(c("243"), Seat(2), Figure::Chess(Role::Bishop)),
    ];
    let mut v = view(board.clone(), bottom, figures, &["ann", "ben", "cy"]);
    v.square_names = board
        .cells()
        .map(|cell| (cell, board.label(cell).to_string()))
        .collect();
    v
}
