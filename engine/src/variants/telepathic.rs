//! Telepathic Chess (Don Kirkby, Chess Kit, "Telepathic Chess"): four players, two teams of
//! two, each team one mover and one predictor who swap every turn.
//!
//! - Each team has seven cards: pawn, knight, bishop, rook, queen, king and checker. The
//!   predictor holds them and starts with the pawn card face up on the team's side.
//! - On the team's turn the predictor plays a card face down beside the face-up one: a piece
//!   card predicts the piece type the mover will move; the checker is a copy of the face-up
//!   card. Then the mover makes any legal chess move.
//! - The face-down card is turned over. If the moved type matches it the team pulls the
//!   trophy toward its side; if it matches the face-up card nothing happens; if neither, the
//!   trophy is pushed away. The trophy stands beside the middle or beside either side; pushed
//!   or pulled past a side, the team that side's trophy beat removes one of its pieces and the
//!   trophy goes back to the middle.
//! - The mover takes the hand and picks up one card from the table: the checker if one of the
//!   two is, otherwise the card that started the turn face up. The other card stays face up.
//!   The mover predicts on the team's next turn.
//! - A team that has lost eight pieces (taken or removed) plays without a face-up card: only
//!   the face-down prediction, which pulls when it matches and pushes when it does not.
//! - Capture the king to win: a piece removed after a move can leave a king open to capture.
//!
//! Interpretations (also in the rules text): players 1 and 3 play White, 2 and 4 Black;
//! players 1 and 2 move first and their partners predict; the team that must remove a piece
//! chooses it by the player who moves next for it, and the king cannot be removed (a team
//! with only its king left removes nothing); once a team has no face-up card its checker card
//! copies nothing, so it cannot be played; a mover who has no legal move is checkmated (in
//! check) or stalemated, as in chess; fifty moves each without a capture or pawn move, a
//! position seen three times, or too little material to mate draws.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::board::Cell;
use crate::cards::{Card, Face, Pile, Visibility};
use crate::chess::{Move, MoveParseError, Position, Role, Seat};
use crate::game::{
    EndReason, Event, Family, Game, GameError, Options, Outcome, Prompt, PromptKind, VariantInfo,
};
use crate::view::{CardRow, SeatLine, View, Viewer};

use super::chess::{
    board_view, counting_draws, fen_option, start_from_options, stored_position, texts_among_moves,
    MaybeMove,
};

/// Telepathic Chess.
pub struct Telepathic;

/// Each team's seven cards, in the order a hand is shown.
pub const CARDS: [Face; 7] = [
    Face::Piece(Role::Pawn),
    Face::Piece(Role::Knight),
    Face::Piece(Role::Bishop),
    Face::Piece(Role::Rook),
    Face::Piece(Role::Queen),
    Face::Piece(Role::King),
    Face::Checker,
];

/// Pieces a team loses before it plays without a face-up card.
pub const LOSSES_WITHOUT_FACE_UP: u8 = 8;

const NAMES: [&str; 4] = ["White 1", "Black 1", "White 2", "Black 2"];

/// One thing a player does in Telepathic Chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TelepathicAction {
    /// The predictor plays a card face down.
    Predict(Face),
    /// The mover's chess move.
    Move(Move),
    /// The team the trophy beat takes one of its pieces off the board.
    Remove(Cell),
}

