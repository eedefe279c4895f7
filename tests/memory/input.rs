//! Input readers keep memory flat: `check` fed hundreds of megabytes on stdin, `merge` given a
//! 59 MB shard file (issue 15).

use crate::common;

/// Runs `nqueens args` with `feed` writing its standard input through a pipe (generated on the
/// fly, never held whole), and measures the child's peak RSS ([`common::measure`]).
fn fed(
    args: &[&str],
    feed: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()> + Send + 'static,
) -> common::Measured {
    common::measure(args, f64::INFINITY, Some(Box::new(feed)))
}

/// Writes `chunk` repeatedly until `total` bytes went out.
fn repeat(w: &mut dyn std::io::Write, chunk: &[u8], total: usize) -> std::io::Result<()> {
    let big: Vec<u8> = chunk.iter().copied().cycle().take(chunk.len() * ((1 << 16) / chunk.len())).collect();
    let mut left = total;
    while left > 0 {
        let n = left.min(big.len());
        w.write_all(&big[..n])?;
        left -= n;
    }
    Ok(())
}

const MIB: u64 = 1 << 20;

#[test]
fn check_memory_stays_flat_on_hundreds_of_megabytes() {
    // Issue 15: `yes QQ | head -c 200000000 | nqueens check -` took 2 GB (one block without a
    // blank line). 300 MB here: one malformed board, and memory independent of the input.
    let run = fed(&["check", "-"], |w| repeat(w, b"QQ\n", 300_000_000));
    eprintln!("check of 300 MB of 'QQ' lines: peak RSS {} KiB", run.peak / 1024);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "line 1: board 1: malformed: more than 63 rows without a blank line, where its first row has 2 squares (is a blank line missing between boards?)\n\
         no valid board (board format): 1 read, 0 valid, 0 distinct, 1 problem; completeness unknown: no valid board gives the list's size (give --size N)\n"
    );
    assert!(run.peak < 64 * MIB, "peak RSS {} MiB", run.peak / MIB);

    // One 60 MB cols line (1.47 GB in issue 15; then refused at its first kilobyte): since
    // issue 23 a line of any length is a board, and this one stops being kept at its second
    // column.
    let run = fed(&["check"], |w| repeat(w, b"1 ", 60_000_000));
    eprintln!("check of a 60 MB cols line: peak RSS {} KiB", run.peak / 1024);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "line 1: board 1: the queens at row 1, column 1 and row 2, column 1 share a column\n\
         no valid board (cols format): 1 read, 0 valid, 0 distinct, 1 problem; completeness unknown: no valid board gives the list's size (give --size N)\n"
    );
    assert!(run.peak < 64 * MIB, "peak RSS {} MiB", run.peak / MIB);
    // A 100 MB cols line whose columns never share a line (1 3 5 …, 12.5 million of them) could
    // be a board until it ends, so it is kept: 4 bytes a column and a few bits a row, with the
    // slack of a growing list (66 MiB here), less than the input.
    let run = fed(&["check"], |w| {
        let mut line = Vec::with_capacity(1 << 16);
        let mut c = 1u64;
        let mut sent = 0;
        while sent < 100_000_000 {
            line.clear();
            while line.len() < 60_000 {
                line.extend_from_slice(format!("{c} ").as_bytes());
                c += 2;
            }
            w.write_all(&line)?;
            sent += line.len();
        }
        w.write_all(b"\n")
    });
    eprintln!("check of a 100 MB cols line of 1 3 5 ...: peak RSS {} KiB", run.peak / 1024);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.starts_with("line 1: board 1: row "), "{}", run.stdout);
    assert!(run.stdout.contains(" is outside 1..="), "{}", run.stdout);
    assert!(run.peak < 96 * MIB, "peak RSS {} MiB", run.peak / MIB);

    // A 50 MB leetcode array (1.22 GB before) streams: 1.7 million copies of one board.
    let board = br#"[".Q..","...Q","Q...","..Q."],"#;
    let copies = 50_000_000 / board.len();
    let run = fed(&["check"], move |w| {
        w.write_all(b"[")?;
        repeat(w, board, board.len() * copies)?;
        w.write_all(br#"["..Q.","Q...","...Q",".Q.."]]"#)
    });
    eprintln!("check of a 50 MB leetcode array: peak RSS {} KiB", run.peak / 1024);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.ends_with(&format!(
        "4×4 boards (leetcode format): {} read, {} valid, 2 distinct, {} problems; complete: all 2 solutions of n = 4 (OEIS A000170)\n",
        copies + 1,
        copies + 1,
        copies - 1
    )), "{}", &run.stdout[run.stdout.len().saturating_sub(300)..]);
    assert!(run.peak < 64 * MIB, "peak RSS {} MiB", run.peak / MIB);
}

#[test]
fn a_huge_shard_file_is_refused_without_reading_it_all() {
    // Issue 15: a 59 MB shard listing 7.5 M ids took 587 MB to reject.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("huge.json");
    {
        use std::io::Write;
        let mut w = std::io::BufWriter::new(std::fs::File::create(&f).unwrap());
        write!(w, r#"{{"format":"nqueens-shard","format_version":1,"n":21,"algorithm":"d4","split_depth":3,"subproblems":7500000,"shard":0,"shards":1,"ids":["#).unwrap();
        for i in 0..7_500_000u32 {
            write!(w, "{}{i}", if i == 0 { "" } else { "," }).unwrap();
        }
        write!(w, r#"],"solutions":0,"classes":{{"8":0,"4":0,"2":0,"1":0}},"nodes":null,"seconds":1.0,"threads":1,"version":"0.1.0","checksum":"crc32:00000000"}}"#).unwrap();
    }
    let size = std::fs::metadata(&f).unwrap().len();
    assert!(size > 55_000_000, "{size}");
    let before = common::fingerprint(&f);
    let (code, err, peak) = common::peak_rss(&["merge", f.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("huge.json is not a shard result of `nqueens count --shard`"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(peak < 64 << 20, "peak RSS {} MiB", peak >> 20);
    assert_eq!(common::fingerprint(&f), before);
}
