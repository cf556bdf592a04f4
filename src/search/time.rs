//! Time management: from the limits, a soft bound (do not start another iteration after it)
//! and a hard bound (stop at once), both measured from the start of the search.

use super::limits::Limits;
use std::time::{Duration, Instant};

/// Moves the rest of a sudden-death game is assumed to last. Against Ethereal 12 at 10+0.1
/// the median base time left at a game's end was 3.1 s with 30 (Ethereal: 0.4 s), 1.8 s
/// with 20 and 1.3 s with 16, which spends it in the first 40 plies as Ethereal does.
const DEFAULT_MOVES_TO_GO: u64 = 16;

#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// Whether the soft bound is a share of a clock, which a position may stretch or
    /// shrink (`soft_exceeded`'s scale); a fixed time a move is used whole.
    scalable: bool,
}

impl TimeManager {
    /// Bounds for `limits`, keeping `overhead_ms` per move in hand for the GUI and the pipe.
    pub fn new(limits: &Limits, overhead_ms: u64) -> TimeManager {
        let (soft, hard) = Self::bounds_ms(limits, overhead_ms);
        TimeManager {
            start: Instant::now(),
            soft: soft.map(Duration::from_millis),
            hard: hard.map(Duration::from_millis),
            scalable: limits.clock.is_some(),
        }
    }

    /// The soft and hard bounds in milliseconds, `None` for unbounded.
    pub fn bounds_ms(limits: &Limits, overhead_ms: u64) -> (Option<u64>, Option<u64>) {
        if limits.infinite {
            return (None, None);
        }
        let mut hard: Option<u64> = None;
        let mut soft: Option<u64> = None;
        if let Some(movetime) = limits.movetime_ms {
            let t = movetime.saturating_sub(overhead_ms);
            hard = Some(t);
            soft = Some(t);
        }
        if let Some(clock) = limits.clock {
            let available = (clock.time_ms.max(0) as u64).saturating_sub(overhead_ms);
            let raw_inc = clock.inc_ms.max(0) as u64;
            // Every move also costs the overhead, so only the rest of the increment is ours
            // to spend; else a clock fed by little more than the increment drains away.
            let inc = raw_inc.saturating_sub(overhead_ms);
            let moves = clock
                .moves_to_go
                .map_or(DEFAULT_MOVES_TO_GO, |m| m.clamp(1, 50) as u64);
            // The overhead of the moves still to come, as far as their increments do not
            // pay for it, stays on the clock.
            let reserve = (moves - 1).saturating_mul(overhead_ms.saturating_sub(raw_inc));
            // A fair share of what is left plus most of the increment; the hard bound lets a
            // difficult move take several shares, but never most of the clock.
            let share = (available / moves).saturating_add(inc / 4 * 3);
            let cap = (available / 5 * 4).min(available.saturating_sub(reserve));
            let h = share.saturating_mul(3).min(cap);
            let s = (share / 3 * 2).min(h);
            hard = Some(hard.map_or(h, |m| m.min(h)));
            soft = Some(soft.map_or(s, |m| m.min(s)));
        }
        (soft, hard)
    }

    /// Starts the clock again now (the search was pondering until now).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Past the soft bound times `scale` (how much more or less time the position is
    /// worth than the average move; ignored for a fixed time a move): do not start
    /// another iteration.
    pub fn soft_exceeded(&self, scale: f64) -> bool {
        let scale = if self.scalable { scale } else { 1.0 };
        self.soft
            .is_some_and(|s| self.start.elapsed() >= s.mul_f64(scale))
    }

    /// Past the hard bound: stop now.
    pub fn hard_exceeded(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }
}

