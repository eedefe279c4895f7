//! The rules for the paths a count writes (`--checkpoint`, `--output`, `--breakdown`), checked
//! before any work: a regular file or a new one, in a folder that exists and can be written to,
//! not the file standard output or standard error is on, and not one path for two outputs.

use std::fs;
use std::path::{Path, PathBuf};

use super::UsageError;
use crate::cli::CountArgs;

/// Refuses a checkpoint that is not a regular file (a device, a pipe or a folder would be read
/// without end or replaced) or is standard output's file (the results table was written over
/// the journal's header: issue 32), and one path given for two outputs (the journal would be
/// lost).
pub fn check_paths(args: &CountArgs) -> Result<(), UsageError> {
    // "-" is standard input or output to most tools, but these flags write files: a file named
    // "-" appeared where the user meant the terminal.
    for (flag, path) in
        [("--checkpoint", &args.checkpoint), ("--output", &args.output), ("--breakdown", &args.breakdown)]
    {
        if path.as_deref() == Some(Path::new("-")) {
            return Err(UsageError(format!(
                "{flag} -: this flag writes a file, not standard output: give the path of a file (./- for a file named -)"
            )));
        }
    }
    if let Some(path) = &args.checkpoint {
        if fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            return Err(UsageError(format!(
                "checkpoint {} is not a regular file: give the path of a journal file (new or to resume)",
                shown(path)
            )));
        }
        let dir = output_folder(path);
        if dir.exists() && !dir.is_dir() {
            return Err(UsageError(format!(
                "checkpoint {}: {} is a file, not a folder: give a path in an existing folder",
                shown(path),
                shown(&dir)
            )));
        }
        if !dir.exists() {
            return Err(UsageError(format!(
                "checkpoint {}: the folder {} does not exist: give a path in an existing folder",
                shown(path),
                shown(&dir)
            )));
        }
        if let Some(stream) = standard_stream(path) {
            let why = match stream {
                "output" => "the results would be written over the journal",
                _ => "the journal would be written among the messages",
            };
            return Err(UsageError(format!(
                "checkpoint {} is the file standard {stream} writes to: {why}; give the journal a file of its own",
                shown(path)
            )));
        }
    }
    let named =
        [("--checkpoint", &args.checkpoint), ("--output", &args.output), ("--breakdown", &args.breakdown)];
    for (i, (a, pa)) in named.iter().enumerate() {
        for (b, pb) in &named[i + 1..] {
            if let (Some(x), Some(y)) = (pa, pb)
                && same_file(x, y)
            {
                return Err(UsageError(format!(
                    "{a} and {b} name the same file {}: give each its own path",
                    shown(x)
                )));
            }
        }
    }
    // The results are written when the run ends, which can be hours away: a folder that is
    // missing or cannot be written to is found now, before any work.
    for (flag, path) in [("--output", &args.output), ("--breakdown", &args.breakdown)] {
        if let Some(path) = path {
            writable_folder(flag, path)?;
        }
    }
    Ok(())
}

/// Refuses an output `path` (given as `flag`) that is a folder, a device or a pipe (`/dev/null`
/// lost the shard's result: issue 32), the file standard output writes to, a checkpoint
/// journal ([`is_journal`]), or whose folder does
/// not exist or does not let this process create a file in it (probed with a temporary file,
/// removed at once).
fn writable_folder(flag: &str, path: &Path) -> Result<(), UsageError> {
    let dir = &output_folder(&output_target(path));
    match fs::metadata(path) {
        Ok(m) if m.is_dir() => {
            return Err(UsageError(format!(
                "{flag} {} is a folder: give the path of a file (new or to replace)",
                shown(path)
            )));
        }
        Ok(m) if !m.is_file() => {
            return Err(UsageError(format!(
                "{flag} {} is not a regular file (a device, a pipe or a socket): give the path of a file (new or \
                 to replace)",
                shown(path)
            )));
        }
        Ok(_) if let Some(stream) = standard_stream(path) => {
            return Err(UsageError(format!(
                "{flag} {} is the file standard {stream} writes to: give the result a file of its own",
                shown(path)
            )));
        }
        Ok(_) if is_journal(path) => {
            return Err(UsageError(format!(
                "{flag} {} is a checkpoint journal: the result would be written over its counts; give the result \
                 a file of its own",
                shown(path)
            )));
        }
        _ => {}
    }
    // A file where the folder belongs is named as such (it "did not exist": issue 40).
    if dir.exists() && !dir.is_dir() {
        return Err(UsageError(format!(
            "{flag} {}: {} is a file, not a folder: give a path in an existing folder",
            shown(path),
            shown(dir)
        )));
    }
    if !dir.is_dir() {
        return Err(UsageError(format!(
            "{flag} {}: the folder {} does not exist: give a path in an existing folder",
            shown(path),
            shown(dir)
        )));
    }
    tempfile::Builder::new().prefix(".nqueens-probe.").tempfile_in(dir).map(drop).map_err(|e| {
        UsageError(format!(
            "{flag} {}: cannot create a file in {} ({e}): give a path in a folder you can write to",
            shown(path),
            shown(dir)
        ))
    })
}

