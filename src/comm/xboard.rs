//! The XBoard/CECP version 2 protocol: parsing GUI commands and formatting engine output.

use super::{Comm, CommIn, CommOut, EditOp, InfoLine, OptionKind, shown_path};
use crate::search::Bound;
use crate::types::UciScore;

/// The XBoard protocol. It remembers one thing between lines: an `edit` block in progress.
#[derive(Default)]
pub struct XBoard {
    editing: std::sync::Mutex<Option<Vec<EditOp>>>,
}

/// `level MPS BASE INC`: BASE in minutes or `min:sec`, INC in seconds, both possibly
/// fractional (testers send `0.1`).
fn parse_level(args: &[&str]) -> Option<CommIn> {
    let [moves, base, inc, ..] = args else {
        return None;
    };
    let moves: u32 = moves.parse().ok()?;
    let base_ms = match base.split_once(':') {
        Some((min, sec)) => min.parse::<f64>().ok()? * 60_000.0 + sec.parse::<f64>().ok()? * 1000.0,
        None => base.parse::<f64>().ok()? * 60_000.0,
    };
    let inc_ms = inc.parse::<f64>().ok()? * 1000.0;
    let valid = |x: f64| x.is_finite() && x >= 0.0;
    (valid(base_ms) && valid(inc_ms)).then(|| CommIn::TimeControl {
        moves,
        base_ms: base_ms.min(1e15) as u64,
        inc_ms: inc_ms.min(1e15) as u64,
    })
}

/// An integer argument, saturating on huge values.
fn int(arg: Option<&&str>) -> Option<i64> {
    let text = arg?;
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse().unwrap_or(if text.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    }))
}

impl Comm for XBoard {
    fn game_manager(&self) -> bool {
        true
    }

