//! Adams' per-player notation for Doubles Chess, read: `P-Q5`, `B-II7`, `KN-QB3`, `Q x K`,
//! `RP x P-N3`, each square named from the mover's own side.
//!
//! "The first file on a player's left is designated I, the next one is II, the file to the
//! immediate right of the right Rook is III, and the one on the extreme right is IV"; the eight
//! files between take the names of the pieces that start on them (the king's file K, the queen's
//! Q, then the bishops', knights' and rooks' files, KB or QB by the side they stand on); ranks
//! count 1-12 from the mover's edge. An ambiguous file name (`R8`, `N4`) means either of the two
//! files of that name, whichever the move can reach.

use crate::board::{Board, Cell};
use crate::chess::{Move, MoveKind, MoveParseError, Position, Role, Seat};

/// The names of the twelve columns from an army's left, and which of them are on its king's
/// side.
pub(super) struct Columns {
    names: [&'static str; 12],
    king_side: [bool; 12],
}

/// The column names of an army whose king starts left (`king_left`) or right of its queen.
pub(super) fn columns(king_left: bool) -> Columns {
    // The eight middle files from the mover's left.
    let middle = if king_left {
        ["KR", "KN", "KB", "K", "Q", "QB", "QN", "QR"]
    } else {
        ["QR", "QN", "QB", "Q", "K", "KB", "KN", "KR"]
    };
    let mut names = ["I", "II", "", "", "", "", "", "", "", "", "III", "IV"];
    names[2..10].copy_from_slice(&middle);
    let mut king_side = [false; 12];
    for (i, side) in king_side.iter_mut().enumerate() {
        *side = (i < 6) == king_left;
    }
    Columns { names, king_side }
}

/// Where a square lies for an army: its column from the army's left (0-11) and its rank from
/// the army's edge (1-12).
fn place(board: &Board, army: usize, cell: Cell) -> (usize, usize) {
    let (f, r) = board.coord(cell);
    let (f, r) = (f as usize, r as usize);
    let quarter = board.frame(army).quarter_turns();
    match quarter % 4 {
        0 => (f, r + 1),
        1 => (11 - r, f + 1),
        2 => (11 - f, 12 - r),
        _ => (r, 12 - f),
    }
}

/// A piece named in the notation: its role and an optional qualifier (a file name for pawns,
/// a side, K or Q, for pieces).
struct Named {
    role: Role,
    qualifier: Option<String>,
}

fn read_named(text: &str) -> Option<Named> {
    let last = text.chars().last()?;
    let role = Role::from_char(last)?;
    let qualifier = &text[..text.len() - 1];
    if !qualifier
        .chars()
        .all(|c| matches!(c, 'K' | 'Q' | 'R' | 'N' | 'B'))
    {
        return None;
    }
    Some(Named {
        role,
        qualifier: (!qualifier.is_empty()).then(|| qualifier.to_string()),
    })
}

/// A target square: the column names it may be and its rank.
fn read_square(text: &str) -> Option<(String, usize)> {
    let digits = text.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let name = &text[..text.len() - digits.len()];
    let rank: usize = digits.parse().ok()?;
    if name.is_empty() || !(1..=12).contains(&rank) {
        return None;
    }
    Some((name.to_string(), rank))
}

fn column_matches(name: &str, wanted: &str) -> bool {
    name == wanted
        || (matches!(wanted, "R" | "N" | "B") && name.len() == 2 && name.ends_with(wanted))
}

/// Reads a move in the per-player notation among `allowed` (the mover's legal moves).
/// `None` when the text is not in this notation at all.
pub(super) fn read(
    pos: &Position,
    army: usize,
    columns: &Columns,
    text: &str,
    allowed: &[Move],
) -> Option<Result<Move, MoveParseError>> {
    let shown = text.trim().to_string();
    let cleaned: String = text
        .to_ascii_uppercase()
        .replace(" AT ", "-")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let cleaned = cleaned.trim_end_matches(['+', '#', '!', '?']);
    // `P x P e.p.` (or `ep`): the book's way of saying the capture is en passant. No name in
    // this notation ends in E, so the suffix is never part of one.
    let (cleaned, en_passant) = match cleaned
        .strip_suffix("E.P.")
        .or_else(|| cleaned.strip_suffix("EP"))
    {
        Some(rest) => (rest, true),
        None => (cleaned, false),
    };
    let (cleaned, promotion) = match cleaned.rsplit_once(['=', '(']) {
        Some((rest, role)) => (rest, Some(Role::from_char(role.chars().next()?)?)),
        None => (cleaned, None),
    };
    let (left, target) = match cleaned.split_once('-') {
        Some((l, t)) => (l, Some(read_square(t)?)),
        None => (cleaned, None),
    };
    let (mover, captured) = match left.split_once('X') {
        Some((m, c)) => (read_named(m)?, Some(read_named(c)?.role)),
        None => (read_named(left)?, None),
    };
    if target.is_none() && captured.is_none() {
        return None;
    }
    let board = pos.board();
    let name_of = |cell: Cell| columns.names[place(board, army, cell).0];
    let found: Vec<Move> = allowed
        .iter()
        .copied()
        .filter(|m| m.kind != MoveKind::Castle)
        .filter(|m| pos.piece_at(m.from).map(|p| p.role) == Some(mover.role))
        .filter(|m| match &mover.qualifier {
            None => true,
            Some(q) if mover.role == Role::Pawn => column_matches(name_of(m.from), q),
            Some(q) => {
                let king_side = columns.king_side[place(board, army, m.from).0];
                match q.as_str() {
                    "K" => king_side,
                    "Q" => !king_side,
                    // "KR", "QN": the side and the piece again.
                    q if q.len() == 1 => false,
                    q => (q.starts_with('K') == king_side) && q.ends_with(mover.role.upper_char()),
                }
            }
        })
        .filter(|m| {
            captured.is_none_or(|c| {
                let victim = match pos.piece_at(m.to) {
                    Some(p) if p.seat != Seat(army as u8) => Some(p.role),
                    Some(_) => None,
                    // Only a pawn taken en passant is captured away from the square moved to.
                    None => pos.is_capture(*m).then_some(Role::Pawn),
                };
                victim == Some(c)
            })
        })
        .filter(|m| {
            target.as_ref().is_none_or(|(name, rank)| {
                let (column, r) = place(board, army, m.to);
                r == *rank && column_matches(columns.names[column], name)
            })
        })
        .filter(|m| promotion.is_none_or(|p| m.promotion() == Some(p)))
        .filter(|m| !en_passant || m.kind == MoveKind::EnPassant)
        .collect();
    let found: Vec<Move> = if found.len() > 1 && promotion.is_none() {
        // Unsaid, a promotion is to a queen.
        let queens: Vec<Move> = found
            .iter()
            .copied()
            .filter(|m| m.promotion().is_none_or(|r| r == Role::Queen))
            .collect();
        queens
    } else {
        found
    };
    Some(match found.as_slice() {
        [m] => Ok(*m),
        [] if en_passant && !allowed.iter().any(|m| m.kind == MoveKind::EnPassant) => {
            Err(MoveParseError::Illegal {
                text: shown,
                reason: "no en passant capture is open to you now".into(),
            })
        }
        [] => Err(MoveParseError::Illegal {
            text: shown,
            reason: "no legal move of yours fits it (squares are named from your own side: \
                     files I, II, QR..KR, III, IV from your left, ranks 1-12 from your edge)"
                .into(),
        }),
        many => Err(MoveParseError::Ambiguous {
            text: shown,
            candidates: many.iter().map(|m| pos.san_plain(*m)).collect(),
        }),
    })
}
