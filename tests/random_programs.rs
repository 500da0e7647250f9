//! Random valid programs (issue 15), grammar- and type-directed as Csmith is: each is run
//! three ways and the three must agree —
//!
//! 1. `plc run --after lower`: the IR straight from lowering;
//! 2. `plc run`: the IR after the whole pipeline;
//! 3. `plc compile --harness`, built with `-Wall -Wextra -Werror` and (with
//!    `PLC_SANITIZE=1`, as CI runs it) AddressSanitizer and UndefinedBehaviorSanitizer,
//!    then run.
//!
//! They agree when they print the same checksum lines, or when all three fail (an integer
//! overflow is an error in `plc run` and aborts the C++). A program plc refuses (a
//! constant that overflows, say) is counted and skipped. Every disagreement names its
//! seed, the file is kept under the target directory, and the test fails.
//!
//! `PLC_RANDOM_COUNT` (default 12) programs from `PLC_RANDOM_SEED` (default 1) on, on
//! `PLC_RANDOM_JOBS` threads (default: the machine's cores); `PLC_RANDOM_CXX_EVERY=N` builds
//! and runs the C++ of every Nth program only (default 1: all), since a C++ build costs
//! seconds and the two `plc run`s milliseconds. A long run by hand: `PLC_RANDOM_COUNT=100000
//! PLC_RANDOM_CXX_EVERY=100 cargo test --release --test random_programs`.
//! The programs: module constants folded from integer arithmetic (`//`, `%`, `**`, shifts
//! on negative numbers), an `@pl.jit` entry with two scalar parameters given random
//! values, scalar statements (assignments, `if`/`else` assigning in both branches) over
//! `+ - * // % ** << >>`, comparisons and `and`/`or`/`not`, and `pl.range` loops whose
//! bodies load tiles at offsets computed from those scalars, combine them with
//! elementwise tile ops (`add`, `sub`, `mul`, `div`, `maximum`, `minimum`, `neg`, `abs`, with a
//! tile or a scalar) and accumulate into an InOut tensor.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn plc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_plc")).args(args).output().expect("plc runs")
}

fn cxx() -> Option<String> {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".to_string());
    Command::new(&cxx).arg("--version").output().ok().filter(|o| o.status.success()).map(|_| cxx)
}

fn sanitizers() -> &'static [&'static str] {
    match std::env::var("PLC_SANITIZE") {
        Ok(v) if !v.is_empty() && v != "0" => {
            &["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"]
        }
        _ => &[],
    }
}

/// splitmix64: the same programs from the same seed on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// One program being generated: the scalar names in scope and the text.
struct Gen {
    rng: Rng,
    out: String,
    scalars: Vec<String>,
    consts: Vec<String>,
    fresh: usize,
    rows: i64,
    cols: i64,
    tile_rows: i64,
}

impl Gen {
    fn name(&mut self, base: &str) -> String {
        self.fresh += 1;
        format!("{base}{}", self.fresh)
    }

    /// An integer expression over the given leaves (names and small literals), `depth`
    /// operators deep at most. A divisor is made nonzero the way Python computes it
    /// (`x % 7 + 1` is 1..7), so that C's rounding would show.
    fn int_expr(&mut self, leaves: &[String], depth: u32) -> String {
        if depth == 0 || self.rng.chance(30) {
            return if !leaves.is_empty() && self.rng.chance(65) {
                leaves[self.rng.below(leaves.len() as u64) as usize].clone()
            } else {
                let n = self.rng.range(-9, 9);
                if n < 0 {
                    format!("({n})")
                } else {
                    n.to_string()
                }
            };
        }
        let a = self.int_expr(leaves, depth - 1);
        match self.rng.below(11) {
            0 => format!("({a} + {})", self.int_expr(leaves, depth - 1)),
            1 => format!("({a} - {})", self.int_expr(leaves, depth - 1)),
            2 => format!("({a} * {})", self.int_expr(leaves, depth - 1)),
            3 => format!("({a} // ({} % 7 + 1))", self.int_expr(leaves, depth - 1)),
            4 => format!("({a} % ({} % 7 + 1))", self.int_expr(leaves, depth - 1)),
            5 => format!("({a} // {})", [-3, -2, 2, 3, 5][self.rng.below(5) as usize]),
            6 => format!("({a} % {})", [-4, -3, 3, 4, 6][self.rng.below(5) as usize]),
            7 => format!("({a} ** {})", self.rng.range(0, 3)),
            8 => format!("({a} << {})", self.rng.range(0, 4)),
            9 => format!("({a} >> {})", self.rng.range(0, 4)),
            _ => format!("(-{a})"),
        }
    }

