//! Reading `mode` and `teams` for Adams' games of many players: cut-throat, or partners in one
//! of the patterns a game's rule book names for the number of players.

use crate::game::{GameError, OptionSpec, OptionValues, Options};

/// The `mode` option of the games for two to six players.
pub const MODE_OPTION: OptionSpec = OptionSpec {
    key: "mode",
    help: "cutthroat (each for himself) or partners (four or six players)",
    default: Some("cutthroat"),
    values: OptionValues::Choice(&["cutthroat", "partners"]),
};

/// The pattern the options ask for, lower case: `cutthroat`, or one of `patterns` (written
/// like `ab-cd`, the first the default for `mode=partners`). Refuses a mode or pattern that
/// does not fit `players`, naming the ones that do.
///
/// ```
/// use engine::game::Options;
/// use engine::variants::patterns::read_pattern;
/// let partners = Options::parse(["mode=partners", "teams=AD-BC"]).unwrap();
/// assert_eq!(read_pattern(&partners, 4, &["ab-cd", "ad-bc"], "Tri-Chek").unwrap(), "ad-bc");
/// let err = read_pattern(&partners, 6, &["ab-cd-ef"], "Tri-Chek").unwrap_err();
/// assert!(err.to_string().contains("choose AB-CD-EF"), "{err}");
/// ```
pub fn read_pattern(
    options: &Options,
    players: usize,
    patterns: &[&str],
    game: &str,
) -> Result<String, GameError> {
    let get = |key: &str| options.get(key).map(str::to_ascii_lowercase);
    let partners = match get("mode").as_deref() {
        None | Some("cutthroat") | Some("cut-throat") => false,
        Some("partners") => true,
        Some(other) => {
            return Err(GameError::BadOption(format!(
                "mode must be cutthroat or partners, not '{other}'"
            )))
        }
    };
    match (partners, get("teams")) {
        (true, _) if patterns.is_empty() => Err(GameError::BadOption(format!(
            "partners need four or six players; with {players} players {game} is cut-throat"
        ))),
        (true, None) => Ok(patterns[0].to_string()),
        (true, Some(t)) if patterns.contains(&t.as_str()) => Ok(t),
        (true, Some(t)) => Err(GameError::BadOption(format!(
            "teams={t} does not fit {players} players: choose {}",
            patterns
                .iter()
                .map(|p| p.to_ascii_uppercase())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
        (false, Some(t)) => Err(GameError::BadOption(format!(
            "teams={t} is for partners: add mode=partners"
        ))),
        (false, None) => Ok("cutthroat".to_string()),
    }
}
