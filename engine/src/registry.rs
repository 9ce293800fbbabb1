//! Every variant Rookery plays, by id.
//!
//! ```
//! use engine::registry;
//! assert_eq!(registry::variant("960").unwrap().info().id, "chess960");
//! let err = registry::variant("chezz").unwrap_err();
//! assert!(err.to_string().contains("chess, chess960, zombie, masquerade, synchronous, checkers, stax, queens"), "{err}");
//! ```

use crate::game::{AnyGame, GameError};
use crate::variants::{
    checkers::{CHECKERS, QUEENS, STAX},
    chess::Chess,
    chess960::Chess960,
    masquerade::Masquerade,
    synchronous::Synchronous,
    zombie::Zombie,
};

static VARIANTS: [&dyn AnyGame; 8] = [
    &Chess,
    &Chess960,
    &Zombie,
    &Masquerade,
    &Synchronous,
    &CHECKERS,
    &STAX,
    &QUEENS,
];

/// All variants, in the order `/variants` lists them.
pub fn variants() -> &'static [&'static dyn AnyGame] {
    &VARIANTS
}

/// The variant with this id or alias (case-insensitive).
pub fn variant(id: &str) -> Result<&'static dyn AnyGame, GameError> {
    let wanted = id.trim().to_ascii_lowercase().replace([' ', '-', '_'], "");
    VARIANTS
        .iter()
        .copied()
        .find(|v| {
            let info = v.info();
            info.id == wanted || info.aliases.contains(&wanted.as_str())
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