/// How much more or less than the average move a position is worth thinking on, from the
/// share of the root's nodes that the best move took (a best move that needed few of them
/// had close rivals) and the iterations it has stayed best, both from the last iteration.
pub fn soft_scale(best_move_nodes: f64, stable_iterations: usize) -> f64 {
    const STABILITY: [f64; 7] = [1.6, 1.3, 1.1, 1.0, 0.9, 0.85, 0.8];
    let nodes = (1.5 - best_move_nodes.clamp(0.0, 1.0)) * 1.35;
    (nodes * STABILITY[stable_iterations.min(STABILITY.len() - 1)]).clamp(0.4, 2.5)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::limits::Clock;

    fn clock(time_ms: i64, inc_ms: i64, moves_to_go: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                time_ms,
                inc_ms,
                moves_to_go,
            }),
            ..Limits::default()
        }
    }

    fn bounds(limits: Limits) -> (u64, u64) {
        let (soft, hard) = TimeManager::bounds_ms(&limits, 10);
        (soft.unwrap(), hard.unwrap())
    }

    #[test]
    fn sudden_death() {
        let (soft, hard) = bounds(clock(60_000, 0, None));
        assert!((1_000..3_000).contains(&soft), "{soft}");
        assert!(hard > soft && hard <= 60_000 / 5, "{hard}");
    }

    #[test]
    fn increment_adds_to_the_share() {
        let (soft0, hard0) = bounds(clock(10_000, 0, None));
        let (soft1, hard1) = bounds(clock(10_000, 1_000, None));
        assert!(soft1 > soft0 + 400 && hard1 > hard0);
        // With little time left the increment cannot push past the clock.
        let (soft, hard) = bounds(clock(200, 5_000, None));
        assert!(soft <= hard && hard <= 200 * 4 / 5, "{soft} {hard}");
    }

    /// Playing every move to the hard bound, with the overhead's worth of delay on each,
    /// never runs the clock out where the time control can be kept up: an increment at
    /// least the overhead, or moves to go.
    #[test]
    fn the_clock_never_runs_out() {
        for (inc, moves) in [
            (10, None),
            (100, None),
            (10, Some(40)),
            (0, Some(40)),
            (0, Some(2)),
        ] {
            let mut time: i64 = 1_000;
            for ply in 0..400u32 {
                let moves_to_go = moves.map(|m| m - ply % m);
                let (_, hard) = bounds(clock(time, inc, moves_to_go));
                time -= hard as i64 + 10;
                assert!(
                    time >= 0,
                    "inc {inc} moves {moves:?}: out of time at move {ply}"
                );
                time += inc;
                if moves_to_go == Some(1) {
                    time += 1_000;
                }
            }
        }
    }

    #[test]
    fn moves_to_go() {
        let (soft40, _) = bounds(clock(40_000, 0, Some(40)));
        let (soft5, _) = bounds(clock(40_000, 0, Some(5)));
        assert!(soft5 > 4 * soft40);
        // The last move before the control may use much of the clock, not all of it.
        let (soft1, hard1) = bounds(clock(10_000, 0, Some(1)));
        assert!(soft1 >= 5_000 && hard1 < 10_000, "{soft1} {hard1}");
        // Zero moves to go is read as one.
        assert_eq!(
            bounds(clock(10_000, 0, Some(0))),
            bounds(clock(10_000, 0, Some(1)))
        );
    }

    #[test]
    fn tiny_zero_and_negative_clocks() {
        assert_eq!(bounds(clock(5, 0, None)), (0, 0));
        assert_eq!(bounds(clock(0, 0, None)), (0, 0));
        assert_eq!(bounds(clock(-3_000, 100, None)), (0, 0));
        assert_eq!(bounds(clock(i64::MIN, i64::MIN, Some(u32::MAX))), (0, 0));
        let (_, hard) = bounds(clock(i64::MAX, i64::MAX, None));
        assert!(hard > 0);
    }

    #[test]
    fn a_contested_or_changing_best_move_gets_more_time() {
        assert!(soft_scale(0.3, 6) > soft_scale(0.9, 6));
        assert!(soft_scale(0.9, 0) > soft_scale(0.9, 3));
        assert!(soft_scale(0.9, 3) > soft_scale(0.9, 20));
        assert_eq!(soft_scale(0.9, 20), soft_scale(0.9, 6));
        // Bounded both ways, whatever the counts.
        assert_eq!(soft_scale(-1.0, 0), 2.5);
        assert_eq!(soft_scale(2.0, 100), soft_scale(1.0, 6));
        assert!(soft_scale(1.0, 6) >= 0.4);
    }

    #[test]
    fn fixed_movetime_and_unbounded() {
        assert_eq!(bounds(Limits::movetime(1_000)), (990, 990));
        assert_eq!(bounds(Limits::movetime(3)), (0, 0));
        let both = Limits {
            movetime_ms: Some(500),
            ..clock(100_000, 0, None)
        };
        assert_eq!(bounds(both).1, 490);
        assert_eq!(TimeManager::bounds_ms(&Limits::depth(5), 10), (None, None));
        let infinite = Limits {
            infinite: true,
            ..clock(1_000, 0, None)
        };
        assert_eq!(TimeManager::bounds_ms(&infinite, 10), (None, None));
    }

    /// `go movetime` searches its time whatever the position: only a clock's share is
    /// scaled (a search 500 ms into a 1 s move goes on even where the scale is the least).
    #[test]
    fn a_fixed_time_is_not_scaled() {
        let started = |limits: Limits| {
            let mut time = TimeManager::new(&limits, 10);
            time.start = Instant::now() - Duration::from_millis(500);
            time
        };
        assert!(!started(Limits::movetime(1_000)).soft_exceeded(0.4));
        assert!(!started(Limits::movetime(1_000)).soft_exceeded(1.0));
        // 10 s for 10 moves: a soft bound of 666 ms.
        assert!(started(clock(10_000, 0, Some(10))).soft_exceeded(0.4));
        assert!(!started(clock(10_000, 0, Some(10))).soft_exceeded(1.0));
    }
}
