//! Memory that does not grow with the input, and allocations checked against the memory the
//! process may use (issue 15): journals are read line by line, and boards or thread counts that
//! would not fit are refused with one line and exit 2, never an abort.

mod common;

use std::io::Write;
use std::path::Path;

use common::{nqueens, peak_rss};

/// Returns the CRC-32 and length of the file at `path`, read in pieces (the files here are
/// hundreds of MB).
fn fingerprint(path: &Path) -> (u32, u64) {
    let mut f = std::fs::File::open(path).unwrap();
    let mut hasher = crc32fast::Hasher::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut len = 0;
    loop {
        let got = std::io::Read::read(&mut f, &mut buf).unwrap();
        if got == 0 {
            return (hasher.finalize(), len);
        }
        hasher.update(&buf[..got]);
        len += got as u64;
    }
}

/// The command every journal test here resumes, and the first two lines of its journal.
fn journal_start(dir: &Path) -> (Vec<String>, String, String) {
    let j = dir.join("q10.journal");
    let args: Vec<String> = ["count", "10", "--algorithm", "mirror", "--split-depth", "3", "--checkpoint"]
        .iter()
        .map(|s| s.to_string())
        .chain([j.to_str().unwrap().to_string()])
        .collect();
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    nqueens(&refs).assert().success();
    let text = std::fs::read_to_string(&j).unwrap();
    let mut lines = text.split_inclusive('\n');
    let (header, entry) = (lines.next().unwrap().to_string(), lines.next().unwrap().to_string());
    (args, header, entry)
}

/// Issue 15: the journal reader read the whole file before looking at it; a 256 MB journal of
/// one endless line, or of 4 million lines repeating one entry, took its size in memory. Both
/// are refused at the first line that shows the damage, in a few MiB, the file untouched.
#[test]
fn a_huge_journal_is_refused_with_flat_memory() {
    let dir = tempfile::tempdir().unwrap();
    let (args, header, entry) = journal_start(dir.path());
    let journal = Path::new(args.last().unwrap());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // One endless line after the header.
    {
        let mut w = std::io::BufWriter::new(std::fs::File::create(journal).unwrap());
        w.write_all(header.as_bytes()).unwrap();
        let block = vec![b'7'; 1 << 20];
        for _ in 0..256 {
            w.write_all(&block).unwrap();
        }
    }
    let before = fingerprint(journal);
    assert!(before.1 > 256 << 20);
    let (code, err, peak) = peak_rss(&args);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("line 2 is corrupt: it is longer than 1024 bytes, which no journal line is; the file was left untouched"),
        "{err}"
    );
    assert!(peak < 32 << 20, "peak RSS {} MiB", peak >> 20);
    assert_eq!(fingerprint(journal), before);
    // Four million copies of one entry line.
    {
        let mut w = std::io::BufWriter::new(std::fs::File::create(journal).unwrap());
        w.write_all(header.as_bytes()).unwrap();
        for _ in 0..4_000_000 {
            w.write_all(entry.as_bytes()).unwrap();
        }
    }
    let before = fingerprint(journal);
    assert!(before.1 > 150 << 20, "{}", before.1);
    let (code, err, peak) = peak_rss(&args);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("line 3 is corrupt: subproblem id ") && err.contains(" is recorded twice"), "{err}");
    assert!(peak < 32 << 20, "peak RSS {} MiB", peak >> 20);
    assert_eq!(fingerprint(journal), before);
    // A file of one endless line that is no journal at all (say --checkpoint names a disk image).
    {
        let mut w = std::io::BufWriter::new(std::fs::File::create(journal).unwrap());
        let block = vec![0u8; 1 << 20];
        for _ in 0..64 {
            w.write_all(&block).unwrap();
        }
    }
    let before = fingerprint(journal);
    let (code, err, peak) = peak_rss(&args);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 1 is corrupt: it is longer than 1024 bytes"), "{err}");
    assert!(peak < 32 << 20, "peak RSS {} MiB", peak >> 20);
    assert_eq!(fingerprint(journal), before);
}
