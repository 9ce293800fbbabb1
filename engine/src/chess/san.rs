//! Move notation: SAN (`Nf3`, `exd5`, `e8=Q+`, `O-O`) and coordinates (`g1f3`, `e7e8q`), written
//! and read. Reading is lenient (`ng1f3`, `g1-f3`, `0-0`, `e8q` all work) and, when a move is
//! not legal, says why. Lenient never means playing a move the text does not say: a written
//! capture (`x`) must capture, a bare destination (`d5`, `Nd5`) never captures, and a capital
//! piece letter names that piece; such texts are refused with the moves they come near.

use std::fmt;

use crate::board::{parse_square_label, Cell};

use super::{CastleSide, Move, MoveKind, Piece, Position, Role};

/// How castling is written in coordinate notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum NotationStyle {
    /// The king's own two-square move (`e1g1`), as in standard chess.
    #[default]
    Standard,
    /// The king takes its own rook (`e1h1`), as Chess960 needs.
    Chess960,
}

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// The text is not move notation at all.
    Unreadable { text: String },
    /// The text names a square this board does not have.
    NoSuchSquare { text: String, square: String },
    /// The text matches more than one legal move.
    Ambiguous {
        text: String,
        candidates: Vec<String>,
    },
    /// The text is a well-formed move that is not legal here.
    Illegal { text: String, reason: String },
    /// The game allows no move now.
    NoMoves { text: String },
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Unreadable { text } => write!(
                f,
                "'{text}' is not a move: write it like Nf3, exd5, e8=Q or O-O, or as coordinates like g1f3"
            ),
            MoveParseError::NoSuchSquare { text, square } => {
                write!(f, "'{text}' names the square {square}, which is not on this board")
            }
            MoveParseError::Ambiguous { text, candidates } => write!(
                f,
                "'{text}' could be any of {}: say which",
                candidates.join(", ")
            ),
            MoveParseError::Illegal { text, reason } => write!(f, "{text} is not legal: {reason}"),
            MoveParseError::NoMoves { text } => {
                write!(f, "{text} is not legal: there is no legal move in this position")
            }
        }
    }
}

impl std::error::Error for MoveParseError {}

/// A parsed but not yet matched move text.
#[derive(Clone, Debug, Default)]
struct Pattern {
    role: Option<Role>,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: (u8, u8),
    promotion: Option<Role>,
    /// A reading the text does not really say (a capital piece letter read as a file): never
    /// played, only offered when the text is refused.
    hint_only: bool,
}

impl Position {
    /// The move in Standard Algebraic Notation, with `+` or `#` if it checks or mates.
    ///
    /// ```
    /// use engine::chess::Position;
    /// let pos = Position::startpos();
    /// let m = pos.parse_move("g1f3").unwrap();
    /// assert_eq!(pos.san(m), "Nf3");
    /// ```
    pub fn san(&self, m: Move) -> String {
        let mut s = self.san_plain(m);
        let mut after = self.clone();
        after.play_unchecked(m);
        if after.is_check() {
            s.push(if after.legal_moves().is_empty() {
                '#'
            } else {
                '+'
            });
        }
        s
    }

    /// SAN without a check or mate suffix.
    pub fn san_plain(&self, m: Move) -> String {
        self.san_plain_among(m, &self.legal_moves())
    }

