//! The memory this process may use: the least of the node's free memory (Linux `MemAvailable`),
//! the room left under its control group's limit (cgroup v2 `memory.max` − `memory.current`,
//! v1 `memory.limit_in_bytes` − `memory.usage_in_bytes`, at every level from the process's own
//! group up to the root), and the memory Slurm gave the job (`SLURM_MEM_PER_NODE`, or
//! `SLURM_MEM_PER_CPU` × the job's CPUs on this node, in MiB), and the room left under the
//! process's address-space limit (`RLIMIT_AS`, as `ulimit -v` or `prlimit --as` set it, less
//! the address space already mapped, `VmSize` of `/proc/self/status`).
//!
//! On a shared cluster node the free memory of the whole node says little: Slurm kills a job
//! that exceeds its own request (through the cgroup, or by polling with `--mem` enforcement),
//! whatever the node has free. The `auto` algorithm and the join's size check
//! ([`crate::algo::join::check_memory`]) read this figure so that a large board chooses, and keeps
//! choosing, what fits in the job rather than in the node.
//!
//! Each source is parsed by a small function fed the file's text, so that the rules are tested
//! without a cgroup or a Slurm job.

use std::path::Path;

use crate::Error;

/// Returns the bytes of memory this process may still allocate, if any source is known: the
/// least of the node's `MemAvailable`, the cgroup room and the Slurm limit (see the module docs).
pub fn available() -> Option<u64> {
    let node = std::fs::read_to_string("/proc/meminfo").ok().and_then(|t| parse_meminfo(&t));
    let cgroup = std::fs::read_to_string("/proc/self/cgroup")
        .ok()
        .and_then(|t| cgroup_room(Path::new("/sys/fs/cgroup"), &t));
    let var = |name: &str| std::env::var(name).ok();
    let slurm = slurm_limit(
        var("SLURM_MEM_PER_NODE").as_deref(),
        var("SLURM_MEM_PER_CPU").as_deref(),
        var("SLURM_CPUS_ON_NODE").as_deref(),
    );
    let status = std::fs::read_to_string("/proc/self/status").ok();
    let address_space = address_space_room(address_space_limit(), status.as_deref().and_then(parse_vm_size));
    [node, cgroup, slurm, address_space].into_iter().flatten().min()
}

/// Returns `Ok(())` if `needed` bytes for `what` fit in the memory [`available`] to this process
/// (always, when nothing is known).
///
/// # Errors
/// [`Error::OutOfMemory`] naming `what`, the MiB needed and available, and the address-space
/// limit where one is set.
pub fn check(what: impl FnOnce() -> String, needed: u64) -> Result<(), Error> {
    match available() {
        Some(a) if needed > a => Err(out_of_memory(what(), needed, Some(a))),
        _ => Ok(()),
    }
}

/// Returns an empty vector with room for `len` items of `T`, once `needed` bytes for `what` are
/// known to fit in the memory available to this process
/// ([`available_memory`](crate::plan::available_memory)): the one way a list whose size is
/// known before it is filled is allocated, so that a board too large for the node, the cgroup
/// or the Slurm job is refused with one line instead of aborting. `needed` is the bytes of the
/// whole step (at least `len` × `size_of::<T>()`; more where the caller's work around the list
/// takes more, such as the dealing of shards: 40 bytes a subproblem against the list's 8); a
/// smaller `needed` is raised to the list's own bytes.
///
/// # Errors
/// [`Error::OutOfMemory`] naming `what`, `needed` in MiB and the MiB available, if `needed` does
/// not fit, or saying that the allocation failed if the reservation fails.
///
/// # Examples
/// ```
/// let list: Vec<u64> = nqueens::plan::reserve(|| "a list of costs".to_string(), 1000, 0).unwrap();
/// assert!(list.is_empty() && list.capacity() >= 1000);
/// ```
pub fn reserve<T>(what: impl Fn() -> String, len: usize, needed: u64) -> Result<Vec<T>, Error> {
    let own = (len as u64).saturating_mul(std::mem::size_of::<T>() as u64);
    let needed = needed.max(own);
    check(&what, needed)?;
    let mut v = Vec::new();
    // `None`: the memory looked available, but the allocator refused (a fragmented address
    // space, a limit it hit first); the message says so instead of quoting the free memory.
    v.try_reserve_exact(len).map_err(|_| out_of_memory(what(), needed, None))?;
    Ok(v)
}