    fn cond(&mut self, leaves: &[String]) -> String {
        let (a, b) = (self.int_expr(leaves, 2), self.int_expr(leaves, 2));
        let cmp = ["<", "<=", ">", ">=", "==", "!="][self.rng.below(6) as usize];
        let c = format!("{a} {cmp} {b}");
        match self.rng.below(5) {
            0 => format!("not ({c})"),
            1 => format!("{c} and {} > {}", self.int_expr(leaves, 1), self.rng.range(-5, 5)),
            2 => format!("{c} or {} < {}", self.int_expr(leaves, 1), self.rng.range(-5, 5)),
            _ => c,
        }
    }

    fn line(&mut self, indent: usize, text: &str) {
        let _ = writeln!(self.out, "{}{text}", "    ".repeat(indent));
    }

    fn leaves(&self) -> Vec<String> {
        self.scalars.iter().chain(&self.consts).cloned().collect()
    }

    /// Scalar statements and loops at `indent`; new names stay in `self.scalars` only
    /// when defined at the function's top level.
    fn block(&mut self, indent: usize, statements: usize, depth: u32) {
        for _ in 0..statements {
            let leaves = self.leaves();
            match self.rng.below(10) {
                0..=3 => {
                    let v = self.name("v");
                    let e = self.int_expr(&leaves, 3);
                    self.line(indent, &format!("{v} = {e}"));
                    self.scalars.push(v);
                }
                4..=5 => {
                    let v = self.name("c");
                    let c = self.cond(&leaves);
                    let (a, b) = (self.int_expr(&leaves, 2), self.int_expr(&leaves, 2));
                    self.line(indent, &format!("if {c}:"));
                    self.line(indent + 1, &format!("{v} = {a}"));
                    self.line(indent, "else:");
                    self.line(indent + 1, &format!("{v} = {b}"));
                    self.scalars.push(v);
                }
                _ if depth > 0 => {
                    let i = self.name("i");
                    let bound = self.int_expr(&leaves, 2);
                    self.line(indent, &format!("for {i} in pl.range({bound} % 3 + 1):"));
                    let saved = self.scalars.len();
                    self.scalars.push(i);
                    if self.rng.chance(40) {
                        self.block(indent + 1, 1, depth - 1);
                    }
                    self.region(indent + 1);
                    self.scalars.truncate(saved);
                }
                _ => self.region(indent),
            }
        }
    }

    /// A CORE_GROUP region: two tiles at offsets computed from the scalars (in range as
    /// Python computes `%`), combined and accumulated into `out`.
    fn region(&mut self, indent: usize) {
        let leaves = self.leaves();
        let bands = self.rows / self.tile_rows;
        let (tr, c) = (self.tile_rows, self.cols);
        let offset = |g: &mut Gen| format!("{} % {bands} * {tr}", g.int_expr(&leaves, 2));
        let (r0, r1, r2) = (offset(self), offset(self), offset(self));
        let (o0, o1, o2) = (self.name("o"), self.name("o"), self.name("o"));
        self.line(indent, &format!("{o0} = {r0}"));
        self.line(indent, &format!("{o1} = {r1}"));
        self.line(indent, &format!("{o2} = {r2}"));
        self.line(indent, "with pl.at(level=pl.Level.CORE_GROUP):");
        let (t0, t1, t2, acc) = (self.name("t"), self.name("t"), self.name("t"), self.name("acc"));
        self.line(indent + 1, &format!("{t0} = pl.load(a, [{o0}, 0], [{tr}, {c}])"));
        self.line(indent + 1, &format!("{t1} = pl.load(b, [{o1}, 0], [{tr}, {c}])"));
        let scale = ["0.5", "2.0", "-1.0", "0.25"][self.rng.below(4) as usize];
        let combined = match self.rng.below(9) {
            0 => format!("pl.add({t0}, {t1})"),
            1 => format!("pl.sub({t0}, {t1})"),
            2 => format!("pl.mul({t0}, {t1})"),
            3 => format!("pl.maximum({t0}, {t1})"),
            4 => format!("pl.minimum({t0}, pl.neg({t1}))"),
            5 => format!("pl.div({t0}, pl.add(pl.abs({t1}), 1.0))"),
            6 => format!("pl.add({t0}, {scale})"),
            7 => format!("pl.abs(pl.sub({t0}, {t1}))"),
            _ => format!("pl.mul({t0}, {scale})"),
        };
        self.line(indent + 1, &format!("{t2} = {combined}"));
        self.line(indent + 1, &format!("{acc} = pl.load(out, [{o2}, 0], [{tr}, {c}])"));
        self.line(indent + 1, &format!("pl.store(pl.add({acc}, {t2}), [{o2}, 0], out)"));
    }
}

