use super::layout::{Games, ALL};
use super::*;
use crate::board::{Cell, Shade};
use crate::checkers::{Checker, Stack};
use crate::game::{EndReason, Event, Game};
use crate::variants::checkers::CheckersAction;

fn kind_of(games: Games) -> [Kind; 2] {
    match games {
        Games::Checkers => [Kind::Checkers, Kind::Stax],
        Games::Queens => [Kind::Queens, Kind::Queens],
    }
}

fn options_for(layout: &layout::Layout) -> Options {
    let mut o = Options::new();
    if layout.pattern != "cutthroat" {
        o.set("mode", "partners");
        o.set("teams", &layout.pattern);
    }
    o.set("layout", &layout.name);
    o
}

fn start_of(kind: Kind, layout: &layout::Layout) -> CheckersPosition {
    start(kind, &options_for(layout), layout.players, 7)
        .unwrap_or_else(|e| panic!("{layout:?}: {e}"))
        .0
}

/// Every layout: twelve men each on the colour it names, in rows of five, four and three (or
/// four, five and three, or with one man advanced or on a corner), a sequence naming every
/// player once, and the board's triangles where the book puts them.
#[test]
fn every_layout_seats_twelve_men_each_on_its_colour() {
    for layout in ALL.iter() {
        let pos = start_of(kind_of(layout.games)[0], layout);
        let board = pos.board();
        let mut order = layout.order.clone();
        order.sort_unstable();
        assert_eq!(
            order,
            (0..layout.players as u8).collect::<Vec<_>>(),
            "{layout:?}"
        );
        assert_eq!(layout.armies.len(), layout.players);
        for (seat, army) in layout.armies.iter().enumerate() {
            let owned = pos.owned(Seat(seat as u8));
            assert_eq!(
                owned.len(),
                12,
                "{} {}: seat {seat}",
                layout.pattern,
                layout.name
            );
            for cell in owned.iter() {
                assert_eq!(board.shade(cell), army.shade, "{layout:?}");
            }
            let sizes: Vec<usize> = army.rows.iter().map(Vec::len).collect();
            assert!(
                [vec![5, 4, 3], vec![4, 5, 3], vec![4, 4, 3, 1]].contains(&sizes),
                "{layout:?}"
            );
        }
        let side = layout.side as usize;
        let hexagon = 6 * side * side;
        let cut = 2 * layout.cut_corners.len();
        assert!(board.len() <= hexagon - cut + 6 && board.len() >= hexagon - cut);
    }
}

/// The book: nobody can jump on the first move in any of its positions (it warns only of
/// enemies on opposite colours at a shared corner, which its layouts avoid).
#[test]
fn nobody_has_a_jump_at_the_start() {
    for layout in ALL.iter() {
        for kind in kind_of(layout.games) {
            let pos = start_of(kind, layout);
            for seat in 0..layout.players as u8 {
                let moves = pos.moves_of(Seat(seat));
                assert!(!moves.is_empty(), "{layout:?} seat {seat} cannot move");
                assert!(
                    moves.iter().all(|m| !m.is_jump()),
                    "{kind:?} {} {} {}: seat {seat} jumps {:?}",
                    layout.players,
                    layout.pattern,
                    layout.name,
                    moves
                        .iter()
                        .filter(|m| m.is_jump())
                        .map(|m| pos.move_text(m))
                        .collect::<Vec<_>>()
                );
            }
        }
    }
}

