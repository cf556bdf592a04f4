//! `ferrum eco`: the games of a PGN file written out again with `ECO` and `Opening` tags
//! naming their openings (the moves, comments and variations as they were).

use super::pgn::{PgnGame, PgnReader, tag_line};
use crate::board::Board;
use crate::eco::{Opening, OpeningNames};
use crate::rules::Notation;
use std::io::{BufRead, Write};

/// What a run did, for the summary line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EcoSummary {
    pub games: usize,
    pub named: usize,
}

/// The game's last position that its moves reach; a move that cannot be played ends the
/// game there, with the reason.
fn last_position(game: &PgnGame) -> (Option<Board>, Option<String>) {
    let mut board = match game.start() {
        Ok(board) => board,
        Err(e) => return (None, Some(e)),
    };
    let replayed = game.replay(|_, _| {});
    let plies = replayed
        .as_ref()
        .map_or_else(|f| f.ply, |()| game.moves.len());
    for san in &game.moves[..plies] {
        // Legal: `replay` played these.
        if let Ok(m) = board.parse_san(san) {
            board.make_move(m);
        }
    }
    let fault = replayed.err().map(|f| {
        format!(
            "move {} is not legal ({}); named from the moves before it",
            f.text, f.reason
        )
    });
    (Some(board), fault)
}

/// The game's tags with `ECO` and `Opening` set to `opening`: replaced where they were,
/// otherwise after the seven-tag roster's last tag, `Result`, or at the end. Tags of the
/// same names in other cases (`Eco`) go: they were meant as these.
fn tags_with(game: &PgnGame, opening: &Opening) -> Vec<(String, String)> {
    let mut tags: Vec<(String, String)> = game
        .tags
        .iter()
        .filter(|(name, _)| {
            !name.eq_ignore_ascii_case("ECO") && !name.eq_ignore_ascii_case("Opening")
        })
        .cloned()
        .collect();
    let at = tags
        .iter()
        .position(|(name, _)| name == "Result")
        .map_or(tags.len(), |i| i + 1);
    tags.insert(at, ("ECO".into(), opening.eco.into()));
    tags.insert(at + 1, ("Opening".into(), opening.name.into()));
    tags
}

/// Reads the games of `pgn` and writes each to `out` with its opening named. A game without
/// a named position keeps its tags; games whose moves stop being legal are named from the
/// moves before and reported on `log` with their number.
pub fn name_games(
    pgn: impl BufRead,
    out: &mut impl Write,
    log: &mut impl Write,
) -> Result<EcoSummary, String> {
    let names = OpeningNames::get();
    let mut summary = EcoSummary::default();
    let write_error = |e: std::io::Error| format!("cannot write the games: {e}");
    for game in PgnReader::new(pgn) {
        let game = game?;
        summary.games += 1;
        let (board, fault) = last_position(&game);
        if let Some(fault) = fault {
            let _ = writeln!(log, "eco: game {}: {fault}", game.number);
        }
        let opening = board.as_ref().and_then(|b| names.of_game(b));
        let tags = match opening {
            Some(opening) => {
                summary.named += 1;
                tags_with(&game, opening)
            }
            None => game.tags.clone(),
        };
        for (name, value) in &tags {
            writeln!(out, "{}", tag_line(name, value)).map_err(write_error)?;
        }
        writeln!(out, "\n{}\n", game.movetext).map_err(write_error)?;
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(pgn: &str) -> (String, String, EcoSummary) {
        let (mut out, mut log) = (Vec::new(), Vec::new());
        let summary = name_games(pgn.as_bytes(), &mut out, &mut log).unwrap();
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(log).unwrap(),
            summary,
        )
    }

    #[test]
    fn tags_are_added_or_replaced_and_the_movetext_kept() {
        let pgn = "[Event \"one\"]\n[Result \"1-0\"]\n[Eco \"Z99\"]\n[WhiteElo \"2700\"]\n\n\
                   1. e4 c5 {Sicilian} 2. Nf3 (2. c3) d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 $1\n\
                   6. Be3 e5 1-0\n\n\
                   [Event \"two\"]\n\n1. a3 *\n\n\
                   [Event \"three\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n\
                   1. e4 Kd7 1/2-1/2\n";
        let (out, log, summary) = named(pgn);
        assert_eq!(summary, EcoSummary { games: 3, named: 2 });
        assert!(log.is_empty(), "{log}");
        assert_eq!(
            out,
            "[Event \"one\"]\n[Result \"1-0\"]\n[ECO \"B90\"]\n\
             [Opening \"Sicilian Defense: Najdorf Variation, English Attack\"]\n\
             [WhiteElo \"2700\"]\n\n\
             1. e4 c5 {Sicilian} 2. Nf3 (2. c3) d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 $1\n\
             6. Be3 e5 1-0\n\n\
             [Event \"two\"]\n[ECO \"A00\"]\n[Opening \"Anderssen's Opening\"]\n\n1. a3 *\n\n\
             [Event \"three\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n\
             1. e4 Kd7 1/2-1/2\n\n"
        );
    }

    #[test]
    fn an_illegal_move_is_reported_and_the_moves_before_it_named() {
        let (out, log, summary) = named("[Event \"x\"]\n\n1. d4 d5 2. c4 e6 3. Ke3 *\n");
        assert_eq!(summary.named, 1);
        assert!(out.contains("[ECO \"D30\"]"), "{out}");
        assert!(log.contains("game 1: move 3. Ke3 is not legal"), "{log}");
    }
}
