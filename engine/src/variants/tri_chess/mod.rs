//! Tri-Chess (placeholder while it is built).
pub mod notation;
