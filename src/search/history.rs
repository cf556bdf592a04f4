//! Quiet-move history: how often a move of this piece to this square caused a cutoff,
//! decayed so that recent experience counts most; alone ("butterfly" style) and after a
//! given move one and two plies before (continuation history), which tells the replies
//! that work against a particular move; and for captures, by piece, target and victim
//! (capture history), which tells the captures that win from those that only look good.

use crate::types::{Piece, PieceType, Square};

/// Values stay within +-MAX_HISTORY.
pub const MAX_HISTORY: i32 = 16_384;

pub struct History {
    table: [[i32; 64]; 12],
}

impl Default for History {
    fn default() -> History {
        History {
            table: [[0; 64]; 12],
        }
    }
}

/// Reward (or penalty) for a move at `depth`: deeper cutoffs say more.
pub fn bonus(depth: i32) -> i32 {
    (16 * depth * depth + 32 * depth).min(1_600)
}

/// A move's history score, for the move picker.
pub trait MoveScore {
    /// A quiet move of `piece` to `to`.
    fn quiet(&self, piece: Piece, to: Square) -> i32;

    /// A capture or promotion by `piece` on `to` of a `victim` (a pawn where there is
    /// none: en passant, or a promotion, which cannot be confused on the edge ranks).
    fn noisy(&self, _piece: Piece, _to: Square, _victim: PieceType) -> i32 {
        0
    }
}

/// Moves `entry` towards +-MAX_HISTORY by `delta`, less the closer it already is
/// ("gravity"), so entries never overflow and old results fade.
#[inline(always)]
fn nudge(entry: i32, delta: i32) -> i32 {
    let delta = delta.clamp(-MAX_HISTORY, MAX_HISTORY);
    entry + delta - entry * delta.abs() / MAX_HISTORY
}

impl MoveScore for History {
    fn quiet(&self, piece: Piece, to: Square) -> i32 {
        self.get(piece, to)
    }
}

impl History {
    #[inline(always)]
    pub fn get(&self, piece: Piece, to: Square) -> i32 {
        self.table[piece.index()][to.index()]
    }

    /// Halves every entry, so that a new search's results soon outweigh the last one's.
    pub fn age(&mut self) {
        self.table.iter_mut().flatten().for_each(|v| *v /= 2);
    }

    pub fn update(&mut self, piece: Piece, to: Square, delta: i32) {
        let entry = &mut self.table[piece.index()][to.index()];
        *entry = nudge(*entry, delta);
    }
}

/// A move as the continuation history sees it: the piece that moved and its target.
pub const MOVES: usize = 12 * 64;

/// The continuation row of a distance the search does not look back: kept at zero.
pub const UNUSED: usize = MOVES + 1;

/// The index of a move of `piece` to `to`; `MOVES` stands for no move (a null move, or
/// before the root).
#[inline(always)]
pub fn move_index(piece: Piece, to: Square) -> usize {
    piece.index() * 64 + to.index()
}

/// Continuation history: [earlier move][this move], one table for both distances (as the
/// same pair of moves means much the same one or two plies apart).
///
/// Aged lazily: `age` only counts, and a row takes the halvings it missed when `refresh`
/// is called for it, before a search reads or writes it (the search refreshes the row of
/// each move it makes). Halving k times, rounding toward zero each time, is one division
/// by 2^k rounded toward zero, so every entry read is the one halving the whole table at
/// each `age` would give; but a search of a few thousand nodes touches about a quarter
/// of the 770 rows, and the sweep through all of them was 4% of datagen's time.
pub struct ContinuationHistory {
    table: Vec<[i16; MOVES]>,
    /// `age` calls so far.
    ages: u32,
    /// The `ages` each row is up to date with.
    aged: Vec<u32>,
}

impl Default for ContinuationHistory {
    fn default() -> ContinuationHistory {
        ContinuationHistory {
            table: vec![[0; MOVES]; UNUSED + 1],
            ages: 0,
            aged: vec![0; UNUSED + 1],
        }
    }
}

impl ContinuationHistory {
    /// The scores of every move after `earlier` (refreshed since the last `age`).
    #[inline(always)]
    pub fn after(&self, earlier: usize) -> &[i16; MOVES] {
        debug_assert_eq!(self.aged[earlier], self.ages, "row {earlier} not refreshed");
        &self.table[earlier]
    }

