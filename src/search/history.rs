//! Quiet-move history: how often a move of this piece to this square caused a cutoff,
//! decayed so that recent experience counts most.

use crate::types::{Piece, Square};

/// Values stay within +-MAX_HISTORY.
pub const MAX_HISTORY: i32 = 16_384;

pub struct History {
    table: [[i32; 64]; 12],
}

impl Default for History {
    fn default() -> History {
        History {
            table: [[0; 64]; 12],
        }
    }
}

/// Reward (or penalty) for a move at `depth`: deeper cutoffs say more.
pub fn bonus(depth: i32) -> i32 {
    (16 * depth * depth + 32 * depth).min(1_600)
}

impl History {
    #[inline(always)]
    pub fn get(&self, piece: Piece, to: Square) -> i32 {
        self.table[piece.index()][to.index()]
    }

    /// Moves the entry towards +-MAX_HISTORY by `delta`, less the closer it already is
    /// ("gravity"), so entries never overflow and old results fade.
    pub fn update(&mut self, piece: Piece, to: Square, delta: i32) {
        let entry = &mut self.table[piece.index()][to.index()];
        let delta = delta.clamp(-MAX_HISTORY, MAX_HISTORY);
        *entry += delta - *entry * delta.abs() / MAX_HISTORY;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saturates_within_bounds() {
        let mut h = History::default();
        let to = Square::E1;
        for _ in 0..1_000 {
            h.update(Piece::WhiteRook, to, bonus(20));
        }
        let v = h.get(Piece::WhiteRook, to);
        assert!(v > MAX_HISTORY * 9 / 10 && v <= MAX_HISTORY);
        for _ in 0..1_000 {
            h.update(Piece::WhiteRook, to, -bonus(20));
        }
        assert!(h.get(Piece::WhiteRook, to) >= -MAX_HISTORY);
        assert!(h.get(Piece::WhiteRook, to) < 0);
    }
}
