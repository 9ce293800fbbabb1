//! Shadow Chess (Will Adams, *Variations on Chess and Checkers*, chess II.1).
//!
//! "All pieces move and capture in the normal fashion. But there is one additional way of
//! capturing." Every piece casts a shadow on each square it could move to; a shadow ends where
//! it meets the shadow of another piece of the same side. Besides capturing normally, a piece
//! captures an enemy by moving, with its normal capturing movement, from outside that enemy's
//! shadow into it at any point; moving out of a shadow and back in does not capture. A king is
//! in check when an enemy piece is trained on it or on its shadow. The shadows and the shadow
//! capture are the chess machinery's ([`crate::chess::Position::shadow_moves`]); this module is
//! the game around them. `board=cylinder` plays Cylindrical Shadow Chess (chess II.2).
//!
//! Interpretations (the book is silent): a shadow is cut by the squares the side's other pieces
//! could move to; castling and en passant cast no shadow; a shadow capture lands on an empty
//! square and takes one piece of the mover's choice, judged by where the capturing piece starts
//! and lands (not by its path); a piece is trained on a king's shadow when it could capture onto
//! an empty square of it; a castling king may not cross a square
//! where it would be in check; only two bare kings are a draw by material (a lone knight can
//! give shadow check).

use serde::{Deserialize, Serialize};

use crate::board::Cell;
use crate::chess::{MoveKind, MoveParseError, Position, Role, Seat, ShadowMove};
use crate::game::{
    EndReason, Event, Family, Game, GameError, Options, Outcome, Prompt, VariantInfo,
};
use crate::view::{View, Viewer};

use super::chess::{
    action_perft, board_option, board_view, counting_draws, fen_option, move_events, move_prompt,
    start_from_options,
};

/// Shadow Chess.
pub struct ShadowChess;

/// A game of Shadow Chess.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShadowState {
    position: Position,
    /// Every move played, as written.
    moves: Vec<String>,
    /// Repetition keys since the last capture or pawn move.
    repetitions: Vec<u64>,
    /// The squares of the last move: from, to, and a shadow capture's victim.
    last_move: Vec<Cell>,
    seed: u64,
}

impl ShadowState {
    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    fn outcome(&self) -> Option<Outcome> {
        let pos = &self.position;
        let turn = pos.turn();
        if pos.shadow_moves().is_empty() {
            return Some(if pos.shadow_check(turn) {
                Outcome::win(vec![Seat(1 - turn.0)], EndReason::Checkmate)
            } else {
                Outcome::draw(EndReason::Stalemate)
            });
        }
        if pos.pieces().all(|(_, p)| p.role == Role::King) {
            return Some(Outcome::draw(EndReason::InsufficientMaterial));
        }
        counting_draws(pos, &self.repetitions)
    }
}

/// How a move is written: SAN for ordinary moves; a shadow capture as the piece, its start and
/// end, then the piece it takes in brackets: `Nc5-d7(xBc8)`, `e4-f5(xBc8)`, `d7-e8=Q(xRa8)`.
/// Check is marked by Shadow Chess's own rule.
fn text(pos: &Position, sm: ShadowMove) -> String {
    text_among(pos, sm, &plain_moves(&pos.shadow_moves()))
}

/// The ordinary moves among Shadow Chess's legal moves: what SAN is disambiguated against.
fn plain_moves(legal: &[ShadowMove]) -> Vec<crate::chess::Move> {
    legal
        .iter()
        .filter(|sm| sm.victim.is_none())
        .map(|sm| sm.mv)
        .collect()
}