/// A program and the `--arg`s it runs with.
fn program(seed: u64) -> (String, Vec<String>) {
    let mut rng = Rng(seed);
    let rows = [32, 64][rng.below(2) as usize];
    let cols = [16, 32, 64][rng.below(3) as usize];
    let tile_rows = [8, 16][rng.below(2) as usize];
    let mut g =
        Gen { rng, out: String::new(), scalars: Vec::new(), consts: Vec::new(), fresh: 0, rows, cols, tile_rows };
    let _ = writeln!(g.out, "# A random program (tests/random_programs.rs), seed {seed}.");
    g.out.push_str("import pypto.language as pl\n\n");
    let _ = writeln!(g.out, "R = {rows}\nC = {cols}");
    for _ in 0..g.rng.range(0, 3) {
        let k = g.name("K");
        let leaves = g.consts.clone();
        let e = g.int_expr(&leaves, 3);
        let _ = writeln!(g.out, "{k} = {e}");
        g.consts.push(k);
    }
    g.out.push_str("\n\n@pl.jit\n");
    g.out.push_str("def entry(\n    a: pl.Tensor[[R, C], pl.FP32],\n    b: pl.Tensor[[R, C], pl.FP32],\n");
    g.out.push_str("    n: pl.Scalar[pl.INDEX],\n    m: pl.Scalar[pl.INDEX],\n");
    g.out.push_str("    out: pl.InOut[pl.Tensor[[R, C], pl.FP32]],\n):\n");
    g.scalars = vec!["n".to_string(), "m".to_string()];
    let statements = g.rng.range(2, 6) as usize;
    g.block(1, statements, 2);
    g.region(1);
    g.line(1, "return out");
    let args = vec![format!("n={}", g.rng.range(-20, 20)), format!("m={}", g.rng.range(-20, 20))];
    (g.out, args)
}

