//! The engine's options: their values (`Options`), what a change asks of the engine
//! (`Effect`), and setting one by name. Each is declared once in `DECLARATIONS`
//! (`declarations.rs`); UCI's `option` lines, XBoard's `feature option=` lines, the setters
//! of both protocols (XBoard's `memory` and `cores` among them) and `Options::default()`
//! all read that table.

use super::declarations::{DECLARATIONS, Value, check_value};
use crate::calibration::Calibration;
use crate::comm::{OptionKind, OptionSpec};
use crate::search::{SearchParams, Strength};

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
    /// Resign hopeless games (XBoard).
    pub resign: bool,
    /// Evaluate with the network rather than the hand-crafted evaluation.
    pub use_nnue: bool,
    /// The network's file; empty for the one built in.
    pub eval_file: String,
    /// What a draw costs us in centipawns (negative: a draw is welcome).
    pub contempt: i32,
    /// Every protocol line in and out is appended to this file; empty for none.
    pub debug_log_file: String,
    /// Remember positions whose score surprised the search, and put them into the table
    /// at the start of each game (`learn/`).
    pub learning: bool,
    /// Where learned positions are kept; empty for nowhere.
    pub learn_file: String,
    /// Search constants; options only in builds with the `tune` feature.
    pub params: SearchParams,
}

impl Default for Options {
    /// Every value as `DECLARATIONS` declares it.
    fn default() -> Options {
        let mut options = Options {
            hash_mb: 0,
            threads: 0,
            multipv: 0,
            move_overhead_ms: 0,
            ponder: false,
            chess960: false,
            analyse_mode: false,
            show_wdl: false,
            syzygy_path: String::new(),
            syzygy_probe_depth: 0,
            syzygy_probe_limit: 0,
            syzygy_50_move_rule: false,
            own_book: false,
            book_file: String::new(),
            best_book_move: false,
            limit_strength: false,
            elo: 0,
            resign: false,
            use_nnue: true,
            eval_file: String::new(),
            debug_log_file: String::new(),
            contempt: 0,
            learning: false,
            learn_file: String::new(),
            params: SearchParams::default(),
        };
        for declaration in DECLARATIONS {
            let value = match declaration.kind {
                OptionKind::Spin { default, .. } => Value::Number(default),
                OptionKind::Check { default } => Value::Flag(default),
                OptionKind::File { default } => Value::Text(default),
                OptionKind::Directories => Value::Text(""),
                OptionKind::Button => continue,
            };
            (declaration.set)(&mut options, value);
        }
        options
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
    /// The network file changed: read it.
    Network,
    /// The log file changed: log there from now on.
    Log,
    /// Learning or its file changed: put the file's positions into the table.
    Learn,
}

/// The protocols that offer an option (XBoard has commands of its own for the table size,
/// threads, pondering, Chess960 and analysis).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    Both,
    Uci,
    XBoard,
}

impl Options {
    /// The strength to play at, when limited, on the scale of the evaluation in use.
    pub fn strength(&self, calibration: &Calibration) -> Option<Strength> {
        self.limit_strength
            .then(|| Strength::new(self.elo, calibration))
    }

    /// The declarations a protocol shows its GUI (`Shown::Uci` or `Shown::XBoard`), the
    /// search constants last in `tune` builds.
    pub fn specs(protocol: Shown) -> Vec<OptionSpec> {
        let specs: Vec<OptionSpec> = DECLARATIONS
            .iter()
            .filter(|d| d.shown == Shown::Both || d.shown == protocol)
            .map(|d| OptionSpec {
                name: d.name,
                kind: d.kind,
            })
            .collect();
        #[cfg(feature = "tune")]
        let specs = [specs, Options::param_specs()].concat();
        specs
    }

    /// The range of a spin option, for commands that set it in their own way (XBoard's
    /// `memory` and `cores`).
    pub fn range(name: &str) -> Option<(i64, i64)> {
        DECLARATIONS
            .iter()
            .find(|d| d.name == name)
            .and_then(|d| match d.kind {
                OptionKind::Spin { min, max, .. } => Some((min, max)),
                _ => None,
            })
    }

