//! What setting an option does beyond storing its value: the table resized or cleared,
//! the tablebases, the book, the network or the log opened, and the evaluator and its
//! calibration that the options choose.

use super::{Effect, Engine, Options};
use crate::calibration::WdlModel;
use crate::comm::CommOut;
use crate::evaluator::Evaluator;
use crate::search::Syzygy;
use crate::tablebase::Tablebases;
use std::sync::Arc;

impl Engine {
    /// Sets a spin option to `value` brought within its range.
    pub(super) fn set_option_within(&mut self, name: &str, value: usize) {
        let (min, max) = Options::range(name).unwrap_or((0, i64::MAX));
        let value = (value as i64).clamp(min, max).to_string();
        self.set_option(name, Some(&value));
    }

    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.options.set(name, value) {
            Ok(Effect::ResizeHash) => {
                self.finish_search();
                self.resize_table(self.options.hash_mb);
            }
            Ok(Effect::ClearHash) => self.clear_tables(),
            Ok(Effect::Chess960) => self.board.set_chess960(self.options.chess960),
            Ok(Effect::Tablebases) => {
                self.finish_search();
                self.open_tablebases();
            }
            Ok(Effect::Book) => self.open_book(),
            Ok(Effect::Log) => {
                if let Err(e) = self.log.open(&self.options.debug_log_file) {
                    self.send(CommOut::Notice(e));
                }
            }
            Ok(Effect::Network) => {
                self.finish_search();
                self.open_network();
            }
            Ok(Effect::Learn) => self.load_learned(true),
            Ok(Effect::None) => {}
            Err(e) => self.send(CommOut::Error(e)),
        }
        if self.debug {
            self.send(CommOut::Message(format!("options {:?}", self.options)));
        }
    }

    /// Opens the tables `SyzygyPath` names, closing those open before (the prober holds
    /// one set at a time). Failure is reported, and the engine plays on without tables.
    fn open_tablebases(&mut self) {
        self.tablebases = None;
        let path = self.options.syzygy_path.trim();
        if path.is_empty() {
            return;
        }
        match Tablebases::open(path) {
            Ok(tables) => {
                self.send(CommOut::Message(format!(
                    "Syzygy tables up to {} pieces from {path}",
                    tables.max_pieces()
                )));
                if let Some(report) = tables.problem_report() {
                    self.send(CommOut::Notice(report));
                }
                self.tablebases = Some(Arc::new(tables));
            }
            Err(e) => self.send(CommOut::Notice(e)),
        }
    }

    /// The evaluation the options ask for: `EvalFile`'s network, or the hand-crafted one.
    pub(super) fn evaluator(&self) -> Evaluator {
        if self.options.use_nnue {
            self.network.clone()
        } else {
            Evaluator::hand_crafted()
        }
    }

    /// The win-draw-loss model of the evaluation in use, when UCI_ShowWDL is on.
    pub(super) fn wdl_model(&self) -> Option<WdlModel> {
        self.options
            .show_wdl
            .then(|| self.evaluator().calibration().wdl)
    }

    /// Reads the network `EvalFile` names (the built-in one when empty). A file that cannot
    /// be used is reported, and the network in use stays, with its name.
    fn open_network(&mut self) {
        let path = self.options.eval_file.trim().to_string();
        if path.is_empty() {
            self.network = Evaluator::built_in();
            self.loaded_eval_file = path;
            return self.clear_tables();
        }
        match Evaluator::from_file(std::path::Path::new(&path)) {
            Ok(network) => {
                self.send(CommOut::Message(network.describe()));
                self.network = network;
                self.loaded_eval_file = path;
                self.clear_tables();
            }
            Err(e) => {
                self.send(CommOut::Error(format!(
                    "EvalFile: {e}; the network in use stays"
                )));
                self.options.eval_file = self.loaded_eval_file.clone();
            }
        }
    }

    /// The tables and how to probe them, for a search.
    pub(super) fn syzygy(&self) -> Option<Syzygy> {
        self.tablebases.as_ref().map(|tables| Syzygy {
            tables: Arc::clone(tables),
            probe_depth: self.options.syzygy_probe_depth,
            probe_limit: self.options.syzygy_probe_limit,
            fifty_move_rule: self.options.syzygy_50_move_rule,
        })
    }

    /// Forgets what earlier searches learned: the table now, the thread data when the next
    /// search starts (a running search still holds it), the game's scores. What `Learning`
    /// learned in earlier games goes into the empty table.
    pub(super) fn clear_tables(&mut self) {
        self.session.clear();
        self.learner.forget();
        self.load_learned(false);
    }

    /// A new table of `mb` MiB; on failure the old one stays and the reason is reported.
    fn resize_table(&mut self, mb: usize) {
        // XBoard GUIs send `memory` before every game: the table of that size is kept.
        if mb == self.session.table_mb() {
            return;
        }
        match self.session.resize(mb) {
            Ok(()) => self.load_learned(false),
            Err(e) => self.send(CommOut::Error(e)),
        }
        self.options.hash_mb = self.session.table_mb();
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::engine;

    /// UseNNUE chooses the evaluator, and with it the WDL model UCI_ShowWDL reports.
    #[test]
    fn the_options_choose_the_evaluator_and_its_calibration() {
        let (mut engine, _) = engine();
        assert!(engine.evaluator().is_network());
        assert_eq!(engine.wdl_model(), None, "UCI_ShowWDL is off by default");
        engine.set_option("UCI_ShowWDL", Some("true"));
        let network = crate::nnue::embedded().calibration().wdl;
        assert_eq!(engine.wdl_model(), Some(network));
        engine.set_option("UseNNUE", Some("false"));
        assert!(!engine.evaluator().is_network());
        assert_eq!(engine.wdl_model(), Some(crate::eval::CALIBRATION.wdl));
    }
}
