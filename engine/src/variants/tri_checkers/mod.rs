//! Tri-Chek, Tri-Stax and Tri-Queens (Will Adams, *Variations on Chess and Checkers*, checkers
//! V): Checkers, Stax and Queens on a hexagon of triangles for two to six players.
//!
//! - The board: side 4 (8 rows) for two, 5 (10 rows) for three or four, 6 (12 rows, the corners
//!   cut out) for five or six ([`crate::board::BoardSpec::TriHex`]); triangles are named by
//!   number, 1 up from the bottom row. Checkers stand on one colour of triangles.
//! - Moves: "non-kings in Checkers and Stax move and jump in either of two diagonally forward
//!   directions" (the two triangles of their colour ahead, touching at a corner); "kings may
//!   move and jump in any of six directions" (the six such triangles around). Tri-Queens men
//!   also jump the three triangles of the other colour ahead, "one side and one angle" (the
//!   book's Figure 13: five jumps), kings all twelve ways; everything still moves only to its
//!   own colour. Jumps are compulsory and complete; a man is crowned on the far edge, which
//!   ends its move. Stax and Queens carry jumped checkers as prisoners, as on the square board.
//! - Numbers (`numbers=on`): men numbered 1-12, shuffled; none jumps a higher number; only a
//!   king jumps a king.
//! - Players: two, three and five play cut-throat; four and six also partners, in the
//!   patterns the book names, each with its sequence of moves (`teams=`). Tri-Queens is not
//!   for three ("only by an even number of players"), but five may play it cut-throat from
//!   Figure 23 ("also the only possible setup for playing five or six player cut-throat"). The
//!   square board's cut-throat rules apply: a player with
//!   nothing that can move misses his turns; in Stax and Queens a player who owns no stack
//!   when his turn comes has his checkers taken out of the stacks and is out. The last player
//!   (or team) able to move wins.
//! - The 40-move option (Tri-Chek only, `forty=on`, the default): once every piece is a king,
//!   any player may invoke it on his turn (`/move forty`, which does not use the turn); after
//!   forty moves of each player without a jump, the player (or team) with the most pieces
//!   wins.
//! - Starting positions are data (`engine/data/tri-checkers.txt`), rebuilt from the text since
//!   the figures are lost; `layout=` picks among the book's options (the two-player and
//!   five-six player symmetric positions, Tri-Queens' open and closed positions, advanced men
//!   or cut-out corners).
//!
//! *Interpretations* (also in `/rules`): which of the two players moves first (the one with
//! four back triangles, A in Figure 14); every layout's exact triangles; ABC-DEF as the book's
//! ABF-CDE lettered from the other end; the 40-move option invoked on one's own turn and its
//! "40 moves" counted per player, as checkers counts them; partners' pieces counted together for it; the draws of the
//! square games (forty moves of each player without a capture or a man's move, and threefold
//! repetition) kept.

use crate::checkers::{CheckersPosition, CheckersRules, Kind, SeatPlan};
use crate::chess::Seat;
use crate::game::{Family, GameError, OptionSpec, OptionValues, Options, VariantInfo};
use crate::variants::checkers::{CheckersFamily, NUMBERS_OPTION};
use crate::variants::patterns::{read_pattern, MODE_OPTION};

pub mod layout;
#[cfg(test)]
mod tests;

use layout::Games;

/// The players' names, A to F, after the colours their checkers are drawn in.
pub use crate::variants::tri_chess::NAMES;

/// Tri-Chek.
pub static TRI_CHEK: CheckersFamily = CheckersFamily::on_triangles(Kind::Checkers, chek_info);
/// Tri-Stax.
pub static TRI_STAX: CheckersFamily = CheckersFamily::on_triangles(Kind::Stax, stax_info);
/// Tri-Queens.
pub static TRI_QUEENS: CheckersFamily = CheckersFamily::on_triangles(Kind::Queens, queens_info);

