//! `ferrum train`: fits a network to bulletformat positions and writes it quantised for the
//! engine (`crate::nnue`).
//!
//! Mini-batches over threads (each thread sums the gradient of its share, the shares are
//! added in a fixed order, so a seed gives the same network on every run with the same
//! threads), AdamW with the weights clipped to `nnue::WEIGHT_CLIP`, a learning rate that
//! drops by a factor every few epochs or along a cosine, the result's share of the target
//! fixed or ramped over the run, a held-out validation set, and a checkpoint after every
//! epoch from which `--resume` goes on.

pub mod model;

use crate::formats::bullet;
use crate::nnue::{Activation, Inputs, MAX_BUCKETS, Network, WEIGHT_CLIP};
use bulletformat::ChessBoard;
use model::{Params, Pass};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How to train.
#[derive(Clone, Debug)]
pub struct Config {
    /// Bulletformat files (shuffled: `ferrum data shuffle`).
    pub data: Vec<PathBuf>,
    /// The network file to write (after every epoch, and at the end).
    pub output: PathBuf,
    pub hidden: usize,
    pub activation: Activation,
    /// Output buckets, chosen by the pieces on the board (1 to `nnue::MAX_BUCKETS`).
    pub buckets: usize,
    /// Each side's view flipped left to right while its king is on files e to h.
    pub mirrored: bool,
    /// King buckets (`nnue::king_layout`: 1, 2, 4 or 8).
    pub king_buckets: usize,
    pub epochs: usize,
    /// Positions an epoch (at most the training set; all of it by default).
    pub epoch_positions: Option<usize>,
    pub batch: usize,
    pub rate: f32,
    /// The rate is multiplied by `gamma` every `step` epochs (see `Schedule`).
    pub gamma: f32,
    pub step: usize,
    pub schedule: Schedule,
    pub weight_decay: f32,
    /// Share of the game result in the target (the rest: the search score).
    pub lambda: f32,
    /// The share at the last batch, reached in a straight line from `lambda` (none: fixed).
    /// The validation loss stays measured at `lambda`, so that epochs compare.
    pub lambda_end: Option<f32>,
    /// Centipawns per unit of the network's output.
    pub scale: f32,
    pub threads: usize,
    pub seed: u64,
    /// Positions held out (the last ones of the data) to measure the loss on.
    pub validation: usize,
    /// Positions to measure the loss on instead (bulletformat files): games kept apart from
    /// the training data, whose own positions resemble each other too much to judge
    /// how a network does on games it has not seen.
    pub validation_files: Vec<PathBuf>,
    /// A checkpoint to go on from.
    pub resume: Option<PathBuf>,
    /// A network file to start from instead of random weights (fine-tuning; with king
    /// buckets, a network without them fills the shared rows and the buckets start at zero).
    pub init: Option<PathBuf>,
    /// Each epoch's network also kept beside the output (`epoch_path`), so that the epoch
    /// that does best on games kept apart can be chosen after one run.
    pub keep_epochs: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            data: Vec::new(),
            output: PathBuf::from("network.nnue"),
            hidden: 256,
            activation: Activation::SCReLU,
            buckets: 8,
            mirrored: true,
            king_buckets: 1,
            epochs: 40,
            epoch_positions: None,
            batch: 16_384,
            rate: 0.001,
            gamma: 0.3,
            step: 16,
            schedule: Schedule::Step,
            weight_decay: 0.01,
            lambda: 0.3,
            lambda_end: None,
            scale: 140.0,
            threads: 2,
            seed: 1,
            validation: 100_000,
            validation_files: Vec::new(),
            resume: None,
            init: None,
            keep_epochs: false,
        }
    }
}

/// How the learning rate falls over a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Multiplied by `gamma` every `step` epochs.
    Step,
    /// Along half a cosine, batch by batch, from `rate` to the rate the steps would reach
    /// after the last epoch (`rate * gamma^(epochs / step)`): the same fall, smooth.
    Cosine,
}

impl std::fmt::Display for Schedule {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(match self {
            Schedule::Step => "step",
            Schedule::Cosine => "cosine",
        })
    }
}

