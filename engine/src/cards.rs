//! Chess cards (Chess Kit, Appendix A): a deck whose cards match the chess pieces, red cards
//! the white pieces and black cards the black ones, with four cards a colour for checkers.
//! The card games build on these pieces: a deck shuffled by the game's seeded RNG, piles that
//! are face up (everyone sees them), held (only the owner sees them) or face down (nobody
//! does), and the one question every view asks of a pile: what may this viewer see of it?
//!
//! ```
//! use engine::cards::{Card, Face, Pile, Visibility};
//! use engine::{Role, Seat, Viewer};
//!
//! let deck = Card::deck();
//! assert_eq!(deck.len(), 40, "16 pieces and 4 checkers a colour");
//! let hand = Pile::new(Visibility::Held(Seat::BLACK), vec![Card::piece(Seat::BLACK, Role::Rook)]);
//! assert_eq!(hand.seen_by(Viewer::Seat(Seat::BLACK)).len(), 1);
//! assert_eq!(hand.seen_by(Viewer::Seat(Seat::WHITE)), vec![None], "the back only");
//! assert_eq!(Card::piece(Seat::WHITE, Role::Queen).to_string(), "Q");
//! assert_eq!(Card::piece(Seat::BLACK, Role::Knight).gap(), Some(1));
//! assert_eq!(Card { side: Seat::BLACK, face: Face::Checker }.to_string(), "c");
//! ```

use std::fmt;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::chess::{Role, Seat};
use crate::view::Viewer;

/// What a card shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Face {
    /// A chess piece (2-5 pawns, 8 knight, 9 bishop, 10 rook, queen, king).
    Piece(Role),
    /// A checker (6 and 7).
    Checker,
}

/// One chess card: the side whose pieces it matches (red cards White, black cards Black) and
/// its face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Card {
    pub side: Seat,
    pub face: Face,
}

impl Card {
    /// The card of a piece.
    pub fn piece(side: Seat, role: Role) -> Card {
        Card {
            side,
            face: Face::Piece(role),
        }
    }

    /// The piece the card matches, if it is not a checker card.
    pub fn role(self) -> Option<Role> {
        match self.face {
            Face::Piece(r) => Some(r),
            Face::Checker => None,
        }
    }

    /// The whole deck of chess cards, White's then Black's: for each colour eight pawns, two
    /// knights, two bishops, two rooks, a queen, a king and four checkers.
    pub fn deck() -> Vec<Card> {
        let mut cards = Vec::with_capacity(40);
        for side in [Seat::WHITE, Seat::BLACK] {
            for (role, count) in [
                (Role::Pawn, 8),
                (Role::Knight, 2),
                (Role::Bishop, 2),
                (Role::Rook, 2),
                (Role::Queen, 1),
                (Role::King, 1),
            ] {
                cards.extend(std::iter::repeat_n(Card::piece(side, role), count));
            }
            cards.extend(std::iter::repeat_n(
                Card {
                    side,
                    face: Face::Checker,
                },
                4,
            ));
        }
        cards
    }

    /// How many empty squares to leave before placing this card's piece when cards lay out a
    /// board (Appendix A's gap column): knight 1, bishop 2, rook 3, queen 5, king 6. Pawns and
    /// checkers have none.
    pub fn gap(self) -> Option<u8> {
        match self.face {
            Face::Piece(Role::Knight) => Some(1),
            Face::Piece(Role::Bishop) => Some(2),
            Face::Piece(Role::Rook) => Some(3),
            Face::Piece(Role::Queen) => Some(5),
            Face::Piece(Role::King) => Some(6),
            _ => None,
        }
    }

    /// Reads a card as written: a piece letter, upper case for White (red) and lower case for
    /// Black, or `C`/`c` for a checker.
    pub fn from_letter(c: char) -> Option<Card> {
        let side = if c.is_ascii_uppercase() {
            Seat::WHITE
        } else {
            Seat::BLACK
        };
        let face = match c.to_ascii_uppercase() {
            'C' => Face::Checker,
            other => Face::Piece(Role::from_char(other)?),
        };
        Some(Card { side, face })
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = match self.face {
            Face::Piece(r) => r.upper_char(),
            Face::Checker => 'C',
        };
        let c = if self.side == Seat::WHITE {
            c
        } else {
            c.to_ascii_lowercase()
        };
        write!(f, "{c}")
    }
}

/// `cards` in an order drawn from `seed` (the game's seeded RNG, so a stored game deals the
/// same again).
pub fn shuffled(mut cards: Vec<Card>, seed: u64) -> Vec<Card> {
    cards.shuffle(&mut ChaCha8Rng::seed_from_u64(seed ^ 0x00ca_2d5e_ed00));
    cards
}

