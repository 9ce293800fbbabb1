//! Positions in Rookery's own stored form: any board, any number of armies, every en passant
//! chance. FEN describes two armies on a rectangle; a four-army game on a holed 12x12 board with
//! three-square pawn steps needs more, so positions are stored as this instead.
//!
//! ```
//! use engine::chess::Position;
//!
//! let mut pos = Position::startpos();
//! pos.play(pos.parse_move("e4").unwrap()).unwrap();
//! let json = serde_json::to_string(&pos).unwrap();
//! assert!(json.contains("Ke1"), "{json}");
//! let back: Position = serde_json::from_str(&json).unwrap();
//! assert_eq!(back, pos);
//! ```

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::setup::{KingRule, Setup};
use super::{Course, EnPassant, Piece, Position, Role, RulesSpec, Seat};
use crate::board::Cell;

/// The stored form: readable, and enough to rebuild the position exactly.
#[derive(Serialize, Deserialize)]
struct StoredPosition {
    rules: RulesSpec,
    /// One line per army: its pieces as role letter and square (`Kf1 Qg1 Pc2`); a Superchess
    /// pawn on its side course is `P>e11`, a point pawn yet to choose `P^e10`.
    armies: Vec<String>,
    /// The rooks that keep a castling right.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    castling: Vec<String>,
    /// Long pawn steps that may still be taken en passant.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    en_passant: Vec<StoredEnPassant>,
    turn: u8,
    halfmoves: u32,
    fullmoves: u32,
}

#[derive(Serialize, Deserialize)]
struct StoredEnPassant {
    pawn: String,
    skipped: [String; 2],
    army: u8,
    waiting: u8,
}

impl Serialize for Position {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let board = self.board();
        let label = |c: Cell| board.label(c).to_string();
        let mut armies = vec![String::new(); self.rules.seats()];
        for (cell, piece) in self.pieces() {
            let line = &mut armies[piece.seat.index()];
            if !line.is_empty() {
                line.push(' ');
            }
            line.push(piece.role.upper_char());
            match self.pawn_course(cell) {
                Some(Course::Side) => line.push('>'),
                Some(Course::Either) => line.push('^'),
                _ => {}
            }
            line.push_str(board.label(cell));
        }
        StoredPosition {
            rules: self.rules.spec().clone(),
            armies,
            castling: self
                .castling
                .iter()
                .flatten()
                .flatten()
                .map(|&c| label(c))
                .collect(),
            en_passant: self
                .ep
                .iter()
                .filter(|e| {
                    self.piece_at(e.pawn)
                        == Some(Piece {
                            seat: Seat(e.army),
                            role: Role::Pawn,
                        })
                })
                .map(|e| StoredEnPassant {
                    pawn: label(e.pawn),
                    skipped: e.skipped.map(label),
                    army: e.army,
                    waiting: e.waiting,
                })
                .collect(),
            turn: self.turn,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Position {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Position, D::Error> {
        use serde::de::Error;
        let stored = StoredPosition::deserialize(deserializer)?;
        let rules = stored.rules.build();
        let board = rules.board();
        let cell = |label: &str| {
            board
                .cell(label)
                .ok_or_else(|| D::Error::custom(format!("no square {label} on this board")))
        };
        let mut cells = vec![None; board.len()];
        let mut courses = Vec::new();
        for (army, line) in stored.armies.iter().enumerate() {
            for word in line.split_whitespace() {
                let mut chars = word.chars();
                let role = chars
                    .next()
                    .and_then(Role::from_char)
                    .ok_or_else(|| D::Error::custom(format!("'{word}' is not a piece")))?;
                let rest = chars.as_str();
                let (course, label) = match rest.chars().next() {
                    Some('>') => (Course::Side, &rest[1..]),
                    Some('^') => (Course::Either, &rest[1..]),
                    _ => (Course::Forward, rest),
                };
                if role == Role::Pawn {
                    courses.push((cell(label)?, course));
                }
                cells[cell(label)?.index()] = Some(Piece {
                    seat: Seat(army as u8),
                    role,
                });
            }
        }
        let setup = Setup {
            cells,
            turn: Seat(stored.turn),
            castling_rooks: stored
                .castling
                .iter()
                .map(|l| cell(l))
                .collect::<Result<_, _>>()?,
            ep_target: None,
            halfmoves: stored.halfmoves,
            fullmoves: stored.fullmoves,
        };
        let mut pos = Position::from_setup_with(setup, rules.clone(), KingRule::Stored)
            .map_err(|e| D::Error::custom(e.to_string()))?;
        for (cell, course) in courses {
            pos.set_pawn_course(cell, course);
        }
        for e in &stored.en_passant {
            let pawn = cell(&e.pawn)?;
            if pos.piece_at(pawn)
                != Some(Piece {
                    seat: Seat(e.army),
                    role: Role::Pawn,
                })
                || pos.ep.is_full()
            {
                return Err(D::Error::custom(format!(
                    "no pawn on {} to take en passant",
                    e.pawn
                )));
            }
            pos.ep.push(EnPassant {
                pawn,
                skipped: [cell(&e.skipped[0])?, cell(&e.skipped[1])?],
                army: e.army,
                waiting: e.waiting,
            });
        }
        Ok(pos)
    }
}