    /// Nudges the score of a move after `earlier` (refreshed since the last `age`).
    pub fn update(&mut self, earlier: usize, piece: Piece, to: Square, delta: i32) {
        debug_assert_eq!(self.aged[earlier], self.ages, "row {earlier} not refreshed");
        let entry = &mut self.table[earlier][move_index(piece, to)];
        // Within +-MAX_HISTORY, which fits 16 bits.
        *entry = nudge(i32::from(*entry), delta) as i16;
    }

    /// Halves every entry, so that a new search's results soon outweigh the last one's:
    /// the rows of no move and `UNUSED` now, the others when they are refreshed.
    pub fn age(&mut self) {
        self.ages = self.ages.wrapping_add(1);
        self.refresh(MOVES);
        self.refresh(UNUSED);
    }

    /// Brings row `earlier` up to date with the `age` calls it missed.
    #[inline(always)]
    pub fn refresh(&mut self, earlier: usize) {
        let missed = self.ages.wrapping_sub(self.aged[earlier]);
        if missed != 0 {
            self.catch_up(earlier, missed);
        }
    }

    #[cold]
    fn catch_up(&mut self, earlier: usize, missed: u32) {
        self.aged[earlier] = self.ages;
        let row = &mut self.table[earlier];
        // Sixteen halvings leave any i16 at 0.
        if missed >= 16 {
            row.fill(0);
            return;
        }
        let shift = missed as i16;
        let round = ((1i32 << shift) - 1) as i16;
        for v in row.iter_mut() {
            // An arithmetic shift rounds down; adding 2^k - 1 to a negative value first
            // makes it round toward zero, as halving does.
            *v = (*v + ((*v >> 15) & round)) >> shift;
        }
    }
}

/// Capture history: [piece][target][victim].
pub struct CaptureHistory {
    table: [[[i16; 6]; 64]; 12],
}

impl Default for CaptureHistory {
    fn default() -> CaptureHistory {
        CaptureHistory {
            table: [[[0; 6]; 64]; 12],
        }
    }
}

impl CaptureHistory {
    #[inline(always)]
    pub fn get(&self, piece: Piece, to: Square, victim: PieceType) -> i32 {
        i32::from(self.table[piece.index()][to.index()][victim.index()])
    }

    pub fn update(&mut self, piece: Piece, to: Square, victim: PieceType, delta: i32) {
        let entry = &mut self.table[piece.index()][to.index()][victim.index()];
        *entry = nudge(i32::from(*entry), delta) as i16;
    }

    pub fn age(&mut self) {
        self.table
            .iter_mut()
            .flatten()
            .flatten()
            .for_each(|v| *v /= 2);
    }
}

/// Counter moves: the quiet move (as piece and target) that last refuted each move.
pub struct CounterMoves {
    table: Vec<u16>,
}

/// No counter move known.
const NO_COUNTER: u16 = u16::MAX;

impl Default for CounterMoves {
    fn default() -> CounterMoves {
        CounterMoves {
            table: vec![NO_COUNTER; MOVES + 1],
        }
    }
}

impl CounterMoves {
    /// The refutation of `earlier`, as a `move_index`, or `usize::MAX` for none.
    #[inline(always)]
    pub fn of(&self, earlier: usize) -> usize {
        match self.table[earlier] {
            NO_COUNTER => usize::MAX,
            i => usize::from(i),
        }
    }

    pub fn set(&mut self, earlier: usize, piece: Piece, to: Square) {
        self.table[earlier] = move_index(piece, to) as u16;
    }
}

/// The history scores at one node: for quiet moves the butterfly history, the
/// continuation histories after the moves one, two and four plies before (the last the
/// zero row `UNUSED` when not in use) and the counter move's bonus; for the others the
/// capture history.
pub struct NodeHistory<'a> {
    pub butterfly: &'a History,
    pub after: [&'a [i16; MOVES]; 3],
    pub captures: &'a CaptureHistory,
    /// The counter move to the last move (a `move_index`, `usize::MAX` for none), and the
    /// bonus it gets.
    pub counter: (usize, i32),
}