/// Figures 18 and 19: "If adjacent pairs are placed on opposite colors, such pairs must be
/// partners. Otherwise all players are in a position to jump their neighbors on the first
/// move." The same men as cut-throat give every player a jump.
#[test]
fn open_and_closed_queens_positions_only_suit_partners() {
    for name in ["open", "closed"] {
        let layout = layout::choices(Games::Queens, 4, "ac-bd")
            .into_iter()
            .find(|l| l.name == name)
            .unwrap();
        let mut cutthroat = layout.clone();
        cutthroat.pattern = "cutthroat".into();
        let board = cutthroat.board();
        let rules = CheckersRules {
            kind: Kind::Queens,
            board,
            numbers: false,
            first: Seat(0),
            seats: (0..4)
                .map(|s| SeatPlan {
                    team: s,
                    wrap: crate::board::Wrap::None,
                    light: layout.armies[s as usize].shade == Shade::Light,
                })
                .collect(),
            vanishing: true,
            order: Vec::new(),
        };
        let mut pos = CheckersPosition::empty(rules);
        for (seat, cells) in cutthroat.cells(pos.board()).iter().enumerate() {
            pos.place_men(Seat(seat as u8), cells, 0);
        }
        for seat in 0..4 {
            assert!(
                pos.moves_of(Seat(seat)).iter().any(|m| m.is_jump()),
                "{name}: seat {seat}"
            );
        }
    }
}

/// The sequences the book gives for each pattern.
#[test]
fn sequences_follow_the_book() {
    let order = |games, players, pattern: &str| -> String {
        let layout = layout::choices(games, players, pattern)[0];
        layout.order.iter().map(|&s| (b'A' + s) as char).collect()
    };
    assert_eq!(order(Games::Checkers, 4, "cutthroat"), "ACBD");
    assert_eq!(order(Games::Checkers, 4, "ad-bc"), "DCAB");
    assert_eq!(order(Games::Checkers, 4, "ac-bd"), "ABCD");
    assert_eq!(order(Games::Checkers, 6, "ab-cd-ef"), "ACEBDF");
    assert_eq!(order(Games::Checkers, 6, "ad-be-cf"), "ABCDEF");
    assert_eq!(order(Games::Checkers, 6, "abf-cde"), "FCADBE");
    assert_eq!(order(Games::Queens, 4, "cutthroat"), "ABCD");
    assert_eq!(order(Games::Queens, 4, "ab-cd"), "ACBD");
    assert_eq!(order(Games::Queens, 4, "ac-bd"), "ABCD");
    assert_eq!(order(Games::Queens, 4, "ad-bc"), "DBAC");
    assert_eq!(order(Games::Queens, 6, "ace-bdf"), "ABCDEF");
    // The first to move in the game is the first of the sequence.
    let mut o = Options::new();
    o.set("mode", "partners");
    o.set("teams", "AD-BC");
    let (pos, _) = start(Kind::Stax, &o, 4, 0).unwrap();
    assert_eq!(pos.turn(), Seat(3));
}

/// "One edge has only four spaces of the same color in the rear rank": the two-player board
/// gives the player there five triangles to crown on and the other four; the symmetric option
/// gives both five, on a board with one triangle borrowed.
#[test]
fn two_player_asymmetry_and_its_remedy() {
    for (name, crowns, cells) in [("standard", [5, 4], 96), ("symmetric", [5, 5], 97)] {
        let mut o = Options::new();
        o.set("layout", name);
        let (pos, forty) = start(Kind::Checkers, &o, 2, 0).unwrap();
        assert!(forty);
        assert_eq!(pos.board().len(), cells);
        for seat in 0..2u8 {
            let dark_crowns = pos
                .board()
                .cells()
                .filter(|&c| pos.is_king_row(c, Seat(seat)) && pos.board().shade(c) == Shade::Dark)
                .count();
            assert_eq!(dark_crowns, crowns[seat as usize], "{name} seat {seat}");
        }
    }
}

fn lone(kind: Kind, players: usize, men: &[(u8, &str, bool)]) -> CheckersPosition {
    let mut o = Options::new();
    if kind == Kind::Checkers {
        o.set("forty", "on");
    }
    let (start, _) = start(kind, &o, players, 0).unwrap();
    let mut pos = CheckersPosition::empty(start.rules().clone());
    for &(seat, label, king) in men {
        let mut stack = Stack::new();
        stack.push(if king {
            Checker::king(Seat(seat))
        } else {
            Checker::man(Seat(seat))
        });
        pos.set_stack(pos.board().cell(label).unwrap(), stack);
    }
    pos.set_turn(Seat(0));
    pos
}

