//! The front end never panics and never overflows the stack, whatever the input: mutated
//! examples (a bounded, deterministic fuzz loop that runs in CI), random bytes, and
//! pathological shapes (deep nesting, long chains, huge files). On every input the token
//! and AST invariants hold and every diagnostic renders in all three formats.

use plc::diag::render;
use plc::driver::{self, Input, PipelineSpec, StopAt};
use plc::session::Session;
use plc::syntax;
use std::path::Path;

#[path = "../benches/support/generate.rs"]
mod generate;

/// Runs the whole front end on `bytes` and checks the invariants; panics (failing the test)
/// with the input's description when one is broken.
fn check(what: &str, bytes: Vec<u8>) {
    // The input being checked, kept so that a panic inside plc can be reproduced.
    let _ = std::fs::write(Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz_current.pl"), &bytes);
    let mut session = Session::new();
    let len = bytes.len();
    let (file, load_error) = session.add_source("input.pl", bytes);
    let parsed = session.parse(file, load_error);
    let f = session.files.get(file);
    let mut diags = Vec::new();
    let tokens = syntax::tokens(file, &f.text, &mut diags);
    let mut problems = syntax::validate::tokens(&f.text, &tokens);
    // Offsets in the text are offsets in the file, UTF-8 or not.
    if f.text.len() != len {
        problems.push(format!("the text is {} bytes, the file {len}", f.text.len()));
    }
    problems.extend(syntax::validate::ast(&f.text, &parsed.ast));
    for d in &parsed.diags {
        let labels = std::iter::once(&d.primary).chain(&d.secondary);
        for l in labels {
            if l.span.lo > l.span.hi || l.span.hi as usize > f.text.len() {
                problems.push(format!("diagnostic {} label {} out of bounds", d.code, l.span));
            }
        }
        let _ = render::human(&session.files, d);
        let _ = render::short(&session.files, d);
        problems.extend(json_positions_disagree(&session.files, d));
    }
    let _ = syntax::dump::ast(&f.text, &session.interner, &parsed.ast);
    // Lowering, printing and verifying must not panic either; a program that lowers
    // without errors must verify and print.
    let spec = PipelineSpec::default().verified();
    let mut c =
        driver::compile(Input::text("input.pl", bytes_of(&session, file)), &spec, StopAt::Lower).expect("in memory");
    if !c.has_errors() {
        for p in &c.programs {
            for d in plc::ir::verify::verify(p, &c.session.interner, false) {
                problems.push(format!("verifier: {}", d.message));
            }
        }
        let _ = plc::ir::print::programs(&c.programs, &c.session.interner);
        // The whole pipeline, with the verifier and property checks after each pass: user
        // errors are fine, internal ones (E07xx) are not.
        c.finish();
        for d in c.diags.iter().filter(|d| d.code.as_str().starts_with("E07")) {
            problems.push(format!("after the passes: {}", d.message));
        }
        let _ = plc::ir::print::programs(&c.programs, &c.session.interner);
        // The C++ emitter on whatever the passes accepted: errors are fine, a panic or an
        // internal error (E0708) is not.
        if let (false, Some(root)) = (c.has_errors(), c.root) {
            let opts = plc::emit::Options::default();
            if let Err(errors) = plc::emit::compile(&c.programs, &c.session.interner, root, &opts) {
                for d in errors.iter().filter(|d| d.code.as_str() == "E0708") {
                    problems.push(format!("emitter: {}", d.message));
                }
            }
        }
    }
    for d in &c.diags {
        let _ = render::human(&c.session.files, d);
    }
    if !problems.is_empty() {
        // Keep the input, to reproduce the failure with `plc`.
        let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz_failure.pl");
        let _ = std::fs::write(&path, bytes_of(&session, file));
        panic!("{what} (input kept in {}): {}", path.display(), problems.join("; "));
    }
}

/// Where the JSON form's lines and columns do not name the same place as its byte
/// offsets (`line`/`column` and `end_line`/`end_column` against `start` and `end`).
fn json_positions_disagree(files: &plc::source::SourceMap, d: &plc::diag::Diagnostic) -> Vec<String> {
    let json: serde_json::Value = serde_json::from_str(&render::json(files, d)).expect("the JSON form parses");
    let mut spans = vec![(&d.primary, &json["span"])];
    let labels = std::iter::once(&d.primary).chain(&d.secondary);
    spans.extend(labels.zip(json["labels"].as_array().expect("labels")).map(|(l, j)| (l, &j["span"])));
    let mut problems = Vec::new();
    for (label, span) in spans {
        let f = files.get(label.file);
        let field = |name: &str| span[name].as_u64().expect("a number") as u32;
        for (offset, line, column) in [("start", "line", "column"), ("end", "end_line", "end_column")] {
            let at = f.lines().line_start(field(line) as usize - 1) + field(column) - 1;
            if at != field(offset) || field(offset) as usize > f.text.len() {
                problems.push(format!(
                    "{} {line}:{column} {}:{} is byte {at}, not {offset} {}",
                    d.code,
                    field(line),
                    field(column),
                    field(offset)
                ));
            }
        }
    }
    problems
}

fn bytes_of(session: &Session, file: plc::source::FileId) -> Vec<u8> {
    session.files.get(file).text.as_bytes().to_vec()
}

/// A small deterministic generator (splitmix64), so that every run tests the same inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Fragments that stress the lexer, the layout stage and the grammar when spliced in.
const FRAGMENTS: &[&[u8]] = &[
    b"(",
    b")",
    b"[",
    b"]",
    b"{",
    b"}",
    b":",
    b",",
    b"\n",
    b"\r\n",
    b"    ",
    b"\t",
    b"\\",
    b"\\\n",
    b"\"",
    b"'",
    b"'''",
    b"\"\"\"",
    b"#",
    b"@pl.jit\n",
    b"def f(x: pl.Tensor):\n",
    b"with pl.graph(\"g\"):\n",
    b"class C:\n",
    b"lambda x: x",
    b" if ",
    b" else ",
    b"for",
    b"in",
    b"=",
    b"+=",
    b":=",
    b"**",
    b"not",
    b"\0",
    b"\xff",
    b"\xc3",
    b"\xc3\xa9",
    b"\xf0\x9f\x98\x80",
    b"$",
    b"?",
    b"!",
    b"0x",
    b"1e",
    b"1.5j",
    b"f\"{x}\"",
    b"rb'",
    b"...",
    b"return",
    b"pass",
    b"import",
    b"from . import",
    b"if __name__ == \"__main__\":\n",
    b"    @pl.function\n",
];

fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(6) {
            // Replace a byte.
            0 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] = (rng.next() & 0xFF) as u8;
            }
            // Delete a range.
            1 if !out.is_empty() => {
                let len = 1 + rng.below(16);
                let end = (at + len).min(out.len());
                out.drain(at.min(end)..end);
            }
            // Duplicate a range (often a whole line or block).
            2 if !out.is_empty() => {
                let start = rng.below(out.len());
                let end = (start + 1 + rng.below(200)).min(out.len());
                let piece = out[start..end].to_vec();
                let at = rng.below(out.len() + 1);
                out.splice(at..at, piece);
            }
            // Change the indentation at the start of a line.
            3 => {
                if let Some(nl) = out[at.min(out.len())..].iter().position(|&b| b == b'\n') {
                    let line = at + nl + 1;
                    let spaces = vec![b' '; rng.below(9)];
                    out.splice(line..line, spaces);
                }
            }
            // Insert a fragment.
            _ => {
                let frag = FRAGMENTS[rng.below(FRAGMENTS.len())];
                out.splice(at..at, frag.iter().copied());
            }
        }
    }
    out
}

