//! The accumulators the search keeps, one pair a ply: updated from the pieces a move
//! changes (a quiet move is one feature off and one on, a capture one more off, castling
//! two of each), or, in a mirrored network, computed again for the side whose king moves
//! to the other half of the board; and the network's output from them, in AVX2 where the
//! CPU has it and in plain Rust otherwise. Both paths give the same integers.

use super::{Network, bucket, feature, mirrors};
use crate::board::Board;
use crate::types::{Color, Move, Piece, PieceType, Square, Wing};

/// The network's hidden size in the engine (a network file of another size is refused).
pub const HIDDEN: usize = 256;
// Each i32 lane of the AVX2 output sum adds HIDDEN / 4 SCReLU products of up to
// 255 * 32,130: at most 512 keeps them under 2^31 (docs/nnue.md).
const _: () = assert!(HIDDEN <= 512 && HIDDEN.is_multiple_of(16));

/// Both sides' accumulators of one position, White's view first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub sides: [[i16; HIDDEN]; 2],
    /// The file flip (`Network::flip`) each side's values were summed with.
    pub flips: [usize; 2],
}

const COLORS: [Color; 2] = [Color::White, Color::Black];

impl Accumulator {
    const EMPTY: Accumulator = Accumulator {
        sides: [[0; HIDDEN]; 2],
        flips: [0; 2],
    };

    /// The accumulators of `board` computed from its pieces.
    pub fn from_board(network: &Network, board: &Board) -> Accumulator {
        let mut acc = Accumulator::EMPTY;
        for color in COLORS {
            acc.refresh(network, board, color);
        }
        acc
    }

    /// Computes `color`'s side again from the pieces of `board`.
    pub fn refresh(&mut self, network: &Network, board: &Board, color: Color) {
        let flip = network.flip_on(board, color);
        let side = &mut self.sides[color.index()];
        side.copy_from_slice(&network.feature_bias[..HIDDEN]);
        for sq in board.occupied() {
            if let Some(piece) = board.piece_at(sq) {
                add(side, row(network, feature(color, piece, sq, flip)));
            }
        }
        self.flips[color.index()] = flip;
    }

    /// The accumulators after `m` from `before` (the position the move is made from).
    pub fn after_move(&self, network: &Network, before: &Board, m: Move) -> Accumulator {
        let changes = Changes::of(before, m);
        let mut after = before.clone();
        after.make_move(m);
        let mut next = Accumulator::EMPTY;
        for color in COLORS {
            if changes.refreshes(network, color) {
                next.refresh(network, &after, color);
            } else {
                next.set_side(self, network, &changes, color);
            }
        }
        next
    }

    /// Sets `color`'s side to `prev`'s with `changes` made, in one pass over its values
    /// (written in place: the stack's accumulators are not copied). The side's king has
    /// not changed halves (else `refresh`).
    pub fn set_side(
        &mut self,
        prev: &Accumulator,
        network: &Network,
        changes: &Changes,
        color: Color,
    ) {
        let (c, flip) = (color.index(), prev.flips[color.index()]);
        // At most two rows each way: kept on the stack, this runs at every evaluation.
        let rows = |list: &[(Piece, Square)]| {
            let mut rows: [&[i16; HIDDEN]; 2] = [&ZERO_ROW; 2];
            for (slot, &(p, sq)) in rows.iter_mut().zip(list) {
                *slot = row(network, feature(color, p, sq, flip));
            }
            (rows, list.len())
        };
        let ((added, n_added), (removed, n_removed)) =
            (rows(changes.added()), rows(changes.removed()));
        update(
            &mut self.sides[c],
            &prev.sides[c],
            &added[..n_added],
            &removed[..n_removed],
        );
        self.flips[c] = flip;
    }

    /// The network's score for `side` to move, in centipawns, with `pieces` on the board
    /// (which choose the output bucket).
    pub fn evaluate(&self, network: &Network, side: Color, pieces: u32) -> i32 {
        let ours = &self.sides[side.index()];
        let theirs = &self.sides[(!side).index()];
        let bucket = bucket(pieces, network.buckets);
        network.scale_output(output_sum(network, ours, theirs, bucket), bucket)
    }
}

/// The weights of feature `f`, a row of the first layer.
#[inline(always)]
fn row(network: &Network, f: usize) -> &[i16; HIDDEN] {
    network.feature_weights[f * HIDDEN..(f + 1) * HIDDEN]
        .try_into()
        .expect("a row of HIDDEN weights")
}

/// A row of nothing, for the unused slots of `Accumulator::set_side`.
static ZERO_ROW: [i16; HIDDEN] = [0; HIDDEN];

