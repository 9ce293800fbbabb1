//! Doubles Chess (Will Adams, *Variations on Chess and Checkers*, chess III): four players on a
//! 12x12 board, as two teams of partners or cut-throat, each for himself.
//!
//! The board and armies: each army on the middle eight squares of its edge, kings toward the
//! "friendly corners" (A1 for the Whites, L12 for the Blacks); the book's Figure 29 is lost and
//! the position is the one its text fixes (see `RULES-NOTES.md`). Two special moves make up for
//! the bigger board: a knight may add a second hop in the same direction to an empty square over
//! an empty one, never capturing; a pawn may go one, two or three squares on its first move, then
//! one or two until it crosses the centre, and any longer pawn move may be taken en passant on
//! every square it passed, at right angles too.
//!
//! Partners (W1 and W2 against B1 and B2, moving W1, B1, W2, B2) follow the book's seven rules
//! of check and mate; cut-throat (the corners' four squares off limits, moving clockwise from
//! White 1) its five. Interpretations, said also in `/rules`:
//! - a king attacked when an enemy who attacks it comes to move is lost: that enemy must take it
//!   (the book's rule 3, and rule 7's "treated as if it were checkmate"), unless his own king is
//!   in check; any of his pieces attacking the king may take it;
//! - en passant may be taken by each enemy on his next turn after the long step;
//! - cut-throat immunity: the players who "participated in the mate" are the one whose move
//!   mated and those whose pieces attacked the king or a square next to it when it was mated;
//!   a player who comes up after the mate did not take part;
//! - a resigned or timed-out cut-throat player's pieces stay on the board, frozen;
//! - fifty moves each without a capture or pawn move, or a position seen three times, draws.

mod notation;

use crate::board::{Cell, SquareBoard, Wrap};
use crate::chess::{
    CastlingRule, Move, MoveParseError, PawnRule, Piece, Position, Role, RulesSpec, Seat, Setup,
};
use crate::game::{
    EndReason, Event, Family, Game, GameError, OptionSpec, OptionValues, Options, Outcome, Prompt,
    VariantInfo,
};
use crate::table::Table;
use crate::view::{View, Viewer};

pub use super::team_chess::Mode;
use super::team_chess::{TeamChess, Writing};

/// Doubles Chess.
pub struct Doubles;

/// A game of Doubles Chess: the shared rules of chess for several players on its board.
pub type DoublesState = TeamChess;

/// The armies by index: White 1 at the bottom, Black 1 across at the top, White 2 at the left,
/// Black 2 at the right. Player `n` moves army `n`.
const NAMES: [&str; 4] = ["White 1", "Black 1", "White 2", "Black 2"];
/// Forward for each army in quarter turns from up the board.
const FACING: [u8; 4] = [0, 2, 1, 3];
/// Partners: W1, B1, W2, B2. Cut-throat: clockwise from White 1: bottom, left, top, right.
const PARTNERS_ORDER: [u8; 4] = [0, 1, 2, 3];
const CUT_THROAT_ORDER: [u8; 4] = [0, 2, 1, 3];

/// The starting army of each player, from its left as it sits (`RULES-NOTES.md`): rooks, knights
/// and bishops outside in; the king toward the friendly corner.
const ARMIES: [&str; 4] = [
    // White 1: c1..j1, pawns c2..j2.
    "Rc1 Nd1 Be1 Kf1 Qg1 Bh1 Ni1 Rj1 Pc2 Pd2 Pe2 Pf2 Pg2 Ph2 Pi2 Pj2",
    // Black 1: c12..j12, pawns c11..j11.
    "Rc12 Nd12 Be12 Qf12 Kg12 Bh12 Ni12 Rj12 Pc11 Pd11 Pe11 Pf11 Pg11 Ph11 Pi11 Pj11",
    // White 2: a3..a10, pawns b3..b10.
    "Ra3 Na4 Ba5 Ka6 Qa7 Ba8 Na9 Ra10 Pb3 Pb4 Pb5 Pb6 Pb7 Pb8 Pb9 Pb10",
    // Black 2: l3..l10, pawns k3..k10.
    "Rl3 Nl4 Bl5 Ql6 Kl7 Bl8 Nl9 Rl10 Pk3 Pk4 Pk5 Pk6 Pk7 Pk8 Pk9 Pk10",
];

