//! What documents the command line: the manual pages, the completions, and the README's
//! examples run against the binary.

use crate::common::nqueens;

/// Issue 40: `man nqueens` pointed to nqueens-count(1), nqueens-plan(1) and the rest, which did
/// not exist. `nqueens man --dir DIR` writes the top page and one per subcommand, each the page
/// `nqueens man [SUBCOMMAND]` prints, and doc/man/ holds them committed (regenerate: `nqueens man
/// --dir doc/man`).
#[test]
fn every_manual_page_the_top_page_names_is_written_and_committed() {
    let dir = tempfile::tempdir().unwrap();
    let out = nqueens(&["man", "--dir", dir.path().to_str().unwrap()]).assert().success();
    let listed = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let subs = ["count", "merge", "solve", "check", "plan", "devices", "completions", "man"];
    let mut names = vec!["nqueens.1".to_string()];
    names.extend(subs.iter().map(|s| format!("nqueens-{s}.1")));
    let want: Vec<String> = names.iter().map(|n| dir.path().join(n).display().to_string()).collect();
    assert_eq!(listed.lines().collect::<Vec<_>>(), want);
    let top = std::fs::read_to_string(dir.path().join("nqueens.1")).unwrap();
    let committed = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("doc/man");
    for (i, name) in names.iter().enumerate() {
        let page = std::fs::read_to_string(dir.path().join(name)).unwrap();
        if i > 0 {
            // The top page points to it, and `man SUB` prints it.
            assert!(top.contains(&format!("nqueens\\-{}(1)", subs[i - 1])), "{name}");
            let printed = nqueens(&["man", subs[i - 1]]).assert().success().get_output().stdout.clone();
            assert_eq!(String::from_utf8(printed).unwrap(), page, "{name}");
            assert!(page.contains(&format!(".TH nqueens-{} 1", subs[i - 1])), "{name}");
        }
        let kept = std::fs::read_to_string(committed.join(name)).unwrap_or_default();
        assert!(kept == page, "doc/man/{name} is stale: nqueens man --dir doc/man");
    }
    assert_eq!(std::fs::read_dir(&committed).unwrap().count(), names.len(), "doc/man holds only the pages");
    let printed = nqueens(&["man"]).assert().success().get_output().stdout.clone();
    assert_eq!(String::from_utf8(printed).unwrap(), top);
    crate::common::usage_error(
        &["man", "nope"],
        "no manual page for 'nope': use one of count, merge, solve, check, plan, devices, completions, man",
    );
}
