//! The layers of `docs/architecture.md`, enforced. Every `src/**/*.rs` file of the library
//! belongs to a top-level module (`src/board/fen.rs` to `board`, `src/tablebase.rs` to
//! `tablebase`); each `crate::` path in it, outside comments and string literals, names the
//! top-level module it uses (`use crate::{a::X, b::Y}` groups too, across lines). The test
//! fails when a module uses one of a higher layer, one of its own layer that `SIBLINGS` does
//! not allow, or one the table does not know, and when the uses between top-level modules
//! form a cycle. Test code (`#[cfg(test)]`) obeys the same rule: a test that needs a higher
//! layer goes into `tests/`.
//!
//! The binary (`main.rs`, `cli.rs`, `modes/`) stands above everything, uses the library as
//! `ferrum::`, and is not scanned.
//!
//! A scan of the text, not of the syntax tree, so it does not see: `super::super::` paths
//! that climb out of a top-level module, paths through names that `lib.rs` might re-export
//! at the root without `crate::` (`lib.rs` declares modules only), paths that macros of
//! other crates build, and code brought in by `include!` or `#[path]`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The library's top-level modules by layer, lowest first. A module may use any module of a
/// lower layer, and one of its own layer only when `SIBLINGS` says so.
const LAYERS: &[&[&str]] = &[
    &["types"],
    &["attacks"],
    &["board"],
    // What each evaluation's scores mean; `eval` and `nnue` hold their own.
    &["calibration"],
    &["movegen", "eval", "nnue"],
    &["rules", "evaluator"],
    // Below the search, which probes it; above `rules`, whose move parsing it uses.
    &["tablebase"],
    &["search", "book", "formats"],
    // `comm` formats search results, `train` reads `formats`, `eco` keys by the book's hash.
    &["comm", "train", "eco"],
    &["engine", "tools"],
    // The console runs the tools (bench, EPD tests).
    &["ui"],
];

/// Uses allowed within one layer, as (user, used). None today; an entry would say why.
const SIBLINGS: &[(&str, &str)] = &[];

/// The binary's top-level modules: the top, free to use anything.
const BINARY: &[&str] = &["main", "cli", "modes"];

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

#[test]
fn the_library_keeps_its_layers() {
    let mut sources = Vec::new();
    read_sources(&Path::new(ROOT).join("src"), &mut sources);
    assert!(
        sources.len() > 100,
        "only {} source files found",
        sources.len()
    );
    let problems = check(LAYERS, SIBLINGS, &sources);
    assert!(
        problems.is_empty(),
        "{} layer problems (the layers: docs/architecture.md):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// The table names each module of `lib.rs` once, and nothing else; the siblings it allows
/// share a layer.
#[test]
fn the_table_covers_lib_rs() {
    let lib = std::fs::read_to_string(Path::new(ROOT).join("src/lib.rs")).unwrap();
    let declared: BTreeSet<&str> = lib
        .lines()
        .filter_map(|l| {
            let l = l.trim();
            l.strip_prefix("pub mod ")
                .or_else(|| l.strip_prefix("mod "))
                .and_then(|rest| rest.strip_suffix(';'))
        })
        .collect();
    let listed: Vec<&str> = LAYERS
        .iter()
        .flat_map(|layer| layer.iter().copied())
        .collect();
    let unique: BTreeSet<&str> = listed.iter().copied().collect();
    assert_eq!(unique.len(), listed.len(), "a module is listed twice");
    assert_eq!(declared, unique, "lib.rs and LAYERS disagree");
    for &(user, used) in SIBLINGS {
        assert_eq!(
            layer_of(LAYERS, user),
            layer_of(LAYERS, used),
            "{user} -> {used} is not a sibling use"
        );
    }
}

/// The diagram in `docs/architecture.md` lists the same layers, top first: each line that
/// begins with module names (`board/`, `tablebase.rs`) is one layer.
#[test]
fn the_doc_draws_the_same_layers() {
    let doc = std::fs::read_to_string(Path::new(ROOT).join("docs/architecture.md")).unwrap();
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with("Layers"))
        .expect("docs/architecture.md has a Layers section");
    assert!(
        section.contains("tests/layers.rs"),
        "the doc names the test"
    );
    let diagram = section.split("```").nth(1).expect("the Layers diagram");
    let drawn: Vec<Vec<String>> = diagram
        .lines()
        .map(|line| {
            line.split_whitespace()
                .map(|word| word.trim_end_matches(','))
                .map_while(|word| {
                    word.strip_suffix('/')
                        .or_else(|| word.strip_suffix(".rs"))
                        .filter(|name| name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'))
                        .map(str::to_string)
                })
                .collect::<Vec<_>>()
        })
        .map(|mut names| {
            // Order within a layer means nothing.
            names.sort();
            names
        })
        .filter(|names| !names.is_empty())
        .collect();
    let expected: Vec<Vec<String>> = std::iter::once(BINARY)
        .chain(LAYERS.iter().rev().copied())
        .map(|layer| {
            let mut names: Vec<String> = layer.iter().map(|s| s.to_string()).collect();
            names.sort();
            names
        })
        .collect();
    assert_eq!(drawn, expected, "the diagram and LAYERS disagree");
}

/// A file under `src/`, its path relative to the crate.
struct Source {
    path: String,
    text: String,
}

fn read_sources(dir: &Path, out: &mut Vec<Source>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            read_sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(ROOT).unwrap();
            out.push(Source {
                path: relative.to_string_lossy().replace('\\', "/"),
                text: std::fs::read_to_string(&path).unwrap(),
            });
        }
    }
}

