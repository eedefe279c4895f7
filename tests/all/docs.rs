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

/// The examples of a document: each ```text block's `$ COMMAND` lines (a trailing `  # note`
/// cut off) with the lines that follow as its output, and the block's first line number.
fn examples(doc: &str) -> Vec<(usize, Vec<(String, String)>)> {
    let mut blocks = Vec::new();
    let mut block: Option<(usize, Vec<(String, String)>)> = None;
    for (i, line) in doc.lines().enumerate() {
        match &mut block {
            None if line.trim_end() == "```text" => block = Some((i + 1, Vec::new())),
            None => {}
            Some(_) if line.trim_end() == "```" => {
                let (at, cmds) = block.take().unwrap();
                if !cmds.is_empty() {
                    blocks.push((at, cmds));
                }
            }
            Some((_, cmds)) => match line.strip_prefix("$ ") {
                Some(cmd) => {
                    let cmd = cmd.split("  # ").next().unwrap().trim_end().to_string();
                    cmds.push((cmd, String::new()));
                }
                None => {
                    if let Some((_, out)) = cmds.last_mut() {
                        out.push_str(line);
                        out.push('\n');
                    }
                }
            },
        }
    }
    blocks
}

/// Makes an example's output comparable across runs and machines: times and other decimals
/// become `N.N`, the instruction-set level `ISA`, runs of spaces one space (a table's widths
/// follow its numbers), and trailing blank lines go.
fn comparable(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut words = Vec::new();
        for word in line.split(' ').filter(|w| !w.is_empty()) {
            let mut w = String::new();
            let mut rest = word;
            while let Some(i) = rest.find(|c: char| c.is_ascii_digit()) {
                w.push_str(&rest[..i]);
                let digits = rest[i..].find(|c: char| !c.is_ascii_digit()).map_or(rest.len(), |j| i + j);
                let after = &rest[digits..];
                if let Some(frac) = after.strip_prefix('.')
                    && frac.starts_with(|c: char| c.is_ascii_digit())
                {
                    let end = frac.find(|c: char| !c.is_ascii_digit()).unwrap_or(frac.len());
                    w.push_str("N.N");
                    rest = &frac[end..];
                } else {
                    w.push_str(&rest[i..digits]);
                    rest = after;
                }
            }
            w.push_str(rest);
            for isa in ["avx512", "avx2", "portable", "neon"] {
                w = w.replace(isa, "ISA");
            }
            words.push(w);
        }
        out.push_str(&words.join(" "));
        out.push('\n');
    }
    out.trim_end_matches('\n').to_string()
}

/// Issue 40 (first hour 6): the README's JSON and CSV examples lacked the `device` field the
/// binary prints. Every example of README.md and GUIDE.md with its output (a ```text block of `$
/// nqueens …` lines) is run here, each block in a folder of its own with `nqueens` on the PATH,
/// and its output (stdout and stderr, as a terminal shows them) compared with the document's,
/// times and the instruction-set level aside.
#[test]
fn the_examples_of_the_readme_and_the_guide_print_what_they_show() {
    let bin = assert_cmd::cargo::cargo_bin("nqueens");
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut ran = 0;
    for name in ["README.md", "GUIDE.md"] {
        let doc = std::fs::read_to_string(root.join(name)).unwrap();
        for (at, cmds) in examples(&doc) {
            let dir = tempfile::tempdir().unwrap();
            for (cmd, want) in cmds {
                let out = std::process::Command::new("bash")
                    .args(["-c", &format!("{cmd} 2>&1")])
                    .current_dir(dir.path())
                    .env("PATH", &path)
                    .env_remove("NQUEENS_ISA")
                    .output()
                    .unwrap();
                let got = String::from_utf8_lossy(&out.stdout);
                assert_eq!(
                    comparable(&got),
                    comparable(&want),
                    "{name}, the block at line {at}: `{cmd}` printed\n{got}"
                );
                ran += 1;
            }
        }
    }
    eprintln!("{ran} examples run");
    assert!(ran >= 10, "only {ran} examples found");
}

#[test]
fn examples_are_read_and_compared_as_documented() {
    let doc = "text\n```text\n$ nqueens count 8  # a note\n  8   92   0.001   avx512\n\n$ echo x\nx\n```\n```sh\n$ not run\n```\n";
    let blocks = examples(doc);
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0].0, 2);
    assert_eq!(
        blocks[0].1,
        [
            ("nqueens count 8".to_string(), "  8   92   0.001   avx512\n\n".to_string()),
            ("echo x".to_string(), "x\n".to_string())
        ]
    );
    assert_eq!(comparable("  8   92   0.001   avx512\n\n"), "8 92 N.N ISA");
    assert_eq!(comparable("{\"seconds\":0.00271038,\"isa\":\"avx2\"}"), "{\"seconds\":N.N,\"isa\":\"ISA\"}");
    assert_ne!(comparable("8 92"), comparable("8 93"));
}
