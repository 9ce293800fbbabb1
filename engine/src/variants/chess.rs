//! Chess, by the FIDE Laws: the game every other chess variant changes; with `board=cylinder`,
//! Adams' Cylindrical Chess (the a- and h-files touch; castling, promotion and the draws by
//! material unchanged, en passant across the edge too, as interpretations).
//!
//! Draws by the fifty-move rule and threefold repetition are applied automatically, since in
//! a game played over days nobody is waiting at the board to claim them.

use serde::{Deserialize, Serialize};

use crate::board::Cell;
use crate::chess::{
    divide, parse_setup, perft, KingRule, Move, MoveKind, NotationStyle, Position, Rules,
    RulesSpec, Seat,
};
use crate::game::{
    EndReason, Event, Family, Game, GameError, OptionSpec, OptionValues, Options, Outcome, Prompt,
    PromptKind, VariantInfo,
};
use crate::view::{Figure, Placed, View, Viewer};

/// Standard chess.
pub struct Chess;

/// The state of a game of chess or of any variant played with the unchanged chess rules
/// from another start (Chess960).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChessState {
    #[serde(with = "stored_position")]
    position: Position,
    /// The position the game started from.
    start_fen: String,
    /// Every move played, in SAN.
    moves: Vec<String>,
    /// Repetition keys of every position since the last capture or pawn move.
    repetitions: Vec<u64>,
    last_move: Option<(Cell, Cell)>,
    notation: Notation,
    /// The seed of the game's RNG (recorded so a game replays exactly).
    seed: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
enum Notation {
    Standard,
    Chess960,
}

/// Positions are stored in the engine's own form (see [`crate::chess::Position`]'s `Serialize`:
/// rules, one line of pieces per army, castling rooks, en passant chances). Games saved before
/// that, as their rules and a Shredder-FEN, still load.
pub(crate) mod stored_position {
    use super::*;
    use serde::{Deserializer, Serializer};

    #[derive(Deserialize)]
    struct Fen {
        rules: RulesSpec,
        fen: String,
    }