/// The top-level module of a file: `src/board/fen.rs` and `src/board/mod.rs` are in
/// `board`, `src/tablebase.rs` is `tablebase`; `src/lib.rs` is the root, in none.
fn top_module(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("src/")?;
    let first = rest.split('/').next()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib").then_some(name)
}

fn layer_of(layers: &[&[&str]], module: &str) -> Option<usize> {
    layers.iter().position(|layer| layer.contains(&module))
}

/// One use of a top-level module: where, and the line as written.
struct Use {
    used: String,
    line: usize,
    text: String,
}

/// Every problem with the layers in `sources`, as messages naming the file, the line and
/// the import; empty when all is well.
fn check(layers: &[&[&str]], siblings: &[(&str, &str)], sources: &[Source]) -> Vec<String> {
    let mut problems = Vec::new();
    // Module to used module, with the first place that uses it.
    let mut graph: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for source in sources {
        let Some(module) = top_module(&source.path) else {
            continue;
        };
        if BINARY.contains(&module) {
            continue;
        }
        let Some(layer) = layer_of(layers, module) else {
            problems.push(format!(
                "{}: module `{module}` is in no layer; add it to LAYERS in tests/layers.rs \
                 and to docs/architecture.md",
                source.path
            ));
            continue;
        };
        for u in crate_uses(&source.text) {
            if u.used == module {
                continue;
            }
            let place = format!("{}:{}", source.path, u.line);
            let problem = match layer_of(layers, &u.used) {
                None => Some(format!("`crate::{}` is no module of the table", u.used)),
                Some(l) if l > layer => Some(format!(
                    "`{module}` (layer {layer}) uses `{}` (layer {l}, above it)",
                    u.used
                )),
                Some(l) if l == layer && !siblings.contains(&(module, u.used.as_str())) => {
                    Some(format!(
                        "`{module}` uses `{}` of its own layer {layer}, which SIBLINGS does \
                         not allow",
                        u.used
                    ))
                }
                Some(_) => None,
            };
            if let Some(problem) = problem {
                problems.push(format!("{place}: {problem}: {}", u.text));
            }
            graph
                .entry(module.to_string())
                .or_default()
                .entry(u.used)
                .or_insert(place);
        }
    }
    for cycle in cycles(&graph) {
        let steps: Vec<String> = cycle
            .windows(2)
            .map(|w| format!("{} -> {} ({})", w[0], w[1], graph[&w[0]][&w[1]]))
            .collect();
        problems.push(format!("import cycle: {}", steps.join(", ")));
    }
    problems
}

/// Cycles in `graph`, each as its modules with the first repeated at the end: one for each
/// edge that closes a cycle in a depth-first search, so at least one when there is any.
fn cycles(graph: &BTreeMap<String, BTreeMap<String, String>>) -> Vec<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeMap<String, String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        found: &mut Vec<Vec<String>>,
    ) {
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flat_map(|edges| edges.keys()) {
            if let Some(start) = stack.iter().position(|n| n == next) {
                let mut cycle = stack[start..].to_vec();
                cycle.push(next.clone());
                found.push(cycle);
            } else if !done.contains(next) {
                visit(next, graph, stack, done, found);
            }
        }
        stack.pop();
        done.insert(node.to_string());
    }
    let mut found = Vec::new();
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        if !done.contains(node) {
            visit(node, graph, &mut Vec::new(), &mut done, &mut found);
        }
    }
    found
}

