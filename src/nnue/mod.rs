//! The network evaluation: a (768 -> H) x 2 -> 1 network with a clipped activation, as the
//! trainer (`crate::train`) writes it, quantised to 16-bit integers.
//!
//! Inputs are the 768 (piece kind, colour, square) features, seen from each side: the side
//! to move's accumulator first, then the other side's. The output layer may have several
//! buckets, one chosen by the number of pieces on the board. A mirrored network sees each
//! side's view flipped left to right while that side's king is on files e to h, so that
//! what it learns of a king on one wing serves on the other. The file format and the
//! quantisation are documented in docs/nnue.md.

mod accumulator;

pub use accumulator::{Accumulator, AccumulatorStack, Changes, HIDDEN};

use crate::board::Board;
use crate::types::{Color, Piece, Square};
use std::path::Path;
use std::sync::{Arc, LazyLock};

/// The network built into the binary (docs/nnue.md records how it was made).
static EMBEDDED: &[u8] = include_bytes!("default.nnue");

/// The network built into the binary, read once.
pub fn embedded() -> Arc<Network> {
    static NETWORK: LazyLock<Arc<Network>> = LazyLock::new(|| {
        // The file is part of the source; tests/nnue.rs reads it.
        Arc::new(Network::for_engine(EMBEDDED).unwrap_or_else(|e| panic!("embedded network: {e}")))
    });
    Arc::clone(&NETWORK)
}

/// A network file for the engine, or why it cannot be used.
pub fn load(path: &Path) -> Result<Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Network::for_engine(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Features: 6 piece kinds x 2 colours x 64 squares.
pub const INPUTS: usize = 768;
/// The activation's ceiling in the accumulators (1.0 in the trainer's floats).
pub const QA: i32 = 255;
/// The output weights' scale.
pub const QB: i32 = 64;
/// Weights (and biases) are clipped to this in training, so that the quantised values,
/// the accumulators and the output sums stay within their integer types (docs/nnue.md).
pub const WEIGHT_CLIP: f32 = 1.98;

/// The most output buckets a network may have.
pub const MAX_BUCKETS: usize = 8;

const MAGIC: &[u8; 4] = b"FRNN";
const VERSION: u32 = 3;
/// Magic, version, inputs, hidden size, activation, QA, QB, scale, output buckets,
/// mirrored, checksum (version 2 had no mirroring, version 1 no bucket count either).
pub const HEADER_BYTES: usize = 4 + 9 * 4 + 8;

/// The output bucket of a position with `pieces` on the board (kings included) in a
/// network of `buckets`: steps of 32 / `buckets` pieces from 2, fewest first (for 8
/// buckets, 2-5 pieces are bucket 0 and 30-32 bucket 7).
#[inline(always)]
pub fn bucket(pieces: u32, buckets: usize) -> usize {
    (pieces.saturating_sub(2) as usize * buckets / 32).min(buckets - 1)
}

/// The activation between the accumulators and the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `clamp(x, 0, 1)`
    CReLU,
    /// `clamp(x, 0, 1)^2`
    SCReLU,
}

impl Activation {
    fn code(self) -> u32 {
        match self {
            Activation::CReLU => 0,
            Activation::SCReLU => 1,
        }
    }

    fn from_code(code: u32) -> Option<Activation> {
        match code {
            0 => Some(Activation::CReLU),
            1 => Some(Activation::SCReLU),
            _ => None,
        }
    }
}

/// As the command line writes it (`screlu`, `crelu`).
impl std::fmt::Display for Activation {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(match self {
            Activation::CReLU => "crelu",
            Activation::SCReLU => "screlu",
        })
    }
}

impl std::str::FromStr for Activation {
    type Err = String;

    fn from_str(text: &str) -> Result<Activation, String> {
        match text.to_ascii_lowercase().as_str() {
            "crelu" => Ok(Activation::CReLU),
            "screlu" => Ok(Activation::SCReLU),
            _ => Err(format!("'{text}' is not an activation (screlu or crelu)")),
        }
    }
}

/// The feature of `piece` on `sq` as `perspective` sees it: its own pieces first, the
/// board flipped for Black, and its files flipped by `flip` (`Network::flip`).
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square, flip: usize) -> usize {
    let theirs = usize::from(piece.color() != perspective);
    let sq = if perspective == Color::White {
        sq.index()
    } else {
        sq.index() ^ 56
    };
    theirs * 384 + piece.kind().index() * 64 + (sq ^ flip)
}

