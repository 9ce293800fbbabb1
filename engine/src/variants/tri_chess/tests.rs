use std::collections::HashSet;

use super::*;
use crate::board::Cell;
use crate::chess::Role;
use crate::game::Options;

fn options(pairs: &[&str]) -> Options {
    Options::parse(pairs.iter().copied()).unwrap()
}

fn game(players: usize, pairs: &[&str]) -> TeamChess {
    TriChess
        .setup(&options(pairs), players, 1)
        .unwrap_or_else(|e| panic!("{players} {pairs:?}: {e}"))
}

/// Every option combination the book allows, by player count.
fn every_game() -> Vec<(usize, Vec<&'static str>)> {
    let mut out = Vec::new();
    for players in 2..=6 {
        let edges: &[&str] = if players <= 4 {
            &["edges=nine-pawns", "edges=cut"]
        } else {
            &["edges=nine-pawns"]
        };
        let mut patterns = vec![vec!["mode=cutthroat"]];
        match players {
            4 => patterns.extend(FOUR_TEAMS.map(|t| vec!["mode=partners", t])),
            6 => patterns.extend(SIX_TEAMS.map(|t| vec!["mode=partners", t])),
            _ => {}
        }
        for pattern in patterns {
            for &e in edges {
                let mut o: Vec<&str> = pattern
                    .iter()
                    .map(|t| match *t {
                        "ab-cd" => "teams=AB-CD",
                        "ac-bd" => "teams=AC-BD",
                        "ad-bc" => "teams=AD-BC",
                        "ab-cd-ef" => "teams=AB-CD-EF",
                        "abc-def" => "teams=ABC-DEF",
                        other => other,
                    })
                    .collect();
                o.push(e);
                out.push((players, o));
            }
        }
    }
    out
}

/// Up in an army's own frame: the triangle's apex points away from its edge, inward.
fn points_inward(board: &crate::board::Board, seat: usize, cell: Cell) -> bool {
    let (rank, file) = board.frame_coord(seat, cell).unwrap();
    (rank + 1 + file) % 2 == 0
}

/// The book's constraints on every starting position: sixteen pieces and a ninth pawn or the
/// edges cut; kings on triangles pointing inward on the edge row; queens on the centre of the
/// edge where it points outward, beside the king otherwise; every rook shut in until a piece
/// moves; no piece but a pawn attacked by an opponent.
#[test]
fn every_start_keeps_the_books_constraints() {
    let mut starts = 0;
    for (players, opts) in every_game() {
        let state = game(players, &opts);
        let pos = &state.position;
        let board = pos.board();
        let side = match board.spec() {
            crate::board::BoardSpec::TriHex { side, .. } => *side as i16,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            side,
            match players {
                2 => 4,
                3 | 4 => 5,
                _ => 6,
            }
        );
        let cut = opts.contains(&"edges=cut");
        for seat in 0..players {
            let at = |role: Role| -> Vec<Cell> {
                pos.pieces()
                    .filter(|(_, p)| p.seat.index() == seat && p.role == role)
                    .map(|(c, _)| c)
                    .collect()
            };
            let pawns = at(Role::Pawn).len();
            let nine = !cut
                || (players == 4 && state.mode() == Mode::CutThroat)
                || opts.contains(&"teams=AC-BD")
                || opts.contains(&"teams=AD-BC");
            assert_eq!(pawns, if nine { 9 } else { 8 }, "{players} {opts:?}");
            assert_eq!(pos.cells_of(Seat(seat as u8)).len(), 8 + pawns);
            let king = at(Role::King)[0];
            let queen = at(Role::Queen)[0];
            let (k_rank, k_file) = board.frame_coord(seat, king).unwrap();
            let (q_rank, q_file) = board.frame_coord(seat, queen).unwrap();
            assert_eq!((k_rank, q_rank), (0, 0));
            assert!(points_inward(board, seat, king), "{players} {opts:?}");
            assert_eq!((k_file - q_file).abs(), 1, "the queen beside the king");
            if side % 2 == 0 {
                assert_eq!(q_file, side, "the queen on the centre triangle");
            } else if opts.contains(&"teams=AB-CD") {
                assert_eq!(
                    k_file, side,
                    "closed position: the king on the centre triangle"
                );
            }
            // Rooks shut in: only their own first two rows are reachable through empty
            // triangles along rook lines.
            let lines = board.frame(seat).lines().rook.clone();
            for rook in at(Role::Rook) {
                let mut seen = HashSet::from([rook]);
                let mut todo = vec![rook];
                while let Some(c) = todo.pop() {
                    for &d in &lines {
                        for t in board.ray(c, d) {
                            if pos.piece_at(t).is_some() {
                                break;
                            }
                            if seen.insert(t) {
                                todo.push(t);
                            }
                        }
                    }
                }
                for c in seen {
                    assert!(
                        board.frame_rank(seat, c).unwrap() <= 1,
                        "{players} {opts:?}: seat {seat}'s rook on {} reaches {}",
                        board.label(rook),
                        board.label(c)
                    );
                }
            }
        }
        for (cell, piece) in pos.pieces().filter(|(_, p)| p.role != Role::Pawn) {
            for enemy in 0..players as u8 {
                if state.table.team(enemy) != state.table.team(piece.seat.0) {
                    assert!(
                        !pos.attacked_by(cell, Seat(enemy)),
                        "{players} {opts:?}: {} on {} attacked by seat {enemy}",
                        piece.role.name(),
                        board.label(cell)
                    );
                }
            }
        }
        starts += 1;
    }
    assert_eq!(starts, 16);
}