/// The top-level modules that `crate::` paths in `text` name (also `$crate::` in macros),
/// with their line. In a group, `use crate::{a::X, b::{Y, Z}}`, each item of the outer
/// braces counts.
fn crate_uses(text: &str) -> Vec<Use> {
    let code: Vec<char> = blank_comments_and_literals(text).chars().collect();
    let lines: Vec<&str> = text.lines().collect();
    let line_at = |at: usize| code[..at].iter().filter(|&&c| c == '\n').count() + 1;
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let ident_at = |mut at: usize| {
        let start = at;
        while at < code.len() && is_ident(code[at]) {
            at += 1;
        }
        code[start..at].iter().collect::<String>()
    };
    let mut uses = Vec::new();
    let mut push = |name: String, at: usize| {
        if !name.is_empty() && name != "self" {
            let line = line_at(at);
            let text = lines.get(line - 1).map_or("", |l| l.trim()).to_string();
            uses.push(Use {
                used: name,
                line,
                text,
            });
        }
    };
    let pattern: Vec<char> = "crate::".chars().collect();
    let mut i = 0;
    while i + pattern.len() <= code.len() {
        if code[i..i + pattern.len()] != pattern[..] || (i > 0 && is_ident(code[i - 1])) {
            i += 1;
            continue;
        }
        let mut at = i + pattern.len();
        if code.get(at) == Some(&'{') {
            // The first name of each item at depth one.
            let mut depth = 0;
            let mut expect_item = false;
            while at < code.len() {
                match code[at] {
                    '{' => {
                        depth += 1;
                        expect_item = depth == 1;
                    }
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => expect_item = true,
                    c if expect_item && is_ident(c) => {
                        push(ident_at(at), at);
                        expect_item = false;
                    }
                    _ => {}
                }
                at += 1;
            }
        } else {
            push(ident_at(at), at);
        }
        i = at.max(i + 1);
    }
    uses
}

/// `text` with comments (doc comments too), string and character literals replaced by
/// spaces, line breaks kept, so that only code is left where it was.
fn blank_comments_and_literals(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out: Vec<char> = c.clone();
    let blank = |out: &mut Vec<char>, from: usize, to: usize| {
        for ch in &mut out[from..to.min(c.len())] {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
    };
    // Whether a token starts at `i` (no identifier runs into it).
    let starts = |i: usize| i == 0 || !(c[i - 1].is_ascii_alphanumeric() || c[i - 1] == '_');
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        let end = if c[i] == '/' && next == Some('/') {
            (i..c.len()).find(|&j| c[j] == '\n').unwrap_or(c.len())
        } else if c[i] == '/' && next == Some('*') {
            // Block comments nest.
            let mut depth = 0;
            let mut j = i;
            while j < c.len() {
                if c[j] == '/' && c.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if c[j] == '*' && c.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            j
        } else if c[i] == 'r'
            && (starts(i) || c[i - 1] == 'b' && starts(i - 1))
            && matches!(next, Some('"' | '#'))
        {
            // A raw string r"..." or r#"..."#, ended by the quote and as many hashes.
            let hashes = c[i + 1..].iter().take_while(|&&ch| ch == '#').count();
            let open = i + 1 + hashes;
            if c.get(open) != Some(&'"') {
                i += 1;
                continue;
            }
            let close: Vec<char> = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            (open + 1..c.len())
                .find(|&j| c[j..].starts_with(&close))
                .map_or(c.len(), |j| j + close.len())
        } else if c[i] == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            j + 1
        } else if c[i] == '\'' && next == Some('\\') {
            // An escaped character literal, '\n' or '\u{..}'.
            (i + 3..c.len())
                .find(|&j| c[j] == '\'')
                .map_or(c.len(), |j| j + 1)
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            i + 3
        } else {
            // Code, or the quote of a lifetime.
            i += 1;
            continue;
        };
        blank(&mut out, i, end);
        i = end;
    }
    out.into_iter().collect()
}

