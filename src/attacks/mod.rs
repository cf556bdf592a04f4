//! Attack tables, below the board: the squares each piece attacks from each square (leapers
//! by table, sliders by fancy magics or PEXT), and the squares between and through two
//! aligned squares. All are computed at compile time. The board (checks, make, SEE), move
//! generation above it, the evaluation and the tablebase probes read them.

mod leapers;
pub mod magics;
mod rays;

pub use leapers::{king_attacks, knight_attacks, pawn_attacks};
pub use magics::{bishop_attacks, queen_attacks, rook_attacks};
pub use rays::{between, line};
