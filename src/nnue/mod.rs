//! The network evaluation: a (768 -> H) x 2 -> 1 network with a clipped activation, as the
//! trainer (`crate::train`) writes it, quantised to 16-bit integers.
//!
//! Inputs are the 768 (piece kind, colour, square) features, seen from each side: the side
//! to move's accumulator first, then the other side's. The output layer may have several
//! buckets, one chosen by the number of pieces on the board. A mirrored network sees each
//! side's view flipped left to right while that side's king is on files e to h, so that
//! what it learns of a king on one wing serves on the other. A king-bucketed network has a
//! set of feature weights for each bucket of squares its king may stand on (as that side
//! sees the board, after mirroring). The file format and the quantisation are documented
//! in docs/nnue.md. A file may end with the network's calibration (its WDL model and
//! UCI_Elo node budgets); a network without one uses `DEFAULT_CALIBRATION`.

mod accumulator;
mod file;
pub mod kernels;

pub use accumulator::{Accumulator, AccumulatorStack, Changes, HIDDEN};
pub use file::HEADER_BYTES;
pub use kernels::{Aligned, Kernels};

use crate::board::Board;
use crate::calibration::{Calibration, WdlModel};
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

/// The calibration of a network whose file has none: g7's. Its WDL model was fitted to
/// 24,054 scored moves of 200 games between networks at 5+0.05 (g7 against g6); its
/// UCI_Elo budgets to matches against the hand-crafted evaluation at the same UCI_Elo
/// (docs/strength-limit.md).
pub const DEFAULT_CALIBRATION: Calibration = Calibration {
    wdl: WdlModel {
        a: [-531.710, 1413.124, -1211.555, 449.129],
        b: [-38.047, 83.477, -19.996, 43.444],
    },
    log2_nodes: [9.45, 12.45, 16.9, 20.6, 22.6],
};

/// Features of one king bucket: 6 piece kinds x 2 colours x 64 squares.
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
/// The most king buckets a network may have.
pub const MAX_KING_BUCKETS: usize = 16;

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

/// The feature of `piece` on `sq` as `perspective` sees it in `view`: its own pieces
/// first, the board flipped for Black, and the view's files flipped and bucket chosen.
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square, view: View) -> usize {
    let theirs = usize::from(piece.color() != perspective);
    let sq = if perspective == Color::White {
        sq.index()
    } else {
        sq.index() ^ 56
    };
    view.base + theirs * 384 + piece.kind().index() * 64 + (sq ^ view.flip)
}

/// Whether a king on `file` (0 for a) is on the half where a mirrored network flips the
/// board.
#[inline(always)]
pub fn mirrors(file: usize) -> bool {
    file >= 4
}

/// How one side sees the board, which its king's square decides: the first feature of its
/// king bucket's weights, and the files flipped (7) or not (0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct View {
    pub base: usize,
    pub flip: usize,
}

/// How a network reads the board: mirrored or not, and the king bucket of each square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inputs {
    /// Each side's view flipped left to right while its king is on files e to h.
    pub mirrored: bool,
    /// King buckets (1 to `MAX_KING_BUCKETS`), each with `INPUTS` rows of weights.
    pub king_buckets: usize,
    /// The bucket of a king on each square as its side sees the board (a1 its own corner),
    /// after a mirrored network's flip.
    pub king_map: [u8; 64],
}

impl Inputs {
    /// One set of weights, not mirrored.
    pub const PLAIN: Inputs = Inputs {
        mirrored: false,
        king_buckets: 1,
        king_map: [0; 64],
    };

    /// Mirrored, with the king buckets of `king_layout(king_buckets)`.
    pub fn new(mirrored: bool, king_buckets: usize) -> Result<Inputs, String> {
        let king_map = king_layout(king_buckets)
            .ok_or_else(|| format!("{king_buckets} king buckets: the layouts are 1, 2, 4 and 8"))?;
        Ok(Inputs {
            mirrored,
            king_buckets,
            king_map,
        })
    }

    /// Feature rows in all: `INPUTS` a king bucket.
    pub fn features(&self) -> usize {
        self.king_buckets * INPUTS
    }

    /// The view of the side whose king is on `own_king` (0 to 63, as that side sees the
    /// board: a1 its own corner).
    #[inline(always)]
    pub fn view(&self, own_king: usize) -> View {
        let flip = if self.mirrored && mirrors(own_king % 8) {
            7
        } else {
            0
        };
        View {
            base: usize::from(self.king_map[own_king ^ flip]) * INPUTS,
            flip,
        }
    }

    /// The view of `perspective` with its king on `king`.
    #[inline(always)]
    pub fn view_of(&self, perspective: Color, king: Square) -> View {
        self.view(if perspective == Color::White {
            king.index()
        } else {
            king.index() ^ 56
        })
    }
}

