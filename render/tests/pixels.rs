//! What is drawn where: cell colours at cell centres, figures on their cells, the viewer's side
//! at the bottom, holes left empty, wrap hints, markers, stacks and image limits.

use std::sync::Arc;

use engine::board::{Board, Cell, SquareBoard, Wrap, CUT_THROAT_CORNERS};
use engine::chess::{Role, Seat};
use engine::game::Options;
use engine::registry;
use engine::view::{CardRow, Figure, Layer, Marker, Placed, View, Viewer};
use image::RgbImage;
use render::palette::{self, Rgb8};

fn close(a: Rgb8, b: Rgb8, tolerance: i32) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| (*x as i32 - y as i32).abs() <= tolerance)
}

/// How many pixels of `colour` lie in the middle 60% of a cell.
fn count_in_cell(img: &RgbImage, view: &View, cell: Cell, colour: Rgb8) -> usize {
    let layout = render::layout(view);
    let (cx, cy) = layout.cell_centre(cell);
    let r = (layout.scale * 0.3) as i32;
    let mut n = 0;
    for y in (cy as i32 - r)..(cy as i32 + r) {
        for x in (cx as i32 - r)..(cx as i32 + r) {
            if close(img.get_pixel(x as u32, y as u32).0, colour, 6) {
                n += 1;
            }
        }
    }
    n
}

fn pixel(img: &RgbImage, p: (f32, f32)) -> Rgb8 {
    img.get_pixel(p.0 as u32, p.1 as u32).0
}

/// How many pixels of `colour` lie in each quarter of a cell: top left, top right, bottom
/// left, bottom right.
fn quarters(img: &RgbImage, view: &View, cell: Cell, colour: Rgb8) -> [usize; 4] {
    let layout = render::layout(view);
    let (cx, cy) = layout.cell_centre(cell);
    let half = (layout.scale / 2.0) as i32;
    let mut n = [0; 4];
    for dy in -half..half {
        for dx in -half..half {
            if close(pixel(img, (cx + dx as f32, cy + dy as f32)), colour, 10) {
                n[(dy >= 0) as usize * 2 + (dx >= 0) as usize] += 1;
            }
        }
    }
    n
}

fn chess_view(fen: Option<&str>, viewer: Viewer) -> View {
    let chess = registry::variant("chess").unwrap();
    let mut options = Options::new();
    if let Some(fen) = fen {
        options.set("fen", fen);
    }
    let state = chess.setup(&options, 2, 0).unwrap();
    chess.view(&state, viewer).unwrap()
}

fn synthetic(board: Arc<Board>, bottom: Seat, figures: Vec<Placed>) -> View {
    let players = (0..board.frame_count())
        .map(|s| Seat(s as u8).colour_name())
        .collect();
    View {
        variant: "test",
        board,
        viewer: Viewer::Seat(bottom),
        bottom,
        figures,
        last_move: vec![],
        checks: vec![],
        to_act: vec![Seat(0)],
        players,
        move_number: 1,
        status: "White to move".into(),
        panel: None,
        square_names: vec![],
        table: Vec::new(),
        colours: Vec::new(),
        labels: Vec::new(),
        tinted: Vec::new(),
        cards: Vec::new(),
    }
}

#[test]
fn empty_cells_show_their_shade_and_pieces_their_army() {
    let view = chess_view(None, Viewer::Spectator);
    let img = render::render_image(&view);
    let layout = render::layout(&view);
    let board = &view.board;
    let white = render::army_colours(0).fill;
    let black = render::army_colours(1).fill;
    for cell in board.cells() {
        let centre = pixel(&img, layout.cell_centre(cell));
        let label = board.label(cell);
        let rank = label[1..].parse::<u32>().unwrap();
        match rank {
            3..=6 => {
                let want = match board.shade(cell) {
                    engine::board::Shade::Light => palette::LIGHT_CELL,
                    engine::board::Shade::Dark => palette::DARK_CELL,
                };
                assert_eq!(centre, want, "{label} is an empty square");
                assert_eq!(count_in_cell(&img, &view, cell, white), 0, "{label}");
            }
            1 | 2 => assert!(
                count_in_cell(&img, &view, cell, white) > 40,
                "white piece on {label}"
            ),
            _ => assert!(
                count_in_cell(&img, &view, cell, black) > 40,
                "black piece on {label}"
            ),
        }
    }
    assert!(
        layout.width >= 400 && layout.width <= 1200,
        "width {}",
        layout.width
    );
    let png = render::encode(&img).unwrap();
    assert!(png.len() < 400 * 1024, "{} bytes", png.len());
}