fn corpus() -> Vec<(String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut stack = vec![root.join("examples"), root.join("tests/cases")];
    // More programs to mutate, for a longer run by hand (`.pl` and `.py` files).
    if let Some(extra) = std::env::var_os("PLC_FUZZ_CORPUS") {
        stack.push(extra.into());
    }
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "pl" || e == "py") {
                files.push((path.display().to_string(), std::fs::read(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn mutated_examples_never_crash() {
    let corpus = corpus();
    assert!(!corpus.is_empty());
    // About 2 000 inputs in all, spread over the corpus; `PLC_FUZZ_INPUTS` and
    // `PLC_FUZZ_SEED` make a longer or different run by hand.
    let var = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let mut rng = Rng(var("PLC_FUZZ_SEED", 0x5EED));
    let per_file = (var("PLC_FUZZ_INPUTS", 2000) as usize / corpus.len()).max(20);
    for (name, bytes) in &corpus {
        check(name, bytes.clone());
        for i in 0..per_file {
            let input = mutate(&mut rng, bytes);
            check(&format!("{name}, mutation {i}"), input);
        }
    }
}

const STRUCTURE: &[u8] = b"()[]{}:\n \t=#'\"\\@.,";

#[test]
fn random_bytes_never_crash() {
    let mut rng = Rng(42);
    for i in 0..300 {
        let len = rng.below(3000);
        let bytes: Vec<u8> = (0..len)
            .map(|_| match rng.below(4) {
                // Mostly printable ASCII with structure characters, some raw bytes.
                0 => STRUCTURE[rng.below(STRUCTURE.len())],
                1 => (rng.next() & 0xFF) as u8,
                _ => b' ' + (rng.below(95)) as u8,
            })
            .collect();
        check(&format!("random input {i}"), bytes);
    }
}

#[test]
fn empty_and_degenerate_files() {
    for src in [
        "",
        "\n",
        "\n\n\n",
        "   ",
        "\t",
        "#",
        "# only a comment",
        "\u{FEFF}",
        "\u{FEFF}x = 1\n",
        "\r",
        "\\",
        "\0",
        "pass",
    ] {
        check(&format!("{src:?}"), src.as_bytes().to_vec());
    }
    // Invalid UTF-8 is reported at its byte offset.
    let mut session = Session::new();
    let (file, err) = session.add_source("bad.pl", b"x = 1\ny = \xff\n".to_vec());
    let parsed = session.parse(file, err);
    assert_eq!(parsed.diags.len(), 1);
    assert_eq!(parsed.diags[0].code.as_str(), "E0003");
    assert_eq!(parsed.diags[0].primary.span.lo, 10);
}

/// Runs `check` and returns the diagnostic codes, for inputs whose outcome is known.
fn codes(src: &str) -> Vec<&'static str> {
    check("shape", src.as_bytes().to_vec());
    let mut session = Session::new();
    let (file, err) = session.add_source("input.pl", src.as_bytes().to_vec());
    session.parse(file, err).diags.iter().map(|d| d.code.as_str()).collect()
}

/// `stmt` as the body of a pl function, so that it is parsed (at the top level, a
/// non-constant assignment is host code).
fn in_function(stmt: &str) -> String {
    format!("@pl.jit\ndef f(a: pl.Tensor):\n    {stmt}\n")
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let n = 10_000;
    // Parentheses make no node of their own: no nesting to refuse.
    let src = in_function(&format!("x = {}1{}", "(".repeat(n), ")".repeat(n)));
    assert_eq!(codes(&src), Vec::<&str>::new());
    let src = in_function(&format!("x = {}1{}", "[".repeat(n), "]".repeat(n)));
    assert_eq!(codes(&src), ["E0120"]);
    let src = in_function(&format!("x = {}1{}", "f(".repeat(n), ")".repeat(n)));
    assert_eq!(codes(&src), ["E0120"]);
    let src = in_function(&format!("x = {}", "[".repeat(n)));
    assert_eq!(codes(&src), ["E0007"]);
    // Blocks.
    let mut src = String::from("@pl.jit\ndef f(x: pl.Tensor):\n");
    for depth in 1..=n {
        src.push_str(&" ".repeat(depth * 2));
        src.push_str("if x:\n");
    }
    src.push_str(&" ".repeat((n + 1) * 2));
    src.push_str("pass\n");
    assert_eq!(codes(&src), ["E0120"]);
    // Long chains, which need no brackets.
    let src = in_function(&format!("x = {}1", "a + ".repeat(100_000)));
    assert_eq!(codes(&src), ["E0120"]);
    let src = in_function(&format!("x = {}a", "not ".repeat(n)));
    assert_eq!(codes(&src), ["E0120"]);
    let src = in_function(&format!("x = {}a", "- ".repeat(n)));
    assert_eq!(codes(&src), ["E0120"]);
    let src = in_function(&format!("x = a{}", ".b".repeat(n)));
    assert_eq!(codes(&src), ["E0120"]);
    let src = in_function(&format!("x = a{}", "[0]".repeat(n)));
    assert_eq!(codes(&src), ["E0120"]);
    let src = in_function(&format!("x = a{}", " ** a".repeat(n)));
    assert_eq!(codes(&src), ["E0120"]);
    let src = in_function(&format!("{} = 1", "(a, ".repeat(n) + "b" + &")".repeat(n)));
    assert_eq!(codes(&src), ["E0120"]);
}

#[test]
fn long_inputs() {
    // A long line, a long string, many statements on one line.
    let src = format!("x = \"{}\"\n", "a".repeat(1 << 20));
    assert_eq!(codes(&src), Vec::<&str>::new());
    let src = in_function(&format!("x = [{}]", "a, ".repeat(200_000)));
    assert_eq!(codes(&src), Vec::<&str>::new());
    // A generated program of 100 000 lines parses without a diagnostic.
    let src = generate::program(100_000);
    assert!(src.lines().count() >= 99_000);
    assert_eq!(codes(&src), Vec::<&str>::new());
}

/// Runs `f` in a thread with a 2 MiB stack (the test harness's default, made explicit): a
/// walk that recursed once per term or per level of these inputs would overflow it.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// The codes of a file compiled up to lowering (the IR is not walked: a flat sum of
/// thousands of terms is an IR expression as high, which the passes walk recursively).
fn lowered_codes(src: &str) -> Vec<&'static str> {
    let c = driver::compile(Input::text("input.pl", src.as_bytes().to_vec()), &PipelineSpec::default(), StopAt::Lower)
        .expect("in memory");
    c.diags.iter().map(|d| d.code.as_str()).collect()
}

fn module_constant(value: &str) -> String {
    format!("import pypto.language as pl\nX = {value}\n")
}

#[test]
fn the_reported_stack_overflows_are_errors_everywhere() {
    on_small_stack(|| {
        // Module constants, which were folded recursively before any check.
        let sum = vec!["1"; 11_500].join("+");
        assert_eq!(codes(&module_constant(&sum)), ["E0120"], "11 500 terms");
        let n = 100_000;
        assert_eq!(codes(&module_constant(&format!("{}1{}", "[".repeat(n), "]".repeat(n)))), ["E0120"]);
        assert_eq!(codes(&module_constant(&format!("{}1", "-".repeat(20_000)))), ["E0120"]);
        assert_eq!(codes(&module_constant(&format!("{}1", "not ".repeat(20_000)))), ["E0120"]);
        assert_eq!(codes(&module_constant(&format!("{}1", "~".repeat(20_000)))), ["E0120"]);
        // Annotations.
        let deep = format!("{}1", "-".repeat(20_000));
        let src =
            format!("import pypto.language as pl\n@pl.jit\ndef f(a: pl.Tensor[[{deep}], pl.FP32]):\n    return a\n");
        assert_eq!(codes(&src), ["E0120"]);
        let src = format!(
            "import pypto.language as pl\n@pl.jit\ndef f(a: pl.Tensor[[{}], pl.FP32]):\n    return a\n",
            vec!["1"; 11_000].join("+")
        );
        assert_eq!(codes(&src), ["E0120"]);
        // Host code: never parsed, but refused as Python refuses it (note N0001 first).
        let src = format!("x = torch.zeros({}1{})\n", "[".repeat(n), "]".repeat(n));
        assert_eq!(codes(&src), ["N0001", "E0120"]);
        let src = format!("print({}1)\n", "-".repeat(20_000));
        assert_eq!(codes(&src), ["N0001", "E0120"]);
        // At the limits, host code is fine.
        let src = format!("print({}1{})\n", "(".repeat(199), ")".repeat(199));
        assert_eq!(codes(&src), ["N0001"]);
    });
}

#[test]
fn flat_chains_of_thousands_of_terms_are_accepted() {
    on_small_stack(|| {
        // CPython compiles sums of a few thousand terms: they are one level of nesting.
        let sum = vec!["1"; 5_000].join(" + ");
        assert_eq!(codes(&module_constant(&sum)), Vec::<&str>::new());
        let mut session = Session::new();
        let (file, err) = session.add_source("c.pl", module_constant(&sum).into_bytes());
        assert!(session.parse(file, err).diags.is_empty());
        let all = vec!["True"; 5_000].join(" and ");
        assert_eq!(codes(&module_constant(&all)), Vec::<&str>::new());
        // In a function, the 201-term sum that used to be refused, and a 5 000-term one.
        for terms in [201, 5_000, 9_000] {
            let sum = vec!["n"; terms].join(" + ") + " - n * 2";
            let src = format!(
                "import pypto.language as pl\n@pl.jit\ndef f(a: pl.Tensor[[4], pl.FP32], n: pl.INDEX):\n    x = {sum}\n    return a\n"
            );
            assert_eq!(lowered_codes(&src), Vec::<&str>::new(), "{terms} terms");
        }
        // A constant chain folds to its value.
        let src = format!(
            "import pypto.language as pl\nN = {}\n@pl.jit\ndef f(a: pl.Tensor[[N], pl.FP32]):\n    return a\n",
            vec!["2"; 5_000].join(" + ")
        );
        let c =
            driver::compile(Input::text("c.pl", src.into_bytes()), &PipelineSpec::default(), StopAt::Lower).unwrap();
        assert!(c.diags.is_empty());
        let ir = plc::ir::print::programs(&c.programs, &c.session.interner);
        assert!(ir.contains("pl.Tensor[[10000], pl.FP32]"), "{ir}");
        // Real nesting is still limited: a chain nested in brackets counts each bracket.
        let nested = format!("{}n{}", "(n + ".repeat(250), ")".repeat(250));
        let src = format!(
            "import pypto.language as pl\n@pl.jit\ndef f(a: pl.Tensor[[4], pl.FP32], n: pl.INDEX):\n    x = {nested}\n    return a\n"
        );
        assert_eq!(lowered_codes(&src), ["E0120"]);
    });
}
