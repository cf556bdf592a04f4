//! Win, draw and loss chances from a score, for UCI's `wdl` output (option UCI_ShowWDL).
//! A logistic model in the score whose centre and spread depend on the material left,
//! fitted by `scripts/fit-wdl.py` to Ferrum's own games (see docs/strength.md).

use crate::board::Board;
use crate::types::{MATE_BOUND, PieceType, Score};

/// Centre `a` (the score that wins half the time) and spread `b`, each `c0 + c1 * t` for
/// t = material / 58, in centipawns.
const A: [f64; 2] = [255.8, -96.0];
const B: [f64; 2] = [46.0, 144.2];

/// Material in pawns (knight and bishop 3, rook 5, queen 9), clamped to 17..=78 as fitted.
pub fn material(board: &Board) -> i32 {
    let count = |kind| board.kind(kind).count() as i32;
    let sum = count(PieceType::Pawn)
        + 3 * (count(PieceType::Knight) + count(PieceType::Bishop))
        + 5 * count(PieceType::Rook)
        + 9 * count(PieceType::Queen);
    sum.clamp(17, 78)
}

/// Chances in per mille (win, draw, loss) for the side to move at `score`, summing to 1000.
pub fn wdl(score: Score, material: i32) -> [u32; 3] {
    if score.abs() >= MATE_BOUND {
        return if score > 0 {
            [1000, 0, 0]
        } else {
            [0, 0, 1000]
        };
    }
    let t = f64::from(material.clamp(17, 78)) / 58.0;
    let a = A[0] + A[1] * t;
    let b = (B[0] + B[1] * t).max(1.0);
    let x = f64::from(score);
    let per_mille = |v: f64| (1000.0 / (1.0 + ((a - v) / b).exp())).round() as u32;
    let (win, loss) = (per_mille(x), per_mille(-x));
    [win, 1000 - win - loss, loss]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_add_up_and_follow_the_score() {
        for material in [17, 30, 58, 78] {
            let mut last_win = 0;
            for score in (-1500..=1500).step_by(25) {
                let [w, d, l] = wdl(score, material);
                assert_eq!(w + d + l, 1000, "{score} {material}");
                assert!(w >= last_win, "win chance falls at {score} {material}");
                last_win = w;
                // The same score for the other side swaps win and loss.
                assert_eq!(wdl(-score, material), [l, d, w]);
            }
            assert!(wdl(1500, material)[0] > 900 && wdl(-1500, material)[2] > 900);
        }
        assert!(
            wdl(0, 58)[1] > wdl(0, 58)[0],
            "an even position is most likely a draw"
        );
        assert_eq!(wdl(crate::types::MATE - 5, 40), [1000, 0, 0]);
        assert_eq!(wdl(-crate::types::MATE + 8, 40), [0, 0, 1000]);
    }

    #[test]
    fn material_in_pawns() {
        assert_eq!(material(&Board::startpos()), 78);
        let board = Board::from_fen("4k3/8/8/8/8/8/4P3/3QK3 w - - 0 1").unwrap();
        assert_eq!(material(&board), 17);
        let board = Board::from_fen("r3k3/pp6/8/8/8/8/PP6/R2QK2N w - - 0 1").unwrap();
        assert_eq!(material(&board), 4 + 10 + 9 + 3);
    }
}
