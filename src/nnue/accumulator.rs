//! The accumulators the search keeps, one pair a ply: updated from the pieces a move
//! changes (a quiet move is one feature off and one on, a capture one more off, castling
//! two of each), or computed again for the side whose king moves to another view of the
//! board (the other half in a mirrored network, another king bucket); and the network's
//! output from them, with the network's kernels (`kernels.rs`).

use super::kernels::{add, sub};
use super::{INPUTS, MAX_KING_BUCKETS, Network, View, bucket, feature};
use crate::board::Board;
use crate::types::{Bitboard, Color, Move, Piece, PieceType, Square, Wing};

/// The network's hidden size in the engine (a network file of another size is refused).
pub const HIDDEN: usize = 256;

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
        network.kernels.update(
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
        let weights = network.bucket_weights(bucket);
        let sum = network
            .kernels
            .output_sum(network.activation, ours, theirs, weights);
        network.scale_output(sum, bucket)
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