/// [`text`], with the legal ordinary moves already listed.
fn text_among(pos: &Position, sm: ShadowMove, plain: &[crate::chess::Move]) -> String {
    let mut out = match sm.victim {
        None => pos.san_plain_among(sm.mv, plain),
        Some(victim) => {
            let board = pos.board();
            let mover = pos.piece_at(sm.mv.from).map_or(Role::Pawn, |p| p.role);
            let letter = if mover == Role::Pawn {
                String::new()
            } else {
                mover.upper_char().to_string()
            };
            let promotion = sm
                .mv
                .promotion()
                .map(|r| format!("={}", r.upper_char()))
                .unwrap_or_default();
            let taken = pos.piece_at(victim).map_or('?', |p| p.role.upper_char());
            format!(
                "{letter}{}-{}{promotion}(x{taken}{})",
                board.label(sm.mv.from),
                board.label(sm.mv.to),
                board.label(victim)
            )
        }
    };
    let mut after = pos.clone();
    after.play_shadow_unchecked(sm);
    if after.shadow_check(after.turn()) {
        out.push(if after.shadow_moves().is_empty() {
            '#'
        } else {
            '+'
        });
    }
    out
}

/// A piece letter written at the start of `text` (`N` in `Nc5-d7`), and the rest.
fn written_role(text: &str) -> (Option<Role>, &str) {
    match text.chars().next() {
        Some(c) if "KQRBNP".contains(c) => (Role::from_char(c), &text[1..]),
        _ => (None, text),
    }
}

/// The legal shadow captures nearest to a refused one, as a clause to add to the reason: those
/// of the same piece to the same square, else of the same piece, else those taking the same
/// victim.
fn nearest_captures(
    pos: &Position,
    legal: &[ShadowMove],
    from: Cell,
    to: Cell,
    victim: Cell,
) -> String {
    let captures: Vec<ShadowMove> = legal
        .iter()
        .copied()
        .filter(|sm| sm.victim.is_some())
        .collect();
    let tiers: [&dyn Fn(&ShadowMove) -> bool; 3] = [
        &|sm: &ShadowMove| sm.mv.from == from && sm.mv.to == to,
        &|sm: &ShadowMove| sm.mv.from == from,
        &|sm: &ShadowMove| sm.victim == Some(victim),
    ];
    let plain = plain_moves(legal);
    for tier in tiers {
        let near: Vec<String> = captures
            .iter()
            .filter(|&&sm| tier(&sm))
            .take(6)
            .map(|&sm| text_among(pos, sm, &plain))
            .collect();
        if !near.is_empty() {
            return format!("; you could play {}", near.join(", "));
        }
    }
    String::new()
}

