//! Draws by agreement in game-manager play (XBoard): answering the opponent's `draw` offer,
//! offering one in dead-drawn positions, and the contempt that the players' ratings add.
//!
//! XBoard's protocol has one message for both: the engine sends `offer draw` before its
//! move to offer a draw or to accept the one it was offered.

use super::Engine;
use crate::search::SearchResult;
use crate::tablebase::Wdl;
use crate::types::{DRAW, Score};

/// A score at or below this (ours, with the contempt added) is worse enough to take a draw
/// at any time...
const ACCEPT_WHEN_WORSE: Score = -50;
/// ...and one at or below this counts as level, a draw worth taking from this move on
/// (g9 scores the blocked king and pawn ending of `tests/xboard.rs` +17 at depth 6).
const LEVEL: Score = 20;
const LEVEL_FROM_MOVE: u16 = 30;
/// A draw is never taken at or above this score, whatever the contempt.
const WINNING: Score = 50;
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
        let ours = result.score + contempt;
        let plies = self.board.plies_played();
        if offered {
            return dead
                || (result.score < WINNING
                    && (ours <= ACCEPT_WHEN_WORSE
                        || (ours <= LEVEL && self.board.fullmove_number() >= LEVEL_FROM_MOVE)));
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

#[cfg(test)]
mod tests {
    use super::*;

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
