//! Win, draw and loss chances from a score, for UCI's `wdl` output (option UCI_ShowWDL).
//! A logistic model in the score whose centre and spread depend on the material left,
//! fitted by `scripts/fit-wdl.py` to Ferrum's own games, one for each evaluation.

use crate::board::Board;
use crate::types::{MATE_BOUND, PieceType, Score};

/// A fitted model: centre `a` (the score that wins half the time) and spread `b` in
/// centipawns, each a cubic in t = material / 58 (coefficients from t^3 down).
#[derive(Clone, Copy, Debug)]
pub struct Model {
    a: [f64; 4],
    b: [f64; 4],
}

/// For the hand-crafted evaluation: 43,292 scored moves of Ferrum's self-play at 3+0.03.
pub const HAND_CRAFTED: Model = Model {
    a: [-89.797, 641.370, -1025.994, 566.745],
    b: [86.620, -82.634, -63.997, 123.537],
};

/// For the network: 24,054 scored moves of 200 games between networks at 5+0.05 (g7
/// against g6). The model fitted before, to g6's games against trial 4, fits those moves
/// worse (log-likelihood -13,945 against -13,081), as does one fitted to all 600 games of
/// both matches (-13,419), the hand-crafted model worse still (-14,209).
pub const NETWORK: Model = Model {
    a: [-531.710, 1413.124, -1211.555, 449.129],
    b: [-38.047, 83.477, -19.996, 43.444],
};

fn cubic(c: [f64; 4], t: f64) -> f64 {
    ((c[0] * t + c[1]) * t + c[2]) * t + c[3]
}

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
pub fn wdl(model: &Model, score: Score, material: i32) -> [u32; 3] {
    if score.abs() >= MATE_BOUND {
        return if score > 0 {
            [1000, 0, 0]
        } else {
            [0, 0, 1000]
        };
    }
    let t = f64::from(material.clamp(17, 78)) / 58.0;
    let a = cubic(model.a, t);
    let b = cubic(model.b, t).max(1.0);
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
        for model in [&HAND_CRAFTED, &NETWORK] {
            for material in [17, 30, 58, 78] {
                let mut last_win = 0;
                for score in (-1500..=1500).step_by(25) {
                    let [w, d, l] = wdl(model, score, material);
                    assert_eq!(w + d + l, 1000, "{score} {material}");
                    assert!(w >= last_win, "win chance falls at {score} {material}");
                    last_win = w;
                    // The same score for the other side swaps win and loss.
                    assert_eq!(wdl(model, -score, material), [l, d, w]);
                }
                let (won, lost) = (wdl(model, 1500, material), wdl(model, -1500, material));
                assert!(won[0] > 900 && lost[2] > 900);
            }
            let even = wdl(model, 0, 58);
            assert!(even[1] > even[0], "an even position is most likely a draw");
            assert_eq!(wdl(model, crate::types::MATE - 5, 40), [1000, 0, 0]);
            assert_eq!(wdl(model, -crate::types::MATE + 8, 40), [0, 0, 1000]);
        }
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
