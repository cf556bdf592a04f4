//! Syzygy endgame tablebases: the value of every position with few enough pieces under
//! perfect play (WDL), and the distance to the next capture or pawn move that keeps it
//! (DTZ). The files are read by the `pyrrhic-rs` crate (MIT, a Rust port of the Pyrrhic
//! prober that engines such as Ethereal use), which asks for the engine's own attack
//! tables; this module turns Ferrum's board into its bitboards and its answers into
//! Ferrum's types.

use crate::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use crate::board::Board;
use crate::rules::Notation;
use crate::types::{Bitboard, Color, Move, PieceType, Square};
use pyrrhic_rs::{DtzProbeValue, EngineAdapter, TableBases, WdlProbeResult};

/// Ferrum's attack tables, for the prober's own move generation.
#[derive(Clone, Copy)]
struct Attacks;

fn square(index: u64) -> Square {
    Square::from_index_unchecked(index as u32)
}

impl EngineAdapter for Attacks {
    fn pawn_attacks(color: pyrrhic_rs::Color, sq: u64) -> u64 {
        let color = match color {
            pyrrhic_rs::Color::White => Color::White,
            pyrrhic_rs::Color::Black => Color::Black,
        };
        pawn_attacks(color, square(sq)).0
    }
    fn knight_attacks(sq: u64) -> u64 {
        knight_attacks(square(sq)).0
    }
    fn bishop_attacks(sq: u64, occupied: u64) -> u64 {
        bishop_attacks(square(sq), Bitboard(occupied)).0
    }
    fn rook_attacks(sq: u64, occupied: u64) -> u64 {
        rook_attacks(square(sq), Bitboard(occupied)).0
    }
    fn queen_attacks(sq: u64, occupied: u64) -> u64 {
        queen_attacks(square(sq), Bitboard(occupied)).0
    }
    fn king_attacks(sq: u64) -> u64 {
        king_attacks(square(sq)).0
    }
}

/// A position's value under perfect play, for the side to move. A cursed win is a win
/// that the fifty-move rule turns into a draw; a blessed loss, the loss it saves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    Loss,
    BlessedLoss,
    Draw,
    CursedWin,
    Win,
}

impl Wdl {
    fn from_probe(result: WdlProbeResult) -> Wdl {
        match result {
            WdlProbeResult::Loss => Wdl::Loss,
            WdlProbeResult::BlessedLoss => Wdl::BlessedLoss,
            WdlProbeResult::Draw => Wdl::Draw,
            WdlProbeResult::CursedWin => Wdl::CursedWin,
            WdlProbeResult::Win => Wdl::Win,
        }
    }

    /// -2 to 2, as python-chess and Syzygy's own tools write it.
    pub fn value(self) -> i32 {
        self as i32 - 2
    }
}

/// A root position's probe: its value, its distance to zeroing, and each legal move's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootProbe {
    pub wdl: Wdl,
    /// Plies to the next capture or pawn move with best play, signed like python-chess's
    /// `probe_dtz`: positive when winning, negative when losing, 0 for a draw.
    pub dtz: i32,
    /// Each legal move, with the value and signed DTZ of the position it leads to, for
    /// the side that made it.
    pub moves: Vec<(Move, Wdl, i32)>,
}

/// `wdl W dtz D moves MOVE:W:D ...`, the values as python-chess gives them.
impl std::fmt::Display for RootProbe {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "wdl {} dtz {} moves", self.wdl.value(), self.dtz)?;
        for (m, wdl, dtz) in &self.moves {
            write!(f, " {m}:{}:{dtz}", wdl.value())?;
        }
        Ok(())
    }
}

/// Tables opened from a path (directories separated by `:`, or `;` on Windows).
pub struct Tablebases {
    tables: TableBases<Attacks>,
    /// Files left out as incomplete or damaged, with the reason.
    problems: Vec<String>,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Tablebases(up to {} pieces)", self.max_pieces())
    }
}

/// `dtz` plies signed by who wins.
fn signed(wdl: Wdl, dtz: u16) -> i32 {
    i32::from(dtz) * wdl.value().signum()
}

impl Tablebases {
    /// Opens the tables under `path`. Only one set can be open at a time (the prober keeps
    /// its tables in global state): drop the last before opening another.
    pub fn open(path: &str) -> Result<Tablebases, String> {
        if path.contains('\0') {
            return Err("a Syzygy path cannot hold a NUL character".into());
        }
        // The prober separates directories by ':' alone.
        let path = if cfg!(windows) {
            path.replace(';', ":")
        } else {
            path.to_string()
        };
        TableBases::new(&path)
            .map(|tables| Tablebases {
                problems: tables.problems(),
                tables,
            })
            .map_err(|e| match e {
                pyrrhic_rs::TBError::BadPath => format!("no Syzygy tables found in '{path}'"),
                other => format!("Syzygy tables in '{path}' could not be opened: {other:?}"),
            })
    }

