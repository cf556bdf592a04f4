//! What turns an evaluation's scores into chances and strength: its win/draw/loss model
//! (UCI_ShowWDL) and the node budget that plays each level of UCI_Elo. Each evaluation has
//! its own, since a centipawn of the network and one of the hand-crafted evaluation are
//! not the same amount of advantage: the hand-crafted one is in `eval`, the network's in
//! its file (`nnue`, with a stated default for files without one).

use crate::types::{MATE_BOUND, Score};

/// The levels of UCI_Elo at which a node budget is fitted, lowest to highest; budgets
/// between them are interpolated (`search::Strength`).
pub const ELO_POINTS: [u32; 5] = [1000, 1500, 2000, 2500, 2800];

/// A logistic model of the side to move's chances at a score: centre `a` (the score that
/// wins half the time) and spread `b` in centipawns, each a cubic in t = material / 58
/// (coefficients from t^3 down), fitted to games by `scripts/fit-wdl.py`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    pub a: [f64; 4],
    pub b: [f64; 4],
}

/// An evaluation's calibration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    pub wdl: WdlModel,
    /// log2 of the nodes a move at each of `ELO_POINTS`.
    pub log2_nodes: [f64; 5],
}

fn cubic(c: [f64; 4], t: f64) -> f64 {
    ((c[0] * t + c[1]) * t + c[2]) * t + c[3]
}

impl WdlModel {
    /// Chances in per mille (win, draw, loss) for the side to move at `score` with
    /// `material` on the board (`Board::material`, clamped to the 17..=78 fitted), summing
    /// to 1000.
    pub fn chances(&self, score: Score, material: i32) -> [u32; 3] {
        if score.abs() >= MATE_BOUND {
            return if score > 0 {
                [1000, 0, 0]
            } else {
                [0, 0, 1000]
            };
        }
        let t = f64::from(material.clamp(17, 78)) / 58.0;
        let a = cubic(self.a, t);
        let b = cubic(self.b, t).max(1.0);
        let x = f64::from(score);
        let per_mille = |v: f64| (1000.0 / (1.0 + ((a - v) / b).exp())).round() as u32;
        let (win, loss) = (per_mille(x), per_mille(-x));
        [win, 1000 - win - loss, loss]
    }
}

/// The section of a network file that holds its calibration: this tag, then the 13 values
/// (`a`, `b`, `log2_nodes`) as little-endian f64.
const TAG: &[u8; 4] = b"CALB";
pub const SECTION_BYTES: usize = 4 + 13 * 8;

impl Calibration {
    /// The section as a network file stores it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = TAG.to_vec();
        for value in self.wdl.a.iter().chain(&self.wdl.b).chain(&self.log2_nodes) {
            out.extend_from_slice(&value.to_le_bytes());
        }
        out
    }

    /// A calibration from its section, or why it cannot be one: the values must be finite,
    /// the model's spread positive over the material fitted, and the budgets rise with the
    /// level within what a search can spend (2^4 to 2^40 nodes).
    pub fn from_bytes(bytes: &[u8]) -> Result<Calibration, String> {
        if bytes.len() != SECTION_BYTES || !bytes.starts_with(TAG) {
            return Err(format!(
                "a calibration section is {SECTION_BYTES} bytes starting with CALB"
            ));
        }
        let values: Vec<f64> = bytes[4..]
            .chunks_exact(8)
            .map(|b| f64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
            .collect();
        if values.iter().any(|v| !v.is_finite()) {
            return Err("the calibration holds a value that is not a finite number".into());
        }
        let take = |at: usize| -> [f64; 4] { std::array::from_fn(|i| values[at + i]) };
        let calibration = Calibration {
            wdl: WdlModel {
                a: take(0),
                b: take(4),
            },
            log2_nodes: std::array::from_fn(|i| values[8 + i]),
        };
        if (17..=78).any(|m| cubic(calibration.wdl.b, f64::from(m) / 58.0) <= 0.0) {
            return Err("the calibration's WDL spread is not positive for all material".into());
        }
        let nodes = calibration.log2_nodes;
        if nodes.windows(2).any(|w| w[0] >= w[1]) || nodes[0] < 4.0 || nodes[4] > 40.0 {
            return Err(
                "the calibration's node budgets must rise with the level, from 2^4 to 2^40".into(),
            );
        }
        Ok(calibration)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    const MODEL: WdlModel = WdlModel {
        a: [-531.710, 1413.124, -1211.555, 449.129],
        b: [-38.047, 83.477, -19.996, 43.444],
    };

    #[test]
    fn chances_add_up_and_follow_the_score() {
        for material in [17, 30, 58, 78] {
            let mut last_win = 0;
            for score in (-1500..=1500).step_by(25) {
                let [w, d, l] = MODEL.chances(score, material);
                assert_eq!(w + d + l, 1000, "{score} {material}");
                assert!(w >= last_win, "win chance falls at {score} {material}");
                last_win = w;
                // The same score for the other side swaps win and loss.
                assert_eq!(MODEL.chances(-score, material), [l, d, w]);
            }
            let (won, lost) = (
                MODEL.chances(1500, material),
                MODEL.chances(-1500, material),
            );
            assert!(won[0] > 900 && lost[2] > 900);
        }
        let even = MODEL.chances(0, 58);
        assert!(even[1] > even[0], "an even position is most likely a draw");
        assert_eq!(MODEL.chances(crate::types::MATE - 5, 40), [1000, 0, 0]);
        assert_eq!(MODEL.chances(-crate::types::MATE + 8, 40), [0, 0, 1000]);
    }

    #[test]
    fn material_in_pawns_and_beyond_the_fit_at_its_edges() {
        assert_eq!(Board::startpos().material(), 78);
        let board = Board::from_fen("4k3/8/8/8/8/8/4P3/3QK3 w - - 0 1").unwrap();
        assert_eq!(board.material(), 10);
        assert_eq!(MODEL.chances(120, 10), MODEL.chances(120, 17));
        assert_eq!(MODEL.chances(120, 90), MODEL.chances(120, 78));
        let board = Board::from_fen("r3k3/pp6/8/8/8/8/PP6/R2QK2N w - - 0 1").unwrap();
        assert_eq!(board.material(), 4 + 10 + 9 + 3);
    }

    #[test]
    fn the_section_reads_back_and_bad_ones_are_refused() {
        let calibration = Calibration {
            wdl: MODEL,
            log2_nodes: [9.45, 12.45, 16.9, 20.6, 22.6],
        };
        let bytes = calibration.to_bytes();
        assert_eq!(bytes.len(), SECTION_BYTES);
        assert_eq!(Calibration::from_bytes(&bytes), Ok(calibration));
        assert!(Calibration::from_bytes(&bytes[..SECTION_BYTES - 1]).is_err());
        let with = |edit: &dyn Fn(&mut Calibration)| {
            let mut c = calibration;
            edit(&mut c);
            Calibration::from_bytes(&c.to_bytes()).unwrap_err()
        };
        assert!(with(&|c| c.log2_nodes[2] = f64::NAN).contains("finite"));
        assert!(with(&|c| c.log2_nodes.swap(1, 2)).contains("rise"));
        assert!(with(&|c| c.wdl.b = [0.0, 0.0, 0.0, -1.0]).contains("spread"));
    }
}
