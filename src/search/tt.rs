//! The transposition table: search results shared by all search threads.
//!
//! Buckets of four 16-byte entries fill one 64-byte cache line. Each entry is two atomic
//! words, the packed data and the key XOR-ed with it, so a torn write by two threads at once
//! fails the key check instead of returning a wrong move (the "lockless hashing" scheme).
//! Relaxed atomics suffice for that: the check covers every inconsistency.
//!
//! Positions learned in earlier games (`Learning`, `engine/learn/`) are stored with a
//! mark: other positions never push them out of their bucket, and a PV node may take
//! their score (see `TtEntry::learned`).

use super::table_memory::TableMemory;
use crate::types::{Move, Score, TB_BOUND};
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// How a stored score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (no move reached alpha).
    Upper = 1,
    /// The true value is at least the score (a move reached beta).
    Lower = 2,
    Exact = 3,
}

impl Bound {
    /// Whether a stored `score` with this bound settles a node searched with the window
    /// (`alpha`, `beta`). Computed without branches: the bound is as good as random to a
    /// branch predictor.
    #[inline(always)]
    pub fn cuts(self, score: Score, alpha: Score, beta: Score) -> bool {
        let bits = self as u8;
        (self == Bound::Exact)
            | ((bits & Bound::Lower as u8 != 0) & (score >= beta))
            | ((bits & Bound::Upper as u8 != 0) & (score <= alpha))
    }
}

/// One probed entry, unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    pub mv: Move,
    pub score: Score,
    pub eval: Score,
    pub depth: i32,
    pub bound: Bound,
    /// Put in from the learn file: an exact score of a deep search in an earlier game,
    /// which a PV node may use as well.
    pub learned: bool,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket {
    slots: [Slot; 4],
}

// Data word layout, low bits first: move 16 | score 16 | eval 16 | depth 7 | learned 1 |
// bound 2 | age 6. Depths stay below `MAX_PLY` (128), so 7 bits hold them.
const AGE_BITS: u32 = 6;
const AGE_MASK: u8 = (1 << AGE_BITS) - 1;
const DEPTH_MASK: u64 = 0x7f;
const LEARNED: u64 = 1 << 55;

fn pack(mv: Move, score: Score, eval: Score, depth: i32, bound: Bound, age: u8) -> u64 {
    mv.bits() as u64
        | (score as i16 as u16 as u64) << 16
        | (eval as i16 as u16 as u64) << 32
        | (depth.clamp(0, DEPTH_MASK as i32) as u64) << 48
        | (bound as u64) << 56
        | ((age & AGE_MASK) as u64) << 58
}

fn unpack_bound(data: u64) -> Option<Bound> {
    // A table, not a `match`: that would compile to a jump on unpredictable data.
    const BOUNDS: [Option<Bound>; 4] = [
        None,
        Some(Bound::Upper),
        Some(Bound::Lower),
        Some(Bound::Exact),
    ];
    BOUNDS[((data >> 56) & 3) as usize]
}

fn depth_of(data: u64) -> i32 {
    ((data >> 48) & DEPTH_MASK) as i32
}

fn is_learned(data: u64) -> bool {
    data & LEARNED != 0
}

fn age_of(data: u64) -> u8 {
    (data >> 58) as u8 & AGE_MASK
}