    /// SAN without a suffix, disambiguated against `allowed` rather than the chess rules'
    /// legal moves (variants whose moves differ: Crowded House).
    pub fn san_plain_among(&self, m: Move, allowed: &[Move]) -> String {
        let board = self.board();
        let piece = self.piece_at(m.from).expect("a move starts on a piece");
        if m.kind == MoveKind::Castle {
            let side = self.castle_side_of(m);
            return if side == self.castle_side_named(true) {
                "O-O"
            } else {
                "O-O-O"
            }
            .to_string();
        }
        let capture = self.is_capture(m);
        let mut s = String::new();
        let (from_file, from_rank) = board.coord(m.from);
        if piece.role == Role::Pawn {
            if capture {
                // Two pawns of a sideways army can capture onto one square from one file:
                // then the whole starting square is written.
                let rival_on_file = allowed.iter().any(|o| {
                    o.to == m.to
                        && o.from != m.from
                        && board.coord(o.from).0 == from_file
                        && self.piece_at(o.from).map(|p| p.role) == Some(Role::Pawn)
                });
                if rival_on_file {
                    s.push_str(board.label(m.from));
                } else {
                    s.push(file_char(from_file as u8));
                }
            } else {
                // Pawns going different ways (Superchess) can step onto one square: then the
                // starting square is written too.
                let rival = allowed.iter().any(|o| {
                    o.to == m.to
                        && o.from != m.from
                        && self.piece_at(o.from).map(|p| p.role) == Some(Role::Pawn)
                        && !self.is_capture(*o)
                });
                if rival {
                    s.push_str(board.label(m.from));
                    s.push('-');
                }
            }
        } else {
            s.push(piece.role.upper_char());
            let rivals: Vec<Move> = allowed
                .iter()
                .copied()
                .filter(|o| {
                    o.to == m.to
                        && o.from != m.from
                        && o.kind != MoveKind::Castle
                        && self.piece_at(o.from).map(|p| p.role) == Some(piece.role)
                })
                .collect();
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|o| board.coord(o.from).0 == from_file);
                let same_rank = rivals.iter().any(|o| board.coord(o.from).1 == from_rank);
                if !same_file {
                    s.push(file_char(from_file as u8));
                } else if !same_rank {
                    s.push_str(&(from_rank + 1).to_string());
                } else {
                    s.push_str(board.label(m.from));
                }
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(board.label(m.to));
        if let Some(r) = m.promotion() {
            s.push('=');
            s.push(r.upper_char());
        }
        s
    }

    /// The move in coordinate notation (`e2e4`, `e7e8q`; castling as chosen by `style`).
    pub fn coordinate(&self, m: Move, style: NotationStyle) -> String {
        let board = self.board();
        let to = if m.kind == MoveKind::Castle && style == NotationStyle::Standard {
            self.castle_targets(m.from, self.castle_side_of(m))
                .map_or(m.to, |(k, _)| k)
        } else {
            m.to
        };
        let mut s = format!("{}{}", board.label(m.from), board.label(to));
        if let Some(r) = m.promotion() {
            s.push(r.upper_char().to_ascii_lowercase());
        }
        s
    }

