//! FEN, X-FEN and Shredder-FEN for two-army rectangular boards of any size.

use std::fmt;
use std::sync::Arc;

use crate::board::Cell;

use super::{CastleSide, Piece, Position, PositionError, Role, Rules, Seat, Setup, MAX_SEATS};

/// How castling rights are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FenFlavor {
    /// `KQkq` for the outermost rooks, the rook's file letter otherwise (X-FEN; plain FEN for
    /// the standard start).
    #[default]
    XFen,
    /// Always the rook's file letter: `HAha` (Shredder-FEN).
    Shredder,
}

/// A FEN that could not be read, with the text and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// The text that failed.
    pub fen: String,
    /// What is wrong.
    pub kind: FenErrorKind,
}

/// What is wrong with a FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenErrorKind {
    /// FEN describes only full rectangles with two armies.
    UnsupportedBoard,
    /// The piece placement field is malformed.
    Placement(String),
    /// The side to move is not `w` or `b`.
    Turn(String),
    /// The castling field is malformed or names an impossible right.
    Castling(String),
    /// The en passant field is malformed.
    EnPassant(String),
    /// A move counter is not a number.
    Counter(String),
    /// Too many fields.
    TrailingFields(String),
    /// The text reads as a setup, but not a legal position.
    Position(Box<PositionError>),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FEN \"{}\": ", self.fen)?;
        match &self.kind {
            FenErrorKind::UnsupportedBoard => {
                write!(
                    f,
                    "FEN describes only full rectangular boards with two armies"
                )
            }
            FenErrorKind::Placement(s) => write!(f, "{s}"),
            FenErrorKind::Turn(s) => write!(f, "the side to move must be 'w' or 'b', not '{s}'"),
            FenErrorKind::Castling(s) => write!(f, "castling field: {s}"),
            FenErrorKind::EnPassant(s) => write!(f, "en passant field: {s}"),
            FenErrorKind::Counter(s) => write!(f, "move counters must be whole numbers, not '{s}'"),
            FenErrorKind::TrailingFields(s) => write!(f, "unexpected extra text '{s}'"),
            FenErrorKind::Position(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// Reads a FEN, X-FEN or Shredder-FEN. The move counters may be left out.
    ///
    /// ```
    /// use engine::chess::{Position, Rules};
    ///
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", Rules::chess()).unwrap();
    /// assert_eq!(pos.legal_moves().len(), 26);
    ///
    /// let err = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KX - 0 1", Rules::chess()).unwrap_err();
    /// assert!(err.to_string().contains("castling"), "{err}");
    /// ```
    pub fn from_fen(fen: &str, rules: Arc<Rules>) -> Result<Position, FenError> {
        let setup = parse_setup(fen, &rules)?;
        Position::from_setup(setup, rules).map_err(|e| FenError {
            fen: fen.trim().to_string(),
            kind: FenErrorKind::Position(Box::new(e)),
        })
    }

    /// The position as X-FEN (plain FEN whenever the rooks stand in the corners).
    pub fn fen(&self) -> String {
        self.fen_with(FenFlavor::XFen)
    }

    /// The position as FEN with the chosen way of writing castling rights.
    ///
    /// # Panics
    /// If the board is not a full rectangle with two armies; see [`Position::try_fen`].
    pub fn fen_with(&self, flavor: FenFlavor) -> String {
        self.try_fen(flavor)
            .expect("FEN needs a full rectangular board with two armies")
    }

    /// The position as FEN, or `None` for boards FEN cannot describe.
    pub fn try_fen(&self, flavor: FenFlavor) -> Option<String> {
        let board = self.board();
        let (files, ranks) = board.grid_size()?;
        if board.len() != files as usize * ranks as usize || self.rules.seats() != 2 {
            return None;
        }
        let mut out = String::new();
        for rank in (0..ranks as i32).rev() {
            let mut empty = 0;
            for file in 0..files as i32 {
                match self.piece_at(board.at(file, rank)?) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push_str(if self.turn == 0 { " w " } else { " b " });
        let castling = self.castling_field(flavor);
        out.push_str(if castling.is_empty() { "-" } else { &castling });
        out.push(' ');
        match self.legal_ep() {
            Some(c) => out.push_str(board.label(c)),
            None => out.push('-'),
        }
        out.push_str(&format!(" {} {}", self.halfmoves, self.fullmoves));
        Some(out)
    }

    fn castling_field(&self, flavor: FenFlavor) -> String {
        let board = self.board();
        let mut out = String::new();
        for seat in 0..self.rules.seats().min(MAX_SEATS) {
            for side in [CastleSide::High, CastleSide::Low] {
                let Some(rook) = self.castling[seat][side as usize] else {
                    continue;
                };
                let outermost = self.outermost_rook(seat, side) == Some(rook);
                let c = if flavor == FenFlavor::XFen && outermost {
                    if side == CastleSide::High {
                        'K'
                    } else {
                        'Q'
                    }
                } else {
                    (b'A' + board.coord(rook).0 as u8) as char
                };
                out.push(if seat == 0 { c } else { c.to_ascii_lowercase() });
            }
        }
        out
    }

    /// The rook of `seat` farthest out on `side` of its king, on the king's row.
    fn outermost_rook(&self, seat: usize, side: CastleSide) -> Option<Cell> {
        let board = self.board();
        let king = self.king(Seat(seat as u8))?;
        let (kf, rank) = board.coord(king);
        let (files, _) = board.grid_size()?;
        let rook = Piece {
            seat: Seat(seat as u8),
            role: Role::Rook,
        };
        let mut found = None;
        let range: Box<dyn Iterator<Item = i32>> = match side {
            CastleSide::High => Box::new((kf as i32 + 1)..files as i32),
            CastleSide::Low => Box::new((0..kf as i32).rev()),
        };
        for f in range {
            let c = board.at(f, rank as i32)?;
            if self.piece_at(c) == Some(rook) {
                found = Some(c);
            }
        }
        found
    }
}

/// Reads the fields of a FEN into an unchecked [`Setup`].
pub fn parse_setup(fen: &str, rules: &Rules) -> Result<Setup, FenError> {
    let err = |kind| FenError {
        fen: fen.trim().to_string(),
        kind,
    };
    let board = rules.board();
    let Some((files, ranks)) = board.grid_size() else {
        return Err(err(FenErrorKind::UnsupportedBoard));
    };
    if board.len() != files as usize * ranks as usize || rules.seats() != 2 {
        return Err(err(FenErrorKind::UnsupportedBoard));
    }
    let mut fields = fen.split_whitespace();
    let placement = fields
        .next()
        .ok_or_else(|| err(FenErrorKind::Placement("the FEN is empty".into())))?;
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != ranks as usize {
        return Err(err(FenErrorKind::Placement(format!(
            "found {} ranks, the board has {ranks}",
            rows.len()
        ))));
    }
    let mut cells = vec![None; board.len()];
    for (i, row) in rows.iter().enumerate() {
        let rank = ranks as i32 - 1 - i as i32;
        let mut file: i32 = 0;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                let mut n = d as i32;
                while let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                    n = n * 10 + d2 as i32;
                    chars.next();
                }
                if n == 0 {
                    return Err(err(FenErrorKind::Placement(format!(
                        "rank {} has an empty run of 0 squares",
                        rank + 1
                    ))));
                }
                file += n;
            } else if let Some(role) = Role::from_char(c) {
                if file < files as i32 {
                    let seat = if c.is_ascii_uppercase() {
                        Seat::WHITE
                    } else {
                        Seat::BLACK
                    };
                    cells[board.at(file, rank).unwrap().index()] = Some(Piece { seat, role });
                }
                file += 1;
            } else {
                return Err(err(FenErrorKind::Placement(format!(
                    "'{c}' in rank {} is not a piece letter (PNBRQK, lower case for Black) or a count of empty squares",
                    rank + 1
                ))));
            }
        }
        if file != files as i32 {
            return Err(err(FenErrorKind::Placement(format!(
                "rank {} has {file} squares, the board has {files} files",
                rank + 1
            ))));
        }
    }
    let turn = match fields.next() {
        None | Some("w") | Some("W") => Seat::WHITE,
        Some("b") | Some("B") => Seat::BLACK,
        Some(other) => return Err(err(FenErrorKind::Turn(other.into()))),
    };
    let castling = fields.next().unwrap_or("-");
    let castling_rooks =
        parse_castling(castling, &cells, rules).map_err(|m| err(FenErrorKind::Castling(m)))?;
    let ep_target = match fields.next() {
        None | Some("-") => None,
        Some(label) => Some(board.cell(label).ok_or_else(|| {
            err(FenErrorKind::EnPassant(format!(
                "'{label}' is not a square of this board"
            )))
        })?),
    };
    let mut counter = |default: u32| -> Result<u32, FenError> {
        match fields.next() {
            None => Ok(default),
            Some(s) => s
                .parse::<u32>()
                .map_err(|_| err(FenErrorKind::Counter(s.into()))),
        }
    };
    let halfmoves = counter(0)?;
    let fullmoves = counter(1)?;
    let rest: Vec<&str> = fields.collect();
    if !rest.is_empty() {
        return Err(err(FenErrorKind::TrailingFields(rest.join(" "))));
    }
    Ok(Setup {
        cells,
        turn,
        castling_rooks,
        ep_target,
        halfmoves,
        fullmoves,
    })
}