    fn parse(&self, line: &str) -> CommIn {
        let mut editing = self.editing.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(ops) = editing.as_mut() {
            let word = line.trim();
            match word {
                "." => return CommIn::Edit(editing.take().unwrap_or_default()),
                "#" => ops.push(EditOp::Clear),
                "c" => ops.push(EditOp::SwitchColor),
                _ => match word.as_bytes() {
                    [p, f @ b'a'..=b'h', r @ b'1'..=b'8'] if b"PNBRQKx".contains(p) => ops.push(
                        EditOp::Put(*p as char, format!("{}{}", *f as char, *r as char)),
                    ),
                    _ => {
                        return CommIn::Invalid(format!(
                            "edit: '{word}' is not #, c, . or a piece and square"
                        ));
                    }
                },
            }
            return CommIn::Ignore;
        }
        if line.trim() == "edit" {
            *editing = Some(Vec::new());
            return CommIn::Ignore;
        }
        drop(editing);
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = tokens.split_first() else {
            return CommIn::Ignore;
        };
        let bad = |what: &str| CommIn::Invalid(format!("{what}: {}", line.trim()));
        match command {
            "xboard" | "accepted" | "rejected" | "random" | "name" | "computer" | "ics" | "."
            | "lift" | "put" | "hover" | "partner" | "ptell" | "holding" => CommIn::Ignore,
            "draw" => CommIn::DrawOffer,
            "rating" => match (int(args.first()), int(args.get(1))) {
                (Some(ours), Some(theirs)) => CommIn::Ratings {
                    ours: ours.clamp(0, 10_000) as i32,
                    theirs: theirs.clamp(0, 10_000) as i32,
                },
                _ => bad("rating needs two ratings, ours first"),
            },
            // Only Syzygy tables are known; paths of other kinds are not for us.
            "egtpath" => match args {
                ["syzygy", path @ ..] => CommIn::SetOption {
                    name: "SyzygyPath".into(),
                    value: Some(path.join(" ")),
                },
                [_, ..] => CommIn::Ignore,
                [] => bad("egtpath needs a kind and a path"),
            },
            "bk" => CommIn::ShowBook,
            "protover" => CommIn::Features,
            "new" => CommIn::NewGame,
            "variant" => CommIn::Variant(args.join(" ")),
            "quit" => CommIn::Quit,
            "force" => CommIn::Force,
            "go" => CommIn::PlaySideToMove,
            "playother" => CommIn::PlayOther,
            "level" => parse_level(args).unwrap_or_else(|| bad("level needs MPS BASE INC")),
            "st" => match args
                .first()
                .and_then(|a| a.parse::<f64>().ok())
                .filter(|s| s.is_finite() && *s >= 0.0)
            {
                Some(seconds) => CommIn::FixedMoveTime((seconds * 1000.0).min(1e15) as u64),
                None => bad("st needs seconds"),
            },
            "nps" => match int(args.first()) {
                Some(rate) if rate >= 0 => CommIn::NodeRate(rate as u64),
                _ => bad("nps needs nodes per second"),
            },
            "sd" => match int(args.first()) {
                Some(d) => CommIn::DepthLimit(d.clamp(1, 1_000) as i32),
                None => bad("sd needs a depth"),
            },
            "time" => {
                int(args.first()).map_or_else(|| bad("time needs centiseconds"), CommIn::OwnTime)
            }
            "otim" => int(args.first())
                .map_or_else(|| bad("otim needs centiseconds"), CommIn::OpponentTime),
            "usermove" => match args.first() {
                Some(m) => CommIn::UserMove(m.to_string()),
                None => bad("usermove needs a move"),
            },
            "?" => CommIn::MoveNow,
            "ping" => CommIn::Ping(args.join(" ")),
            "result" => CommIn::GameOver,
            "setboard" => CommIn::SetBoard(args.join(" ")),
            "undo" => CommIn::Undo(1),
            "remove" => CommIn::Undo(2),
            "hard" => CommIn::Pondering(true),
            "easy" => CommIn::Pondering(false),
            "post" => CommIn::Post(true),
            "nopost" => CommIn::Post(false),
            "analyze" => CommIn::Analyze,
            "exit" => CommIn::ExitAnalyze,
            "exclude" | "include" => match args {
                [mv] => CommIn::RootFilter {
                    mv: (*mv != "all").then(|| mv.to_string()),
                    include: command == "include",
                },
                _ => bad("exclude and include need a move or all"),
            },
            "hint" => CommIn::Hint,
            "memory" => int(args.first()).map_or_else(
                || bad("memory needs MiB"),
                |n| CommIn::Memory(n.max(0) as usize),
            ),
            "cores" => int(args.first()).map_or_else(
                || bad("cores needs a number"),
                |n| CommIn::Cores(n.max(0) as usize),
            ),
            "option" => {
                let rest = args.join(" ");
                match rest.split_once('=') {
                    Some((name, value)) => CommIn::SetOption {
                        name: name.trim().into(),
                        value: Some(value.trim().into()),
                    },
                    None if !rest.is_empty() => CommIn::SetOption {
                        name: rest,
                        value: None,
                    },
                    None => bad("option needs NAME[=VALUE]"),
                }
            }
            // Without usermove=1 accepted, a bare move may still arrive.
            m if m.len() >= 4
                && m.as_bytes()[0].is_ascii_lowercase()
                && m.as_bytes()[1].is_ascii_digit() =>
            {
                CommIn::UserMove(m.to_string())
            }
            _ => CommIn::Unknown(command.to_string()),
        }
    }

