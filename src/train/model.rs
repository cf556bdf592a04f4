//! The network in floats as the trainer keeps it, its forward and backward passes over a
//! slice of positions, and its quantisation into the engine's `Network`.

use crate::formats::bullet;
use crate::nnue::{Activation, INPUTS, Inputs, Kernels, Network, QA, QB, WEIGHT_CLIP, bucket};
use bulletformat::ChessBoard;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::Rng;

/// The parameters (or their gradients, or an optimiser's moments: the same shape).
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub hidden: usize,
    /// Output buckets (`nnue::bucket` chooses one by the pieces on the board).
    pub buckets: usize,
    /// Mirroring and king buckets (how the features are read: the same in gradients and
    /// moments).
    pub inputs: Inputs,
    /// `inputs.features()` rows of `hidden`.
    pub feature_weights: Vec<f32>,
    /// With king buckets, `INPUTS` rows shared by all of them (a factoriser): a feature's
    /// weights are its bucket's row plus its shared row, so that what every bucket learns
    /// is learnt once from all the data, and each bucket learns only its differences.
    /// Merged into the buckets' rows for the engine (`merged`). Empty without buckets.
    pub shared: Vec<f32>,
    pub feature_bias: Vec<f32>,
    /// A bucket after another: the side to move's `hidden`, then the other side's.
    pub output_weights: Vec<f32>,
    /// One a bucket.
    pub output_bias: Vec<f32>,
}

impl Params {
    pub fn zeros(hidden: usize, buckets: usize, inputs: Inputs) -> Params {
        Params {
            hidden,
            buckets,
            inputs,
            feature_weights: vec![0.0; inputs.features() * hidden],
            shared: vec![
                0.0;
                if inputs.king_buckets > 1 {
                    INPUTS * hidden
                } else {
                    0
                }
            ],
            feature_bias: vec![0.0; hidden],
            output_weights: vec![0.0; buckets * 2 * hidden],
            output_bias: vec![0.0; buckets],
        }
    }

    /// Weights drawn uniformly within `±1/sqrt(fan-in)` from `rng`, biases zero (with
    /// king buckets, the shared rows drawn and the buckets' own rows zero).
    pub fn random(hidden: usize, buckets: usize, inputs: Inputs, rng: &mut ChaCha8Rng) -> Params {
        let mut params = Params::zeros(hidden, buckets, inputs);
        let mut uniform = |bound: f32| {
            let unit = (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
            (2.0 * unit - 1.0) * bound
        };
        let input_bound = 1.0 / (INPUTS as f32).sqrt();
        let first = if params.shared.is_empty() {
            &mut params.feature_weights
        } else {
            &mut params.shared
        };
        first.iter_mut().for_each(|w| *w = uniform(input_bound));
        let output_bound = 1.0 / (2.0 * hidden as f32).sqrt();
        params
            .output_weights
            .iter_mut()
            .for_each(|w| *w = uniform(output_bound));
        params
    }

    /// Every value, in a fixed order (for the optimiser and checkpoints).
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.feature_weights
            .iter_mut()
            .chain(&mut self.feature_bias)
            .chain(&mut self.output_weights)
            .chain(&mut self.output_bias)
            .chain(&mut self.shared)
    }

