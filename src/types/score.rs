//! Search scores in centipawns from the side to move's point of view, with mate scores at the
//! top and bottom of the range.

use std::fmt;

/// A score in centipawns; values beyond `MATE_BOUND` are mate scores.
pub type Score = i32;

/// Deepest ply the search reaches: bounds arrays indexed by ply and the mate-score range.
pub const MAX_PLY: usize = 128;

/// Checkmate at the root; a mate found `n` plies from the root scores `MATE - n`.
pub const MATE: Score = 32_000;
/// Scores at least this far from zero are mates (or being mated).
pub const MATE_BOUND: Score = MATE - MAX_PLY as Score;
/// A win the tablebases prove, `n` plies from the root: `TB_WIN - n`, below every mate
/// score (the tables know who wins, not when the mate comes).
pub const TB_WIN: Score = MATE_BOUND - 1;
/// Scores at least this far from zero are proven wins or losses: mates or table results.
pub const TB_BOUND: Score = TB_WIN - MAX_PLY as Score;
/// Above every reachable score: the initial search window.
pub const INFINITY: Score = MATE + 1;
pub const DRAW: Score = 0;

/// Whether a score announces a mate for either side.
#[inline(always)]
pub const fn is_mate(score: Score) -> bool {
    score.abs() >= MATE_BOUND
}

/// Whether a score is a proven result (a mate or a tablebase win or loss), which counts
/// plies from the root.
#[inline(always)]
pub const fn is_decisive(score: Score) -> bool {
    score.abs() >= TB_BOUND
}

/// A score as UCI prints it: `cp N`, or `mate N` in moves (negative when being mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UciScore(pub Score);

impl UciScore {
    /// Moves to mate (positive: we mate; negative: we are mated), for mate scores.
    pub const fn mate_in(self) -> Option<i32> {
        let s = self.0;
        if s >= MATE_BOUND {
            Some((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Some(-(MATE + s) / 2)
        } else {
            None
        }
    }
}

impl fmt::Display for UciScore {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.mate_in() {
            Some(n) => write!(f, "mate {n}"),
            None => write!(f, "cp {}", self.0),
        }
    }
}

/// A score as a person reads it: `+0.35`, `-1.20`, `mate in 3`, `mated in 2`.
pub fn score_text(score: Score) -> String {
    if is_mate(score) {
        let moves = (MATE - score.abs() + 1) / 2;
        if score > 0 {
            format!("mate in {moves}")
        } else {
            format!("mated in {moves}")
        }
    } else {
        format!("{:+.2}", f64::from(score) / 100.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_for_people() {
        assert_eq!(score_text(35), "+0.35");
        assert_eq!(score_text(-120), "-1.20");
        assert_eq!(score_text(MATE - 5), "mate in 3");
        assert_eq!(score_text(-(MATE - 4)), "mated in 2");
    }

    #[test]
    fn mate_scores_in_moves() {
        assert_eq!(UciScore(MATE - 1).to_string(), "mate 1");
        assert_eq!(UciScore(MATE - 3).to_string(), "mate 2");
        assert_eq!(UciScore(-MATE).to_string(), "mate 0");
        assert_eq!(UciScore(-(MATE - 2)).to_string(), "mate -1");
        assert_eq!(UciScore(-(MATE - 4)).to_string(), "mate -2");
        assert_eq!(UciScore(35).to_string(), "cp 35");
        assert!(is_mate(MATE_BOUND) && !is_mate(MATE_BOUND - 1));
    }
}