    fn format(&self, out: &CommOut) -> Vec<String> {
        match out {
            CommOut::Features { name, options } => {
                let mut lines = vec![
                    "feature done=0".into(),
                    format!(
                        "feature myname=\"{name}\" ping=1 setboard=1 usermove=1 san=0 sigint=0 sigterm=0 colors=0 playother=1 \
                         time=1 draw=1 analyze=1 exclude=1 reuse=1 memory=1 smp=1 name=0 nps=1 debug=1 variants=\"normal,fischerandom\" egt=\"syzygy\""
                    ),
                ];
                lines.extend(options.iter().map(|option| {
                    let kind = match option.kind {
                        OptionKind::Spin { default, min, max } => {
                            format!("-spin {default} {min} {max}")
                        }
                        OptionKind::Check { default } => format!("-check {}", u8::from(default)),
                        OptionKind::Button => "-button".into(),
                        OptionKind::File { default } => {
                            format!("-file {}", shown_path(default))
                        }
                        OptionKind::Directories => "-path <empty>".into(),
                    };
                    format!("feature option=\"{} {kind}\"", option.name)
                }));
                lines.push("feature done=1".into());
                lines
            }
            CommOut::Info(info) => vec![thinking(info)],
            CommOut::Move(m) => vec![format!("move {m}")],
            CommOut::Pong(n) => vec![format!("pong {n}")],
            CommOut::IllegalMove { mv, reason } => vec![format!("Illegal move ({reason}): {mv}")],
            CommOut::Result { result, reason } => vec![format!("{result} {{{reason}}}")],
            CommOut::Resign => vec!["resign".into()],
            CommOut::OfferDraw => vec!["offer draw".into()],
            CommOut::Hint(m) => vec![format!("Hint: {m}")],
            // Thinking output whose PV is in parentheses: not a search.
            CommOut::BookMove { mv, weight } => {
                vec![format!("0 0 0 0 (book {mv}, weight {weight})")]
            }
            // `bk`: lines that start with a space, then an empty line.
            CommOut::BookMoves(moves) => {
                let total: u32 = moves.iter().map(|m| u32::from(m.1)).sum();
                let mut lines: Vec<String> = moves
                    .iter()
                    .map(|(mv, weight)| {
                        let share = u32::from(*weight) * 100 / total.max(1);
                        format!(" {mv} {share}% (weight {weight})")
                    })
                    .collect();
                if lines.is_empty() {
                    lines.push(" no book moves".into());
                }
                lines.push(String::new());
                lines
            }
            CommOut::Unknown(command) => vec![format!("Error (unknown command): {command}")],
            CommOut::Error(reason) => vec![format!("Error ({reason})")],
            CommOut::Message(text) => vec![format!("# {text}")],
            CommOut::Notice(text) => vec![format!("telluser {text}")],
            CommOut::Perft { rows, total } => {
                let mut lines: Vec<String> =
                    rows.iter().map(|(m, n)| format!("# {m}: {n}")).collect();
                lines.push(format!("# Nodes searched: {total}"));
                lines
            }
            // UCI-only messages.
            CommOut::Identity { .. }
            | CommOut::ReadyOk
            | CommOut::CurrentMove { .. }
            | CommOut::BestMove { .. } => Vec::new(),
        }
    }
}

