#!/usr/bin/env bash
# plc against ruff on the same generated file, side by side (issue 14; docs/performance.md).
#
#   scripts/vs-ruff.sh [N...]      default: 10000 40000 80000 103000 (the last is ~50 MB)
#
# For each gen(N) (benches/support/seed.rs, written by `cargo run --example gen -- N`) it
# runs, interleaved, RUNS times (default 3) each:
#   ruff     ruff check --select F821 --no-cache FILE   (Rust parser + name resolution)
#   check    plc check FILE
#   compile  plc compile FILE -o DIR                    (into a fresh directory)
#   compile1 the same with RAYON_NUM_THREADS=1          (serial emit and writes)
# and prints the medians (wall and CPU seconds, from /usr/bin/time) and the peak memory
# (maximum resident set size), the ratios to ruff, and each tool's cost against the first
# size. ruff is installed from PyPI (pip install --user ruff) when it is not on PATH.
# WORK=DIR keeps the generated files and the outputs there (default: a temporary dir).
# TOOLS="ruff check compile" runs only those (default: all four; ruff is the ratios' base
# and always runs). PLC=PATH measures that binary instead of building the worktree's (a
# binary before a change, say; the generator is still the worktree's).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-3}
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(10000 40000 80000 103000)
WORK=${WORK:-$(mktemp -d)}
mkdir -p "$WORK"

if ! command -v ruff >/dev/null 2>&1; then
    echo "ruff is not on PATH: pip install --user ruff" >&2
    python3 -m pip install --user --quiet ruff
    export PATH="$HOME/.local/bin:$PATH"
fi
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (GNU time: apt-get install time)" >&2; exit 2; }
# ruff's own binary, not a wrapper in front of it: a version manager's shim on PATH (pyenv's
# is a bash script that runs `pyenv exec`) adds 30-60 ms to each of ruff's runs here, which
# would flatter every ratio. PyPI's package says where its binary is; RUFF=PATH overrides.
RUFF=${RUFF:-$(python3 -c 'from ruff.__main__ import find_ruff_bin; print(find_ruff_bin())' 2>/dev/null || command -v ruff)}

if [ -z "${PLC:-}" ]; then
    (cd "$ROOT" && cargo build --release --quiet --bin plc --example gen)
    PLC="$ROOT/target/release/plc"
else
    (cd "$ROOT" && cargo build --release --quiet --example gen)
fi
GEN="$ROOT/target/release/examples/gen"
echo "plc $PLC ($(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')), $("$RUFF" --version) ($RUFF), $(nproc) cores, work dir $WORK"

# measure TOOL FILE: one run, appending "tool wall cpu rss_kb" to $WORK/results-N.
measure() {
    # Each compile writes into a new directory, removed only at the end: removing 20 000
    # files right before creating as many makes the file system's inode allocation (not
    # plc) most of the time, and no user compiles into a directory just emptied.
    local tool=$1 file=$2 status=0
    RUN=$((RUN + 1))
    local out="$WORK/out/$RUN"
    local cmd
    case $tool in
        ruff) cmd=("$RUFF" check --select F821 --no-cache --quiet "$file") ;;
        check) cmd=("$PLC" check "$file") ;;
        compile) cmd=("$PLC" compile "$file" -o "$out") ;;
        compile1) cmd=(env RAYON_NUM_THREADS=1 "$PLC" compile "$file" -o "$out") ;;
    esac
    /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" "${cmd[@]}" >/dev/null 2>"$WORK/stderr" || status=$?
    if [ $status -ne 0 ]; then
        echo "$tool failed on $file (exit $status):" >&2
        head -5 "$WORK/stderr" >&2
        exit 1
    fi
    read -r wall user sys rss < <(tail -1 "$WORK/time")
    echo "$tool $wall $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') $rss" >>"$3"
}

read -r -a asked <<<"${TOOLS:-check compile compile1}"
TOOLS=(ruff)
for tool in "${asked[@]}"; do
    case $tool in
        ruff) ;;
        check | compile | compile1) TOOLS+=("$tool") ;;
        *) echo "unknown tool $tool (ruff, check, compile, compile1)" >&2; exit 2 ;;
    esac
done
RUN=0
rm -rf "$WORK/out"
mkdir -p "$WORK/out"
for n in "${SIZES[@]}"; do
    file="$WORK/gen$n.pl"
    [ -f "$file" ] || "$GEN" "$n" >"$file"
    results="$WORK/results-$n"
    : >"$results"
    for _ in $(seq "$RUNS"); do
        for tool in "${TOOLS[@]}"; do
            measure "$tool" "$file" "$results"
        done
    done
done
rm -rf "$WORK/out"

# The medians, the ratios to ruff, and the growth against the first size.
TOOLS="${TOOLS[*]}" python3 - "$WORK" "${SIZES[@]}" <<'PY'
import statistics, sys, os
work, sizes = sys.argv[1], sys.argv[2:]
tools = os.environ["TOOLS"].split()
med = {}
for n in sizes:
    rows = [l.split() for l in open(os.path.join(work, f"results-{n}"))]
    for t in tools:
        got = [r for r in rows if r[0] == t]
        med[n, t] = tuple(statistics.median(float(r[k]) for r in got) for k in (1, 2, 3))
print()
print(f"{'file':>14} {'MB':>6} {'tool':>9} {'wall s':>8} {'cpu s':>8} {'peak MiB':>9} {'wall/ruff':>10} {'cpu/ruff':>9} {'mem/ruff':>9}")
for n in sizes:
    mb = os.path.getsize(os.path.join(work, f"gen{n}.pl")) / 1e6
    rw, rc, rm = med[n, "ruff"]
    for t in tools:
        w, c, m = med[n, t]
        print(f"{'gen(' + n + ')':>14} {mb:6.1f} {t:>9} {w:8.2f} {c:8.2f} {m / 1024:9.0f} {w / rw:9.2f}x {c / rc:8.2f}x {m / rm:8.2f}x")
if len(sizes) > 1:
    base = sizes[0]
    print()
    print(f"growth against gen({base}) (wall, cpu):")
    for n in sizes[1:]:
        k = int(n) / int(base)
        parts = []
        for t in tools:
            parts.append(f"{t} {med[n, t][0] / med[base, t][0]:.1f}x/{med[n, t][1] / med[base, t][1]:.1f}x")
        print(f"  gen({n}) = {k:g}x the functions: " + ", ".join(parts))
PY