/// Whether a king on `file` (0 for a) is on the half where a mirrored network flips the
/// board.
#[inline(always)]
pub fn mirrors(file: usize) -> bool {
    file >= 4
}

/// A quantised network.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    pub hidden: usize,
    pub activation: Activation,
    /// Output buckets (1 to `MAX_BUCKETS`).
    pub buckets: usize,
    /// Each side's view flipped left to right while its king is on files e to h.
    pub mirrored: bool,
    /// Feature weights, `INPUTS` rows of `hidden`, scaled by QA.
    pub feature_weights: Vec<i16>,
    /// Accumulator biases, scaled by QA.
    pub feature_bias: Vec<i16>,
    /// Output weights, a bucket after another: the side to move's `hidden`, then the
    /// other side's; scaled by QB.
    pub output_weights: Vec<i16>,
    /// Output biases, one a bucket, scaled by QA * QB.
    pub output_bias: Vec<i16>,
    /// Centipawns per unit of output: the sigmoid scale the network was trained with.
    pub scale: i32,
}

/// The shape and a checksum, not the 200,000 weights.
impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let bytes = self.to_bytes();
        let sum = &bytes[HEADER_BYTES - 8..HEADER_BYTES];
        write!(
            f,
            "Network {{ {}, scale {}, checksum {:02x?} }}",
            self.shape(),
            self.scale,
            sum
        )
    }
}