/// `ply score time nodes seldepth nps<TAB>pv`: score in centipawns from the engine's side,
/// mates as 100000+N moves (negative when being mated), time in centiseconds; `!`/`?` after
/// the PV mark a fail high/low.
fn thinking(info: &InfoLine) -> String {
    let score = match UciScore(info.score).mate_in() {
        Some(n) if n > 0 => 100_000 + n,
        Some(n) => -100_000 + n,
        None => info.score,
    };
    let mark = match info.bound {
        Some(Bound::Lower) => " !",
        Some(Bound::Upper) => " ?",
        _ => "",
    };
    format!(
        "{} {score} {} {} {} {} {}\t{}{mark}",
        info.depth,
        info.time.as_millis() / 10,
        info.nodes,
        info.seldepth,
        info.nps(),
        info.tbhits,
        info.pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> CommIn {
        XBoard::default().parse(line)
    }

    #[test]
    fn edit_block() {
        let x = XBoard::default();
        for line in ["edit", "#", "Ke1", "Pa2", "c", "Ke8", "xa2"] {
            assert_eq!(x.parse(line), CommIn::Ignore, "{line}");
        }
        assert!(matches!(x.parse("Zz9"), CommIn::Invalid(_)));
        let CommIn::Edit(ops) = x.parse(".") else {
            panic!()
        };
        assert_eq!(ops.len(), 6);
        assert_eq!(ops[0], EditOp::Clear);
        assert_eq!(ops[5], EditOp::Put('x', "a2".into()));
        // Out of edit mode again.
        assert_eq!(x.parse("new"), CommIn::NewGame);
    }

    #[test]
    fn commands() {
        assert_eq!(parse("protover 2"), CommIn::Features);
        assert_eq!(
            parse("egtpath syzygy /tb/345:/tb/6"),
            CommIn::SetOption {
                name: "SyzygyPath".into(),
                value: Some("/tb/345:/tb/6".into())
            }
        );
        assert_eq!(parse("egtpath gaviota /tb/gtb"), CommIn::Ignore);
        assert!(matches!(parse("egtpath"), CommIn::Invalid(_)));
        assert_eq!(parse("usermove e2e4"), CommIn::UserMove("e2e4".into()));
        assert_eq!(parse("e7e8q"), CommIn::UserMove("e7e8q".into()));
        assert_eq!(
            parse("ping 123456789012345678901234"),
            CommIn::Ping("123456789012345678901234".into())
        );
        assert_eq!(
            parse("level 40 5 0"),
            CommIn::TimeControl {
                moves: 40,
                base_ms: 300_000,
                inc_ms: 0
            }
        );
        assert_eq!(
            parse("level 0 2:30 0.1"),
            CommIn::TimeControl {
                moves: 0,
                base_ms: 150_000,
                inc_ms: 100
            }
        );
        assert_eq!(
            parse("level 0 0.5 0"),
            CommIn::TimeControl {
                moves: 0,
                base_ms: 30_000,
                inc_ms: 0
            }
        );
        assert!(matches!(parse("level 40 x 0"), CommIn::Invalid(_)));
        assert_eq!(parse("st 2.5"), CommIn::FixedMoveTime(2_500));
        assert_eq!(parse("sd 99999"), CommIn::DepthLimit(1_000));
        assert_eq!(parse("nps 50000"), CommIn::NodeRate(50_000));
        assert!(matches!(parse("nps -5"), CommIn::Invalid(_)));
        assert!(matches!(parse("nps"), CommIn::Invalid(_)));
        assert_eq!(parse("time -50"), CommIn::OwnTime(-50));
        assert_eq!(
            parse("otim 999999999999999999999"),
            CommIn::OpponentTime(i64::MAX)
        );
        assert_eq!(
            parse("option Hash=64"),
            CommIn::SetOption {
                name: "Hash".into(),
                value: Some("64".into())
            }
        );
        assert_eq!(parse("remove"), CommIn::Undo(2));
        assert_eq!(
            parse("frobnicate now"),
            CommIn::Unknown("frobnicate".into())
        );
        assert!(matches!(parse("sd"), CommIn::Invalid(_)));
    }

    #[test]
    fn output() {
        let info = InfoLine {
            depth: 7,
            seldepth: 12,
            multipv: 1,
            score: -(crate::types::MATE - 4),
            bound: None,
            nodes: 5_000,
            time: std::time::Duration::from_millis(1_234),
            hashfull: 0,
            tbhits: 0,
            pv: vec!["e2e4".into(), "e7e5".into()],
            wdl: None,
        };
        assert_eq!(
            XBoard::default().format(&CommOut::Info(info)),
            vec!["7 -100002 123 5000 12 4051 0\te2e4 e7e5"]
        );
        assert_eq!(
            XBoard::default().format(&CommOut::Unknown("foo".into())),
            vec!["Error (unknown command): foo"]
        );
        let result = CommOut::Result {
            result: "1-0",
            reason: "White mates".into(),
        };
        assert_eq!(XBoard::default().format(&result), vec!["1-0 {White mates}"]);
    }
}