impl MaybeMove for TelepathicAction {
    fn chess_move(&self) -> Option<Move> {
        match self {
            TelepathicAction::Move(m) => Some(*m),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Phase {
    Predict,
    Move,
    /// `team` removes one of its pieces.
    Remove {
        team: Seat,
    },
}

/// Where the trophy stands: -1 beside Black's side, 0 the middle, 1 beside White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trophy(pub i8);

impl Trophy {
    fn describe(self) -> &'static str {
        match self.0 {
            1 => "beside White's side",
            -1 => "beside Black's side",
            _ => "in the middle",
        }
    }
}

/// The state of a game of Telepathic Chess.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TelepathicState {
    #[serde(with = "stored_position")]
    position: Position,
    phase: Phase,
    /// The player who moves on each team's next turn (the other predicts).
    mover: [Seat; 2],
    /// Each team's card face up on the table (none once it has lost eight pieces).
    face_up: [Option<Face>; 2],
    /// The prediction lying face down this turn.
    face_down: Option<Face>,
    trophy: Trophy,
    /// Pieces each team has lost, taken or removed.
    lost: [u8; 2],
    /// Repetition keys since the last capture, pawn move or removal.
    repetitions: Vec<u64>,
    moves: Vec<String>,
    last_move: Vec<Cell>,
    result: Option<Outcome>,
}

/// The team a player is on.
fn team_of(player: Seat) -> Seat {
    Seat(player.0 % 2)
}

/// A player's partner.
fn partner(player: Seat) -> Seat {
    Seat((player.0 + 2) % 4)
}

fn card_name(face: Face) -> &'static str {
    match face {
        Face::Piece(r) => r.name(),
        Face::Checker => "checker",
    }
}

impl TelepathicState {
    /// A game from `position` (White to move), both teams with the pawn card face up.
    pub fn new(position: Position) -> TelepathicState {
        let team = position.turn();
        let mut state = TelepathicState {
            repetitions: vec![position.repetition_key()],
            position,
            phase: Phase::Predict,
            mover: [Seat(0), Seat(1)],
            face_up: [Some(Face::Piece(Role::Pawn)); 2],
            face_down: None,
            trophy: Trophy(0),
            lost: [0, 0],
            moves: Vec::new(),
            last_move: Vec::new(),
            result: None,
        };
        state.start_turn(team);
        state
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Where the trophy stands.
    pub fn trophy(&self) -> Trophy {
        self.trophy
    }

    /// Pieces each team has lost.
    pub fn lost(&self) -> [u8; 2] {
        self.lost
    }

    /// The team whose turn it is.
    fn team(&self) -> Seat {
        self.position.turn()
    }

    fn predictor(&self) -> Seat {
        partner(self.mover[self.team().index()])
    }

    /// The player whose card lies face down. A move that captured the king has already passed
    /// the turn to the beaten team (left without a king), but the card is still that of the
    /// capturing team's predictor, the partner of the player who moved.
    fn face_down_owner(&self) -> Seat {
        let team = self.team();
        if self.position.king(team).is_none() {
            partner(self.mover[team.opponent().index()])
        } else {
            self.predictor()
        }
    }

    /// The cards in a team's hand: the seven less those on the table.
    fn hand(&self, team: Seat) -> Vec<Face> {
        let down = if team_of(self.face_down_owner()) == team {
            self.face_down
        } else {
            None
        };
        CARDS
            .into_iter()
            .filter(|&f| Some(f) != self.face_up[team.index()] && Some(f) != down)
            .collect()
    }

    /// The state as `seat` may take it to be (see [`Game::determinize`]): the prediction
    /// lying face down, seen by its predictor alone (not even by his partner the mover), is
    /// replaced by a card drawn among those he could have played. The hands are the cards not
    /// on the table, so they follow.
    fn determinized(&self, seat: Seat, seed: u64) -> TelepathicState {
        let mut sample = self.clone();
        if self.face_down.is_some() && seat != self.predictor() {
            sample.face_down = None;
            let playable = sample.playable(self.team());
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            sample.face_down = playable.choose(&mut rng).copied();
        }
        sample
    }

    /// Who holds a team's hand: its predictor (the player who moves next hands it over after
    /// moving).
    fn holder(&self, team: Seat) -> Seat {
        partner(self.mover[team.index()])
    }

    fn to_act(&self) -> Option<Seat> {
        if self.result.is_some() {
            return None;
        }
        Some(match self.phase {
            Phase::Predict => self.predictor(),
            Phase::Move => self.mover[self.team().index()],
            Phase::Remove { team } => self.mover[team.index()],
        })
    }

    /// The mover's moves: legal chess moves, and any capture of the enemy king a removal has
    /// left open.
    fn chess_moves(&self) -> Vec<Move> {
        let mut moves: Vec<Move> = self.position.legal_moves().into_iter().collect();
        if let Some(king) = self.position.king(self.team().opponent()) {
            let captures: Vec<Move> = self
                .position
                .pseudo_legal_moves()
                .into_iter()
                .filter(|m| m.to == king && !moves.contains(m))
                .collect();
            moves.extend(captures);
        }
        moves
    }

    /// The pieces `team` may remove: any but its king.
    fn removable(&self, team: Seat) -> Vec<Cell> {
        self.position
            .pieces()
            .filter(|(_, p)| p.seat == team && p.role != Role::King)
            .map(|(c, _)| c)
            .collect()
    }

    fn actions(&self, seat: Seat) -> Vec<TelepathicAction> {
        if self.to_act() != Some(seat) {
            return Vec::new();
        }
        match self.phase {
            Phase::Predict => self
                .playable(self.team())
                .into_iter()
                .map(TelepathicAction::Predict)
                .collect(),
            Phase::Move => self
                .chess_moves()
                .into_iter()
                .map(TelepathicAction::Move)
                .collect(),
            Phase::Remove { team } => self
                .removable(team)
                .into_iter()
                .map(TelepathicAction::Remove)
                .collect(),
        }
    }

    /// The cards the predictor may play: his hand, less the checker when there is no face-up
    /// card for it to copy.
    fn playable(&self, team: Seat) -> Vec<Face> {
        let has_face_up = self.face_up[team.index()].is_some();
        self.hand(team)
            .into_iter()
            .filter(|&f| f != Face::Checker || has_face_up)
            .collect()
    }

    fn parse_card(text: &str) -> Result<Face, String> {
        let word = text.trim().to_ascii_lowercase();
        let word = word.strip_prefix("card ").unwrap_or(&word).trim();
        if matches!(word, "c" | "checker" | "copy") {
            return Ok(Face::Checker);
        }
        let role = Role::ALL
            .iter()
            .copied()
            .find(|r| r.name() == word)
            .or_else(|| {
                let mut chars = word.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => Role::from_char(c),
                    _ => None,
                }
            });
        role.map(Face::Piece).ok_or_else(|| {
            format!(
                "'{}' is not a card: the cards are P, N, B, R, Q, K and C (checker)",
                text.trim()
            )
        })
    }

