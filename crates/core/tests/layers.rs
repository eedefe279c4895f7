//! The layer table of `doc/architecture.md` as a test: every path a production file of this crate names
//! (`use` lines and inline `crate::`, `super::`, `self::` and child-module paths) is resolved,
//! through re-exports, to the file that defines it, and the test fails on
//!
//! - an import that runs up the table (a module may use modules of the rows below its own only;
//!   the modules of one row are independent of each other), and
//! - a circle of files (a strongly connected component of more than one file), such as a
//!   `mod.rs` that calls its child while the child uses an item defined in the `mod.rs`.
//!
//! Tests (`tests.rs` files and `#[cfg(test)]` modules) and `lib.rs` (the root re-exports) are
//! left out. This is a reading of the source, not of the compiler's name resolution: it knows
//! `mod`, `use` trees (`{…}`, `self`, `as`, globs) and paths, which is all this crate writes.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// One module of the crate: its file and the names it declares or imports.
#[derive(Default)]
struct Module {
    file: String,
    children: BTreeSet<String>,
    /// Imported names (`use a::b as c` → `c` → `[a, b]`, absolute), for resolving re-exports.
    imports: BTreeMap<String, Vec<String>>,
    /// Glob imports (`use a::*`), absolute.
    globs: Vec<Vec<String>>,
    /// The paths the module's code names, absolute (each one a dependency).
    uses: Vec<Vec<String>>,
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The module path of a source file: `lib.rs` → `[]`, `a/b.rs` and `a/b/mod.rs` → `[a, b]`.
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The production text of a file: the `#[cfg(test)]` items, comments and literals gone.
fn production_text(text: &str) -> String {
    let mut kept = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            // The next item: a one-line `use`/`mod x;`, or a block to its closing brace at
            // the same indentation (test modules and test-only functions).
            let Some(item) = lines.next() else { break };
            if item.trim_end().ends_with('{') {
                let indent = item.len() - item.trim_start().len();
                let close = format!("{}}}", " ".repeat(indent));
                for rest in lines.by_ref() {
                    if rest.trim_end() == close {
                        break;
                    }
                }
            }
            continue;
        }
        kept.push_str(line);
        kept.push('\n');
    }
    strip_comments_and_literals(&kept)
}

