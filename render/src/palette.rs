//! Colours. Army colours after White and Black come from the Okabe-Ito palette, chosen to stay
//! distinct for the common kinds of colour blindness.

use image::Rgb;

pub type Rgb8 = [u8; 3];

pub const BACKGROUND: Rgb8 = [0x2b, 0x2d, 0x31];
pub const LIGHT_CELL: Rgb8 = [0xeb, 0xe3, 0xd2];
pub const DARK_CELL: Rgb8 = [0xa8, 0x9a, 0x84];
/// Cells shaded on request (Shadow Chess's shadows): a dusk violet that reads on both shades.
pub const SHADED: Rgb8 = [88, 64, 150];
pub const LAST_MOVE: Rgb8 = [0xf2, 0xd3, 0x4f];
pub const CHECK: Rgb8 = [0xe0, 0x3c, 0x31];
pub const COORDINATE: Rgb8 = [0xc9, 0xc9, 0xc9];
pub const CAPTION: Rgb8 = [0xf2, 0xf2, 0xf2];
pub const WRAP_HINT: Rgb8 = [0x3f, 0xc1, 0xb0];
pub const GOLD: Rgb8 = [0xe8, 0xb9, 0x23];
pub const TAR: Rgb8 = [0x14, 0x14, 0x14];
pub const ADRENALINE: Rgb8 = [0xd6, 0x28, 0x28];
pub const MIRROR: Rgb8 = [0xb8, 0xc4, 0xd0];
/// What dead pieces fade toward (Trimens): stone grey, part of the board.
pub const DEAD: Rgb8 = [0x8c, 0x8c, 0x8c];
pub const INK: Rgb8 = [0x10, 0x10, 0x10];
pub const PAPER: Rgb8 = [0xfa, 0xfa, 0xfa];
/// The back of a card, and the panel inside its border.
pub const CARD_BACK: Rgb8 = [0x2f, 0x4f, 0x9a];
pub const CARD_BACK_INNER: Rgb8 = [0x4a, 0x6c, 0xc0];

/// An army's colours: the body of its pieces and the lines drawn on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArmyColours {
    pub fill: Rgb8,
    pub stroke: Rgb8,
    pub name: &'static str,
}

/// The colours of palette slot `seat`: army `n` is drawn in slot `n` unless its view says
/// otherwise (Superchess's Tan and Brown take slots 6 and 7); slots beyond eight reuse the list.
pub fn army(seat: usize) -> ArmyColours {
    const ARMIES: [ArmyColours; 8] = [
        ArmyColours {
            fill: [0xf7, 0xf5, 0xef],
            stroke: [0x16, 0x16, 0x16],
            name: "white",
        },
        ArmyColours {
            fill: [0x26, 0x26, 0x28],
            stroke: [0xee, 0xee, 0xee],
            name: "black",
        },
        ArmyColours {
            fill: [0xe6, 0x9f, 0x00],
            stroke: [0x16, 0x16, 0x16],
            name: "orange",
        },
        ArmyColours {
            fill: [0x00, 0x72, 0xb2],
            stroke: [0xf2, 0xf2, 0xf2],
            name: "blue",
        },
        ArmyColours {
            fill: [0x00, 0x9e, 0x73],
            stroke: [0x10, 0x10, 0x10],
            name: "green",
        },
        ArmyColours {
            fill: [0xcc, 0x79, 0xa7],
            stroke: [0x16, 0x16, 0x16],
            name: "pink",
        },
        ArmyColours {
            fill: [0xd9, 0xbc, 0x8c],
            stroke: [0x16, 0x16, 0x16],
            name: "tan",
        },
        ArmyColours {
            fill: [0x7a, 0x4a, 0x22],
            stroke: [0xf2, 0xf2, 0xf2],
            name: "brown",
        },
    ];
    ARMIES[seat % ARMIES.len()]
}

/// Every colour the renderer paints on purpose, which an indexed image keeps exactly: the
/// named colours above and each army's fill and stroke.
pub fn painted() -> Vec<Rgb8> {
    let mut colours = vec![
        BACKGROUND,
        LIGHT_CELL,
        DARK_CELL,
        SHADED,
        LAST_MOVE,
        CHECK,
        COORDINATE,
        CAPTION,
        WRAP_HINT,
        GOLD,
        TAR,
        ADRENALINE,
        MIRROR,
        DEAD,
        INK,
        PAPER,
        CARD_BACK,
        CARD_BACK_INNER,
    ];
    for slot in 0..8 {
        let army = army(slot);
        colours.extend([army.fill, army.stroke]);
    }
    colours
}

/// `a` moved toward `b` by `t` (0..=1).
pub fn mix(a: Rgb8, b: Rgb8, t: f32) -> Rgb8 {
    // Rounded by adding a half: the value is never negative, and `f32::round` is a call to
    // the C library on a baseline x86-64, once per channel of every blended pixel.
    let m = |x: u8, y: u8| (x as f32 + (y as f32 - x as f32) * t + 0.5) as u8;
    [m(a[0], b[0]), m(a[1], b[1]), m(a[2], b[2])]
}

pub fn rgb(c: Rgb8) -> Rgb<u8> {
    Rgb(c)
}

/// A darker shade, for rims.
pub fn darker(c: Rgb8) -> Rgb8 {
    mix(c, [0, 0, 0], 0.35)
}

/// Whether text on this colour should be dark.
pub fn is_light(c: Rgb8) -> bool {
    let l = 0.299 * c[0] as f32 + 0.587 * c[1] as f32 + 0.114 * c[2] as f32;
    l > 140.0
}

/// Dark or light text, whichever reads on this colour.
pub fn ink_on(c: Rgb8) -> Rgb8 {
    if is_light(c) {
        INK
    } else {
        PAPER
    }
}
