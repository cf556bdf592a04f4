//! The rules that need the legal moves, one floor above move generation: which legal move a
//! text names (coordinate notation and SAN, `notation.rs` and `san.rs`) and whether the game
//! is over or drawn (`outcome.rs`). The board below knows only what one position says by
//! itself (FEN, the fifty-move counter, repetitions, material); anything that asks "which
//! moves are legal here" lives here.
//!
//! `Board` gets these as methods through two traits: `use crate::rules::Notation` for
//! `board.parse_move(text)`, `board.parse_san(text)`, `board.parse_any_move(text)` and
//! `board.move_to_san(m)`, and `use crate::rules::GameEnd` for `board.game_over()` and
//! `board.is_draw(ply)`.

mod notation;
mod outcome;
mod san;

pub use notation::{MoveError, Notation};
pub use outcome::GameEnd;
