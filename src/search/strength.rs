//! Playing below full strength (UCI_LimitStrength and UCI_Elo). A weaker Ferrum searches
//! fewer nodes, and below master level it searches its best few moves and plays one of
//! them drawn by how little it gives away: the errors of a weaker player, a shallower view
//! and a second-best move now and then, rather than random blunders. The node budget of
//! each level is the evaluation's own (`Calibration::log2_nodes`), fitted by matches
//! against engines of known strength (docs/strength-limit.md).

use super::{SearchInfo, SearchResult};
use crate::calibration::{Calibration, ELO_POINTS};
use crate::types::Score;

/// The lowest and highest Elo offered; the highest is still below full strength.
pub const MIN_ELO: u32 = ELO_POINTS[0];
pub const MAX_ELO: u32 = ELO_POINTS[ELO_POINTS.len() - 1];

/// How far below the best line a move may score and still be played often, in
/// centipawns, at `MIN_ELO`; it falls to none at `MAX_ELO`.
const BASE_TEMPERATURE: f64 = 100.0;
/// A line that loses this many temperatures against the best is never played: mistakes,
/// not gifts.
const MAX_LOSS: f64 = 4.0;
/// Lines searched to choose among, when the choice is wide enough to matter.
const CANDIDATES: usize = 4;
const MIN_TEMPERATURE: f64 = 5.0;
/// Scores beyond this count as this much, so that a found mate is not given away for the
/// sake of variety and a line that gets mated is never played.
const SCORE_CAP: Score = 2_000;

/// A strength limit on the Elo scale of the calibration opponents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    elo: u32,
    /// The evaluation's node budgets (`Calibration::log2_nodes`): the scale differs by
    /// evaluation.
    log2_nodes: [f64; 5],
}

impl Strength {
    /// The limit for `elo`, brought inside the range offered, for a search with the
    /// evaluation `calibration` belongs to.
    pub fn new(elo: u32, calibration: &Calibration) -> Strength {
        Strength {
            elo: elo.clamp(MIN_ELO, MAX_ELO),
            log2_nodes: calibration.log2_nodes,
        }
    }

    /// Nodes for one move, interpolated in log2 between the budgets of the levels around.
    pub fn nodes(self) -> u64 {
        let point = |i: usize| (f64::from(ELO_POINTS[i]), self.log2_nodes[i]);
        let above = (1..ELO_POINTS.len())
            .find(|&i| self.elo <= ELO_POINTS[i])
            .unwrap_or(ELO_POINTS.len() - 1);
        let (low, high) = (point(above - 1), point(above));
        let log2 = low.1 + (high.1 - low.1) * (f64::from(self.elo) - low.0) / (high.0 - low.0);
        log2.exp2().round() as u64
    }

    /// The lines to search (MultiPV), of which one is played.
    pub fn lines(self) -> usize {
        if self.temperature() >= MIN_TEMPERATURE {
            CANDIDATES
        } else {
            1
        }
    }

    /// The spread of the choice in centipawns: wide for a beginner, none at the top.
    fn temperature(self) -> f64 {
        let below_top = f64::from(MAX_ELO - self.elo) / f64::from(MAX_ELO - MIN_ELO);
        BASE_TEMPERATURE * below_top * below_top
    }

    /// The index of the line to play among `lines` (best first). Each line is weighted by
    /// `exp(-loss / temperature)`, its loss against the best in centipawns; lines that lose
    /// too much are left out. `draw` is a random number.
    pub fn choose(self, lines: &[SearchInfo], draw: u64) -> usize {
        let t = self.temperature();
        let Some(best) = lines.first() else { return 0 };
        if t < MIN_TEMPERATURE {
            return 0;
        }
        let capped = |s: Score| f64::from(s.clamp(-SCORE_CAP, SCORE_CAP));
        let weights: Vec<f64> = lines
            .iter()
            .map(|l| {
                let loss = capped(best.score) - capped(l.score);
                if loss > MAX_LOSS * t || l.pv.is_empty() {
                    0.0
                } else {
                    (-loss / t).exp()
                }
            })
            .collect();
        // 53 random bits: uniform in [0, 1).
        let unit = (draw >> 11) as f64 / (1u64 << 53) as f64;
        let mut target = unit * weights.iter().sum::<f64>();
        for (i, w) in weights.iter().enumerate() {
            if target < *w {
                return i;
            }
            target -= w;
        }
        0
    }

