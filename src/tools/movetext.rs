//! A game's movetext walked with its variations and annotations: each move in the
//! position it is played from, whether it is on the main line, its NAGs (`$1` or a `!`, `?`
//! suffix) and the `{weight: N}` its comment may give, as makebook reads them.

use super::pgn::{MoveFault, PgnGame, numbered, split_token};
use crate::board::Board;
use crate::rules::Notation;
use crate::types::Move;

/// PGN's numeric annotation glyphs for move quality.
pub mod nag {
    pub const GOOD: u8 = 1;
    pub const MISTAKE: u8 = 2;
    pub const BRILLIANT: u8 = 3;
    pub const BLUNDER: u8 = 4;
    pub const INTERESTING: u8 = 5;
    pub const DUBIOUS: u8 = 6;
}

/// What the movetext says about a move beyond the move itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotation {
    pub nags: Vec<u8>,
    /// From a `{weight: N}` comment: N from 0 to 100, or why the text is not one.
    pub weight: Option<Result<u8, String>>,
}

/// One move as the walk meets it.
pub struct Visit<'a> {
    /// The position the move is played from.
    pub board: &'a Board,
    pub mv: Move,
    /// Numbered as PGN writes it: `14. Nxe5`, `14... Qd7`.
    pub text: String,
    /// On the main line, not in a variation.
    pub main: bool,
    pub annotation: Annotation,
}

/// A move whose annotations may still follow it.
struct Pending {
    mv: Move,
    text: String,
    annotation: Annotation,
}

/// One line being read: its position after its last move, and that move.
struct Line {
    board: Board,
    pending: Option<Pending>,
}

impl Line {
    /// Hands the line's last move to `visit`, with the position before it.
    fn flush(&mut self, main: bool, visit: &mut impl FnMut(Visit)) {
        if let Some(p) = self.pending.take() {
            self.board.unmake_move();
            visit(Visit {
                board: &self.board,
                mv: p.mv,
                text: p.text,
                main,
                annotation: p.annotation,
            });
            self.board.make_move(p.mv);
        }
    }
}

/// NAGs that a move's suffix stands for (`Nf3!?`), and the move without it.
fn split_suffix(token: &str) -> (&str, Option<u8>) {
    let san = token.trim_end_matches(['!', '?']);
    let nag = match &token[san.len()..] {
        "!" => Some(nag::GOOD),
        "?" => Some(nag::MISTAKE),
        "!!" => Some(nag::BRILLIANT),
        "??" => Some(nag::BLUNDER),
        "!?" => Some(nag::INTERESTING),
        "?!" => Some(nag::DUBIOUS),
        _ => None,
    };
    (san, nag)
}

/// The `weight: N` of a comment, if it has one.
fn weight_in(comment: &str) -> Option<Result<u8, String>> {
    let at = comment.to_ascii_lowercase().find("weight:")?;
    let value = comment[at + "weight:".len()..]
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .find(|w| !w.is_empty())
        .unwrap_or("");
    Some(match value.parse::<u32>() {
        Ok(n) if n <= 100 => Ok(n as u8),
        Ok(n) => Err(format!("weight {n} is not from 0 to 100")),
        Err(_) => Err(format!("weight '{value}' is not a number from 0 to 100")),
    })
}

