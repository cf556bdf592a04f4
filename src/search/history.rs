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
pub struct ContinuationHistory {
    table: Vec<[i16; MOVES]>,
}

impl Default for ContinuationHistory {
    fn default() -> ContinuationHistory {
        ContinuationHistory {
            table: vec![[0; MOVES]; UNUSED + 1],
        }
    }
}

impl ContinuationHistory {
    /// The scores of every move after `earlier`.
    #[inline(always)]
    pub fn after(&self, earlier: usize) -> &[i16; MOVES] {
        &self.table[earlier]
    }

    pub fn update(&mut self, earlier: usize, piece: Piece, to: Square, delta: i32) {
        let entry = &mut self.table[earlier][move_index(piece, to)];
        // Within +-MAX_HISTORY, which fits 16 bits.
        *entry = nudge(i32::from(*entry), delta) as i16;
    }

    pub fn age(&mut self) {
        self.table.iter_mut().flatten().for_each(|v| *v /= 2);
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
        assert_eq!(cont.after(earlier)[move_index(knight, e5)], 150);
    }
}