impl std::str::FromStr for Schedule {
    type Err = String;

    fn from_str(text: &str) -> Result<Schedule, String> {
        match text.to_ascii_lowercase().as_str() {
            "step" => Ok(Schedule::Step),
            "cosine" => Ok(Schedule::Cosine),
            _ => Err(format!("'{text}' is not a schedule (step or cosine)")),
        }
    }
}

impl Config {
    /// The learning rate in `epoch` (from 1) with `done` of the run's batches behind (0 to 1).
    pub fn rate_at(&self, epoch: usize, done: f64) -> f32 {
        let step = self.step.max(1);
        match self.schedule {
            Schedule::Step => self.rate * self.gamma.powi(((epoch - 1) / step) as i32),
            Schedule::Cosine => {
                let end = self.rate * self.gamma.powf(self.epochs as f32 / step as f32);
                let fall = 0.5 * (1.0 + (std::f64::consts::PI * done.clamp(0.0, 1.0)).cos());
                end + (self.rate - end) * fall as f32
            }
        }
    }

    /// The result's share of the target with `done` of the run's batches behind (0 to 1).
    pub fn lambda_at(&self, done: f64) -> f32 {
        match self.lambda_end {
            Some(end) => self.lambda + (end - self.lambda) * done.clamp(0.0, 1.0) as f32,
            None => self.lambda,
        }
    }
}

/// AdamW's state: the moments of every parameter and the steps taken.
#[derive(Clone, Debug, PartialEq)]
struct AdamW {
    m: Params,
    v: Params,
    steps: u64,
}

impl AdamW {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    fn new(shape: &Params) -> AdamW {
        let zeros = || Params::zeros(shape.hidden, shape.buckets, shape.inputs);
        AdamW {
            m: zeros(),
            v: zeros(),
            steps: 0,
        }
    }

