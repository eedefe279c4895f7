use super::*;
use crate::shard::ShardId;
use nqueens::{Classes, plan::Tally};

fn header() -> Header {
    Header {
        n: 9,
        algorithm: "mirror".into(),
        split_depth: 2,
        subproblems: 30,
        shard: None,
        version: "0.1.0".into(),
    }
}

fn entry(id: usize, solutions: u128) -> Entry {
    Entry { id, tally: Tally { solutions, ..Tally::default() }, nodes_counted: false, micros: None }
}

fn text(entries: &[Entry]) -> String {
    let mut s = seal(&header().body());
    for e in entries {
        s.push_str(&seal(&e.body()));
    }
    s
}

#[test]
fn lines_round_trip() {
    let h = Header { shard: Some(ShardId { index: 2, count: 7 }), ..header() };
    let line = seal(&h.body());
    assert!(line.starts_with(
        "nqueens-journal 1 n=9 algorithm=mirror split_depth=2 subproblems=30 shard=2/7 version=0.1.0 crc32="
    ));
    assert_eq!(Header::parse(unseal(line.trim_end()).unwrap()), Ok(h));
    let e = Entry {
        id: 17,
        tally: Tally {
            solutions: u128::MAX,
            classes: Classes { orbit1: 1, orbit2: 2, orbit4: 3, orbit8: 4 },
            nodes: 99,
        },
        nodes_counted: true,
        micros: Some(12_000_345),
    };
    let line = seal(&e.body());
    let start = format!("id=17 solutions={} classes=4,3,2,1 nodes=99 seconds=12.000345 crc32=", u128::MAX);
    assert!(line.starts_with(&start), "{line}");
    assert_eq!(Entry::parse(unseal(line.trim_end()).unwrap()), Ok(e));
    // A line of a journal from before `seconds`: read, as no time.
    let old = seal("id=3 solutions=40 classes=0,0,0,0 nodes=-");
    assert_eq!(Entry::parse(unseal(old.trim_end()).unwrap()), Ok(entry(3, 40)));
    for bad in ["1", "1.5", "-1.000000", "1.00000x", ".000001", "18446744073709551615.000000"] {
        let line = seal(&format!("id=3 solutions=40 classes=0,0,0,0 nodes=- seconds={bad}"));
        let err = Entry::parse(unseal(line.trim_end()).unwrap()).unwrap_err();
        assert!(err.contains("is not a number of seconds"), "{bad}: {err}");
    }
    assert_eq!(spent_micros(&[e, entry(3, 40), Entry { micros: Some(5), ..e }]), 12_000_345);
    let plain = entry(3, 40);
    assert!(seal(&plain.body()).contains("nodes=-"));
    assert_eq!(Entry::parse(unseal(seal(&plain.body()).trim_end()).unwrap()), Ok(plain));
}

#[test]
fn a_torn_last_line_is_reported_not_fatal() {
    let mut s = text(&[entry(0, 4), entry(5, 6)]);
    let valid = s.len() as u64;
    s.push_str("id=7 solut");
    let c = parse(Path::new("j"), s.as_bytes(), |_| true).unwrap();
    assert_eq!(c.entries, vec![entry(0, 4), entry(5, 6)]);
    assert_eq!(c.torn.as_deref(), Some("id=7 solut"));
    assert_eq!(c.valid_len, valid);
}

#[test]
fn damage_is_an_error_naming_the_line() {
    let s = text(&[entry(0, 4), entry(5, 64)]);
    let flipped = s.replace("solutions=64", "solutions=65");
    let err = parse(Path::new("j"), flipped.as_bytes(), |_| true).unwrap_err().to_string();
    assert!(err.contains("line 3 is corrupt: checksum mismatch"), "{err}");
    let twice = text(&[entry(5, 4), entry(5, 4)]);
    let err = parse(Path::new("j"), twice.as_bytes(), |_| true).unwrap_err().to_string();
    assert!(err.contains("line 3") && err.contains("recorded twice"), "{err}");
    let outside = text(&[entry(30, 4)]);
    let err = parse(Path::new("j"), outside.as_bytes(), |_| true).unwrap_err().to_string();
    assert!(err.contains("out of range 0..30"), "{err}");
    let err = parse(Path::new("j"), text(&[entry(4, 1)]).as_bytes(), |id| id != 4).unwrap_err().to_string();
    assert!(err.contains("does not belong to this run's shard"), "{err}");
    let err = parse(Path::new("j"), b"hello\n", |_| true).unwrap_err().to_string();
    assert!(err.contains("line 1 is corrupt"), "{err}");
}

