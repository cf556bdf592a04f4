//! Move generation, above the board: legal moves (all, noisy, quiet, quiet checks), the
//! legality of a single move from elsewhere, the move list and perft. The attack tables it
//! reads sit below the board, in `crate::attacks`.

mod generate;
mod legality;
mod movelist;
mod perft;

pub use generate::{legal_moves, noisy_moves, quiet_checks, quiet_moves};
pub use movelist::{MAX_MOVES, MoveList, uninit_array};
pub use perft::{divide, perft};