/// Reads a shadow capture (`Nc5-d7(xc8)`, the victim's letter optional) and, if it is not
/// legal, says exactly why. Piece letters, where written, must name the pieces that stand
/// there: a typo must not play another piece's move.
fn parse_shadow_capture(
    pos: &Position,
    legal: &[ShadowMove],
    typed: &str,
) -> Result<ShadowMove, MoveParseError> {
    let board = pos.board();
    let compact: String = typed
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .trim_end_matches(['+', '#', '!', '?'])
        .to_string();
    let unreadable = || MoveParseError::Unreadable {
        text: typed.to_string(),
    };
    let illegal = |reason: String| MoveParseError::Illegal {
        text: typed.to_string(),
        reason,
    };
    let (base, victim) = compact.split_once("(x").ok_or_else(unreadable)?;
    let victim = victim.trim_end_matches(')');
    let (victim_role, victim) = written_role(victim);
    let victim = board.cell(victim).ok_or_else(unreadable)?;
    let (mover_role, base) = written_role(base);
    let (base, promotion) = match base.split_once('=') {
        Some((b, r)) => (
            b,
            Some(
                r.chars()
                    .next()
                    .and_then(Role::from_char)
                    .ok_or_else(unreadable)?,
            ),
        ),
        None => (base, None),
    };
    let (from, to) = base
        .split_once(['-', 'x'])
        .or_else(|| (base.len() == 4 && base.is_ascii()).then(|| base.split_at(2)))
        .ok_or_else(unreadable)?;
    let from = board.cell(from).ok_or_else(unreadable)?;
    let to = board.cell(to).ok_or_else(unreadable)?;
    let us = pos.turn();
    let name = |cell: Cell| {
        pos.piece_at(cell)
            .map(|p| format!("the {} on {}", p.role.name(), board.label(cell)))
            .unwrap_or_else(|| board.label(cell).to_string())
    };
    let mover = match pos.piece_at(from) {
        Some(p) if p.seat == us => p,
        _ => {
            return Err(illegal(format!(
                "there is no piece of yours on {}",
                board.label(from)
            )))
        }
    };
    let target = pos.piece_at(victim);
    if let Some(written) = mover_role.filter(|r| *r != mover.role) {
        return Err(illegal(format!(
            "the piece on {} is a {}, not a {}{}",
            board.label(from),
            mover.role.name(),
            written.name(),
            nearest_captures(pos, legal, from, to, victim)
        )));
    }
    if let (Some(written), Some(p)) = (victim_role, target) {
        if written != p.role {
            return Err(illegal(format!(
                "{} holds a {}, not a {}{}",
                board.label(victim),
                p.role.name(),
                written.name(),
                nearest_captures(pos, legal, from, to, victim)
            )));
        }
    }
    let found = legal.iter().find(|sm| {
        sm.victim == Some(victim)
            && sm.mv.from == from
            && sm.mv.to == to
            && sm.mv.promotion() == promotion
    });
    if let Some(sm) = found {
        return Ok(*sm);
    }
    let reason = match target {
        None => format!("there is no piece on {} to take", board.label(victim)),
        Some(p) if p.seat == us => format!("{} is your own", name(victim)),
        Some(p) if p.role == Role::King => {
            "a king is never taken: it is checkmated instead".to_string()
        }
        Some(_) if pos.piece_at(to).is_some() => format!(
            "{} is not empty: a shadow capture ends on an empty square",
            board.label(to)
        ),
        Some(_) => {
            let shadows = pos.shadows(pos.piece_at(victim).map_or(us, |p| p.seat));
            let shadow = shadows.of(victim).copied().unwrap_or_default();
            let straight_pawn =
                mover.role == Role::Pawn && board.coord(from).0 == board.coord(to).0;
            let moves_there = pos.reach(from, mover.role, us).contains(&to)
                || pos
                    .pseudo_legal_moves()
                    .iter()
                    .any(|m| m.from == from && m.to == to);
            let promotes_there = promotes(pos, from, to);
            if promotion.is_some() && mover.role != Role::Pawn {
                format!("{} is no pawn: only a pawn promotes", name(from))
            } else if !moves_there {
                format!(
                    "{} cannot move from {} to {}",
                    name(from),
                    board.label(from),
                    board.label(to)
                )
            } else if straight_pawn {
                "a pawn captures only with its diagonal step: advancing into a shadow takes \
                 nothing"
                    .to_string()
            } else if !shadow.contains(to) {
                format!(
                    "{} is not in the shadow of {}",
                    board.label(to),
                    name(victim)
                )
            } else if shadow.contains(from) {
                format!(
                    "{} already stands in the shadow of {}: moving within a shadow takes nothing",
                    name(from),
                    name(victim)
                )
            } else if promotes_there && promotion.is_none() {
                "a pawn reaching the last rank must promote (add =Q, =R, =B or =N)".to_string()
            } else if !promotes_there && promotion.is_some() {
                "only a pawn reaching its last rank promotes".to_string()
            } else if !matches!(
                promotion,
                None | Some(Role::Queen | Role::Rook | Role::Bishop | Role::Knight)
            ) {
                "a pawn promotes to a queen, rook, bishop or knight (=Q, =R, =B or =N)".to_string()
            } else {
                "it would leave your king in check (on it or on its shadow)".to_string()
            }
        }
    };
    Err(illegal(reason))
}

/// Whether a pawn of the side to move going from `from` to `to` would promote.
fn promotes(pos: &Position, from: Cell, to: Cell) -> bool {
    pos.piece_at(from).is_some_and(|p| p.role == Role::Pawn)
        && pos.rules().promotion_zone(pos.turn().index()).contains(to)
}

