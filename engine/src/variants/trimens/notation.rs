//! Caverly's notation: the player, the piece, the triangle it leaves and the one it reaches
//! (`1Q/21-129xR ch`), castling as `2 O-O` or `0-0-0`, promotion as `/Q`.
//!
//! Moves are read leniently: the player and piece may be left out (`198-15`), `x` may join the
//! triangles, and the check marks (`ch`, `chmt`, `+`, `#`) are ignored; what is written must
//! agree with the position (the right player, the piece that stands there, the piece taken).
//! Errors are the reason alone; the game says which text was refused.

use crate::chess::{Move, MoveKind, Position, Role, Seat};

/// The letter of a role in the book's records: pawns in lower case, as in its sample game.
fn letter(role: Role) -> char {
    match role {
        Role::Pawn => 'p',
        other => other.upper_char(),
    }
}

/// A move as the book records it, without the check marks (added by the game).
pub fn write(pos: &Position, m: Move) -> String {
    let mover = pos.turn();
    let player = mover.0 + 1;
    if m.kind == MoveKind::Castle {
        let short = pos.castle_side_of(m) == crate::chess::CastleSide::High;
        return format!("{player} {}", if short { "O-O" } else { "O-O-O" });
    }
    let board = pos.board();
    let role = pos.piece_at(m.from).map_or(Role::Pawn, |p| p.role);
    let mut text = format!(
        "{player}{}/{}-{}",
        letter(role),
        board.label(m.from),
        board.label(m.to)
    );
    if let Some(victim) = pos.piece_at(m.to) {
        text.push('x');
        text.push(victim.role.upper_char());
    }
    if let MoveKind::Promotion(role) = m.kind {
        text.push('/');
        text.push(role.upper_char());
    }
    text
}

/// Reads a move for the seat to move, among `legal`.
pub fn read(pos: &Position, legal: &[Move], text: &str) -> Result<Move, String> {
    let mover = pos.turn();
    let mut t = text.trim().to_string();
    // Check marks are the game's to say, not the player's.
    for mark in ["chmt", "ch", "+", "#", "²"] {
        if t.to_ascii_lowercase().ends_with(mark) {
            t.truncate(t.len() - mark.len());
            t = t.trim_end().to_string();
        }
    }
    let mut rest = t.as_str();
    // The player: a leading digit 1-3 (then a space, a piece letter or a castle).
    let player = player_named(rest).map(|p| {
        rest = rest[1..].trim_start();
        p.0 + 1
    });
    if let Some(p) = player {
        if p != mover.0 + 1 {
            return Err(format!(
                "that move is written for player {p}, but player {} is to move",
                mover.0 + 1
            ));
        }
    }
    let castle = rest.replace('0', "O").to_ascii_uppercase();
    if castle == "O-O" || castle == "O-O-O" {
        let short = castle == "O-O";
        let side = pos.castle_side_named(short);
        return legal
            .iter()
            .copied()
            .find(|m| m.kind == MoveKind::Castle && pos.castle_side_of(*m) == side)
            .ok_or_else(|| {
                "castling needs king and rook unmoved, the triangles between them empty, and \
                 the king neither in check nor crossing or reaching an attacked triangle"
                    .to_string()
            });
    }
    // The piece letter, then '/'.
    let mut role = None;
    if let Some((piece, after)) = rest
        .split_once('/')
        .filter(|(piece, _)| piece.trim().chars().all(|c| c.is_ascii_alphabetic()))
    {
        let mut chars = piece.trim().chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => {
                role = Some(
                    Role::from_char(c.to_ascii_uppercase())
                        .ok_or_else(|| format!("'{c}' is not a piece: use K, Q, R, B, N or p"))?,
                );
            }
            _ => return Err("write a move like 1Q/21-129 or 198-15".into()),
        }
        rest = after;
    }
    // from-to, then perhaps a capture (xR) and a promotion (/Q).
    let (squares, promotion) = match rest.split_once('/') {
        Some((squares, promo)) => {
            let c = promo.trim().chars().next().unwrap_or('?');
            let r = Role::from_char(c.to_ascii_uppercase())
                .filter(|r| !matches!(r, Role::King | Role::Pawn))
                .ok_or_else(|| format!("a pawn is promoted to Q, R, B or N, not '{promo}'"))?;
            (squares, Some(r))
        }
        None => (rest, None),
    };
    let (from, to, taken) = triangles(squares)?;
    let board = pos.board();
    let cell = |n: &str| {
        board.cell(n).ok_or_else(|| {
            format!(
                "there is no triangle {n}: they are numbered 1 to {}",
                board.len()
            )
        })
    };
    let (from, to) = (cell(from)?, cell(to)?);
    let piece = pos
        .piece_at(from)
        .ok_or_else(|| format!("there is no piece on {}", board.label(from)))?;
    if piece.seat != mover {
        return Err(format!("the piece on {} is not yours", board.label(from)));
    }
    if let Some(r) = role {
        if r != piece.role {
            return Err(format!(
                "the piece on {} is a {}, not a {}",
                board.label(from),
                piece.role.name(),
                r.name()
            ));
        }
    }
    if let Some(c) = taken {
        let wanted = Role::from_char(c.to_ascii_uppercase());
        let there = pos.piece_at(to).map(|p| p.role);
        if wanted.is_none() || there != wanted {
            return Err(format!(
                "there is no {} to take on {}",
                wanted.map_or("such piece", |r| r.name()),
                board.label(to)
            ));
        }
    }
    let candidates: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| m.from == from && m.to == to && m.kind != MoveKind::Castle)
        .collect();
    match (candidates.as_slice(), promotion) {
        ([], _) => Err(why_not(pos, piece.role, from, to)),
        (moves, Some(r)) => moves
            .iter()
            .copied()
            .find(|m| m.kind == MoveKind::Promotion(r))
            .ok_or_else(|| "that pawn does not promote there".to_string()),
        ([one], None) => Ok(*one),
        (moves, None) => moves
            .iter()
            .copied()
            .find(|m| m.kind == MoveKind::Promotion(Role::Queen))
            .ok_or_else(|| "that could be several moves: add the promotion, like /Q".to_string()),
    }
}

