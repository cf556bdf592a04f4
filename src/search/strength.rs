//! Playing below full strength (UCI_LimitStrength and UCI_Elo). A weaker Ferrum searches
//! fewer nodes, and below master level it searches its best few moves and plays one of
//! them drawn by how little it gives away: the errors of a weaker player, a shallower view
//! and a second-best move now and then, rather than random blunders. The scale was
//! calibrated by matches against engines of known strength (docs/strength-limit.md).

use super::{SearchInfo, SearchResult};
use crate::types::Score;

/// The lowest and highest Elo offered; the highest is still below full strength.
pub const MIN_ELO: u32 = 1000;
pub const MAX_ELO: u32 = 2800;

/// The node budget of a move by Elo, as (Elo, log2 of the nodes with the hand-crafted
/// evaluation, with the network), interpolated between the points: 1,000 nodes at the
/// bottom, 8,000 at 1500, 320,000 at 2000, 4 million at 2500 with the hand-crafted
/// evaluation. Fitted to matches against Stockfish 15.1 at the same UCI_Elo; the network's
/// column to matches against the hand-crafted evaluation at the same UCI_Elo
/// (docs/strength-limit.md). Stockfish's scale stretches between 1500 and 2000, hence the
/// steeper middle.
const NODE_SCALE: [(u32, f64, f64); 5] = [
    (MIN_ELO, 10.0, 9.45),
    (1500, 13.0, 12.45),
    (2000, 18.3, 16.9),
    (2500, 22.0, 20.6),
    (MAX_ELO, 24.0, 22.6),
];
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    elo: u32,
    /// Whether the search evaluates with the network (the scale differs by evaluation).
    network: bool,
}

impl Strength {
    /// The limit for `elo`, brought inside the range offered, for a search that evaluates
    /// with the network or not.
    pub fn new(elo: u32, network: bool) -> Strength {
        Strength {
            elo: elo.clamp(MIN_ELO, MAX_ELO),
            network,
        }
    }

    /// Nodes for one move, from `NODE_SCALE`.
    pub fn nodes(self) -> u64 {
        let column = |point: &(u32, f64, f64)| {
            let log2 = if self.network { point.2 } else { point.1 };
            (f64::from(point.0), log2)
        };
        let log2 = match NODE_SCALE.windows(2).find(|w| self.elo <= w[1].0) {
            Some(w) => {
                let (low, high) = (column(&w[0]), column(&w[1]));
                low.1 + (high.1 - low.1) * (f64::from(self.elo) - low.0) / (high.0 - low.0)
            }
            None => column(&NODE_SCALE[NODE_SCALE.len() - 1]).1,
        };
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

    fn lines(scores: &[Score]) -> Vec<SearchInfo> {
        let board = Board::startpos();
        let moves = ["e2e4", "d2d4", "g1f3", "c2c4", "b2b3"];
        scores
            .iter()
            .zip(moves)
            .enumerate()
            .map(|(i, (&score, m))| SearchInfo {
                depth: 5,
                seldepth: 5,
                multipv: i + 1,
                score,
                bound: None,
                nodes: 0,
                time: Duration::ZERO,
                hashfull: 0,
                tbhits: 0,
                pv: vec![board.parse_move(m).unwrap()],
                wdl: None,
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
        let (low, mid, top) = (
            Strength::new(MIN_ELO, false),
            Strength::new(2000, false),
            Strength::new(MAX_ELO, false),
        );
        assert!(low.nodes() < mid.nodes() && mid.nodes() < top.nodes());
        assert_eq!(low.nodes(), 1 << 10);
        assert_eq!(Strength::new(1500, false).nodes(), 1 << 13);
        assert_eq!(Strength::new(1750, false).nodes(), 51_419, "2^15.65");
        assert_eq!(top.nodes(), 1 << 24);
        assert!(low.temperature() > mid.temperature() && mid.temperature() > 0.0);
        assert_eq!(top.temperature(), 0.0);
        assert_eq!((low.lines(), top.lines()), (CANDIDATES, 1));
        assert_eq!(Strength::new(100, false), low);
        assert_eq!(Strength::new(5000, false), top);
    }

    #[test]
    fn the_network_plays_a_level_on_fewer_nodes() {
        for elo in [MIN_ELO, 1500, 1750, 2000, MAX_ELO] {
            let (hce, network) = (Strength::new(elo, false), Strength::new(elo, true));
            assert!(network.nodes() < hce.nodes(), "{elo}");
            assert_eq!(hce.temperature(), network.temperature());
        }
        assert_eq!(Strength::new(1500, true).nodes(), 5_595, "2^12.45");
    }

    #[test]
    fn better_lines_are_chosen_more_often_and_bad_ones_never() {
        let set = lines(&[50, 40, 0, -700]);
        let weak = shares(Strength::new(1200, false), &set, 10_000);
        assert!(
            weak[0] > weak[1] && weak[1] > weak[2] && weak[2] > 0,
            "{weak:?}"
        );
        assert_eq!(weak[3], 0, "a piece is never given away");
        let strong = shares(Strength::new(2600, false), &set, 10_000);
        assert!(
            strong[0] > weak[0] && strong[2] < weak[2],
            "{strong:?} {weak:?}"
        );
        assert_eq!(shares(Strength::new(MAX_ELO, false), &set, 1_000)[0], 1_000);
    }

    #[test]
    fn a_mate_is_not_given_away() {
        let set = lines(&[crate::types::MATE - 3, 300, 280]);
        assert_eq!(shares(Strength::new(MIN_ELO, false), &set, 1_000)[0], 1_000);
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
        Strength::new(MIN_ELO, false).apply(&mut result, u64::MAX);
        assert_eq!(result.best, Some(set[2].pv[0]));
        assert_eq!(result.score, 40);
        assert_eq!(result.lines[0].pv, set[2].pv);
        let numbers: Vec<usize> = result.lines.iter().map(|l| l.multipv).collect();
        assert_eq!(numbers, [1, 2, 3]);
    }
}