/// The next seed from a game's stream of seeds (`stream`, kept in its state so a stored game
/// shuffles and draws exactly as it would have): for reshuffles and random placements after
/// the first deal.
pub fn next_seed(stream: &mut u64) -> u64 {
    *stream = stream.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *stream;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Deals the cards of `piles` again from `seed`, each pile keeping its size: the piles a
/// viewer cannot see (an opponent's hand, the draw pile) as that viewer may take them to be,
/// for a computer player's guess at a hidden state (see [`crate::game::Game::determinize`]).
///
/// The cards are gathered and sorted before they are shuffled, so the deal depends only on
/// which cards the piles hold together, never on where they lay: what the viewer sees (the
/// cards missing from view, the sizes of the piles) decides it. The piles are dealt in order,
/// card by card; each place takes, of the cards left in the shuffled stock, the first that
/// `misfit` scores lowest, given the pile's index, the cards it has been dealt so far and the
/// card: 0 for a card the place may hold, more for one the rules make less likely or rule
/// out (a king card in a hand where kings are never held). A pile with strict demands is
/// best dealt first.
///
/// ```
/// use engine::cards::{redeal, Card};
/// use engine::{Role, Seat};
///
/// let king = Card::piece(Seat::WHITE, Role::King);
/// let pawn = Card::piece(Seat::WHITE, Role::Pawn);
/// let (mut hand, mut draw) = (vec![king], vec![pawn, pawn]);
/// let (mut hand2, mut draw2) = (vec![pawn], vec![king, pawn]);
/// // Kings are never held: the hand gets a pawn, however the cards lay.
/// let no_kings = |pile: usize, _: &[Card], c: Card| u8::from(pile == 0 && c == king);
/// redeal(&mut [&mut hand, &mut draw], 7, no_kings);
/// redeal(&mut [&mut hand2, &mut draw2], 7, no_kings);
/// assert_eq!(hand, vec![pawn]);
/// assert_eq!((hand, draw), (hand2, draw2));
/// ```
pub fn redeal(
    piles: &mut [&mut Vec<Card>],
    seed: u64,
    misfit: impl Fn(usize, &[Card], Card) -> u8,
) {
    let mut stock: Vec<Card> = piles.iter().flat_map(|p| p.iter().copied()).collect();
    stock.sort();
    let mut stock = shuffled(stock, seed);
    for (i, pile) in piles.iter_mut().enumerate() {
        let size = pile.len();
        pile.clear();
        for _ in 0..size {
            let best = (0..stock.len())
                .min_by_key(|&k| misfit(i, pile.as_slice(), stock[k]))
                .expect("the piles' own cards fill every place");
            pile.push(stock.remove(best));
        }
    }
}

/// Who may see the faces of a pile's cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Visibility {
    /// Everyone: cards face up on the table.
    FaceUp,
    /// Only the seat holding them: a hand, or cards played face down by their owner.
    Held(Seat),
    /// Nobody: a draw pile, or cards removed unseen.
    FaceDown,
}

/// Cards together, with who may see them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pile {
    pub visibility: Visibility,
    pub cards: Vec<Card>,
}

impl Pile {
    pub fn new(visibility: Visibility, cards: Vec<Card>) -> Pile {
        Pile { visibility, cards }
    }

    /// Whether `viewer` may see the cards' faces.
    pub fn visible_to(&self, viewer: Viewer) -> bool {
        match self.visibility {
            Visibility::FaceUp => true,
            Visibility::Held(owner) => viewer == Viewer::Seat(owner),
            Visibility::FaceDown => false,
        }
    }

    /// The pile as `viewer` sees it: each card's face, or `None` for a back.
    pub fn seen_by(&self, viewer: Viewer) -> Vec<Option<Card>> {
        let visible = self.visible_to(viewer);
        self.cards.iter().map(|&c| visible.then_some(c)).collect()
    }

    /// Takes one `card` out of the pile, if it holds one.
    pub fn take(&mut self, card: Card) -> Option<Card> {
        let i = self.cards.iter().position(|&c| c == card)?;
        Some(self.cards.remove(i))
    }

    /// Whether the pile holds `card`.
    pub fn contains(&self, card: Card) -> bool {
        self.cards.contains(&card)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deck_matches_appendix_a() {
        let deck = Card::deck();
        for side in [Seat::WHITE, Seat::BLACK] {
            let count = |face: Face| {
                deck.iter()
                    .filter(|c| c.side == side && c.face == face)
                    .count()
            };
            assert_eq!(count(Face::Piece(Role::Pawn)), 8);
            assert_eq!(count(Face::Piece(Role::Knight)), 2);
            assert_eq!(count(Face::Piece(Role::Queen)), 1);
            assert_eq!(count(Face::Checker), 4);
        }
    }

    #[test]
    fn a_shuffle_is_the_same_for_the_same_seed_and_keeps_every_card() {
        let a = shuffled(Card::deck(), 7);
        assert_eq!(a, shuffled(Card::deck(), 7));
        assert_ne!(a, shuffled(Card::deck(), 8));
        let mut sorted = a.clone();
        sorted.sort();
        let mut deck = Card::deck();
        deck.sort();
        assert_eq!(sorted, deck);
    }

    #[test]
    fn face_down_cards_are_backs_for_everyone() {
        let pile = Pile::new(
            Visibility::FaceDown,
            vec![Card::piece(Seat::WHITE, Role::King)],
        );
        assert_eq!(pile.seen_by(Viewer::Seat(Seat::WHITE)), vec![None]);
        assert_eq!(pile.seen_by(Viewer::Spectator), vec![None]);
        let up = Pile::new(Visibility::FaceUp, pile.cards.clone());
        assert_eq!(up.seen_by(Viewer::Spectator), vec![Some(pile.cards[0])]);
    }
}
