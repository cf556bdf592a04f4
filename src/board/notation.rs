//! Moves as text out: UCI coordinate notation for standard chess and Chess960. Reading a
//! move needs the legal moves and so sits above move generation, in `crate::rules`.

use super::Board;
use crate::types::{Move, Wing};

impl Board {
    /// The move in UCI notation: castling as king-to-target (`e1g1`) in standard chess and
    /// as king-takes-rook (`e1h1`) in Chess960.
    pub fn move_to_uci(&self, m: Move) -> String {
        if m.is_castle() && !self.chess960 {
            let wing = if m.to() > m.from() {
                Wing::King
            } else {
                Wing::Queen
            };
            format!("{}{}", m.from(), wing.king_target(self.side))
        } else {
            m.to_string()
        }
    }
}
