//! The staged move picker: moves in the order most likely to cause a cutoff, generated only
//! when needed. Stages: the transposition-table move, captures and promotions that do not
//! lose material (by SEE, best victim first), the two killer moves, quiet moves by history,
//! then the losing captures and under-promotions.

use super::history::MoveScore;
use super::tt::TranspositionTable;
use crate::board::{Board, CheckInfo, SEE_VALUE};
use crate::movegen::{MAX_MOVES, MoveList, noisy_moves, quiet_checks, quiet_moves, uninit_array};
use crate::types::{Move, PieceType};
use std::mem::MaybeUninit;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GenerateNoisy,
    GoodNoisy,
    Killer1,
    Killer2,
    GenerateQuiet,
    Quiet,
    BadNoisy,
    Done,
}

/// Keys scanned at a time by `select`.
const CHUNK: usize = 8;
// A list index fits in a key's low byte, and a full list in whole chunks.
const _: () = assert!(MAX_MOVES <= 256 && MAX_MOVES.is_multiple_of(CHUNK));

pub struct MovePicker<'a> {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    /// Of the quiet moves not yet returned, only checks are wanted (in generation order).
    quiet_checks_only: Option<CheckInfo>,
    list: MoveList,
    /// Selection keys of `list`: score times 256 plus the move's index in the list, so that
    /// the largest key names the best move, the last of equals. Written when the list is
    /// generated, up to a multiple of `CHUNK` (the rest as `i32::MIN`); a returned move's
    /// key becomes `i32::MIN`. No need to clear them first.
    keys: [MaybeUninit<i32>; MAX_MOVES],
    next: usize,
    bad: MoveList,
    next_bad: usize,
    /// The table the moves' children will probe.
    table: &'a TranspositionTable,
    /// Whether to prefetch for all quiet moves, worth it only where many are searched.
    prefetch_quiets: bool,
    /// The noisy moves were generated ahead of their stage.
    noisy_ready: bool,
}

/// The `SEE_VALUE` of the piece a capture takes (a pawn when the target square is empty:
/// en passant). Delta pruning in quiescence and its test before the table probe share it.
pub fn victim_value(board: &Board, m: Move) -> i32 {
    let victim = board.piece_at(m.to()).map_or(PieceType::Pawn, |p| p.kind());
    SEE_VALUE[victim.index()]
}

/// Whether a noisy move goes with the good ones: no under-promotion, and no loss of
/// material by SEE. The rest are tried last, or in quiescence not at all.
#[inline(always)]
fn is_good_noisy(board: &Board, m: Move) -> bool {
    m.promotion().is_none_or(|p| p == PieceType::Queen) && board.see_ge(m, 0)
}

/// Most valuable victim first (promotions by the new piece), then the capture history,
/// which can lift a capture above one of the next kind of victim: it knows which
/// captures of this piece on this square worked.
fn noisy_score(board: &Board, m: Move, history: &impl MoveScore) -> i32 {
    let victim = board.piece_at(m.to()).map(|p| p.kind());
    let value = match victim {
        Some(kind) => SEE_VALUE[kind.index()],
        None if m.is_en_passant() => SEE_VALUE[PieceType::Pawn.index()],
        None => 0,
    };
    let promotion = m.promotion().map_or(0, |p| SEE_VALUE[p.index()]);
    let learned = board.piece_at(m.from()).map_or(0, |p| {
        history.noisy(p, m.to(), victim.unwrap_or(PieceType::Pawn))
    });
    (value + promotion) * 8 + learned / 8
}