/// The sequences of moves the book gives for each pattern.
#[test]
fn each_pattern_moves_in_the_books_sequence() {
    for (players, opts, names) in [
        (4, vec!["mode=cutthroat"], "White Black Orange Blue"),
        (
            4,
            vec!["mode=partners", "teams=AB-CD"],
            "White Orange Black Blue",
        ),
        (
            4,
            vec!["mode=partners", "teams=AC-BD"],
            "White Black Orange Blue",
        ),
        (
            4,
            vec!["mode=partners", "teams=AD-BC"],
            "Blue Orange White Black",
        ),
        (
            6,
            vec!["mode=partners", "teams=AB-CD-EF"],
            "White Orange Green Black Blue Pink",
        ),
        (
            6,
            vec!["mode=partners", "teams=ABC-DEF"],
            "White Blue Black Green Orange Pink",
        ),
    ] {
        let mut state = game(players, &opts);
        let mut seen = Vec::new();
        for _ in 0..players {
            let army = state.to_move();
            seen.push(state.name(army).to_string());
            let m = state.moves_of(army)[0];
            state.apply_move(m);
        }
        assert_eq!(seen.join(" "), names, "{opts:?}");
    }
}

/// The book's remarks on the pieces: a rook and a bishop on neighbouring triangles guard each
/// other, and so may a rook and a knight.
#[test]
fn rooks_guard_bishops_and_knights_as_the_book_says() {
    let state = game(2, &[]);
    let rules = state.position.rules().clone();
    let board = rules.board();
    let centre = board.cell("44").unwrap();
    let mut rook_bishop = false;
    let mut rook_knight = false;
    for other in board.cells().filter(|&c| c != centre) {
        let with = |role: Role| {
            let mut pos = state.position.clone();
            for c in board.cells() {
                pos.set_piece(c, None);
            }
            let piece = |role| {
                Some(crate::chess::Piece {
                    seat: Seat(0),
                    role,
                })
            };
            pos.set_piece(centre, piece(Role::Rook));
            pos.set_piece(other, piece(role));
            let guards = |from: Cell, role: Role, to: Cell| {
                let mut probe = pos.clone();
                probe.set_piece(
                    to,
                    Some(crate::chess::Piece {
                        seat: Seat(1),
                        role: Role::Pawn,
                    }),
                );
                probe.reach(from, role, Seat(0)).contains(&to)
            };
            guards(centre, Role::Rook, other) && guards(other, role, centre)
        };
        rook_bishop |= with(Role::Bishop);
        rook_knight |= with(Role::Knight);
    }
    assert!(rook_bishop && rook_knight);
}

