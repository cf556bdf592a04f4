//! The UCI protocol: parsing GUI commands and formatting engine output.

use super::{Comm, CommIn, CommOut, GoParams, InfoLine, OptionKind, shown_path};
use crate::search::Bound;
use crate::types::UciScore;

const COMMANDS: [&str; 11] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
];

const GO_KEYWORDS: [&str; 14] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
    "",
];

pub struct Uci;

/// An integer that saturates instead of failing on huge values; `None` if not a number.
fn parse_int(text: &str) -> Option<i64> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let negative = text.starts_with('-');
    Some(match text.parse::<i64>() {
        Ok(n) => n,
        Err(_) if negative => i64::MIN,
        Err(_) => i64::MAX,
    })
}

fn parse_go(tokens: &[&str]) -> Result<GoParams, String> {
    let mut go = GoParams::default();
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        i += 1;
        let mut number = |min: i64| -> Result<i64, String> {
            let value = tokens
                .get(i)
                .ok_or_else(|| format!("go {key} needs a number"))?;
            i += 1;
            let n =
                parse_int(value).ok_or_else(|| format!("go {key}: '{value}' is not a number"))?;
            Ok(n.max(min))
        };
        match key {
            "wtime" => go.wtime = Some(number(i64::MIN)?),
            "btime" => go.btime = Some(number(i64::MIN)?),
            "winc" => go.winc = Some(number(i64::MIN)?),
            "binc" => go.binc = Some(number(i64::MIN)?),
            "movestogo" => go.movestogo = Some(number(0)?.min(u32::MAX as i64) as u32),
            "depth" => go.depth = Some(number(1)?.min(1_000) as i32),
            "nodes" => go.nodes = Some(number(1)? as u64),
            "mate" => go.mate = Some(number(1)?.min(1_000) as u32),
            "movetime" => go.movetime = Some(number(0)? as u64),
            "perft" => go.perft = Some(number(0)?.min(64) as u32),
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while i < tokens.len() && !GO_KEYWORDS.contains(&tokens[i]) {
                    go.searchmoves.push(tokens[i].to_string());
                    i += 1;
                }
            }
            other => return Err(format!("go: unknown parameter '{other}'")),
        }
    }
    Ok(go)
}

fn parse_position(tokens: &[&str]) -> CommIn {
    let moves_at = tokens
        .iter()
        .position(|&t| t == "moves")
        .unwrap_or(tokens.len());
    let moves = tokens
        .get(moves_at + 1..)
        .unwrap_or(&[])
        .iter()
        .map(|m| m.to_string())
        .collect();
    match &tokens[..moves_at] {
        ["startpos", ..] => CommIn::Position { fen: None, moves },
        ["fen", fen @ ..] if !fen.is_empty() => CommIn::Position {
            fen: Some(fen.join(" ")),
            moves,
        },
        _ => CommIn::Invalid("position needs 'startpos' or 'fen <FEN>'".into()),
    }
}

/// `name <words> [value <words>]`, both keeping inner spaces as single spaces.
fn parse_setoption(tokens: &[&str]) -> CommIn {
    let Some(("name", rest)) = tokens.split_first().map(|(f, r)| (*f, r)) else {
        return CommIn::Invalid("setoption needs 'name <option>'".into());
    };
    let value_at = rest.iter().position(|&t| t == "value");
    let name = rest[..value_at.unwrap_or(rest.len())].join(" ");
    if name.is_empty() {
        return CommIn::Invalid("setoption needs an option name".into());
    }
    let value = value_at.map(|i| rest[i + 1..].join(" "));
    CommIn::SetOption { name, value }
}

impl Comm for Uci {
    fn parse(&self, line: &str) -> CommIn {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        // Unknown words before a command are skipped, as the protocol asks.
        let Some(start) = tokens.iter().position(|t| COMMANDS.contains(t)) else {
            return CommIn::Unknown(line.trim().to_string());
        };
        let args = &tokens[start + 1..];
        match tokens[start] {
            "uci" => CommIn::Identify,
            "isready" => CommIn::IsReady,
            "debug" => match args.first() {
                Some(&"on") => CommIn::Debug(true),
                Some(&"off") => CommIn::Debug(false),
                _ => CommIn::Invalid("debug needs 'on' or 'off'".into()),
            },
            "setoption" => parse_setoption(args),
            "register" => CommIn::Ignore,
            "ucinewgame" => CommIn::NewGame,
            "position" => parse_position(args),
            "go" => parse_go(args).map_or_else(CommIn::Invalid, CommIn::Go),
            "stop" => CommIn::Stop,
            "ponderhit" => CommIn::PonderHit,
            _ => CommIn::Quit,
        }
    }