fn mode_of(options: &Options) -> Mode {
    match options.get("mode") {
        Some(m) if m.eq_ignore_ascii_case("cutthroat") || m.eq_ignore_ascii_case("cut-throat") => {
            Mode::CutThroat
        }
        _ => Mode::Partners,
    }
}

impl TeamChess {
    /// A new game of Doubles Chess in `mode`, on a flat board or a cylinder.
    pub fn doubles(mode: Mode, cylinder: bool, seed: u64) -> TeamChess {
        let corners = match mode {
            Mode::Partners => 0,
            Mode::CutThroat => crate::board::CUT_THROAT_CORNERS,
        };
        let board = SquareBoard::new(12, 12)
            .cut_corners(corners)
            .seats_facing(&FACING)
            .spec();
        let teams = match mode {
            Mode::Partners => vec![0, 1, 0, 1],
            Mode::CutThroat => vec![0, 1, 2, 3],
        };
        let mut spec = RulesSpec::new(board, teams.clone());
        spec.pawns = PawnRule::Doubles;
        spec.extended_knight = true;
        spec.castling = CastlingRule::KingTwoSquares;
        if cylinder {
            // Each pair of opposite players has its own left and right edges touching.
            spec.army_wrap = vec![Wrap::Files, Wrap::Files, Wrap::Ranks, Wrap::Ranks];
        }
        let rules = spec.build();
        let b = rules.board();
        let mut cells = vec![None; b.len()];
        let mut rooks = Vec::new();
        for (army, line) in ARMIES.iter().enumerate() {
            for word in line.split_whitespace() {
                let role = Role::from_char(word.chars().next().unwrap()).unwrap();
                let cell = b.cell(&word[1..]).expect("the armies stand on the board");
                cells[cell.index()] = Some(Piece {
                    seat: Seat(army as u8),
                    role,
                });
                if role == Role::Rook {
                    rooks.push(cell);
                }
            }
        }
        let setup = Setup {
            cells,
            turn: Seat(0),
            castling_rooks: rooks,
            ep_target: None,
            halfmoves: 0,
            fullmoves: 1,
        };
        let position = Position::from_setup(setup, rules).expect("the start is a legal position");
        let order = match mode {
            Mode::Partners => PARTNERS_ORDER,
            Mode::CutThroat => CUT_THROAT_ORDER,
        };
        TeamChess::start(
            mode,
            position,
            Table::with_order(&NAMES, &teams, &order),
            Writing::Algebraic,
            seed,
        )
    }
}

impl TeamChess {
    fn parse_move(&self, army: u8, text: &str) -> Result<Move, GameError> {
        let text = &normalise(text);
        let allowed = self.moves_of(army);
        let pos = self.as_turn_of(army);
        let columns = notation::columns(army < 2);
        match pos.parse_move_among(text, &allowed) {
            Ok(m) => {
                // B, I and K are files on this board and names in the book's notation: when
                // the two readings are different legal moves, ask which.
                if let Some(Ok(other)) =
                    notation::read(&pos, army as usize, &columns, text, &allowed)
                {
                    if other != m {
                        return Err(GameError::Move(MoveParseError::Ambiguous {
                            text: text.trim().to_string(),
                            candidates: vec![
                                format!(
                                    "{} (the board's square)",
                                    pos.san_plain_among(m, &allowed)
                                ),
                                format!(
                                    "{} (your own notation)",
                                    pos.san_plain_among(other, &allowed)
                                ),
                            ],
                        }));
                    }
                }
                Ok(m)
            }
            Err(err) => {
                // A move the chess rules allow, refused by Doubles' own rules.
                if let Ok(m) = pos.parse_move(text) {
                    return Err(GameError::Move(MoveParseError::Illegal {
                        text: text.trim().to_string(),
                        reason: self.why_refused(army, m),
                    }));
                }
                if let Some(read) = notation::read(&pos, army as usize, &columns, text, &allowed) {
                    // The same in the book's notation (`Q x N` onto an immune piece, any move
                    // while a king must be taken): the reason, not "no move fits".
                    if read.is_err() {
                        let chess = pos.legal_moves();
                        if let Some(Ok(m)) =
                            notation::read(&pos, army as usize, &columns, text, &chess)
                        {
                            return Err(GameError::Move(MoveParseError::Illegal {
                                text: text.trim().to_string(),
                                reason: self.why_refused(army, m),
                            }));
                        }
                    }
                    return read.map_err(GameError::Move);
                }
                if let Some(reason) = self.hop_problem(&pos, text) {
                    return Err(GameError::Move(MoveParseError::Illegal {
                        text: text.trim().to_string(),
                        reason,
                    }));
                }
                Err(GameError::Move(err))
            }
        }
    }