impl<'a> MovePicker<'a> {
    /// A picker for an ordinary node.
    pub fn new(tt_move: Move, killers: [Move; 2], table: &'a TranspositionTable) -> Self {
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            killers,
            quiet_checks_only: None,
            list: MoveList::new(),
            keys: uninit_array(),
            next: 0,
            bad: MoveList::new(),
            next_bad: 0,
            table,
            prefetch_quiets: false,
            noisy_ready: false,
        }
    }

    /// Generates the noisy moves now, before the table move is known (see `set_tt_move`),
    /// so that the caller can look at them before it waits for its table entry. The order
    /// in which moves are returned is unchanged.
    pub fn generate_noisy_now(&mut self, board: &Board, history: &impl MoveScore) {
        self.generate_noisy(board, history);
        self.noisy_ready = true;
        self.stage = Stage::TtMove;
    }

    /// Whether a generated noisy move promotes or captures more than `value` (see
    /// `victim_value`); only after `generate_noisy_now`.
    pub fn any_noisy_above(&self, board: &Board, value: i32) -> bool {
        self.list
            .iter()
            .any(|&m| m.is_promotion() || victim_value(board, m) > value)
    }

    /// The table move, to be tried first; only before the first call of `next`.
    pub fn set_tt_move(&mut self, m: Move) {
        self.tt_move = m;
    }

    /// Prefetches the children of all quiet moves too, when they are generated.
    pub fn prefetch_quiets(mut self) -> Self {
        self.prefetch_quiets = true;
        self
    }

    /// A picker for quiescence search: all evasions in check (`next`), else only the
    /// captures and promotions that do not lose material (`next_noisy_only`). Its table
    /// move comes later (`set_tt_move`).
    pub fn quiescence(table: &'a TranspositionTable) -> Self {
        MovePicker::new(Move::NONE, [Move::NONE; 2], table)
    }

    /// From now on, of the quiet moves only those that give check (after pruning has ruled
    /// out the rest): they come unsorted, which saves the selection.
    pub fn keep_only_quiet_checks(&mut self, board: &Board, info: CheckInfo) {
        match self.stage {
            // Killers not returned yet are skipped from now on, so the checks must not
            // leave them out as already tried.
            stage if stage <= Stage::Killer1 => self.killers = [Move::NONE; 2],
            Stage::Killer2 => self.killers[1] = Move::NONE,
            // Already generated: of the moves not yet returned keep the checks, in order.
            // A list from `quiet_checks` needs no such test.
            Stage::Quiet => {
                let mut kept = self.next;
                for i in self.next..self.list.len() {
                    let m = self.list[i];
                    if board.gives_check_with(m, &info) {
                        self.list[kept] = m;
                        kept += 1;
                    }
                }
                self.list.truncate(kept);
            }
            _ => {}
        }
        self.quiet_checks_only = Some(info);
    }

    /// Whether the move just returned was a quiet move known to give check.
    #[inline(always)]
    pub fn last_was_quiet_check(&self) -> bool {
        self.stage == Stage::Quiet && self.quiet_checks_only.is_some()
    }

    /// Whether the move just returned was a capture or promotion already found not to lose
    /// material by SEE.
    #[inline(always)]
    pub fn last_was_good_noisy(&self) -> bool {
        self.stage == Stage::GoodNoisy
    }

    /// Whether the move just returned was a capture or promotion found to lose material by
    /// SEE, tried after the quiet moves.
    #[inline(always)]
    pub fn last_was_bad_noisy(&self) -> bool {
        self.stage == Stage::BadNoisy
    }

    /// Scores the new list, and asks for the table entries of all its moves' children at
    /// once: a probe that misses the cache waits for main memory, and these requests
    /// overlap, where one made just before each move would wait in turn.
    #[inline(always)]
    fn score_list(&mut self, board: &Board, prefetch: bool, score: impl Fn(Move) -> i32) {
        for (i, &m) in self.list.iter().enumerate() {
            if prefetch {
                self.table.prefetch(board.key_after(m));
            }
            let score = score(m);
            debug_assert!(
                score.abs() < 1 << 23,
                "a score must leave room for the index"
            );
            self.keys[i] = MaybeUninit::new(score << 8 | i as i32);
        }
        let len = self.list.len();
        for key in &mut self.keys[len..len.next_multiple_of(CHUNK)] {
            *key = MaybeUninit::new(i32::MIN);
        }
    }

    // Generation stays out of line: `next` is called once per move and should not carry
    // the generator's registers and stack frame each time.
    #[inline(never)]
    fn generate_noisy(&mut self, board: &Board, history: &impl MoveScore) {
        self.list.clear();
        noisy_moves(board, &mut self.list);
        self.score_list(board, true, |m| noisy_score(board, m, history));
        self.next = 0;
        self.stage = Stage::GoodNoisy;
    }

    #[inline(never)]
    fn generate_quiet(&mut self, board: &Board, history: &impl MoveScore) {
        self.list.clear();
        self.next = 0;
        self.stage = Stage::Quiet;
        if let Some(info) = &self.quiet_checks_only {
            // Few, and all of them will be searched.
            quiet_checks(board, info, &mut self.list);
            for &m in self.list.iter() {
                self.table.prefetch(board.key_after(m));
            }
            return;
        }
        quiet_moves(board, &mut self.list);
        self.score_list(board, self.prefetch_quiets, |m| {
            board
                .piece_at(m.from())
                .map_or(0, |p| history.quiet(p, m.to()))
        });
    }

    /// Picks the best-scored move among those not yet returned. The keys are scanned in
    /// whole chunks from the one holding `next`: a loop whose length varies with the list
    /// only by chunks is one a branch predictor gets right, and each chunk's maximum
    /// compiles to vector code.
    fn select(&mut self) -> Option<Move> {
        let (len, next) = (self.list.len(), self.next);
        if next >= len {
            return None;
        }
        // SAFETY: `score_list` wrote every key below `len` rounded up to a chunk.
        let key = |k: &MaybeUninit<i32>| unsafe { k.assume_init() };
        let mut most = [i32::MIN; CHUNK];
        for chunk in
            self.keys[next / CHUNK * CHUNK..len.next_multiple_of(CHUNK)].chunks_exact(CHUNK)
        {
            for (m, k) in most.iter_mut().zip(chunk) {
                *m = (*m).max(key(k));
            }
        }
        let best = most.into_iter().fold(i32::MIN, i32::max);
        let index = (best & 0xff) as usize;
        self.list.swap(next, index);
        // The move that was at `next` moves to `index`, and its key with it.
        self.keys[index] = MaybeUninit::new((key(&self.keys[next]) & !0xff) | index as i32);
        self.keys[next] = MaybeUninit::new(i32::MIN);
        self.next += 1;
        Some(self.list[next])
    }

    /// The next move to try, or `None` when all have been returned.
    #[inline(always)]
    pub fn next(&mut self, board: &Board, history: &impl MoveScore) -> Option<Move> {
        self.next_pruned(board, history, false, &mut None)
    }

    /// The next move for quiescence out of check: the table move if it is noisy, then the
    /// captures and queen promotions that do not lose material, best first; the noisy
    /// moves generated first (`generate_noisy_now`). Without `next`'s jump on its stage,
    /// which a predictor often misses, in quiescence nodes, half of all nodes.
    #[inline(always)]
    pub fn next_noisy_only(&mut self, board: &Board) -> Option<Move> {
        debug_assert!(self.noisy_ready);
        if self.stage == Stage::TtMove {
            self.stage = Stage::GoodNoisy;
            let m = self.tt_move;
            if m.is_noisy() && board.is_legal(m) {
                return Some(m);
            }
        }
        while let Some(m) = self.select() {
            if m != self.tt_move && is_good_noisy(board, m) {
                return Some(m);
            }
        }
        None
    }

    /// `next`, told whether pruning would now skip every quiet move that does not give
    /// check: if so before the quiet moves are generated, only the checks are. The
    /// position's check info comes from the caller's cache (`check_info`), filled when
    /// first needed, so that a node computes it at most once.
    #[inline(always)]
    pub fn next_pruned(
        &mut self,
        board: &Board,
        history: &impl MoveScore,
        quiets_pruned: bool,
        check_info: &mut Option<CheckInfo>,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::Killer1 | Stage::Killer2 | Stage::GenerateQuiet
                    if quiets_pruned && self.quiet_checks_only.is_none() =>
                {
                    let info = *check_info.get_or_insert_with(|| board.check_info());
                    self.keep_only_quiet_checks(board, info);
                }
                Stage::TtMove => {
                    self.stage = Stage::GenerateNoisy;
                    let m = self.tt_move;
                    if m != Move::NONE && board.is_legal(m) {
                        return Some(m);
                    }
                }
                Stage::GenerateNoisy if self.noisy_ready => self.stage = Stage::GoodNoisy,
                Stage::GenerateNoisy => self.generate_noisy(board, history),
                Stage::GoodNoisy => match self.select() {
                    Some(m) if m == self.tt_move => {}
                    Some(m) if is_good_noisy(board, m) => return Some(m),
                    Some(m) => self.bad.push(m),
                    None => self.stage = Stage::Killer1,
                },
                Stage::Killer1 | Stage::Killer2 => {
                    let first = self.stage == Stage::Killer1;
                    let m = self.killers[usize::from(!first)];
                    self.stage = if first {
                        Stage::Killer2
                    } else {
                        Stage::GenerateQuiet
                    };
                    if m != Move::NONE
                        && self.quiet_checks_only.is_none()
                        && m != self.tt_move
                        && (first || m != self.killers[0])
                        && !m.is_noisy()
                        && board.is_legal(m)
                    {
                        return Some(m);
                    }
                }
                Stage::GenerateQuiet => self.generate_quiet(board, history),
                Stage::Quiet if self.quiet_checks_only.is_some() => {
                    while self.next < self.list.len() {
                        let m = self.list[self.next];
                        self.next += 1;
                        if m != self.tt_move && !self.killers.contains(&m) {
                            return Some(m);
                        }
                    }
                    self.stage = Stage::BadNoisy;
                }
                Stage::Quiet => match self.select() {
                    Some(m) if m == self.tt_move || self.killers.contains(&m) => {}
                    Some(m) => return Some(m),
                    None => self.stage = Stage::BadNoisy,
                },
                Stage::BadNoisy => {
                    if self.next_bad < self.bad.len() {
                        self.next_bad += 1;
                        return Some(self.bad[self.next_bad - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::{legal_moves, perft};
    use crate::rules::Notation;
    use crate::search::history::History;
    use crate::types::{Piece, Square};
    use std::sync::LazyLock;

    static TABLE: LazyLock<TranspositionTable> = LazyLock::new(|| TranspositionTable::new(1));

    /// Perft through the picker: every legal move exactly once, whatever the TT move and
    /// killers (legal, illegal or absent).
    fn picker_perft(board: &mut Board, depth: u32, history: &History, hint: Move) -> u64 {
        if depth == 0 {
            return 1;
        }
        let killers = [hint, Move::from_bits(hint.bits() ^ 0x0041)];
        let mut picker = MovePicker::new(hint, killers, &TABLE);
        let mut seen = Vec::new();
        let mut nodes = 0;
        while let Some(m) = picker.next(board, history) {
            assert!(!seen.contains(&m), "{m} twice in {}", board.to_fen());
            seen.push(m);
            board.make_move(m);
            nodes += picker_perft(board, depth - 1, history, m);
            board.unmake_move();
        }
        assert_eq!(seen.len(), legal_moves(board).len(), "{}", board.to_fen());
        nodes
    }

    #[test]
    fn yields_exactly_the_legal_moves() {
        let history = History::default();
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let mut board = Board::from_fen(fen).unwrap();
            let expected = perft(&mut board, 3);
            assert_eq!(
                picker_perft(&mut board, 3, &history, Move::NONE),
                expected,
                "{fen}"
            );
        }
    }

    #[test]
    fn order_of_stages() {
        // e4xd5 wins the queen, Qxd5 trades queens (even), Qxa4 loses the queen for a pawn.
        let board = Board::from_fen("4k3/8/4p3/1p1q4/p3P3/8/8/3QK3 w - - 0 1").unwrap();
        let history = History::default();
        let tt = board.parse_move("e1e2").unwrap();
        let mut picker = MovePicker::new(tt, [Move::NONE; 2], &TABLE);
        let mut order = Vec::new();
        let (mut good, mut bad) = (Vec::new(), Vec::new());
        while let Some(m) = picker.next(&board, &history) {
            order.push(m.to_string());
            if picker.last_was_good_noisy() {
                good.push(m.to_string());
            }
            if picker.last_was_bad_noisy() {
                bad.push(m.to_string());
            }
        }
        assert_eq!(order[..3], ["e1e2", "e4d5", "d1d5"]);
        assert_eq!(order.last().map(String::as_str), Some("d1a4"));
        assert_eq!(good, ["e4d5", "d1d5"]);
        assert_eq!(bad, ["d1a4"]);
    }

    #[test]
    fn capture_history_orders_captures_of_near_equal_victims() {
        /// Capture history that likes one capture: a knight taking a knight on b5.
        struct Likes(i32);
        impl MoveScore for Likes {
            fn quiet(&self, _: Piece, _: Square) -> i32 {
                0
            }
            fn noisy(&self, piece: Piece, to: Square, victim: PieceType) -> i32 {
                let liked = (Piece::WhiteKnight, Square::new(1, 4), PieceType::Knight);
                if (piece, to, victim) == liked {
                    self.0
                } else {
                    0
                }
            }
        }
        // The knight on c3 can take a queen (a4), a bishop (d5) or a knight (b5).
        let board = Board::from_fen("4k3/8/8/1n1b4/q7/2N5/8/4K3 w - - 0 1").unwrap();
        let captures = |history: Likes| -> Vec<String> {
            let mut picker = MovePicker::new(Move::NONE, [Move::NONE; 2], &TABLE);
            std::iter::from_fn(|| picker.next(&board, &history))
                .filter(|m| m.is_noisy())
                .map(|m| m.to_string())
                .collect()
        };
        assert_eq!(captures(Likes(0)), ["c3a4", "c3d5", "c3b5"]);
        assert_eq!(captures(Likes(2_000)), ["c3a4", "c3b5", "c3d5"]);
        assert_eq!(captures(Likes(-2_000)), ["c3a4", "c3d5", "c3b5"]);
    }

    /// Quiescence generates its captures before it knows the table move: in check, the
    /// moves must come out exactly as when the table move is known first; out of check,
    /// `next_noisy_only` must give the noisy moves of the full order that quiescence
    /// searches: the table move if noisy, then the captures and queen promotions that do
    /// not lose material.
    #[test]
    fn quiescence_order() {
        let history = History::default();
        let picker = |board: &Board, tt_move: Move, early: bool| {
            let mut picker = MovePicker::quiescence(&TABLE);
            if early {
                picker.generate_noisy_now(board, &history);
            }
            picker.set_tt_move(tt_move);
            picker
        };
        for fen in [
            "4k3/8/4p3/1p1q4/p3P3/8/8/3QK3 w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let moves = legal_moves(&board);
            for &tt_move in moves.iter().chain(&[Move::NONE]) {
                let mut late = picker(&board, tt_move, false);
                let all: Vec<Move> = std::iter::from_fn(|| late.next(&board, &history)).collect();
                let mut early = picker(&board, tt_move, true);
                if board.in_check() {
                    assert!(!all.is_empty(), "{fen}");
                    let early: Vec<Move> =
                        std::iter::from_fn(|| early.next(&board, &history)).collect();
                    assert_eq!(early, all, "{fen} {tt_move}");
                    continue;
                }
                let good = |m: Move| {
                    m.is_noisy()
                        && m.promotion().is_none_or(|p| p == PieceType::Queen)
                        && board.see_ge(m, 0)
                };
                let expected: Vec<Move> = all
                    .iter()
                    .enumerate()
                    .filter(|&(i, &m)| m.is_noisy() && (i == 0 && m == tt_move || good(m)))
                    .map(|(_, &m)| m)
                    .collect();
                let noisy: Vec<Move> =
                    std::iter::from_fn(|| early.next_noisy_only(&board)).collect();
                assert_eq!(noisy, expected, "{fen} {tt_move}");
            }
        }
    }

    /// Told at any point that quiet moves are pruned, and switched to checks by the
    /// search as it prunes a quiet move, the picker still returns every noisy move and
    /// every quiet check exactly once, and after the switch no other quiet move but the
    /// one that the search pruned.
    #[test]
    fn pruned_quiets_leave_the_checks() {
        let history = History::default();
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "7k/8/8/4N3/3P4/2B5/8/R5K1 w - - 0 1",
            "3qk3/8/8/8/1B6/8/3R4/3K4 w - - 0 1",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let moves = legal_moves(&board);
            let quiets: Vec<Move> = moves.iter().copied().filter(|m| !m.is_noisy()).collect();
            // Killers that give check where there are such, which the switch must not lose.
            let mut checks = quiets.iter().copied().filter(|&m| board.gives_check(m));
            let killers = [(); 2].map(|_| checks.next().unwrap_or(quiets[1]));
            let tt_move = quiets[0];
            for switch_after in 0..moves.len() {
                let mut picker = MovePicker::new(tt_move, killers, &TABLE);
                let (mut seen, mut others_after_switch) = (Vec::new(), 0);
                loop {
                    let pruned = seen.len() >= switch_after;
                    let Some(m) = picker.next_pruned(&board, &history, pruned, &mut None) else {
                        break;
                    };
                    assert!(!seen.contains(&m), "{m} twice in {fen}");
                    seen.push(m);
                    let check = board.gives_check(m);
                    assert!(!picker.last_was_quiet_check() || check, "{m} in {fen}");
                    // What the search does with a quiet move that pruning rules out.
                    if pruned && !m.is_noisy() && m != tt_move && !check {
                        others_after_switch += 1;
                        picker.keep_only_quiet_checks(&board, board.check_info());
                    }
                }
                assert!(others_after_switch <= 1, "{fen}, switch {switch_after}");
                for m in moves
                    .iter()
                    .filter(|m| m.is_noisy() || board.gives_check(**m))
                {
                    assert!(seen.contains(m), "{m} in {fen}, switch {switch_after}");
                }
            }
        }
    }

    #[test]
    fn captures_worth_more_than_a_value() {
        // e4xd5 and Qxd5 take the queen, Qxa4 a pawn.
        let board = Board::from_fen("4k3/8/4p3/1p1q4/p3P3/8/8/3QK3 w - - 0 1").unwrap();
        let mut picker = MovePicker::quiescence(&TABLE);
        picker.generate_noisy_now(&board, &History::default());
        assert!(picker.any_noisy_above(&board, 100));
        assert!(picker.any_noisy_above(&board, 949));
        assert!(!picker.any_noisy_above(&board, 950));
        // A promotion is always worth searching.
        let board = Board::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let mut picker = MovePicker::quiescence(&TABLE);
        picker.generate_noisy_now(&board, &History::default());
        assert!(picker.any_noisy_above(&board, 10_000));
    }
}