    pub fn serialize<S: Serializer>(pos: &Position, s: S) -> Result<S::Ok, S::Error> {
        pos.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
        use serde::de::Error;
        // Read as a value first, so each form reports its own error.
        let value = serde_json::Value::deserialize(d)?;
        if value.get("fen").is_none() {
            return serde_json::from_value(value).map_err(D::Error::custom);
        }
        let Fen { rules, fen } = serde_json::from_value(value).map_err(D::Error::custom)?;
        let rules = rules.build();
        // A stored game may have lost a king (variants where kings are captured end so).
        let setup = parse_setup(&fen, &rules).map_err(D::Error::custom)?;
        Position::from_setup_with(setup, rules, KingRule::Stored).map_err(D::Error::custom)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[derive(Serialize, Deserialize)]
        struct Holder(#[serde(with = "super")] Position);

        #[test]
        fn games_saved_as_fen_still_load_and_are_saved_in_the_own_form() {
            let old = r#"{"rules":{"board":{"Square":{"files":8,"ranks":8,"wrap":"none","holes":[],"facing":[0,2]}},"teams":[0,1]},"fen":"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"}"#;
            let Holder(pos) = serde_json::from_str(old).unwrap();
            assert_eq!(pos.fullmoves(), 2);
            let json = serde_json::to_string(&Holder(pos.clone())).unwrap();
            assert!(json.contains("\"armies\""), "{json}");
            let Holder(back) = serde_json::from_str(&json).unwrap();
            assert_eq!(back, pos);
        }
    }
}

impl ChessState {
    /// A game from a starting position.
    pub(crate) fn new(position: Position, chess960: bool, seed: u64) -> ChessState {
        ChessState {
            start_fen: position.fen(),
            repetitions: vec![position.repetition_key()],
            position,
            moves: Vec::new(),
            last_move: None,
            notation: if chess960 {
                Notation::Chess960
            } else {
                Notation::Standard
            },
            seed,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }
    /// The moves played so far, in SAN.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }
    /// The starting position as FEN.
    pub fn start_fen(&self) -> &str {
        &self.start_fen
    }

    fn style(&self) -> NotationStyle {
        match self.notation {
            Notation::Standard => NotationStyle::Standard,
            Notation::Chess960 => NotationStyle::Chess960,
        }
    }

    pub(crate) fn prompts(&self) -> Vec<Prompt> {
        move_prompt(self.position.turn(), self.outcome().is_some())
    }

    pub(crate) fn legal(&self, seat: Seat) -> Vec<Move> {
        if seat != self.position.turn() || self.outcome().is_some() {
            return Vec::new();
        }
        self.position.legal_moves().to_vec()
    }

    pub(crate) fn parse(&self, seat: Seat, text: &str) -> Result<Move, GameError> {
        if seat != self.position.turn() {
            return Err(GameError::NotYourTurn(format!(
                "{} to move",
                self.position.turn().colour_name()
            )));
        }
        Ok(self.position.parse_move(text)?)
    }

    pub(crate) fn apply(&mut self, seat: Seat, m: Move) -> Result<Vec<Event>, GameError> {
        if seat != self.position.turn() {
            return Err(GameError::NotYourTurn(format!(
                "{} to move",
                self.position.turn().colour_name()
            )));
        }
        let san = self.position.san(m);
        let number = self.position.fullmoves();
        self.position.play(m).map_err(|_| {
            GameError::Move(crate::chess::MoveParseError::Illegal {
                text: san.clone(),
                reason: "it is not a legal move in this position".into(),
            })
        })?;
        let irreversible = self.position.halfmoves() == 0;
        if irreversible {
            self.repetitions.clear();
        }
        self.repetitions.push(self.position.repetition_key());
        let (from, to) = match m.kind {
            MoveKind::Castle => (m.from, self.position.king(seat).unwrap_or(m.to)),
            _ => (m.from, m.to),
        };
        self.last_move = Some((from, to));
        let events = move_events(seat, number, &san, self.outcome());
        self.moves.push(san);
        Ok(events)
    }

    pub(crate) fn outcome(&self) -> Option<Outcome> {
        let pos = &self.position;
        if pos.legal_moves().is_empty() {
            return Some(if pos.is_check() {
                let winners = (0..pos.rules().seats() as u8)
                    .map(Seat)
                    .filter(|s| *s != pos.turn())
                    .collect();
                Outcome::win(winners, EndReason::Checkmate)
            } else {
                Outcome::draw(EndReason::Stalemate)
            });
        }
        if pos.is_insufficient_material() {
            return Some(Outcome::draw(EndReason::InsufficientMaterial));
        }
        counting_draws(pos, &self.repetitions)
    }

    pub(crate) fn view(&self, variant: &'static str, viewer: Viewer) -> View {
        let pos = &self.position;
        let outcome = self.outcome();
        let mut view = board_view(variant, pos, viewer);
        view.last_move = self.last_move.map(|(a, b)| vec![a, b]).unwrap_or_default();
        if pos.is_check() {
            view.checks = pos.king(pos.turn()).into_iter().collect();
        }
        view.status = match &outcome {
            Some(o) => o.to_string(),
            None if pos.is_check() => format!("{} to move, in check", pos.turn().colour_name()),
            None => format!("{} to move", pos.turn().colour_name()),
        };
        if outcome.is_none() {
            view.to_act = vec![pos.turn()];
        }
        view
    }

    pub(crate) fn perft(&self, depth: u32) -> u64 {
        perft(&self.position, depth)
    }

    pub(crate) fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        divide(&self.position, depth)
            .into_iter()
            .map(|(m, n)| (self.position.coordinate(m, self.style()), n))
            .collect()
    }
}

/// Who acts in a game of sides taking turns: `turn` moves, unless the game is `over`.
pub(crate) fn move_prompt(turn: Seat, over: bool) -> Vec<Prompt> {
    if over {
        return Vec::new();
    }
    vec![Prompt {
        seat: turn,
        kind: PromptKind::Move,
        text: format!("{} to move", turn.colour_name()),
    }]
}

/// The public line for a move of a two-player game, numbered as chess numbers it
/// ("White played 12. Nf3", "Black played 12... Nf6").
pub(crate) fn played_line(seat: Seat, number: u32, written: &str) -> String {
    let dots = if seat == Seat::WHITE { "." } else { "..." };
    format!("{} played {number}{dots} {written}", seat.colour_name())
}

/// What a finished move announces: the move, and the result if it ended the game.
pub(crate) fn move_events(
    seat: Seat,
    number: u32,
    written: &str,
    outcome: Option<Outcome>,
) -> Vec<Event> {
    let mut events = vec![Event::Public(played_line(seat, number, written))];
    events.extend(outcome.map(Event::GameOver));
    events
}

/// Perft over any game's actions: `legal` lists what may be done in a state and `after` does
/// one of them on a copy.
pub(crate) fn action_perft<S, A: Copy>(
    state: &S,
    depth: u32,
    legal: &impl Fn(&S) -> Vec<A>,
    after: &impl Fn(&S, A) -> S,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let actions = legal(state);
    if depth == 1 {
        return actions.len() as u64;
    }
    actions
        .into_iter()
        .map(|a| action_perft(&after(state, a), depth - 1, legal, after))
        .sum()
}

/// An action of a game that is sometimes a chess move (and sometimes a card, a throw...).
pub(crate) trait MaybeMove {
    fn chess_move(&self) -> Option<Move>;
}

/// The texts of `actions` for [`Game::legal_texts`], where a chess move is written in SAN
/// among all the moves in the list (the mover's moves in `pos`, gathered once rather than once
/// per action) and anything else by `other`.
pub(crate) fn texts_among_moves<A: MaybeMove>(
    pos: &Position,
    actions: &[A],
    other: impl Fn(&A) -> String,
) -> Vec<String> {
    let moves: Vec<Move> = actions.iter().filter_map(MaybeMove::chess_move).collect();
    actions
        .iter()
        .map(|a| match a.chess_move() {
            Some(m) => pos.san_plain_among(m, &moves),
            None => other(a),
        })
        .collect()
}

/// The draws every chess variant counts: fifty moves without capture or pawn move (in single
/// moves, as the position counts them) and a position repeated three times (`repetitions`: the
/// keys since the last irreversible move, the current one included).
pub(crate) fn counting_draws(pos: &Position, repetitions: &[u64]) -> Option<Outcome> {
    counting_draws_by(pos.halfmoves(), 100, pos.repetition_key(), repetitions)
}

/// The same draws for games of more sides or their own idea of a repeated position: fifty
/// moves are `fifty` single moves (200 for four players), and `now` is the current key.
pub(crate) fn counting_draws_by(
    halfmoves: u32,
    fifty: u32,
    now: u64,
    repetitions: &[u64],
) -> Option<Outcome> {
    if halfmoves >= fifty {
        return Some(Outcome::draw(EndReason::FiftyMoveRule));
    }
    if repetitions.iter().filter(|k| **k == now).count() >= 3 {
        return Some(Outcome::draw(EndReason::ThreefoldRepetition));
    }
    None
}

/// The board part of a view of a chess position: the geometry, the viewer's side at the bottom,
/// every piece, the seats' names and the move number. Variants fill in the rest.
pub(crate) fn board_view(variant: &'static str, pos: &Position, viewer: Viewer) -> View {
    View {
        variant,
        board: pos.rules().board_arc().clone(),
        viewer,
        bottom: match viewer {
            Viewer::Seat(s) => s,
            Viewer::Spectator => Seat::WHITE,
        },
        figures: pos
            .pieces()
            .map(|(cell, piece)| Placed::new(cell, piece.seat, Figure::Chess(piece.role)))
            .collect(),
        last_move: Vec::new(),
        checks: Vec::new(),
        to_act: Vec::new(),
        players: (0..pos.rules().seats() as u8)
            .map(|s| Seat(s).colour_name())
            .collect(),
        move_number: pos.fullmoves(),
        status: String::new(),
        panel: None,
        square_names: Vec::new(),
        table: Vec::new(),
        colours: Vec::new(),
        labels: Vec::new(),
        tinted: Vec::new(),
        cards: Vec::new(),
    }
}

/// Reads the `fen` option into a position under standard chess rules.
pub(crate) fn position_from_fen_option(fen: &str) -> Result<Position, GameError> {
    Position::from_fen(fen, Rules::chess()).map_err(|e| GameError::BadSetup(e.to_string()))
}

/// The `fen` option: a start other than the usual array.
pub(crate) fn fen_option() -> OptionSpec {
    OptionSpec {
        key: "fen",
        help: "start from this position (FEN) instead of the usual array",
        default: None,
        values: OptionValues::Text,
    }
}

/// The `board` option of the games Adams' Cylindrical Chess applies to (chess II.2): `flat`,
/// or `cylinder`, where the a- and h-files touch and sliders, knights, kings and pawns' captures
/// go round.
pub(crate) fn board_option() -> OptionSpec {
    OptionSpec {
        key: "board",
        help: "flat, or cylinder (the a- and h-files touch: pieces move round the edge)",
        default: Some("flat"),
        values: OptionValues::Choice(&["flat", "cylinder"]),
    }
}

/// The chess rules for the `board` option.
pub(crate) fn rules_for_board(options: &Options) -> std::sync::Arc<Rules> {
    if options
        .get("board")
        .is_some_and(|b| b.eq_ignore_ascii_case("cylinder"))
    {
        let board = crate::board::BoardSpec::chess().with_wrap(crate::board::Wrap::Files);
        RulesSpec::new(board, vec![0, 1]).build()
    } else {
        Rules::chess()
    }
}

/// The starting position for the `fen` and `board` options.
pub(crate) fn start_from_options(options: &Options) -> Result<Position, GameError> {
    let fen = options
        .get("fen")
        .unwrap_or("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    Position::from_fen(fen, rules_for_board(options))
        .map_err(|e| GameError::BadSetup(e.to_string()))
}

/// A game played by the unchanged rules of chess from some start: it says only what it is
/// called and where it starts, and gets the rest of [`Game`] from the shared machinery.
pub(crate) trait ChessStart: Send + Sync + 'static {
    fn info(&self) -> &VariantInfo;
    fn start(&self, options: &Options, seed: u64) -> Result<ChessState, GameError>;
}

impl<T: ChessStart> Game for T {
    type State = ChessState;
    type Action = Move;

