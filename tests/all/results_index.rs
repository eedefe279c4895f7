//! results/ as a benchmark suite (issue 31, part 5): one folder per study, each with a README.md
//! that opens with its machine line and its command, and an index, results/README.md, with one
//! row per folder. These tests read the files only (std::fs): a folder missing from the index, a
//! row naming a folder that does not exist, a folder without README.md, a README.md that does not
//! open with "Machine" and a "Command" line, or a loose file at the top of results/ fails them.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn results_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("results")
}

/// The folders under results/, and the plain files at its top other than README.md.
fn entries(dir: &Path) -> (BTreeSet<String>, Vec<String>) {
    let mut folders = BTreeSet::new();
    let mut loose = Vec::new();
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display())) {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().unwrap().is_dir() {
            folders.insert(name);
        } else if name != "README.md" {
            loose.push(name);
        }
    }
    (folders, loose)
}

/// The folder each row of the index's table names: the first backquoted word of its first cell,
/// without the trailing slash (`| [`2026-11-29-d4/`](2026-11-29-d4/README.md) | ... |`), with its
/// line number. The header and the separator row name none.
fn index_rows(index: &str) -> Vec<(usize, String)> {
    let mut rows = Vec::new();
    for (i, line) in index.lines().enumerate() {
        let Some(rest) = line.trim_start().strip_prefix('|') else { continue };
        let first = rest.split('|').next().unwrap_or("").trim();
        if first.is_empty() || first == "folder" || first.chars().all(|c| c == '-' || c == ':') {
            continue;
        }
        let name = first.split('`').nth(1).unwrap_or_else(|| {
            panic!("results/README.md line {}: no `folder/` in the first cell: {line}", i + 1)
        });
        rows.push((i + 1, name.trim_end_matches('/').to_string()));
    }
    rows
}

/// What is wrong with one study's README.md: it must have a `# ` title, then (first non-blank
/// line) the machine line, and a line starting with "Command" before the first `## ` section.
fn opening_problems(folder: &str, readme: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let mut lines = readme.lines();
    if !lines.next().is_some_and(|l| l.starts_with("# ")) {
        problems.push(format!("{folder}/README.md does not start with a `# ` title"));
    }
    let opening: Vec<&str> = lines.take_while(|l| !l.starts_with("## ")).collect();
    let first = opening.iter().find(|l| !l.trim().is_empty()).copied().unwrap_or("");
    if !(first.starts_with("Machine") || first.starts_with("**Machine")) {
        problems
            .push(format!("{folder}/README.md: the line after the title is not the machine line: {first:?}"));
    }
    if !opening.iter().any(|l| l.starts_with("Command") || l.starts_with("**Command")) {
        problems.push(format!(
            "{folder}/README.md: no line starting with \"Command\" before its first `## ` section"
        ));
    }
    problems
}

#[test]
fn every_results_folder_is_indexed_and_every_row_names_a_folder() {
    let dir = results_dir();
    let index_path = dir.join("README.md");
    let index = fs::read_to_string(&index_path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", index_path.display()));
    let (folders, loose) = entries(&dir);
    let rows = index_rows(&index);
    assert!(!rows.is_empty(), "results/README.md has no table rows");

    let mut problems = Vec::new();
    for name in &loose {
        problems
            .push(format!("results/{name} lies loose at the top of results/: give it a folder of its own"));
    }
    let mut named = BTreeSet::new();
    for (line, name) in &rows {
        if !named.insert(name.clone()) {
            problems.push(format!("results/README.md line {line}: {name}/ has a second row"));
        }
        if !folders.contains(name) {
            problems.push(format!("results/README.md line {line}: {name}/ does not exist under results/"));
        }
    }
    for name in folders.difference(&named) {
        problems.push(format!("results/{name}/ has no row in results/README.md"));
    }
    assert!(problems.is_empty(), "results/ and its index disagree:\n{}", problems.join("\n"));
}

#[test]
fn every_results_folder_has_a_readme_opening_with_machine_and_command() {
    let dir = results_dir();
    let (folders, _) = entries(&dir);
    let mut problems = Vec::new();
    for name in &folders {
        let readme = dir.join(name).join("README.md");
        match fs::read_to_string(&readme) {
            Ok(text) => problems.extend(opening_problems(name, &text)),
            Err(e) => problems.push(format!("results/{name}/README.md: {e}")),
        }
    }
    assert!(problems.is_empty(), "results/ folders without a proper README.md:\n{}", problems.join("\n"));
}

#[test]
fn the_index_checks_catch_what_they_should() {
    let index = "| folder | what | machine | state |\n|---|---|---|---|\n\
                 | [`a/`](a/README.md) | x | y | z |\n| `b/` | x | y | z |\n";
    assert_eq!(index_rows(index), vec![(3, "a".to_string()), (4, "b".to_string())]);
    assert!(opening_problems("a", "# T\n\nMachine: m.\nCommand: `c`.\n\n## S\n").is_empty());
    assert!(opening_problems("a", "# T\n\n**Machine.** m.\n\nCommand (c):\n").is_empty());
    assert_eq!(opening_problems("a", "# T\n\nIntro.\n\nMachine: m.\n## S\nCommand: c\n").len(), 2);
    assert_eq!(opening_problems("a", "Machine: m.\n# T\nCommand: c\n").len(), 2);
}