impl MoveScore for NodeHistory<'_> {
    #[inline(always)]
    fn quiet(&self, piece: Piece, to: Square) -> i32 {
        let i = move_index(piece, to);
        self.butterfly.get(piece, to)
            + i32::from(self.after[0][i])
            + i32::from(self.after[1][i])
            + i32::from(self.after[2][i])
            + if i == self.counter.0 {
                self.counter.1
            } else {
                0
            }
    }

    #[inline(always)]
    fn noisy(&self, piece: Piece, to: Square, victim: PieceType) -> i32 {
        self.captures.get(piece, to, victim)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saturates_within_bounds() {
        let mut h = History::default();
        let to = Square::E1;
        for _ in 0..1_000 {
            h.update(Piece::WhiteRook, to, bonus(20));
        }
        let v = h.get(Piece::WhiteRook, to);
        assert!(v > MAX_HISTORY * 9 / 10 && v <= MAX_HISTORY);
        for _ in 0..1_000 {
            h.update(Piece::WhiteRook, to, -bonus(20));
        }
        assert!(h.get(Piece::WhiteRook, to) >= -MAX_HISTORY);
        assert!(h.get(Piece::WhiteRook, to) < 0);
    }

    #[test]
    fn node_scores_add_the_tables_of_a_kind_of_move() {
        let (knight, e5, f3) = (Piece::WhiteKnight, Square::new(4, 4), Square::new(5, 2));
        let earlier = move_index(Piece::BlackPawn, Square::new(3, 4));
        let mut butterfly = History::default();
        let mut cont = ContinuationHistory::default();
        butterfly.update(knight, e5, 100);
        cont.update(earlier, knight, e5, 300);
        for _ in 0..1_000 {
            cont.update(MOVES, knight, f3, -bonus(20));
        }
        let mut captures = CaptureHistory::default();
        captures.update(knight, e5, PieceType::Rook, 500);
        let node = NodeHistory {
            butterfly: &butterfly,
            after: [cont.after(earlier), cont.after(MOVES), cont.after(UNUSED)],
            captures: &captures,
            counter: (usize::MAX, 0),
        };
        assert_eq!(node.quiet(knight, e5), 400);
        let mut counters = CounterMoves::default();
        assert_eq!(counters.of(earlier), usize::MAX);
        counters.set(earlier, knight, e5);
        let with_counter = NodeHistory {
            counter: (counters.of(earlier), 1_000),
            ..node
        };
        assert_eq!(with_counter.quiet(knight, e5), 1_400);
        assert_eq!(with_counter.quiet(Piece::WhiteBishop, e5), 0);
        assert_eq!(node.noisy(knight, e5, PieceType::Rook), 500);
        assert_eq!(node.noisy(knight, e5, PieceType::Bishop), 0);
        let f3_score = node.quiet(knight, f3);
        assert!(
            (-MAX_HISTORY..-MAX_HISTORY * 9 / 10).contains(&f3_score),
            "{f3_score}"
        );
        cont.age();
        cont.refresh(earlier);
        assert_eq!(cont.after(earlier)[move_index(knight, e5)], 150);
    }

    /// Lazy ageing gives every entry the value that halving it at each `age` would, however
    /// many ages a row missed.
    #[test]
    fn rows_refreshed_late_hold_the_halved_values() {
        let (earlier, later) = (move_index(Piece::BlackPawn, Square::new(3, 4)), 5);
        let mut cont = ContinuationHistory::default();
        let values: Vec<i16> = (0..MOVES as i32)
            .map(|i| ((i * 97 % 65_536) - 32_768) as i16)
            .chain([i16::MIN, i16::MAX, -1, 1, 0])
            .take(MOVES)
            .collect();
        cont.table[earlier].copy_from_slice(&values);
        cont.table[later].copy_from_slice(&values);
        for ages in 1..=20 {
            cont.age();
            cont.refresh(earlier);
            if ages % 7 == 0 || ages == 20 {
                cont.refresh(later);
                assert_eq!(cont.table[earlier], cont.table[later], "after {ages}");
            }
            for (i, &v) in values.iter().enumerate() {
                let mut halved = v;
                (0..ages).for_each(|_| halved /= 2);
                assert_eq!(cont.after(earlier)[i], halved, "{v} after {ages}");
            }
        }
    }
}
