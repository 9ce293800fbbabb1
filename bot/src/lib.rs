//! Rookery's application: the game service over SQLite storage, and its frontends (Discord,
//! the local console, the developer CLI).
//!
//! - [`model`]: the service's vocabulary (games, users, posts, buttons).
//! - [`store`]: every SQL statement.
//! - [`service`]: the application layer: one locked transaction per change, an outbox.
//! - [`ratings`]: rating pools and the Glicko-2 and Weng-Lin arithmetic of a rated game.
//! - [`commands`]: the commands players give, shared by all frontends.
//! - [`console`]: the local console frontend.
//! - [`discord`]: the Discord frontend (the only module that knows Discord).
//! - [`shards`]: which Discord shards a process runs, claimed in the database.
//! - [`cli`]: command-line parsing and developer commands.
//! - [`arena`]: whole games between computer players, random seats and UCI engines.
//! - [`loadtest`]: many active games and a steady stream of actions, timed.
//! - [`uci`]: Rookery's chess searcher as a UCI engine.

pub mod arena;
pub mod cli;
pub mod commands;
pub mod console;
pub mod discord;
pub mod loadtest;
pub mod model;
pub mod ratings;
pub mod service;
pub mod shards;
pub mod store;
pub mod uci;