/// What a run printed: the checksum lines, or `None` when it failed.
fn outcome(out: &Output) -> Option<String> {
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The CPU runtime built once (it is the same for every program) into `runtime.o`.
fn build_runtime(cxx: &str, dir: &Path) -> PathBuf {
    let sample = dir.join("sample");
    let (text, args) = program(0);
    std::fs::write(dir.join("sample.pl"), text).unwrap();
    let mut a = vec!["compile".to_string(), dir.join("sample.pl").display().to_string(), "-o".to_string()];
    a.push(sample.display().to_string());
    a.push("--harness".to_string());
    for x in &args {
        a.push("--arg".to_string());
        a.push(x.clone());
    }
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let out = plc(&a);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let object = dir.join("runtime.o");
    let built = Command::new(cxx)
        .args(["-std=c++17", "-O1", "-c", "-Wall", "-Wextra", "-Werror"])
        .args(sanitizers())
        .arg(format!("-I{}", sample.join("runtime").display()))
        .arg(sample.join("runtime/pto_runtime.cpp"))
        .arg("-o")
        .arg(&object)
        .output()
        .expect("c++ runs");
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    object
}

/// Runs one program the three ways (the first two only when `with_cxx` is false); `Err`
/// describes a disagreement.
fn check(cxx: &str, runtime: &Path, dir: &Path, seed: u64, with_cxx: bool) -> Result<bool, String> {
    let (text, args) = program(seed);
    let file = dir.join(format!("p{seed}.pl"));
    std::fs::write(&file, &text).unwrap();
    let file_s = file.display().to_string();
    let with_args = |base: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = base.iter().map(|s| s.to_string()).collect();
        for a in &args {
            v.push("--arg".to_string());
            v.push(a.clone());
        }
        v
    };
    let check = plc(&["check", &file_s]);
    if !check.status.success() {
        // Refused at compile time (E0218 on a constant that overflows, say): not a run.
        let err = String::from_utf8_lossy(&check.stderr);
        if err.contains("error[E02") {
            return Ok(false);
        }
        return Err(format!("plc check failed unexpectedly:\n{err}"));
    }
    let run = |after: Option<&str>| {
        let mut base = vec!["run", file_s.as_str(), "--entry", "entry", "--seed", "5"];
        if let Some(a) = after {
            base.extend(["--after", a]);
        }
        let v = with_args(&base);
        plc(&v.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let (lowered, full) = (run(Some("lower")), run(None));
    if lowered.status.code() != full.status.code() || lowered.stdout != full.stdout {
        return Err(format!(
            "plc run after lowering and after the pipeline differ:\n{}{}\n---\n{}{}",
            String::from_utf8_lossy(&lowered.stdout),
            String::from_utf8_lossy(&lowered.stderr),
            String::from_utf8_lossy(&full.stdout),
            String::from_utf8_lossy(&full.stderr)
        ));
    }
    let expected = outcome(&full);
    if expected.is_none() && !String::from_utf8_lossy(&full.stderr).contains("error[E0801]") {
        return Err(format!("plc run failed otherwise than E0801:\n{}", String::from_utf8_lossy(&full.stderr)));
    }
    if !with_cxx {
        let _ = std::fs::remove_file(&file);
        return Ok(true);
    }
    let out_dir = dir.join(format!("p{seed}"));
    let out_s = out_dir.display().to_string();
    let v = with_args(&["compile", &file_s, "-o", &out_s, "--harness", "--seed", "5"]);
    let compiled = plc(&v.iter().map(String::as_str).collect::<Vec<_>>());
    if !compiled.status.success() {
        return Err(format!("plc compile failed:\n{}", String::from_utf8_lossy(&compiled.stderr)));
    }
    let mut sources: Vec<PathBuf> = Vec::new();
    for sub in ["orchestration", "kernels"] {
        let mut files: Vec<PathBuf> =
            std::fs::read_dir(out_dir.join(sub)).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        sources.extend(files);
    }
    sources.push(out_dir.join("harness/main.cpp"));
    let prog = out_dir.join("prog");
    let built = Command::new(cxx)
        .args(["-std=c++17", "-O1", "-ffp-contract=off", "-Wall", "-Wextra", "-Werror"])
        .args(sanitizers())
        .arg(format!("-I{}", out_dir.join("runtime").display()))
        .arg(format!("-I{}", out_dir.join("harness").display()))
        .args(&sources)
        .arg(runtime)
        .arg("-o")
        .arg(&prog)
        .output()
        .expect("c++ runs");
    if !built.status.success() {
        return Err(format!("the C++ does not build:\n{}", String::from_utf8_lossy(&built.stderr)));
    }
    let ran = Command::new(&prog).arg("5").output().expect("prog runs");
    let got = outcome(&ran);
    if got != expected {
        return Err(format!(
            "the compiled program and plc run differ:\nC++ ({}):\n{}{}\nplc run:\n{}{}",
            ran.status,
            String::from_utf8_lossy(&ran.stdout),
            String::from_utf8_lossy(&ran.stderr),
            String::from_utf8_lossy(&full.stdout),
            String::from_utf8_lossy(&full.stderr)
        ));
    }
    let _ = std::fs::remove_dir_all(&out_dir);
    let _ = std::fs::remove_file(&file);
    Ok(true)
}

#[test]
fn random_programs_agree_three_ways() {
    let Some(cxx) = cxx() else {
        eprintln!("no C++ compiler found: skipped");
        return;
    };
    let env = |k: &str, default: u64| std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let (count, first) = (env("PLC_RANDOM_COUNT", 12), env("PLC_RANDOM_SEED", 1));
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("random_programs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let runtime = build_runtime(&cxx, &dir);
    let cxx_every = env("PLC_RANDOM_CXX_EVERY", 1).max(1);
    let jobs = env("PLC_RANDOM_JOBS", std::thread::available_parallelism().map_or(1, |n| n.get() as u64)).max(1);
    let next = std::sync::atomic::AtomicU64::new(first);
    let results = std::sync::Mutex::new((0u64, 0u64, 0u64, Vec::new()));
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let seed = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if seed >= first + count {
                    break;
                }
                let with_cxx = (seed - first) % cxx_every == 0;
                let result = check(&cxx, &runtime, &dir, seed, with_cxx);
                let mut r = results.lock().unwrap();
                match result {
                    Ok(true) => {
                        r.0 += 1;
                        r.2 += u64::from(with_cxx);
                    }
                    Ok(false) => r.1 += 1,
                    Err(why) => {
                        eprintln!("seed {seed} ({}): {why}", dir.join(format!("p{seed}.pl")).display());
                        r.3.push(seed);
                    }
                }
            });
        }
    });
    let (ran, refused, compiled, mut failures) = results.into_inner().unwrap();
    failures.sort();
    eprintln!(
        "random programs: {ran} agreed ({compiled} of them also as compiled C++), {refused} refused at compile time, {} failed",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "random programs disagree for seeds {failures:?} (PLC_RANDOM_SEED=<seed> PLC_RANDOM_COUNT=1 reruns one)"
    );
    assert!(ran * 2 >= count, "too few programs ran: {ran} of {count}");
}

#[test]
fn the_generator_is_deterministic() {
    assert_eq!(program(42), program(42));
    assert_ne!(program(42).0, program(43).0);
}
