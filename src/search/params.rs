//! Every tunable constant of the search in one struct, so that a tuner can vary them
//! without code edits. Built with the `tune` feature, Ferrum offers each as a UCI option
//! (for SPSA tuning and for matches with one feature switched off).

use super::correction::Weights;

/// Search constants; `Default` holds the values in use.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// Half-width of the first aspiration window, in centipawns.
    pub aspiration_window: i32,
    /// Reverse futility pruning: depth limit and margin per ply.
    pub rfp_depth: i32,
    pub rfp_margin: i32,
    /// Reverse futility pruning: not where this many enemy pieces attack the king's
    /// neighbourhood (0: everywhere).
    pub rfp_king_attackers: i32,
    /// Null-move pruning: minimum depth, base reduction and depth divisor.
    pub nmp_depth: i32,
    pub nmp_base: i32,
    pub nmp_divisor: i32,
    /// Late move reductions: base and divisor of `base + ln(depth) ln(moves) / divisor`.
    pub lmr_base: f64,
    pub lmr_divisor: f64,
    /// Late move reductions: plies more at expected cut nodes.
    pub lmr_cut_node: i32,
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
    /// Singular extensions: minimum depth, and the margin below the table's score, per
    /// ply of depth, that every other move must stay under.
    pub se_depth: i32,
    pub se_margin: i32,
    /// Double extension: how far below the singular margin the other moves stay (in
    /// centipawns), and how many such extensions one line may have.
    pub se_double_margin: i32,
    pub se_double_limit: i32,
    /// ProbCut: minimum depth, and the margin above beta that a capture's reduced search
    /// must reach.
    pub probcut_depth: i32,
    pub probcut_margin: i32,
    /// Correction history: the weights, in percent, of the pawn table and of each side's
    /// non-pawn table.
    pub corr_pawn: i32,
    pub corr_non_pawn: i32,
    /// Continuation history after the move four plies back as well (1) or not (0).
    pub cont_ply4: i32,
    /// The history bonus of the counter move (the last refutation of the previous move);
    /// 0 leaves counter moves unused.
    pub counter_bonus: i32,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            aspiration_window: 20,
            // Lost with the piece-square evaluation; with the tuned, corrected evaluation
            // +18 Elo at 2+0.02 (docs/strength.md).
            rfp_depth: 8,
            rfp_margin: 90,
            // Quiet mating threats were cut at the nodes of the side ahead: WAC at 1 s 293
            // rather than 286, and no measurable difference in play (1,260 games at
            // 2+0.02: docs/strength.md).
            rfp_king_attackers: 2,
            nmp_depth: 3,
            nmp_base: 3,
            nmp_divisor: 4,
            lmr_base: 0.75,
            lmr_divisor: 2.25,
            lmr_cut_node: 2,
            lmp_base: 3,
            fp_depth: 6,
            fp_base: 100,
            fp_margin: 80,
            see_depth: 6,
            see_quiet_margin: 60,
            see_noisy_margin: 90,
            delta_margin: 150,
            // From 10 rather than 8: WAC at 1 s 293 rather than 288, and no measurable
            // difference in play (1,220 games at 2+0.02: docs/strength.md).
            se_depth: 10,
            se_margin: 2,
            se_double_margin: 20,
            se_double_limit: 6,
            probcut_depth: 5,
            probcut_margin: 200,
            corr_pawn: 60,
            corr_non_pawn: 30,
            cont_ply4: 0,
            counter_bonus: 0,
        }
    }
}

/// One tunable constant: its option name, its range, and how to read and write it as an
/// integer (the reduction constants in hundredths).
pub struct Param {
    pub name: &'static str,
    pub min: i64,
    pub max: i64,
    get: fn(&SearchParams) -> i64,
    set: fn(&mut SearchParams, i64),
}

macro_rules! int_params {
    ($($field:ident: $min:expr, $max:expr;)*) => {
        [$(Param {
            name: stringify!($field),
            min: $min,
            max: $max,
            get: |p| i64::from(p.$field),
            set: |p, v| p.$field = v as i32,
        },)*]
    };
}

impl SearchParams {
    pub fn correction_weights(&self) -> Weights {
        Weights {
            pawn: self.corr_pawn,
            non_pawn: self.corr_non_pawn,
        }
    }

    /// The constants a tuner may vary. A depth limit of 0 switches its pruning off.
    pub fn table() -> Vec<Param> {
        let mut table = Vec::from(int_params! {
            aspiration_window: 5, 1_000;
            rfp_depth: 0, 20;
            rfp_margin: 0, 500;
            rfp_king_attackers: 0, 16;
            nmp_depth: 1, 100;
            nmp_base: 0, 10;
            nmp_divisor: 1, 20;
            lmr_cut_node: 0, 10;
            lmp_base: 0, 1_000;
            fp_depth: 0, 20;
            fp_base: 0, 1_000;
            fp_margin: 0, 1_000;
            see_depth: 0, 20;
            see_quiet_margin: 0, 500;
            see_noisy_margin: 0, 500;
            delta_margin: 0, 2_000;
            se_depth: 1, 100;
            se_margin: 0, 100;
            se_double_margin: 0, 1_000;
            se_double_limit: 0, 100;
            probcut_depth: 0, 100;
            probcut_margin: 0, 2_000;
            corr_pawn: 0, 1_000;
            corr_non_pawn: 0, 1_000;
            cont_ply4: 0, 1;
            counter_bonus: 0, 100_000;
        });
        table.push(Param {
            name: "lmr_base",
            min: -200,
            max: 300,
            get: |p| (p.lmr_base * 100.0).round() as i64,
            set: |p, v| p.lmr_base = v as f64 / 100.0,
        });
        table.push(Param {
            name: "lmr_divisor",
            min: 50,
            max: 100_000,
            get: |p| (p.lmr_divisor * 100.0).round() as i64,
            set: |p, v| p.lmr_divisor = v as f64 / 100.0,
        });
        table
    }

    /// The current value of the constant called `name`.
    pub fn get(&self, name: &str) -> Option<i64> {
        Self::table()
            .into_iter()
            .find(|p| p.name.eq_ignore_ascii_case(name))
            .map(|p| (p.get)(self))
    }

    /// Sets the constant called `name`, if `value` is within its range.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), String> {
        let table = Self::table();
        let Some(param) = table.iter().find(|p| p.name.eq_ignore_ascii_case(name)) else {
            return Err(format!("no search parameter named '{name}'"));
        };
        if !(param.min..=param.max).contains(&value) {
            return Err(format!(
                "search parameter {}: {value} is outside {} to {}",
                param.name, param.min, param.max
            ));
        }
        (param.set)(self, value);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_constant_by_name() {
        let defaults = SearchParams::default();
        let mut p = SearchParams::default();
        for param in SearchParams::table() {
            let value = p.get(param.name).unwrap();
            assert!((param.min..=param.max).contains(&value), "{}", param.name);
            // Each entry writes its own field and only that one.
            let other = if value == param.max {
                param.min
            } else {
                param.max
            };
            p.set(param.name, other).unwrap();
            assert_eq!(p.get(param.name), Some(other));
            assert_ne!(p, defaults, "{}", param.name);
            p.set(param.name, value).unwrap();
            assert_eq!(p, defaults, "{}", param.name);
        }
        assert_eq!(p.get("LMR_BASE"), Some(75));
        assert!(p.set("rfp_depth", 21).is_err());
        assert!(p.set("lmr_divisor", 49).is_err());
        assert!(p.set("no_such", 1).is_err());
        assert_eq!(p, defaults);
    }
}
