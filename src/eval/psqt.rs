//! Piece-square tables with the material value folded in, for midgame and endgame.
//!
//! The tables are built from a few shape terms per piece (centralisation, advancement, the
//! seventh rank, king shelter) so that each number has a reason; a tuner can replace them
//! with fitted values later. Values are for White; Black's are mirrored and negated.

use super::phased::Phased;
use crate::types::{Color, Piece, PieceType, Square};

/// Material in centipawns, midgame and endgame, pawn to queen (the king has none).
pub const MATERIAL: [Phased; 6] = [
    Phased::new(82, 100),
    Phased::new(320, 290),
    Phased::new(335, 310),
    Phased::new(450, 525),
    Phased::new(950, 960),
    Phased::new(0, 0),
];

/// Pawn advancement by rank (White's view); the endgame rewards it more, as pawns near
/// promotion decide endgames.
const PAWN_RANK_MG: [i32; 8] = [0, 0, 2, 6, 14, 30, 55, 0];
const PAWN_RANK_EG: [i32; 8] = [0, 0, 5, 12, 25, 45, 80, 0];

/// Midgame king placement on its first two ranks: tucked in beside the corner after
/// castling, away from the centre files; further up the board is dangerous.
const KING_SHELTER: [[i32; 8]; 2] = [
    [15, 25, 5, -10, -5, -10, 25, 15],
    [5, 5, -10, -20, -20, -10, 5, 5],
];

/// How far a file or rank is from the board's edge: 0 to 3.
const fn from_edge(x: i32) -> i32 {
    if x < 4 { x } else { 7 - x }
}

/// Shape bonus for a White piece of `kind` on the square (`file`, `rank`).
const fn shape(kind: PieceType, file: i32, rank: i32) -> Phased {
    // Distance from the edge summed over both axes: 0 in a corner, 6 on the centre squares.
    let centre = from_edge(file) + from_edge(rank);
    let centre_file = file == 3 || file == 4;
    match kind {
        PieceType::Pawn => {
            let mut mg = PAWN_RANK_MG[rank as usize];
            if centre_file && (rank == 3 || rank == 4) {
                mg += 12;
            } else if centre_file && rank == 1 {
                mg -= 8; // unmoved centre pawns block the bishops
            }
            Phased::new(mg, PAWN_RANK_EG[rank as usize])
        }
        PieceType::Knight => {
            let back = if rank == 0 { 10 } else { 0 };
            Phased::new(8 * centre - 25 - back, 6 * centre - 20)
        }
        PieceType::Bishop => {
            let back = if rank == 0 { 10 } else { 0 };
            Phased::new(4 * centre - 10 - back, 3 * centre - 8)
        }
        PieceType::Rook => {
            let seventh = rank == 6;
            Phased::new(
                if seventh { 20 } else { 0 } + if centre_file { 5 } else { 0 },
                if seventh { 15 } else { 0 },
            )
        }
        PieceType::Queen => Phased::new(2 * centre - 5, 5 * centre - 15),
        PieceType::King => {
            let mg = if rank < 2 {
                KING_SHELTER[rank as usize][file as usize]
            } else {
                -25 - 10 * (rank - 2)
            };
            Phased::new(mg, 10 * centre - 30)
        }
    }
}

const fn build() -> [[Phased; 64]; 12] {
    let mut table = [[Phased::ZERO; 64]; 12];
    let mut k = 0;
    while k < 6 {
        let kind = PieceType::ALL[k];
        let mut sq = 0;
        while sq < 64 {
            let s = shape(kind, sq as i32 % 8, sq as i32 / 8);
            let value = Phased::new(MATERIAL[k].mg + s.mg, MATERIAL[k].eg + s.eg);
            table[Piece::new(Color::White, kind).index()][sq] = value;
            table[Piece::new(Color::Black, kind).index()][sq ^ 56] =
                Phased::new(-value.mg, -value.eg);
            sq += 1;
        }
        k += 1;
    }
    table
}

static PSQT: [[Phased; 64]; 12] = build();

/// The value of `piece` on `sq` from White's point of view (negative for Black's pieces).
#[inline(always)]
pub fn value(piece: Piece, sq: Square) -> Phased {
    PSQT[piece.index()][sq.index()]
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

    #[test]
    fn shapes_point_the_right_way() {
        let knight = |s: &str| value(Piece::WhiteKnight, s.parse().unwrap()).mg;
        assert!(knight("e4") > knight("a1"));
        let pawn = |s: &str| value(Piece::WhitePawn, s.parse().unwrap()).eg;
        assert!(pawn("a7") > pawn("a2"));
        let king = |s: &str| value(Piece::WhiteKing, s.parse().unwrap());
        assert!(king("g1").mg > king("e4").mg && king("e4").eg > king("g1").eg);
    }
}