/// The pieces a move takes off and puts on (at most two of each; none for a null move).
#[derive(Clone, Copy, Debug)]
pub struct Changes {
    added: [(Piece, Square); 2],
    removed: [(Piece, Square); 2],
    counts: (usize, usize),
    /// Which side's king moved to the other half of the board (`nnue::mirrors`).
    crossed: [bool; 2],
}

impl Changes {
    /// No change: a null move.
    pub const NONE: Changes = Changes {
        added: [(
            Piece::new(Color::White, PieceType::Pawn),
            Square::from_index_unchecked(0),
        ); 2],
        removed: [(
            Piece::new(Color::White, PieceType::Pawn),
            Square::from_index_unchecked(0),
        ); 2],
        counts: (0, 0),
        crossed: [false; 2],
    };

    /// What `m` changes on `board`, the position it is made from.
    pub fn of(board: &Board, m: Move) -> Changes {
        let us = board.side_to_move();
        let (from, to) = (m.from(), m.to());
        let none = (Piece::new(us, PieceType::Pawn), from);
        let mut changes = Changes {
            added: [none; 2],
            removed: [none; 2],
            counts: (0, 0),
            crossed: [false; 2],
        };
        let crosses = |to: Square| mirrors(from.file() as usize) != mirrors(to.file() as usize);
        if m.is_castle() {
            let wing = if to > from { Wing::King } else { Wing::Queen };
            let (king, rook) = (
                Piece::new(us, PieceType::King),
                Piece::new(us, PieceType::Rook),
            );
            changes.remove(king, from);
            changes.remove(rook, to);
            changes.add(king, wing.king_target(us));
            changes.add(rook, wing.rook_target(us));
            changes.crossed[us.index()] = crosses(wing.king_target(us));
        } else if let Some(moved) = board.piece_at(from) {
            changes.crossed[us.index()] = moved.kind() == PieceType::King && crosses(to);
            changes.remove(moved, from);
            let placed = m.promotion().map_or(moved, |kind| Piece::new(us, kind));
            changes.add(placed, to);
            if m.is_en_passant() {
                let captured = Square::new(to.file(), from.rank());
                changes.remove(Piece::new(!us, PieceType::Pawn), captured);
            } else if let Some(captured) = board.piece_at(to) {
                changes.remove(captured, to);
            }
        }
        changes
    }

    /// Whether `color`'s side must be computed again in `network`: a mirrored network,
    /// whose view of that side flips with its king.
    #[inline(always)]
    pub fn refreshes(&self, network: &Network, color: Color) -> bool {
        network.mirrored && self.crossed[color.index()]
    }

    fn add(&mut self, piece: Piece, sq: Square) {
        self.added[self.counts.0] = (piece, sq);
        self.counts.0 += 1;
    }

    fn remove(&mut self, piece: Piece, sq: Square) {
        self.removed[self.counts.1] = (piece, sq);
        self.counts.1 += 1;
    }

    fn added(&self) -> &[(Piece, Square)] {
        &self.added[..self.counts.0]
    }

    fn removed(&self) -> &[(Piece, Square)] {
        &self.removed[..self.counts.1]
    }
}

/// `acc += row`
#[inline(always)]
fn add(acc: &mut [i16; HIDDEN], row: &[i16]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*w);
    }
}

/// `next = prev + added rows - removed rows`.
fn update(
    next: &mut [i16; HIDDEN],
    prev: &[i16; HIDDEN],
    added: &[&[i16; HIDDEN]],
    removed: &[&[i16; HIDDEN]],
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { update_avx2(next, prev, added, removed) };
    }
    update_generic(next, prev, added, removed);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn update_avx2(
    next: &mut [i16; HIDDEN],
    prev: &[i16; HIDDEN],
    added: &[&[i16; HIDDEN]],
    removed: &[&[i16; HIDDEN]],
) {
    update_generic(next, prev, added, removed);
}

/// The moves' shapes each in one loop that the compiler vectorises: a quiet move (one row
/// on, one off), a capture (one on, two off), castling (two of each).
#[inline(always)]
fn update_generic(
    next: &mut [i16; HIDDEN],
    prev: &[i16; HIDDEN],
    added: &[&[i16; HIDDEN]],
    removed: &[&[i16; HIDDEN]],
) {
    match (added, removed) {
        ([a], [r]) => {
            for i in 0..HIDDEN {
                next[i] = prev[i].wrapping_add(a[i]).wrapping_sub(r[i]);
            }
        }
        ([a], [r, r2]) => {
            for i in 0..HIDDEN {
                next[i] = prev[i]
                    .wrapping_add(a[i])
                    .wrapping_sub(r[i])
                    .wrapping_sub(r2[i]);
            }
        }
        _ => {
            next.copy_from_slice(prev);
            for row in added {
                add(next, *row);
            }
            for row in removed {
                for (a, w) in next.iter_mut().zip(row.iter()) {
                    *a = a.wrapping_sub(*w);
                }
            }
        }
    }
}

