//! A small per-thread cache of whole evaluations by position key. The search meets the
//! same positions again through transpositions, re-searches and the next iteration, and
//! the evaluation (attack maps, mobility, king safety) costs more than a look-up. Kept
//! per thread, like the pawn table, so that it needs no synchronisation and stays in
//! the core's own cache.

use crate::types::Score;

pub struct EvalCache {
    /// The key's upper 48 bits above the score as 16 bits; 0 is an empty slot.
    entries: Vec<u64>,
}

impl EvalCache {
    /// 65,536 entries of 8 bytes: 512 KiB, with the pawn table half the L2 cache (larger
    /// and smaller tables searched fewer nodes a second in `bench`).
    const ENTRIES: usize = 1 << 16;
    const SCORE_BITS: u32 = 16;

    pub fn new() -> EvalCache {
        EvalCache {
            entries: vec![0; Self::ENTRIES],
        }
    }

    /// The evaluation stored for the position with `key`, if any.
    #[inline]
    pub fn get(&self, key: u64) -> Option<Score> {
        let entry = self.entries[key as usize & (Self::ENTRIES - 1)];
        (entry != 0 && entry >> Self::SCORE_BITS == key >> Self::SCORE_BITS)
            .then_some(entry as u16 as i16 as Score)
    }

    /// Keeps `score` as the evaluation of the position with `key`.
    #[inline]
    pub fn put(&mut self, key: u64, score: Score) {
        // Every evaluation fits 16 bits: the largest, a known win, is about 14,000.
        self.entries[key as usize & (Self::ENTRIES - 1)] =
            key >> Self::SCORE_BITS << Self::SCORE_BITS | score as i16 as u16 as u64;
    }
}

impl Default for EvalCache {
    fn default() -> EvalCache {
        EvalCache::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_what_it_is_given_by_key() {
        let mut cache = EvalCache::new();
        let (a, b) = (0x1234_5678_9abc_def0_u64, 0x0fed_cba9_8765_4321_u64);
        assert_eq!(cache.get(a), None);
        cache.put(a, -13_999);
        assert_eq!(cache.get(a), Some(-13_999));
        assert_eq!(cache.get(b), None);
        // A key that shares the slot replaces the entry.
        let c = a ^ (1 << 40);
        cache.put(c, 7);
        assert_eq!((cache.get(a), cache.get(c)), (None, Some(7)));
    }
}