    fn info(&self) -> &VariantInfo {
        ChessStart::info(self)
    }
    fn setup(&self, options: &Options, _seats: usize, seed: u64) -> Result<ChessState, GameError> {
        self.start(options, seed)
    }
    fn prompts(&self, state: &ChessState) -> Vec<Prompt> {
        state.prompts()
    }
    fn legal(&self, state: &ChessState, seat: Seat) -> Vec<Move> {
        state.legal(seat)
    }
    fn action_text(&self, state: &ChessState, action: &Move) -> String {
        state.position.san(*action)
    }
    fn parse(&self, state: &ChessState, seat: Seat, text: &str) -> Result<Move, GameError> {
        state.parse(seat, text)
    }
    fn apply(
        &self,
        state: &mut ChessState,
        seat: Seat,
        action: Move,
    ) -> Result<Vec<Event>, GameError> {
        state.apply(seat, action)
    }
    fn view(&self, state: &ChessState, viewer: Viewer) -> View {
        state.view(ChessStart::info(self).id, viewer)
    }
    fn outcome(&self, state: &ChessState) -> Option<Outcome> {
        state.outcome()
    }
    fn perft(&self, state: &ChessState, depth: u32) -> Option<u64> {
        Some(state.perft(depth))
    }
    fn divide(&self, state: &ChessState, depth: u32) -> Option<Vec<(String, u64)>> {
        Some(state.divide(depth))
    }
}

impl ChessStart for Chess {
    fn info(&self) -> &VariantInfo {
        static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
        INFO.get_or_init(|| VariantInfo {
            id: "chess",
            aliases: &["standard", "classical"],
            name: "Chess",
            family: Family::Chess,
            seat_counts: &[2],
            options: vec![fen_option(), board_option()],
            hidden_information: false,
            simultaneous: false,
            rules: "Standard chess. Checkmate the enemy king to win. Stalemate, insufficient \
                    material, the fifty-move rule and threefold repetition are draws, applied \
                    automatically. Castling, en passant and promotion as usual.\n\
                    board=cylinder is Adams' Cylindrical Chess: the a- and h-files touch, so \
                    bishops, rooks, queens, knights and kings move round the edge and pawns \
                    capture across it (a queen may take round the board). Interpretations (the \
                    book says only that the edges touch): castling and promotion are unchanged, \
                    en passant works across the edge too, and the usual draws by material \
                    apply.",
            source: "FIDE Laws of Chess; Will Adams, Variations on Chess and Checkers (chess II.2)",
        })
    }