fn parse(pos: &Position, text: &str) -> Result<ShadowMove, GameError> {
    let legal = pos.shadow_moves();
    if text.contains("(x") || text.contains("( x") {
        return Ok(parse_shadow_capture(pos, &legal, text)?);
    }
    let plain = plain_moves(&legal);
    let first = match pos.parse_move_among(text, &plain) {
        Ok(m) => return Ok(ShadowMove::plain(m)),
        Err(e) => e,
    };
    // Not among Shadow Chess's moves: if chess allows it, Shadow Chess's check forbids it.
    let Ok(m) = pos.parse_move(text) else {
        return Err(GameError::Move(first));
    };
    let reason = if m.kind == MoveKind::Castle {
        "the king may not castle out of, through or into check (on it or on its shadow)"
    } else {
        "it would leave your king in check on its shadow"
    };
    Err(GameError::Move(MoveParseError::Illegal {
        text: text.trim().to_string(),
        reason: reason.to_string(),
    }))
}

/// The value of `/board show:` that shades one side's shadows.
fn shadow_side(show: &str) -> Result<Option<Seat>, GameError> {
    match show.trim().to_ascii_lowercase().as_str() {
        "white" | "white-shadows" => Ok(Some(Seat::WHITE)),
        "black" | "black-shadows" => Ok(Some(Seat::BLACK)),
        "none" | "" => Ok(None),
        other => Err(GameError::BadOption(format!(
            "Shadow Chess can show `white` or `black` shadows (or `none`), not `{other}`"
        ))),
    }
}

impl Game for ShadowChess {
    type State = ShadowState;
    type Action = ShadowMove;

    fn info(&self) -> &VariantInfo {
        static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
        INFO.get_or_init(|| VariantInfo {
            id: "shadow",
            aliases: &["shadow-chess"],
            name: "Shadow Chess",
            family: Family::Chess,
            seat_counts: &[2],
            options: vec![board_option(), fen_option()],
            hidden_information: false,
            simultaneous: false,
            rules: "Chess, with one more way to capture. Every piece casts a shadow on each \
                    square it could move to; a shadow ends on the first square that another \
                    piece of its own side could also move to. Besides capturing normally, a \
                    piece captures an enemy by moving, with its normal capturing movement (a \
                    pawn: its diagonal step), from outside that enemy's shadow onto an empty \
                    square in it: write the move and the victim, as Nc5-d7(xBc8). A piece \
                    already in the shadow takes nothing by moving within it, nor does a pawn \
                    advancing. A king is in check when attacked directly or on its shadow (an \
                    enemy piece could capture onto an empty square the king could step to: a \
                    pawn with its diagonal step), and must not be left so. Checkmate wins; \
                    stalemate, fifty moves and threefold repetition draw. /board show:white or \
                    show:black shades a side's shadows.\n\
                    Interpretations (the book is silent): \"could move to\" ignores check and \
                    pins; a shadow is cut by the squares the side's other pieces could move to \
                    (not by their own cut shadows); castling and en passant cast no shadow, and \
                    a castling king or rook takes nothing by landing in one; a shadow capture \
                    lands on an empty square and takes one piece of the mover's choice; what \
                    counts is where the capturing piece starts and lands (a slider starting \
                    outside a shadow captures wherever its path runs; one starting inside never \
                    does); a castling king may not cross a square where it would be in check; a \
                    piece is trained on the king's shadow when it could capture onto an empty \
                    square of it, wherever it stands; only two bare kings draw by material.\n\
                    board=cylinder is Cylindrical Shadow Chess: the a- and h-files touch.",
            source: "Will Adams, Variations on Chess and Checkers (chess II.1-2)",
        })
    }

    fn setup(&self, options: &Options, _seats: usize, seed: u64) -> Result<ShadowState, GameError> {
        let position = start_from_options(options)?;
        Ok(ShadowState {
            repetitions: vec![position.repetition_key()],
            position,
            moves: Vec::new(),
            last_move: Vec::new(),
            seed,
        })
    }

    fn prompts(&self, state: &ShadowState) -> Vec<Prompt> {
        move_prompt(state.position.turn(), state.outcome().is_some())
    }

    fn legal(&self, state: &ShadowState, seat: Seat) -> Vec<ShadowMove> {
        if seat != state.position.turn() || state.outcome().is_some() {
            return Vec::new();
        }
        state.position.shadow_moves()
    }

    fn action_text(&self, state: &ShadowState, action: &ShadowMove) -> String {
        text(&state.position, *action)
    }

