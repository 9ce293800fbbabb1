//! Every variant Rookery plays, by id.
//!
//! ```
//! use engine::registry;
//! assert_eq!(registry::variant("960").unwrap().info().id, "chess960");
//! let err = registry::variant("chezz").unwrap_err();
//! assert!(err.to_string().contains("chess, chess960, doubles, crowded-house, trimens, tri-chess, zombie, masquerade, synchronous, checkers, stax, queens, tri-checkers, tri-stax, tri-queens, superchess, betza, shadow, half-alice, adrenaline, two-move, telepathic, cooperative, golf, tar-pit"), "{err}");
//! ```

use crate::game::{AnyGame, GameError};
use crate::variants::{
    adrenaline::Adrenaline,
    betza::Betza,
    checkers::{CHECKERS, QUEENS, STAX},
    chess::Chess,
    chess960::Chess960,
    cooperative::Cooperative,
    crowded_house::CrowdedHouse,
    doubles::Doubles,
    golf::Golf,
    half_alice::HalfAlice,
    masquerade::Masquerade,
    shadow::ShadowChess,
    superchess::Superchess,
    synchronous::Synchronous,
    tar_pit::TarPit,
    telepathic::Telepathic,
    tri_checkers::{TRI_CHEK, TRI_QUEENS, TRI_STAX},
    tri_chess::TriChess,
    trimens::Trimens,
    two_move::TwoMove,
    zombie::Zombie,
};

static VARIANTS: [&dyn AnyGame; 25] = [
    &Chess,
    &Chess960,
    &Doubles,
    &CrowdedHouse,
    &Trimens,
    &TriChess,
    &Zombie,
    &Masquerade,
    &Synchronous,
    &CHECKERS,
    &STAX,
    &QUEENS,
    &TRI_CHEK,
    &TRI_STAX,
    &TRI_QUEENS,
    &Superchess,
    &Betza,
    &ShadowChess,
    &HalfAlice,
    &Adrenaline,
    &TwoMove,
    &Telepathic,
    &Cooperative,
    &Golf,
    &TarPit,
];

/// All variants, in the order `/variants` lists them.
pub fn variants() -> &'static [&'static dyn AnyGame] {
    &VARIANTS
}

/// A game known by its own name that Rookery plays as a variant with options: the books
/// call chess on a cylinder "Cylindrical Chess", while Rookery plays it as `chess board=cylinder`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// The name players look for (`cylindrical`).
    pub name: &'static str,
    /// Other spellings of the same name.
    pub aliases: &'static [&'static str],
    /// The variant that plays it.
    pub variant: &'static str,
    /// The options it sets, as `key=value`; a player's own value for the same key wins.
    pub options: &'static [&'static str],
}

/// Every named game played as a variant with options.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "cylindrical",
        aliases: &["cylindrical-chess", "cylinder-chess", "cylinder"],
        variant: "chess",
        options: &["board=cylinder"],
    },
    Preset {
        name: "cylindrical-checkers",
        aliases: &["cylinder-checkers"],
        variant: "checkers",
        options: &["board=cylinder"],
    },
    Preset {
        name: "universal-checkers",
        aliases: &["universal", "torus-checkers", "torus"],
        variant: "checkers",
        options: &["board=universal"],
    },
    Preset {
        name: "cylindrical-doubles",
        aliases: &["cylindrical-doubles-chess"],
        variant: "doubles",
        options: &["board=cylinder"],
    },
];

/// The named game with this name or alias, however it is spelt.
///
/// ```
/// use engine::registry;
/// let cylindrical = registry::preset("Cylindrical Chess").unwrap();
/// assert_eq!((cylindrical.variant, cylindrical.options), ("chess", &["board=cylinder"][..]));
/// assert!(registry::preset("chess").is_none());
/// ```
pub fn preset(name: &str) -> Option<&'static Preset> {
    let wanted = normal(name);
    PRESETS
        .iter()
        .find(|p| normal(p.name) == wanted || p.aliases.iter().any(|a| normal(a) == wanted))
}

/// A variant by id or alias, or a named game played as a variant with options: the variant
/// and the options the name sets (empty for a plain variant).
///
/// ```
/// use engine::registry;
/// let (game, options) = registry::variant_or_preset("cylindrical").unwrap();
/// assert_eq!((game.info().id, options), ("chess", &["board=cylinder"][..]));
/// let (game, options) = registry::variant_or_preset("chess").unwrap();
/// assert_eq!((game.info().id, options.len()), ("chess", 0));
/// ```
pub fn variant_or_preset(
    name: &str,
) -> Result<(&'static dyn AnyGame, &'static [&'static str]), GameError> {
    match variant(name) {
        Ok(game) => Ok((game, &[])),
        Err(unknown) => match preset(name) {
            Some(p) => Ok((variant(p.variant)?, p.options)),
            None => {
                let names: Vec<String> = PRESETS
                    .iter()
                    .map(|p| format!("{} ({} {})", p.name, p.variant, p.options.join(" ")))
                    .collect();
                Err(GameError::UnknownVariant(format!(
                    "{unknown}; named games: {}",
                    names.join(", ")
                )))
            }
        },
    }
}

/// A name as compared: lower case, without spaces, hyphens or underscores.
fn normal(name: &str) -> String {
    name.trim()
        .to_ascii_lowercase()
        .replace([' ', '-', '_'], "")
}

/// The variant with this id or alias, however it is spelt: case, spaces, hyphens and
/// underscores do not matter.
///
/// ```
/// use engine::registry;
/// assert_eq!(registry::variant("Zombie-Chess").unwrap().info().id, "zombie");
/// assert_eq!(registry::variant("american checkers").unwrap().info().id, "checkers");
/// ```
pub fn variant(id: &str) -> Result<&'static dyn AnyGame, GameError> {
    let wanted = normal(id);
    VARIANTS
        .iter()
        .copied()
        .find(|v| {
            let info = v.info();
            normal(info.id) == wanted || info.aliases.iter().any(|a| normal(a) == wanted)
        })
        .ok_or_else(|| {
            let ids: Vec<&str> = VARIANTS.iter().map(|v| v.info().id).collect();
            GameError::UnknownVariant(format!(
                "unknown variant '{}'; known variants: {}",
                id.trim(),
                ids.join(", ")
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `/rules` writes "**Name**: " before a game's rules, so no rules open with the name again
    /// (as "**Tri-Stax**: Tri-Stax: ..." once did).
    #[test]
    fn no_rules_repeat_their_title() {
        for game in variants() {
            let info = game.info();
            assert!(
                !info.rules.starts_with(info.name),
                "{}: {}",
                info.id,
                info.rules
            );
        }
    }
}