    pub fn values(&self) -> impl Iterator<Item = &f32> {
        self.feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output_weights)
            .chain(&self.output_bias)
            .chain(&self.shared)
    }

    pub fn len(&self) -> usize {
        self.feature_weights.len()
            + self.hidden
            + self.buckets * (2 * self.hidden + 1)
            + self.shared.len()
    }

    /// The network these parameters compute: the shared rows added to each king bucket's,
    /// written into `out` (whose vectors are reused).
    pub fn merge_into(&self, out: &mut Params) {
        let copy = |to: &mut Vec<f32>, from: &[f32]| {
            to.clear();
            to.extend_from_slice(from);
        };
        (out.hidden, out.buckets, out.inputs) = (self.hidden, self.buckets, self.inputs);
        copy(&mut out.feature_weights, &self.feature_weights);
        copy(&mut out.feature_bias, &self.feature_bias);
        copy(&mut out.output_weights, &self.output_weights);
        copy(&mut out.output_bias, &self.output_bias);
        out.shared.clear();
        if !self.shared.is_empty() {
            for rows in out.feature_weights.chunks_exact_mut(self.shared.len()) {
                rows.iter_mut().zip(&self.shared).for_each(|(w, s)| *w += s);
            }
        }
    }

    /// `merge_into` a new set.
    pub fn merged(&self) -> Params {
        let mut out = Params::zeros(self.hidden, self.buckets, Inputs::PLAIN);
        self.merge_into(&mut out);
        out
    }

    /// With `grads` the gradient of the merged network, sets its shared rows' gradient:
    /// the sum of the buckets' (each shared weight is in every bucket's sum).
    pub fn gather_shared(grads: &mut Params) {
        if grads.shared.is_empty() {
            return;
        }
        grads.shared.iter_mut().for_each(|g| *g = 0.0);
        for rows in grads.feature_weights.chunks_exact(grads.shared.len()) {
            grads.shared.iter_mut().zip(rows).for_each(|(g, r)| *g += r);
        }
    }

    /// Keeps each merged weight within `WEIGHT_CLIP` (the quantisation's bound) by moving
    /// the bucket's part: the shared and the bucket's rows are each clipped on their own,
    /// but their sum must be too.
    pub fn clip_merged(&mut self) {
        if self.shared.is_empty() {
            return;
        }
        for rows in self.feature_weights.chunks_exact_mut(self.shared.len()) {
            for (w, s) in rows.iter_mut().zip(&self.shared) {
                *w = (*w + s).clamp(-WEIGHT_CLIP, WEIGHT_CLIP) - s;
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// Adds `other` (the same shape) to these.
    pub fn add(&mut self, other: &Params) {
        for (a, b) in self.values_mut().zip(other.values()) {
            *a += b;
        }
    }

    pub fn clear(&mut self) {
        self.values_mut().for_each(|v| *v = 0.0);
    }

    /// A network file's weights back in floats (each integer divided by its scale): the
    /// network as the trainer would see it (merged), to measure its loss on other data.
    pub fn from_network(network: &Network) -> Params {
        let f = |values: &[i16], scale: i32| {
            values
                .iter()
                .map(|&v| f32::from(v) / scale as f32)
                .collect()
        };
        Params {
            hidden: network.hidden,
            buckets: network.buckets,
            inputs: network.inputs,
            shared: Vec::new(),
            feature_weights: f(&network.feature_weights, QA),
            feature_bias: f(&network.feature_bias, QA),
            output_weights: f(&network.output_weights, QB),
            output_bias: f(&network.output_bias, QA * QB),
        }
    }

    /// The network in the engine's integers: values rounded after scaling by QA (first
    /// layer, merged), QB (output weights) and QA * QB (output bias).
    pub fn quantise(&self, activation: Activation, scale: f32) -> Network {
        if !self.shared.is_empty() {
            return self.merged().quantise(activation, scale);
        }
        let q =
            |v: f32, scale: i32| (v.clamp(-WEIGHT_CLIP, WEIGHT_CLIP) * scale as f32).round() as i16;
        Network {
            hidden: self.hidden,
            activation,
            buckets: self.buckets,
            inputs: self.inputs,
            feature_weights: self.feature_weights.iter().map(|&v| q(v, QA)).collect(),
            feature_bias: self.feature_bias.iter().map(|&v| q(v, QA)).collect(),
            output_weights: self.output_weights.iter().map(|&v| q(v, QB)).collect(),
            output_bias: self.output_bias.iter().map(|&v| q(v, QA * QB)).collect(),
            scale: scale.round() as i32,
            own_calibration: None,
            kernels: Kernels::detect(),
        }
    }
}

/// The features of a position: the side to move's view, then the other side's (each as
/// `inputs` reads it from that side's king).
pub fn features(position: &ChessBoard, inputs: &Inputs) -> ([u16; 32], [u16; 32], usize) {
    // Squares are the side to move's: the other side sees them with the ranks flipped.
    let (mut our_king, mut their_king) = (0, 0);
    for (kind, own, sq) in bullet::pieces(position) {
        if kind == KING {
            *(if own { &mut our_king } else { &mut their_king }) = sq;
        }
    }
    let (our_view, their_view) = (inputs.view(our_king), inputs.view(their_king ^ 56));
    let (mut ours, mut theirs) = ([0; 32], [0; 32]);
    let mut count = 0;
    for (kind, own, sq) in bullet::pieces(position).take(32) {
        let (us, them) = if own { (0, 384) } else { (384, 0) };
        ours[count] = (our_view.base + us + kind * 64 + (sq ^ our_view.flip)) as u16;
        theirs[count] = (their_view.base + them + kind * 64 + (sq ^ 56 ^ their_view.flip)) as u16;
        count += 1;
    }
    (ours, theirs, count)
}

/// The king's piece code in bulletformat.
const KING: usize = 5;

/// The training target: the game's result blended with the search score's win chance.
#[inline(always)]
pub fn target(position: &ChessBoard, lambda: f32, scale: f32) -> f32 {
    let result = f32::from(position.result) / 2.0;
    let expected = sigmoid(f32::from(position.score) / scale);
    lambda * result + (1.0 - lambda) * expected
}

#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The network's raw output (centipawns / scale) for one position.
pub fn forward(params: &Params, activation: Activation, position: &ChessBoard) -> f32 {
    if !params.shared.is_empty() {
        return forward(&params.merged(), activation, position);
    }
    let mut acc = vec![0.0; 2 * params.hidden];
    let (ours, theirs, count) = features(position, &params.inputs);
    accumulate(params, &ours, &theirs, count, &mut acc);
    output(
        params,
        activation,
        &acc,
        bucket(count as u32, params.buckets),
    )
}

/// Both sides' accumulators (the side to move's first) from their features.
#[inline(always)]
fn accumulate(params: &Params, ours: &[u16], theirs: &[u16], count: usize, acc: &mut [f32]) {
    let h = params.hidden;
    for (side, features) in [ours, theirs].into_iter().enumerate() {
        let acc = &mut acc[side * h..(side + 1) * h];
        acc.copy_from_slice(&params.feature_bias);
        for &f in &features[..count] {
            let row = &params.feature_weights[f as usize * h..(f as usize + 1) * h];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }
}

/// The network's raw output from the accumulators, through the output of `bucket`.
#[inline(always)]
fn output(params: &Params, activation: Activation, acc: &[f32], bucket: usize) -> f32 {
    let mut out = params.output_bias[bucket];
    for (a, w) in acc.iter().zip(&params.output_weights[bucket * acc.len()..]) {
        out += activate(activation, *a) * w;
    }
    out
}

#[inline(always)]
fn activate(activation: Activation, x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    match activation {
        Activation::CReLU => c,
        Activation::SCReLU => c * c,
    }
}

#[inline(always)]
fn derivative(activation: Activation, x: f32) -> f32 {
    if x <= 0.0 || x >= 1.0 {
        return 0.0;
    }
    match activation {
        Activation::CReLU => 1.0,
        Activation::SCReLU => 2.0 * x,
    }
}

/// What one pass over a slice of positions needs besides the parameters.
#[derive(Clone, Copy, Debug)]
pub struct Pass {
    pub activation: Activation,
    pub lambda: f32,
    pub scale: f32,
}

/// Adds the gradient of the summed squared error over `positions` to `grads` (with
/// `grads` set, else only the loss is computed) and returns the summed error. `params` is
/// a merged network (no shared rows: `Params::merge_into`).
pub fn run(
    params: &Params,
    pass: Pass,
    positions: &[ChessBoard],
    grads: Option<&mut Params>,
    scratch: &mut Vec<f32>,
) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has the features the function is compiled for.
        return unsafe { run_avx2(params, pass, positions, grads, scratch) };
    }
    run_generic(params, pass, positions, grads, scratch)
}

/// `run_generic` compiled for AVX2 and FMA, which its loops vectorise to.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn run_avx2(
    params: &Params,
    pass: Pass,
    positions: &[ChessBoard],
    grads: Option<&mut Params>,
    scratch: &mut Vec<f32>,
) -> f64 {
    run_generic(params, pass, positions, grads, scratch)
}

