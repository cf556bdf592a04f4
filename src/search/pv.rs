//! The triangular principal-variation table: each ply's best line, built from the child's.

use crate::types::{MAX_PLY, Move};

pub struct PvTable {
    moves: [[Move; MAX_PLY + 1]; MAX_PLY + 1],
    len: [usize; MAX_PLY + 1],
}

impl Default for PvTable {
    fn default() -> PvTable {
        PvTable {
            moves: [[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            len: [0; MAX_PLY + 1],
        }
    }
}

impl PvTable {
    /// Starts an empty line at `ply` (on entering a node).
    #[inline(always)]
    pub fn clear(&mut self, ply: usize) {
        self.len[ply.min(MAX_PLY)] = 0;
    }

    /// The line at `ply` becomes `m` followed by the line at `ply + 1`.
    pub fn update(&mut self, ply: usize, m: Move) {
        if ply >= MAX_PLY {
            return;
        }
        let child_len = self.len[ply + 1].min(MAX_PLY - ply);
        let (head, tail) = self.moves.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line[0] = m;
        line[1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.len[ply] = child_len + 1;
    }

    /// The principal variation from the root.
    pub fn root(&self) -> &[Move] {
        &self.moves[0][..self.len[0]]
    }
}
