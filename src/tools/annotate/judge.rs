//! How good a move was, from the chances it gave away: the side's expected score (win plus
//! half the draws, from the evaluation's WDL model) before the move and after it, in
//! percentage points. The verdicts (`?!`, `?`, `??`) and the accuracy follow from that loss,
//! not from centipawns, so that a pawn thrown away in a won or lost position costs little
//! and one thrown away in a balanced one costs much.

use crate::board::Board;
use crate::calibration::WdlModel;
use crate::tablebase::Wdl;
use crate::types::Score;

/// The verdicts, by the expected score a move lost (percentage points).
pub const INACCURACY: f64 = 10.0;
pub const MISTAKE: f64 = 20.0;
pub const BLUNDER: f64 = 30.0;

/// What a move was judged to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Verdict {
    /// The verdict of a move that lost `loss` points, if it earns one.
    pub fn of(loss: f64) -> Option<Verdict> {
        if loss >= BLUNDER {
            Some(Verdict::Blunder)
        } else if loss >= MISTAKE {
            Some(Verdict::Mistake)
        } else if loss >= INACCURACY {
            Some(Verdict::Inaccuracy)
        } else {
            None
        }
    }

    /// PGN's numeric annotation glyph: `$6` (?!), `$2` (?), `$4` (??).
    pub fn nag(self) -> u8 {
        match self {
            Verdict::Inaccuracy => 6,
            Verdict::Mistake => 2,
            Verdict::Blunder => 4,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Verdict::Inaccuracy => "Inaccuracy",
            Verdict::Mistake => "Mistake",
            Verdict::Blunder => "Blunder",
        }
    }
}

/// The side to move's expected score in percent (0 to 100) at `score` (its own point of
/// view) in `board`, by the WDL model: win plus half the draws.
pub fn expected(model: &WdlModel, score: Score, board: &Board) -> f64 {
    let [win, draw, _] = model.chances(score, board.material());
    f64::from(2 * win + draw) / 20.0
}

/// The side to move's expected score in percent when the tablebases give `wdl`; a win
/// or loss the fifty-move rule turns into a draw counts as a draw.
pub fn expected_by_table(wdl: Wdl) -> f64 {
    match wdl {
        Wdl::Win => 100.0,
        Wdl::Loss => 0.0,
        Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => 50.0,
    }
}

/// A move's accuracy in percent from the points it lost: 100 for none, falling away
/// exponentially (about 65 at a loss of 10, 15 at 40). lichess.org's published curve for
/// the same measure, so that figures compare with theirs.
pub fn move_accuracy(loss: f64) -> f64 {
    (103.1668 * (-0.04354 * loss.max(0.0)).exp() - 3.1669).clamp(0.0, 100.0)
}

/// One side's moves in one game, added up.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Moves judged (book and table moves included).
    pub moves: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// Sums of the points lost and of the moves' accuracies.
    loss: f64,
    accuracy: f64,
}

impl Tally {
    /// Adds a move that lost `loss` points and earned `verdict`.
    pub fn add(&mut self, loss: f64, verdict: Option<Verdict>) {
        self.moves += 1;
        self.loss += loss;
        self.accuracy += move_accuracy(loss);
        match verdict {
            Some(Verdict::Inaccuracy) => self.inaccuracies += 1,
            Some(Verdict::Mistake) => self.mistakes += 1,
            Some(Verdict::Blunder) => self.blunders += 1,
            None => {}
        }
    }

    /// The mean of the moves' accuracies, in percent; `None` without moves.
    pub fn accuracy(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.accuracy / self.moves as f64)
    }

    /// The mean points lost a move; `None` without moves.
    pub fn average_loss(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.loss / self.moves as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluator::Evaluator;
    use crate::types::MATE;

    #[test]
    fn verdicts_by_the_points_lost() {
        assert_eq!(Verdict::of(0.0), None);
        assert_eq!(Verdict::of(9.99), None);
        assert_eq!(Verdict::of(10.0), Some(Verdict::Inaccuracy));
        assert_eq!(Verdict::of(25.0), Some(Verdict::Mistake));
        assert_eq!(Verdict::of(30.0), Some(Verdict::Blunder));
        assert_eq!(
            [Verdict::Inaccuracy, Verdict::Mistake, Verdict::Blunder].map(Verdict::nag),
            [6, 2, 4]
        );
    }

    #[test]
    fn a_pawn_matters_most_when_the_game_is_balanced() {
        let model = Evaluator::default().calibration().wdl;
        let board = Board::startpos();
        let even = expected(&model, 0, &board);
        assert!((even - 50.0).abs() < 0.1, "{even}");
        let loss =
            |from: Score, to: Score| expected(&model, from, &board) - expected(&model, to, &board);
        assert!(loss(100, 0) > 3.0 * loss(900, 800), "{}", loss(100, 0));
        assert_eq!(expected(&model, MATE - 3, &board), 100.0);
        assert_eq!(expected(&model, -MATE + 4, &board), 0.0);
        assert_eq!(expected_by_table(Wdl::CursedWin), 50.0);
    }

    #[test]
    fn accuracy_falls_with_the_loss() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(move_accuracy(10.0) > 60.0 && move_accuracy(10.0) < 70.0);
        assert_eq!(move_accuracy(200.0), 0.0);
        let mut tally = Tally::default();
        assert_eq!(tally.accuracy(), None);
        tally.add(0.0, None);
        tally.add(40.0, Some(Verdict::Blunder));
        assert_eq!((tally.moves, tally.blunders), (2, 1));
        assert_eq!(tally.average_loss(), Some(20.0));
        let accuracy = tally.accuracy().unwrap();
        assert!(accuracy > 55.0 && accuracy < 60.0, "{accuracy}");
    }
}
