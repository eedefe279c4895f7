#!/usr/bin/env bash
# Builds nqueens for aarch64 with warnings as errors and runs its unit tests (every kernel of the
# portable and NEON levels, and the counts they give) under qemu-user, on an x86-64 Debian host.
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage: scripts/ci/aarch64.sh [--check-only]

Cross-builds for aarch64-unknown-linux-gnu and tests under user-mode emulation:
  1. installs what is missing: the Rust standard library for the target (rustup), Debian's
     gcc-aarch64-linux-gnu and libc6-dev-arm64-cross (the linker and the arm64 C library), and
     qemu-user 10 from bookworm-backports (bookworm's qemu-user 7.2 hangs on any program that
     starts a thread; 10.0 runs them);
  2. cargo clippy --target aarch64-unknown-linux-gnu --workspace --all-targets, warnings as
     errors (the workspace lints: a `// SAFETY:` comment on every unsafe block of the NEON
     level too); cargo check where clippy is not installed;
  3. cargo test --release --target aarch64-unknown-linux-gnu -p nqueens -p nqueens-runs --lib: the
     libraries' unit tests, run by qemu-aarch64 (.cargo/config.toml names the linker and the
     runner); optimised, as the host's suite runs (under emulation a debug build takes more
     than ten times longer).
--check-only stops after step 2.

Exit codes: 0 done; 1 a build or a test failed; 3 the tools cannot be installed here; 2 usage.
USAGE
}

check_only=0
case "${1:-}" in
    -h|--help) usage; exit 0 ;;
    --check-only) check_only=1 ;;
    "") ;;
    *) echo "aarch64.sh: unknown option '$1'" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/../.."
unavailable() { echo "aarch64.sh: $*" >&2; exit 3; }
target=aarch64-unknown-linux-gnu

if command -v rustup >/dev/null; then
    rustup target list --installed | grep -qx "$target" || rustup target add "$target" ||
        unavailable "rustup could not add the $target standard library"
else
    rustc --print sysroot | xargs -I{} test -d "{}/lib/rustlib/$target" ||
        unavailable "no rustup, and the toolchain has no $target standard library"
fi

qemu_ok() { command -v qemu-aarch64 >/dev/null && [[ "$(qemu-aarch64 --version | grep -o 'version [0-9]*' | cut -d' ' -f2)" -ge 8 ]]; }
if ! command -v aarch64-linux-gnu-gcc >/dev/null || [[ ! -d /usr/aarch64-linux-gnu/lib ]] || ! qemu_ok; then
    command -v apt-get >/dev/null || unavailable "no apt-get to install the cross linker and qemu-user"
    [[ $(id -u) -eq 0 ]] || unavailable "installing the cross linker and qemu-user needs root"
    export DEBIAN_FRONTEND=noninteractive
    codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
    if [[ "$codename" == bookworm ]] && ! grep -rqs "bookworm-backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
        echo "deb http://deb.debian.org/debian bookworm-backports main" >/etc/apt/sources.list.d/nqueens-backports.list
    fi
    apt-get update -qq || unavailable "apt-get update failed"
    apt-get install -y -qq gcc-aarch64-linux-gnu libc6-dev-arm64-cross >/dev/null ||
        unavailable "apt-get could not install gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
    if [[ "$codename" == bookworm ]]; then
        apt-get install -y -qq -t bookworm-backports qemu-user >/dev/null ||
            unavailable "apt-get could not install qemu-user from bookworm-backports"
    else
        apt-get install -y -qq qemu-user >/dev/null || unavailable "apt-get could not install qemu-user"
    fi
    qemu_ok || unavailable "qemu-aarch64 $(qemu-aarch64 --version | head -n 1) is older than 8 (it hangs on threads)"
fi
qemu-aarch64 --version | head -n 1

# Warnings are errors for the target, in a target folder of its own (RUSTFLAGS would otherwise
# rebuild the host's artefacts).
export CARGO_TARGET_DIR=target/aarch64-ci
if cargo clippy --version >/dev/null 2>&1; then
    RUSTFLAGS="-D warnings" cargo clippy --quiet --target "$target" --workspace --all-targets -- -D warnings
    echo "aarch64.sh: cargo clippy --target $target --workspace --all-targets: no warnings"
else
    RUSTFLAGS="-D warnings" cargo check --quiet --target "$target" --workspace --all-targets
    echo "aarch64.sh: cargo check --target $target --workspace --all-targets: no warnings (no clippy here)"
fi
((check_only)) && exit 0
RUSTFLAGS="-D warnings" cargo test --release --quiet --target "$target" -p nqueens -p nqueens-runs --lib