    /// Files under the path that were left out (incomplete, cut short, not a table): each
    /// as `NAME.rtbw: reason`. Opening reads every table's layout, so none is found later.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// One line for the user about the files left out, if any.
    pub fn problem_report(&self) -> Option<String> {
        (!self.problems.is_empty()).then(|| {
            format!(
                "Syzygy: {} damaged, incomplete or unreadable file(s) left out: {}",
                self.problems.len(),
                self.problems.join(", ")
            )
        })
    }

    /// The most pieces, kings included, that the open tables cover.
    pub fn max_pieces(&self) -> u32 {
        self.tables.max_pieces()
    }

    /// Whether `board` can be probed: few enough pieces, and no castling rights (which
    /// the tables do not know).
    pub fn covers(&self, board: &Board) -> bool {
        board.occupied().count() <= self.max_pieces() && board.castling().is_empty()
    }

    /// The value of `board` for the side to move, if the tables hold it.
    pub fn probe_wdl(&self, board: &Board) -> Option<Wdl> {
        if !self.covers(board) {
            return None;
        }
        let [white, black, kings, queens, rooks, bishops, knights, pawns] = bitboards(board);
        self.tables
            .probe_wdl(
                white,
                black,
                kings,
                queens,
                rooks,
                bishops,
                knights,
                pawns,
                en_passant(board),
                board.side_to_move() == Color::White,
            )
            .ok()
            .map(Wdl::from_probe)
    }

    /// The value and distance to zeroing of `board` and of each legal move, if the tables
    /// hold it. Needs this handle to be the only one (the prober's root probe is not
    /// thread-safe), so not while a search holds a copy.
    pub fn probe_root(&self, board: &Board) -> Option<RootProbe> {
        if !self.covers(board) {
            return None;
        }
        let [white, black, kings, queens, rooks, bishops, knights, pawns] = bitboards(board);
        let probe = self
            .tables
            .probe_root(
                white,
                black,
                kings,
                queens,
                rooks,
                bishops,
                knights,
                pawns,
                u32::from(board.halfmove_clock()),
                en_passant(board),
                board.side_to_move() == Color::White,
            )
            .ok()?;
        let (wdl, dtz) = match probe.root {
            DtzProbeValue::DtzResult(r) => {
                let wdl = Wdl::from_probe(r.wdl);
                (wdl, signed(wdl, r.dtz))
            }
            // As python-chess has it: mated, one ply past the mating move.
            DtzProbeValue::Checkmate => (Wdl::Loss, -1),
            DtzProbeValue::Stalemate => (Wdl::Draw, 0),
            DtzProbeValue::Failed => return None,
        };
        let mut moves = Vec::with_capacity(probe.num_moves);
        for value in &probe.moves[..probe.num_moves] {
            let DtzProbeValue::DtzResult(r) = value else {
                return None;
            };
            let from = Square::from_index_unchecked(u32::from(r.from_square));
            let to = Square::from_index_unchecked(u32::from(r.to_square));
            let promotion = match r.promotion {
                pyrrhic_rs::Piece::Queen => "q",
                pyrrhic_rs::Piece::Rook => "r",
                pyrrhic_rs::Piece::Bishop => "b",
                pyrrhic_rs::Piece::Knight => "n",
                _ => "",
            };
            let m = board.parse_move(&format!("{from}{to}{promotion}")).ok()?;
            let wdl = Wdl::from_probe(r.wdl);
            moves.push((m, wdl, signed(wdl, r.dtz)));
        }
        Some(RootProbe { wdl, dtz, moves })
    }
}

/// The board as the prober takes it: by colour, then by kind from king to pawn.
fn bitboards(board: &Board) -> [u64; 8] {
    let kind = |k| board.kind(k).0;
    [
        board.color(Color::White).0,
        board.color(Color::Black).0,
        kind(PieceType::King),
        kind(PieceType::Queen),
        kind(PieceType::Rook),
        kind(PieceType::Bishop),
        kind(PieceType::Knight),
        kind(PieceType::Pawn),
    ]
}

/// The en passant target square, 0 for none (a1 can never be one).
fn en_passant(board: &Board) -> u32 {
    board.en_passant().map_or(0, |sq| sq.index() as u32)
}