/// Every legal move at every start is written and read back as itself.
#[test]
fn moves_are_written_and_read_back() {
    for (players, opts) in every_game() {
        let state = game(players, &opts);
        let seat = state.table.controller(state.to_move());
        for m in Game::legal(&TriChess, &state, seat) {
            let text = TriChess.action_text(&state, &m);
            assert_eq!(
                TriChess.parse(&state, seat, &text).unwrap(),
                m,
                "{players} {opts:?} {text}"
            );
        }
    }
    // Short forms: a piece and its triangle, a pawn's two numbers.
    let state = game(2, &[]);
    let seat = Seat(0);
    let m = TriChess.parse(&state, seat, "N66").unwrap();
    assert_eq!(TriChess.action_text(&state, &m), "N89-66");
}

/// Options the book does not allow are refused with the choices named.
#[test]
fn bad_options_are_refused_with_the_reason() {
    for (players, opts, says) in [
        (3, vec!["mode=partners"], "four or six players"),
        (5, vec!["mode=partners"], "four or six players"),
        (6, vec!["mode=partners", "teams=AB-CD"], "AB-CD-EF, ABC-DEF"),
        (
            4,
            vec!["mode=partners", "teams=ABC-DEF"],
            "AB-CD, AC-BD, AD-BC",
        ),
        (4, vec!["teams=AB-CD"], "add mode=partners"),
        (6, vec!["edges=cut"], "two to four players"),
        (2, vec!["pawns=extended"], "three or more players"),
        (2, vec!["knight=extended"], "three or more players"),
    ] {
        let err = TriChess.setup(&options(&opts), players, 1).unwrap_err();
        assert!(err.to_string().contains(says), "{opts:?}: {err}");
    }
}

/// Triangles that do not exist, or are cut out, are named as such; a rook cannot take a
/// bishop's line.
#[test]
fn bad_moves_say_why() {
    let state = game(3, &[]);
    let seat = Seat(0);
    let err = TriChess.parse(&state, seat, "12-999").unwrap_err();
    assert!(err.to_string().contains("no triangle 999"), "{err}");
    let board = state.position.board();
    let whole = 150;
    let missing = (1..=whole)
        .find(|n| board.cell(&n.to_string()).is_none())
        .unwrap();
    let err = TriChess
        .parse(&state, seat, &format!("N{missing}"))
        .unwrap_err();
    assert!(err.to_string().contains("cut out"), "{err}");
    let err = TriChess.parse(&state, Seat(1), "13-26").unwrap_err();
    assert!(err.to_string().contains("not your turn"), "{err}");
}

/// A knight leaps; with knight=extended it may hop on again the same way to an empty
/// triangle over an empty one, never capturing.
#[test]
fn the_extended_knight_adds_hops_only_with_its_option() {
    let plain = game(3, &[]);
    let extended = game(3, &["knight=extended"]);
    let count = |s: &TeamChess| s.moves_of(s.to_move()).len();
    assert!(count(&extended) > count(&plain));
    let knight_moves = |s: &TeamChess| -> HashSet<Cell> {
        s.moves_of(s.to_move())
            .into_iter()
            .filter(|m| s.position.piece_at(m.from).unwrap().role == Role::Knight)
            .map(|m| m.to)
            .collect()
    };
    assert!(knight_moves(&plain).is_subset(&knight_moves(&extended)));
}