/// A triangle's neighbours in the book's terms, found through the board's geometry: the six
/// of its colour touching at a corner and the three of the other colour ahead of a seat.
fn around(pos: &CheckersPosition, label: &str, dirs: &[crate::board::Dir]) -> Vec<String> {
    let cell = pos.board().cell(label).unwrap();
    dirs.iter()
        .filter_map(|&d| pos.board().step(cell, d))
        .map(|c: Cell| pos.board().label(c).to_string())
        .collect()
}

/// Men step to two triangles ahead, kings to six; in Tri-Queens a man jumps five ways (Figure
/// 13) and a king twelve.
#[test]
fn men_and_kings_move_as_the_book_says() {
    use crate::board::Heading;
    // Two players on the 8-row board; triangle 45 is in the middle, dark (seat 0 at the bottom
    // is B, who sits on edge 0).
    let probe = lone(Kind::Checkers, 2, &[]);
    let frame = probe.board().frame(1);
    let ahead = around(
        &probe,
        "45",
        &frame.dirs(&[Heading::ForwardLeft, Heading::ForwardRight]),
    );
    assert_eq!(ahead.len(), 2);
    let mut man = lone(Kind::Checkers, 2, &[(1, "45", false)]);
    man.set_turn(Seat(1));
    assert_eq!(man.legal_moves().len(), 2);
    let mut king = lone(Kind::Checkers, 2, &[(1, "45", true)]);
    king.set_turn(Seat(1));
    assert_eq!(king.legal_moves().len(), 6);
    // Tri-Queens: every same-colour and other-colour neighbour ahead holds an enemy with room
    // behind it: five jumps for a man, and a king surrounded at distance one jumps twelve ways.
    let centre = "40";
    let q = lone(Kind::Queens, 2, &[]);
    let f = q.board().frame(0);
    let mut dirs = f.dirs(&[Heading::ForwardLeft, Heading::ForwardRight]);
    dirs.extend_from_slice(&f.lines().bishop[..3]);
    let victims = around(&q, centre, &dirs);
    assert_eq!(victims.len(), 5);
    let mut men: Vec<(u8, &str, bool)> = vec![(0, centre, false)];
    men.extend(victims.iter().map(|v| (1u8, v.as_str(), false)));
    let q = lone(Kind::Queens, 2, &men);
    let jumps: Vec<String> = q.legal_moves().iter().map(|m| q.move_text(m)).collect();
    assert_eq!(jumps.len(), 5, "{jumps:?}");
    assert!(q.legal_moves().iter().all(|m| m.is_jump()));
    let f = q.board().frame(0);
    let mut all = f.dirs(&Heading::ALL_BUT_STRAIGHT);
    all.extend_from_slice(&f.lines().bishop);
    let ring = around(&q, centre, &all);
    assert_eq!(ring.len(), 12);
    let mut men: Vec<(u8, &str, bool)> = vec![(0, centre, true)];
    men.extend(ring.iter().map(|v| (1u8, v.as_str(), false)));
    let q = lone(Kind::Queens, 2, &men);
    let first_jumps: std::collections::HashSet<_> =
        q.legal_moves().iter().map(|m| m.jumped[0]).collect();
    assert_eq!(first_jumps.len(), 12);
}

