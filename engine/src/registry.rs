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
