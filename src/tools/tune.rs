//! `ferrum tune`: fits the evaluation's weights to labelled positions by Texel's method.

use crate::board::Board;
use crate::eval::weights::{COUNT, Family, GROUPS, MATERIAL};
use crate::eval::{MAX_PHASE, PARAMS, Phased, trace};
use crate::types::PieceType;
use std::fmt::Write;

/// The Rust source of `src/eval/params.rs` for `weights`, with `header` (how they were
/// made) in its doc comment.
pub fn params_source(weights: &[Phased], header: &[String]) -> String {
    assert_eq!(weights.len(), COUNT);
    let mut out = String::new();
    out.push_str("//! The evaluation's weights, written by `ferrum tune`; edit by hand only to try a value.\n//!\n");
    for line in header {
        let _ = writeln!(out, "//! {line}");
    }
    out.push_str(
        "\nuse super::Phased;\nuse super::weights::COUNT;\n\n\
         const fn s(mg: i32, eg: i32) -> Phased {\n    Phased::new(mg, eg)\n}\n\n\
         /// All weights, group after group as `weights` lays them out.\n\
         #[rustfmt::skip]\npub const PARAMS: [Phased; COUNT] = [\n",
    );
    for group in GROUPS {
        let values = &weights[group.start..group.start + group.len];
        for (i, row) in values.chunks(group.row).enumerate() {
            if i == 0 {
                let _ = writeln!(out, "    // {}", group.name);
            }
            if group.name == "PSQT" && i % 8 == 0 {
                let kind = PieceType::ALL[i / 8];
                let _ = writeln!(out, "    // {kind:?}, rank 1 to 8, files a to h");
            }
            let cells: Vec<String> = row
                .iter()
                .map(|p| format!("s({:4}, {:4})", p.mg, p.eg))
                .collect();
            let _ = writeln!(out, "    {},", cells.join(", "));
        }
    }
    out.push_str("];\n");
    out
}

/// One labelled position as the tuner keeps it.
#[derive(Clone, Copy, Debug)]
struct Position {
    /// Its counts are `indices[start..end]` and `counts[start..end]` of the data set.
    start: u32,
    end: u32,
    /// Midgame share (phase / 24) and endgame share (scaled), of the counted sums.
    mg_share: f32,
    eg_share: f32,
    /// The game's result and the search score, White's view.
    result: f32,
    score: f32,
    /// What the evaluation's sigmoid should match: the result, blended with the search
    /// score if asked (`set_targets`).
    target: f32,
}

/// Labelled positions, their traces stored end to end.
pub struct DataSet {
    positions: Vec<Position>,
    indices: Vec<u16>,
    counts: Vec<i16>,
    /// Lines skipped: malformed, or positions the evaluation knows outright.
    pub skipped: usize,
}

/// Weights that apply in fewer positions than this keep their value: a handful of
/// positions would fit them to noise.
pub const MIN_SUPPORT: usize = 200;

/// One line of data: `FEN | score | result`, score in centipawns and result 1.0/0.5/0.0,
/// both from White's view.
pub fn parse_line(line: &str) -> Result<(Board, f32, f32), String> {
    let mut fields = line.split('|').map(str::trim);
    let (Some(fen), Some(score), Some(result), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err("expected FEN | score | result".into());
    };
    let board = Board::from_fen(fen).map_err(|e| e.to_string())?;
    let score: f32 = score.parse().map_err(|_| format!("bad score '{score}'"))?;
    let result: f32 = result
        .parse()
        .map_err(|_| format!("bad result '{result}'"))?;
    if !(0.0..=1.0).contains(&result) {
        return Err(format!("result {result} is not between 0 and 1"));
    }
    Ok((board, score, result))
}