    fn parse(&self, seat: Seat, text: &str) -> Result<TelepathicAction, GameError> {
        let refuse = |reason: String| {
            GameError::Move(MoveParseError::Illegal {
                text: text.trim().into(),
                reason,
            })
        };
        if self.to_act() != Some(seat) {
            return Err(GameError::NotYourTurn(self.waiting_text()));
        }
        match self.phase {
            Phase::Predict => {
                let face = TelepathicState::parse_card(text).map_err(refuse)?;
                let team = self.team();
                if Some(face) == self.face_up[team.index()] {
                    return Err(refuse(format!(
                        "your {} card lies face up; play a card from your hand",
                        card_name(face)
                    )));
                }
                if face == Face::Checker && self.face_up[team.index()].is_none() {
                    return Err(refuse(
                        "your team has no face-up card for the checker to copy; predict a piece"
                            .into(),
                    ));
                }
                Ok(TelepathicAction::Predict(face))
            }
            Phase::Move => {
                let moves = self.chess_moves();
                self.position
                    .parse_move_among(text.trim(), &moves)
                    .map(TelepathicAction::Move)
                    .map_err(GameError::Move)
            }
            Phase::Remove { team } => {
                let word = text.trim().to_ascii_lowercase();
                let word = word.strip_prefix("remove").unwrap_or(&word).trim();
                let board = self.position.board();
                let cell = board.cell(word).ok_or_else(|| {
                    refuse(format!(
                        "name the square of the piece to remove, like '{}'",
                        self.removable(team)
                            .first()
                            .map_or("a2".to_string(), |&c| board.label(c).to_string())
                    ))
                })?;
                match self.position.piece_at(cell) {
                    Some(p) if p.seat == team && p.role == Role::King => {
                        Err(refuse("the king cannot be removed".into()))
                    }
                    Some(p) if p.seat == team => Ok(TelepathicAction::Remove(cell)),
                    _ => Err(refuse(format!(
                        "there is no {} piece on {word} to remove",
                        team.colour_name()
                    ))),
                }
            }
        }
    }

