//! Zobrist hashing keys, drawn from ChaCha8 with a fixed seed so that keys (and everything that
//! depends on them, like bench node counts) are identical on every platform.

use crate::types::{CastlingRights, Color, Piece, PieceType, Square};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use std::sync::LazyLock;

pub struct Zobrist {
    pieces: [[u64; 64]; 12],
    /// The pawns' keys of `pieces`, zero for other pieces: the pawn key changes without a
    /// test of what moved.
    pawns: [[u64; 64]; 12],
    /// The other pieces' keys (king included), zero for pawns.
    non_pawns: [[u64; 64]; 12],
    castling: [u64; 16],
    en_passant: [u64; 8],
    side: u64,
}

const SEED: u64 = 0x005a_6f62_7269_7374; // "Zobrist"

static KEYS: LazyLock<Zobrist> = LazyLock::new(|| {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut keys = Zobrist {
        pieces: [[0; 64]; 12],
        pawns: [[0; 64]; 12],
        non_pawns: [[0; 64]; 12],
        castling: [0; 16],
        en_passant: [0; 8],
        side: 0,
    };
    // Drawn White's six kinds first, then Black's (the order before pieces were
    // interleaved by colour), so that keys and bench counts stay as they were.
    for color in [Color::White, Color::Black] {
        for kind in PieceType::ALL {
            let squares = &mut keys.pieces[Piece::new(color, kind).index()];
            squares.iter_mut().for_each(|k| *k = rng.next_u64());
        }
    }
    for color in Color::ALL {
        for kind in PieceType::ALL {
            let piece = Piece::new(color, kind).index();
            if kind == PieceType::Pawn {
                keys.pawns[piece] = keys.pieces[piece];
            } else {
                keys.non_pawns[piece] = keys.pieces[piece];
            }
        }
    }
    keys.en_passant.iter_mut().for_each(|k| *k = rng.next_u64());
    keys.side = rng.next_u64();
    // Each right has its own key and a set of rights XORs them together, so that
    // removing one right changes the key by that right's key alone.
    let single: [u64; 4] = std::array::from_fn(|_| rng.next_u64());
    for (bits, key) in keys.castling.iter_mut().enumerate() {
        *key = (0..4)
            .filter(|i| bits & (1 << i) != 0)
            .fold(0, |k, i| k ^ single[i]);
    }
    keys
});

/// The key tables; fetch once per make/unmake, not per lookup.
#[inline(always)]
pub fn keys() -> &'static Zobrist {
    &KEYS
}

impl Zobrist {
    #[inline(always)]
    pub fn piece(&self, piece: Piece, sq: Square) -> u64 {
        self.pieces[piece.index()][sq.index()]
    }

    /// The key of a pawn on `sq`; zero for other pieces.
    #[inline(always)]
    pub fn pawn(&self, piece: Piece, sq: Square) -> u64 {
        self.pawns[piece.index()][sq.index()]
    }

    /// The key of a piece other than a pawn on `sq`; zero for pawns.
    #[inline(always)]
    pub fn non_pawn(&self, piece: Piece, sq: Square) -> u64 {
        self.non_pawns[piece.index()][sq.index()]
    }

    #[inline(always)]
    pub fn castling(&self, rights: CastlingRights) -> u64 {
        self.castling[rights.bits() as usize]
    }

    #[inline(always)]
    pub fn en_passant(&self, sq: Square) -> u64 {
        self.en_passant[sq.file() as usize]
    }

    /// XORed in when Black is to move.
    #[inline(always)]
    pub fn side(&self, side: Color) -> u64 {
        match side {
            Color::White => 0,
            Color::Black => self.side,
        }
    }

    #[inline(always)]
    pub fn side_flip(&self) -> u64 {
        self.side
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let z = keys();
        let mut all: Vec<u64> = z.pieces.iter().flatten().copied().collect();
        all.extend(z.en_passant);
        all.extend(&z.castling[1..]);
        all.push(z.side);
        assert!(all.iter().all(|&k| k != 0));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
        assert_eq!(z.castling[0], 0);
    }
}
