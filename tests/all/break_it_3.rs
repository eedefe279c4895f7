//! Issue 32 ("Break-it round 3"): each finding of the third break-it round on its exact input.
//! Every test asserts the message, the exit code and what became of the files.

use std::io::Write;
use std::path::Path;

use crate::common::{nqueens, peak_rss, under_address_limit};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Makes a FIFO at `path` and feeds it `line` `times` times from a thread, as
/// `yes LINE | head -n TIMES > path` would a file, without the file on disk; the writer stops
/// quietly when the reader goes (EPIPE). Returns the thread, which yields the lines written.
fn feed_fifo(path: &Path, line: &'static [u8], times: u64) -> std::thread::JoinHandle<u64> {
    let c = std::ffi::CString::new(s(path)).unwrap();
    // SAFETY: mkfifo with a valid, NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "{}", std::io::Error::last_os_error());
    let path = path.to_path_buf();
    std::thread::spawn(move || {
        let mut fifo = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        let chunk: Vec<u8> = line.iter().copied().cycle().take(line.len() * 8192).collect();
        let mut written = 0;
        while written < times {
            let k = (times - written).min(8192);
            if fifo.write_all(&chunk[..line.len() * k as usize]).is_err() {
                break;
            }
            written += k;
        }
        written
    })
}

/// Finding 1: `yes d0.json | head -c 800000000 > list` (100 M names), then `prlimit
/// --as=4000000000 nqueens merge --files-from list` grew to 3.49 GB and aborted ("memory
/// allocation of 7 bytes failed", SIGABRT). Now refused after 10^6 names, in tens of MB.
#[test]
fn finding_1_a_list_of_100_million_names_is_refused_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("list");
    let writer = feed_fifo(&list, b"d0.json\n", 100_000_000);
    let (code, stdout, stderr, _) = under_address_limit(4_000_000_000, &["merge", "--files-from", s(&list)]);
    let written = writer.join().unwrap();
    assert_eq!((code, stdout.as_str()), (Some(2), ""), "{stderr}");
    assert_eq!(
        stderr,
        "nqueens: error: more than 1000000 shard result files are named: a merge takes at most one per shard, and K <= 1000000\n"
    );
    // The merge stopped reading soon after the millionth name (the pipe holds a few chunks).
    assert!(written < 2_000_000, "{written} names written before the merge stopped");

    // Its memory: the same list again, its peak resident memory measured.
    let list = dir.path().join("list2");
    let writer = feed_fifo(&list, b"d0.json\n", 100_000_000);
    let (code, stderr, peak) = peak_rss(&["merge", "--files-from", s(&list)]);
    writer.join().unwrap();
    assert_eq!(code, 2, "{stderr}");
    assert!(peak < 200 << 20, "peak {} MiB", peak >> 20);
}

/// Finding 1: `--files-from /dev/zero` ended with exit 2, but only after 1.05 GB; a line is
/// now read to PATH_MAX at most.
#[test]
fn finding_1_a_list_line_longer_than_path_max_is_refused() {
    let (code, stderr, peak) = peak_rss(&["merge", "--files-from", "/dev/zero"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "nqueens: error: line 1 of the list of shard results /dev/zero is longer than 4095 bytes: give one path a line, \
         each at most PATH_MAX (4096 bytes with its newline)\n"
    );
    assert!(peak < 50 << 20, "peak {} MiB", peak >> 20);
    // The longest path that fits is read as a name (and is then no file); one byte more is not.
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("list");
    std::fs::write(&list, format!("{}\n", "a".repeat(4095))).unwrap();
    let out = nqueens(&["merge", "--files-from", s(&list)]).assert().code(2).get_output().clone();
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with("nqueens: error: cannot read shard result aaaa")
    );
    std::fs::write(&list, format!("x.json\n{}\n", "a".repeat(4096))).unwrap();
    crate::common::usage_error(
        &["merge", "--files-from", s(&list)],
        &format!("line 2 of the list of shard results {} is longer than 4095 bytes", s(&list)),
    );
}

/// Finding 1: a list may hold at most 256 MiB of names (a million of 268 bytes each), what bounds
/// the merge's memory with the caps above: 70,000 names of 4,000 bytes are refused at the 67,109th.
#[test]
fn finding_1_a_list_of_more_than_256_mib_of_names_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("list");
    let line: &'static [u8] = Box::leak(format!("{}\n", "b".repeat(4000)).into_bytes().into_boxed_slice());
    let writer = feed_fifo(&list, line, 70_000);
    let (code, stdout, stderr, _) = under_address_limit(4_000_000_000, &["merge", "--files-from", s(&list)]);
    writer.join().unwrap();
    assert_eq!((code, stdout.as_str()), (Some(2), ""));
    assert_eq!(
        stderr,
        format!(
            "nqueens: error: the list of shard results {} holds more than 268435456 bytes of names (at line 67109): a merge \
             takes at most 1000000 files\n",
            s(&list)
        )
    );
}

/// Finding 1: a list that names a file twice (or names a file and its folder) cannot merge,
/// and is refused before any file is read.
#[test]
fn finding_1_a_file_named_twice_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("r");
    std::fs::create_dir(&folder).unwrap();
    for i in 0..2 {
        let out = folder.join(format!("d{i}.json"));
        nqueens(&["count", "8", "-j", "1", "--shard", &format!("{i}/2"), "--output", s(&out)])
            .assert()
            .success();
    }
    let (d0, d1) = (folder.join("d0.json"), folder.join("d1.json"));
    let before = (std::fs::read(&d0).unwrap(), std::fs::read(&d1).unwrap());
    let list = dir.path().join("list");
    std::fs::write(&list, format!("{}\n{}\n{}\n", s(&d0), s(&d1), s(&d0))).unwrap();
    let twice = format!(
        "nqueens: error: the shard result {} is named twice: give each shard's result once\n",
        s(&d0)
    );
    let out = nqueens(&["merge", "--files-from", s(&list)]).assert().code(2).stdout("").get_output().clone();
    assert_eq!(String::from_utf8(out.stderr).unwrap(), twice);
    let out = nqueens(&["merge", s(&folder), s(&d0)]).assert().code(2).stdout("").get_output().clone();
    assert_eq!(String::from_utf8(out.stderr).unwrap(), twice);
    assert_eq!((std::fs::read(&d0).unwrap(), std::fs::read(&d1).unwrap()), before);
    // Once each, they merge.
    std::fs::write(&list, format!("{}\n{}\n", s(&d1), s(&d0))).unwrap();
    nqueens(&["merge", "--files-from", s(&list), "--format", "bfile"]).assert().success().stdout("8 92\n");
}