/// The partner patterns the book names, for four and for six players, the default first.
fn patterns(kind: Kind, players: usize) -> &'static [&'static str] {
    match (kind, players) {
        (Kind::Queens, 4) => &["ab-cd", "ac-bd", "ad-bc"],
        (_, 4) => &["ac-bd", "ab-cd", "ad-bc"],
        (Kind::Queens, 6) => &["ad-be-cf", "ace-bdf"],
        (_, 6) => &["ab-cd-ef", "ad-be-cf", "abf-cde", "abc-def"],
        _ => &[],
    }
}

fn games(kind: Kind) -> Games {
    match kind {
        Kind::Queens => Games::Queens,
        Kind::Checkers | Kind::Stax => Games::Checkers,
    }
}

fn name(kind: Kind) -> &'static str {
    match kind {
        Kind::Checkers => "Tri-Chek",
        Kind::Stax => "Tri-Stax",
        Kind::Queens => "Tri-Queens",
    }
}

/// The start of a game of `kind` for `players` under `options`, and whether the 40-move
/// option may be invoked in it; refuses what the book does not allow, naming what it does.
pub fn start(
    kind: Kind,
    options: &Options,
    players: usize,
    seed: u64,
) -> Result<(CheckersPosition, bool), GameError> {
    let game = name(kind);
    if !(2..=6).contains(&players) {
        return Err(GameError::BadOption(format!(
            "{game} is played by 2 to 6 players, not {players}"
        )));
    }
    // The book allows five from Figure 23, "also the only possible setup for playing five or
    // six player cut-throat"; only three are refused.
    if kind == Kind::Queens && players == 3 {
        return Err(GameError::BadOption(
            "Tri-Queens is played by 2, 4, 5 or 6 players, not 3: \"Two players must necessarily \
             begin on the same color\" (the book)"
                .to_string(),
        ));
    }
    let pattern = read_pattern(options, players, patterns(kind, players), game)?;
    let choices = layout::choices(games(kind), players, &pattern);
    let names: Vec<&str> = choices.iter().map(|l| l.name.as_str()).collect();
    let layout = match options.get("layout").map(str::to_ascii_lowercase) {
        None => choices.first().copied(),
        Some(wanted) => choices.iter().copied().find(|l| l.name == wanted),
    }
    .ok_or_else(|| {
        GameError::BadOption(format!(
            "layout={} does not fit {game} for {players} players ({}): choose {}",
            options.get("layout").unwrap_or(""),
            if pattern == "cutthroat" {
                "cut-throat".to_string()
            } else {
                format!("teams={}", pattern.to_ascii_uppercase())
            },
            names.join(" or ")
        ))
    })?;
    let forty = match (kind, options.get("forty").map(str::to_ascii_lowercase)) {
        (Kind::Checkers, None) => true,
        (Kind::Checkers, Some(v)) if v == "on" => true,
        (Kind::Checkers, Some(v)) if v == "off" => false,
        (Kind::Checkers, Some(v)) => {
            return Err(GameError::BadOption(format!(
                "forty must be on or off, not '{v}'"
            )))
        }
        (_, Some(_)) => {
            return Err(GameError::BadOption(format!(
                "the 40-move option is Tri-Chek's alone: in {game} a piece can always be \
                 trapped, so it does not apply"
            )))
        }
        (_, None) => false,
    };
    let numbers = match options
        .get("numbers")
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        None | Some("off") => false,
        Some("on") => true,
        Some(other) => {
            return Err(GameError::BadOption(format!(
                "numbers must be off or on, not '{other}'"
            )))
        }
    };
    let team_of = |seat: usize| -> u8 {
        let letter = (b'a' + seat as u8) as char;
        if pattern == "cutthroat" {
            return seat as u8;
        }
        pattern
            .split('-')
            .position(|group| group.contains(letter))
            .unwrap_or(seat) as u8
    };
    let board = layout.board();
    let rules = CheckersRules {
        kind,
        board,
        numbers,
        first: Seat(layout.order[0]),
        seats: layout
            .armies
            .iter()
            .enumerate()
            .map(|(seat, army)| SeatPlan {
                team: team_of(seat),
                wrap: crate::board::Wrap::None,
                light: army.shade == crate::board::Shade::Light,
            })
            .collect(),
        vanishing: pattern == "cutthroat" && players > 2 && kind != Kind::Checkers,
        order: layout.order.iter().map(|&s| Seat(s)).collect(),
    };
    let mut position = CheckersPosition::empty(rules);
    let cells = layout.cells(position.board());
    for (seat, cells) in cells.iter().enumerate() {
        position.place_men(Seat(seat as u8), cells, seed);
    }
    Ok((position, forty))
}