/// Walks every move of `game`, variations included, calling `visit` once a move's
/// annotations are known. A move that cannot be played ends the walk with its numbered
/// text and the reason.
pub fn walk(game: &PgnGame, mut visit: impl FnMut(Visit)) -> Result<(), MoveFault> {
    let start = game.start().map_err(|reason| MoveFault {
        ply: 0,
        text: String::new(),
        reason,
    })?;
    let mut lines = vec![Line {
        board: start,
        pending: None,
    }];
    let mut rest = game.movetext.as_str();
    while let Some(c) = rest.chars().next() {
        let depth = lines.len() - 1;
        match c {
            c if c.is_whitespace() => rest = &rest[c.len_utf8()..],
            '{' => {
                let end = rest.find('}').unwrap_or(rest.len());
                if let Some(weight) = weight_in(&rest[1..end])
                    && let Some(p) = &mut lines[depth].pending
                {
                    p.annotation.weight = Some(weight);
                }
                rest = &rest[(end + 1).min(rest.len())..];
            }
            ';' => rest = rest.find('\n').map_or("", |end| &rest[end..]),
            '(' => {
                // A variation replaces the line's last move: it starts before it.
                let line = &mut lines[depth];
                line.flush(depth == 0, &mut visit);
                let mut board = line.board.clone();
                if board.plies_played() > 0 {
                    board.unmake_move();
                }
                lines.push(Line {
                    board,
                    pending: None,
                });
                rest = &rest[1..];
            }
            ')' => {
                if depth > 0 {
                    lines[depth].flush(false, &mut visit);
                    lines.pop();
                }
                rest = &rest[1..];
            }
            // A brace that closes no comment: nothing to take.
            '}' => rest = &rest[1..],
            _ => {
                let token;
                (token, rest) = split_token(rest);
                let line = &mut lines[depth];
                if let Some(number) = token.strip_prefix('$') {
                    if let (Ok(n), Some(p)) = (number.parse::<u8>(), &mut line.pending) {
                        p.annotation.nags.push(n);
                    }
                    continue;
                }
                if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
                    continue;
                }
                let token = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                if token.is_empty() {
                    continue;
                }
                let (san, suffix) = split_suffix(token);
                if san.is_empty() {
                    // A suffix on its own after the move: `e4 !`.
                    if let (Some(nag), Some(p)) = (suffix, &mut line.pending) {
                        p.annotation.nags.push(nag);
                    }
                    continue;
                }
                line.flush(depth == 0, &mut visit);
                let text = numbered(&line.board, token);
                let mv = line.board.parse_san(san).map_err(|e| MoveFault {
                    ply: line.board.plies_played(),
                    text: text.clone(),
                    reason: e.to_string(),
                })?;
                line.board.make_move(mv);
                line.pending = Some(Pending {
                    mv,
                    text,
                    annotation: Annotation {
                        nags: suffix.into_iter().collect(),
                        weight: None,
                    },
                });
            }
        }
    }
    for depth in (0..lines.len()).rev() {
        lines[depth].flush(depth == 0, &mut visit);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::pgn::PgnReader;

    fn walked(pgn: &str) -> Result<Vec<(String, bool, Annotation)>, MoveFault> {
        let game = PgnReader::new(pgn.as_bytes()).next().unwrap().unwrap();
        let mut seen = Vec::new();
        walk(&game, |v| {
            assert_eq!(
                v.board.move_to_san(v.mv),
                split_suffix(v.text.rsplit(' ').next().unwrap()).0
            );
            seen.push((v.text, v.main, v.annotation));
        })?;
        Ok(seen)
    }

    #[test]
    fn variations_nags_and_weights() {
        let seen = walked(
            "1. e4 {weight: 80} e5 (1... c5! {weight: 30} 2. Nf3 (2. c3 $2) d6) \
             (1... e6 $6) 2. Nf3!? Nc6 {a comment, weight: 250} 3. Bb5 {weight: x} \
             ; weight: 5 in a line comment\n a6 $1 $14 *",
        )
        .unwrap();
        let texts: Vec<(&str, bool)> = seen.iter().map(|(t, m, _)| (t.as_str(), *m)).collect();
        assert_eq!(
            texts,
            [
                ("1. e4", true),
                ("1... e5", true),
                ("1... c5!", false),
                ("2. Nf3", false),
                ("2. c3", false),
                ("2... d6", false),
                ("1... e6", false),
                ("2. Nf3!?", true),
                ("2... Nc6", true),
                ("3. Bb5", true),
                ("3... a6", true),
            ]
        );
        let annotation = |i: usize| &seen[i].2;
        assert_eq!(annotation(0).weight, Some(Ok(80)));
        assert_eq!(annotation(1), &Annotation::default());
        assert_eq!(annotation(2).nags, [nag::GOOD]);
        assert_eq!(annotation(2).weight, Some(Ok(30)));
        assert_eq!(annotation(4).nags, [nag::MISTAKE]);
        assert_eq!(annotation(6).nags, [nag::DUBIOUS]);
        assert_eq!(annotation(7).nags, [nag::INTERESTING]);
        assert!(
            annotation(8)
                .weight
                .clone()
                .unwrap()
                .unwrap_err()
                .contains("250")
        );
        assert!(
            annotation(9)
                .weight
                .clone()
                .unwrap()
                .unwrap_err()
                .contains("'x'")
        );
        assert_eq!(annotation(10).nags, [nag::GOOD, 14]);
    }

    #[test]
    fn an_illegal_move_in_a_variation_is_named() {
        let fault = walked("1. e4 e5 (1... d5 2. Ke3) *").unwrap_err();
        assert_eq!((fault.ply, fault.text.as_str()), (2, "2. Ke3"));
    }
}