impl DataSet {
    /// Traces every position of `text`; the targets are the results.
    pub fn from_text(text: &str, threads: usize) -> DataSet {
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let chunk = lines.len().div_ceil(threads.max(1)).max(1);
        let parts: Vec<DataSet> = std::thread::scope(|scope| {
            let workers: Vec<_> = lines
                .chunks(chunk)
                .map(|part| scope.spawn(move || DataSet::from_lines(part)))
                .collect();
            workers.into_iter().filter_map(|w| w.join().ok()).collect()
        });
        let mut all = DataSet {
            positions: Vec::new(),
            indices: Vec::new(),
            counts: Vec::new(),
            skipped: 0,
        };
        for part in parts {
            let offset = all.indices.len() as u32;
            all.positions
                .extend(part.positions.iter().map(|p| Position {
                    start: p.start + offset,
                    end: p.end + offset,
                    ..*p
                }));
            all.indices.extend(part.indices);
            all.counts.extend(part.counts);
            all.skipped += part.skipped;
        }
        all
    }

    fn from_lines(lines: &[&str]) -> DataSet {
        let mut set = DataSet {
            positions: Vec::with_capacity(lines.len()),
            indices: Vec::new(),
            counts: Vec::new(),
            skipped: 0,
        };
        for line in lines {
            let Ok((board, score, result)) = parse_line(line) else {
                set.skipped += 1;
                continue;
            };
            let Some(trace) = trace(&board) else {
                set.skipped += 1;
                continue;
            };
            let start = set.indices.len() as u32;
            for (w, c) in trace.counts {
                set.indices.push(w);
                set.counts.push(c);
            }
            let phase = trace.phase as f32 / MAX_PHASE as f32;
            set.positions.push(Position {
                start,
                end: set.indices.len() as u32,
                mg_share: phase,
                eg_share: (1.0 - phase) * trace.scale as f32 / 128.0,
                result,
                score,
                target: result,
            });
        }
        set
    }

    /// Blends each target: `lambda` of the result and the rest of the search score's
    /// expected result, `sigmoid(k * score)`.
    pub fn set_targets(&mut self, lambda: f64, k: f64) {
        for p in &mut self.positions {
            let from_score = sigmoid(k, p.score as f64);
            p.target = (lambda * p.result as f64 + (1.0 - lambda) * from_score) as f32;
        }
    }

    /// In how many positions each weight applies.
    pub fn support(&self) -> Vec<usize> {
        let mut support = vec![0; COUNT];
        for &w in &self.indices {
            support[w as usize] += 1;
        }
        support
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The evaluation of position `p` under `weights` (White's view, centipawns).
    #[inline]
    fn eval(&self, p: &Position, weights: &[[f64; 2]]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for i in p.start as usize..p.end as usize {
            let w = &weights[self.indices[i] as usize];
            let c = self.counts[i] as f64;
            mg += w[0] * c;
            eg += w[1] * c;
        }
        mg * p.mg_share as f64 + eg * p.eg_share as f64
    }

    /// Mean squared error of `sigmoid(k * eval)` against the targets, over `threads`.
    pub fn loss(&self, weights: &[[f64; 2]], k: f64, threads: usize) -> f64 {
        let total: f64 = self
            .split(threads, |part| {
                part.iter()
                    .map(|p| {
                        let e = p.target as f64 - sigmoid(k, self.eval(p, weights));
                        e * e
                    })
                    .sum::<f64>()
            })
            .into_iter()
            .sum();
        total / self.len().max(1) as f64
    }

    /// The loss's gradient by each weight (midgame, endgame).
    fn gradient(&self, weights: &[[f64; 2]], k: f64, threads: usize) -> Vec<[f64; 2]> {
        let parts = self.split(threads, |part| {
            let mut g = vec![[0.0; 2]; weights.len()];
            for p in part {
                let s = sigmoid(k, self.eval(p, weights));
                // d/d(eval) of (target - s)^2, with ds/d(eval) = k' s (1 - s).
                let d = -2.0 * (p.target as f64 - s) * s * (1.0 - s) * k * LN_10_OVER_400;
                let (dm, de) = (d * p.mg_share as f64, d * p.eg_share as f64);
                for i in p.start as usize..p.end as usize {
                    let c = self.counts[i] as f64;
                    let gw = &mut g[self.indices[i] as usize];
                    gw[0] += dm * c;
                    gw[1] += de * c;
                }
            }
            g
        });
        let n = self.len().max(1) as f64;
        let mut total = vec![[0.0; 2]; weights.len()];
        for part in parts {
            for (t, g) in total.iter_mut().zip(part) {
                t[0] += g[0] / n;
                t[1] += g[1] / n;
            }
        }
        total
    }

    /// Runs `f` over `threads` slices of the positions.
    fn split<T: Send>(&self, threads: usize, f: impl Fn(&[Position]) -> T + Sync) -> Vec<T> {
        let chunk = self.positions.len().div_ceil(threads.max(1)).max(1);
        std::thread::scope(|scope| {
            let workers: Vec<_> = self
                .positions
                .chunks(chunk)
                .map(|part| {
                    let f = &f;
                    scope.spawn(move || f(part))
                })
                .collect();
            workers.into_iter().filter_map(|w| w.join().ok()).collect()
        })
    }
}

const LN_10_OVER_400: f64 = std::f64::consts::LN_10 / 400.0;

/// Texel's sigmoid: the expected result of a position evaluated `eval` centipawns.
pub fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-k * eval * LN_10_OVER_400).exp())
}