fn options(kind: Kind) -> Vec<OptionSpec> {
    let mut options = vec![
        MODE_OPTION,
        OptionSpec {
            key: "teams",
            help: if kind == Kind::Queens {
                "partners: AB-CD, AC-BD or AD-BC with four; AD-BE-CF or ACE-BDF with six"
            } else {
                "partners: AC-BD, AB-CD or AD-BC with four; AB-CD-EF, AD-BE-CF, ABF-CDE or ABC-DEF with six"
            },
            default: None,
            values: OptionValues::Choice(if kind == Kind::Queens {
                &["AB-CD", "AC-BD", "AD-BC", "AD-BE-CF", "ACE-BDF"]
            } else {
                &[
                    "AB-CD", "AC-BD", "AD-BC", "AB-CD-EF", "AD-BE-CF", "ABF-CDE", "ABC-DEF",
                ]
            }),
        },
        NUMBERS_OPTION,
        OptionSpec {
            key: "layout",
            help: if kind == Kind::Queens {
                "the starting position: standard; open or closed (four players, AC-BD); mixed, advanced or corners (six, ACE-BDF); five and six cut-throat use corners"
            } else {
                "the starting position: standard, or symmetric (two, five or six players: the book's optional even position)"
            },
            default: Some("standard"),
            values: OptionValues::Choice(if kind == Kind::Queens {
                &["standard", "open", "closed", "mixed", "advanced", "corners"]
            } else {
                &["standard", "symmetric"]
            }),
        },
    ];
    if kind == Kind::Checkers {
        options.push(OptionSpec {
            key: "forty",
            help: "on: once every piece is a king any player may invoke the 40-move option (/move forty)",
            default: Some("on"),
            values: OptionValues::Choice(&["on", "off"]),
        });
    }
    options
}

macro_rules! info {
    ($fn:ident, $kind:expr, $id:literal, $aliases:expr, $counts:expr, $rules:expr) => {
        fn $fn() -> &'static VariantInfo {
            static INFO: std::sync::OnceLock<VariantInfo> = std::sync::OnceLock::new();
            INFO.get_or_init(|| VariantInfo {
                id: $id,
                aliases: $aliases,
                name: name($kind),
                family: Family::Checkers,
                seat_counts: $counts,
                options: options($kind),
                hidden_information: false,
                simultaneous: false,
                rules: $rules,
                source: "Will Adams, Variations on Chess and Checkers, checkers V (Triangular)",
            })
        }
    };
}

info!(
    chek_info,
    Kind::Checkers,
    "tri-checkers",
    &["tri-chek", "trichek", "triangle-checkers"],
    &[2, 3, 4, 5, 6],
    RULES_CHEK
);
info!(
    stax_info,
    Kind::Stax,
    "tri-stax",
    &["tristax", "triangle-stax"],
    &[2, 3, 4, 5, 6],
    RULES_STAX
);
info!(
    queens_info,
    Kind::Queens,
    "tri-queens",
    &["triqueens", "triangle-queens"],
    &[2, 4, 5, 6],
    RULES_QUEENS
);

macro_rules! rules {
    ($game:literal) => {
        concat!(
            $game,
            " on a hexagon of triangles, numbered 1 up from the bottom row, for 2 to 6 players: \
            side 4 (8 rows) for two, 5 for three or four, 6 with its corners cut out for five or \
            six. Players A-F are White, Black, Orange, Blue, Green and Pink. Moves are written in \
            triangle numbers: 45-57, 45x67x89 (or 45x89 when only one path fits).\n\
            Two, three and five players play cut-throat (each for himself); four and six may play \
            partners (mode=partners teams=...), each pattern with the book's sequence of moves. \
            A player with nothing that can move misses his turns; the last player or team able \
            to move wins; forty moves of each player without a capture or a man's move, or a \
            position repeated three times, is a draw (kept from the square games, our reading). \
            numbers=on: men numbered 1-12 at random, none jumps a higher number, only kings jump \
            kings.\n\
            Starting positions (the book's figures are lost; ours are rebuilt from its words and \
            keep every man out of reach of a first-move jump wherever the book says so): five \
            men in the back row, four, then three, or four, five and three off-centre where the \
            back row has four triangles of the colour. "
        )
    };
}