/// The king bucket layouts `ferrum train --king-buckets` offers, by their number of
/// buckets: each square's bucket as a side sees the board, symmetric left to right (so the
/// same for mirrored networks), finest where kings spend most of a game. 2: the first rank,
/// the rest. 4: the first rank's corners (a, b, g, h) and centre, the second rank, the
/// rest. 8: each pair of files of the first rank (a and h, b and g, ...), the second rank's
/// wings and centre, the third rank, the rest.
pub fn king_layout(buckets: usize) -> Option<[u8; 64]> {
    let bucket = |sq: usize| -> u8 {
        let (rank, file) = (sq / 8, sq % 8);
        let edge = file.min(7 - file) as u8; // 0 for files a and h, 3 for d and e
        match (buckets, rank) {
            (1, _) => 0,
            (2, 0) => 0,
            (2, _) => 1,
            (4, 0) => u8::from(edge >= 2),
            (4, 1) => 2,
            (4, _) => 3,
            (8, 0) => edge,
            (8, 1) => 4 + u8::from(edge >= 2),
            (8, 2) => 6,
            _ => 7,
        }
    };
    matches!(buckets, 1 | 2 | 4 | 8).then(|| std::array::from_fn(bucket))
}

/// A quantised network.
#[derive(Clone, PartialEq)]
pub struct Network {
    pub hidden: usize,
    pub activation: Activation,
    /// Output buckets (1 to `MAX_BUCKETS`).
    pub buckets: usize,
    /// Mirroring and king buckets.
    pub inputs: Inputs,
    /// Feature weights, `inputs.features()` rows of `hidden`, scaled by QA.
    pub feature_weights: Aligned,
    /// Accumulator biases, scaled by QA.
    pub feature_bias: Vec<i16>,
    /// Output weights, a bucket after another: the side to move's `hidden`, then the
    /// other side's; scaled by QB.
    pub output_weights: Aligned,
    /// Output biases, one a bucket, scaled by QA * QB.
    pub output_bias: Vec<i16>,
    /// Centipawns per unit of output: the sigmoid scale the network was trained with.
    pub scale: i32,
    /// The file's calibration, if it has one (`Network::calibration` falls back to
    /// `DEFAULT_CALIBRATION`).
    pub own_calibration: Option<Calibration>,
    /// The arithmetic the engine runs it with, chosen when it is read.
    pub kernels: Kernels,
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

impl Network {
    /// The network's shape for people: `(768 -> 256) x 2 -> 1, SCReLU, 8 output buckets`,
    /// then `, mirrored` and `, 4 king buckets` where they apply.
    pub fn shape(&self) -> String {
        let buckets = match self.buckets {
            1 => "1 output bucket".to_string(),
            n => format!("{n} output buckets"),
        };
        let mirrored = if self.inputs.mirrored {
            ", mirrored"
        } else {
            ""
        };
        let kings = match self.inputs.king_buckets {
            1 => String::new(),
            n => format!(", {n} king buckets"),
        };
        format!(
            "(768 -> {}) x 2 -> 1, {:?}, {buckets}{mirrored}{kings}",
            self.hidden, self.activation
        )
    }

    /// What turns its scores into chances and strength: the file's own, else the default.
    pub fn calibration(&self) -> &Calibration {
        self.own_calibration
            .as_ref()
            .unwrap_or(&DEFAULT_CALIBRATION)
    }

    /// The view of `perspective` on `board`.
    pub fn view_on(&self, board: &Board, perspective: Color) -> View {
        self.inputs
            .view_of(perspective, board.king_square(perspective))
    }

    /// The accumulator of `perspective` computed from the pieces of `board`.
    pub fn accumulate(&self, board: &Board, perspective: Color) -> Vec<i16> {
        let mut acc = self.feature_bias.clone();
        let view = self.view_on(board, perspective);
        for sq in board.occupied() {
            let Some(piece) = board.piece_at(sq) else {
                continue;
            };
            let row = feature(perspective, piece, sq, view) * self.hidden;
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
        kernels::output_sum(self.activation, ours, theirs, self.bucket_weights(bucket))
    }

    /// The output weights of `bucket`: the side to move's `hidden`, then the other's.
    #[inline(always)]
    pub fn bucket_weights(&self, bucket: usize) -> &[i16] {
        &self.output_weights[bucket * 2 * self.hidden..(bucket + 1) * 2 * self.hidden]
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Each layout uses all its buckets, is the same on both wings (so a mirrored network
    /// and a plain one read it alike), and keeps the first rank apart from the rest.
    #[test]
    fn king_layouts() {
        for buckets in [1, 2, 4, 8] {
            let map = king_layout(buckets).unwrap();
            for b in 0..buckets as u8 {
                assert!(map.contains(&b), "{buckets}: bucket {b} unused");
            }
            for sq in 0..64 {
                assert_eq!(map[sq], map[sq ^ 7], "{buckets}: square {sq}");
                if buckets > 1 {
                    assert_ne!(map[sq % 8], map[8 + sq % 8], "{buckets}: file {}", sq % 8);
                }
            }
        }
        assert!(king_layout(3).is_none() && king_layout(16).is_none());
        // White's king on g1 and Black's on g8 are in the same bucket, with or without
        // mirroring; on e1 it is the first rank's centre.
        let inputs = Inputs::new(true, 4).unwrap();
        let g1 = Square::from_index_unchecked(6);
        let g8 = Square::from_index_unchecked(62);
        assert_eq!(
            inputs.view_of(Color::White, g1),
            inputs.view_of(Color::Black, g8)
        );
        assert_eq!(inputs.view_of(Color::White, g1), View { base: 0, flip: 7 });
        let e1 = Square::from_index_unchecked(4);
        assert_eq!(inputs.view_of(Color::White, e1).base, INPUTS);
    }
}