/// FNV-1a over the weights' bytes, the header's check that they are the ones written.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl Network {
    /// The network's shape for people: `(768 -> 256) x 2 -> 1, SCReLU, 8 output buckets`,
    /// and `, mirrored` for a mirrored one.
    pub fn shape(&self) -> String {
        let buckets = match self.buckets {
            1 => "1 output bucket".to_string(),
            n => format!("{n} output buckets"),
        };
        let mirrored = if self.mirrored { ", mirrored" } else { "" };
        format!(
            "(768 -> {}) x 2 -> 1, {:?}, {buckets}{mirrored}",
            self.hidden, self.activation
        )
    }

    /// The network file: header, then the weights as little-endian i16.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut weights = Vec::new();
        for value in self
            .feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output_weights)
            .chain(&self.output_bias)
        {
            weights.extend_from_slice(&value.to_le_bytes());
        }
        let mut out = MAGIC.to_vec();
        for field in [
            VERSION,
            INPUTS as u32,
            self.hidden as u32,
            self.activation.code(),
            QA as u32,
            QB as u32,
            self.scale as u32,
            self.buckets as u32,
            u32::from(self.mirrored),
        ] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        out.extend_from_slice(&checksum(&weights).to_le_bytes());
        out.extend_from_slice(&weights);
        out
    }

    /// A network from its file, or why the file is not one Ferrum can use.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() >= MAGIC.len() && !bytes.starts_with(MAGIC) {
            return Err("not a Ferrum network (no FRNN at the start)".into());
        }
        let field = |i: usize| {
            let at = 4 + 4 * i;
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        // A file too short to give its version is measured against the shortest header.
        let version = if bytes.len() >= 8 { field(0) } else { 1 };
        if !(1..=VERSION).contains(&version) {
            return Err(format!(
                "network version {version}, expected 1 to {VERSION}"
            ));
        }
        // Versions 1 and 2 lack the last field or two.
        let header = HEADER_BYTES - 4 * (VERSION - version) as usize;
        if bytes.len() < header {
            return Err(format!(
                "{} bytes: too short for a network's header",
                bytes.len()
            ));
        }
        if field(1) != INPUTS as u32 {
            return Err(format!("{} inputs, expected {INPUTS}", field(1)));
        }
        let hidden = field(2) as usize;
        if !(8..=4096).contains(&hidden) || !hidden.is_multiple_of(8) {
            return Err(format!("hidden size {hidden} (8 to 4096, a multiple of 8)"));
        }
        let activation = Activation::from_code(field(3))
            .ok_or_else(|| format!("unknown activation {}", field(3)))?;
        let constants = (field(4), field(5));
        if constants != (QA as u32, QB as u32) {
            return Err(format!("quantisation {constants:?}, expected ({QA}, {QB})"));
        }
        let scale = field(6);
        if !(50..=2000).contains(&scale) {
            return Err(format!("output scale {scale} (50 to 2000)"));
        }
        let buckets = if version >= 2 { field(7) as usize } else { 1 };
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(format!("{buckets} output buckets (1 to {MAX_BUCKETS})"));
        }
        let mirrored = match if version >= 3 { field(8) } else { 0 } {
            0 => false,
            1 => true,
            code => return Err(format!("mirroring {code}, expected 0 or 1")),
        };
        let values = INPUTS * hidden + hidden + buckets * (2 * hidden + 1);
        let expected = header + 2 * values;
        if bytes.len() != expected {
            return Err(format!(
                "{} bytes, expected {expected} for hidden size {hidden} and {buckets} output buckets",
                bytes.len()
            ));
        }
        let weights = &bytes[header..];
        let sum = u64::from_le_bytes(bytes[header - 8..header].try_into().unwrap_or([0; 8]));
        if checksum(weights) != sum {
            return Err("the weights do not match the header's checksum".into());
        }
        let mut all = weights
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]));
        let mut take = |n: usize| all.by_ref().take(n).collect::<Vec<i16>>();
        let feature_weights = take(INPUTS * hidden);
        let feature_bias = take(hidden);
        let output_weights = take(buckets * 2 * hidden);
        let output_bias = take(buckets);
        Ok(Network {
            hidden,
            activation,
            buckets,
            mirrored,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
            scale: scale as i32,
        })
    }

    /// A network from its file, of the hidden size the engine's accumulators have.
    pub fn for_engine(bytes: &[u8]) -> Result<Network, String> {
        let network = Network::from_bytes(bytes)?;
        if network.hidden != HIDDEN {
            return Err(format!(
                "hidden size {}: this build evaluates networks of {HIDDEN}",
                network.hidden
            ));
        }
        Ok(network)
    }

    /// How `perspective`'s features flip the files (0 or 7, for `feature`) with its king on
    /// `king`.
    #[inline(always)]
    pub fn flip(&self, king: Square) -> usize {
        if self.mirrored && mirrors(king.file() as usize) {
            7
        } else {
            0
        }
    }

    /// `flip` for `perspective` on `board`.
    pub fn flip_on(&self, board: &Board, perspective: Color) -> usize {
        self.flip(board.king_square(perspective))
    }

    /// The accumulator of `perspective` computed from the pieces of `board`.
    pub fn accumulate(&self, board: &Board, perspective: Color) -> Vec<i16> {
        let mut acc = self.feature_bias.clone();
        let flip = self.flip_on(board, perspective);
        for sq in board.occupied() {
            let Some(piece) = board.piece_at(sq) else {
                continue;
            };
            let row = feature(perspective, piece, sq, flip) * self.hidden;
            for (a, w) in acc
                .iter_mut()
                .zip(&self.feature_weights[row..row + self.hidden])
            {
                *a = a.wrapping_add(*w);
            }
        }
        acc
    }

    /// The output bucket of `board`.
    pub fn bucket_of(&self, board: &Board) -> usize {
        bucket(board.occupied().count(), self.buckets)
    }

    /// The output of `bucket`, in centipawns for the side to move, from the two
    /// accumulators.
    pub fn output(&self, ours: &[i16], theirs: &[i16], bucket: usize) -> i32 {
        self.scale_output(self.output_sum(ours, theirs, bucket), bucket)
    }

    /// The output layer's sum before its scaling, in plain Rust (the reference the SIMD
    /// path is tested against).
    pub fn output_sum(&self, ours: &[i16], theirs: &[i16], bucket: usize) -> i64 {
        let weights = self.output_weights[bucket * 2 * self.hidden..]
            .chunks_exact(self.hidden)
            .take(2);
        let mut sum: i64 = 0;
        for (acc, weights) in [ours, theirs].into_iter().zip(weights) {
            for (&a, &w) in acc.iter().zip(weights) {
                let v = i64::from(a.clamp(0, QA as i16));
                sum += match self.activation {
                    Activation::CReLU => v * i64::from(w),
                    Activation::SCReLU => v * v * i64::from(w),
                };
            }
        }
        sum
    }

    /// Centipawns from the output layer's sum: SCReLU's extra factor of QA taken out, the
    /// bias added, then scaled, truncating.
    pub fn scale_output(&self, mut sum: i64, bucket: usize) -> i32 {
        if self.activation == Activation::SCReLU {
            sum /= i64::from(QA);
        }
        sum += i64::from(self.output_bias[bucket]);
        (sum * i64::from(self.scale) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of `board` for the side to move, in centipawns, from scratch.
    pub fn evaluate(&self, board: &Board) -> i32 {
        let us = board.side_to_move();
        self.output(
            &self.accumulate(board, us),
            &self.accumulate(board, !us),
            self.bucket_of(board),
        )
    }
}