#[test]
fn long_or_binary_lines_are_refused_where_they_start() {
    // A line longer than any journal line, torn or not, is refused at its first KiB.
    let mut s = text(&[entry(0, 4)]);
    s.push_str(&"9".repeat(5000));
    let err = parse(Path::new("j"), s.as_bytes(), |_| true).unwrap_err().to_string();
    assert!(
        err.contains("line 3 is corrupt: it is longer than 1024 bytes, which no journal line is"),
        "{err}"
    );
    s.push('\n');
    let err = parse(Path::new("j"), s.as_bytes(), |_| true).unwrap_err().to_string();
    assert!(err.contains("line 3 is corrupt: it is longer than 1024 bytes"), "{err}");
    let err = parse(Path::new("j"), "x".repeat(2000).as_bytes(), |_| true).unwrap_err().to_string();
    assert!(err.contains("line 1 is corrupt: it is longer than 1024 bytes"), "{err}");
    // Bytes that are not UTF-8 name their line; a torn tail of them is only dropped.
    let mut b = text(&[entry(0, 4)]).into_bytes();
    b.extend_from_slice(b"\xff\xfe\n");
    let err = parse(Path::new("j"), &b, |_| true).unwrap_err().to_string();
    assert!(err.contains("line 3 is corrupt: it is not UTF-8 text"), "{err}");
    b.truncate(b.len() - 1);
    assert_eq!(parse(Path::new("j"), &b, |_| true).unwrap().torn.as_deref(), Some("\u{fffd}\u{fffd}"));
    // The header alone, or nothing.
    let err = parse(Path::new("j"), b"", |_| true).unwrap_err().to_string();
    assert!(err.contains("line 1 is corrupt: the header line is missing"), "{err}");
    assert!(parse(Path::new("j"), text(&[]).as_bytes(), |_| true).unwrap().entries.is_empty());
}

#[test]
fn header_differences_name_the_fields() {
    let other = Header { n: 10, version: "9.9.9".into(), ..header() };
    let d = header().differences(&other);
    assert_eq!(
        d,
        vec![
            "n = 9 in the journal, 10 in this command",
            "program version 0.1.0 in the journal, 9.9.9 in this command"
        ]
    );
    assert!(header().differences(&header()).is_empty());
}

#[test]
fn open_append_resume() {
    let dir = std::env::temp_dir().join(format!("nqueens-journal-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("j.txt");
    let _ = std::fs::remove_file(&path);
    let (j, resumed) = Journal::open(&path, &header(), |_| true, |_| None).unwrap();
    assert!(resumed.entries.is_empty());
    let ((), synced) = j.run_syncing(|| {
        j.append(&entry(3, 8)).unwrap();
        j.append(&entry(1, 2)).unwrap();
    });
    synced.unwrap();
    drop(j);
    // A torn tail is cut off on reopening, and the next line starts cleanly.
    let mut f = OpenOptions::new().append(true).open(&path).unwrap();
    f.write_all(b"id=9 sol").unwrap();
    let (j, resumed) = Journal::open(&path, &header(), |_| true, |_| None).unwrap();
    assert_eq!(resumed.entries, vec![entry(3, 8), entry(1, 2)]);
    assert_eq!(resumed.torn.as_deref(), Some("id=9 sol"));
    j.append(&entry(9, 1)).unwrap();
    drop(j);
    let (_, resumed) = Journal::open(&path, &header(), |_| true, |_| None).unwrap();
    assert_eq!(resumed.entries.len(), 3);
    // A second open while the first is alive is refused; after it ends, the lock is free.
    let (first, _) = Journal::open(&path, &header(), |_| true, |_| None).unwrap();
    let err = Journal::open(&path, &header(), |_| true, |_| None).err().unwrap();
    assert!(err.to_string().contains("is in use by another running nqueens"), "{err}");
    drop(first);
    // Another n: an error, and the bytes stay as they were.
    let before = std::fs::read(&path).unwrap();
    let err = Journal::open(&path, &Header { n: 10, ..header() }, |_| true, |_| None).err().unwrap();
    assert!(err.to_string().contains("n = 9 in the journal, 10 in this command"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}