#[test]
fn each_player_sees_their_own_side_at_the_bottom() {
    let white = chess_view(None, Viewer::Seat(Seat::WHITE));
    let black = chess_view(None, Viewer::Seat(Seat::BLACK));
    let a1 = white.board.cell("a1").unwrap();
    let (lw, lb) = (render::layout(&white), render::layout(&black));
    let (wx, wy) = lw.cell_centre(a1);
    let (bx, by) = lb.cell_centre(a1);
    assert!(
        wx < lw.width as f32 / 2.0 && wy > lw.height as f32 / 2.0,
        "a1 bottom left for White"
    );
    assert!(
        bx > lb.width as f32 / 2.0 && by < lb.height as f32 / 2.0,
        "a1 top right for Black"
    );
    // The black pieces are at the bottom of Black's picture.
    let img = render::render_image(&black);
    let bottom_left = black.board.cell("h8").unwrap();
    let (x, y) = lb.cell_centre(bottom_left);
    assert!(x < lb.width as f32 / 2.0 && y > lb.height as f32 / 2.0);
    assert!(count_in_cell(&img, &black, bottom_left, render::army_colours(1).fill) > 40);
}

#[test]
fn checkers_squares_show_their_numbers_upright_in_a_corner() {
    let checkers = registry::variant("checkers").unwrap();
    let mut state = checkers.setup(&Options::new(), 2, 0).unwrap();
    checkers.play(&mut state, Seat::BLACK, "11-15").unwrap();
    let faint = palette::mix(palette::DARK_CELL, palette::INK, 0.4);
    for seat in [Seat::WHITE, Seat::BLACK] {
        let view = checkers.view(&state, Viewer::Seat(seat)).unwrap();
        let img = render::render_image(&view);
        let cell_named = |name: &str| {
            view.square_names
                .iter()
                .find(|(_, n)| n == name)
                .map(|(c, _)| *c)
                .unwrap()
        };
        // An empty square, and the square just left, whose highlight keeps its number.
        let left_behind = palette::mix(faint, palette::LAST_MOVE, 0.5);
        for (name, colour) in [("14", faint), ("11", left_behind)] {
            let [top_left, rest @ ..] = quarters(&img, &view, cell_named(name), colour);
            assert!(top_left > 5, "{name} for {seat:?}: {top_left}");
            assert_eq!(rest, [0, 0, 0], "{name} for {seat:?}");
        }
    }
    // Chess has the same geometry but no square numbers.
    let chess = chess_view(None, Viewer::Spectator);
    let img = render::render_image(&chess);
    for label in ["a3", "c5", "h4"] {
        let cell = chess.board.cell(label).unwrap();
        assert_eq!(quarters(&img, &chess, cell, faint), [0; 4], "{label}");
    }
}

#[test]
fn last_move_and_check_are_highlighted() {
    let chess = registry::variant("chess").unwrap();
    let mut state = chess.setup(&Options::new(), 2, 0).unwrap();
    for m in ["f3", "e5", "g4", "Qh4#"] {
        let seat = chess.prompts(&state).unwrap()[0].seat;
        chess.play(&mut state, seat, m).unwrap();
    }
    let view = chess.view(&state, Viewer::Spectator).unwrap();
    let img = render::render_image(&view);
    let layout = render::layout(&view);
    let d8 = view.board.cell("d8").unwrap();
    let e1 = view.board.cell("e1").unwrap();
    // The corner of each highlighted square carries the tint (the piece covers the middle).
    let corner = |cell: Cell| {
        let (cx, cy) = layout.cell_centre(cell);
        pixel(&img, (cx - layout.scale * 0.45, cy - layout.scale * 0.45))
    };
    let base = |cell: Cell| match view.board.shade(cell) {
        engine::board::Shade::Light => palette::LIGHT_CELL,
        engine::board::Shade::Dark => palette::DARK_CELL,
    };
    let h4 = view.board.cell("h4").unwrap();
    for cell in [d8, h4] {
        assert_eq!(
            corner(cell),
            palette::mix(base(cell), palette::LAST_MOVE, 0.5)
        );
    }
    assert_eq!(corner(e1), palette::mix(base(e1), palette::CHECK, 0.65));
    let a3 = view.board.cell("a3").unwrap();
    assert_eq!(corner(a3), base(a3), "other squares are plain");
}

