//! The engine's options: declaration, defaults and validated changes.

use crate::comm::{OptionKind, OptionSpec};
use crate::search::{SearchParams, Strength, strength};

#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub ponder: bool,
    pub chess960: bool,
    pub analyse_mode: bool,
    pub show_wdl: bool,
    /// Directories of Syzygy tables (':'-separated, ';' on Windows); empty for none.
    pub syzygy_path: String,
    pub syzygy_probe_depth: i32,
    pub syzygy_probe_limit: u32,
    pub syzygy_50_move_rule: bool,
    /// Play from the opening book `book_file` while it has moves.
    pub own_book: bool,
    /// A Polyglot book; empty for none.
    pub book_file: String,
    /// Always the book's heaviest move, rather than one drawn by weight.
    pub best_book_move: bool,
    /// Play below full strength, at `elo`.
    pub limit_strength: bool,
    pub elo: u32,
    /// Search constants; options only in builds with the `tune` feature.
    pub params: SearchParams,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead_ms: 10,
            ponder: false,
            chess960: false,
            analyse_mode: false,
            show_wdl: false,
            syzygy_path: String::new(),
            syzygy_probe_depth: 1,
            syzygy_probe_limit: 7,
            syzygy_50_move_rule: true,
            own_book: true,
            book_file: String::new(),
            best_book_move: false,
            limit_strength: false,
            elo: 1500,
            params: SearchParams::default(),
        }
    }
}

/// An option change the engine must act on beyond storing the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    None,
    ResizeHash,
    ClearHash,
    Chess960,
    /// The tablebase path changed: open the tables again.
    Tablebases,
    /// The book file changed: open it.
    Book,
}

impl Options {
    /// The strength to play at, when limited.
    pub fn strength(&self) -> Option<Strength> {
        self.limit_strength.then(|| Strength::new(self.elo))
    }

    /// The declarations sent to the GUI.
    pub fn specs() -> Vec<OptionSpec> {
        let mut specs = Options::engine_specs();
        if cfg!(feature = "tune") {
            specs.extend(Options::param_specs());
        }
        specs
    }

    /// The search constants as spin options, named as in `SearchParams`.
    fn param_specs() -> Vec<OptionSpec> {
        let d = SearchParams::default();
        SearchParams::table()
            .into_iter()
            .map(|p| OptionSpec {
                name: p.name,
                kind: OptionKind::Spin {
                    default: d.get(p.name).unwrap_or_default(),
                    min: p.min,
                    max: p.max,
                },
            })
            .collect()
    }

    fn engine_specs() -> Vec<OptionSpec> {
        let d = Options::default();
        let spin = |name, default: usize, min, max| OptionSpec {
            name,
            kind: OptionKind::Spin {
                default: default as i64,
                min,
                max,
            },
        };
        vec![
            spin("Hash", d.hash_mb, 1, 65_536),
            spin("Threads", d.threads, 1, 256),
            OptionSpec {
                name: "Clear Hash",
                kind: OptionKind::Button,
            },
            OptionSpec {
                name: "Ponder",
                kind: OptionKind::Check { default: d.ponder },
            },
            spin("MultiPV", d.multipv, 1, 256),
            spin("Move Overhead", d.move_overhead_ms as usize, 0, 5_000),
            OptionSpec {
                name: "UCI_Chess960",
                kind: OptionKind::Check {
                    default: d.chess960,
                },
            },
            OptionSpec {
                name: "UCI_AnalyseMode",
                kind: OptionKind::Check {
                    default: d.analyse_mode,
                },
            },
            OptionSpec {
                name: "UCI_ShowWDL",
                kind: OptionKind::Check {
                    default: d.show_wdl,
                },
            },
            OptionSpec {
                name: "SyzygyPath",
                kind: OptionKind::Path,
            },
            spin("SyzygyProbeDepth", d.syzygy_probe_depth as usize, 1, 100),
            spin("SyzygyProbeLimit", d.syzygy_probe_limit as usize, 0, 7),
            OptionSpec {
                name: "Syzygy50MoveRule",
                kind: OptionKind::Check {
                    default: d.syzygy_50_move_rule,
                },
            },
            OptionSpec {
                name: "OwnBook",
                kind: OptionKind::Check {
                    default: d.own_book,
                },
            },
            OptionSpec {
                name: "BookFile",
                kind: OptionKind::Path,
            },
            OptionSpec {
                name: "BestBookMove",
                kind: OptionKind::Check {
                    default: d.best_book_move,
                },
            },
            OptionSpec {
                name: "UCI_LimitStrength",
                kind: OptionKind::Check {
                    default: d.limit_strength,
                },
            },
            spin(
                "UCI_Elo",
                d.elo as usize,
                i64::from(strength::MIN_ELO),
                i64::from(strength::MAX_ELO),
            ),
        ]
    }