    fn format(&self, out: &CommOut) -> Vec<String> {
        match out {
            CommOut::Identity {
                name,
                author,
                options,
            } => {
                let mut lines = vec![format!("id name {name}"), format!("id author {author}")];
                for option in options {
                    lines.push(match option.kind {
                        OptionKind::Spin { default, min, max } => {
                            format!(
                                "option name {} type spin default {default} min {min} max {max}",
                                option.name
                            )
                        }
                        OptionKind::Check { default } => {
                            format!("option name {} type check default {default}", option.name)
                        }
                        OptionKind::Button => format!("option name {} type button", option.name),
                        OptionKind::File { default } => format!(
                            "option name {} type string default {}",
                            option.name,
                            shown_path(default)
                        ),
                        OptionKind::Directories => {
                            format!("option name {} type string default <empty>", option.name)
                        }
                    });
                }
                lines.push("uciok".into());
                lines
            }
            CommOut::ReadyOk => vec!["readyok".into()],
            CommOut::Info(info) => vec![format_info(info)],
            CommOut::CurrentMove { depth, mv, number } => {
                vec![format!(
                    "info depth {depth} currmove {mv} currmovenumber {number}"
                )]
            }
            CommOut::BestMove { best, ponder } => {
                let mut line = format!("bestmove {}", best.as_deref().unwrap_or("0000"));
                if let Some(p) = ponder {
                    line += &format!(" ponder {p}");
                }
                vec![line]
            }
            CommOut::Perft { rows, total } => {
                let mut lines: Vec<String> =
                    rows.iter().map(|(m, n)| format!("{m}: {n}")).collect();
                lines.push(String::new());
                lines.push(format!("Nodes searched: {total}"));
                lines
            }
            CommOut::Message(text) | CommOut::Notice(text) => vec![format!("info string {text}")],
            CommOut::BookMove { mv, weight } => {
                vec![format!("info string book move {mv} weight {weight}")]
            }
            CommOut::Error(text) => vec![format!("info string error: {text}")],
            CommOut::Unknown(command) => {
                vec![format!("info string error: unknown command '{command}'")]
            }
            // Game-manager messages have no UCI form.
            _ => Vec::new(),
        }
    }
}

fn format_info(info: &InfoLine) -> String {
    let bound = match info.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    let wdl = info
        .wdl
        .map_or(String::new(), |[w, d, l]| format!(" wdl {w} {d} {l}"));
    format!(
        "info depth {} seldepth {} multipv {} score {}{bound}{wdl} nodes {} nps {} hashfull {} tbhits {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        UciScore(info.score),
        info.nodes,
        info.nps(),
        info.hashfull,
        info.tbhits,
        info.time.as_millis(),
        info.pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> CommIn {
        Uci.parse(line)
    }

    #[test]
    fn commands() {
        assert_eq!(parse("uci"), CommIn::Identify);
        assert_eq!(parse("  isready  "), CommIn::IsReady);
        assert_eq!(parse("joho debug on"), CommIn::Debug(true));
        assert_eq!(parse("xyzzy"), CommIn::Unknown("xyzzy".into()));
        assert_eq!(parse("register later"), CommIn::Ignore);
        assert_eq!(
            parse("setoption name Move Overhead value 30"),
            CommIn::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            CommIn::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert!(matches!(parse("setoption value 3"), CommIn::Invalid(_)));
    }

    #[test]
    fn positions() {
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            CommIn::Position {
                fen: None,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }
        );
        assert_eq!(
            parse("position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
            CommIn::Position {
                fen: Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1".into()),
                moves: vec![]
            }
        );
        assert!(matches!(parse("position"), CommIn::Invalid(_)));
        assert!(matches!(parse("position fen"), CommIn::Invalid(_)));
    }

    #[test]
    fn go_parameters() {
        let CommIn::Go(go) = parse(
            "go wtime -50 btime 1000 winc 0 binc 10 movestogo 5 searchmoves e2e4 d2d4 ponder",
        ) else {
            panic!()
        };
        assert_eq!(
            (go.wtime, go.btime, go.binc, go.movestogo),
            (Some(-50), Some(1000), Some(10), Some(5))
        );
        assert_eq!(go.searchmoves, vec!["e2e4", "d2d4"]);
        assert!(go.ponder && !go.infinite);
        let CommIn::Go(go) = parse("go depth 99999999999999999999999 nodes 0 movetime 10") else {
            panic!()
        };
        assert_eq!(
            (go.depth, go.nodes, go.movetime),
            (Some(1_000), Some(1), Some(10))
        );
        assert!(matches!(parse("go depth x"), CommIn::Invalid(_)));
        assert!(matches!(parse("go depth"), CommIn::Invalid(_)));
        assert!(matches!(parse("go sideways"), CommIn::Invalid(_)));
        let CommIn::Go(go) = parse("go perft 3") else {
            panic!()
        };
        assert_eq!(go.perft, Some(3));
    }

    #[test]
    fn output() {
        let best = CommOut::BestMove {
            best: Some("e2e4".into()),
            ponder: Some("e7e5".into()),
        };
        assert_eq!(Uci.format(&best), vec!["bestmove e2e4 ponder e7e5"]);
        assert_eq!(
            Uci.format(&CommOut::BestMove {
                best: None,
                ponder: None
            }),
            vec!["bestmove 0000"]
        );
        let info = InfoLine {
            depth: 5,
            seldepth: 8,
            multipv: 1,
            score: crate::types::MATE - 3,
            bound: Some(Bound::Lower),
            nodes: 1000,
            time: std::time::Duration::from_millis(10),
            hashfull: 3,
            tbhits: 0,
            pv: vec!["e2e4".into()],
            wdl: None,
        };
        assert_eq!(
            Uci.format(&CommOut::Info(info.clone())),
            vec![
                "info depth 5 seldepth 8 multipv 1 score mate 2 lowerbound nodes 1000 nps 100000 hashfull 3 tbhits 0 time 10 pv e2e4"
            ]
        );
        let info = InfoLine {
            score: 35,
            bound: None,
            wdl: Some([320, 610, 70]),
            ..info
        };
        assert_eq!(
            Uci.format(&CommOut::Info(info)),
            vec![
                "info depth 5 seldepth 8 multipv 1 score cp 35 wdl 320 610 70 nodes 1000 nps 100000 hashfull 3 tbhits 0 time 10 pv e2e4"
            ]
        );
    }
}