/// The scaling constant `k` that fits the evaluation best to the data (golden-section
/// search over 0.1 to 4).
pub fn fit_k(data: &DataSet, weights: &[[f64; 2]], threads: usize) -> f64 {
    let (mut a, mut b) = (0.1f64, 4.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - ratio * (b - a);
        let d = a + ratio * (b - a);
        if data.loss(weights, c, threads) < data.loss(weights, d, threads) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Adam over the whole data set per step.
pub struct Adam {
    pub rate: f64,
    m: Vec<[f64; 2]>,
    v: Vec<[f64; 2]>,
    step: i32,
}

impl Adam {
    pub fn new(rate: f64, len: usize) -> Adam {
        Adam {
            rate,
            m: vec![[0.0; 2]; len],
            v: vec![[0.0; 2]; len],
            step: 0,
        }
    }

    /// One step on the weights marked `active`.
    pub fn step(
        &mut self,
        data: &DataSet,
        weights: &mut [[f64; 2]],
        active: &[bool],
        k: f64,
        threads: usize,
    ) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        let gradient = data.gradient(weights, k, threads);
        self.step += 1;
        let (c1, c2) = (1.0 - B1.powi(self.step), 1.0 - B2.powi(self.step));
        for i in 0..weights.len() {
            if !active[i] {
                continue;
            }
            for j in 0..2 {
                let g = gradient[i][j];
                self.m[i][j] = B1 * self.m[i][j] + (1.0 - B1) * g;
                self.v[i][j] = B2 * self.v[i][j] + (1.0 - B2) * g * g;
                let m = self.m[i][j] / c1;
                let v = self.v[i][j] / c2;
                weights[i][j] -= self.rate * m / (v.sqrt() + 1e-12);
            }
        }
    }
}

/// The engine's weights as the tuner's floats.
pub fn current_weights() -> Vec<[f64; 2]> {
    PARAMS.iter().map(|p| [p.mg as f64, p.eg as f64]).collect()
}

/// Floats rounded back to the engine's integers.
pub fn rounded(weights: &[[f64; 2]]) -> Vec<Phased> {
    weights
        .iter()
        .map(|w| Phased::new(w[0].round() as i32, w[1].round() as i32))
        .collect()
}

/// The weights `name` stands for: a group (`KING_DANGER`) or a family of groups
/// (`mobility`, `king-safety`; `-` or `_` for a space), in any case.
pub fn weights_named(name: &str) -> Result<Vec<usize>, String> {
    let spaced = name.replace(['-', '_'], " ");
    let groups: Vec<_> = GROUPS
        .iter()
        .filter(|g| {
            g.name.eq_ignore_ascii_case(name) || g.family.name().eq_ignore_ascii_case(&spaced)
        })
        .collect();
    if groups.is_empty() {
        return Err(format!(
            "no group or family of weights named '{name}' (groups are named in \
             src/eval/weights.rs; families: {})",
            Family::ALL.map(|f| f.name().replace(' ', "-")).join(", ")
        ));
    }
    Ok(groups
        .iter()
        .flat_map(|g| g.start..g.start + g.len)
        .collect())
}

/// Which weights a tuning run may change: all, or those of the named groups and families.
pub fn active_weights(groups: &[String]) -> Result<Vec<bool>, String> {
    let mut active = vec![groups.is_empty(); COUNT];
    for name in groups {
        weights_named(name)?
            .into_iter()
            .for_each(|i| active[i] = true);
    }
    // The king has no material value.
    active[MATERIAL.at(PieceType::King.index())] = false;
    Ok(active)
}

/// A tuning run.
#[derive(Clone, Debug)]
pub struct Config {
    pub data: Vec<std::path::PathBuf>,
    /// The Rust file the weights are written to (`src/eval/params.rs`).
    pub output: std::path::PathBuf,
    pub epochs: usize,
    pub rate: f64,
    /// Share of the game result in the target; the rest is the search score's.
    pub lambda: f64,
    pub threads: usize,
    /// Only these groups of weights change (all when empty).
    pub groups: Vec<String>,
    /// These groups are set to zero and kept there (to measure what they are worth).
    pub without: Vec<String>,
    /// The sigmoid's scale; fitted to the data when not given.
    pub k: Option<f64>,
    /// How the run was started, for the output's header.
    pub command: String,
}

/// Loads the data, fits K, runs Adam for the epochs asked, printing the loss of each, and
/// writes the weights (also every 50 epochs, so that a stopped run keeps its progress).
pub fn run(config: &Config, out: &mut dyn std::io::Write) -> Result<(), String> {
    let started = std::time::Instant::now();
    let mut text = String::new();
    for path in &config.data {
        text.push_str(
            &std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?,
        );
        text.push('\n');
    }
    let mut data = DataSet::from_text(&text, config.threads);
    drop(text);
    if data.is_empty() {
        return Err("no usable positions in the data".into());
    }
    let _ = writeln!(
        out,
        "{} positions ({} lines skipped) in {:.1} s",
        data.len(),
        data.skipped,
        started.elapsed().as_secs_f64()
    );
    let mut weights = current_weights();
    let mut active = active_weights(&config.groups)?;
    for name in &config.without {
        for i in weights_named(name)? {
            weights[i] = [0.0; 2];
            active[i] = false;
        }
    }
    let support = data.support();
    let rare = (0..COUNT)
        .filter(|&i| active[i] && support[i] < MIN_SUPPORT)
        .count();
    (0..COUNT).for_each(|i| active[i] &= support[i] >= MIN_SUPPORT);
    let _ = writeln!(
        out,
        "{} weights to fit; {rare} left as they are, seen in fewer than {MIN_SUPPORT} positions",
        active.iter().filter(|&&a| a).count()
    );
    let k = config
        .k
        .unwrap_or_else(|| fit_k(&data, &weights, config.threads));
    data.set_targets(config.lambda, k);
    let before = data.loss(&weights, k, config.threads);
    let _ = writeln!(out, "K {k:.4}, loss {before:.6} before tuning");
    let mut adam = Adam::new(config.rate, weights.len());
    let header = |epochs: usize, loss: f64| {
        vec![
            format!("Made by: {}", config.command),
            format!(
                "Data: {} positions from {} (lambda {}), K {k:.4}.",
                data.len(),
                config
                    .data
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                config.lambda
            ),
            format!(
                "Adam, rate {}, {epochs} epochs: loss {before:.6} -> {loss:.6}.",
                config.rate
            ),
        ]
    };
    for epoch in 1..=config.epochs {
        adam.step(&data, &mut weights, &active, k, config.threads);
        let loss = data.loss(&weights, k, config.threads);
        let _ = writeln!(
            out,
            "epoch {epoch} loss {loss:.6} ({:.0} s)",
            started.elapsed().as_secs_f64()
        );
        if epoch % 50 == 0 || epoch == config.epochs {
            let source = params_source(&rounded(&weights), &header(epoch, loss));
            std::fs::write(&config.output, source)
                .map_err(|e| format!("{}: {e}", config.output.display()))?;
        }
    }
    Ok(())
}