    /// The search constants as spin options, named as in `SearchParams`.
    #[cfg(feature = "tune")]
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

    /// Sets the option called `name` (in any case, with or without its spaces, as in
    /// `MoveOverhead`), checking the value; nothing changes on an error.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        let squeeze = |s: &str| s.replace(' ', "").to_ascii_lowercase();
        let key = squeeze(name);
        let named = |candidate: &str| squeeze(candidate) == key;
        let value = value.map(str::trim);
        if let Some(declaration) = DECLARATIONS.iter().find(|d| named(d.name)) {
            let checked = check_value(declaration.name, declaration.kind, value)?;
            return Ok((declaration.set)(self, checked));
        }
        #[cfg(feature = "tune")]
        if let Some(spec) = Options::param_specs().into_iter().find(|s| named(s.name)) {
            let Value::Number(n) = check_value(spec.name, spec.kind, value)? else {
                return Err(format!("option {} cannot be set", spec.name));
            };
            self.params.set(spec.name, n)?;
            return Ok(Effect::None);
        }
        Err(format!("no option named '{name}'"))
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
        assert_eq!(o.learn_file, "ferrum.learn");
        assert_eq!(o.set("learnfile", Some("/tmp/x.learn")), Ok(Effect::Learn));
        assert_eq!(o.learn_file, "/tmp/x.learn");
        assert_eq!(o.set("Learning", Some("true")), Ok(Effect::Learn));
        assert!(o.learning);
        assert_eq!(o.set("ownbook", Some("false")), Ok(Effect::None));
        assert!(!o.own_book);
        assert_eq!(o.set("UCI_LimitStrength", Some("true")), Ok(Effect::None));
        assert_eq!(o.set("uci_elo", Some("2200")), Ok(Effect::None));
        let network = crate::nnue::DEFAULT_CALIBRATION;
        assert_eq!(o.strength(&network), Some(Strength::new(2200, &network)));
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
            ("Learning", Some("yes")),
            ("Colour", Some("blue")),
        ] {
            assert!(o.set(name, value).is_err(), "{name} {value:?}");
        }
        assert_eq!(o, before);
    }

    /// Each protocol shows its own options, and each declared default is a value the
    /// option's own setter takes.
    #[test]
    fn one_table_for_both_protocols() {
        let names =
            |protocol| -> Vec<&str> { Options::specs(protocol).iter().map(|s| s.name).collect() };
        let (uci, xboard) = (names(Shown::Uci), names(Shown::XBoard));
        assert!(uci.contains(&"Hash") && !xboard.contains(&"Hash"));
        assert!(xboard.contains(&"Resign") && !uci.contains(&"Resign"));
        assert!(uci.contains(&"BookFile") && xboard.contains(&"BookFile"));
        for both in ["Learning", "LearnFile"] {
            assert!(uci.contains(&both) && xboard.contains(&both), "{both}");
        }
        let mut o = Options::default();
        for spec in Options::specs(Shown::Uci)
            .into_iter()
            .chain(Options::specs(Shown::XBoard))
        {
            let value = match spec.kind {
                OptionKind::Spin { default, .. } => Some(default.to_string()),
                OptionKind::Check { default } => Some(default.to_string()),
                OptionKind::File { default } => Some(default.to_string()),
                OptionKind::Directories => Some("<empty>".into()),
                OptionKind::Button => None,
            };
            assert!(o.set(spec.name, value.as_deref()).is_ok(), "{}", spec.name);
        }
        assert_eq!(o, Options::default());
        assert_eq!(Options::range("Hash"), Some((1, 65_536)));
        assert_eq!(Options::range("Ponder"), None);
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
                Options::specs(Shown::Uci)
                    .iter()
                    .any(|s| s.name == "see_noisy_margin")
            );
        } else {
            assert!(result.is_err());
            assert_eq!(o, Options::default());
        }
    }
}
