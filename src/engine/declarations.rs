//! The table of the engine's options (`DECLARATIONS`): each option's name, kind, range and
//! default, the protocols that show it, and what setting it does; and the check of a value
//! against its option's kind and range.

use super::options::{Effect, Options, Shown};
use crate::comm::OptionKind;
use crate::search::strength;

/// A value checked against its option's kind and range.
#[derive(Clone, Copy, Debug)]
pub(super) enum Value<'a> {
    Number(i64),
    Flag(bool),
    Text(&'a str),
    Press,
}

impl Value<'_> {
    pub(super) fn number(self) -> i64 {
        match self {
            Value::Number(n) => n,
            _ => 0,
        }
    }

    pub(super) fn flag(self) -> bool {
        matches!(self, Value::Flag(true))
    }

    pub(super) fn text(self) -> String {
        match self {
            Value::Text(text) => text.to_string(),
            _ => String::new(),
        }
    }
}

/// One option: how the GUI sees it and what setting it does.
pub(super) struct Declaration {
    pub(super) name: &'static str,
    pub(super) kind: OptionKind,
    pub(super) shown: Shown,
    pub(super) set: fn(&mut Options, Value) -> Effect,
}

const fn spin(default: i64, min: i64, max: i64) -> OptionKind {
    OptionKind::Spin { default, min, max }
}

const fn check(default: bool) -> OptionKind {
    OptionKind::Check { default }
}

const fn file(default: &'static str) -> OptionKind {
    OptionKind::File { default }
}

