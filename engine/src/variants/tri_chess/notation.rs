//! Tri-Chess moves in numbered triangles: the piece letter (none for a pawn), the triangle it
//! leaves, `-` or `x`, the triangle it reaches, and a promotion as `=Q` (`N45-67`, `58-71`,
//! `Q12x80`, `150-161=Q`); castling `O-O` (toward the king's nearer rook) and `O-O-O`.
//!
//! Reading is lenient: the piece letter and the starting triangle may be left out when only one
//! move fits (`N67`, `x80`), spaces or `/` may separate the parts, and check marks are ignored.
//! Errors are the reason alone; the game says which text was refused.

use crate::board::Cell;
use crate::chess::{Move, MoveKind, Position, Role};

/// A move as the game records it, without check marks.
pub fn write(pos: &Position, m: Move) -> String {
    if m.kind == MoveKind::Castle {
        return if pos.castle_side_of(m) == pos.castle_side_named(true) {
            "O-O"
        } else {
            "O-O-O"
        }
        .to_string();
    }
    let board = pos.board();
    let role = pos.piece_at(m.from).map_or(Role::Pawn, |p| p.role);
    let mut text = String::new();
    if role != Role::Pawn {
        text.push(role.upper_char());
    }
    text.push_str(board.label(m.from));
    text.push(if pos.is_capture(m) { 'x' } else { '-' });
    text.push_str(board.label(m.to));
    if let MoveKind::Promotion(r) = m.kind {
        text.push('=');
        text.push(r.upper_char());
    }
    text
}

/// Reads a move for the army to move in `pos`, among `legal` (the moves the game allows now).
pub fn read(pos: &Position, legal: &[Move], text: &str) -> Result<Move, String> {
    let mut t = text.trim().to_string();
    for mark in ["#", "+", "ch"] {
        while t.to_ascii_lowercase().ends_with(mark) {
            t.truncate(t.len() - mark.len());
            t = t.trim_end().to_string();
        }
    }
    let castle = t.replace('0', "O").replace(' ', "").to_ascii_uppercase();
    if castle == "O-O" || castle == "O-O-O" || castle == "OO" || castle == "OOO" {
        let short = castle.matches('O').count() == 2;
        let side = pos.castle_side_named(short);
        return legal
            .iter()
            .copied()
            .find(|m| m.kind == MoveKind::Castle && pos.castle_side_of(*m) == side)
            .ok_or_else(|| why_no_castle(pos));
    }
    // The promotion: "=Q", "/Q" or "(Q)" at the end.
    let mut promotion = None;
    for sep in ['=', '/', '('] {
        if let Some((before, after)) = t.rsplit_once(sep) {
            let letter = after.trim().trim_end_matches(')');
            if let Some(r) = single_letter(letter) {
                promotion = Some(
                    r.filter(|r| !matches!(r, Role::King | Role::Pawn))
                        .ok_or_else(|| {
                            format!("a pawn is promoted to Q, R, B or N, not '{letter}'")
                        })?,
                );
                t = before.trim().to_string();
                break;
            }
        }
    }
    // The piece letter.
    let mut role = None;
    if let Some(first) = t.chars().next().filter(|c| c.is_ascii_alphabetic()) {
        if first.eq_ignore_ascii_case(&'x') {
            // "x80": a capture, any piece.
        } else {
            role = Some(Role::from_char(first).ok_or_else(|| {
                format!("'{first}' is not a piece: use K, Q, R, B, N, or no letter for a pawn")
            })?);
            t = t[first.len_utf8()..].to_string();
        }
    }
    let says_capture = t.contains(['x', 'X', ':']);
    let numbers: Vec<&str> = t
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .collect();
    if t.chars()
        .any(|c| !(c.is_ascii_digit() || c.is_whitespace() || "-xX:".contains(c)))
    {
        return Err("write a move like N45-67, 58-71, Q12x80, 150-161=Q or O-O".into());
    }
    let board = pos.board();
    let cell =
        |n: &str| -> Result<Cell, String> { board.cell(n).ok_or_else(|| no_triangle(pos, n)) };
    let (from, to) = match numbers.as_slice() {
        [to] => (None, cell(to)?),
        [from, to] => (Some(cell(from)?), cell(to)?),
        _ => return Err("write a move like N45-67, 58-71, Q12x80, 150-161=Q or O-O".into()),
    };
    let mover = pos.turn();
    if let Some(from) = from {
        let piece = pos
            .piece_at(from)
            .ok_or_else(|| format!("there is no piece on {}", board.label(from)))?;
        if piece.seat != mover {
            return Err(format!("the piece on {} is not yours", board.label(from)));
        }
        if let Some(r) = role.filter(|&r| r != piece.role) {
            return Err(format!(
                "the piece on {} is a {}, not a {}",
                board.label(from),
                piece.role.name(),
                r.name()
            ));
        }
    }
    let fits = |m: &&Move| {
        m.kind != MoveKind::Castle
            && m.to == to
            && from.is_none_or(|f| m.from == f)
            && role.is_none_or(|r| pos.piece_at(m.from).map(|p| p.role) == Some(r))
            && (from.is_some() || role.is_some() || !says_capture || pos.is_capture(**m))
            && (from.is_some()
                || role.is_some()
                || says_capture
                || pos.piece_at(m.from).map(|p| p.role) == Some(Role::Pawn))
    };
    let mut found: Vec<Move> = legal.iter().filter(fits).copied().collect();
    if found.iter().any(|m| m.promotion().is_some()) {
        let wanted = promotion.unwrap_or(Role::Queen);
        found.retain(|m| m.promotion() == Some(wanted));
    } else if promotion.is_some() && !found.is_empty() {
        return Err("that move is no promotion".into());
    }
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(why_not(pos, legal, from, to, role)),
        several => Err(format!(
            "that could be {}: say which piece moves",
            several
                .iter()
                .map(|m| write(pos, *m))
                .collect::<Vec<_>>()
                .join(" or ")
        )),
    }
}