/// Cut-throat with three: a checkmated army is frozen in place, its king still on the board
/// for the mater to take, and the other two play on. Found by random play from the start
/// (seeded), taking a mating move as soon as one is there.
#[test]
fn a_mated_army_is_frozen_and_the_others_play_on() {
    use crate::table::ArmyStatus;
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
    for _game in 0..40 {
        let mut state = game(3, &[]);
        for _ in 0..400 {
            if state.outcome.is_some() {
                break;
            }
            let army = state.to_move();
            let moves = state.moves_of(army);
            let mating = moves.iter().copied().find(|&m| {
                let mut after = state.clone();
                after.apply_move(m);
                (0..3).any(|a| after.table.status(a) == ArmyStatus::Frozen)
            });
            let Some(m) = mating else {
                let m = moves[rng.gen_range(0..moves.len())];
                state.apply_move(m);
                continue;
            };
            let events = state.apply_move(m);
            let victim = (0..3u8)
                .find(|&a| state.table.status(a) == ArmyStatus::Frozen)
                .unwrap();
            let texts = crate::game::Event::public_texts(&events).join("\n");
            assert!(texts.contains("is checkmated"), "{texts}");
            // The frozen army's pieces, king included, stay on the board.
            assert!(state.position.king(Seat(victim)).is_some());
            assert!(state.outcome.is_none(), "two players remain");
            // The turn never comes to the frozen army.
            for _ in 0..6 {
                if state.outcome.is_some() {
                    break;
                }
                assert_ne!(state.to_move(), victim);
                let moves = state.moves_of(state.to_move());
                let m = moves[rng.gen_range(0..moves.len())];
                state.apply_move(m);
            }
            return;
        }
    }
    panic!("no checkmate in forty random games");
}

/// O-O is the king's side, toward the rook nearer the king at the start, in every layout
/// (closed four-player kings stand on the very centre of their row); `OOO` is O-O-O.
#[test]
fn short_castling_goes_toward_the_nearer_rook() {
    use crate::chess::CastleSide;
    for (players, opts) in every_game() {
        let state = game(players, &opts);
        let board = state.position.board();
        for seat in 0..players {
            let mut pos = state.position.clone();
            pos.set_turn(Seat(seat as u8));
            let king = pos.king(Seat(seat as u8)).unwrap();
            let line = |c: Cell| board.frame_coord(seat, c).unwrap().1;
            let nearest = pos
                .castling_rooks(Seat(seat as u8))
                .min_by_key(|&r| (line(r) - line(king)).abs())
                .unwrap();
            let expected = if line(nearest) > line(king) {
                CastleSide::High
            } else {
                CastleSide::Low
            };
            assert_eq!(
                pos.castle_side_named(true),
                expected,
                "{players} {opts:?} {seat}"
            );
            assert_ne!(pos.castle_side_named(false), expected);
        }
    }
    // "OOO" names the long side: with nothing in the way it is refused for that reason, never
    // read as O-O.
    let state = game(2, &[]);
    let pos = &state.position;
    let moves = state.moves_of(state.to_move());
    for text in ["OOO", "O-O-O", "0-0-0"] {
        let err = notation::read(pos, &moves, text).unwrap_err();
        assert!(err.contains("castling"), "{text}: {err}");
    }
}

/// What a computer player counts to hem a beaten king in: the king's moves were it that
/// army's turn, for the army to move and for the others alike.
#[test]
fn a_kings_room_is_the_moves_it_would_have() {
    for (players, pairs) in every_game() {
        let mut state = game(players, &pairs);
        // At the start every king is boxed in by its own army, whoever is to move.
        for army in 0..players as u8 {
            assert_eq!(
                TriChess.king_room(&state, Seat(army)),
                Some(0),
                "{players} {army}"
            );
        }
        // A few moves in, so that kings have room.
        for n in 0..6 {
            let seat = Game::prompts(&TriChess, &state)[0].seat;
            let moves = Game::legal(&TriChess, &state, seat);
            let m = moves[n * 7 % moves.len()];
            Game::apply(&TriChess, &mut state, seat, m).unwrap();
        }
        let army = state.to_move();
        let king = state.position.king(Seat(army)).unwrap();
        let king_moves = state
            .chess_moves(army)
            .iter()
            .filter(|m| m.from == king && m.kind != crate::chess::MoveKind::Castle)
            .count();
        assert_eq!(TriChess.king_room(&state, Seat(army)), Some(king_moves));
        for other in (0..players as u8).filter(|&a| a != army) {
            assert!(TriChess.king_room(&state, Seat(other)).is_some());
        }
    }
}
