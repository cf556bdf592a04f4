//! Every tunable constant of the search in one struct, so that a tuner can vary them
//! without code edits.

/// Search constants; `Default` holds the values in use.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Half-width of the first aspiration window, in centipawns.
    pub aspiration_window: i32,
    /// Reverse futility pruning: depth limit and margin per ply.
    pub rfp_depth: i32,
    pub rfp_margin: i32,
    /// Null-move pruning: minimum depth, base reduction and depth divisor.
    pub nmp_depth: i32,
    pub nmp_base: i32,
    pub nmp_divisor: i32,
    /// Late move reductions: base and divisor of `base + ln(depth) ln(moves) / divisor`.
    pub lmr_base: f64,
    pub lmr_divisor: f64,
    /// Late move pruning: quiet moves tried at depth d before the rest are skipped are
    /// `lmp_base + d * d`.
    pub lmp_base: i32,
    /// Futility pruning of quiet moves: depth limit, base and per-ply margin.
    pub fp_depth: i32,
    pub fp_base: i32,
    pub fp_margin: i32,
    /// SEE pruning: depth limit and margins per ply for quiet moves and captures.
    pub see_depth: i32,
    pub see_quiet_margin: i32,
    pub see_noisy_margin: i32,
    /// Quiescence delta pruning margin.
    pub delta_margin: i32,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            aspiration_window: 20,
            rfp_depth: 7,
            rfp_margin: 75,
            nmp_depth: 3,
            nmp_base: 3,
            nmp_divisor: 4,
            lmr_base: 0.75,
            lmr_divisor: 2.25,
            lmp_base: 3,
            fp_depth: 6,
            fp_base: 100,
            fp_margin: 80,
            see_depth: 6,
            see_quiet_margin: 60,
            see_noisy_margin: 90,
            delta_margin: 150,
        }
    }
}
