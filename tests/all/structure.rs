//! The bar of issue 31 as a test, over the workspace's sources: the library's root declares at
//! most 8 public modules, no `#[target_feature]` stands outside `crates/core/src/arch/`, no
//! production file is over 700 lines before its tests, and `.ci/run` runs rustfmt and clippy.
//! (The layer table and the circles of files: `crates/core/tests/layers.rs`; results/'s
//! index: `results_index.rs`.)

use std::fs;
use std::path::{Path, PathBuf};

/// The longest a production file may be, in lines before its `#[cfg(test)]` module (issue 31:
/// one concern a file).
const MAX_LINES: usize = 700;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, but `tests.rs` files and `tests/` folders.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "tests" && name != "target" {
                sources(&path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" {
            out.push(path);
        }
    }
}

/// The production source files of the workspace: `src/` of the CLI and of every crate.
fn production_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    sources(&root().join("src"), &mut files);
    for krate in fs::read_dir(root().join("crates")).unwrap() {
        let src = krate.unwrap().path().join("src");
        if src.is_dir() {
            sources(&src, &mut files);
        }
    }
    files.sort();
    files
}

/// The lines of `text` before its first `#[cfg(test)]` line (all of them without one).
fn lines_before_tests(text: &str) -> usize {
    text.lines().take_while(|line| line.trim() != "#[cfg(test)]").count()
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root()).unwrap().to_string_lossy().into_owned()
}

#[test]
fn the_library_root_declares_at_most_8_public_modules() {
    let lib = fs::read_to_string(root().join("crates/core/src/lib.rs")).unwrap();
    // `pub mod $name` in the macro of the internal modules is public with `internals` only.
    let public: Vec<&str> =
        lib.lines().filter(|line| line.trim_start().starts_with("pub mod ") && !line.contains('$')).collect();
    assert!(public.len() <= 8, "{} public modules in crates/core/src/lib.rs: {public:#?}", public.len());
}

#[test]
fn no_target_feature_outside_arch() {
    let arch = root().join("crates/core/src/arch");
    let outside: Vec<String> = production_files()
        .into_iter()
        .filter(|f| !f.starts_with(&arch))
        .filter(|f| fs::read_to_string(f).unwrap().contains("target_feature("))
        .map(|f| relative(&f))
        .collect();
    assert!(outside.is_empty(), "#[target_feature] outside crates/core/src/arch/: {outside:?}");
}

#[test]
fn no_production_file_is_over_700_lines_before_its_tests() {
    let files = production_files();
    assert!(files.len() > 50, "the walk found only {} files", files.len());
    let long: Vec<String> = files
        .iter()
        .map(|f| (relative(f), lines_before_tests(&fs::read_to_string(f).unwrap())))
        .filter(|(_, lines)| *lines > MAX_LINES)
        .map(|(f, lines)| format!("{f}: {lines} lines"))
        .collect();
    assert!(long.is_empty(), "over {MAX_LINES} lines before the tests: {long:#?}");
    // The count stops at the tests: a file of 650 lines and a test module of 200 passes.
    assert_eq!(lines_before_tests("a\nb\n#[cfg(test)]\nmod tests {}\n"), 2);
    assert_eq!(lines_before_tests("a\nb\n"), 2);
}

#[test]
fn ci_runs_rustfmt_and_clippy_with_warnings_as_errors() {
    let ci = fs::read_to_string(root().join(".ci/run")).unwrap();
    let commands: Vec<&str> = ci.lines().map(str::trim).filter(|l| !l.starts_with('#')).collect();
    assert!(
        commands.iter().any(|l| l.starts_with("cargo fmt --all --check")),
        ".ci/run runs no rustfmt check"
    );
    assert!(
        commands.iter().any(|l| l.starts_with("cargo clippy")
            && l.contains("--workspace")
            && l.ends_with("-D warnings")),
        ".ci/run runs no clippy with -D warnings over the workspace"
    );
}
