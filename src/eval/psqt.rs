//! Piece-square tables with the material value folded in, for midgame and endgame, built at
//! compile time from the weights `MATERIAL` and `PSQT`, and their sum over the board.
//! Values are for White; Black's are mirrored and negated.

use super::params::PARAMS;
use super::weights::{MATERIAL, PSQT};
use crate::board::Board;
use crate::types::{Color, Phased, Piece, PieceType};

const fn build() -> [[Phased; 64]; 12] {
    let mut table = [[Phased::ZERO; 64]; 12];
    let mut k = 0;
    while k < 6 {
        let kind = PieceType::ALL[k];
        let material = PARAMS[MATERIAL.at(k)];
        let mut sq = 0;
        while sq < 64 {
            let placement = PARAMS[PSQT.at(64 * k + sq)];
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

/// Material plus placement of the pieces of `kinds`, White minus Black: a look-up per piece.
#[inline(always)]
fn sum(board: &Board, kinds: &[PieceType]) -> Phased {
    let mut sum = Phased::ZERO;
    for color in Color::ALL {
        for &kind in kinds {
            let table = &TABLE[Piece::new(color, kind).index()];
            for sq in board.pieces(color, kind) {
                sum += table[sq.index()];
            }
        }
    }
    sum
}

/// The pawns' material and placement, which the pawn table keeps with their structure.
#[inline(always)]
pub fn pawns(board: &Board) -> Phased {
    sum(board, &[PieceType::Pawn])
}

/// The other pieces' material and placement, computed at each evaluation (the kings, one
/// a side, by their squares).
#[inline(always)]
pub fn pieces(board: &Board) -> Phased {
    let king =
        |color| TABLE[Piece::new(color, PieceType::King).index()][board.king_square(color).index()];
    sum(board, &PieceType::ALL[1..5]) + king(Color::White) + king(Color::Black)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

    #[test]
    fn black_mirrors_white() {
        let value = |piece: Piece, sq: Square| TABLE[piece.index()][sq.index()];
        for kind in PieceType::ALL {
            for sq in Square::all() {
                let white = value(Piece::new(Color::White, kind), sq);
                assert_eq!(value(Piece::new(Color::Black, kind), sq.flip()), -white);
            }
        }
    }
}