/// The role a one-letter text names, if it is one letter.
fn single_letter(text: &str) -> Option<Option<Role>> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Some(Role::from_char(c)),
        _ => None,
    }
}

/// Why a number names no triangle: off the board, or cut out of this game.
pub fn no_triangle(pos: &Position, number: &str) -> String {
    let board = pos.board();
    // Numbers run over the whole hexagon (six triangles per unit of side squared), cut-out
    // triangles included.
    let highest = match board.spec() {
        crate::board::BoardSpec::TriHex { side, .. } => 6 * u32::from(*side).pow(2),
        _ => board.len() as u32,
    };
    match number.parse::<u32>() {
        Ok(n) if (1..=highest).contains(&n) => {
            format!("triangle {number} is cut out of this game's board")
        }
        _ => format!("there is no triangle {number}: they are numbered 1 to {highest}"),
    }
}

fn why_no_castle(pos: &Position) -> String {
    let rooks: Vec<Cell> = pos.castling_rooks(pos.turn()).collect();
    if rooks.is_empty() || pos.king(pos.turn()).is_none() {
        return "you can no longer castle: the king or both rooks have moved".into();
    }
    "castling needs the king and that rook unmoved, the triangles between them empty, and the \
     king not in check and not crossing or reaching an attacked triangle"
        .into()
}

/// Why no allowed move goes to `to` (from `from`, with `role`), as far as can be said simply.
fn why_not(
    pos: &Position,
    legal: &[Move],
    from: Option<Cell>,
    to: Cell,
    role: Option<Role>,
) -> String {
    let board = pos.board();
    let t = board.label(to);
    if pos.piece_at(to).is_some_and(|p| p.seat == pos.turn()) {
        return format!("{t} holds one of your own pieces");
    }
    let Some(from) = from else {
        return match role {
            Some(r) => format!("none of your {}s can go to {t} now", r.name()),
            None => format!("no pawn of yours can go to {t} now (name the piece, like N45-{t})"),
        };
    };
    let f = board.label(from);
    let piece = pos.piece_at(from).map_or(Role::Pawn, |p| p.role);
    if legal.iter().all(|m| m.from != from) {
        return format!("the {} on {f} has no move now", piece.name());
    }
    if pos
        .pseudo_legal_moves()
        .iter()
        .any(|m| m.from == from && m.to == to)
    {
        return format!(
            "{f}-{t} would leave your king in check, or break a rule of the game (a king you \
             must take first, a piece immune from you)"
        );
    }
    format!(
        "the {} on {f} cannot reach {t}: see /rules for how pieces move on the tri-board",
        piece.name()
    )
}