fn parse_castling(
    field: &str,
    cells: &[Option<Piece>],
    rules: &Rules,
) -> Result<Vec<Cell>, String> {
    if field == "-" {
        return Ok(Vec::new());
    }
    let board = rules.board();
    let (files, _) = board.grid_size().unwrap_or((8, 8));
    let mut rooks = Vec::new();
    for c in field.chars() {
        let seat = if c.is_ascii_uppercase() {
            Seat::WHITE
        } else {
            Seat::BLACK
        };
        let colour = seat.colour_name();
        let king = cells
            .iter()
            .position(|p| {
                *p == Some(Piece {
                    seat,
                    role: Role::King,
                })
            })
            .map(|i| Cell(i as u16))
            .filter(|k| rules.home_row(seat.index()).contains(*k))
            .ok_or_else(|| format!("'{c}' gives {colour} a castling right, but {colour}'s king is not on its back rank"))?;
        let (kf, rank) = board.coord(king);
        let rook_at = |f: i32| {
            board.at(f, rank as i32).filter(|cell| {
                cells[cell.index()]
                    == Some(Piece {
                        seat,
                        role: Role::Rook,
                    })
            })
        };
        let rook = match c.to_ascii_uppercase() {
            'K' => ((kf as i32 + 1)..files as i32)
                .rev()
                .find_map(rook_at)
                .ok_or_else(|| {
                    format!("'{c}': {colour} has no rook beside its king toward the h-side")
                })?,
            'Q' => (0..kf as i32).find_map(rook_at).ok_or_else(|| {
                format!("'{c}': {colour} has no rook beside its king toward the a-side")
            })?,
            f @ 'A'..='Z' if ((f as u8 - b'A') as u32) < files as u32 => {
                rook_at((f as u8 - b'A') as i32).ok_or_else(|| {
                    format!(
                        "'{c}': {colour} has no rook on the {}-file of its back rank",
                        f.to_ascii_lowercase()
                    )
                })?
            }
            _ => {
                return Err(format!(
                    "'{c}' is not K, Q, k, q or a file letter; write '-' for no castling rights"
                ))
            }
        };
        if !rooks.contains(&rook) {
            rooks.push(rook);
        }
    }
    Ok(rooks)
}