    /// Sets the option called `name` (case and spacing as in the declarations, or the
    /// common spelling `MoveOverhead`), checking the value; nothing changes on an error.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        let key = name.to_ascii_lowercase();
        let Some(spec) = Options::specs().into_iter().find(|s| {
            s.name.eq_ignore_ascii_case(&key)
                || s.name
                    .replace(' ', "")
                    .eq_ignore_ascii_case(&key.replace(' ', ""))
        }) else {
            return Err(format!("no option named '{name}'"));
        };
        let value = value.map(str::trim);
        let number = |min: i64, max: i64| -> Result<i64, String> {
            let text = value.ok_or_else(|| format!("option {} needs a value", spec.name))?;
            let n: i64 = text
                .parse()
                .map_err(|_| format!("option {}: '{text}' is not a whole number", spec.name))?;
            if n < min || n > max {
                return Err(format!(
                    "option {}: {n} is outside {min} to {max}",
                    spec.name
                ));
            }
            Ok(n)
        };
        let flag = || -> Result<bool, String> {
            match value.map(str::to_ascii_lowercase).as_deref() {
                Some("true" | "1") => Ok(true),
                Some("false" | "0") => Ok(false),
                _ => Err(format!("option {} needs 'true' or 'false'", spec.name)),
            }
        };
        // GUIs send `<empty>` (or nothing) to switch a file or directory off.
        let path = || match value {
            None | Some("<empty>") => String::new(),
            Some(path) => path.to_string(),
        };
        Ok(match (spec.name, spec.kind) {
            ("Hash", OptionKind::Spin { min, max, .. }) => {
                self.hash_mb = number(min, max)? as usize;
                Effect::ResizeHash
            }
            ("Threads", OptionKind::Spin { min, max, .. }) => {
                self.threads = number(min, max)? as usize;
                Effect::None
            }
            ("MultiPV", OptionKind::Spin { min, max, .. }) => {
                self.multipv = number(min, max)? as usize;
                Effect::None
            }
            ("Move Overhead", OptionKind::Spin { min, max, .. }) => {
                self.move_overhead_ms = number(min, max)? as u64;
                Effect::None
            }
            ("Clear Hash", _) => Effect::ClearHash,
            ("Ponder", _) => {
                self.ponder = flag()?;
                Effect::None
            }
            ("UCI_Chess960", _) => {
                self.chess960 = flag()?;
                Effect::Chess960
            }
            ("UCI_AnalyseMode", _) => {
                self.analyse_mode = flag()?;
                Effect::None
            }
            ("UCI_ShowWDL", _) => {
                self.show_wdl = flag()?;
                Effect::None
            }
            ("SyzygyPath", _) => {
                self.syzygy_path = path();
                Effect::Tablebases
            }
            ("OwnBook", _) => {
                self.own_book = flag()?;
                Effect::None
            }
            ("BookFile", _) => {
                self.book_file = path();
                Effect::Book
            }
            ("BestBookMove", _) => {
                self.best_book_move = flag()?;
                Effect::None
            }
            ("UCI_LimitStrength", _) => {
                self.limit_strength = flag()?;
                Effect::None
            }
            ("UCI_Elo", OptionKind::Spin { min, max, .. }) => {
                self.elo = number(min, max)? as u32;
                Effect::None
            }
            ("SyzygyProbeDepth", OptionKind::Spin { min, max, .. }) => {
                self.syzygy_probe_depth = number(min, max)? as i32;
                Effect::None
            }
            ("SyzygyProbeLimit", OptionKind::Spin { min, max, .. }) => {
                self.syzygy_probe_limit = number(min, max)? as u32;
                Effect::None
            }
            ("Syzygy50MoveRule", _) => {
                self.syzygy_50_move_rule = flag()?;
                Effect::None
            }
            (name, OptionKind::Spin { min, max, .. }) if self.params.get(name).is_some() => {
                self.params.set(name, number(min, max)?)?;
                Effect::None
            }
            _ => return Err(format!("option {} cannot be set", spec.name)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setting_and_rejecting() {
        let mut o = Options::default();
        assert_eq!(o.set("hash", Some("64")), Ok(Effect::ResizeHash));
        assert_eq!(o.hash_mb, 64);
        assert_eq!(o.set("MoveOverhead", Some("100")), Ok(Effect::None));
        assert_eq!(o.set("move overhead", Some(" 50 ")), Ok(Effect::None));
        assert_eq!(o.move_overhead_ms, 50);
        assert_eq!(o.set("UCI_Chess960", Some("TRUE")), Ok(Effect::Chess960));
        assert!(o.chess960);
        assert_eq!(o.set("Clear Hash", None), Ok(Effect::ClearHash));
        assert_eq!(
            o.set("SyzygyPath", Some("/tb/wdl:/tb/dtz")),
            Ok(Effect::Tablebases)
        );
        assert_eq!(o.syzygy_path, "/tb/wdl:/tb/dtz");
        assert_eq!(o.set("SyzygyProbeLimit", Some("5")), Ok(Effect::None));
        assert_eq!(o.syzygy_probe_limit, 5);
        assert_eq!(o.set("BookFile", Some("/books/a b.bin")), Ok(Effect::Book));
        assert_eq!(o.book_file, "/books/a b.bin");
        assert_eq!(o.set("BookFile", Some("<empty>")), Ok(Effect::Book));
        assert_eq!(o.book_file, "");
        assert_eq!(o.set("ownbook", Some("false")), Ok(Effect::None));
        assert!(!o.own_book);
        assert_eq!(o.set("UCI_LimitStrength", Some("true")), Ok(Effect::None));
        assert_eq!(o.set("uci_elo", Some("2200")), Ok(Effect::None));
        assert_eq!(o.strength(), Some(Strength::new(2200)));
        let before = o.clone();
        for (name, value) in [
            ("Hash", Some("1000000")),
            ("Hash", Some("0")),
            ("Hash", Some("-5")),
            ("Hash", Some("lots")),
            ("Hash", None),
            ("Threads", Some("257")),
            ("MultiPV", Some("257")),
            ("Ponder", Some("maybe")),
            ("SyzygyProbeLimit", Some("8")),
            ("SyzygyProbeDepth", Some("0")),
            ("Syzygy50MoveRule", Some("often")),
            ("OwnBook", None),
            ("BestBookMove", Some("2")),
            ("UCI_Elo", Some("999")),
            ("UCI_Elo", Some("2801")),
            ("UCI_LimitStrength", None),
            ("Colour", Some("blue")),
        ] {
            assert!(o.set(name, value).is_err(), "{name} {value:?}");
        }
        assert_eq!(o, before);
    }

    /// Search constants are options only in tuning builds (`cargo test --features tune`).
    #[test]
    fn search_constants_as_options() {
        let mut o = Options::default();
        let result = o.set("rfp_depth", Some("0"));
        if cfg!(feature = "tune") {
            assert_eq!(result, Ok(Effect::None));
            assert_eq!(o.params.rfp_depth(), 0);
            assert!(o.set("rfp_depth", Some("21")).is_err());
            assert!(o.set("lmr_base", Some("50")).is_ok());
            assert_eq!(o.params.lmr_base(), 0.5);
            assert!(
                Options::specs()
                    .iter()
                    .any(|s| s.name == "see_noisy_margin")
            );
        } else {
            assert!(result.is_err());
            assert_eq!(o, Options::default());
        }
    }
}