    /// One step along the mean gradient `grads` (summed over `count` positions).
    fn step(&mut self, params: &mut Params, grads: &Params, count: usize, rate: f32, decay: f32) {
        self.steps += 1;
        let t = self.steps as i32;
        let correct1 = 1.0 - Self::BETA1.powi(t);
        let correct2 = 1.0 - Self::BETA2.powi(t);
        let scale = 1.0 / count.max(1) as f32;
        for (((p, g), m), v) in params
            .values_mut()
            .zip(grads.values())
            .zip(self.m.values_mut())
            .zip(self.v.values_mut())
        {
            let g = g * scale;
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            let update = (*m / correct1) / ((*v / correct2).sqrt() + Self::EPSILON);
            *p = (*p - rate * (update + decay * *p)).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }
}

/// The summed squared error over `positions` and, with `grads`, its gradient, shared out
/// over `threads` (the shares' gradients added in order).
fn pass(
    params: &Params,
    pass: Pass,
    positions: &[ChessBoard],
    threads: usize,
    grads: Option<&mut [Params]>,
) -> f64 {
    let share = positions.len().div_ceil(threads.max(1)).max(1);
    let chunks: Vec<&[ChessBoard]> = positions.chunks(share).collect();
    match grads {
        Some(grads) => {
            let loss = std::thread::scope(|scope| {
                let handles: Vec<_> = chunks
                    .iter()
                    .zip(grads.iter_mut())
                    .map(|(chunk, grads)| {
                        grads.clear();
                        scope.spawn(move || {
                            model::run(params, pass, chunk, Some(grads), &mut Vec::new())
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
            });
            let (first, rest) = grads.split_at_mut(1);
            for other in rest.iter().take(chunks.len().saturating_sub(1)) {
                first[0].add(other);
            }
            loss
        }
        None => std::thread::scope(|scope| {
            let handles: Vec<_> = chunks
                .iter()
                .map(|chunk| {
                    scope.spawn(move || model::run(params, pass, chunk, None, &mut Vec::new()))
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
        }),
    }
}

/// The network `params` compute, which the passes run: themselves, or with king buckets
/// their rows merged into `merged` (`Params::merge_into`).
fn merge<'a>(params: &'a Params, merged: &'a mut Params) -> &'a Params {
    if params.shared.is_empty() {
        return params;
    }
    params.merge_into(merged);
    merged
}

/// The mean loss of `network` on `positions` (the trainer's validation figure, with the
/// target's `lambda` and the network's own scale), over `threads`.
pub fn loss(network: &Network, positions: &[ChessBoard], lambda: f32, threads: usize) -> f64 {
    let params = Params::from_network(network);
    let pass_of = Pass {
        activation: network.activation,
        lambda,
        scale: network.scale as f32,
    };
    pass(&params, pass_of, positions, threads, None) / positions.len().max(1) as f64
}

/// Reads the positions of bulletformat files; a damaged record is an error.
pub fn load(paths: &[PathBuf]) -> Result<Vec<ChessBoard>, String> {
    let mut positions = Vec::new();
    for path in paths {
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if bytes.len() % bullet::RECORD != 0 {
            return Err(format!(
                "{}: {} bytes, not a whole number of {}-byte positions",
                path.display(),
                bytes.len(),
                bullet::RECORD
            ));
        }
        positions.reserve(bytes.len() / bullet::RECORD);
        for (i, record) in bytes.chunks_exact(bullet::RECORD).enumerate() {
            let record: &[u8; bullet::RECORD] = record.try_into().map_err(|_| "record")?;
            positions.push(
                bullet::from_bytes(record)
                    .map_err(|e| format!("{}: position {}: {e}", path.display(), i + 1))?,
            );
        }
    }
    Ok(positions)
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Epoch {
    pub epoch: usize,
    pub train_loss: f64,
    pub validation_loss: f64,
    pub rate: f32,
    pub positions_per_second: f64,
}

/// A checkpoint: the parameters, the optimiser and the epochs done.
const CHECKPOINT_MAGIC: &[u8; 4] = b"FRC4";
/// The magic, then hidden size, epochs done, AdamW's steps, SCReLU or not, buckets,
/// mirrored, king buckets.
const CHECKPOINT_HEADER: usize = 4 + 7 * 8;

/// Where the checkpoint of the network written to `output` goes.
pub fn checkpoint_path(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".checkpoint");
    PathBuf::from(name)
}

fn save_checkpoint(
    path: &Path,
    params: &Params,
    adam: &AdamW,
    epochs: usize,
    activation: Activation,
) -> Result<(), String> {
    let mut bytes = CHECKPOINT_MAGIC.to_vec();
    for field in [
        params.hidden as u64,
        epochs as u64,
        adam.steps,
        u64::from(activation == Activation::SCReLU),
        params.buckets as u64,
        u64::from(params.inputs.mirrored),
        params.inputs.king_buckets as u64,
    ] {
        bytes.extend_from_slice(&field.to_le_bytes());
    }
    for set in [params, &adam.m, &adam.v] {
        for v in set.values() {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
    }
    // Written aside and renamed, so that a stop mid-write leaves the last checkpoint whole.
    let partial = path.with_extension("partial");
    std::fs::write(&partial, &bytes)
        .and_then(|()| std::fs::rename(&partial, path))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The parameters of a checkpoint made with `config`'s shape.
pub fn checkpoint_params(path: &Path, config: &Config) -> Result<Params, String> {
    load_checkpoint(path, config).map(|(params, _, _)| params)
}

fn load_checkpoint(path: &Path, config: &Config) -> Result<(Params, AdamW, usize), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let bad = |why: &str| format!("{}: {why}", path.display());
    if bytes.len() < CHECKPOINT_HEADER || &bytes[..4] != CHECKPOINT_MAGIC {
        return Err(bad(
            "not a Ferrum training checkpoint (or one from before king buckets)",
        ));
    }
    let field =
        |i: usize| u64::from_le_bytes(bytes[4 + 8 * i..12 + 8 * i].try_into().unwrap_or([0; 8]));
    let (hidden, epochs, steps, screlu, buckets, mirrored, kings) = (
        field(0) as usize,
        field(1) as usize,
        field(2),
        field(3),
        field(4) as usize,
        field(5) == 1,
        field(6) as usize,
    );
    if hidden != config.hidden
        || (screlu == 1) != (config.activation == Activation::SCReLU)
        || buckets != config.buckets
        || mirrored != config.mirrored
        || kings != config.king_buckets
    {
        return Err(bad(
            "made for another hidden size, activation, number of output or king buckets, or mirroring",
        ));
    }
    let inputs = Inputs::new(mirrored, kings)?;
    let mut sets = std::array::from_fn(|_| Params::zeros(hidden, buckets, inputs));
    let expected = CHECKPOINT_HEADER + 4 * 3 * sets[0].len();
    if bytes.len() != expected {
        return Err(bad(&format!("{} bytes, expected {expected}", bytes.len())));
    }
    let mut floats = bytes[CHECKPOINT_HEADER..]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    for set in &mut sets {
        for v in set.values_mut() {
            *v = floats.next().unwrap_or(0.0);
        }
    }
    let [params, m, v] = sets;
    Ok((params, AdamW { m, v, steps }, epochs))
}

/// The parameters of the network file at `path`, in the shape `config` trains: the same
/// hidden size, activation, output buckets, mirroring and scale, and either the same king
/// buckets or none (then its rows become the shared ones, the buckets' own rows zero, so
/// that training starts from the network's exact function).
fn initial(path: &Path, config: &Config, inputs: Inputs) -> Result<Params, String> {
    let bad = |why: String| format!("{}: {why}", path.display());
    let bytes = std::fs::read(path).map_err(|e| bad(e.to_string()))?;
    let network = Network::from_bytes(&bytes).map_err(bad)?;
    if network.hidden != config.hidden
        || network.activation != config.activation
        || network.buckets != config.buckets
        || network.inputs.mirrored != config.mirrored
    {
        return Err(bad(format!(
            "a network of {}, not the shape trained ({} hidden, {}, {} output buckets, {})",
            network.shape(),
            config.hidden,
            config.activation,
            config.buckets,
            if config.mirrored {
                "mirrored"
            } else {
                "not mirrored"
            }
        )));
    }
    if network.scale as f32 != config.scale {
        return Err(bad(format!(
            "trained with scale {}, not {} (--scale {})",
            network.scale, config.scale, network.scale
        )));
    }
    let mut params = Params::from_network(&network);
    if network.inputs == inputs {
        if inputs.king_buckets > 1 {
            params.shared = vec![0.0; crate::nnue::INPUTS * config.hidden];
        }
        return Ok(params);
    }
    if network.inputs.king_buckets != 1 {
        return Err(bad(format!(
            "{} king buckets, not {} (or none)",
            network.inputs.king_buckets, inputs.king_buckets
        )));
    }
    let mut expanded = Params::zeros(config.hidden, config.buckets, inputs);
    expanded.shared = params.feature_weights;
    expanded.feature_bias = params.feature_bias;
    expanded.output_weights = params.output_weights;
    expanded.output_bias = params.output_bias;
    Ok(expanded)
}

/// Where `keep_epochs` writes epoch `epoch`'s network: `g11.nnue` gives `g11-e3.nnue`.
pub fn epoch_path(output: &Path, epoch: usize) -> PathBuf {
    let stem = output.file_stem().unwrap_or_default().to_string_lossy();
    let name = match output.extension() {
        Some(ext) => format!("{stem}-e{epoch}.{}", ext.to_string_lossy()),
        None => format!("{stem}-e{epoch}"),
    };
    output.with_file_name(name)
}

/// Trains as `config` says, printing a line an epoch to `out`; returns the epochs' figures.
pub fn run(config: &Config, out: &mut dyn Write) -> Result<Vec<Epoch>, String> {
    if !(8..=4096).contains(&config.hidden) || !config.hidden.is_multiple_of(8) {
        return Err(format!(
            "hidden size {} (8 to 4096, a multiple of 8)",
            config.hidden
        ));
    }
    if !(1..=MAX_BUCKETS).contains(&config.buckets) {
        return Err(format!(
            "{} output buckets (1 to {MAX_BUCKETS})",
            config.buckets
        ));
    }
    let inputs = Inputs::new(config.mirrored, config.king_buckets)?;
    let started = Instant::now();
    let mut positions = load(&config.data)?;
    if positions.len() < 2 {
        return Err("fewer than two positions to train on".into());
    }
    let validation = if config.validation_files.is_empty() {
        let held = config.validation.min(positions.len() / 10);
        positions.split_off(positions.len() - held)
    } else {
        load(&config.validation_files)?
    };
    let _ = writeln!(
        out,
        "{} training positions, {} for validation, read in {:.1} s",
        positions.len(),
        validation.len(),
        started.elapsed().as_secs_f64()
    );
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let (mut params, mut adam, done) = match &config.resume {
        Some(path) => load_checkpoint(path, config)?,
        None => {
            let params = match &config.init {
                Some(path) => initial(path, config, inputs)?,
                None => Params::random(config.hidden, config.buckets, inputs, &mut rng),
            };
            let adam = AdamW::new(&params);
            (params, adam, 0)
        }
    };
    let threads = config.threads.max(1);
    let mut grads = vec![Params::zeros(config.hidden, config.buckets, inputs); threads];
    let mut pass_of = Pass {
        activation: config.activation,
        lambda: config.lambda,
        scale: config.scale,
    };
    let batch = config.batch.max(1);
    let per_epoch = config
        .epoch_positions
        .unwrap_or(positions.len())
        .min(positions.len());
    let batches = per_epoch.div_ceil(batch);
    let total_batches = positions.len().div_ceil(batch);
    let mut figures = Vec::new();
    let mut merged = params.merged();
    for epoch in done + 1..=config.epochs {
        let run_batches = (config.epochs * batches).max(1) as f64;
        let done_at = |i: usize| ((epoch - 1) * batches + i) as f64 / run_batches;
        let rate = config.rate_at(epoch, done_at(0));
        // The batches of the training set in an order from the seed and the epoch.
        let mut order: Vec<usize> = (0..total_batches).collect();
        let mut epoch_rng = ChaCha8Rng::seed_from_u64(
            config.seed ^ (epoch as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        );
        for i in (1..order.len()).rev() {
            order.swap(i, (epoch_rng.next_u64() % (i as u64 + 1)) as usize);
        }
        let clock = Instant::now();
        let (mut loss, mut seen) = (0.0, 0);
        for (i, &b) in order.iter().take(batches).enumerate() {
            let slice = &positions[b * batch..((b + 1) * batch).min(positions.len())];
            let network = merge(&params, &mut merged);
            pass_of.lambda = config.lambda_at(done_at(i));
            loss += pass(network, pass_of, slice, threads, Some(&mut grads));
            Params::gather_shared(&mut grads[0]);
            adam.step(
                &mut params,
                &grads[0],
                slice.len(),
                config.rate_at(epoch, done_at(i)),
                config.weight_decay,
            );
            params.clip_merged();
            seen += slice.len();
        }
        let speed = seen as f64 / clock.elapsed().as_secs_f64().max(1e-9);
        let validation_loss = if validation.is_empty() {
            f64::NAN
        } else {
            let network = merge(&params, &mut merged);
            pass_of.lambda = config.lambda;
            pass(network, pass_of, &validation, threads, None) / validation.len() as f64
        };
        let figure = Epoch {
            epoch,
            train_loss: loss / seen.max(1) as f64,
            validation_loss,
            rate,
            positions_per_second: speed,
        };
        let _ = writeln!(
            out,
            "epoch {epoch:3}  train loss {:.6}  validation loss {:.6}  rate {rate:.6}  {:.0} positions/s  {:.0} s",
            figure.train_loss,
            figure.validation_loss,
            speed,
            started.elapsed().as_secs_f64()
        );
        figures.push(figure);
        let bytes = params.quantise(config.activation, config.scale).to_bytes();
        let mut paths = vec![config.output.clone()];
        if config.keep_epochs {
            paths.push(epoch_path(&config.output, epoch));
        }
        for path in paths {
            std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        save_checkpoint(
            &checkpoint_path(&config.output),
            &params,
            &adam,
            epoch,
            config.activation,
        )?;
    }
    Ok(figures)
}