    /// Reads a move in SAN or coordinates, leniently, and checks it is legal.
    ///
    /// ```
    /// use engine::chess::Position;
    /// let pos = Position::startpos();
    /// for text in ["Nf3", "nf3", "Ng1f3", "ng1f3", "g1-f3", "g1f3", "N g1 f3"] {
    ///     assert_eq!(pos.san(pos.parse_move(text).unwrap()), "Nf3", "{text}");
    /// }
    /// let err = pos.parse_move("Bc4").unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "Bc4 is not legal: your bishop on f1 is blocked by your pawn on e2"
    /// );
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        self.parse_move_among(text, &self.legal_moves())
    }

    /// Reads a move like [`Position::parse_move`], but from a list of moves the caller allows
    /// (variants whose moves differ from chess's legal moves: Masquerade's capture attempts,
    /// Synchronous chess's moves for the side not on turn).
    pub fn parse_move_among(&self, text: &str, allowed: &[Move]) -> Result<Move, MoveParseError> {
        self.read_move_among(text, allowed, true)
    }

    /// Reads a move as [`parse_move_among`](Self::parse_move_among) does, but lets a text
    /// without `x` match a capture: only for explaining a refusal, where a square that looks
    /// empty to the player holds a piece the rules keep apart (Half Alice's mirror), never for
    /// playing a move.
    pub fn parse_move_ignoring_capture_mark(
        &self,
        text: &str,
        allowed: &[Move],
    ) -> Result<Move, MoveParseError> {
        self.read_move_among(text, allowed, false)
    }

    fn read_move_among(
        &self,
        text: &str,
        allowed: &[Move],
        capture_mark_counts: bool,
    ) -> Result<Move, MoveParseError> {
        let shown = text.trim().to_string();
        let cleaned: String = text
            .trim()
            .trim_end_matches(['+', '#', '!', '?'])
            .trim_end_matches("e.p.")
            .trim_end_matches("ep")
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if cleaned.is_empty() {
            return Err(MoveParseError::Unreadable { text: shown });
        }
        let legal = allowed;
        if let Some(short) = castle_text(&cleaned) {
            let side = self.castle_side_named(short);
            let found = legal
                .iter()
                .find(|m| m.kind == MoveKind::Castle && self.castle_side_of(**m) == side);
            return match found {
                Some(m) => Ok(*m),
                None => Err(MoveParseError::Illegal {
                    text: shown,
                    reason: self.why_no_castle(side),
                }),
            };
        }
        // Square numbers (`3x17`, `11-15`) are checkers notation, not a chess move; without
        // this, `3x17` would read as a move to a square "x17".
        if cleaned.starts_with(|c: char| c.is_ascii_digit())
            && cleaned
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, 'x' | 'X' | '-' | ':'))
        {
            return Err(MoveParseError::Unreadable { text: shown });
        }
        let patterns = read_patterns(&cleaned).ok_or_else(|| MoveParseError::Unreadable {
            text: shown.clone(),
        })?;
        let board = self.board();
        for p in &patterns {
            if board.at(p.to.0 as i32, p.to.1 as i32).is_none() {
                return Err(MoveParseError::NoSuchSquare {
                    text: shown,
                    square: format!("{}{}", file_char(p.to.0), p.to.1 as u32 + 1),
                });
            }
        }
        let says_capture = cleaned.contains(['x', 'X', ':']);
        // Interpretations are tried in order (a lower-case 'b' is a file before it is a
        // bishop); the first that matches any legal move wins.
        for p in patterns.iter().filter(|p| !p.hint_only) {
            let mut found: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| {
                    self.matches(p, *m)
                        && (!capture_mark_counts || self.capture_fits(p, says_capture, *m))
                })
                .collect();
            if found.len() > 1 && p.promotion.is_none() {
                // `e8` alone means a queen.
                let queens: Vec<Move> = found
                    .iter()
                    .copied()
                    .filter(|m| m.promotion().is_none_or(|r| r == Role::Queen))
                    .collect();
                if !queens.is_empty() {
                    found = queens;
                }
            }
            if found.len() > 1 {
                // A pawn of a sideways army moves onto a square from another file, so "bc3"
                // may also read as a capture onto c3: the text's own 'x' (or its absence)
                // decides.
                let fitting: Vec<Move> = found
                    .iter()
                    .copied()
                    .filter(|m| {
                        let capture = self.is_capture(*m);
                        capture == says_capture || m.kind == MoveKind::Castle
                    })
                    .collect();
                if !fitting.is_empty() {
                    found = fitting;
                }
            }
            match found.len() {
                0 => continue,
                1 => return Ok(found[0]),
                _ => {
                    return Err(MoveParseError::Ambiguous {
                        text: shown,
                        candidates: found.iter().map(|m| self.san(*m)).collect(),
                    })
                }
            }
        }
        if legal.is_empty() {
            return Err(MoveParseError::NoMoves { text: shown });
        }
        let reason = self
            .why_not_as_written(&patterns, says_capture, legal)
            .unwrap_or_else(|| self.why_illegal(&patterns[0]));
        Err(MoveParseError::Illegal {
            reason,
            text: shown,
        })
    }

    /// Whether a move fits the text's capture mark: with `x` it must capture; without one it
    /// must not, unless the text names where the move starts (`ed5`, `e4d5`, `N3d5`): a bare
    /// destination never takes anything. Castling is read by its own names.
    fn capture_fits(&self, p: &Pattern, says_capture: bool, m: Move) -> bool {
        if m.kind == MoveKind::Castle {
            return true;
        }
        let capture = self.is_capture(m);
        if says_capture {
            capture
        } else {
            !capture || p.from_file.is_some() || p.from_rank.is_some()
        }
    }

    /// Why a text that fits legal moves only when read otherwise than it is written is refused:
    /// it writes a capture the moves do not make, or leaves out one they do, or its capital
    /// piece letter names another piece. The moves it comes near are named. `None` when no
    /// legal move comes near it.
    fn why_not_as_written(
        &self,
        patterns: &[Pattern],
        says_capture: bool,
        legal: &[Move],
    ) -> Option<String> {
        let mut near: Vec<Move> = Vec::new();
        for p in patterns {
            for &m in legal {
                if self.matches(p, m) && !near.contains(&m) {
                    near.push(m);
                }
            }
        }
        let first = *near.first()?;
        let names: Vec<String> = near
            .iter()
            .map(|m| self.san_plain_among(*m, legal))
            .collect();
        let names = names.join(" or ");
        let to = self.board().label(first.to);
        let captures = near.iter().any(|m| self.is_capture(*m));
        Some(
            if patterns
                .iter()
                .any(|p| p.hint_only && self.matches(p, first))
            {
                format!(
                    "{}; a capital letter names a piece, and the pawn's move is written {names}",
                    self.why_illegal(&patterns[0])
                )
            } else if says_capture && !captures {
                format!("there is nothing to capture on {to}; did you mean {names}?")
            } else if !says_capture && captures {
                format!(
                    "a move written without x captures nothing, and your only moves onto {to} \
                 capture: {names} (write it so if you mean it)"
                )
            } else {
                format!("{}; did you mean {names}?", self.why_illegal(&patterns[0]))
            },
        )
    }

    fn matches(&self, p: &Pattern, m: Move) -> bool {
        let board = self.board();
        let Some(piece) = self.piece_at(m.from) else {
            return false;
        };
        let explicit_from = p.from_file.is_some() && p.from_rank.is_some();
        let role = p.role.or(if explicit_from {
            None
        } else {
            Some(Role::Pawn)
        });
        if role.is_some_and(|r| r != piece.role) {
            return false;
        }
        let (ff, fr) = board.coord(m.from);
        if p.from_file.is_some_and(|f| f as i16 != ff)
            || p.from_rank.is_some_and(|r| r as i16 != fr)
        {
            return false;
        }
        let to = board.at(p.to.0 as i32, p.to.1 as i32);
        let lands = if m.kind == MoveKind::Castle {
            // Castling written as a king move: onto its destination, or onto its own rook.
            let king_to = self
                .castle_targets(m.from, self.castle_side_of(m))
                .map(|(k, _)| k);
            to == Some(m.to) || (to == king_to && !self.king_step_exists(m.from, king_to))
        } else {
            to == Some(m.to)
        };
        lands
            && (p.promotion == m.promotion() || (p.promotion.is_none() && m.promotion().is_some()))
    }

    /// Whether the king has an ordinary legal move to `to` (then `to` cannot mean castling).
    fn king_step_exists(&self, king: Cell, to: Option<Cell>) -> bool {
        self.legal_moves()
            .iter()
            .any(|m| m.from == king && Some(m.to) == to && m.kind != MoveKind::Castle)
    }

    fn why_no_castle(&self, side: CastleSide) -> String {
        let us = self.turn();
        let name = if side == self.castle_side_named(true) {
            "king side (O-O)"
        } else {
            "queen side (O-O-O)"
        };
        let Some(rook) = self.castling[us.index()][side as usize] else {
            return format!("you have no right to castle {name}: the king or that rook has moved");
        };
        if self.is_check() {
            return "you cannot castle out of check".into();
        }
        let king = self.king(us).expect("castling rights imply a king");
        if !self.castle_is_possible(king, rook, side, us.index(), false) {
            return format!("castling {name} needs the squares between king and rook empty");
        }
        format!("castling {name} would take your king through or onto an attacked square")
    }

    /// Explains why no legal move matches the pattern.
    fn why_illegal(&self, p: &Pattern) -> String {
        let board = self.board();
        let us = self.turn();
        let to = board
            .at(p.to.0 as i32, p.to.1 as i32)
            .expect("checked by the caller");
        let to_label = board.label(to);
        let explicit_from = match (p.from_file, p.from_rank) {
            (Some(f), Some(r)) => board.at(f as i32, r as i32),
            _ => None,
        };
        if let Some(from) = explicit_from {
            match self.piece_at(from) {
                None => return format!("there is no piece on {}", board.label(from)),
                Some(piece) if piece.seat != us => {
                    return format!(
                        "the {} on {} is not yours",
                        piece.role.name(),
                        board.label(from)
                    )
                }
                Some(piece) if p.role.is_some_and(|r| r != piece.role) => {
                    return format!(
                        "the piece on {} is a {}, not a {}",
                        board.label(from),
                        piece.role.name(),
                        p.role.unwrap().name()
                    )
                }
                _ => {}
            }
        }
        let role = p.role.or(if explicit_from.is_some() {
            None
        } else {
            Some(Role::Pawn)
        });
        let candidates: Vec<Cell> = self
            .cells_of(us)
            .iter()
            .filter(|&c| explicit_from.is_none_or(|f| f == c))
            .filter(|&c| role.is_none_or(|r| self.piece_at(c).map(|p| p.role) == Some(r)))
            .filter(|&c| p.from_file.is_none_or(|f| board.coord(c).0 == f as i16))
            .filter(|&c| p.from_rank.is_none_or(|r| board.coord(c).1 == r as i16))
            .collect();
        let role_name = role.map_or("piece", |r| r.name());
        if candidates.is_empty() {
            return format!("you have no {role_name} that could make this move");
        }
        if let Some(own) = self.piece_at(to).filter(|q| q.seat == us) {
            return format!("{to_label} is occupied by your own {}", own.role.name());
        }
        let pseudo = self.pseudo_legal_moves();
        // A promotion asked of a piece, or of a pawn whose move there does not promote, is
        // refused for that, before check is looked at: the move without it may be legal.
        if p.promotion.is_some() {
            let is_pawn = |c: &Cell| self.piece_at(*c).map(|q| q.role) == Some(Role::Pawn);
            if !candidates.iter().any(is_pawn) {
                let what = self
                    .piece_at(candidates[0])
                    .map_or(role_name, |q| q.role.name());
                return format!("only a pawn can promote, not a {what}");
            }
            let arriving: Vec<Move> = pseudo
                .iter()
                .copied()
                .filter(|m| m.to == to && candidates.contains(&m.from) && is_pawn(&m.from))
                .collect();
            if let Some(m) = arriving
                .first()
                .filter(|_| arriving.iter().all(|m| m.promotion().is_none()))
            {
                return format!(
                    "{} does not promote on {to_label} (a pawn promotes only on its last row)",
                    self.describe_piece(m.from)
                );
            }
            let army = &self.rules.armies[us.index()];
            let promotes = army.pawn.promotion.contains(to)
                || army.side.as_ref().is_some_and(|w| w.promotes(to, true))
                || army.pawn.capture_promotion.contains(to);
            if !promotes {
                return format!(
                    "only a pawn reaching its last row promotes, and {to_label} is not one for it"
                );
            }
        }
        let reachable: Vec<Move> = pseudo
            .iter()
            .copied()
            .filter(|m| candidates.contains(&m.from) && m.to == to && m.kind != MoveKind::Castle)
            .filter(|m| p.promotion.is_none() || m.promotion().is_some())
            .collect();
        if let Some(m) = reachable.first() {
            let what = self.describe_piece(m.from);
            return if self.is_check() {
                format!("your king is in check, and moving {what} to {to_label} does not stop it")
            } else {
                format!("moving {what} to {to_label} would leave your king in check")
            };
        }
        for &from in &candidates {
            if let Some(blocker) = self.blocker_between(from, to) {
                let b = self.piece_at(blocker).unwrap();
                let whose = if b.seat == us { "your" } else { "the" };
                return format!(
                    "{} is blocked by {whose} {} on {}",
                    self.describe_piece(from),
                    b.role.name(),
                    board.label(blocker)
                );
            }
        }
        if candidates.len() == 1 {
            format!(
                "{} cannot move to {to_label}",
                self.describe_piece(candidates[0])
            )
        } else {
            format!("none of your {role_name}s can move to {to_label}")
        }
    }

    fn describe_piece(&self, cell: Cell) -> String {
        let piece = self.piece_at(cell).unwrap();
        format!("your {} on {}", piece.role.name(), self.board().label(cell))
    }

    /// For a slider on `from` whose line reaches `to`, the first piece in the way.
    fn blocker_between(&self, from: Cell, to: Cell) -> Option<Cell> {
        let piece = self.piece_at(from)?;
        let army = &self.rules.armies[piece.seat.index()];
        let dirs: Vec<_> = match piece.role {
            Role::Bishop => army.bishop.to_vec(),
            Role::Rook => army.rook.to_vec(),
            Role::Queen => army
                .rook
                .iter()
                .chain(army.bishop.iter())
                .copied()
                .collect(),
            Role::Pawn => self
                .courses(army, self.squares[from.index()])
                .map(|w| w.forward)
                .collect(),
            _ => return None,
        };
        let board = self.board();
        for d in dirs {
            let line: Vec<Cell> = board.ray(from, d).take_while(|&c| c != to).collect();
            if board.ray(from, d).any(|c| c == to) {
                if let Some(b) = line.into_iter().find(|c| self.piece_at(*c).is_some()) {
                    return Some(b);
                }
            }
        }
        None
    }
}

