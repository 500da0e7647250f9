//! The language server's edit loop on generated files of 5 000 and 20 000 lines
//! (`support/generate.rs`), in process over a memory connection (the message loop and
//! its workers as `plc lsp` runs them, without the stdio transport):
//! - `edit`: a one-character ranged change inside the function in the middle of the file,
//!   until the diagnostics of its version are published;
//! - `analysis`: what one version costs alone (the analysis the workers run);
//! - `hover`, `definition`, `symbols`: a request on the analysed document, until its answer.
//!
//! Run with `cargo bench --bench lsp`. `scripts/lsp-vs-ruff.py` measures the same loop
//! over stdio against `ruff server` (see `docs/lsp.md`, Performance).

use divan::Bencher;
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};

#[path = "support/generate.rs"]
mod generate;

fn main() {
    divan::main();
}

const SIZES: [usize; 2] = [5_000, 20_000];
const URI: &str = "untitled:bench.pl";

/// A server with the generated file open and analysed, and where the edits go.
struct Session {
    client: Connection,
    text: String,
    version: i32,
    next_id: i32,
    /// The position of the digit in `base = step * ROWS + {i} % 7` of the middle function.
    digit: (u32, u32),
    /// The position of the middle function's region name.
    region: (u32, u32),
}

impl Session {
    fn start(lines: usize) -> Session {
        let text = generate::program(lines);
        let (server, client) = Connection::memory();
        std::thread::spawn(move || plc::lsp::serve(&server));
        let functions = text.matches("@pl.jit\n").count();
        let line_of = |needle: &str| text.lines().position(|l| l == needle).expect("the generator's text") as u32;
        let mid = functions / 2;
        let digit = (line_of(&format!("            base = step * ROWS + {mid} % 7")), 0);
        let digit = (digit.0, format!("            base = step * ROWS + {mid} % ").len() as u32);
        let region = (line_of(&format!("        with pl.graph(\"band_{mid}\"):")), 24);
        let mut s = Session { client, text, version: 1, next_id: 0, digit, region };
        s.request("initialize", json!({ "capabilities": {} }));
        s.notify("initialized", json!({}));
        let open = json!({ "textDocument": { "uri": URI, "languageId": "python", "version": 1, "text": s.text } });
        s.notify("textDocument/didOpen", open);
        s.wait_diagnostics();
        s
    }

    fn notify(&self, method: &str, params: Value) {
        self.client.sender.send(Message::Notification(Notification { method: method.to_string(), params })).unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let request = Request { id: id.clone(), method: method.to_string(), params };
        self.client.sender.send(Message::Request(request)).unwrap();
        loop {
            if let Message::Response(r) = self.client.receiver.recv().unwrap() {
                if r.id == id {
                    return r.response_result.unwrap();
                }
            }
        }
    }

    /// Waits for the publication of the current version.
    fn wait_diagnostics(&self) {
        loop {
            if let Message::Notification(n) = self.client.receiver.recv().unwrap() {
                if n.method == "textDocument/publishDiagnostics" && n.params["version"] == self.version {
                    return;
                }
            }
        }
    }

    /// One keystroke: the digit becomes 8 or 7.
    fn edit(&mut self) {
        self.version += 1;
        let (line, col) = self.digit;
        let digit = if self.version % 2 == 0 { "8" } else { "7" };
        let range =
            json!({ "start": { "line": line, "character": col }, "end": { "line": line, "character": col + 1 } });
        let params = json!({ "textDocument": { "uri": URI, "version": self.version },
                             "contentChanges": [{ "range": range, "text": digit }] });
        self.notify("textDocument/didChange", params);
    }

    fn at(&self, (line, character): (u32, u32)) -> Value {
        json!({ "textDocument": { "uri": URI }, "position": { "line": line, "character": character } })
    }
}

#[divan::bench(args = SIZES, sample_count = 10)]
fn edit(bencher: Bencher, lines: usize) {
    let mut s = Session::start(lines);
    bencher.bench_local(|| {
        s.edit();
        s.wait_diagnostics();
    });
}

#[divan::bench(args = SIZES, sample_count = 10)]
fn analysis(bencher: Bencher, lines: usize) {
    let text = generate::program(lines);
    bencher.bench(|| plc::lsp::analysis::analyze("bench.pl", None, &text));
}

#[divan::bench(args = SIZES, sample_count = 20)]
fn hover(bencher: Bencher, lines: usize) {
    let mut s = Session::start(lines);
    let at = s.at(s.region);
    bencher.bench_local(|| {
        let hover = s.request("textDocument/hover", at.clone());
        assert!(hover["contents"]["value"].as_str().is_some_and(|v| v.starts_with("**Graph function")));
    });
}

#[divan::bench(args = SIZES, sample_count = 20)]
fn definition(bencher: Bencher, lines: usize) {
    let mut s = Session::start(lines);
    // `ROWS` in the edited line.
    let at = s.at((s.digit.0, 26));
    bencher.bench_local(|| {
        let location = s.request("textDocument/definition", at.clone());
        assert_eq!(location["range"]["start"]["line"], 2);
    });
}

#[divan::bench(args = SIZES, sample_count = 20)]
fn symbols(bencher: Bencher, lines: usize) {
    let mut s = Session::start(lines);
    let params = json!({ "textDocument": { "uri": URI } });
    bencher.bench_local(|| s.request("textDocument/documentSymbol", params.clone()));
}