fn play(state: &mut crate::variants::checkers::CheckersState, text: &str) -> Vec<Event> {
    let seat = state.position().turn();
    Game::play(&TRI_CHEK, state, seat, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .1
}

/// The 40-move option: offered once every piece is a king, free, and after forty moves of
/// each player without a jump the player with more pieces wins. The book's "if 40 moves are
/// made with no piece being jumped" is counted per player, as checkers counts its forty moves:
/// eighty moves in all for two.
#[test]
fn the_forty_move_option() {
    let mut state = Game::setup(&TRI_CHEK, &Options::new(), 2, 0).unwrap();
    let err = Game::play(&TRI_CHEK, &mut state, Seat(0), "forty").unwrap_err();
    assert!(
        err.to_string()
            .contains("every piece on the board is a king"),
        "{err}"
    );
    // Kings only: two for A on the bottom row, one for B on the top row.
    let pos = lone(
        Kind::Checkers,
        2,
        &[(0, "1", true), (0, "5", true), (1, "93", true)],
    );
    state = crate::variants::checkers::CheckersState::new(pos, &NAMES, true);
    assert!(Game::legal(&TRI_CHEK, &state, Seat(0)).contains(&CheckersAction::InvokeFortyMoves));
    let events = play(&mut state, "forty");
    assert!(matches!(&events[0], Event::Public(t) if t.contains("invokes the 40-move option")));
    assert_eq!(
        state.position().turn(),
        Seat(0),
        "invoking does not use the turn"
    );
    let err = Game::play(&TRI_CHEK, &mut state, Seat(0), "40").unwrap_err();
    assert!(err.to_string().contains("already invoked"), "{err}");
    // Both shuffle along their rows: repetitions do not draw once the option is invoked.
    let shuffle = [["1-3", "93-95"], ["3-1", "95-93"]];
    for i in 0..40 {
        assert!(
            TRI_CHEK.outcome(&state).is_none(),
            "over after {} moves",
            2 * i
        );
        for text in shuffle[i % 2] {
            play(&mut state, text);
        }
    }
    let outcome = TRI_CHEK.outcome(&state).unwrap();
    assert_eq!(outcome.winners, vec![Seat(0)], "{outcome:?}");
    assert_eq!(outcome.reason, EndReason::FortyMoves);
}

/// The six-player Tri-Queens figures as the book counts them. Figure 22: "one of each trio on
/// one color spaces and the other two on the opposite color. Two of each three begin with one
/// advanced piece." Figure 23: "All of each trio are on the same color spaces ... four of the
/// six players beginning in advanced positions 'a.' If preferred, that piece may use the cut
/// out corners at 'b'"; and "Figure 23 is also the only possible setup for playing five or six
/// player cut-throat ... for cut-throat, it moves clockwise ... the advanced piece is
/// impermissible in cut-throat, so the missing corners at positions 'b' must be used."
#[test]
fn tri_queens_for_five_and_six_advance_as_many_men_as_the_book_says() {
    use crate::board::{corner_numbers, frame_to_board, hexagon_number};
    let find = |players: usize, pattern: &str, name: &str| -> &'static layout::Layout {
        layout::choices(Games::Queens, players, pattern)
            .into_iter()
            .find(|l| l.name == name)
            .unwrap_or_else(|| panic!("no layout {players} {pattern} {name}"))
    };
    // An advanced man stands in a fourth row; a man on a corner stands on a cut-out triangle.
    let advanced = |army: &layout::PlayerLayout| army.rows.len() == 4;
    let on_corner = |l: &layout::Layout, army: &layout::PlayerLayout| {
        let corners: Vec<u16> = l
            .cut_corners
            .iter()
            .flat_map(|&k| corner_numbers(l.side, k))
            .collect();
        army.rows.iter().enumerate().any(|(rank, files)| {
            files.iter().any(|&file| {
                hexagon_number(l.side, frame_to_board(l.side, army.edge, rank as i16, file))
                    .is_some_and(|n| corners.contains(&n))
            })
        })
    };
    // ACE against BDF.
    let trios = [[0usize, 2, 4], [1, 3, 5]];
    let mixed = find(6, "ace-bdf", "mixed");
    for trio in trios {
        let light = trio
            .iter()
            .filter(|&&s| mixed.armies[s].shade == Shade::Light)
            .count();
        assert!(light == 1 || light == 2, "mixed: {trio:?} is on one colour");
        let ahead = trio.iter().filter(|&&s| advanced(&mixed.armies[s])).count();
        assert_eq!(ahead, 2, "mixed: two of each three advance a man");
    }
    for name in ["advanced", "corners"] {
        let l = find(6, "ace-bdf", name);
        for trio in trios {
            let shade = l.armies[trio[0]].shade;
            assert!(
                trio.iter().all(|&s| l.armies[s].shade == shade),
                "{name}: {trio:?} on one colour"
            );
        }
        let count = l
            .armies
            .iter()
            .filter(|&a| {
                if name == "advanced" {
                    advanced(a)
                } else {
                    on_corner(l, a)
                }
            })
            .count();
        assert_eq!(count, 4, "{name}: four of the six");
    }
    for (players, corners) in [(6, 4), (5, 3)] {
        let l = find(players, "cutthroat", "corners");
        assert!(l.armies.iter().all(|a| !advanced(a)), "{players}");
        let count = l.armies.iter().filter(|&a| on_corner(l, a)).count();
        assert_eq!(count, corners, "{players}: the corners are used");
        // Clockwise: the edges in the order of play.
        let edges: Vec<u8> = l.order.iter().map(|&s| l.armies[s as usize].edge).collect();
        assert!(
            edges.windows(2).all(|w| w[0] < w[1]),
            "{players}: {edges:?}"
        );
    }
    let (pos, _) = start(Kind::Queens, &Options::new(), 5, 0).unwrap();
    assert_eq!(pos.seat_count(), 5);
}