/// Mate and tablebase scores count plies from the root; stored, they count from the node,
/// so that the entry stays right when the node is reached by another path.
pub fn score_to_tt(score: Score, ply: usize) -> Score {
    if score >= TB_BOUND {
        score + ply as Score
    } else if score <= -TB_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// The inverse of `score_to_tt` at the probing node's ply.
pub fn score_from_tt(score: Score, ply: usize) -> Score {
    if score >= TB_BOUND {
        score - ply as Score
    } else if score <= -TB_BOUND {
        score + ply as Score
    } else {
        score
    }
}

pub struct TranspositionTable {
    buckets: TableMemory<Bucket>,
    /// Bumped at every new search, so that old entries are replaced first.
    age: AtomicU8,
}

impl TranspositionTable {
    /// Smallest and largest sizes accepted, in MiB.
    pub const MIN_MB: usize = 1;
    pub const MAX_MB: usize = 1 << 20;

    /// A table of `mb` MiB (clamped to the accepted range); panics if the memory cannot be
    /// had, so only for sizes known to fit (tests, bench, defaults).
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb, 0).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of `mb` MiB, or an error saying why not: more than the accepted range, more
    /// than the system has available (plus `freed_mb` about to be released by the caller),
    /// or an allocation failure. Never touches memory it was not given.
    pub fn try_new(mb: usize, freed_mb: usize) -> Result<TranspositionTable, String> {
        let mut table = Self::try_new_untouched(mb, freed_mb)?;
        // Faults every page in now rather than at the first probes of a search.
        table.clear_exclusive();
        Ok(table)
    }

    /// `try_new` with the memory not yet faulted in: a valid, empty table whose first
    /// probes would each fault a page (huge pages: milliseconds each). Clear it before
    /// a search, on another thread if the clock runs meanwhile.
    pub fn try_new_untouched(mb: usize, freed_mb: usize) -> Result<TranspositionTable, String> {
        if !(Self::MIN_MB..=Self::MAX_MB).contains(&mb) {
            return Err(format!(
                "table size {mb} MiB is outside {} to {} MiB",
                Self::MIN_MB,
                Self::MAX_MB
            ));
        }
        if let Some(available) = super::table_memory::available_mb()
            && mb > (available + freed_mb).saturating_sub(64)
        {
            return Err(format!(
                "table size {mb} MiB is more than the memory available ({available} MiB free)"
            ));
        }
        let count = (mb << 20) / std::mem::size_of::<Bucket>();
        // SAFETY: a bucket of all-zero atomics is a valid, empty bucket.
        let buckets = unsafe { TableMemory::try_zeroed(count) }
            .ok_or_else(|| format!("cannot allocate {mb} MiB"))?;
        Ok(TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
        })
    }

    /// Size in MiB.
    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Empties every entry (a new game).
    pub fn clear(&self) {
        for bucket in self.buckets.iter() {
            for slot in &bucket.slots {
                slot.check.store(0, Relaxed);
                slot.data.store(0, Relaxed);
            }
        }
        self.age.store(0, Relaxed);
    }

    /// `clear` for a table that no search holds: the same empty table, written as one
    /// `memset` rather than an atomic store a word (datagen clears twice a game).
    pub fn clear_exclusive(&mut self) {
        self.buckets.zero();
        *self.age.get_mut() = 0;
    }

    /// Marks the start of a new search.
    pub fn new_search(&self) {
        self.age
            .store((self.age.load(Relaxed) + 1) & AGE_MASK, Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any table length without a division.
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
    }

    /// Hints the processor to fetch the bucket for `key` ahead of its probe.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is only a hint and never faults.
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>((self.bucket(key) as *const Bucket).cast());
        }
    }

    /// The entry stored for `key`, with its score adjusted to `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        // Every slot is compared and the match kept without a branch per slot: which slot
        // holds a position is random to a branch predictor. Scanned from the last, so that
        // the first match wins.
        let data = self.bucket(key).slots.iter().rev().fold(0, |found, slot| {
            let data = slot.data.load(Relaxed);
            let hit = (data != 0) & (slot.check.load(Relaxed) ^ data == key);
            if hit { data } else { found }
        });
        Some(TtEntry {
            mv: Move::from_bits(data as u16),
            score: score_from_tt((data >> 16) as u16 as i16 as Score, ply),
            eval: (data >> 32) as u16 as i16 as Score,
            depth: depth_of(data),
            // `data` is 0 when no slot matched, and 0 has no bound.
            bound: unpack_bound(data)?,
            learned: is_learned(data),
        })
    }

    /// Stores a result. An entry for the same position is overwritten unless it is deeper and
    /// this result is not exact, or it was learned and this result is shallower (its move
    /// is kept if this result has none); otherwise the entry that is shallowest, counting
    /// each search of age as 4 plies, makes room, learned entries last.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: Move,
        score: Score,
        eval: Score,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let age = self.age.load(Relaxed);
        let new = pack(mv, score_to_tt(score, ply), eval, depth, bound, age);
        self.put(key, new, depth, bound);
    }

    /// Stores a position learned in an earlier game (`Learning`): the exact `score` of a
    /// search `depth` plies deep, its best move `mv` and the position's static evaluation
    /// `eval`. It stays until a search at least as deep replaces it or the table is
    /// cleared: other positions never take its place (unless the whole bucket is learned).
    pub fn store_learned(&self, key: u64, mv: Move, score: Score, eval: Score, depth: i32) {
        let age = self.age.load(Relaxed);
        let new = pack(mv, score_to_tt(score, 0), eval, depth, Bound::Exact, age) | LEARNED;
        self.put(key, new, depth, Bound::Exact);
    }

    /// Writes packed entry `new` (of `depth` and `bound`) for `key` where `store` says.
    #[inline(always)]
    fn put(&self, key: u64, new: u64, depth: i32, bound: Bound) {
        let age = self.age.load(Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.slots[0];
        let mut victim_worth = i32::MAX;
        for slot in &bucket.slots {
            let data = slot.data.load(Relaxed);
            if data != 0 && slot.check.load(Relaxed) ^ data == key {
                if (bound != Bound::Exact && depth + 3 < depth_of(data))
                    // A learned entry is what a search of an earlier game found, often
                    // deeper than this game's searches see: only one as deep replaces it.
                    || (is_learned(data) && depth < depth_of(data))
                {
                    return;
                }
                let new = if new as u16 == 0 {
                    new | (data & 0xffff)
                } else {
                    new
                };
                self.write(slot, key, new);
                return;
            }
            let stale = (age.wrapping_sub(age_of(data)) & AGE_MASK) as i32;
            let worth = if data == 0 {
                i32::MIN
            } else if is_learned(data) {
                i32::MAX
            } else {
                depth_of(data) - 4 * stale
            };
            if worth < victim_worth {
                victim = slot;
                victim_worth = worth;
            }
        }
        self.write(victim, key, new);
    }

    #[inline(always)]
    fn write(&self, slot: &Slot, key: u64, data: u64) {
        slot.check.store(key ^ data, Relaxed);
        slot.data.store(data, Relaxed);
    }

    /// Per mille of a sample of entries that were written during the current search.
    pub fn hashfull(&self) -> usize {
        let age = self.age.load(Relaxed);
        let sample = self.buckets.iter().take(250).flat_map(|b| b.slots.iter());
        let (used, total) = sample.fold((0, 0), |(used, total), slot| {
            let data = slot.data.load(Relaxed);
            (
                used + usize::from(data != 0 && age_of(data) == age),
                total + 1,
            )
        });
        (used * 1000).checked_div(total).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{MATE, MoveKind, Square};

    fn mv() -> Move {
        Move::new(Square::E1, Square::E8, MoveKind::QUIET)
    }

    /// The branch-free test against its definition, for scores below, inside and above
    /// open and null windows.
    #[test]
    fn bounds_cut_as_defined() {
        for bound in [Bound::Upper, Bound::Lower, Bound::Exact] {
            for (alpha, beta) in [(-50, 50), (9, 10), (10, 11)] {
                for score in [-MATE, -51, -50, 0, 9, 10, 11, 50, 51, MATE] {
                    let expected = match bound {
                        Bound::Exact => true,
                        Bound::Lower => score >= beta,
                        Bound::Upper => score <= alpha,
                    };
                    assert_eq!(
                        bound.cuts(score, alpha, beta),
                        expected,
                        "{bound:?} {score}"
                    );
                }
            }
        }
    }

    /// Linux only: elsewhere nothing says how much memory is free, and a table of the
    /// largest size might really be allocated.
    #[cfg(target_os = "linux")]
    #[test]
    fn impossible_sizes_are_errors() {
        assert!(TranspositionTable::try_new(0, 0).is_err());
        assert!(TranspositionTable::try_new(TranspositionTable::MAX_MB + 1, 0).is_err());
        // More than any machine this runs on has free.
        let err = TranspositionTable::try_new(TranspositionTable::MAX_MB, 0)
            .err()
            .unwrap();
        assert!(err.contains("MiB"), "{err}");
        assert_eq!(
            TranspositionTable::try_new(2, 0).map(|t| t.size_mb()),
            Ok(2)
        );
    }

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.size_mb(), 1);
        assert_eq!(tt.probe(42, 0), None);
        tt.store(42, mv(), -123, 45, 7, Bound::Lower, 0);
        let e = tt.probe(42, 0).unwrap();
        assert_eq!(
            e,
            TtEntry {
                mv: mv(),
                score: -123,
                eval: 45,
                depth: 7,
                bound: Bound::Lower,
                learned: false,
            }
        );
        assert_eq!(tt.probe(43, 0), None);
        tt.clear();
        assert_eq!(tt.probe(42, 0), None);
        // The memset clear empties the table the same way, its age too.
        let mut tt = tt;
        for key in 0..10_000 {
            tt.store(key, mv(), 1, 2, 3, Bound::Exact, 0);
        }
        tt.new_search();
        tt.clear_exclusive();
        assert!((0..10_000).all(|key| tt.probe(key, 0).is_none()));
        assert_eq!(tt.hashfull(), 0);
        assert_eq!(tt.age.load(Relaxed), 0);
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        // Mate in 3 plies from a node at ply 5 is found at the root as MATE - 8.
        tt.store(7, mv(), MATE - 8, 0, 4, Bound::Exact, 5);
        // The same node reached at ply 1 is mate 4 plies from the root.
        assert_eq!(tt.probe(7, 1).unwrap().score, MATE - 4);
        tt.store(8, mv(), -(MATE - 8), 0, 4, Bound::Exact, 5);
        assert_eq!(tt.probe(8, 1).unwrap().score, -(MATE - 4));
    }

    #[test]
    fn deeper_results_survive_shallow_bounds() {
        let tt = TranspositionTable::new(1);
        tt.store(9, mv(), 10, 0, 12, Bound::Lower, 0);
        tt.store(9, Move::NONE, 20, 0, 2, Bound::Upper, 0);
        assert_eq!(tt.probe(9, 0).unwrap().depth, 12);
        tt.store(9, Move::NONE, 30, 0, 2, Bound::Exact, 0);
        let e = tt.probe(9, 0).unwrap();
        assert_eq!((e.score, e.depth, e.mv), (30, 2, mv()));
    }

    /// Keys that all fall into the bucket of `key` in `tt`.
    fn same_bucket(tt: &TranspositionTable, key: u64, count: usize) -> Vec<u64> {
        let bucket = tt.bucket(key) as *const Bucket;
        (1..)
            .map(|k: u64| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .filter(|&k| k != key && std::ptr::eq(tt.bucket(k), bucket))
            .take(count)
            .collect()
    }

    /// A learned entry is exact and marked, outlives other positions of its bucket (which
    /// would push out an ordinary entry of its depth), and gives way only to a search of
    /// the same position at least as deep.
    #[test]
    fn learned_entries_stay() {
        let tt = TranspositionTable::new(1);
        let (learned, ordinary) = (12_345, 67_890);
        tt.store_learned(learned, mv(), -250, 31, 9);
        tt.store(ordinary, mv(), 0, 0, 9, Bound::Exact, 0);
        let e = tt.probe(learned, 3).unwrap();
        assert_eq!((e.score, e.eval, e.depth), (-250, 31, 9));
        assert_eq!((e.bound, e.learned, e.mv), (Bound::Exact, true, mv()));
        assert!(!tt.probe(ordinary, 0).unwrap().learned);
        for _ in 0..5 {
            tt.new_search();
        }
        for key in same_bucket(&tt, learned, 8)
            .into_iter()
            .chain(same_bucket(&tt, ordinary, 8))
        {
            tt.store(key, mv(), 0, 0, 20, Bound::Exact, 0);
        }
        assert_eq!(tt.probe(ordinary, 0), None);
        assert!(tt.probe(learned, 0).unwrap().learned);
        // Shallower results of the same position, exact or not, leave it.
        tt.store(learned, Move::NONE, 40, 31, 8, Bound::Exact, 0);
        tt.store(learned, Move::NONE, 40, 31, 1, Bound::Lower, 0);
        assert_eq!(tt.probe(learned, 0).unwrap().score, -250);
        tt.store(learned, Move::NONE, 40, 31, 9, Bound::Upper, 0);
        let e = tt.probe(learned, 0).unwrap();
        assert_eq!(
            (e.score, e.bound, e.learned, e.mv),
            (40, Bound::Upper, false, mv())
        );
    }

    #[test]
    fn hashfull_counts_this_search() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        for key in 0..200_000u64 {
            tt.store(
                key.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                mv(),
                0,
                0,
                1,
                Bound::Exact,
                0,
            );
        }
        assert!(tt.hashfull() > 900);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}