/// Removes `//` and `/* */` comments, string literals (raw ones too) and char literals, keeping
/// the line breaks.
fn strip_comments_and_literals(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            i += 2;
            while i + 1 < c.len() && !(c[i] == '*' && c[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c[i] == 'r' && (next == Some('"') || next == Some('#')) && (i == 0 || !is_ident(c[i - 1])) {
            let mut hashes = 0;
            let mut j = i + 1;
            while j < c.len() && c[j] == '#' {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            while j < c.len() && !(c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#'))) {
                if c[j] == '\n' {
                    out.push('\n');
                }
                j += 1;
            }
            i = j + 1 + hashes;
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                } else if c[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1;
        } else if c[i] == '\'' && (next == Some('\\') || c.get(i + 2) == Some(&'\'')) {
            // A char literal ('x', '\'', '\n'); a lifetime has no closing quote.
            i += 2;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Splits a `use` tree (`a::{b, c::{self, D as E}}`) into (path, local name) pairs.
fn use_tree(tree: &str) -> Vec<(Vec<String>, String)> {
    fn parse(s: &str, prefix: &[String], out: &mut Vec<(Vec<String>, String)>) {
        let s = s.trim();
        if s.is_empty() {
            return;
        }
        if let Some(open) = s.find('{') {
            let head: Vec<String> =
                s[..open].split("::").map(str::trim).filter(|p| !p.is_empty()).map(String::from).collect();
            let mut path = prefix.to_vec();
            path.extend(head);
            let close = s.rfind('}').filter(|&c| c > open).unwrap_or(s.len());
            let inner = &s[open + 1..close];
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        parse(&inner[start..i], &path, out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            parse(&inner[start..], &path, out);
            return;
        }
        let (p, alias) = match s.split_once(" as ") {
            Some((p, a)) => (p.trim(), Some(a.trim().to_string())),
            None => (s, None),
        };
        let mut path = prefix.to_vec();
        path.extend(p.split("::").map(|x| x.trim().to_string()));
        if path.last().is_some_and(|l| l == "self") {
            path.pop();
        }
        let name = alias.unwrap_or_else(|| path.last().cloned().unwrap_or_default());
        out.push((path, name));
    }
    let mut out = Vec::new();
    parse(tree, &[], &mut out);
    out
}

struct Crate {
    modules: BTreeMap<Vec<String>, Module>,
}

/// The production text of every file of src/ but the `tests.rs` files: module path → (file
/// relative to src/, text without comments, literals and test modules).
fn source_texts() -> BTreeMap<Vec<String>, (String, String)> {
    let src = src_dir();
    let mut files = Vec::new();
    walk(&src, &mut files);
    let mut texts = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap().to_path_buf();
        if rel.file_name().is_some_and(|f| f == "tests.rs") {
            continue;
        }
        texts.insert(
            module_path(&rel),
            (rel.to_string_lossy().into_owned(), production_text(&fs::read_to_string(&file).unwrap())),
        );
    }
    texts
}

impl Crate {
    fn read() -> Crate {
        Crate::from_texts(source_texts())
    }

    /// The crate of the production texts `texts` (module path → (file, text)).
    fn from_texts(texts: BTreeMap<Vec<String>, (String, String)>) -> Crate {
        let mut modules: BTreeMap<Vec<String>, Module> = BTreeMap::new();
        for (path, (file, _)) in &texts {
            modules.entry(path.clone()).or_default().file = file.clone();
            if let Some((name, parent)) = path.split_last() {
                modules.entry(parent.to_vec()).or_default().children.insert(name.clone());
            }
        }
        let mut krate = Crate { modules };
        for (path, (_, text)) in &texts {
            krate.scan(path, text);
        }
        krate
    }

    /// An absolute path for `segments` as written in module `at`; `None` for another crate's.
    fn absolute(&self, at: &[String], segments: &[String]) -> Option<Vec<String>> {
        let mut base: Vec<String> = at.to_vec();
        let mut rest = segments;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                base.clear();
                rest = &rest[1..];
            }
            Some("self") => rest = &rest[1..],
            Some("super") => {
                while rest.first().is_some_and(|s| s == "super") {
                    base.pop();
                    rest = &rest[1..];
                }
            }
            Some(first) if self.modules[at].children.contains(first) => {}
            _ => return None,
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    fn scan(&mut self, at: &[String], text: &str) {
        let mut imports = BTreeMap::new();
        let mut globs = Vec::new();
        let mut uses = Vec::new();
        // `use` statements.
        let mut body = String::new();
        let mut rest = text;
        while let Some(i) = find_use(rest) {
            body.push_str(&rest[..i]);
            let end = rest[i..].find(';').map_or(rest.len(), |e| i + e);
            for (path, name) in use_tree(&rest[i + 3..end]) {
                if let Some(abs) = self.absolute(at, &path) {
                    if name == "*" {
                        let mut target = abs.clone();
                        target.pop();
                        globs.push(target.clone());
                        uses.push(target);
                    } else {
                        imports.insert(name, abs.clone());
                        uses.push(abs);
                    }
                }
            }
            rest = &rest[(end + 1).min(rest.len())..];
        }
        body.push_str(rest);
        // Inline paths: `crate::a::b`, `super::a`, `self::a`, `child::a`.
        let chars: Vec<char> = body.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if is_ident(chars[i]) && (i == 0 || !(is_ident(chars[i - 1]) || chars[i - 1] == ':')) {
                let mut segments = Vec::new();
                let mut j = i;
                loop {
                    let start = j;
                    while j < chars.len() && is_ident(chars[j]) {
                        j += 1;
                    }
                    segments.push(chars[start..j].iter().collect::<String>());
                    if j + 2 < chars.len() && chars[j] == ':' && chars[j + 1] == ':' && is_ident(chars[j + 2])
                    {
                        j += 2;
                    } else {
                        break;
                    }
                }
                if segments.len() > 1
                    && let Some(abs) = self.absolute(at, &segments)
                {
                    uses.push(abs);
                }
                i = j;
            } else {
                i += 1;
            }
        }
        let module = self.modules.get_mut(at).unwrap();
        module.imports = imports;
        module.globs = globs;
        module.uses = uses;
    }

    /// The file that defines what an absolute path names, through re-exports.
    fn resolve(&self, path: &[String], depth: usize) -> Option<String> {
        let mut module: Vec<String> = Vec::new();
        for (k, segment) in path.iter().enumerate() {
            let here = &self.modules[&module];
            if here.children.contains(segment) {
                module.push(segment.clone());
                continue;
            }
            if depth < 16
                && let Some(target) = here.imports.get(segment)
            {
                let mut next = target.clone();
                next.extend(path[k + 1..].iter().cloned());
                return self.resolve(&next, depth + 1);
            }
            return Some(here.file.clone());
        }
        Some(self.modules[&module].file.clone())
    }
}

/// The offset of the next `use` item (a line that starts with `use` or `pub… use`).
fn find_use(text: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let mut item = trimmed;
        if let Some(rest) = item.strip_prefix("pub") {
            item = rest.trim_start();
            if item.starts_with('(') {
                item = item[item.find(')').map_or(0, |k| k + 1)..].trim_start();
            }
        }
        if item.starts_with("use ") {
            return Some(offset + (line.len() - item.len()));
        }
        offset += line.len();
    }
    None
}

/// The rows of the table under `## Layers of the library` in doc/architecture.md (moved there
/// from lib.rs's docs, whose front page is for the library's users: issue 40), top first: each
/// row's module paths.
fn layer_table(modules: &BTreeMap<Vec<String>, Module>) -> Vec<(String, Vec<Vec<String>>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../doc/architecture.md");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut rows = Vec::new();
    let mut in_layers = false;
    for line in text.lines() {
        let doc = line.trim();
        if doc.starts_with('#') {
            in_layers = doc == "## Layers of the library";
            continue;
        }
        if !in_layers || !doc.starts_with('|') || doc.starts_with("| ---") || doc.starts_with("| layer") {
            continue;
        }
        let cells: Vec<&str> = doc.trim_matches('|').split('|').map(str::trim).collect();
        let names: Vec<Vec<String>> = cells[1]
            .split('`')
            .skip(1)
            .step_by(2)
            .map(|name| name.split("::").map(String::from).collect::<Vec<_>>())
            .filter(|path| modules.contains_key(path))
            .collect();
        rows.push((cells[0].to_string(), names));
    }
    rows
}

/// Tarjan's strongly connected components of the file graph, those of more than one file.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.edges.get(v).into_iter().flatten() {
            if !s.index.contains_key(w.as_str()) {
                visit(s, w);
                let low = s.low[w.as_str()].min(s.low[v]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w.as_str()) {
                let low = s.index[w.as_str()].min(s.low[v]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on_stack.remove(w);
                component.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// What breaks the layer table in `krate`: an import up the table or beside it, a module in no
/// row, a circle of files; one line each, sorted.
fn layer_problems(krate: &Crate) -> Vec<String> {
    let table = layer_table(&krate.modules);
    assert!(
        table.len() >= 5,
        "doc/architecture.md has no '## Layers of the library' table with module names in backticks"
    );
    // Each module's row and table entry: the longest entry that prefixes its path.
    let entry_of = |path: &[String]| -> Option<(usize, Vec<String>)> {
        let mut best: Option<(usize, Vec<String>)> = None;
        for (row, (_, names)) in table.iter().enumerate() {
            for name in names {
                if path.starts_with(name) && best.as_ref().is_none_or(|(_, b)| name.len() > b.len()) {
                    best = Some((row, name.clone()));
                }
            }
        }
        best
    };
    let file_module: BTreeMap<String, Vec<String>> =
        krate.modules.iter().map(|(path, m)| (m.file.clone(), path.clone())).collect();
    let mut problems = Vec::new();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, module) in &krate.modules {
        if path.is_empty() {
            continue; // lib.rs: the root's re-exports.
        }
        let Some((row, entry)) = entry_of(path) else {
            problems.push(format!(
                "{}: module {} is in no row of the layer table",
                module.file,
                path.join("::")
            ));
            continue;
        };
        for used in &module.uses {
            let Some(file) = krate.resolve(used, 0) else { continue };
            if file == module.file || file == "lib.rs" {
                continue;
            }
            edges.entry(module.file.clone()).or_default().insert(file.clone());
            let Some((used_row, used_entry)) = entry_of(&file_module[&file]) else { continue };
            if used_entry != entry && used_row <= row {
                let how = if used_row == row { "beside it in" } else { "above it in" };
                problems.push(format!(
                    "{} ({}) uses {} ({}, {how} the table): {}",
                    module.file,
                    table[row].0,
                    file,
                    table[used_row].0,
                    used.join("::")
                ));
            }
        }
    }
    for circle in circles(&edges) {
        problems.push(format!("a circle of files: {}", circle.join(" ↔ ")));
    }
    problems.sort();
    problems.dedup();
    problems
}

#[test]
fn imports_follow_the_layer_table_and_no_files_form_a_circle() {
    let problems = layer_problems(&Crate::read());
    assert!(problems.is_empty(), "{} layer problems:\n{}", problems.len(), problems.join("\n"));
}

/// The test rejects what it is there to reject: the real crate with one import added to
/// kernel.rs, up the table (the whole count's `Counter`) or beside it (`boards`, a module of
/// kernel's own row). (A circle: `a_mod_rs_and_a_child_that_use_each_other_form_a_circle`.)
#[test]
fn an_import_up_the_table_is_rejected() {
    let with_line = |file: &str, line: &str| {
        let mut texts = source_texts();
        let (_, text) = texts.values_mut().find(|(f, _)| f == file).unwrap_or_else(|| panic!("no {file}"));
        text.insert_str(0, line);
        layer_problems(&Crate::from_texts(texts))
    };
    let up = with_line("kernel.rs", "use crate::count::Counter;\n");
    assert!(
        up.iter().any(|p| p.starts_with("kernel.rs (the sequential search and the boards) uses count.rs (the whole count, above it in the table): count::Counter")),
        "{up:#?}"
    );
    let beside = with_line("kernel.rs", "use crate::boards::BoardFormat;\n");
    assert!(
        beside.iter().any(|p| p.starts_with("kernel.rs") && p.contains("beside it in the table")),
        "{beside:#?}"
    );
}

#[test]
fn the_reader_sees_use_trees_and_inline_paths() {
    let tree = use_tree("crate::{a::{self, B as C}, d::*}");
    assert_eq!(
        tree,
        vec![
            (vec!["crate".into(), "a".into()], "a".into()),
            (vec!["crate".into(), "a".into(), "B".into()], "C".into()),
            (vec!["crate".into(), "d".into(), "*".into()], "*".into()),
        ]
    );
    let text = production_text(
        "use x; // crate::hidden\nfn f() { \"crate::no\"; }\n#[cfg(test)]\nmod tests {\n    use crate::t;\n}\n",
    );
    assert!(!text.contains("hidden") && !text.contains("crate::no") && !text.contains("crate::t"), "{text}");
}

#[test]
fn a_mod_rs_and_a_child_that_use_each_other_form_a_circle() {
    let edge = |from: &str, to: &[&str]| (from.to_string(), to.iter().map(|t| t.to_string()).collect());
    let edges: BTreeMap<String, BTreeSet<String>> = [
        edge("a/mod.rs", &["a/child.rs", "leaf.rs"]),
        edge("a/child.rs", &["a/mod.rs", "leaf.rs"]),
        edge("b.rs", &["a/mod.rs"]),
    ]
    .into_iter()
    .collect();
    assert_eq!(circles(&edges), vec![vec!["a/child.rs".to_string(), "a/mod.rs".to_string()]]);
}
