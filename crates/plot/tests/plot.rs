//! The plot tool on CSVs the study scripts of scripts/ wrote (tests/data/: `scaling-threads.sh 9
//! 2` and `scaling-n.sh 4 9 2` with `MAX_THREADS=3` on a 2-CPU machine, and `join-vs-kluev.sh
//! --runs 2 --isa portable 8:1 9:1:2:0` against a stand-in for Kluev's counter; the scripts
//! themselves are tested with the `nqueens` binary in the workspace root's tests/all/scripts.rs).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Copies the committed CSV `name` into a fresh folder (the tool writes its plots beside it).
fn fixture(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join(name);
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name), &to).unwrap();
    (dir, to)
}

fn plot(csv: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_nqueens-plot")).arg(csv).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn assert_png(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    assert!(bytes.len() > 1000, "{} is too small", path.display());
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{} is not a PNG", path.display());
}

#[test]
fn scaling_threads_draws_speedup_and_nodes_per_second() {
    let (dir, csv) = fixture("scaling-threads.csv");
    plot(&csv);
    for name in ["scaling-threads-speedup.png", "scaling-threads-nodes-per-second.png"] {
        assert_png(&dir.path().join(name));
    }
    let svg = std::fs::read_to_string(dir.path().join("scaling-threads-speedup.svg")).unwrap();
    // The ideal line stops at the machine's CPUs (the CSV's cores: 2), and the subtitle names
    // them and the threads.
    assert!(svg.contains("ideal (linear, to 2 CPUs)"), "{svg}");
    // Issue 40: each bar is labelled with the runs it spans.
    assert!(svg.contains("\n×2\n</text>"), "{svg}");
    assert!(svg.contains("logical CPUs), 1-3 threads: nqueens count N -j T"), "{svg}");
}

#[test]
fn scaling_n_draws_time_on_log_axes() {
    let (dir, csv) = fixture("scaling-n.csv");
    plot(&csv);
    assert_png(&dir.path().join("scaling-n-time.png"));
    let svg = std::fs::read_to_string(dir.path().join("scaling-n-time.svg")).unwrap();
    assert!(svg.contains("10⁻"), "log ticks written as powers of ten");
}

#[test]
fn join_vs_kluev_draws_ratio_and_cpu() {
    let (dir, csv) = fixture("vs.csv");
    plot(&csv);
    let svg = std::fs::read_to_string(dir.path().join("vs-ratio.svg")).unwrap();
    assert!(svg.contains("0.30 (issue 22, AVX2)") && svg.contains("9: 1/2, 1t"), "{svg}");
    assert!(svg.contains("nqueens portable / Kluev"), "{svg}");
    assert_png(&dir.path().join("vs-cpu.png"));
}

#[test]
fn plot_rejects_bad_input() {
    let no_args = Command::new(env!("CARGO_BIN_EXE_nqueens-plot")).output().unwrap();
    assert_eq!(no_args.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&no_args.stderr).contains("no CSV file given"));
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("odd.csv");
    std::fs::write(&odd, "a,b\n1,2\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_nqueens-plot")).arg(&odd).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown layout"));
    let missing =
        Command::new(env!("CARGO_BIN_EXE_nqueens-plot")).arg(dir.path().join("none.csv")).output().unwrap();
    assert_eq!(missing.status.code(), Some(1));
    // A value that is not a finite number is refused (it would stall the axes), not drawn.
    let nan = dir.path().join("vs.csv");
    std::fs::write(
        &nan,
        "date,host,cpu,commit,n,parts,part,threads,program,cpu_s,wall_s,peak_kb,result\n\
         d,h,c,x,8,1,0,1,nqueens,inf,0,1,92\nd,h,c,x,8,1,0,1,kluev,1,0,1,92\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_nqueens-plot")).arg(&nan).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a finite number"), "{out:?}");
}