    fn action_text(&self, action: &TelepathicAction) -> String {
        match *action {
            TelepathicAction::Predict(face) => match face {
                Face::Piece(r) => r.upper_char().to_string(),
                Face::Checker => "C".into(),
            },
            TelepathicAction::Move(m) => self.position.san_plain_among(m, &self.chess_moves()),
            TelepathicAction::Remove(cell) => {
                format!("remove {}", self.position.board().label(cell))
            }
        }
    }

    fn waiting_text(&self) -> String {
        match self.to_act() {
            None => "the game is over".into(),
            Some(seat) => match self.phase {
                Phase::Predict => format!("{} is predicting", NAMES[seat.index()]),
                Phase::Move => format!("{} is moving", NAMES[seat.index()]),
                Phase::Remove { .. } => {
                    format!("{} is choosing a piece to remove", NAMES[seat.index()])
                }
            },
        }
    }

    fn apply(&mut self, seat: Seat, action: TelepathicAction) -> Result<Vec<Event>, GameError> {
        if !self.actions(seat).contains(&action) {
            return Err(GameError::Move(MoveParseError::Illegal {
                text: self.action_text(&action),
                reason: "it is not a possible choice now".into(),
            }));
        }
        let mut events = Vec::new();
        match action {
            TelepathicAction::Predict(face) => {
                self.face_down = Some(face);
                self.phase = Phase::Move;
                events.push(Event::Public(format!(
                    "{} plays a prediction card face down. {} to move.",
                    NAMES[seat.index()],
                    NAMES[self.mover[self.team().index()].index()]
                )));
                events.push(Event::Private {
                    seat,
                    text: format!("You predicted: {}.", card_name(face)),
                });
            }
            TelepathicAction::Move(m) => events.extend(self.play_move(seat, m)),
            TelepathicAction::Remove(cell) => {
                let Phase::Remove { team } = self.phase else {
                    unreachable!("actions() allows removal only in the removal phase");
                };
                let piece = self.position.piece_at(cell);
                self.remove(team, cell);
                events.push(Event::Public(format!(
                    "{} removes the {} on {}; the trophy goes back to the middle.",
                    NAMES[seat.index()],
                    piece.map_or("piece", |p| p.role.name()),
                    self.position.board().label(cell)
                )));
                let next = self.team();
                events.extend(self.start_turn(next));
            }
        }
        if let Some(o) = &self.result {
            events.push(Event::GameOver(o.clone()));
        }
        Ok(events)
    }

    fn remove(&mut self, team: Seat, cell: Cell) {
        self.position.set_piece(cell, None);
        self.lost[team.index()] += 1;
        self.trophy = Trophy(0);
        self.repetitions = vec![self.position.repetition_key()];
    }

