//! Piece-square tables with the material value folded in, for midgame and endgame, built at
//! compile time from the weights `MATERIAL` and `PSQT`. The board keeps their running sum.
//! Values are for White; Black's are mirrored and negated.

use super::params::PARAMS;
use super::phased::Phased;
use super::weights::{MATERIAL, PSQT};
use crate::types::{Color, Piece, PieceType, Square};

const fn build() -> [[Phased; 64]; 12] {
    let mut table = [[Phased::ZERO; 64]; 12];
    let mut k = 0;
    while k < 6 {
        let kind = PieceType::ALL[k];
        let material = PARAMS[MATERIAL + k];
        let mut sq = 0;
        while sq < 64 {
            let placement = PARAMS[PSQT + 64 * k + sq];
            let value = Phased::new(material.mg + placement.mg, material.eg + placement.eg);
            table[Piece::new(Color::White, kind).index()][sq] = value;
            table[Piece::new(Color::Black, kind).index()][sq ^ 56] =
                Phased::new(-value.mg, -value.eg);
            sq += 1;
        }
        k += 1;
    }
    table
}

static TABLE: [[Phased; 64]; 12] = build();

/// The value of `piece` on `sq` from White's point of view (negative for Black's pieces).
#[inline(always)]
pub fn value(piece: Piece, sq: Square) -> Phased {
    TABLE[piece.index()][sq.index()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Color;

    #[test]
    fn black_mirrors_white() {
        for kind in PieceType::ALL {
            for sq in Square::all() {
                let white = value(Piece::new(Color::White, kind), sq);
                assert_eq!(value(Piece::new(Color::Black, kind), sq.flip()), -white);
            }
        }
    }
}
