//! Every tunable constant of the search, declared once: name, type, value, and range as a
//! UCI option. In normal builds `SearchParams` is empty and each accessor returns its
//! value, a constant the compiler folds into the search. Built with the `tune` feature,
//! each constant is a field that a UCI option of the same name sets (for SPSA tuning and
//! for matches with one feature switched off), read through the same accessors.

use super::correction::Weights;

/// Declares the constants: `name: type = value, min..=max;` (the range of the option, in
/// hundredths for the fractional ones). Generates `SearchParams` with an accessor for each,
/// and its `table` of options, empty without the `tune` feature.
macro_rules! search_params {
    ($($(#[doc = $doc:literal])* $name:ident: $ty:ty = $value:literal, $min:literal..=$max:literal;)*) => {
        /// Search constants; `Default` holds the values in use. Read them through the
        /// accessors, `params.rfp_depth()`.
        #[cfg(feature = "tune")]
        #[derive(Clone, Debug, PartialEq)]
        pub struct SearchParams {
            $($name: $ty,)*
        }

        #[cfg(feature = "tune")]
        impl Default for SearchParams {
            fn default() -> SearchParams {
                SearchParams {
                    $($name: $value,)*
                }
            }
        }

        #[cfg(feature = "tune")]
        impl SearchParams {
            $(
                $(#[doc = $doc])*
                #[inline(always)]
                pub fn $name(&self) -> $ty {
                    self.$name
                }
            )*

            /// The constants a tuner may vary. A depth limit of 0 switches its pruning off.
            pub fn table() -> Vec<Param> {
                vec![$(Param {
                    name: stringify!($name),
                    min: $min,
                    max: $max,
                    get: |p| p.$name.to_option(),
                    set: |p, v| p.$name = OptionValue::from_option(v),
                },)*]
            }
        }

        /// Search constants: without the `tune` feature, each accessor returns the value
        /// declared for it. (Braced, so that `SearchParams::default()` reads the same in
        /// both builds.)
        #[cfg(not(feature = "tune"))]
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct SearchParams {}

        #[cfg(not(feature = "tune"))]
        impl SearchParams {
            $(
                $(#[doc = $doc])*
                #[inline(always)]
                pub const fn $name(&self) -> $ty {
                    $value
                }
            )*

            /// No constant is an option without the `tune` feature.
            pub fn table() -> Vec<Param> {
                Vec::new()
            }
        }
    };
}

search_params! {
    /// Half-width of the first aspiration window, in centipawns.
    aspiration_window: i32 = 20, 5..=1_000;
    /// Reverse futility pruning: depth limit and margin per ply. Lost with the
    /// piece-square evaluation; with the tuned, corrected evaluation +18 Elo at 2+0.02
    /// (docs/strength.md).
    rfp_depth: i32 = 8, 0..=20;
    rfp_margin: i32 = 90, 0..=500;
    /// Reverse futility pruning: not where this many enemy pieces attack the king's
    /// neighbourhood (0: everywhere). Quiet mating threats were cut at the nodes of the
    /// side ahead: WAC at 1 s 293 rather than 286, and no measurable difference in play
    /// (1,260 games at 2+0.02: docs/strength.md).
    rfp_king_attackers: i32 = 2, 0..=16;
    /// Null-move pruning: minimum depth, base reduction and depth divisor.
    nmp_depth: i32 = 3, 1..=100;
    nmp_base: i32 = 3, 0..=10;
    nmp_divisor: i32 = 4, 1..=20;
    /// Late move reductions: base and divisor of `base + ln(depth) ln(moves) / divisor`
    /// (options in hundredths).
    lmr_base: f64 = 0.75, -200..=300;
    lmr_divisor: f64 = 2.25, 50..=100_000;
    /// Late move reductions: plies more at expected cut nodes.
    lmr_cut_node: i32 = 2, 0..=10;
    /// Late move reductions of the losing captures and promotions too (1) or of quiet
    /// moves alone (0).
    lmr_noisy: i32 = 0, 0..=1;
    /// Late move pruning: quiet moves tried at depth d before the rest are skipped are
    /// `lmp_base + d * d`.
    lmp_base: i32 = 3, 0..=1_000;
    /// Futility pruning of quiet moves: depth limit, base and per-ply margin.
    fp_depth: i32 = 6, 0..=20;
    fp_base: i32 = 100, 0..=1_000;
    fp_margin: i32 = 80, 0..=1_000;
    /// SEE pruning: depth limit and margins per ply for quiet moves and captures.
    see_depth: i32 = 6, 0..=20;
    see_quiet_margin: i32 = 60, 0..=500;
    see_noisy_margin: i32 = 90, 0..=500;
    /// Quiescence delta pruning margin.
    delta_margin: i32 = 150, 0..=2_000;
    /// Singular extensions: minimum depth, and the margin below the table's score, per
    /// ply of depth, that every other move must stay under. From 10 rather than 8: WAC at
    /// 1 s 293 rather than 288, and no measurable difference in play (1,220 games at
    /// 2+0.02: docs/strength.md).
    se_depth: i32 = 10, 1..=100;
    se_margin: i32 = 2, 0..=100;
    /// Double extension: how far below the singular margin the other moves stay (in
    /// centipawns), and how many such extensions one line may have.
    se_double_margin: i32 = 20, 0..=1_000;
    se_double_limit: i32 = 6, 0..=100;
    /// ProbCut: minimum depth, and the margin above beta that a capture's reduced search
    /// must reach.
    probcut_depth: i32 = 5, 0..=100;
    probcut_margin: i32 = 200, 0..=2_000;
    /// Correction history: the weights, in percent, of the pawn table, of each side's
    /// non-pawn table, and of the table by the last two moves (0: off until a match with
    /// the network shows a gain).
    corr_pawn: i32 = 60, 0..=1_000;
    corr_non_pawn: i32 = 30, 0..=1_000;
    corr_cont: i32 = 0, 0..=1_000;
    /// The static evaluation scaled by the material on the board: the share taken off
    /// with every piece gone, in percent of the evaluation with all 78 pawns' worth
    /// (0: not scaled). With g12 and the fifty-move scale below, WAC at 2.7 M nodes
    /// went from 289 to 293 with no new misses, self-play stayed level (812 games at
    /// 5+0.05) and the first 36 pairs against Ethereal 12 scored 76.4% (docs/strength.md).
    /// Both apply to a network's evaluation only.
    eval_material_scale: i32 = 25, 0..=100;
    /// The static evaluation scaled toward a draw as the fifty-move count runs: it
    /// reaches zero at this many plies without a capture or pawn move (0: not scaled).
    eval_fifty_plies: i32 = 200, 0..=1_000;
    /// Continuation history after the move four plies back as well (1) or not (0).
    cont_ply4: i32 = 0, 0..=1;
    /// The history bonus of the counter move (the last refutation of the previous move);
    /// 0 leaves counter moves unused.
    counter_bonus: i32 = 0, 0..=100_000;
}

/// How a constant reads as an integer option: itself, or in hundredths.
#[cfg(feature = "tune")]
trait OptionValue {
    fn to_option(self) -> i64;
    fn from_option(value: i64) -> Self;
}

#[cfg(feature = "tune")]
impl OptionValue for i32 {
    fn to_option(self) -> i64 {
        i64::from(self)
    }
    fn from_option(value: i64) -> i32 {
        value as i32
    }
}

#[cfg(feature = "tune")]
impl OptionValue for f64 {
    fn to_option(self) -> i64 {
        (self * 100.0).round() as i64
    }
    fn from_option(value: i64) -> f64 {
        value as f64 / 100.0
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

impl SearchParams {
    #[inline(always)]
    pub fn correction_weights(&self) -> Weights {
        Weights {
            pawn: self.corr_pawn(),
            non_pawn: self.corr_non_pawn(),
            continuation: self.corr_cont(),
        }
    }

    /// The current value of the constant called `name`, if it is an option.
    pub fn get(&self, name: &str) -> Option<i64> {
        Self::table()
            .into_iter()
            .find(|p| p.name.eq_ignore_ascii_case(name))
            .map(|p| (p.get)(self))
    }

    /// Sets the constant called `name`, if it is an option and `value` is within its range.
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
    #[cfg(feature = "tune")]
    fn every_constant_by_name() {
        let defaults = SearchParams::default();
        let mut p = SearchParams::default();
        assert_eq!(SearchParams::table().len(), 32);
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
        p.set("lmr_base", 50).unwrap();
        assert_eq!(p.lmr_base(), 0.5);
    }

    #[test]
    #[cfg(not(feature = "tune"))]
    fn constants_without_options() {
        let mut p = SearchParams::default();
        assert!(SearchParams::table().is_empty());
        assert_eq!(p.get("rfp_depth"), None);
        assert!(p.set("rfp_depth", 8).is_err());
        assert_eq!((p.rfp_depth(), p.lmr_base()), (8, 0.75));
        // The accessors are constants.
        const _: i32 = SearchParams {}.se_depth();
    }
}