    fn play_move(&mut self, seat: Seat, m: Move) -> Vec<Event> {
        let team = self.team();
        let moves = self.chess_moves();
        let mut written = self.position.san_plain_among(m, &moves);
        let moved = self
            .position
            .piece_at(m.from)
            .map_or(Role::Pawn, |p| p.role);
        let captured = self.position.is_capture(m);
        let took_king = self.position.king(team.opponent()) == Some(m.to);
        self.position.play_unchecked(m);
        if captured {
            self.lost[team.opponent().index()] += 1;
        }
        if captured || moved == Role::Pawn {
            self.repetitions.clear();
        }
        self.repetitions.push(self.position.repetition_key());
        self.last_move = vec![m.from, m.to];
        if self.position.seat_in_check(team.opponent()) {
            // The book asks players to say "check" although kings are captured.
            written.push('+');
        }
        let line = format!("{}: {written}", NAMES[seat.index()]);
        self.moves.push(line.clone());
        let mut events = vec![Event::Public(line)];
        if took_king {
            self.result = Some(Outcome::win(
                vec![team, partner(team)],
                EndReason::KingCaptured,
            ));
            return events;
        }
        // Turn the prediction over.
        let down = self.face_down.take().unwrap_or(Face::Checker);
        let up = self.face_up[team.index()];
        let copy = if down == Face::Checker {
            up
        } else {
            Some(down)
        };
        let (verdict, step) = if copy == Some(Face::Piece(moved)) {
            ("matches the face-down card: the trophy is pulled", 1)
        } else if up == Some(Face::Piece(moved)) {
            ("matches the face-up card: the trophy stays", 0)
        } else {
            ("matches neither card: the trophy is pushed away", -1)
        };
        let toward_white = if team == Seat::WHITE { step } else { -step };
        let mut text = format!(
            "{} had predicted {}; the {} move {verdict}",
            NAMES[partner(seat).index()],
            card_name(down),
            moved.name()
        );
        let place = self.trophy.0 + toward_white;
        let beaten = match place {
            2 => Some(Seat::BLACK),
            -2 => Some(Seat::WHITE),
            _ => None,
        };
        // The mover takes the hand and picks up a card; the other stays face up.
        self.face_up[team.index()] = match (up, down) {
            (_, _) if self.lost[team.index()] >= LOSSES_WITHOUT_FACE_UP => None,
            (_, Face::Checker) => up,
            (Some(_), _) => Some(down),
            (None, _) => None,
        };
        // The mover predicts next time.
        self.mover[team.index()] = partner(seat);
        match beaten {
            Some(loser) if !self.removable(loser).is_empty() => {
                text.push_str(&format!(
                    " past {}'s side: {} must remove a piece.",
                    loser.opponent().colour_name(),
                    loser.colour_name()
                ));
                self.trophy = Trophy(0);
                self.phase = Phase::Remove { team: loser };
                events.push(Event::Public(text));
                return events;
            }
            Some(loser) => {
                text.push_str(&format!(
                    " past {}'s side, but {} has only its king: the trophy goes back to the \
                     middle.",
                    loser.opponent().colour_name(),
                    loser.colour_name()
                ));
                self.trophy = Trophy(0);
            }
            None => {
                self.trophy = Trophy(place);
                text.push_str(&format!(" (now {}).", self.trophy.describe()));
            }
        }
        events.push(Event::Public(text));
        events.extend(self.start_turn(team.opponent()));
        events
    }

    /// Begins `team`'s turn: the game may be over, and a team that has lost eight pieces
    /// takes its face-up card back.
    fn start_turn(&mut self, team: Seat) -> Vec<Event> {
        self.position.set_turn(team);
        self.phase = Phase::Predict;
        let mut events = Vec::new();
        if self.lost[team.index()] >= LOSSES_WITHOUT_FACE_UP
            && self.face_up[team.index()].take().is_some()
        {
            events.push(Event::Public(format!(
                "{} has lost eight pieces and plays on without a face-up card.",
                team.colour_name()
            )));
        }
        let winners = |t: Seat| vec![t, partner(t)];
        if self.chess_moves().is_empty() {
            self.result = Some(if self.position.is_check() {
                Outcome::win(winners(team.opponent()), EndReason::Checkmate)
            } else {
                Outcome::draw(EndReason::Stalemate)
            });
        } else if self.too_little_to_capture_a_king() {
            self.result = Some(Outcome::draw(EndReason::InsufficientMaterial));
        } else if let Some(draw) = counting_draws(&self.position, &self.repetitions) {
            self.result = Some(draw);
        }
        events
    }

    /// Whether no king can ever be taken: bare kings, or one knight or bishop besides. (Chess's
    /// wider rule, bishops all on one colour, does not hold here: a removal can open a king.)
    fn too_little_to_capture_a_king(&self) -> bool {
        let others: Vec<Role> = self
            .position
            .pieces()
            .map(|(_, p)| p.role)
            .filter(|&r| r != Role::King)
            .collect();
        matches!(others.as_slice(), [] | [Role::Knight] | [Role::Bishop])
    }