    /// Makes the chosen line of `result` the one played: its move becomes the best move,
    /// its second move the ponder move, and it leads the lines.
    pub fn apply(self, result: &mut SearchResult, draw: u64) {
        let chosen = self.choose(&result.lines, draw);
        if chosen == 0 {
            return;
        }
        let line = result.lines.remove(chosen);
        result.best = line.pv.first().copied();
        result.ponder = line.pv.get(1).copied();
        result.score = line.score;
        result.lines.insert(0, line);
        for (i, line) in result.lines.iter_mut().enumerate() {
            line.multipv = i + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::rules::Notation;
    use std::time::Duration;

    /// A level with the hand-crafted evaluation's scale, and with the network's.
    fn hce(elo: u32) -> Strength {
        Strength::new(elo, &crate::eval::CALIBRATION)
    }

    fn network(elo: u32) -> Strength {
        Strength::new(elo, &crate::nnue::DEFAULT_CALIBRATION)
    }

    fn lines(scores: &[Score]) -> Vec<SearchInfo> {
        let board = Board::startpos();
        let moves = ["e2e4", "d2d4", "g1f3", "c2c4", "b2b3"];
        scores
            .iter()
            .zip(moves)
            .enumerate()
            .map(|(i, (&score, m))| {
                SearchInfo::bare(5, i + 1, score, vec![board.parse_move(m).unwrap()])
            })
            .collect()
    }

    /// How often each line is chosen over `n` evenly spread draws.
    fn shares(strength: Strength, lines: &[SearchInfo], n: usize) -> Vec<usize> {
        let mut counts = vec![0; lines.len()];
        for k in 0..n {
            let unit = (k as f64 + 0.5) / n as f64;
            counts[strength.choose(lines, (unit * u64::MAX as f64) as u64)] += 1;
        }
        counts
    }

    #[test]
    fn the_scale_rises_with_elo() {
        let (low, mid, top) = (hce(MIN_ELO), hce(2000), hce(MAX_ELO));
        assert!(low.nodes() < mid.nodes() && mid.nodes() < top.nodes());
        assert_eq!(low.nodes(), 1 << 10);
        assert_eq!(hce(1500).nodes(), 1 << 13);
        assert_eq!(hce(1750).nodes(), 51_419, "2^15.65");
        assert_eq!(top.nodes(), 1 << 24);
        assert!(low.temperature() > mid.temperature() && mid.temperature() > 0.0);
        assert_eq!(top.temperature(), 0.0);
        assert_eq!((low.lines(), top.lines()), (CANDIDATES, 1));
        assert_eq!(hce(100), low);
        assert_eq!(hce(5000), top);
    }

    #[test]
    fn the_network_plays_a_level_on_fewer_nodes() {
        for elo in [MIN_ELO, 1500, 1750, 2000, MAX_ELO] {
            let (hce, network) = (hce(elo), network(elo));
            assert!(network.nodes() < hce.nodes(), "{elo}");
            assert_eq!(hce.temperature(), network.temperature());
        }
        assert_eq!(network(1500).nodes(), 5_595, "2^12.45");
    }

    #[test]
    fn better_lines_are_chosen_more_often_and_bad_ones_never() {
        let set = lines(&[50, 40, 0, -700]);
        let weak = shares(hce(1200), &set, 10_000);
        assert!(
            weak[0] > weak[1] && weak[1] > weak[2] && weak[2] > 0,
            "{weak:?}"
        );
        assert_eq!(weak[3], 0, "a piece is never given away");
        let strong = shares(hce(2600), &set, 10_000);
        assert!(
            strong[0] > weak[0] && strong[2] < weak[2],
            "{strong:?} {weak:?}"
        );
        assert_eq!(shares(hce(MAX_ELO), &set, 1_000)[0], 1_000);
    }

    #[test]
    fn a_mate_is_not_given_away() {
        let set = lines(&[crate::types::MATE - 3, 300, 280]);
        assert_eq!(shares(hce(MIN_ELO), &set, 1_000)[0], 1_000);
    }

    #[test]
    fn the_chosen_line_leads_the_result() {
        let set = lines(&[50, 45, 40]);
        let mut result = SearchResult {
            best: Some(set[0].pv[0]),
            ponder: None,
            score: 50,
            depth: 5,
            nodes: 0,
            tbhits: 0,
            time: Duration::ZERO,
            lines: set.clone(),
        };
        // The highest draw falls on the last line with any weight.
        hce(MIN_ELO).apply(&mut result, u64::MAX);
        assert_eq!(result.best, Some(set[2].pv[0]));
        assert_eq!(result.score, 40);
        assert_eq!(result.lines[0].pv, set[2].pv);
        let numbers: Vec<usize> = result.lines.iter().map(|l| l.multipv).collect();
        assert_eq!(numbers, [1, 2, 3]);
    }
}