/// Bad options are refused with the choices that fit.
#[test]
fn refusals_name_the_valid_choices() {
    let refuse = |kind: Kind, players: usize, pairs: &[(&str, &str)]| -> String {
        let mut o = Options::new();
        for (k, v) in pairs {
            o.set(k, v);
        }
        start(kind, &o, players, 0).unwrap_err().to_string()
    };
    assert!(refuse(Kind::Queens, 3, &[]).contains("2, 4, 5 or 6"));
    let e = refuse(Kind::Queens, 5, &[("mode", "partners")]);
    assert!(e.contains("cut-throat"), "{e}");
    let e = refuse(
        Kind::Stax,
        4,
        &[("mode", "partners"), ("teams", "AB-CD-EF")],
    );
    assert!(e.contains("choose AC-BD, AB-CD, AD-BC"), "{e}");
    let e = refuse(Kind::Stax, 3, &[("mode", "partners")]);
    assert!(e.contains("cut-throat"), "{e}");
    let e = refuse(Kind::Stax, 2, &[("forty", "on")]);
    assert!(e.contains("Tri-Chek's alone"), "{e}");
    let e = refuse(Kind::Queens, 4, &[("forty", "off")]);
    assert!(e.contains("Tri-Chek's alone"), "{e}");
    let e = refuse(Kind::Checkers, 3, &[("layout", "symmetric")]);
    assert!(e.contains("choose standard"), "{e}");
    let e = refuse(Kind::Queens, 4, &[("layout", "open")]);
    assert!(e.contains("teams=") || e.contains("cut-throat"), "{e}");
    let e = refuse(Kind::Checkers, 2, &[("numbers", "maybe")]);
    assert!(e.contains("off or on"), "{e}");
    // The registry's own check names the player counts.
    let err = TRI_QUEENS.info().check_seats(3).unwrap_err().to_string();
    assert!(err.contains('2') && err.contains('6'), "{err}");
}

/// Every legal move at every start reads back from its own text.
#[test]
fn moves_read_back_from_their_text() {
    for layout in ALL.iter() {
        for kind in kind_of(layout.games) {
            let pos = start_of(kind, layout);
            for m in pos.legal_moves() {
                let text = pos.move_text(&m);
                assert_eq!(pos.parse_move(&text).as_ref(), Ok(&m), "{text}");
            }
            let err = pos.parse_move("999-998").unwrap_err();
            assert!(err.contains("no triangle 999"), "{err}");
        }
    }
}