fn file_char(file: u8) -> char {
    (b'a' + file) as char
}

/// Whether a text is short (`O-O`) or long (`O-O-O`) castling.
fn castle_text(s: &str) -> Option<bool> {
    let t: String = s
        .chars()
        .filter(|c| *c != '-')
        .map(|c| {
            if c == '0' {
                'O'
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect();
    match t.as_str() {
        "OO" => Some(true),
        "OOO" => Some(false),
        _ => None,
    }
}

/// Every reading of a move text, most likely first. `None` if it is no move text at all.
fn read_patterns(s: &str) -> Option<Vec<Pattern>> {
    let chars: Vec<char> = s.chars().collect();
    let mut end = chars.len();
    // Promotion suffix: "=Q", "(Q)", "/Q", or a bare piece letter after a rank digit.
    let mut promotion = None;
    if end >= 2 {
        let last = chars[end - 1];
        let before = chars[end - 2];
        if let Some(r) = Role::from_char(last).filter(|r| !matches!(r, Role::Pawn | Role::King)) {
            if before == '=' || before == '/' {
                promotion = Some(r);
                end -= 2;
            } else if before.is_ascii_digit() {
                promotion = Some(r);
                end -= 1;
            }
        } else if last == ')' && end >= 4 && chars[end - 3] == '(' {
            promotion = Role::from_char(chars[end - 2]);
            promotion?;
            end -= 3;
        }
    }
    // Destination: a file letter and rank digits at the end.
    let mut digits_start = end;
    while digits_start > 0 && chars[digits_start - 1].is_ascii_digit() {
        digits_start -= 1;
    }
    if digits_start == end || digits_start == 0 {
        return None;
    }
    let to_text: String = chars[digits_start - 1..end].iter().collect();
    let to = parse_square_label(&to_text)?;
    let mut prefix: Vec<char> = chars[..digits_start - 1].to_vec();
    if matches!(prefix.last(), Some('x' | 'X' | ':' | '-')) {
        prefix.pop();
    }
    let mut out = Vec::new();
    // A leading letter may be a piece or a file: an upper-case piece letter is a piece; a
    // lower-case 'b', 'k' or 'n' (files on wide boards: Superchess has a-n), or any letter
    // followed by a rank ("k2"), is a file first (a reading that fits no legal move gives way
    // to the next).
    // A capital piece letter not followed by a rank ("Bc3", not "B2b4") names the piece: its
    // reading as a file is only a hint for the refusal.
    let mut readings: Vec<(Option<Role>, &[char], bool)> = Vec::new();
    match prefix.first() {
        Some(&c) if Role::from_char(c).is_some() => {
            let starts_square = prefix.get(1).is_some_and(char::is_ascii_digit);
            let piece = (Role::from_char(c), &prefix[1..], false);
            let file = (None, &prefix[..], c.is_ascii_uppercase() && !starts_square);
            let file_first =
                c.is_ascii_lowercase() && (matches!(c, 'b' | 'k' | 'n') || starts_square);
            if file_first {
                readings.extend([file, piece]);
            } else {
                readings.extend([piece, file]);
            }
        }
        _ => readings.push((None, &prefix[..], false)),
    }
    for (role, rest, hint_only) in readings {
        if let Some((from_file, from_rank)) = read_origin(rest) {
            out.push(Pattern {
                role,
                from_file,
                from_rank,
                to,
                promotion,
                hint_only,
            });
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Reads the disambiguation between piece letter and destination: a file, a rank, both or none.
fn read_origin(rest: &[char]) -> Option<(Option<u8>, Option<u8>)> {
    let rest: Vec<char> = rest
        .iter()
        .copied()
        .filter(|c| !matches!(c, 'x' | 'X' | ':' | '-'))
        .collect();
    match rest.as_slice() {
        [] => Some((None, None)),
        [f, digits @ ..] if f.is_ascii_lowercase() || f.is_ascii_uppercase() => {
            let file = f.to_ascii_lowercase() as u8 - b'a';
            if digits.is_empty() {
                return Some((Some(file), None));
            }
            let n: String = digits.iter().collect();
            let rank: u8 = n.parse().ok().filter(|r| *r >= 1)?;
            Some((Some(file), Some(rank - 1)))
        }
        digits if digits.iter().all(char::is_ascii_digit) => {
            let n: String = digits.iter().collect();
            let rank: u8 = n.parse().ok().filter(|r| *r >= 1)?;
            Some((None, Some(rank - 1)))
        }
        _ => None,
    }
}

impl Piece {
    /// "white knight", "black pawn".
    pub fn describe(self) -> String {
        format!(
            "{} {}",
            self.seat.colour_name().to_lowercase(),
            self.role.name()
        )
    }
}