    fn prompts(&self) -> Vec<Prompt> {
        let Some(seat) = self.to_act() else {
            return Vec::new();
        };
        let team = self.team();
        let prompt = match self.phase {
            Phase::Predict => Prompt {
                seat,
                kind: PromptKind::Secret,
                text: match self.face_up[team.index()] {
                    Some(up) => format!(
                        "predict {}'s move: play a card face down (face up: {}; C copies it)",
                        NAMES[self.mover[team.index()].index()],
                        card_name(up)
                    ),
                    None => format!(
                        "predict {}'s move: play a card face down",
                        NAMES[self.mover[team.index()].index()]
                    ),
                },
            },
            Phase::Move => Prompt {
                seat,
                kind: PromptKind::Move,
                text: format!("{} to move", NAMES[seat.index()]),
            },
            Phase::Remove { team } => Prompt {
                seat,
                kind: PromptKind::Move,
                text: format!(
                    "remove one of {}'s pieces (not the king), like /move remove {}",
                    team.colour_name(),
                    self.removable(team)
                        .first()
                        .map_or("", |&c| self.position.board().label(c))
                ),
            },
        };
        vec![prompt]
    }

    /// The cards as `viewer` sees them: each team's face-up card, the face-down prediction
    /// (its face to the predictor only) and each hand (to its holder only).
    fn card_rows(&self, viewer: Viewer) -> Vec<CardRow> {
        let mut rows = Vec::new();
        for team in [Seat::WHITE, Seat::BLACK] {
            let card = |f: Face| Card {
                side: team,
                face: f,
            };
            let mut table: Vec<Option<Card>> = self.face_up[team.index()]
                .map(card)
                .into_iter()
                .map(Some)
                .collect();
            if team_of(self.face_down_owner()) == team {
                if let Some(down) = self.face_down {
                    let pile =
                        Pile::new(Visibility::Held(self.face_down_owner()), vec![card(down)]);
                    table.extend(pile.seen_by(viewer));
                }
            }
            rows.push(CardRow {
                title: format!("{} on the table", team.colour_name()),
                cards: table,
            });
            let hand = Pile::new(
                Visibility::Held(self.holder(team)),
                self.hand(team).into_iter().map(card).collect(),
            );
            rows.push(CardRow {
                title: format!("{} hand", team.colour_name()),
                cards: hand.seen_by(viewer),
            });
        }
        rows
    }

    fn status(&self) -> String {
        if let Some(o) = &self.result {
            return o.to_string();
        }
        format!(
            "{}. Trophy {}; lost: White {}, Black {}",
            self.waiting_text(),
            self.trophy.describe(),
            self.lost[0],
            self.lost[1]
        )
    }
}

impl Game for Telepathic {
    type State = TelepathicState;
    type Action = TelepathicAction;

    fn info(&self) -> &VariantInfo {
        static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
        INFO.get_or_init(|| VariantInfo {
            id: "telepathic",
            aliases: &["telepathic-chess"],
            name: "Telepathic Chess",
            family: Family::Chess,
            seat_counts: &[4],
            options: vec![fen_option()],
            hidden_information: true,
            simultaneous: false,
            rules: "Four players: players 1 and 3 are White, 2 and 4 Black. On each team's \
                    turn one partner predicts and the other moves, and they swap every turn. \
                    Each team has seven cards (P N B R Q K and C, the checker) and starts with \
                    the pawn card face up. The predictor plays a card face down (/secret N); \
                    the checker copies the face-up card. The mover then makes any legal chess \
                    move. If the moved piece type matches the face-down card the team pulls the \
                    trophy toward its side; matching the face-up card leaves it; matching \
                    neither pushes it away. Past a side, the team that side beat removes one of \
                    its pieces (/move remove e7) and the trophy returns to the middle. The \
                    mover picks up the checker if it was played, or else the old face-up card; \
                    the other card stays face up. After losing eight pieces a team plays only \
                    the face-down card. Capture the king to win. Interpretations: players 1 \
                    and 2 move first; the removing team's next mover chooses, never the king; \
                    without a face-up card the checker cannot be played; no legal move is \
                    checkmate or stalemate; the fifty-move rule, threefold repetition and bare \
                    material draw.",
            source: "Chess Kit, 'Telepathic Chess'",
        })
    }

