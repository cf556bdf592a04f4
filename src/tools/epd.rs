//! EPD records: the four position fields of a FEN followed by operations such as
//! `bm Qg6; id "WAC.001";`.

use crate::board::Board;

/// One EPD line: the position and its operations in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Epd {
    pub board: Board,
    /// (opcode, operands), quotes removed from string operands.
    pub ops: Vec<(String, Vec<String>)>,
}

impl Epd {
    /// Parses a line; the error names the problem. `hmvc` and `fmvn` operations set the
    /// move counters.
    pub fn parse(line: &str) -> Result<Epd, String> {
        let line = line.trim();
        let mut rest = line;
        let mut fields = Vec::new();
        for _ in 0..4 {
            rest = rest.trim_start();
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if end == 0 {
                return Err("an EPD line needs four position fields".into());
            }
            fields.push(&rest[..end]);
            rest = &rest[end..];
        }
        let ops = parse_operations(rest)?;
        let counter = |name: &str, default: &str| {
            ops.iter()
                .find(|(op, _)| op == name)
                .and_then(|(_, args)| args.first().cloned())
                .unwrap_or_else(|| default.to_string())
        };
        let fen = format!(
            "{} {} {}",
            fields.join(" "),
            counter("hmvc", "0"),
            counter("fmvn", "1")
        );
        let board = Board::from_fen(&fen).map_err(|e| format!("invalid position: {e}"))?;
        Ok(Epd { board, ops })
    }

    /// The operands of the first operation named `opcode`.
    pub fn operands(&self, opcode: &str) -> Option<&[String]> {
        self.ops
            .iter()
            .find(|(op, _)| op == opcode)
            .map(|(_, args)| args.as_slice())
    }

    /// The `id` operation, if any.
    pub fn id(&self) -> Option<&str> {
        self.operands("id")
            .and_then(|a| a.first())
            .map(String::as_str)
    }
}

/// Splits `op arg arg; op "quoted; arg";` into operations, honouring quotes.
fn parse_operations(text: &str) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut ops = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut was_quoted = false;
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                was_quoted = true;
            }
            ';' if !quoted => {
                finish_word(&mut words, &mut word, &mut was_quoted);
                if !words.is_empty() {
                    let opcode = words.remove(0);
                    ops.push((opcode, std::mem::take(&mut words)));
                }
            }
            c if c.is_whitespace() && !quoted => {
                finish_word(&mut words, &mut word, &mut was_quoted)
            }
            c => word.push(c),
        }
    }
    if quoted {
        return Err("unterminated string in EPD operations".into());
    }
    finish_word(&mut words, &mut word, &mut was_quoted);
    if !words.is_empty() {
        return Err(format!(
            "operation '{}' is not closed by ';'",
            words.join(" ")
        ));
    }
    Ok(ops)
}

fn finish_word(words: &mut Vec<String>, word: &mut String, was_quoted: &mut bool) {
    if !word.is_empty() || *was_quoted {
        words.push(std::mem::take(word));
    }
    *was_quoted = false;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations() {
        let epd = Epd::parse(
            r#"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id "WAC.001";"#,
        )
        .unwrap();
        assert_eq!(epd.id(), Some("WAC.001"));
        assert_eq!(epd.operands("bm"), Some(&["Qg6".to_string()][..]));
        let epd =
            Epd::parse(r#"4k3/8/8/8/8/8/8/4K3 b - - am Kd7 Kf7; c0 "a; b"; hmvc 12; fmvn 40;"#)
                .unwrap();
        assert_eq!(epd.operands("am").unwrap().len(), 2);
        assert_eq!(epd.operands("c0"), Some(&["a; b".to_string()][..]));
        assert_eq!(epd.board.to_fen(), "4k3/8/8/8/8/8/8/4K3 b - - 12 40");
        assert!(
            Epd::parse("4k3/8/8/8/8/8/8/4K3 w - -")
                .unwrap()
                .ops
                .is_empty()
        );
    }

    #[test]
    fn errors() {
        assert!(Epd::parse("").is_err());
        assert!(Epd::parse("4k3/8/8/8/8/8/8/4K3 w -").is_err());
        assert!(
            Epd::parse("4k3/8/8/8/8/8/8/4K3 w - - bm e4")
                .unwrap_err()
                .contains("not closed")
        );
        assert!(
            Epd::parse(r#"4k3/8/8/8/8/8/8/4K3 w - - id "x;"#)
                .unwrap_err()
                .contains("unterminated")
        );
        assert!(
            Epd::parse("4k3/8/8/8/8/8/8/4K3 w - - hmvc x;")
                .unwrap_err()
                .contains("halfmove")
        );
    }
}