/// The triangles of a move written `from-to` or `fromxto`, and the letter of the piece it
/// takes if written (`191-27xP`). Anything else is refused, naming it, so that nothing the
/// player wrote is dropped and a different move read ("15-26 please", "15-2б").
fn triangles(text: &str) -> Result<(&str, &str, Option<char>), String> {
    const FORM: &str = "write a move like 1Q/21-129, 1p/15-26 or 198-15, or O-O";
    let number = |t: &str| t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let t = text.trim();
    let (from, rest) = t.split_at(number(t));
    let Some(rest) = rest.trim_start().strip_prefix(['-', 'x', 'X']) else {
        return Err(FORM.into());
    };
    let rest = rest.trim_start();
    let (to, rest) = rest.split_at(number(rest));
    if from.is_empty() || to.is_empty() {
        return Err(FORM.into());
    }
    let rest = rest.trim();
    if rest.is_empty() {
        return Ok((from, to, None));
    }
    // What follows can only be the piece taken: x and its letter.
    let mut piece = rest.strip_prefix(['x', 'X']).unwrap_or("?").trim().chars();
    match (piece.next(), piece.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Ok((from, to, Some(c))),
        _ => Err(format!("'{rest}' is not part of a move: {FORM}")),
    }
}

/// Why a piece cannot go from one triangle to another, as far as can be said simply.
fn why_not(pos: &Position, role: Role, from: crate::board::Cell, to: crate::board::Cell) -> String {
    let board = pos.board();
    let same_colour = board.shade(from) == board.shade(to);
    let (f, t) = (board.label(from), board.label(to));
    if pos.piece_at(to).is_some_and(|p| p.seat == pos.turn()) {
        return format!("{t} holds one of your own pieces");
    }
    match role {
        Role::Bishop if !same_colour => {
            format!("a bishop stays on its own colour, and {f} and {t} are of different colours")
        }
        Role::Bishop | Role::Queen | Role::King if same_colour => format!(
            "{f}-{t} is not a diagonal of your frame, or something stands in the way (a diagonal \
             never passes through the points of the triangles)"
        ),
        _ => format!(
            "the {} on {f} cannot reach {t} (moves are read from your own side of the board), or \
             it would leave your king in check",
            role.name()
        ),
    }
}

/// The seat a text names, if it starts with a player number: a digit 1-3 followed by a piece
/// letter, a space or a castle, never by '-' or a digit ("2-13" is a move from triangle 2).
pub fn player_named(text: &str) -> Option<Seat> {
    let mut chars = text.trim().chars();
    match (chars.next(), chars.next()) {
        (Some(c @ '1'..='3'), Some(n)) if n.is_ascii_alphabetic() || n.is_whitespace() => {
            Some(Seat(c as u8 - b'1'))
        }
        _ => None,
    }
}