#[inline(always)]
fn run_generic(
    params: &Params,
    pass: Pass,
    positions: &[ChessBoard],
    mut grads: Option<&mut Params>,
    scratch: &mut Vec<f32>,
) -> f64 {
    let h = params.hidden;
    scratch.resize(4 * h, 0.0);
    let (acc, delta) = scratch.split_at_mut(2 * h);
    let mut loss = 0.0f64;
    for position in positions {
        let (ours, theirs, count) = features(position, &params.inputs);
        accumulate(params, &ours, &theirs, count, acc);
        let bucket = bucket(count as u32, params.buckets);
        let predicted = sigmoid(output(params, pass.activation, acc, bucket));
        let error = predicted - target(position, pass.lambda, pass.scale);
        loss += f64::from(error * error);
        let Some(grads) = grads.as_deref_mut() else {
            continue;
        };
        // d(error^2)/d(out)
        let g = 2.0 * error * predicted * (1.0 - predicted);
        grads.output_bias[bucket] += g;
        let outputs = bucket * 2 * h..(bucket + 1) * 2 * h;
        for ((gw, d), (a, w)) in grads.output_weights[outputs.clone()]
            .iter_mut()
            .zip(delta.iter_mut())
            .zip(acc.iter().zip(&params.output_weights[outputs.clone()]))
        {
            *gw += g * activate(pass.activation, *a);
            *d = g * w * derivative(pass.activation, *a);
        }
        for (side, features) in [&ours, &theirs].into_iter().enumerate() {
            let delta = &delta[side * h..(side + 1) * h];
            for (gb, d) in grads.feature_bias.iter_mut().zip(delta) {
                *gb += d;
            }
            for &f in &features[..count] {
                let row = &mut grads.feature_weights[f as usize * h..(f as usize + 1) * h];
                for (gw, d) in row.iter_mut().zip(delta) {
                    *gw += d;
                }
            }
        }
    }
    loss
}
