//! `ferrum eval FILE`: both evaluations of each position of a file of FEN or EPD lines,
//! one line each, for comparing the network with the hand-crafted evaluation.

use super::epd::Epd;
use crate::board::Board;
use crate::nnue::Network;
use std::io::Write;

/// Writes `<network> <hand-crafted> <line>` for each position of `text`, both in
/// centipawns from White's point of view, and `# line N: skipped: why` for lines that hold
/// no position. Returns the positions evaluated and the lines skipped.
pub fn evaluate_lines(text: &str, network: &Network, out: &mut impl Write) -> (usize, usize) {
    let (mut done, mut skipped) = (0, 0);
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let board = Board::from_fen(line)
            .or_else(|fen_error| Epd::parse(line).map(|e| e.board).map_err(|_| fen_error));
        match board {
            Ok(board) => {
                let sign = board.side_to_move().sign();
                let net = network.evaluate(&board) * sign;
                let hce = crate::eval::evaluate_once(&board) * sign;
                let _ = writeln!(out, "{net:+6} {hce:+6}  {line}");
                done += 1;
            }
            Err(e) => {
                let _ = writeln!(out, "# line {}: skipped: {e}", i + 1);
                skipped += 1;
            }
        }
    }
    (done, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_and_epd_lines_both_views() {
        let network = crate::nnue::embedded();
        let text = "# a comment\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
                    \n\
                    4k3/8/8/8/8/8/8/3QK3 b - - bm Kd7; id \"up a queen\";\n\
                    not a position\n";
        let mut out = Vec::new();
        assert_eq!(evaluate_lines(text, &network, &mut out), (2, 1));
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3);
        let scores = |line: &str| -> (i32, i32) {
            let mut words = line.split_whitespace().map(|w| w.parse().unwrap());
            (words.next().unwrap(), words.next().unwrap())
        };
        let start = Board::startpos();
        assert_eq!(
            scores(lines[0]),
            (network.evaluate(&start), crate::eval::evaluate_once(&start))
        );
        // Black to move, White a queen up: good for White in both.
        let (net, hce) = scores(lines[1]);
        assert!(net > 200 && hce > 500, "{}", lines[1]);
        assert!(lines[1].ends_with("id \"up a queen\";"));
        assert!(lines[2].starts_with("# line 5: skipped:"), "{}", lines[2]);
    }
}