#[test]
fn a_private_grid_is_turned_like_the_board_above_it() {
    let zombie = registry::variant("zombie").unwrap();
    let mut state = zombie.setup(&Options::new(), 2, 0).unwrap();
    // Black takes on d4 and buries the white pawn under the knight on c6.
    for m in ["e4", "e5", "Nf3", "Nc6", "d4", "exd4", "c6"] {
        let seat = zombie.prompts(&state).unwrap()[0].seat;
        zombie.play(&mut state, seat, m).unwrap();
    }
    let view = zombie.view(&state, Viewer::Seat(Seat::BLACK)).unwrap();
    let img = render::render_image(&view);
    let layout = render::layout(&view);
    // The grid is the block of board-coloured squares under the board.
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for (x, y, p) in img.enumerate_pixels() {
        if y >= layout.height && (p.0 == palette::LIGHT_CELL || p.0 == palette::DARK_CELL) {
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
    }
    assert!(x1 > x0 && y1 > y0, "the grid is drawn");
    // The P stands in the grid where c6 stands on the board, not where White would see it.
    let (left, top, right, bottom) = layout.board_rect;
    let (cx, cy) = layout.cell_centre(view.board.cell("c6").unwrap());
    let (fx, fy) = ((cx - left) / (right - left), (cy - top) / (bottom - top));
    let ink_near = |fx: f32, fy: f32| {
        let x = x0 as f32 + fx * (x1 - x0) as f32;
        let y = y0 as f32 + fy * (y1 - y0) as f32;
        let mut n = 0;
        for dy in -8..=8 {
            for dx in -8..=8 {
                if close(pixel(&img, (x + dx as f32, y + dy as f32)), palette::INK, 6) {
                    n += 1;
                }
            }
        }
        n
    };
    assert!(ink_near(fx, fy) > 5, "the P under c6, as Black sees c6");
    assert_eq!(
        ink_near(1.0 - fx, 1.0 - fy),
        0,
        "nothing where White would see c6"
    );
}

#[test]
fn four_seats_on_twelve_by_twelve_each_see_their_edge_at_the_bottom() {
    let board = Arc::new(SquareBoard::doubles(CUT_THROAT_CORNERS).build());
    let d1 = board.cell("d1").unwrap();
    let a4 = board.cell("a4").unwrap();
    for (seat, home) in [(0u8, d1), (1, a4)] {
        let view = synthetic(
            board.clone(),
            Seat(seat),
            vec![Placed::new(home, Seat(seat), Figure::Chess(Role::King))],
        );
        let layout = render::layout(&view);
        let (_, y) = layout.cell_centre(home);
        assert!(
            y > layout.board_rect.3 - layout.scale,
            "seat {seat}'s edge is at the bottom"
        );
        let img = render::render_image(&view);
        assert!(count_in_cell(&img, &view, home, render::army_colours(seat as usize).fill) > 20);
        // The four squares of the corner (a1, b2 ...) are left in the background colour; the
        // squares beside them (b3, c3, c2) are drawn.
        for off in [[0.5, 0.5], [1.5, 1.5]] {
            assert_eq!(pixel(&img, layout.to_px(off)), palette::BACKGROUND);
        }
        for on in [[1.5, 2.5], [2.5, 2.5], [2.5, 1.5]] {
            assert_ne!(pixel(&img, layout.to_px(on)), palette::BACKGROUND, "{on:?}");
        }
        assert!(layout.width <= 1200 && layout.width >= 400);
    }
}

#[test]
fn checkers_of_one_colour_in_a_stack_stay_apart() {
    let board = Arc::new(SquareBoard::new(8, 8).seats_facing(&[0, 2]).build());
    let d4 = board.cell("d4").unwrap();
    for army in [0u8, 1] {
        let layer = Layer {
            army: Seat(army),
            king: false,
        };
        // Six checkers: a stack that tall is squeezed to fit the cell.
        let stack = Placed::new(d4, Seat(army), Figure::Stack(vec![layer; 6]));
        let view = synthetic(board.clone(), Seat(0), vec![stack]);
        let img = render::render_image(&view);
        let layout = render::layout(&view);
        // Straight down the middle of the stack, each checker's edge is a band of its own,
        // parted from the next by a line that differs visibly from it.
        let edge = palette::darker(render::army_colours(army as usize).fill);
        let (cx, cy) = layout.cell_centre(d4);
        let top = cy - layout.scale / 2.0;
        let mut on_edge = vec![false];
        on_edge.extend(
            (0..layout.scale as i32).map(|dy| close(pixel(&img, (cx, top + dy as f32)), edge, 12)),
        );
        let bands = on_edge.windows(2).filter(|w| !w[0] && w[1]).count();
        assert_eq!(bands, 6, "army {army}: {on_edge:?}");
    }
}

#[test]
fn wrapped_edges_show_a_hint_and_flat_ones_do_not() {
    let count_hint = |wrap: Wrap| {
        let board = Arc::new(
            SquareBoard::new(8, 8)
                .wrap(wrap)
                .seats_facing(&[0, 2])
                .build(),
        );
        let view = synthetic(board, Seat(0), vec![]);
        let img = render::render_image(&view);
        let layout = render::layout(&view);
        let (left, top, right, bottom) = layout.board_rect;
        let mut sides = [0; 4];
        for (x, y, p) in img.enumerate_pixels() {
            if p.0 == palette::WRAP_HINT {
                let (x, y) = (x as f32, y as f32);
                if x < left {
                    sides[0] += 1;
                } else if x > right {
                    sides[1] += 1;
                } else if y < top {
                    sides[2] += 1;
                } else if y > bottom {
                    sides[3] += 1;
                }
            }
        }
        sides
    };
    assert_eq!(count_hint(Wrap::None), [0, 0, 0, 0]);
    let cylinder = count_hint(Wrap::Files);
    assert!(
        cylinder[0] > 50 && cylinder[1] > 50 && cylinder[2] == 0 && cylinder[3] == 0,
        "{cylinder:?}"
    );
    let torus = count_hint(Wrap::Both);
    assert!(torus.iter().all(|n| *n > 50), "{torus:?}");
    // The side players' cylinder on a four-player board: ranks alone wrap.
    let ranks = count_hint(Wrap::Ranks);
    assert!(
        ranks[0] == 0 && ranks[1] == 0 && ranks[2] > 50 && ranks[3] > 50,
        "{ranks:?}"
    );
}

/// Doubles on the cylinder: each pair of opposite armies wraps its own pair of edges, so the
/// picture marks all four edges; the flat board marks none.
#[test]
fn doubles_on_the_cylinder_shows_its_wrapped_edges() {
    let doubles = registry::variant("doubles").unwrap();
    let hints = |board: &str| {
        let options = Options::parse([format!("board={board}")]).unwrap();
        let state = doubles.setup(&options, 4, 0).unwrap();
        let view = doubles.view(&state, Viewer::Spectator).unwrap();
        let img = render::render_image(&view);
        img.pixels().filter(|p| p.0 == palette::WRAP_HINT).count()
    };
    assert_eq!(hints("flat"), 0);
    assert!(hints("cylinder") > 200, "{}", hints("cylinder"));
}

#[test]
fn a_numbered_king_shows_both_its_crown_and_its_number() {
    let board = Arc::new(SquareBoard::new(8, 8).seats_facing(&[0, 2]).build());
    let cell = board.cell("e5").unwrap();
    let mut king = Placed::new(cell, Seat(1), Figure::CheckersKing);
    king.number = Some(12);
    let view = synthetic(board.clone(), Seat(0), vec![king]);
    let img = render::render_image(&view);
    let layout = render::layout(&view);
    // The black king's number is white, its crown gold: the rows each is drawn on must not
    // meet, or the number covers the crown.
    let (cx, cy) = layout.cell_centre(cell);
    let r = (layout.scale / 2.0) as i32;
    let rows = |colour: Rgb8| {
        let rows: Vec<i32> = ((cy as i32 - r)..(cy as i32 + r))
            .filter(|&y| {
                ((cx as i32 - r)..(cx as i32 + r))
                    .any(|x| close(img.get_pixel(x as u32, y as u32).0, colour, 4))
            })
            .collect();
        (rows.len(), rows.first().copied(), rows.last().copied())
    };
    let (crown_rows, _, crown_bottom) = rows(palette::GOLD);
    let (number_rows, number_top, _) = rows(palette::PAPER);
    assert!(crown_rows > 8, "the crown shows");
    assert!(number_rows > 8, "the number shows");
    assert!(
        crown_bottom < number_top,
        "the crown (down to {crown_bottom:?}) stands above the number (from {number_top:?})"
    );
    assert!(count_in_cell(&img, &view, cell, palette::GOLD) > 20);
}

#[test]
fn checkers_stacks_numbers_and_markers_are_drawn() {
    let board = Arc::new(SquareBoard::new(8, 8).seats_facing(&[0, 2]).build());
    let c = |l: &str| board.cell(l).unwrap();
    let mut numbered = Placed::new(c("b2"), Seat(0), Figure::Man);
    numbered.number = Some(11);
    let mut zombie = Placed::new(c("d4"), Seat(1), Figure::Chess(Role::Knight));
    zombie.markers = vec![
        Marker::ZombieCoin,
        Marker::Checker(Seat(1)),
        Marker::Adrenaline(3),
        Marker::MirrorSide,
    ];
    let stack = Placed::new(
        c("f6"),
        Seat(1),
        Figure::Stack(vec![
            Layer {
                army: Seat(0),
                king: false,
            },
            Layer {
                army: Seat(0),
                king: true,
            },
            Layer {
                army: Seat(1),
                king: false,
            },
        ]),
    );
    let king = Placed::new(c("h8"), Seat(1), Figure::CheckersKing);
    let view = synthetic(board.clone(), Seat(0), vec![numbered, zombie, stack, king]);
    let img = render::render_image(&view);
    let (white, black) = (render::army_colours(0).fill, render::army_colours(1).fill);
    assert!(count_in_cell(&img, &view, c("b2"), white) > 100, "the man");
    assert!(
        count_in_cell(&img, &view, c("b2"), palette::INK) > 3,
        "its number"
    );
    let layout = render::layout(&view);
    let (cx, cy) = layout.cell_centre(c("d4"));
    let near = |dx: f32, dy: f32, colour: Rgb8| {
        let r = layout.scale * 0.08;
        let (x0, y0) = (cx + dx * layout.scale, cy + dy * layout.scale);
        (-2..=2).any(|i| {
            (-2..=2).any(|j| {
                close(
                    pixel(&img, (x0 + i as f32 * r / 2.0, y0 + j as f32 * r / 2.0)),
                    colour,
                    8,
                )
            })
        })
    };
    assert!(near(-0.33, -0.33, palette::GOLD), "zombie coin top left");
    assert!(
        near(-0.33, 0.33, palette::army(1).fill),
        "a black checker bottom left"
    );
    assert!(
        near(0.33, -0.33, palette::ADRENALINE),
        "adrenaline badge top right"
    );
    assert!(
        near(0.33, 0.33, palette::MIRROR),
        "mirror marker bottom right"
    );
    // The stack shows its top checker's face, the edges of those under it in their owners'
    // (darker) colours, and the gold edge of the king inside.
    assert!(
        count_in_cell(&img, &view, c("f6"), black) > 20,
        "black top face"
    );
    assert!(
        count_in_cell(&img, &view, c("f6"), palette::darker(white)) > 20,
        "white edges below"
    );
    assert!(count_in_cell(&img, &view, c("f6"), palette::GOLD) > 5);
    // The checkers king wears a gold crown.
    assert!(count_in_cell(&img, &view, c("h8"), palette::GOLD) > 20);
}

#[test]
fn numbers_stand_out_from_whatever_they_are_written_on() {
    let board = Arc::new(SquareBoard::new(8, 8).seats_facing(&[0, 2]).build());
    let c = |l: &str| board.cell(l).unwrap();
    let layer = |army: u8| Layer {
        army: Seat(army),
        king: false,
    };
    // Men of both colours, and stacks whose top checker holds prisoners of the other colour
    // (Queens with Numbers: a white 10 over black prisoners was all but invisible).
    let figures = [
        ("b2", vec![layer(0)]),
        ("d2", vec![layer(1)]),
        ("f2", vec![layer(1), layer(1), layer(0)]),
        ("h2", vec![layer(0), layer(0), layer(1)]),
        ("c5", vec![layer(1), layer(0)]),
    ]
    .into_iter()
    .map(|(label, layers)| {
        let top = layers.last().unwrap().army;
        let figure = if layers.len() == 1 {
            Figure::Man
        } else {
            Figure::Stack(layers)
        };
        let mut placed = Placed::new(c(label), top, figure);
        placed.number = Some(10);
        placed
    })
    .collect();
    let view = synthetic(board.clone(), Seat(0), figures);
    let img = render::render_image(&view);
    let layout = render::layout(&view);
    let luma = |c: Rgb8| 0.299 * c[0] as f32 + 0.587 * c[1] as f32 + 0.114 * c[2] as f32;
    for placed in &view.figures {
        let label = board.label(placed.cell);
        let ink = if palette::is_light(render::army_colours(placed.army.index()).fill) {
            palette::INK
        } else {
            palette::PAPER
        };
        // Every pixel of the number's ink has something of the opposite lightness within three
        // pixels: the checker under it or a ring round it. (The stack's count badge, bottom
        // right, is left out.)
        let (cx, cy) = layout.cell_centre(placed.cell);
        let (bx, by) = (cx + layout.scale * 0.3, cy + layout.scale * 0.3);
        let r = (layout.scale / 2.0) as i32 - 3;
        let mut inked = 0;
        for y in (cy as i32 - r)..(cy as i32 + r) {
            for x in (cx as i32 - r)..(cx as i32 + r) {
                let in_badge = (x as f32 - bx).hypot(y as f32 - by) < layout.scale * 0.17;
                if in_badge || img.get_pixel(x as u32, y as u32).0 != ink {
                    continue;
                }
                inked += 1;
                let stands_out = (-3..=3).any(|dy| {
                    (-3..=3).any(|dx| {
                        let p = img.get_pixel((x + dx) as u32, (y + dy) as u32).0;
                        (luma(p) - luma(ink)).abs() > 100.0
                    })
                });
                assert!(stands_out, "the number on {label} is lost at ({x}, {y})");
            }
        }
        assert!(
            inked > 10,
            "the number on {label} is drawn ({inked} pixels)"
        );
    }
}

#[test]
fn caption_names_players_and_state() {
    let mut view = chess_view(None, Viewer::Spectator);
    let plain = render::render_image(&view);
    view.players = vec![
        "alice".into(),
        "a very long name that will not fit in the caption at all, not at all".into(),
    ];
    let named = render::render_image(&view);
    let layout = render::layout(&view);
    let top = layout.board_rect.1 as u32;
    let differs =
        (0..top).any(|y| (0..layout.width).any(|x| plain.get_pixel(x, y) != named.get_pixel(x, y)));
    assert!(differs, "names appear in the caption");
    let board_same = (top..layout.height)
        .all(|y| (0..layout.width).all(|x| plain.get_pixel(x, y) == named.get_pixel(x, y)));
    assert!(board_same, "names never spill onto the board");
}

/// Triangles: each Trimens player sees his own back row at the bottom (the board turned by
/// 120 degrees for the others), figures stand inside their triangles and every triangle's
/// number is written inside it.
#[test]
fn a_board_of_triangles_turns_to_each_player_with_figures_and_numbers_inside() {
    let board = engine::board::BoardSpec::Trimens { seats: 3 }.build();
    for seat in 0..3u8 {
        let rook = board
            .cells()
            .find(|&c| board.frame_coord(seat as usize, c) == Some((0, 1)))
            .unwrap();
        let mut view = synthetic(
            board.clone(),
            Seat(seat),
            vec![Placed::new(rook, Seat(seat), Figure::Chess(Role::Rook))],
        );
        view.square_names = board
            .cells()
            .map(|c| (c, board.label(c).to_string()))
            .collect();
        let layout = render::layout(&view);
        // The seat's back row is the lowest row of the picture.
        let lowest = board
            .cells()
            .max_by(|a, b| {
                layout
                    .cell_centre(*a)
                    .1
                    .total_cmp(&layout.cell_centre(*b).1)
            })
            .unwrap();
        assert_eq!(
            board.frame_coord(seat as usize, lowest).map(|c| c.0),
            Some(0)
        );
        let img = render::render_image(&view);
        // The rook stands inside its triangle, in its army's colour.
        let (fx, fy) = layout.figure_centre(rook);
        let inside = |p: (f32, f32)| {
            let poly = layout.polygon(&board, rook);
            let sign = |a: (f32, f32), b: (f32, f32)| {
                (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
            };
            let s: Vec<f32> = (0..3).map(|i| sign(poly[i], poly[(i + 1) % 3])).collect();
            s.iter().all(|x| *x >= 0.0) || s.iter().all(|x| *x <= 0.0)
        };
        assert!(inside((fx, fy)), "seat {seat}");
        let army = render::army_colours(seat as usize);
        let near = (-6..=6)
            .flat_map(|dy| (-6..=6).map(move |dx| (dx, dy)))
            .filter(|(dx, dy)| {
                let px = img
                    .get_pixel((fx as i32 + dx) as u32, (fy as i32 + dy) as u32)
                    .0;
                close(px, army.fill, 10) || close(px, army.stroke, 10)
            })
            .count();
        assert!(near > 10, "seat {seat}: the rook is drawn ({near} pixels)");
        // Numbers are written inside their triangles.
        let anchor = layout.name_anchor(rook).unwrap();
        assert!(inside(anchor), "seat {seat}: the number is inside");
    }
}

/// A row of cards longer than the board is wide wraps: every card shows, none is dropped
/// (Cooperative Chess's line, where captures are decided, often holds twenty cards; the
/// newest, at its end, matter most).
#[test]
fn a_long_row_of_cards_wraps_and_shows_every_card() {
    let backs = |n: usize| {
        let mut view = chess_view(None, Viewer::Spectator);
        view.cards = vec![CardRow {
            title: "Line".into(),
            cards: vec![None; n],
        }];
        render::render_image(&view)
    };
    let inner = |img: &RgbImage| {
        img.pixels()
            .filter(|p| close(p.0, palette::CARD_BACK_INNER, 2))
            .count()
    };
    let base = inner(&render::render_image(&chess_view(None, Viewer::Spectator)));
    let one = backs(1);
    let per_card = inner(&one) - base;
    assert!(per_card > 0, "a card back is drawn");
    for n in [13, 14, 20, 30] {
        let img = backs(n);
        assert_eq!(
            inner(&img) - base,
            n * per_card,
            "{n} cards, each drawn whole"
        );
        assert_eq!(img.width(), one.width(), "the image does not widen");
    }
    assert!(
        backs(20).height() > one.height(),
        "a long row takes more lines"
    );
}

/// Every seat of every game on triangles (Trimens, Tri-Chess, Tri-Chek, Tri-Stax and
/// Tri-Queens, each with every number of players): each figure stands in the middle of its own
/// triangle as that seat sees it (inside it, centred left to right), and each triangle's
/// number is written wholly inside it. On boards turned by 60, 120, 240 or 300 degrees figures
/// once sat by a corner and numbers across the edge between two triangles ("76 57").
#[test]
fn on_every_turned_triangle_board_figures_and_numbers_stay_inside_their_triangles() {
    let inside = |poly: &[(f32, f32)], p: (f32, f32)| {
        let sign =
            |a: (f32, f32), b: (f32, f32)| (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0);
        let s: Vec<f32> = (0..poly.len())
            .map(|i| sign(poly[i], poly[(i + 1) % poly.len()]))
            .collect();
        s.iter().all(|x| *x >= 0.0) || s.iter().all(|x| *x <= 0.0)
    };
    let mut views = 0;
    for id in [
        "trimens",
        "tri-chess",
        "tri-checkers",
        "tri-stax",
        "tri-queens",
    ] {
        let game = registry::variant(id).unwrap();
        for &seats in game.info().seat_counts {
            let state = game.setup(&Options::new(), seats, 0).unwrap();
            for seat in 0..seats as u8 {
                let view = game.view(&state, Viewer::Seat(Seat(seat))).unwrap();
                let layout = render::layout(&view);
                let board = view.board.clone();
                assert!(!view.figures.is_empty() && !view.square_names.is_empty());
                for placed in &view.figures {
                    let poly = layout.polygon(&board, placed.cell);
                    let at = layout.figure_centre(placed.cell);
                    let label = board.label(placed.cell);
                    assert!(
                        inside(&poly, at),
                        "{id} {seats} seat {seat}: the figure on {label} is outside it"
                    );
                    let centre_x = poly.iter().map(|p| p.0).sum::<f32>() / poly.len() as f32;
                    assert!(
                        (at.0 - centre_x).abs() < 0.5,
                        "{id} {seats} seat {seat}: the figure on {label} stands off to the side"
                    );
                }
                for (cell, name) in &view.square_names {
                    let poly = layout.polygon(&board, *cell);
                    let (l, t, r, b) = render::name_box(&view, *cell).unwrap();
                    for corner in [(l, t), (r, t), (l, b), (r, b)] {
                        assert!(
                            inside(&poly, corner),
                            "{id} {seats} seat {seat}: the number {name} crosses its triangle's \
                             edge ({l}, {t})-({r}, {b})"
                        );
                    }
                }
                views += 1;
            }
        }
    }
    assert!(views >= 40, "{views} views");
}

/// Trimens' dead pieces "become a part of the playing board": drawn greyed, not in their
/// army's colours as live pieces are.
#[test]
fn dead_pieces_are_drawn_greyed() {
    let board = engine::board::BoardSpec::Trimens { seats: 3 }.build();
    let rook = board
        .cells()
        .find(|&c| board.frame_coord(0, c) == Some((0, 1)))
        .unwrap();
    let mut live = Placed::new(rook, Seat(0), Figure::Chess(Role::Rook));
    let alive = synthetic(board.clone(), Seat(0), vec![live.clone()]);
    live.markers.push(Marker::Dead);
    let dead = synthetic(board.clone(), Seat(0), vec![live]);
    let layout = render::layout(&alive);
    let (fx, fy) = layout.figure_centre(rook);
    let army = render::army_colours(0);
    let count = |view: &View| {
        let img = render::render_image(view);
        (-8..=8)
            .flat_map(|dy| (-8..=8).map(move |dx| (dx, dy)))
            .filter(|(dx, dy)| {
                let px = img
                    .get_pixel((fx as i32 + dx) as u32, (fy as i32 + dy) as u32)
                    .0;
                close(px, army.fill, 6) || close(px, army.stroke, 6)
            })
            .count()
    };
    assert!(
        count(&alive) > 10,
        "the live rook is drawn in White's colours"
    );
    assert_eq!(count(&dead), 0, "the dead rook is greyed");
    assert_ne!(
        render::render_image(&dead).as_raw(),
        render::render_image(&without_figures(&dead)).as_raw(),
        "and still drawn"
    );
}

/// The view without its figures.
fn without_figures(view: &View) -> View {
    let mut empty = view.clone();
    empty.figures.clear();
    empty
}

/// Betza's game for eight players: the caption takes as many lines as it needs, so every seat
/// keeps its place, its army's colour and a readable name (on one line the names all became
/// "…" and the last players, the one to act among them, fell off the picture).
#[test]
fn a_caption_for_eight_players_wraps_and_keeps_every_seat() {
    let betza = registry::variant("betza").unwrap();
    let state = betza.setup(&Options::new(), 8, 0).unwrap();
    let mut view = betza.view(&state, Viewer::Seat(Seat(7))).unwrap();
    view.players = (1..=8).map(|i| format!("player number {i}")).collect();
    view.to_act = vec![Seat(7)];
    let layout = render::layout(&view);
    let img = render::render_image(&view);
    assert_eq!((img.width(), img.height()), (layout.width, layout.height));
    let top = layout.board_rect.1 as u32;
    assert!(
        top > 46 + 30,
        "the caption takes more than one line: the board starts at {top}"
    );
    let in_caption = |colour: Rgb8| {
        (0..top)
            .flat_map(|y| (0..layout.width).map(move |x| (x, y)))
            .filter(|&(x, y)| close(img.get_pixel(x, y).0, colour, 6))
            .count()
    };
    for army in 2..8 {
        assert!(
            in_caption(render::army_colours(army).fill) > 10,
            "army {army} has its place in the caption"
        );
    }
    assert!(
        in_caption(palette::GOLD) > 5,
        "the last seat, to act, is marked"
    );
}

/// Shadow Chess: a square both shaded and part of the last move keeps its shade inside and is
/// ringed in the last move's colour (tinted both ways at once it read as an unshaded square).
#[test]
fn a_shaded_square_of_the_last_move_keeps_its_shade() {
    let board = Arc::new(SquareBoard::new(8, 8).seats_facing(&[0, 2]).build());
    let g4 = board.cell("g4").unwrap();
    let mut view = synthetic(board.clone(), Seat(0), vec![]);
    view.last_move = vec![g4];
    view.tinted = vec![(g4, Seat(0))];
    let img = render::render_image(&view);
    let layout = render::layout(&view);
    let base = match board.shade(g4) {
        engine::board::Shade::Light => palette::LIGHT_CELL,
        engine::board::Shade::Dark => palette::DARK_CELL,
    };
    let shaded = palette::mix(base, palette::SHADED, 0.45);
    let (cx, cy) = layout.cell_centre(g4);
    assert_eq!(pixel(&img, (cx, cy)), shaded, "the shade inside");
    assert_eq!(
        pixel(&img, (cx - layout.scale * 0.45, cy - layout.scale * 0.45)),
        palette::mix(shaded, palette::LAST_MOVE, 0.75),
        "the last move's ring"
    );
}

/// Issue 29: every board a move posts weighs at most 60 KB: each variant's start at every
/// player count, and again forty random actions on (a midgame), as a spectator and as the
/// first seat. Each pixel is drawn as its scene's nearest palette colour.
#[test]
fn every_board_image_is_at_most_sixty_kilobytes() {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut largest = (0, String::new());
    let mut farthest = (0, String::new());
    for game in registry::variants() {
        for &seats in game.info().seat_counts {
            let mut state = game.setup(&Options::new(), seats, 1).unwrap();
            for stage in ["start", "midgame"] {
                if stage == "midgame" {
                    engine::playout::random_actions(*game, &mut state, 40, &mut rng).unwrap();
                }
                for viewer in [Viewer::Spectator, Viewer::Seat(Seat(0))] {
                    let view = game.view(&state, viewer).unwrap();
                    let png = render::render_png(&view).unwrap();
                    let what = format!("{} {seats} {stage} {viewer:?}", game.info().id);
                    // Drawn as its palette's nearest colours: nothing drawn is left out.
                    let decoded = image::load_from_memory(&png).unwrap().to_rgb8();
                    let off = decoded
                        .pixels()
                        .zip(render::render_image(&view).pixels())
                        .flat_map(|(a, b)| (0..3).map(|c| a.0[c].abs_diff(b.0[c])))
                        .max()
                        .unwrap_or(0);
                    assert!(off <= 32, "{what}: a pixel off by {off}");
                    if off > farthest.0 {
                        farthest = (off, what.clone());
                    }
                    assert!(
                        png.len() <= render::PNG_BUDGET,
                        "{what}: {} bytes",
                        png.len()
                    );
                    if png.len() > largest.0 {
                        largest = (png.len(), what);
                    }
                }
            }
        }
    }
    // Without visible loss: in the chess start, a shade not in the palette is drawn as its
    // nearest, and few pixels (edges) differ at all, none by much.
    let view = chess_view(None, Viewer::Spectator);
    let decoded = image::load_from_memory(&render::render_png(&view).unwrap())
        .unwrap()
        .to_rgb8();
    let drawn = render::render_image(&view);
    let mut changed = 0;
    let mut worst = 0;
    for (a, b) in decoded.pixels().zip(drawn.pixels()) {
        let d = (0..3)
            .map(|c| (i32::from(a.0[c]) - i32::from(b.0[c])).abs())
            .max()
            .unwrap_or(0);
        changed += usize::from(d > 0);
        worst = worst.max(d);
    }
    let share = changed as f64 / (drawn.width() * drawn.height()) as f64;
    assert!(share < 0.02, "{changed} pixels differ ({share:.4})");
    assert!(worst <= 8, "a pixel differs by {worst}");
    eprintln!(
        "largest board image: {largest:?}; farthest pixel: {farthest:?}; \
         chess start: {changed} pixels off, at most {worst}"
    );
}