/// The output layer's sum before its scaling, in AVX2 where the CPU has it, else as
/// `Network::output_sum` computes it.
fn output_sum(
    network: &Network,
    ours: &[i16; HIDDEN],
    theirs: &[i16; HIDDEN],
    bucket: usize,
) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { simd::output_sum(network, ours, theirs, bucket) };
    }
    network.output_sum(ours, theirs, bucket)
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use super::HIDDEN;
    use crate::nnue::{Activation, Network, QA};
    use std::arch::x86_64::*;

    /// Sixteen values at a time: clamped to 0..QA; for SCReLU `v * w` (at most 255 * 127,
    /// an i16) times `v` by pairs into i32 lanes, each lane summing 2 * HIDDEN / 8 such
    /// products (under 2^31, docs/nnue.md); the lanes summed in i64.
    #[target_feature(enable = "avx2")]
    pub unsafe fn output_sum(
        network: &Network,
        ours: &[i16; HIDDEN],
        theirs: &[i16; HIDDEN],
        bucket: usize,
    ) -> i64 {
        let zero = _mm256_setzero_si256();
        let ceiling = _mm256_set1_epi16(QA as i16);
        let mut lanes = _mm256_setzero_si256();
        let weights =
            network.output_weights[bucket * 2 * HIDDEN..(bucket + 1) * 2 * HIDDEN].as_ptr();
        for (side, acc) in [ours, theirs].into_iter().enumerate() {
            for i in (0..HIDDEN).step_by(16) {
                // SAFETY: i + 16 <= HIDDEN, and the bucket's weights are 2 * HIDDEN values.
                let (v, w) = unsafe {
                    (
                        _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                        _mm256_loadu_si256(weights.add(side * HIDDEN + i).cast()),
                    )
                };
                let v = _mm256_min_epi16(_mm256_max_epi16(v, zero), ceiling);
                let products = match network.activation {
                    Activation::CReLU => _mm256_madd_epi16(v, w),
                    Activation::SCReLU => _mm256_madd_epi16(_mm256_mullo_epi16(v, w), v),
                };
                lanes = _mm256_add_epi32(lanes, products);
            }
        }
        let mut out = [0i32; 8];
        // SAFETY: eight i32 lanes into eight i32s.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), lanes) };
        out.iter().map(|&l| i64::from(l)).sum()
    }
}

/// The accumulators of the positions on the search's line, one a ply, each side's
/// computed only when its position is evaluated (many are cut off before): a move records
/// its changes, and an evaluation applies the changes not yet applied from the nearest ply
/// that has that side's accumulator, or computes the side again from the pieces when its
/// king has changed halves in a mirrored network.
pub struct AccumulatorStack {
    accumulators: Vec<Accumulator>,
    changes: Vec<Changes>,
    /// Whether each side's accumulator of a ply is that of the line's position.
    ready: Vec<[bool; 2]>,
}

impl AccumulatorStack {
    pub fn new(plies: usize) -> AccumulatorStack {
        AccumulatorStack {
            accumulators: vec![Accumulator::EMPTY; plies],
            changes: vec![Changes::NONE; plies],
            ready: vec![[false; 2]; plies],
        }
    }

    /// Starts a line at `board` (ply 0).
    pub fn reset(&mut self, network: &Network, board: &Board) {
        self.accumulators[0] = Accumulator::from_board(network, board);
        self.ready.iter_mut().for_each(|r| *r = [false; 2]);
        self.ready[0] = [true; 2];
    }

    /// The position at `ply` is reached by `changes` from the one before.
    #[inline(always)]
    pub fn record(&mut self, ply: usize, changes: Changes) {
        if ply < self.ready.len() {
            self.changes[ply] = changes;
            self.ready[ply] = [false; 2];
        }
    }

    /// The network's score of `board`, the position at `ply`, in centipawns for the side
    /// to move.
    pub fn evaluate(&mut self, network: &Network, board: &Board, ply: usize) -> i32 {
        if ply >= self.ready.len() {
            return network.evaluate(board);
        }
        for color in COLORS {
            let c = color.index();
            let mut from = ply;
            while from > 0 && !self.ready[from][c] {
                from -= 1;
            }
            if (from + 1..=ply).any(|p| self.changes[p].refreshes(network, color)) {
                self.accumulators[ply].refresh(network, board, color);
            } else {
                for p in from + 1..=ply {
                    let (done, next) = self.accumulators.split_at_mut(p);
                    next[0].set_side(&done[p - 1], network, &self.changes[p], color);
                    self.ready[p][c] = true;
                }
            }
            self.ready[ply][c] = true;
        }
        let pieces = board.occupied().count();
        self.accumulators[ply].evaluate(network, board.side_to_move(), pieces)
    }
}
