//! The protocols. A `Comm` (UCI or XBoard) turns input lines into protocol-neutral
//! `CommIn` commands and the engine's `CommOut` messages back into text; `io` runs the
//! reader and writer threads between them and the engine, which never reads or writes
//! protocol text itself. The front ends for people are in `ui`.

pub mod io;
pub mod log;
pub mod uci;
pub mod xboard;

use crate::search::SearchInfo;

/// Raw `go` parameters as the GUI sent them; the engine turns them into search limits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
    /// `go perft N` (de facto): count the move tree instead of searching.
    pub perft: Option<u32>,
}

/// What a front end asks of the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommIn {
    /// Name the engine and its options (UCI `uci`).
    Identify,
    IsReady,
    Debug(bool),
    SetOption {
        name: String,
        value: Option<String>,
    },
    NewGame,
    /// `None` for the start position; moves in coordinate notation.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    /// Input the protocol accepts and deliberately does nothing with (UCI `register`).
    Ignore,
    /// Input that could not be understood; the text says why.
    Invalid(String),
    /// A command the protocol does not have (the word as sent).
    Unknown(String),

    // Game-manager commands (XBoard): the GUI passes moves one at a time and tells the
    // engine which side it plays.
    /// Announce capabilities (`protover`).
    Features,
    /// Play neither side; just apply moves.
    Force,
    /// Play the side to move, starting now.
    PlaySideToMove,
    /// Play the side not to move.
    PlayOther,
    /// A move by the opponent (or any move in force mode), in coordinate notation.
    UserMove(String),
    /// Time left in centiseconds: ours (`time`) or the opponent's (`otim`).
    OwnTime(i64),
    OpponentTime(i64),
    /// Moves per session (0: all), base time and increment.
    TimeControl {
        moves: u32,
        base_ms: u64,
        inc_ms: u64,
    },
    /// A fixed time per move (`st`).
    FixedMoveTime(u64),
    /// A depth cap on top of the time control (`sd`).
    DepthLimit(i32),
    /// Count time in nodes, this many to a second (`nps`; 0 returns to the clock).
    NodeRate(u64),
    /// Move now, with the best move so far (`?`).
    MoveNow,
    Ping(String),
    /// Set up a position (`setboard`).
    SetBoard(String),
    /// Take back this many plies (`undo` 1, `remove` 2).
    Undo(usize),
    /// Thinking output on or off (`post`, `nopost`).
    Post(bool),
    /// Pondering allowed or not (`hard`, `easy`).
    Pondering(bool),
    Analyze,
    ExitAnalyze,
    /// Leave a root move out of the analysis, or take it back in (`exclude`, `include`);
    /// `None` for all moves.
    RootFilter {
        mv: Option<String>,
        include: bool,
    },
    Hint,
    /// The book's moves in the current position (XBoard `bk`).
    ShowBook,
    /// The game ended (`result`).
    GameOver,
    /// The opponent offers a draw (`draw`).
    DrawOffer,
    /// The players' ratings, ours first (`rating`).
    Ratings {
        ours: i32,
        theirs: i32,
    },
    /// Memory for the table in MiB, and search threads (`memory`, `cores`).
    Memory(usize),
    Cores(usize),
    Variant(String),
    /// The old `edit` mini-language, collected up to its closing `.`.
    Edit(Vec<EditOp>),
}

/// One step of XBoard's `edit` mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditOp {
    /// `#`: empty the board.
    Clear,
    /// `c`: the following pieces are of the other colour (White first).
    SwitchColor,
    /// `Pa4`: put a piece (kind letter) on a square; `xa4`: empty the square.
    Put(char, String),
}

/// One search line with its moves already in text.
pub type InfoLine = SearchInfo<String>;

/// How an engine option is declared to the GUI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Button,
    /// A file's name (UCI `string`); an empty one, none, is shown as `<empty>`.
    File {
        default: &'static str,
    },
    /// Directories, separated by ':' (';' on Windows), empty by default.
    Directories,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
}

/// What the engine tells the front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommOut {
    Identity {
        name: String,
        author: String,
        options: Vec<OptionSpec>,
    },
    ReadyOk,
    Info(InfoLine),
    CurrentMove {
        depth: i32,
        mv: String,
        number: usize,
    },
    /// `None` when there is no legal move.
    BestMove {
        best: Option<String>,
        ponder: Option<String>,
    },
    Perft {
        rows: Vec<(String, u64)>,
        total: u64,
    },
    /// Free text for the user (UCI `info string`).
    Message(String),
    /// Something the user must know, such as a setting that could not take effect
    /// (UCI `info string`, XBoard `telluser`).
    Notice(String),
    /// A rejected command, with the reason.
    Error(String),
    /// A command the protocol does not have.
    Unknown(String),
    /// The capabilities and options, answering `Features`.
    Features {
        name: String,
        options: Vec<OptionSpec>,
    },
    /// Our move, in game-manager mode.
    Move(String),
    Pong(String),
    IllegalMove {
        mv: String,
        reason: String,
    },
    /// A claim of the game's result by rule, e.g. `1-0` and `White mates`.
    Result {
        result: &'static str,
        reason: String,
    },
    Resign,
    /// Offer a draw, or accept the one offered (XBoard `offer draw`).
    OfferDraw,
    Hint(String),
    /// A move played from the opening book, with its weight.
    BookMove {
        mv: String,
        weight: u16,
    },
    /// The book's moves in a position with their weights, heaviest first (XBoard `bk`).
    BookMoves(Vec<(String, u16)>),
}

/// A protocol: parsing and formatting, nothing else.
pub trait Comm: Send + Sync {
    fn parse(&self, line: &str) -> CommIn;
    /// The lines that express `out`, without line ends; empty for messages the protocol
    /// does not show.
    fn format(&self, out: &CommOut) -> Vec<String>;
    /// Whether the GUI passes single moves and lets the engine decide when to play (XBoard),
    /// rather than asking for each search (UCI).
    fn game_manager(&self) -> bool {
        false
    }
}

/// Moves of a line in coordinate notation, each in the position it is played from.
pub fn pv_text(board: &crate::board::Board, pv: &[crate::types::Move]) -> Vec<String> {
    let mut board = board.clone();
    pv.iter()
        .map(|&m| {
            let text = board.move_to_uci(m);
            board.make_move(m);
            text
        })
        .collect()
}

/// A path option's value as both protocols show it: `<empty>` for none.
fn shown_path(path: &str) -> &str {
    if path.is_empty() { "<empty>" } else { path }
}
