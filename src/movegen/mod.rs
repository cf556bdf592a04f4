//! Move generation: attack tables, legal move lists and perft.

pub mod attacks;
mod generate;
mod legality;
pub mod magics;
mod movelist;
mod perft;

pub use generate::{legal_moves, noisy_moves, quiet_checks, quiet_moves};
pub use movelist::{MAX_MOVES, MoveList, uninit_array};
pub use perft::{divide, perft};