/// Returns the [`Error::OutOfMemory`] of `what`, which needs `needed` bytes where `available`
/// are available (`None`: a reservation failed).
pub fn out_of_memory(what: String, needed: u64, available: Option<u64>) -> Error {
    let mib = |b: u64| b.div_ceil(1 << 20);
    Error::OutOfMemory {
        what,
        needed_mib: mib(needed),
        available_mib: available.map(|a| a >> 20),
        address_space_limit_mib: address_space_limit().map(|l| l >> 20),
    }
}

/// Pushes `item` onto `v`, growing it fallibly (doubling its capacity, at least 64); on failure
/// returns the bytes the grown vector would have taken, so that the caller refuses with
/// [`out_of_memory`] instead of aborting.
///
/// # Errors
/// The bytes asked for, when the reservation fails.
pub fn try_push<T>(v: &mut Vec<T>, item: T) -> Result<(), u64> {
    if v.len() == v.capacity() {
        let more = v.capacity().max(64);
        let bytes = (v.capacity() + more).saturating_mul(std::mem::size_of::<T>()) as u64;
        v.try_reserve_exact(more).map_err(|_| bytes)?;
    }
    v.push(item);
    Ok(())
}

/// The address space each worker thread takes for its stack: Rust's default of 2 MiB (rayon
/// does not change it; `RUST_MIN_STACK` does) and a guard page, rounded up to 2 MiB + 64 KiB.
pub const THREAD_STACK_BYTES: u64 = (2 << 20) + (64 << 10);

/// The address space glibc's allocator reserves for each arena beyond the main one:
/// `HEAP_MAX_SIZE`, 64 MiB on 64-bit systems, reserved, not resident. Each new thread that
/// allocates gets an arena of its own, up to 8 per CPU: under `prlimit --as=150000000`,
/// `solve 20 -j 4` aborted on a failed 1.5 MB allocation once four arenas had taken 256 MiB.
pub const ARENA_BYTES: u64 = 64 << 20;

/// The most allocator arenas a process under an address-space limit keeps (see
/// [`limit_arenas`]): the main one and one that every worker thread shares (the workers
/// allocate little: output chunks of 64 KiB, the join's buffers once per thread).
pub const ARENAS_UNDER_LIMIT: usize = 2;

/// Under an address-space limit, caps glibc's allocator arenas at [`ARENAS_UNDER_LIMIT`]
/// (`mallopt(M_ARENA_MAX)`), once: otherwise each worker thread's arena reserves
/// [`ARENA_BYTES`] of the limit. The pool that starts the workers (`crate::parallel::pool`, the
/// one place the library starts threads) calls it before the first one starts. Without a
/// limit, or without glibc, nothing changes.
pub fn limit_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        if address_space_limit().is_some() {
            // SAFETY: mallopt only sets an allocator parameter; M_ARENA_MAX takes a count.
            ONCE.call_once(|| unsafe {
                libc::mallopt(libc::M_ARENA_MAX, ARENAS_UNDER_LIMIT as libc::c_int);
            });
        }
    }
}

/// Returns the address space `threads` worker threads take before they do any work under an
/// address-space limit: their stacks, and with glibc the one shared arena [`limit_arenas`]
/// leaves them.
pub fn thread_bytes(threads: usize) -> u64 {
    let stacks = THREAD_STACK_BYTES.saturating_mul(threads as u64);
    // An arena's heap is mapped at twice its size and trimmed to an aligned half: count both.
    let arenas = if cfg!(target_env = "gnu") { (ARENAS_UNDER_LIMIT - 1) as u64 } else { 0 };
    stacks.saturating_add((2 * ARENA_BYTES).saturating_mul(arenas))
}

/// Returns `Ok(())` if `threads` worker threads' stacks and allocator arena ([`thread_bytes`])
/// fit under the address-space limit (`RLIMIT_AS`), the one limit they count against before
/// they are touched (they are reserved, not resident: free memory, cgroup and Slurm limits see
/// only the pages used). A check only, with no effect on the process: the arenas are counted
/// as [`limit_arenas`] leaves them, and the pool that starts the threads caps them.
///
/// # Errors
/// [`Error::OutOfMemory`] otherwise (under `prlimit --as=200000000` the operating system
/// refused `solve 16 -j 64` its threads: they take 260 MiB by this rule).
pub fn check_threads(threads: usize) -> Result<(), Error> {
    let needed = thread_bytes(threads);
    let status = std::fs::read_to_string("/proc/self/status").ok();
    match address_space_room(address_space_limit(), status.as_deref().and_then(parse_vm_size)) {
        Some(room) if needed > room => Err(out_of_memory(
            format!(
                "{threads} worker thread(s) (a 2 MiB stack each and an allocator arena, as address space)"
            ),
            needed,
            Some(room),
        )),
        _ => Ok(()),
    }
}