const RULES_CHEK: &str = concat!(
    rules!("Checkers"),
    "Everyone plays on the dark triangles. Men move and jump to \
    the two dark triangles ahead that touch theirs at a corner; kings to all six around. Jumps \
    are compulsory and complete; a man reaching the far edge is crowned and stops.\n",
    "Layouts: two players: A, with four back triangles, moves first (our reading); \
    layout=symmetric moves A's man from the left end of his middle row to a triangle borrowed \
    beyond the right end of his back row, so both have five triangles to crown on. Three on the \
    edges with five dark triangles. Four: two on five-triangle edges, their neighbours on the \
    rest of the adjacent six-triangle rows; AC-BD (partners adjacent, the default) moves A, B, \
    C, D; AB-CD (opposite) and cut-throat A, C, B, D; AD-BC D, C, A, B. Five and six: every \
    second player has a four-triangle back row; layout=symmetric moves his man to the cut-out \
    corner at the right of it. Six: AB-CD-EF moves A, C, E, B, D, F; AD-BE-CF and cut-throat \
    A to F; ABF-CDE F, C, A, D, B, E (B and D use the corner, F moves his front three away \
    from E); ABC-DEF is ABF-CDE lettered from the other end (our reading): A, D, B, E, C, F.\n",
    "The 40-move option (forty=on, the default): since a fleeing king can always run along an \
    edge, once every piece is a king any player may invoke it on his turn with /move forty \
    (it does not use the turn); after forty moves of each player without a jump the player \
    with the most pieces wins (forty each, as checkers counts; partners count their pieces \
    together; a tie shares the win; our readings)."
);

const RULES_STAX: &str = concat!(
    rules!("Stax"),
    "Everyone plays on the dark triangles. Men move and jump to \
    the two dark triangles ahead that touch theirs at a corner; kings to all six around. A \
    jumped checker is carried underneath the jumping stack as a prisoner; a stack belongs to its \
    top checker; jumping a stack takes only its top checker and frees what it held. In \
    cut-throat, a player who owns no stack when his turn comes vanishes: all his checkers are \
    taken out of the stacks. Layouts and sequences as in Tri-Chek (see /rules tri-checkers). \
    The 40-move option does not apply."
);

const RULES_QUEENS: &str = concat!(
    rules!("Queens"),
    "Players start on either colour. Men move to the two \
    triangles of their colour ahead that touch at a corner, and jump five ways: over those two, \
    or over any of the three triangles of the other colour ahead, crossing one side and one \
    angle of it (the book's Figure 13). Kings move to the six triangles of their colour around \
    and jump all twelve ways. Stax's prisoners and cut-throat rule apply. Two, four, five or \
    six players (not three: two would start on one colour). Two: one player on five dark back \
    triangles, the other opposite on five light. Four (layout=standard): neighbouring pairs on \
    one colour, A and B dark, C and D light; cut-throat and AC-BD move A, B, C, D; AB-CD A, C, \
    B, D; AD-BC D, B, A, C. layout=open and \
    layout=closed (AC-BD, partners adjacent on opposite colours): open puts everyone on a \
    six-triangle row away from his partner, closed on a five-triangle row meeting him at the \
    corner. Six: AD-BE-CF (partners adjacent on opposite colours, each with one advanced man), \
    ACE-BDF (layout=mixed: one of each trio on the other colour, two of each trio with a man \
    advanced; layout=advanced or layout=corners: each trio on one colour, A, C, E side by side \
    on light and B, D, F on dark, four of the six with a man advanced or on the cut-out corner), \
    and cut-throat (the same colours lettered clockwise, four men on the corners); all move A to \
    F. Five play cut-throat on six's position without F. The 40-move option does not apply."
);