    /// A knight's double hop through an occupied square, explained.
    fn hop_problem(&self, pos: &Position, text: &str) -> Option<String> {
        if !text.is_ascii() {
            return None;
        }
        let board = pos.board();
        let cleaned: String = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .collect();
        let lower = cleaned.to_ascii_lowercase();
        let lower = lower.trim_start_matches('n');
        let squares: Vec<Cell> = (1..lower.len())
            .find_map(|i| Some((board.cell(&lower[..i])?, board.cell(&lower[i..])?)))
            .map(|(a, b)| vec![a, b])
            .or_else(|| board.cell(lower).map(|c| vec![c]))?;
        let to = *squares.last()?;
        let army = pos.turn();
        for from in pos.cells_of(army).iter() {
            if pos.piece_at(from).map(|p| p.role) != Some(Role::Knight)
                || (squares.len() == 2 && squares[0] != from)
            {
                continue;
            }
            for &(mid, target) in pos.rules().board_of(army.index()).knight_hops(from) {
                if target != to {
                    continue;
                }
                if pos.piece_at(mid).is_some() {
                    return Some(format!(
                        "the knight's second hop needs the square between empty, and {} is occupied",
                        board.label(mid)
                    ));
                }
                if pos.piece_at(target).is_some() {
                    return Some(format!(
                        "a knight's second hop never captures, and {} is occupied",
                        board.label(target)
                    ));
                }
            }
        }
        None
    }
}

/// Move text as typed or copied from the book: typographic dashes and the multiplication sign
/// become `-` and `x`, and the book's "ch" (check) becomes `+`.
fn normalise(text: &str) -> String {
    let mut out: String = text
        .trim()
        .chars()
        .map(|c| match c {
            '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
            '\u{d7}' => 'x',
            c => c,
        })
        .collect();
    let lower = out.to_ascii_lowercase();
    if lower.ends_with("ch") && out.len() > 2 {
        out.truncate(out.len() - 2);
        out.push('+');
    }
    out
}

static INFO: std::sync::LazyLock<VariantInfo> = std::sync::LazyLock::new(|| VariantInfo {
    id: "doubles",
    aliases: &["doubles-chess", "double-chess", "four-player-chess"],
    name: "Doubles Chess",
    family: Family::Chess,
    seat_counts: &[4],
    options: vec![
        OptionSpec {
            key: "mode",
            help: "partners (W1 and W2 against B1 and B2) or cutthroat (each for himself)",
            default: Some("partners"),
            values: OptionValues::Choice(&["partners", "cutthroat"]),
        },
        OptionSpec {
            key: "board",
            help:
                "flat, or cylinder (each pair of opposite players has its own side edges touching)",
            default: Some("flat"),
            values: OptionValues::Choice(&["flat", "cylinder"]),
        },
    ],
    hidden_information: false,
    simultaneous: false,
    rules: RULES,
    source: "Will Adams, Variations on Chess and Checkers, chess III (Doubles)",
});