/// Every option of the engine (the search constants of `tune` builds are added to them).
pub(super) const DECLARATIONS: &[Declaration] = &[
    Declaration {
        name: "Hash",
        kind: spin(16, 1, 65_536),
        shown: Shown::Uci,
        set: |o, v| {
            o.hash_mb = v.number() as usize;
            Effect::ResizeHash
        },
    },
    Declaration {
        name: "Threads",
        kind: spin(1, 1, 256),
        shown: Shown::Uci,
        set: |o, v| {
            o.threads = v.number() as usize;
            Effect::None
        },
    },
    Declaration {
        name: "Clear Hash",
        kind: OptionKind::Button,
        shown: Shown::Both,
        set: |_, _| Effect::ClearHash,
    },
    Declaration {
        name: "Ponder",
        kind: check(false),
        shown: Shown::Uci,
        set: |o, v| {
            o.ponder = v.flag();
            Effect::None
        },
    },
    Declaration {
        name: "MultiPV",
        kind: spin(1, 1, 256),
        shown: Shown::Both,
        set: |o, v| {
            o.multipv = v.number() as usize;
            Effect::None
        },
    },
    Declaration {
        name: "Move Overhead",
        kind: spin(10, 0, 5_000),
        shown: Shown::Both,
        set: |o, v| {
            o.move_overhead_ms = v.number() as u64;
            Effect::None
        },
    },
    Declaration {
        name: "UCI_Chess960",
        kind: check(false),
        shown: Shown::Uci,
        set: |o, v| {
            o.chess960 = v.flag();
            Effect::Chess960
        },
    },
    Declaration {
        name: "UCI_AnalyseMode",
        kind: check(false),
        shown: Shown::Uci,
        set: |o, v| {
            o.analyse_mode = v.flag();
            Effect::None
        },
    },
    Declaration {
        name: "UCI_ShowWDL",
        kind: check(false),
        shown: Shown::Uci,
        set: |o, v| {
            o.show_wdl = v.flag();
            Effect::None
        },
    },
    Declaration {
        name: "SyzygyPath",
        kind: OptionKind::Directories,
        shown: Shown::Both,
        set: |o, v| {
            o.syzygy_path = v.text();
            Effect::Tablebases
        },
    },
    Declaration {
        name: "SyzygyProbeDepth",
        kind: spin(1, 1, 100),
        shown: Shown::Both,
        set: |o, v| {
            o.syzygy_probe_depth = v.number() as i32;
            Effect::None
        },
    },
    Declaration {
        name: "SyzygyProbeLimit",
        kind: spin(7, 0, 7),
        shown: Shown::Both,
        set: |o, v| {
            o.syzygy_probe_limit = v.number() as u32;
            Effect::None
        },
    },
    Declaration {
        name: "Syzygy50MoveRule",
        kind: check(true),
        shown: Shown::Both,
        set: |o, v| {
            o.syzygy_50_move_rule = v.flag();
            Effect::None
        },
    },
    Declaration {
        name: "OwnBook",
        kind: check(true),
        shown: Shown::Both,
        set: |o, v| {
            o.own_book = v.flag();
            Effect::None
        },
    },
    Declaration {
        name: "BookFile",
        kind: file(""),
        shown: Shown::Both,
        set: |o, v| {
            o.book_file = v.text();
            Effect::Book
        },
    },
    Declaration {
        name: "BestBookMove",
        kind: check(false),
        shown: Shown::Both,
        set: |o, v| {
            o.best_book_move = v.flag();
            Effect::None
        },
    },
    Declaration {
        name: "UCI_LimitStrength",
        kind: check(false),
        shown: Shown::Both,
        set: |o, v| {
            o.limit_strength = v.flag();
            Effect::None
        },
    },
    Declaration {
        name: "UCI_Elo",
        kind: spin(1500, strength::MIN_ELO as i64, strength::MAX_ELO as i64),
        shown: Shown::Both,
        set: |o, v| {
            o.elo = v.number() as u32;
            Effect::None
        },
    },
    Declaration {
        name: "UseNNUE",
        kind: check(true),
        shown: Shown::Both,
        set: |o, v| {
            o.use_nnue = v.flag();
            // The table's evaluations were made by the other evaluation.
            Effect::ClearHash
        },
    },
    Declaration {
        name: "EvalFile",
        kind: file(""),
        shown: Shown::Both,
        set: |o, v| {
            o.eval_file = v.text();
            Effect::Network
        },
    },
    Declaration {
        name: "Contempt",
        kind: spin(0, -100, 100),
        shown: Shown::Both,
        set: |o, v| {
            o.contempt = v.number() as i32;
            Effect::None
        },
    },
    Declaration {
        name: "Debug Log File",
        kind: file(""),
        shown: Shown::Both,
        set: |o, v| {
            o.debug_log_file = v.text();
            Effect::Log
        },
    },
    Declaration {
        name: "Learning",
        kind: check(false),
        shown: Shown::Both,
        set: |o, v| {
            o.learning = v.flag();
            Effect::Learn
        },
    },
    Declaration {
        name: "LearnFile",
        // In the working directory, as Arasan keeps its `arasan.lrn` beside it.
        kind: file("ferrum.learn"),
        shown: Shown::Both,
        set: |o, v| {
            o.learn_file = v.text();
            Effect::Learn
        },
    },
    Declaration {
        name: "Resign",
        kind: check(true),
        shown: Shown::XBoard,
        set: |o, v| {
            o.resign = v.flag();
            Effect::None
        },
    },
];

/// `value` as option `name` of `kind` takes it, or why not.
pub(super) fn check_value<'a>(
    name: &str,
    kind: OptionKind,
    value: Option<&'a str>,
) -> Result<Value<'a>, String> {
    match kind {
        OptionKind::Spin { min, max, .. } => {
            let text = value.ok_or_else(|| format!("option {name} needs a value"))?;
            let n: i64 = text
                .parse()
                .map_err(|_| format!("option {name}: '{text}' is not a whole number"))?;
            if n < min || n > max {
                return Err(format!("option {name}: {n} is outside {min} to {max}"));
            }
            Ok(Value::Number(n))
        }
        OptionKind::Check { .. } => match value.map(str::to_ascii_lowercase).as_deref() {
            Some("true" | "1") => Ok(Value::Flag(true)),
            Some("false" | "0") => Ok(Value::Flag(false)),
            _ => Err(format!("option {name} needs 'true' or 'false'")),
        },
        // GUIs send `<empty>` (or nothing) to switch a file or directory off.
        OptionKind::File { .. } | OptionKind::Directories => Ok(Value::Text(match value {
            None | Some("<empty>") => "",
            Some(path) => path,
        })),
        OptionKind::Button => Ok(Value::Press),
    }
}