    fn start(&self, options: &Options, seed: u64) -> Result<ChessState, GameError> {
        Ok(ChessState::new(start_from_options(options)?, false, seed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyGame;

    fn game_from(fen: &str) -> ChessState {
        let mut options = Options::new();
        options.set("fen", fen);
        Chess.start(&options, 0).unwrap()
    }

    fn play_all(state: &mut ChessState, moves: &str) -> Vec<Event> {
        let mut events = Vec::new();
        for text in moves.split_whitespace() {
            let seat = state.position().turn();
            events.extend(Game::play(&Chess, state, seat, text).unwrap().1);
        }
        events
    }

    #[test]
    fn checkmate_ends_the_game_and_further_moves_are_refused() {
        let mut state = Chess.start(&Options::new(), 0).unwrap();
        let events = play_all(&mut state, "f3 e5 g4 Qh4#");
        assert_eq!(
            events.last(),
            Some(&Event::GameOver(Outcome::win(
                vec![Seat::BLACK],
                EndReason::Checkmate
            )))
        );
        assert_eq!(state.moves(), ["f3", "e5", "g4", "Qh4#"]);
        assert!(Game::prompts(&Chess, &state).is_empty());
        let err = Game::play(&Chess, &mut state, Seat::WHITE, "a3").unwrap_err();
        assert_eq!(err.to_string(), "the game is over: Black wins by checkmate");
        let view = Game::view(&Chess, &state, Viewer::Spectator);
        assert_eq!(view.status, "Black wins by checkmate");
        assert_eq!(view.checks.len(), 1);
    }

    #[test]
    fn threefold_repetition_is_a_draw() {
        let mut state = Chess.start(&Options::new(), 0).unwrap();
        play_all(&mut state, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
        assert!(
            Game::outcome(&Chess, &state).is_none(),
            "twice is not enough"
        );
        let events = play_all(&mut state, "Ng8");
        assert_eq!(
            events.last(),
            Some(&Event::GameOver(Outcome::draw(
                EndReason::ThreefoldRepetition
            )))
        );
    }

    #[test]
    fn fifty_moves_without_capture_or_pawn_move_is_a_draw() {
        let mut state = game_from("8/8/4k3/8/8/4K3/8/R7 w - - 99 80");
        let events = play_all(&mut state, "Ra2");
        assert_eq!(
            events.last(),
            Some(&Event::GameOver(Outcome::draw(EndReason::FiftyMoveRule)))
        );
        // A mate on the hundredth ply still counts as mate.
        let mut state = game_from("7k/8/6K1/8/8/8/8/R7 w - - 99 80");
        let events = play_all(&mut state, "Ra8#");
        assert_eq!(
            events.last(),
            Some(&Event::GameOver(Outcome::win(
                vec![Seat::WHITE],
                EndReason::Checkmate
            )))
        );
    }

    #[test]
    fn insufficient_material_and_stalemate_are_draws() {
        let mut state = game_from("8/8/4k3/8/8/3rK3/8/8 w - - 0 1");
        let events = play_all(&mut state, "Kxd3");
        assert_eq!(
            events.last(),
            Some(&Event::GameOver(Outcome::draw(
                EndReason::InsufficientMaterial
            )))
        );
        let mut state = game_from("k7/8/8/2Q5/8/8/8/4K3 w - - 0 1");
        let events = play_all(&mut state, "Qb6");
        assert_eq!(
            events.last(),
            Some(&Event::GameOver(Outcome::draw(EndReason::Stalemate)))
        );
    }

    #[test]
    fn refusals_change_nothing_and_say_why() {
        let state = Chess.start(&Options::new(), 0).unwrap();
        let mut any = AnyGame::setup(&Chess, &Options::new(), 2, 0).unwrap();
        let before = AnyGame::save(&Chess, &any).unwrap();
        let err = AnyGame::play(&Chess, &mut any, Seat::BLACK, "e5").unwrap_err();
        assert_eq!(err.to_string(), "it is not your turn: White to move");
        let err = AnyGame::play(&Chess, &mut any, Seat::WHITE, "e5").unwrap_err();
        assert_eq!(
            err.to_string(),
            "e5 is not legal: none of your pawns can move to e5"
        );
        assert_eq!(AnyGame::save(&Chess, &any).unwrap(), before);
        assert!(Game::legal(&Chess, &state, Seat::BLACK).is_empty());
        let err = AnyGame::setup(&Chess, &Options::new(), 3, 0).unwrap_err();
        assert_eq!(err.to_string(), "Chess is played by 2 players, not 3");
        let mut bad = Options::new();
        bad.set("fen", "8/8/8/8/8/8/8/8 w - - 0 1");
        let err = AnyGame::setup(&Chess, &bad, 2, 0).unwrap_err();
        assert!(err.to_string().contains("White has no king"), "{err}");
    }

    #[test]
    fn views_show_the_board_from_the_viewers_side() {
        let mut state = Chess.start(&Options::new(), 0).unwrap();
        play_all(&mut state, "e4");
        let black = Game::view(&Chess, &state, Viewer::Seat(Seat::BLACK));
        assert_eq!(black.bottom, Seat::BLACK);
        assert_eq!(black.figures.len(), 32);
        assert_eq!(black.to_act, [Seat::BLACK]);
        let e2 = black.board.cell("e2").unwrap();
        let e4 = black.board.cell("e4").unwrap();
        assert_eq!(black.last_move, [e2, e4]);
        assert_eq!(
            Game::view(&Chess, &state, Viewer::Spectator).bottom,
            Seat::WHITE
        );
    }
}