// The check itself, on small made-up sources.

fn sources(files: &[(&str, &str)]) -> Vec<Source> {
    files
        .iter()
        .map(|&(path, text)| Source {
            path: path.to_string(),
            text: text.to_string(),
        })
        .collect()
}

#[test]
fn an_upward_import_is_named_with_file_line_and_text() {
    let problems = check(
        LAYERS,
        SIBLINGS,
        &sources(&[(
            "src/board/san.rs",
            "//! SAN.\n\nuse super::Board;\nuse crate::movegen::legal_moves;\n",
        )]),
    );
    assert_eq!(
        problems,
        [
            "src/board/san.rs:4: `board` (layer 2) uses `movegen` (layer 4, above it): \
          use crate::movegen::legal_moves;"
        ]
    );
}

#[test]
fn groups_paths_in_code_and_test_modules_count() {
    let text = "use crate::{\n    types::Move,\n    search::{Limits, Session},\n};\n\
                fn f() { let _ = crate::tools::bench::run; }\n\
                #[cfg(test)]\nmod tests {\n    use crate::engine::Engine;\n}\n";
    let problems = check(LAYERS, SIBLINGS, &sources(&[("src/eval/mod.rs", text)]));
    let places: Vec<&str> = problems
        .iter()
        .map(|p| p.split(": ").next().unwrap())
        .collect();
    assert_eq!(
        places,
        [
            "src/eval/mod.rs:3",
            "src/eval/mod.rs:5",
            "src/eval/mod.rs:8"
        ]
    );
    assert!(problems[0].ends_with("search::{Limits, Session},"));
}

#[test]
fn comments_and_literals_are_not_imports() {
    let text = "//! Written by `crate::train`.\n\
                /* crate::search, /* nested */ crate::search */\n\
                /// See crate::engine.\n\
                const A: &str = \"crate::ui \\\" crate::ui\";\n\
                const B: &str = r#\"crate::ui \" crate::ui\"#;\n\
                const C: char = '\"'; fn f<'a>(x: &'a str) {}\n\
                use crate::types::Move; // crate::search\n";
    let problems = check(LAYERS, SIBLINGS, &sources(&[("src/nnue/mod.rs", text)]));
    assert_eq!(problems, Vec::<String>::new());
    let uses: Vec<(String, usize)> = crate_uses(text)
        .into_iter()
        .map(|u| (u.used, u.line))
        .collect();
    assert_eq!(uses, [("types".to_string(), 7)]);
}

#[test]
fn siblings_unknown_modules_and_unlisted_files_are_caught() {
    let problems = check(
        LAYERS,
        SIBLINGS,
        &sources(&[
            ("src/eval/mod.rs", "use crate::nnue::Network;\n"),
            ("src/search/mod.rs", "use crate::Frobnicate;\n"),
            ("src/newthing.rs", "use crate::types::Move;\n"),
            ("src/main.rs", "use crate::modes::Globals;\n"),
            ("src/lib.rs", "pub mod ui;\n"),
        ]),
    );
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(problems[0].starts_with("src/eval/mod.rs:1: `eval` uses `nnue` of its own layer"));
    assert!(problems[1].starts_with("src/search/mod.rs:1: `crate::Frobnicate` is no module"));
    assert!(problems[2].starts_with("src/newthing.rs: module `newthing` is in no layer"));
    // Allowed, the same import passes.
    let problems = check(
        LAYERS,
        &[("eval", "nnue")],
        &sources(&[("src/eval/mod.rs", "use crate::nnue::Network;\n")]),
    );
    assert_eq!(problems, Vec::<String>::new());
}

#[test]
fn a_cycle_is_caught_even_between_allowed_siblings() {
    let layers: &[&[&str]] = &[&["a", "b", "c"]];
    let siblings = &[("a", "b"), ("b", "c"), ("c", "a")];
    let problems = check(
        layers,
        siblings,
        &sources(&[
            ("src/a/mod.rs", "use crate::b::B;\n"),
            ("src/b.rs", "\nuse crate::c::C;\n"),
            ("src/c/x.rs", "fn f() { crate::a::f() }\n"),
        ]),
    );
    assert_eq!(
        problems,
        ["import cycle: a -> b (src/a/mod.rs:1), b -> c (src/b.rs:2), c -> a (src/c/x.rs:1)"]
    );
}