const RULES: &str = "\
Four players on a 12x12 board, each army on the middle eight squares of its edge: White 1 at \
the bottom, Black 1 across, White 2 at the left, Black 2 at the right. Kings stand toward the \
dark 'friendly corners' (a1 for the Whites, l12 for the Blacks). The book's diagram is lost; \
this position is reconstructed from its text.\n\
Knights may add a second hop in the same direction to an empty square over an empty one, never \
capturing. Pawns go 1-3 squares on their first move, then 1-2 until past the centre, then 1; \
any longer pawn move may be taken en passant on each square it passed (at right angles too), by \
each enemy on its next turn (our reading), promoting if it lands on the far row. Castling (the \
book is silent; our house rule): the king goes two squares toward the rook, which lands on the \
square it crossed; O-O is the king's side (the half of the home row it stands in).\n\
Partners (mode=partners, all 144 squares, order W1, B1, W2, B2): you need not defend your \
partner's king. A mated player misses turns until the king is taken or the mate broken; the \
mater must take the king at once unless checked meanwhile (we let any of his pieces that attack \
it take it; if his pieces no longer attack it, the attacker who moves first must). The taker is immune from the victim, not the partner, for one move. A king attacked \
when an enemy who attacks it comes to move is lost the same way (discovery mate): that enemy \
must take it. A player \
without a king plays on and cannot be checked. Any stalemate draws the whole game, unless the \
stalemated player has lost the king. A team wins by mating both opposing kings.\n\
Cut-throat (mode=cutthroat): the four squares of each corner are off limits; play runs clockwise \
from White 1. A mated army is frozen in place (its pieces may be captured and still give check); \
the mater must take its king next move unless checked meanwhile; the taker is immune for one \
move from the players who took part in the mate (we count the player who mated and those \
attacking the king or a square next to it when the mate was given, not those who came up \
afterwards). A stalemated player passes while two others play; a stalemate with one other left \
draws. A king left attacked when another enemy comes to move may be taken by him (our reading; \
not forced). Last player standing wins; a resigning player's pieces stay, frozen.\n\
board=cylinder (reconstructed): White 1 and Black 1 have the a- and l-files touching; White 2 \
and Black 2 ranks 1 and 12.\n\
Moves: algebraic on files a-l and ranks 1-12 from White 1's side (Nj5, g5, Qxk7), or the book's \
own notation from the mover's side (P-Q5, B-II7, KN-QB3, Q x K). Fifty moves each without a \
capture or pawn move, or a threefold repetition, draws.";

impl Game for Doubles {
    type State = DoublesState;
    type Action = Move;

    fn info(&self) -> &VariantInfo {
        &INFO
    }

    fn setup(
        &self,
        options: &Options,
        _seats: usize,
        seed: u64,
    ) -> Result<DoublesState, GameError> {
        let cylinder = options
            .get("board")
            .is_some_and(|b| b.eq_ignore_ascii_case("cylinder"));
        Ok(DoublesState::doubles(mode_of(options), cylinder, seed))
    }

    fn prompts(&self, state: &DoublesState) -> Vec<Prompt> {
        state.prompts()
    }

    fn king_room(&self, state: &DoublesState, army: Seat) -> Option<usize> {
        state.king_room(army.0)
    }

    fn legal(&self, state: &DoublesState, seat: Seat) -> Vec<Move> {
        state.legal_for(seat)
    }

    fn action_text(&self, state: &DoublesState, action: &Move) -> String {
        state
            .position
            .san_plain_among(*action, &state.moves_of(state.to_move()))
    }

    fn legal_texts(&self, state: &DoublesState, seat: Seat) -> Vec<String> {
        let moves = Game::legal(self, state, seat);
        moves
            .iter()
            .map(|m| state.position.san_plain_among(*m, &moves))
            .collect()
    }

    fn parse(&self, state: &DoublesState, seat: Seat, text: &str) -> Result<Move, GameError> {
        let army = state.check_turn(seat)?;
        state.parse_move(army, text)
    }

    fn apply(
        &self,
        state: &mut DoublesState,
        seat: Seat,
        action: Move,
    ) -> Result<Vec<Event>, GameError> {
        state.apply_for(seat, action)
    }

    fn view(&self, state: &DoublesState, viewer: Viewer) -> View {
        state.view(self.info().id, viewer)
    }

    fn outcome(&self, state: &DoublesState) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn seat_name(&self, state: &DoublesState, seat: Seat) -> String {
        state.seat_name(seat)
    }

    fn concede(
        &self,
        state: &DoublesState,
        seat: Seat,
        _seats: usize,
        reason: EndReason,
    ) -> Outcome {
        state.concede(seat, reason)
    }

    fn leave(
        &self,
        state: &mut DoublesState,
        seat: Seat,
        _seats: usize,
        reason: EndReason,
    ) -> Result<Vec<Event>, GameError> {
        state.leave(seat, reason)
    }

    fn is_out(&self, state: &DoublesState, seat: Seat) -> bool {
        state.is_out(seat)
    }

    fn waiting_reason(&self, state: &DoublesState, seat: Seat) -> Option<String> {
        state.waiting_reason(seat)
    }

    fn perft(&self, state: &DoublesState, depth: u32) -> Option<u64> {
        Some(state.perft(depth))
    }

    fn divide(&self, state: &DoublesState, depth: u32) -> Option<Vec<(String, u64)>> {
        Some(state.divide(depth))
    }
}

#[cfg(test)]
mod tests;
