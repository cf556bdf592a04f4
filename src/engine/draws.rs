//! Draws by agreement in game-manager play (XBoard): answering the opponent's `draw` offer,
//! offering one in dead-drawn positions, and the contempt that the players' ratings add.
//!
//! XBoard's protocol has one message for both: the engine sends `offer draw` before its
//! move to offer a draw or to accept the one it was offered.

use super::Engine;
use crate::calibration::WdlModel;
use crate::search::SearchResult;
use crate::tablebase::Wdl;
use crate::types::{DRAW, Score};

/// Offers are judged by our chances in the evaluation's win/draw/loss model, not in
/// centipawns: each network has its own scale (g8 scored the blocked pawn ending of
/// `tests/xboard.rs` +2, g9 +17), and the model fitted to its games undoes it. Chances are
/// per mille; the expected score counts a win 1000 and a draw 500.
///
/// An expected score at or below this (ours, with the contempt added) is worse enough to
/// take a draw at any time...
const ACCEPT_EXPECTED: u32 = 350;
/// ...and one at or below this counts as level, a draw worth taking from this move on
/// when we hold no contempt for it.
const LEVEL_EXPECTED: u32 = 515;
const LEVEL_FROM_MOVE: u16 = 30;
/// A draw is never taken with at least this chance of winning, whatever the contempt.
const WINNING_CHANCE: u32 = 200;
/// Our searches in a row that scored the draw itself, with no capture or pawn move for
/// this many plies, make a dead draw: the game shuffles.
const SHUFFLE_SEARCHES: u32 = 8;
const SHUFFLE_PLIES: u16 = 16;
/// Our own offers come at most once in this many of our moves.
const OFFER_EVERY: usize = 10;
/// Contempt from the ratings: a centipawn for each this many points we are stronger, up
/// to `RATING_CONTEMPT_MAX` either way.
const RATING_POINTS_PER_CP: i32 = 10;
const RATING_CONTEMPT_MAX: i32 = 50;

/// What the game's draw offers and ratings left.
#[derive(Clone, Debug, Default)]
pub struct Draws {
    /// The opponent offered a draw that our next move answers.
    pub offered: bool,
    /// The contempt the `rating` command implies.
    pub rating_contempt: Score,
    /// Plies played when we last offered.
    last_offer: Option<usize>,
    /// Our searches in a row that scored exactly the draw.
    drawn_searches: u32,
}

impl Draws {
    /// `rating OURS THEIRS`: unrated (0) players imply nothing.
    pub fn set_ratings(&mut self, ours: i32, theirs: i32) {
        self.rating_contempt = if ours > 0 && theirs > 0 {
            ((ours - theirs) / RATING_POINTS_PER_CP)
                .clamp(-RATING_CONTEMPT_MAX, RATING_CONTEMPT_MAX)
        } else {
            0
        };
    }

    /// A new game: offers and counts start again; the ratings stay until the next ones.
    pub fn new_game(&mut self) {
        *self = Draws {
            rating_contempt: self.rating_contempt,
            ..Draws::default()
        };
    }
}

impl Engine {
    /// The contempt of our games: the option's and the ratings'.
    pub(super) fn contempt(&self) -> Score {
        self.options.contempt + self.play.draws.rating_contempt
    }

    /// Whether the position is drawn whatever we play: too little material to mate, a draw
    /// in the tables, or a game shuffling at the draw score.
    fn dead_draw(&self) -> bool {
        let board = &self.board;
        let table_draw = self
            .tablebases
            .as_ref()
            .and_then(|tables| tables.probe_wdl(board))
            .is_some_and(|wdl| match wdl {
                Wdl::Draw => true,
                Wdl::BlessedLoss | Wdl::CursedWin => self.options.syzygy_50_move_rule,
                Wdl::Win | Wdl::Loss => false,
            });
        board.is_insufficient_material()
            || table_draw
            || (self.play.draws.drawn_searches >= SHUFFLE_SEARCHES
                && board.halfmove_clock() >= SHUFFLE_PLIES)
    }

    /// Whether to send `offer draw` before playing the move `result` chose: to accept the
    /// opponent's offer when the game is drawn or we are worse (never when winning), or
    /// to offer one ourselves in a dead draw.
    pub(super) fn wants_draw(&mut self, result: &SearchResult) -> bool {
        let contempt = self.contempt();
        let draws = &mut self.play.draws;
        draws.drawn_searches = if result.score == DRAW - contempt {
            draws.drawn_searches + 1
        } else {
            0
        };
        let offered = std::mem::take(&mut self.play.draws.offered);
        let dead = self.dead_draw();
        let plies = self.board.plies_played();
        if offered {
            return dead
                || takes_offer(
                    &self.evaluator().calibration().wdl,
                    result.score,
                    contempt,
                    self.board.material(),
                    self.board.fullmove_number(),
                );
        }
        let draws = &mut self.play.draws;
        let due = draws
            .last_offer
            .is_none_or(|ply| plies >= ply + 2 * OFFER_EVERY);
        if dead && due {
            draws.last_offer = Some(plies);
            return true;
        }
        false
    }
}

/// Whether a draw offered at `score` (the search's) is worth taking, by the chances `model`
/// gives `score + contempt` with `material` on the board at move `move_number`.
fn takes_offer(
    model: &WdlModel,
    score: Score,
    contempt: Score,
    material: i32,
    move_number: u16,
) -> bool {
    let [win, draw, _] = model.chances(score + contempt, material);
    let expected = win + draw / 2;
    let winning = model.chances(score, material)[0] >= WINNING_CHANCE;
    // With contempt a draw is worth less than a level game to us, so level is not enough:
    // at low material a sharp model moves little for the contempt's centipawns.
    let level = expected <= LEVEL_EXPECTED && move_number >= LEVEL_FROM_MOVE && contempt <= 0;
    !winning && (expected <= ACCEPT_EXPECTED || level)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offers_are_judged_alike_at_any_scale_of_the_scores() {
        let model = crate::eval::CALIBRATION.wdl;
        let double = WdlModel {
            a: model.a.map(|c| 2.0 * c),
            b: model.b.map(|c| 2.0 * c),
        };
        let mut taken = Vec::new();
        for material in [17, 30, 50, 78] {
            for score in (-300..=300).step_by(10) {
                for contempt in [-50, 0, 50] {
                    for move_number in [10, 40] {
                        let once = takes_offer(&model, score, contempt, material, move_number);
                        let twice =
                            takes_offer(&double, 2 * score, 2 * contempt, material, move_number);
                        assert_eq!(once, twice, "{score} {contempt} {material} {move_number}");
                        taken.push(once);
                    }
                }
            }
        }
        assert!(taken.contains(&true) && taken.contains(&false));
        // Level late in a bare ending, not early; never when winning, whatever the contempt.
        assert!(takes_offer(&model, 10, 0, 17, 40) && !takes_offer(&model, 10, 0, 17, 10));
        assert!(!takes_offer(&model, 400, -500, 50, 40));
        assert!(takes_offer(&model, -400, 0, 50, 10));
    }

    #[test]
    fn ratings_make_contempt() {
        let mut draws = Draws::default();
        draws.set_ratings(2400, 2200);
        assert_eq!(draws.rating_contempt, 20);
        draws.set_ratings(1800, 2600);
        assert_eq!(draws.rating_contempt, -RATING_CONTEMPT_MAX);
        draws.set_ratings(0, 2600);
        assert_eq!(draws.rating_contempt, 0);
        draws.set_ratings(2500, 2000);
        draws.offered = true;
        draws.new_game();
        assert_eq!((draws.offered, draws.rating_contempt), (false, 50));
    }
}
