//! Reading PGN: games as tag pairs and the moves of their main line, from a stream of any
//! size. Comments, NAGs, variations, move numbers and escape lines are skipped.

use crate::board::{Board, START_FEN};
use crate::rules::Notation;
use crate::types::Move;
use std::io::BufRead;

/// The result a game's movetext ends with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl GameResult {
    fn from_token(token: &str) -> Option<GameResult> {
        match token {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unknown),
            _ => None,
        }
    }
}

/// One game as written: its tags and the SAN of its main line.
#[derive(Clone, Debug, Default)]
pub struct PgnGame {
    /// Games are numbered from 1 in the order of the file.
    pub number: usize,
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    /// The movetext as written (comments, variations and all), its lines joined by `\n`,
    /// for tools that write the game out again.
    pub movetext: String,
    /// From the movetext's last token, or else from the `Result` tag.
    pub result: Option<GameResult>,
}

/// A move of a game that could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveFault {
    /// Ply of the move, from 0 at the game's first position.
    pub ply: usize,
    /// The move as numbered text, such as `14. Nxe5` or `14... Qd7`.
    pub text: String,
    pub reason: String,
}

impl PgnGame {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn result(&self) -> GameResult {
        self.result
            .or_else(|| self.tag("Result").and_then(GameResult::from_token))
            .unwrap_or(GameResult::Unknown)
    }

    /// The game's first position: the `FEN` tag's, or the standard start position.
    pub fn start(&self) -> Result<Board, String> {
        let fen = self.tag("FEN").unwrap_or(START_FEN);
        let mut board = Board::from_fen(fen).map_err(|e| format!("bad FEN tag: {e}"))?;
        if self
            .tag("Variant")
            .is_some_and(|v| v.to_ascii_lowercase().contains("960"))
        {
            board.set_chess960(true);
        }
        Ok(board)
    }

    /// Plays the moves from the first position, calling `visit` with the position before
    /// each move and the move. Stops at the first move that is not legal.
    pub fn replay(&self, mut visit: impl FnMut(&Board, Move)) -> Result<(), MoveFault> {
        let mut board = self.start().map_err(|reason| MoveFault {
            ply: 0,
            text: String::new(),
            reason,
        })?;
        for (ply, san) in self.moves.iter().enumerate() {
            let m = board.parse_san(san).map_err(|e| MoveFault {
                ply,
                text: numbered(&board, san),
                reason: e.to_string(),
            })?;
            visit(&board, m);
            board.make_move(m);
        }
        Ok(())
    }
}

/// A move with its number as PGN writes it: `14. Nxe5`, `14... Qd7`.
pub fn numbered(board: &Board, san: &str) -> String {
    let dots = if board.side_to_move() == crate::types::Color::White {
        "."
    } else {
        "..."
    };
    format!("{}{dots} {san}", board.fullmove_number())
}

/// Games one after the other from a PGN stream. An I/O error ends the stream with an
/// error item.
pub struct PgnReader<R> {
    input: R,
    line: String,
    /// A tag line that began the next game while the last one was being read.
    pending_tag: Option<String>,
    games: usize,
    /// Nesting of `(` variations, and whether a `{` comment is open, across lines.
    depth: usize,
    in_comment: bool,
    done: bool,
}

impl<R: BufRead> PgnReader<R> {
    pub fn new(input: R) -> PgnReader<R> {
        PgnReader {
            input,
            line: String::new(),
            pending_tag: None,
            games: 0,
            depth: 0,
            in_comment: false,
            done: false,
        }
    }

    fn next_line(&mut self) -> Option<Result<String, String>> {
        if let Some(tag) = self.pending_tag.take() {
            return Some(Ok(tag));
        }
        self.line.clear();
        match self.input.read_line(&mut self.line) {
            Ok(0) => None,
            Ok(_) => Some(Ok(self.line.trim_end().to_string())),
            Err(e) => Some(Err(format!("cannot read the PGN: {e}"))),
        }
    }

    /// Takes the movetext tokens of one line into `game`; true when the result ended it.
    fn movetext(&mut self, text: &str, game: &mut PgnGame) -> bool {
        let mut rest = text;
        while !rest.is_empty() {
            if self.in_comment {
                match rest.find('}') {
                    Some(end) => {
                        self.in_comment = false;
                        rest = &rest[end + 1..];
                        continue;
                    }
                    None => return false,
                }
            }
            rest = rest.trim_start();
            let Some(c) = rest.chars().next() else { break };
            match c {
                '{' => {
                    self.in_comment = true;
                    rest = &rest[1..];
                }
                ';' => break,
                '(' => {
                    self.depth += 1;
                    rest = &rest[1..];
                }
                ')' => {
                    self.depth = self.depth.saturating_sub(1);
                    rest = &rest[1..];
                }
                // A brace that closes no comment: nothing to take.
                '}' => rest = &rest[1..],
                _ => {
                    let token;
                    (token, rest) = split_token(rest);
                    if self.depth > 0 || token.starts_with('$') {
                        continue;
                    }
                    if let Some(result) = GameResult::from_token(token) {
                        game.result = Some(result);
                        return true;
                    }
                    // A move number, possibly glued to the move: `12.`, `12...`, `12.e4`.
                    let san = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                    if !san.is_empty() {
                        game.moves.push(san.to_string());
                    }
                }
            }
        }
        false
    }
}