    fn legal_texts(&self, state: &ShadowState, seat: Seat) -> Vec<String> {
        let legal = self.legal(state, seat);
        let plain = plain_moves(&legal);
        legal
            .iter()
            .map(|sm| text_among(&state.position, *sm, &plain))
            .collect()
    }

    fn parse(&self, state: &ShadowState, seat: Seat, text: &str) -> Result<ShadowMove, GameError> {
        let turn = state.position.turn();
        if seat != turn {
            return Err(GameError::NotYourTurn(format!(
                "{} to move",
                turn.colour_name()
            )));
        }
        parse(&state.position, text)
    }

    fn apply(
        &self,
        state: &mut ShadowState,
        seat: Seat,
        action: ShadowMove,
    ) -> Result<Vec<Event>, GameError> {
        let pos = &state.position;
        if seat != pos.turn() {
            return Err(GameError::NotYourTurn(format!(
                "{} to move",
                pos.turn().colour_name()
            )));
        }
        if !pos.shadow_moves().contains(&action) {
            return Err(GameError::Refused(
                "that move is not legal in this position".into(),
            ));
        }
        let written = text(pos, action);
        let number = pos.fullmoves();
        let king_lands = match action.mv.kind {
            MoveKind::Castle => None,
            _ => Some(action.mv.to),
        };
        state.position.play_shadow_unchecked(action);
        if state.position.halfmoves() == 0 {
            state.repetitions.clear();
        }
        state.repetitions.push(state.position.repetition_key());
        state.last_move = vec![
            action.mv.from,
            king_lands.unwrap_or_else(|| state.position.king(seat).unwrap_or(action.mv.to)),
        ];
        state.last_move.extend(action.victim);
        let events = move_events(seat, number, &written, state.outcome());
        state.moves.push(written);
        Ok(events)
    }

    fn view(&self, state: &ShadowState, viewer: Viewer) -> View {
        let pos = &state.position;
        let outcome = state.outcome();
        let mut view = board_view(self.info().id, pos, viewer);
        view.last_move = state.last_move.clone();
        let turn = pos.turn();
        let in_check = pos.shadow_check(turn);
        if in_check {
            view.checks = pos.king(turn).into_iter().collect();
        }
        view.status = match &outcome {
            Some(o) => o.to_string(),
            None if in_check => format!("{} to move, in check", turn.colour_name()),
            None => format!("{} to move", turn.colour_name()),
        };
        if outcome.is_none() {
            view.to_act = vec![turn];
        }
        view
    }

    fn view_showing(
        &self,
        state: &ShadowState,
        viewer: Viewer,
        show: &str,
    ) -> Result<View, GameError> {
        let mut view = self.view(state, viewer);
        if let Some(side) = shadow_side(show)? {
            let shadows = state.position.shadows(side);
            view.tinted = shadows.all().iter().map(|c| (c, side)).collect();
            view.status = format!("{} ({}'s shadows shaded)", view.status, side.colour_name());
        }
        Ok(view)
    }

    fn showable(&self) -> &'static [&'static str] {
        &["white", "black", "none"]
    }

    fn outcome(&self, state: &ShadowState) -> Option<Outcome> {
        state.outcome()
    }

    fn perft(&self, state: &ShadowState, depth: u32) -> Option<u64> {
        Some(perft(&state.position, depth))
    }

    fn divide(&self, state: &ShadowState, depth: u32) -> Option<Vec<(String, u64)>> {
        let pos = &state.position;
        Some(
            pos.shadow_moves()
                .into_iter()
                .map(|sm| {
                    (
                        text(pos, sm),
                        perft(&after(pos, sm), depth.saturating_sub(1)),
                    )
                })
                .collect(),
        )
    }
}

fn after(pos: &Position, sm: ShadowMove) -> Position {
    let mut next = pos.clone();
    next.play_shadow_unchecked(sm);
    next
}

/// Shadow Chess perft: every legal move, shadow captures one per victim.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    action_perft(pos, depth, &Position::shadow_moves, &after)
}

#[cfg(test)]
mod tests;