/// Returns the process's soft address-space limit (`RLIMIT_AS`) in bytes; `None` when it is
/// unlimited or cannot be read, and on systems without one (not Unix: Windows has no such
/// limit per process).
pub fn address_space_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        // SAFETY: getrlimit only writes the struct it is given.
        let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } == 0;
        #[allow(clippy::unnecessary_cast)] // rlim_t is u64 on Linux, not everywhere
        (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur as u64)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Returns `VmSize` of a `/proc/self/status` text in bytes (the address space mapped now; the
/// file gives kB, that is KiB).
pub fn parse_vm_size(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("VmSize:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// Returns the address space still free under the limit `limit` (bytes, `None` for none) when
/// `mapped` bytes are mapped (`None` when unknown: then a quarter of the limit is held back
/// for the binary, thread stacks and allocator arenas).
pub fn address_space_room(limit: Option<u64>, mapped: Option<u64>) -> Option<u64> {
    let limit = limit?;
    Some(limit.saturating_sub(mapped.unwrap_or(limit / 4)))
}

/// Returns `MemAvailable` of a `/proc/meminfo` text in bytes (the file gives kB, that is KiB).
pub fn parse_meminfo(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// Returns a cgroup memory limit file's value in bytes: `None` for no limit (`max` in v2; v1
/// writes an unlimited group as a huge number, 2^63 rounded down to the page size, so anything
/// from 2^62 bytes up counts as none) or for text that is not a number.
pub fn parse_cgroup_limit(text: &str) -> Option<u64> {
    let t = text.trim();
    if t == "max" {
        return None;
    }
    t.parse::<u64>().ok().filter(|&v| v < 1 << 62)
}

/// The groups of a `/proc/self/cgroup` text that hold memory limits: the cgroup v2 path (the
/// `0::/path` line) and the v1 memory controller's path (the `N:...memory...:/path` line).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CgroupPaths {
    /// The unified (v2) hierarchy's path, e.g. `/system.slice/slurmstepd.scope/job_7`.
    pub v2: Option<String>,
    /// The v1 memory controller's path.
    pub v1_memory: Option<String>,
}

/// Parses `/proc/self/cgroup` (lines `hierarchy-id:controllers:path`).
pub fn parse_proc_cgroup(text: &str) -> CgroupPaths {
    let mut paths = CgroupPaths::default();
    for line in text.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(id), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        if id == "0" && controllers.is_empty() {
            paths.v2 = Some(path.to_string());
        } else if controllers.split(',').any(|c| c == "memory") {
            paths.v1_memory = Some(path.to_string());
        }
    }
    paths
}

/// Returns the least room (limit − usage, in bytes) over the memory limits of the process's
/// cgroup and each group above it, read under `root` (normally `/sys/fs/cgroup`), given the text
/// of `/proc/self/cgroup`; `None` where no level sets a limit. Inside a container the path may
/// name groups that are not mounted: missing files are skipped, and the mount's own top level
/// (the container's group) is read too.
pub fn cgroup_room(root: &Path, proc_cgroup: &str) -> Option<u64> {
    let paths = parse_proc_cgroup(proc_cgroup);
    let mut rooms = Vec::new();
    let mut read = |dir: &Path, limit: &str, usage: &str| {
        let value = |f: &str| std::fs::read_to_string(dir.join(f)).ok();
        if let Some(l) = value(limit).as_deref().and_then(parse_cgroup_limit) {
            let used = value(usage).and_then(|u| u.trim().parse::<u64>().ok()).unwrap_or(0);
            rooms.push(l.saturating_sub(used));
        }
    };
    if let Some(path) = &paths.v2 {
        for dir in levels(root, path) {
            read(&dir, "memory.max", "memory.current");
        }
    }
    if let Some(path) = &paths.v1_memory {
        for dir in levels(&root.join("memory"), path) {
            read(&dir, "memory.limit_in_bytes", "memory.usage_in_bytes");
        }
    }
    rooms.into_iter().min()
}

/// Returns `root/path` and every folder above it up to `root` itself.
fn levels(root: &Path, path: &str) -> Vec<std::path::PathBuf> {
    let mut dirs = vec![root.to_path_buf()];
    let mut dir = root.to_path_buf();
    for part in path.split('/').filter(|p| !p.is_empty() && *p != "..") {
        dir.push(part);
        dirs.push(dir.clone());
    }
    dirs
}

/// Returns the memory Slurm gave this job on this node in bytes, from the values of
/// `SLURM_MEM_PER_NODE` (MiB), else `SLURM_MEM_PER_CPU` (MiB) × `SLURM_CPUS_ON_NODE` (1 when
/// unset); `None` outside a job or for a limit of 0 (Slurm's "all the node's memory").
pub fn slurm_limit(per_node: Option<&str>, per_cpu: Option<&str>, cpus: Option<&str>) -> Option<u64> {
    let mib = |v: Option<&str>| v.and_then(|t| t.trim().parse::<u64>().ok()).filter(|&m| m > 0);
    if let Some(m) = mib(per_node) {
        return Some(m.saturating_mul(1 << 20));
    }
    let cpus = cpus.and_then(|c| c.trim().parse::<u64>().ok()).filter(|&c| c > 0).unwrap_or(1);
    mib(per_cpu).map(|m| m.saturating_mul(cpus).saturating_mul(1 << 20))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Break-it round of 2026-12-03, finding 7: a list of 2^40 `u64`s "would need about 1 MiB"
    /// when its caller passed 8 bytes; the need is at least the list's own bytes now.
    #[test]
    fn reserve_counts_at_least_the_list_s_own_bytes() {
        match reserve::<u64>(|| "a test list".into(), 1 << 40, 8) {
            Err(Error::OutOfMemory { what, needed_mib, .. }) => {
                assert_eq!(what, "a test list");
                assert_eq!(needed_mib, 8 << 20, "2^40 × 8 bytes");
            }
            other => panic!("{:?}", other.map(|v| v.capacity())),
        }
        let v = reserve::<u32>(|| "a small list".into(), 100, 0).unwrap();
        assert!(v.capacity() >= 100 && v.is_empty());
    }

    #[test]
    fn meminfo_gives_mem_available_in_bytes() {
        let text = "MemTotal:       24684084 kB\nMemFree:        22591788 kB\nMemAvailable:   23681424 kB\n";
        assert_eq!(parse_meminfo(text), Some(23_681_424 * 1024));
        assert_eq!(parse_meminfo("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_meminfo("MemAvailable: lots kB\n"), None);
    }

    #[test]
    fn cgroup_limits_parse_with_max_and_the_v1_unlimited_value_as_none() {
        assert_eq!(parse_cgroup_limit("max\n"), None);
        assert_eq!(parse_cgroup_limit("9223372036854771712\n"), None);
        assert_eq!(parse_cgroup_limit("4294967296\n"), Some(4 << 30));
        assert_eq!(parse_cgroup_limit(""), None);
        assert_eq!(parse_cgroup_limit("-1"), None);
    }

    #[test]
    fn proc_cgroup_names_the_v2_and_v1_memory_groups() {
        let v2 = "0::/system.slice/slurmstepd.scope/job_42/step_batch/user/task_0\n";
        assert_eq!(
            parse_proc_cgroup(v2),
            CgroupPaths {
                v2: Some("/system.slice/slurmstepd.scope/job_42/step_batch/user/task_0".into()),
                v1_memory: None
            }
        );
        let v1 = "9:name=systemd:/\n4:memory:/slurm/uid_0/job_7/step_batch\n2:cpu,cpuacct:/\n0::/\n";
        let p = parse_proc_cgroup(v1);
        assert_eq!(p.v1_memory.as_deref(), Some("/slurm/uid_0/job_7/step_batch"));
        assert_eq!(p.v2.as_deref(), Some("/"));
        assert_eq!(parse_proc_cgroup("garbage\n"), CgroupPaths::default());
    }

    #[test]
    fn cgroup_room_is_the_least_over_the_levels() {
        let root = tempfile::tempdir().unwrap();
        let job = root.path().join("slurm/job_7");
        std::fs::create_dir_all(&job).unwrap();
        // v2: the job allows 2 GiB and uses 0.5 GiB; its parent allows 8 GiB; the root has none.
        std::fs::write(job.join("memory.max"), "2147483648\n").unwrap();
        std::fs::write(job.join("memory.current"), "536870912\n").unwrap();
        std::fs::write(root.path().join("slurm/memory.max"), "8589934592\n").unwrap();
        std::fs::write(root.path().join("memory.max"), "max\n").unwrap();
        assert_eq!(cgroup_room(root.path(), "0::/slurm/job_7\n"), Some(3 << 29));
        // No limit anywhere, or groups that are not mounted: none.
        assert_eq!(cgroup_room(root.path(), "0::/elsewhere\n"), None);
        // v1 under memory/.
        let v1 = root.path().join("memory/slurm/job_8");
        std::fs::create_dir_all(&v1).unwrap();
        std::fs::write(v1.join("memory.limit_in_bytes"), "1073741824\n").unwrap();
        std::fs::write(v1.join("memory.usage_in_bytes"), "1073741825\n").unwrap();
        std::fs::write(root.path().join("memory/memory.limit_in_bytes"), "9223372036854771712\n").unwrap();
        assert_eq!(cgroup_room(root.path(), "4:memory:/slurm/job_8\n"), Some(0));
    }

    #[test]
    fn slurm_limits_per_node_win_over_per_cpu() {
        assert_eq!(slurm_limit(Some("4096"), Some("100"), Some("8")), Some(4096 << 20));
        assert_eq!(slurm_limit(None, Some("1000"), Some("4")), Some(4000 << 20));
        assert_eq!(slurm_limit(None, Some("1000"), None), Some(1000 << 20));
        assert_eq!(slurm_limit(Some("0"), None, None), None);
        assert_eq!(slurm_limit(None, None, Some("4")), None);
        assert_eq!(slurm_limit(Some("lots"), None, None), None);
    }

    #[test]
    fn address_space_room_is_the_limit_less_what_is_mapped() {
        let status = "Name:\tnqueens\nVmPeak:\t  300000 kB\nVmSize:\t  204800 kB\nVmRSS:\t 5000 kB\n";
        assert_eq!(parse_vm_size(status), Some(200 << 20));
        assert_eq!(parse_vm_size("VmRSS: 5 kB\n"), None);
        assert_eq!(parse_vm_size("VmSize: lots kB\n"), None);
        assert_eq!(
            address_space_room(Some(2_000_000_000), Some(200 << 20)),
            Some(2_000_000_000 - (200 << 20))
        );
        assert_eq!(address_space_room(Some(1 << 30), Some(2 << 30)), Some(0));
        assert_eq!(address_space_room(Some(4 << 30), None), Some(3 << 30));
        assert_eq!(address_space_room(None, Some(200 << 20)), None);
    }

    #[test]
    fn fallible_pushes_grow_and_refusals_name_the_numbers() {
        let mut v: Vec<u64> = Vec::new();
        for i in 0..1000 {
            try_push(&mut v, i).unwrap();
        }
        assert_eq!(v.len(), 1000);
        assert_eq!(v.iter().sum::<u64>(), 999 * 1000 / 2);
        // Its failure path (the bytes asked for, then a refusal) runs under RLIMIT_AS in
        // tests/memory/limits.rs ("the d4 plan of n = 40 at split depth 1 (its subproblem list)"
        // under 100 MiB).
        let e = out_of_memory("the d4 plan of n = 63".into(), 600 << 20, Some(212 << 20));
        let text = e.to_string();
        assert!(
            text.starts_with("the d4 plan of n = 63 would need about 600 MiB but 212 MiB are available"),
            "{text}"
        );
        assert!(check(|| "nothing".into(), 0).is_ok());
        let v: Vec<u64> = reserve(|| "a list".into(), 100, 800).unwrap();
        assert!(v.is_empty() && v.capacity() >= 100);
        assert!(
            reserve::<u64>(|| "a list".into(), 100, u64::MAX)
                .unwrap_err()
                .to_string()
                .starts_with("a list would need")
        );
        assert!(
            check(|| "everything".into(), u64::MAX)
                .unwrap_err()
                .to_string()
                .starts_with("everything would need")
        );
    }

    #[test]
    fn thread_address_space_counts_stacks_and_one_arena() {
        let one = thread_bytes(1);
        assert_eq!(thread_bytes(65) - one, 64 * THREAD_STACK_BYTES);
        if cfg!(target_env = "gnu") {
            assert_eq!(one, THREAD_STACK_BYTES + 2 * ARENA_BYTES);
        }
        assert!(check_threads(1).is_ok());
    }

    #[test]
    fn available_memory_is_known_on_linux() {
        assert!(available().is_some_and(|b| b > 0));
    }
}
