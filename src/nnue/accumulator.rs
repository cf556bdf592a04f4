//! The accumulators the search keeps, one pair a ply: updated from the pieces a move
//! changes (a quiet move is one feature off and one on, a capture one more off, castling
//! two of each), or computed again for the side whose king moves to another view of the
//! board (the other half in a mirrored network, another king bucket); and the network's
//! output from them, in AVX2 where the CPU has it and in plain Rust otherwise. Both paths
//! give the same integers.

use super::{INPUTS, MAX_KING_BUCKETS, Network, View, bucket, feature};
use crate::board::Board;
use crate::types::{Bitboard, Color, Move, Piece, PieceType, Square, Wing};

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
    /// The view (`Network::view_on`) each side's values were summed in.
    pub views: [View; 2],
}

const COLORS: [Color; 2] = [Color::White, Color::Black];

impl Accumulator {
    const EMPTY: Accumulator = Accumulator {
        sides: [[0; HIDDEN]; 2],
        views: [View { base: 0, flip: 0 }; 2],
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
        let view = network.view_on(board, color);
        let side = &mut self.sides[color.index()];
        side.copy_from_slice(&network.feature_bias[..HIDDEN]);
        for sq in board.occupied() {
            if let Some(piece) = board.piece_at(sq) {
                add(side, row(network, feature(color, piece, sq, view)));
            }
        }
        self.views[color.index()] = view;
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
    /// (written in place: the stack's accumulators are not copied). The side's view has
    /// not changed (else `refresh`).
    pub fn set_side(
        &mut self,
        prev: &Accumulator,
        network: &Network,
        changes: &Changes,
        color: Color,
    ) {
        let (c, view) = (color.index(), prev.views[color.index()]);
        // At most two rows each way: kept on the stack, this runs at every evaluation.
        let rows = |list: &[(Piece, Square)]| {
            let mut rows: [&[i16; HIDDEN]; 2] = [&ZERO_ROW; 2];
            for (slot, &(p, sq)) in rows.iter_mut().zip(list) {
                *slot = row(network, feature(color, p, sq, view));
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
        self.views[c] = view;
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
    /// The king's move, if it moves: its side, from and to.
    king: Option<(Color, Square, Square)>,
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
        king: None,
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
            king: None,
        };
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
            changes.king = Some((us, from, wing.king_target(us)));
        } else if let Some(moved) = board.piece_at(from) {
            if moved.kind() == PieceType::King {
                changes.king = Some((us, from, to));
            }
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

    /// Whether `color`'s side must be computed again in `network`: its king moved to
    /// another view.
    #[inline(always)]
    pub fn refreshes(&self, network: &Network, color: Color) -> bool {
        match self.king {
            Some((side, from, to)) if side == color => {
                network.inputs.view_of(color, from) != network.inputs.view_of(color, to)
            }
            _ => false,
        }
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

/// `acc -= row`
#[inline(always)]
fn sub(acc: &mut [i16; HIDDEN], row: &[i16]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(*w);
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
                sub(next, *row);
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
/// that has that side's accumulator, or, when its king has moved to another view, from
/// the accumulator it last had in that view, with the pieces that differ since.
pub struct AccumulatorStack {
    accumulators: Vec<Accumulator>,
    changes: Vec<Changes>,
    /// Whether each side's accumulator of a ply is that of the line's position.
    ready: Vec<[bool; 2]>,
    /// For each side and view (`view_slot`), its last accumulator there.
    refreshes: Vec<Refresh>,
}

/// A side's accumulator in one view and the pieces it sums, each colour's by kind.
#[derive(Clone)]
struct Refresh {
    values: [i16; HIDDEN],
    pieces: [[u64; 6]; 2],
    valid: bool,
}

/// Views a side may have: each king bucket, flipped or not.
const VIEWS: usize = 2 * MAX_KING_BUCKETS;

/// The slot of `color`'s `view` in `AccumulatorStack::refreshes`.
fn view_slot(color: Color, view: View) -> usize {
    color.index() * VIEWS + view.base / INPUTS * 2 + usize::from(view.flip != 0)
}

impl AccumulatorStack {
    pub fn new(plies: usize) -> AccumulatorStack {
        AccumulatorStack {
            accumulators: vec![Accumulator::EMPTY; plies],
            changes: vec![Changes::NONE; plies],
            ready: vec![[false; 2]; plies],
            refreshes: vec![
                Refresh {
                    values: [0; HIDDEN],
                    pieces: [[0; 6]; 2],
                    valid: false,
                };
                2 * VIEWS
            ],
        }
    }

    /// Starts a line at `board` (ply 0), perhaps with another network than the last.
    pub fn reset(&mut self, network: &Network, board: &Board) {
        self.refreshes.iter_mut().for_each(|r| r.valid = false);
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
                self.refresh(network, board, color, ply);
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

    /// Sets `color`'s accumulator at `ply` to that of `board`, from its last one in the
    /// same view: a king that changes views mostly finds its pieces where they were.
    fn refresh(&mut self, network: &Network, board: &Board, color: Color, ply: usize) {
        let view = network.view_on(board, color);
        let entry = &mut self.refreshes[view_slot(color, view)];
        if !entry.valid {
            entry
                .values
                .copy_from_slice(&network.feature_bias[..HIDDEN]);
            entry.pieces = [[0; 6]; 2];
            entry.valid = true;
        }
        for owner in COLORS {
            for kind in PieceType::ALL {
                let piece = Piece::new(owner, kind);
                let now = board.pieces(owner, kind).0;
                let was = &mut entry.pieces[owner.index()][kind.index()];
                for sq in Bitboard(now & !*was) {
                    add(
                        &mut entry.values,
                        row(network, feature(color, piece, sq, view)),
                    );
                }
                for sq in Bitboard(*was & !now) {
                    sub(
                        &mut entry.values,
                        row(network, feature(color, piece, sq, view)),
                    );
                }
                *was = now;
            }
        }
        let acc = &mut self.accumulators[ply];
        acc.sides[color.index()] = entry.values;
        acc.views[color.index()] = view;
    }
}