    fn setup(
        &self,
        options: &Options,
        _seats: usize,
        _seed: u64,
    ) -> Result<TelepathicState, GameError> {
        Ok(TelepathicState::new(start_from_options(options)?))
    }

    fn prompts(&self, state: &TelepathicState) -> Vec<Prompt> {
        state.prompts()
    }

    fn legal(&self, state: &TelepathicState, seat: Seat) -> Vec<TelepathicAction> {
        state.actions(seat)
    }

    fn legal_texts(&self, state: &TelepathicState, seat: Seat) -> Vec<String> {
        texts_among_moves(&state.position, &state.actions(seat), |a| {
            state.action_text(a)
        })
    }

    fn action_text(&self, state: &TelepathicState, action: &TelepathicAction) -> String {
        state.action_text(action)
    }

    fn parse(
        &self,
        state: &TelepathicState,
        seat: Seat,
        text: &str,
    ) -> Result<TelepathicAction, GameError> {
        state.parse(seat, text)
    }

    fn apply(
        &self,
        state: &mut TelepathicState,
        seat: Seat,
        action: TelepathicAction,
    ) -> Result<Vec<Event>, GameError> {
        state.apply(seat, action)
    }

    fn view(&self, state: &TelepathicState, viewer: Viewer) -> View {
        let mut view = board_view(self.info().id, &state.position, viewer);
        view.bottom = match viewer {
            Viewer::Seat(s) => team_of(s),
            Viewer::Spectator => Seat::WHITE,
        };
        view.players = NAMES.iter().map(|n| n.to_string()).collect();
        view.table = (0..4u8)
            .map(Seat)
            .map(|player| {
                let team = team_of(player);
                let role = if state.mover[team.index()] == player {
                    "moves"
                } else {
                    "predicts"
                };
                SeatLine {
                    player,
                    army: team,
                    side: NAMES[player.index()].into(),
                    status: Some(role.into()),
                }
            })
            .collect();
        view.status = state.status();
        view.last_move = state.last_move.clone();
        view.to_act = state.to_act().into_iter().collect();
        view.checks = [Seat::WHITE, Seat::BLACK]
            .into_iter()
            .filter(|&t| state.position.seat_in_check(t))
            .filter_map(|t| state.position.king(t))
            .collect();
        view.cards = state.card_rows(viewer);
        view
    }

    fn outcome(&self, state: &TelepathicState) -> Option<Outcome> {
        state.result.clone()
    }

    fn concede(
        &self,
        _state: &TelepathicState,
        seat: Seat,
        _seats: usize,
        reason: EndReason,
    ) -> Outcome {
        let winners = team_of(seat).opponent();
        Outcome::win(vec![winners, partner(winners)], reason)
    }

    fn seat_name(&self, _state: &TelepathicState, seat: Seat) -> String {
        NAMES
            .get(seat.index())
            .map_or_else(|| seat.colour_name(), |n| n.to_string())
    }

    fn determinize(&self, state: &TelepathicState, seat: Seat, seed: u64) -> TelepathicState {
        state.determinized(seat, seed)
    }

    fn secret_history(&self, state: &TelepathicState) -> Vec<String> {
        state
            .face_down
            .map(|f| {
                format!(
                    "{} had predicted {} when the game ended.",
                    NAMES[state.face_down_owner().index()],
                    card_name(f)
                )
            })
            .into_iter()
            .collect()
    }

    fn waiting_reason(&self, state: &TelepathicState, seat: Seat) -> Option<String> {
        (state.to_act() != Some(seat) && state.result.is_none()).then(|| state.waiting_text())
    }
}

#[cfg(test)]
mod tests;