/// Returns true if and only if the file at `path` begins as a checkpoint journal does
/// ([`nqueens_runs::journal::MAGIC`]): a result written there by a slip of `--output` or
/// `--breakdown` would replace the counts of another run.
fn is_journal(path: &Path) -> bool {
    use std::io::Read;
    let magic = nqueens_runs::journal::MAGIC.as_bytes();
    let mut start = vec![0; magic.len()];
    fs::File::open(path).and_then(|mut f| f.read_exact(&mut start)).is_ok() && start == magic
}

/// Returns "output" or "error" if `path` names the file standard output or standard error is
/// open on (the same device and inode; `/dev/stdout` with `> o2.txt` is o2.txt, `/dev/stderr`
/// with `2> log` is log, where the journal was written among the messages: issue 40). `None`
/// where that cannot be told.
fn standard_stream(path: &Path) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::fd::{AsFd, BorrowedFd};
        use std::os::unix::fs::MetadataExt;
        let target = fs::metadata(path).ok()?;
        let same = |fd: BorrowedFd<'_>| {
            fd.try_clone_to_owned()
                .and_then(|fd| fs::File::from(fd).metadata())
                .is_ok_and(|m| (m.dev(), m.ino()) == (target.dev(), target.ino()))
        };
        if same(std::io::stdout().as_fd()) {
            return Some("output");
        }
        same(std::io::stderr().as_fd()).then_some("error")
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// Returns `path` as a message shows it: its control characters escaped.
fn shown(path: &Path) -> String {
    nqueens::boards::escape_controls(&path.display().to_string())
}

/// Returns the file a result given as `path` is written to: the target of a symbolic link
/// (relative to the link's folder), else `path` itself.
pub fn output_target(path: &Path) -> PathBuf {
    match fs::read_link(path) {
        Ok(target) => path.parent().unwrap_or(Path::new(".")).join(target),
        Err(_) => path.to_path_buf(),
    }
}

/// Returns the folder of the file `path` (`.` for a bare file name), where its temporary file
/// goes.
pub fn output_folder(path: &Path) -> PathBuf {
    path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf()
}

/// Returns true if and only if `x` and `y` name one file: the same path, the same folder and
/// name once symbolic links are followed (also a link whose target does not exist yet, which
/// writing would create), or one file under two hard links (told by device and inode on Unix;
/// elsewhere two hard links to one file are not recognised).
fn same_file(x: &Path, y: &Path) -> bool {
    if x == y || resolve(x) == resolve(y) {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        matches!((fs::metadata(x), fs::metadata(y)), (Ok(a), Ok(b)) if (a.dev(), a.ino()) == (b.dev(), b.ino()))
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// Returns `path` with its symbolic links followed (up to 40, as the kernel does) and its folder
/// made canonical; the last target need not exist. Falls back to the path as followed where
/// the folder cannot be resolved.
fn resolve(path: &Path) -> PathBuf {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match fs::read_link(&p) {
            // A relative target is relative to the link's folder.
            Ok(target) => p = p.parent().unwrap_or(Path::new("")).join(target),
            Err(_) => break,
        }
    }
    let dir = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    match (fs::canonicalize(dir), p.file_name()) {
        (Ok(dir), Some(name)) => dir.join(name),
        _ => p,
    }
}