/// The movetext token at the start of `text` (a move, move number, NAG or result: up to
/// a space, brace, bracket or `;`) and the text after it. A text that starts with one of
/// those gives it as the token, so that a caller's loop always moves on.
pub fn split_token(text: &str) -> (&str, &str) {
    let end = text
        .find(|c: char| c.is_whitespace() || "{}();".contains(c))
        .unwrap_or(text.len());
    let end = if end == 0 {
        text.chars().next().map_or(0, char::len_utf8)
    } else {
        end
    };
    text.split_at(end)
}

/// A tag pair as PGN writes it, `[Name "value"]`, escaping `"` and `\` in the value.
pub fn tag_line(name: &str, value: &str) -> String {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{value}\"]")
}

/// Movetext tokens (numbers, moves, comments, variations, the result) joined by spaces into
/// lines of at most 79 characters where the tokens allow, as the PGN standard asks, with a
/// newline after the last.
pub fn wrap_movetext(tokens: impl IntoIterator<Item = String>) -> String {
    let (mut text, mut line) = (String::new(), String::new());
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    text.push_str(&line);
    text.push('\n');
    text
}

/// `[Name "value"]`, with `\"` and `\\` escapes in the value.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.trim_end().strip_suffix(']')?;
    let (name, value) = inner.split_once(char::is_whitespace)?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((
        name.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<PgnGame, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut game = PgnGame::default();
        let mut started = false;
        let mut in_moves = false;
        self.depth = 0;
        self.in_comment = false;
        loop {
            let line = match self.next_line() {
                None => break,
                Some(Err(e)) => {
                    self.done = true;
                    return Some(Err(e));
                }
                Some(Ok(line)) => line,
            };
            if line.starts_with('%') {
                continue;
            }
            let trimmed = line.trim();
            if !self.in_comment && self.depth == 0 && trimmed.starts_with('[') {
                if in_moves {
                    // A new game began without a result on the last one.
                    self.pending_tag = Some(line);
                    break;
                }
                if let Some(tag) = parse_tag(trimmed) {
                    game.tags.push(tag);
                    started = true;
                }
                continue;
            }
            if trimmed.is_empty() && !self.in_comment {
                continue;
            }
            started = true;
            in_moves = true;
            if !game.movetext.is_empty() {
                game.movetext.push('\n');
            }
            game.movetext.push_str(trimmed);
            if self.movetext(trimmed, &mut game) {
                break;
            }
        }
        if !started {
            self.done = true;
            return None;
        }
        self.games += 1;
        game.number = self.games;
        Some(Ok(game))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(text: &str) -> Vec<PgnGame> {
        PgnReader::new(text.as_bytes())
            .map(|g| g.unwrap())
            .collect()
    }

    /// A `}` that closes no comment is passed over (it once stopped the reader in a loop).
    #[test]
    fn a_stray_closing_brace() {
        let games = games("[Event \"x\"]\n\n1. e4 } e5 2. Nf3 4.} bxa6) a6 *\n");
        assert_eq!(games[0].moves, ["e4", "e5", "Nf3", "bxa6", "a6"]);
        assert_eq!(split_token("}e4"), ("}", "e4"));
    }

    #[test]
    fn main_line_without_comments_variations_and_nags() {
        let text = r#"[Event "Test \"one\""]
[Result "1-0"]

1. e4 {best by test; or so} e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 $1 Nc6
; a line comment 3. Bb5
3.Bb5 a6 4... Nf6?! {a comment
over two lines (with a bracket)} 1-0
% escaped line
[Event "two"]

1. d4 d5 *

[Event "three, no result"]
1. c4
[Event "four"]
1. g3 1/2-1/2
"#;
        let games = games(text);
        assert_eq!(games.len(), 4);
        assert_eq!(games[0].tag("Event"), Some("Test \"one\""));
        assert_eq!(
            games[0].moves,
            ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Nf6?!"]
        );
        assert_eq!(games[0].result(), GameResult::WhiteWins);
        assert!(
            games[0]
                .movetext
                .starts_with("1. e4 {best by test; or so} e5 (1... c5")
        );
        assert!(
            games[0]
                .movetext
                .ends_with("over two lines (with a bracket)} 1-0")
        );
        assert_eq!(games[0].movetext.lines().count(), 4);
        assert_eq!(games[1].moves, ["d4", "d5"]);
        assert_eq!(games[1].result(), GameResult::Unknown);
        assert_eq!((games[2].number, games[2].moves.len()), (3, 1));
        assert_eq!(games[3].result(), GameResult::Draw);
        assert_eq!(games[3].moves, ["g3"]);
    }

    #[test]
    fn replay_reports_the_bad_move() {
        let game = &games("1. e4 e5 2. Nf3 Nc6 3. Bb5 Ke7 4. Nxe5 Qe8 5. Qh5 Nf3 *")[0];
        let mut seen = Vec::new();
        let fault = game
            .replay(|board, m| seen.push(board.move_to_uci(m)))
            .unwrap_err();
        assert_eq!(seen.len(), 9);
        assert_eq!(fault.ply, 9);
        assert_eq!(fault.text, "5... Nf3");
        assert!(fault.reason.contains("not a legal move"));
    }

    #[test]
    fn games_from_a_set_up_position() {
        let text = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 1-0\n";
        let mut seen = Vec::new();
        games(text)[0]
            .replay(|board, m| seen.push(board.move_to_uci(m)))
            .unwrap();
        assert_eq!(seen, ["e2e4", "e8d7"]);
    }
}
