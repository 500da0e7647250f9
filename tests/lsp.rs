//! `plc lsp` driven by scripted sessions: in-process over a memory connection (the server
//! loop exactly as the binary runs it, without the stdio transport), and as a subprocess
//! over stdin/stdout for the transport and the exit status. Every answer is compared with
//! exact values: ranges in UTF-16 units, codes, names, parameter lists, error codes.

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread::JoinHandle;
use std::time::Duration;

/// How long a test waits for an answer before it fails (a hang is a failure, not a wait).
const TIMEOUT: Duration = Duration::from_secs(120);

const KERNEL: &str = "\
import pypto.language as pl


@pl.jit.incore
def kern(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    t = pl.load(x, [0, 0], [64, 64])
    pl.store(t, [0, 0], y)
    return y
";

/// A client of an in-process server.
struct Client {
    conn: Connection,
    server: Option<JoinHandle<bool>>,
    next_id: i32,
    /// Notifications received while waiting for a response, oldest first.
    pending: Vec<Notification>,
}

impl Client {
    /// A server that has not been initialized.
    fn raw() -> Client {
        Client::raw_with(plc::lsp::analysis::analyze_unless)
    }

    /// As `raw`, with documents compiled by `analyze`.
    fn raw_with(analyze: plc::lsp::Analyzer) -> Client {
        let (server, client) = Connection::memory();
        let handle = std::thread::spawn(move || plc::lsp::serve_with(&server, analyze));
        Client { conn: client, server: Some(handle), next_id: 1, pending: Vec::new() }
    }

    /// A server after `initialize` and `initialized`.
    fn start() -> Client {
        Client::start_with(plc::lsp::analysis::analyze_unless)
    }

    /// As `start`, with documents compiled by `analyze`.
    fn start_with(analyze: plc::lsp::Analyzer) -> Client {
        let mut c = Client::raw_with(analyze);
        let r = c.request("initialize", json!({ "capabilities": {} }));
        assert!(r.response_result.is_ok(), "{r:?}");
        c.notify("initialized", json!({}));
        c
    }

    fn send(&self, message: Message) {
        self.conn.sender.send(message).expect("the server is running");
    }

    fn notify(&self, method: &str, params: Value) {
        self.send(Message::Notification(Notification { method: method.to_string(), params }));
    }

    fn recv(&self) -> Message {
        self.conn.receiver.recv_timeout(TIMEOUT).expect("the server answers in time")
    }

    /// Sends a request and waits for its response; notifications received meanwhile are
    /// kept for `diagnostics`.
    fn request(&mut self, method: &str, params: Value) -> Response {
        let id = RequestId::from(self.next_id);
        self.next_id += 1;
        self.send(Message::Request(Request { id: id.clone(), method: method.to_string(), params }));
        loop {
            match self.recv() {
                Message::Response(r) => {
                    assert_eq!(r.id, id, "responses come in request order");
                    return r;
                }
                Message::Notification(n) => self.pending.push(n),
                Message::Request(r) => panic!("the server sent a request: {r:?}"),
            }
        }
    }

    /// The result of a request that must succeed.
    fn ok(&mut self, method: &str, params: Value) -> Value {
        let r = self.request(method, params);
        match r.response_result {
            Ok(v) => v,
            Err(e) => panic!("{method} failed: {e:?}"),
        }
    }

    /// The next `publishDiagnostics` for `uri` (earlier ones for it are skipped over only
    /// if they were already received), as (version, diagnostics).
    fn diagnostics(&mut self, uri: &str) -> (Value, Vec<Value>) {
        loop {
            if let Some(i) = self.pending.iter().position(|n| is_publish_for(n, uri)) {
                let n = self.pending.remove(i);
                let diags = n.params["diagnostics"].as_array().cloned().unwrap_or_default();
                return (n.params["version"].clone(), diags);
            }
            match self.recv() {
                Message::Notification(n) => self.pending.push(n),
                other => panic!("expected a notification, got {other:?}"),
            }
        }
    }

    fn open(&mut self, uri: &str, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "python", "version": 1, "text": text } }),
        );
        self.diagnostics(uri).1
    }

    fn change(&mut self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": text }] }),
        );
    }

    /// `shutdown` then `exit`; returns what the server loop returned (a clean end).
    fn stop(mut self) -> bool {
        let r = self.request("shutdown", Value::Null);
        assert_eq!(r.response_result.unwrap(), Value::Null);
        self.notify("exit", Value::Null);
        self.server.take().unwrap().join().expect("the server thread does not panic")
    }
}

fn is_publish_for(n: &Notification, uri: &str) -> bool {
    n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri
}

fn position(line: u32, character: u32) -> Value {
    json!({ "line": line, "character": character })
}

fn range(l0: u32, c0: u32, l1: u32, c1: u32) -> Value {
    json!({ "start": position(l0, c0), "end": position(l1, c1) })
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": position(line, character) })
}

/// A fresh directory for a test's files (canonical, so that URIs compare exactly).
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lsp").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.canonicalize().unwrap()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    uri_of(&path)
}

fn uri_of(path: &Path) -> String {
    plc::lsp::convert::path_to_uri(path).unwrap().as_str().to_string()
}

/// The 0-based line and UTF-16 column of the first occurrence of `needle` in `text`.
fn find(text: &str, needle: &str) -> (u32, u32) {
    let at = text.find(needle).unwrap_or_else(|| panic!("`{needle}` is in the text"));
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..at].matches('\n').count() as u32;
    (line, text[line_start..at].encode_utf16().count() as u32)
}

/// The program of the E0305 test: the outer region's line ends with a comment in
/// non-ASCII text, and both region names are non-ASCII, so UTF-16 columns differ from
/// byte columns on both ranges.
fn nested_regions() -> String {
    format!(
        "{KERNEL}

@pl.jit
def main(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.graph(\"数据\"):  # café 数据
        with pl.graph(\"café_数据\"):
            y = kern(x, y)
    return y
"
    )
}

#[test]
fn initialize_advertises_what_the_server_implements() {
    let mut c = Client::raw();
    let result = c.ok("initialize", json!({ "capabilities": {}, "processId": null }));
    assert_eq!(
        result,
        json!({
            "capabilities": {
                "positionEncoding": "utf-16",
                "textDocumentSync": { "openClose": true, "change": 2, "save": { "includeText": false } },
                "hoverProvider": true,
                "definitionProvider": true,
                "documentSymbolProvider": true,
                "diagnosticProvider": { "identifier": "plc", "interFileDependencies": true, "workspaceDiagnostics": false },
            },
            "serverInfo": { "name": "plc", "version": env!("CARGO_PKG_VERSION") },
        })
    );
    c.notify("initialized", json!({}));
    assert!(c.stop());
}

#[test]
fn a_nested_region_is_one_e0305_with_utf16_ranges() {
    let dir = scratch_dir("nested");
    let text = nested_regions();
    let uri = write(&dir, "nested.pl", &text);
    let mut c = Client::start();
    let diags = c.open(&uri, &text);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    let d = &diags[0];
    assert_eq!(d["code"], "E0305");
    assert_eq!(d["severity"], 1);
    assert_eq!(d["source"], "plc");
    // `        with pl.graph("café_数据")`: 32 UTF-16 units, 36 bytes.
    let (line, _) = find(&text, "with pl.graph(\"café_数据\")");
    assert_eq!(d["range"], range(line, 8, line, 32));
    // The outer region `    with pl.graph("数据")`: 23 units, 27 bytes.
    assert_eq!(
        d["relatedInformation"],
        json!([{ "location": { "uri": uri, "range": range(line - 1, 4, line - 1, 23) },
                 "message": "inside the region `数据`" }])
    );
    // The message is plc's, with its help on a line of its own.
    let (spec, stop) = (plc::driver::PipelineSpec::default(), plc::driver::StopAt::Lower);
    let lowered = plc::driver::compile(plc::driver::Input::text("nested.pl", text.clone()), &spec, stop).unwrap();
    let expected = &lowered.diags[0];
    assert_eq!(expected.code.as_str(), "E0305");
    let help = expected.help.as_deref().expect("E0305 has a help");
    assert_eq!(d["message"], format!("{}\nhelp: {help}", expected.message));

    // Fixed: the inner region is gone; the list is empty.
    let fixed = text.replace("        with pl.graph(\"café_数据\"):\n    ", "    ");
    c.change(&uri, 2, &fixed);
    assert_eq!(c.diagnostics(&uri), (json!(2), Vec::new()));
    assert!(c.stop());
}

#[test]
fn an_error_after_non_ascii_text_on_its_line_then_a_fix() {
    let dir = scratch_dir("syntax");
    let text = format!(
        "{KERNEL}\n\n@pl.jit\ndef main(x: pl.Tensor[[64, 64], pl.FP32]):\n    s = \"café 数据\" +* 2\n    return x\n"
    );
    let uri = write(&dir, "syntax.pl", &text);
    let mut c = Client::start();
    let diags = c.open(&uri, &text);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0]["code"], "E0101");
    // `    s = "café 数据" +* 2`: the `*` is at UTF-16 column 19 (byte 24).
    let (line, _) = find(&text, "+* 2");
    assert_eq!(diags[0]["range"], range(line, 19, line, 20));
    // Edits that keep the error keep it where it is; the fix clears the list.
    c.change(&uri, 2, &text.replace("+* 2", "+* 3"));
    let (version, diags) = c.diagnostics(&uri);
    assert_eq!((version, diags[0]["range"].clone()), (json!(2), range(line, 19, line, 20)));
    c.change(&uri, 3, &text.replace("    s = \"café 数据\" +* 2\n", ""));
    assert_eq!(c.diagnostics(&uri), (json!(3), Vec::new()));
    // Closing a document clears what was published for it.
    c.notify("textDocument/didClose", json!({ "textDocument": { "uri": uri } }));
    assert_eq!(c.diagnostics(&uri), (Value::Null, Vec::new()));
    assert!(c.stop());
}

/// A pass's own check reaches the editor: InlineFunctions splices a region of an Inline
/// function into a region of its caller, and OutlineGraphScopes reports E0401 at both.
#[test]
fn errors_of_the_passes_are_published_too() {
    let dir = scratch_dir("passes");
    let text = format!(
        "{KERNEL}

@pl.jit.inline
def wrap(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.graph(\"inner\"):
        y = kern(x, y)
    return y


@pl.jit
def main(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.graph(\"outer\"):
        y = wrap(x, y)
    return y
"
    );
    let uri = write(&dir, "passes.pl", &text);
    let mut c = Client::start();
    let diags = c.open(&uri, &text);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0]["code"], "E0401");
    let (inner, _) = find(&text, "with pl.graph(\"inner\")");
    let (outer, _) = find(&text, "with pl.graph(\"outer\")");
    assert_eq!(diags[0]["range"], range(inner, 4, inner, 26));
    assert_eq!(diags[0]["relatedInformation"][0]["location"]["range"], range(outer, 4, outer, 26));
    assert!(c.stop());
}

#[test]
fn hover_on_a_region_name_shows_its_graph_function() {
    let dir = scratch_dir("hover");
    let text = format!(
        "{KERNEL}

@pl.jit
def main(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.graph(\"layer\"):
        y = kern(x, y)
    with pl.graph(\"layer\"):  # the same name: the second function is layer_0
        y = kern(y, y)
    return y
"
    );
    let uri = write(&dir, "hover.pl", &text);
    let mut c = Client::start();
    assert_eq!(c.open(&uri, &text), Vec::<Value>::new());

    let first = find(&text, "\"layer\"");
    let second = find(&text, "\"layer\"):  # the same");
    // The Graph functions `plc check` makes: the names are the regions' (the second made
    // distinct), the parameters those the regions capture, in first-read order.
    let graphs = graph_functions(&dir.join("hover.pl"), None);
    let names: Vec<(&str, Vec<&str>)> =
        graphs.iter().map(|(n, ps, _)| (n.as_str(), ps.iter().map(|p| p.0.as_str()).collect())).collect();
    assert_eq!(names, [("layer", vec!["x__ssa_v0", "y__ssa_v0"]), ("layer_0", vec!["y__ssa_v1"])]);
    let hover = c.ok("textDocument/hover", at(&uri, second.0, second.1 + 3));
    assert_eq!(hover["range"], range(second.0, 18, second.0, 25));
    assert_eq!(hover["contents"]["kind"], "markdown");
    assert_eq!(hover["contents"]["value"], expected_hover(&graphs[1], "layer", "main"));
    let hover = c.ok("textDocument/hover", at(&uri, first.0, first.1));
    assert_eq!(hover["contents"]["value"], expected_hover(&graphs[0], "layer", "main"));
    // The first region reads `x` only, and passes it to kern's In parameter.
    assert_eq!(&graphs[0].1[0].1, "In");
    // Off the name (on `pl.graph`, on the closing parenthesis, on a call): nothing.
    assert_eq!(c.ok("textDocument/hover", at(&uri, first.0, first.1 - 3)), Value::Null);
    assert_eq!(c.ok("textDocument/hover", at(&uri, first.0, first.1 + 7)), Value::Null);
    let call = find(&text, "kern(x, y)\n    with");
    assert_eq!(c.ok("textDocument/hover", at(&uri, call.0, call.1)), Value::Null);

    // A region in a program with errors is not outlined; the hover says so.
    let broken = text.replace("y = kern(y, y)", "y = kern(y, undefined_name)");
    c.change(&uri, 2, &broken);
    assert_eq!(c.diagnostics(&uri).1.len(), 1);
    let hover = c.ok("textDocument/hover", at(&uri, second.0, second.1 + 1));
    let value = hover["contents"]["value"].as_str().unwrap().to_string();
    assert!(value.starts_with("**`pl.graph(\"layer\")`** — not outlined: the program has errors"), "{value}");
    assert!(c.stop());
}

/// The seed example: LegalizeGraphBoundary turns the scalar `base`, derived inside the
/// region, into a parameter computed at the call site. The hover shows the boundary after
/// it, because it reads the program of the whole pipeline.
#[test]
fn hover_shows_the_parameters_the_boundary_pass_adds() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/accumulate_band.pl");
    let text = std::fs::read_to_string(&path).unwrap();
    let uri = uri_of(&path.canonicalize().unwrap());
    let mut c = Client::start();
    assert_eq!(c.open(&uri, &text), Vec::<Value>::new());
    let (line, col) = find(&text, "\"accumulate_band\"");
    let hover = c.ok("textDocument/hover", at(&uri, line, col + 1));
    let graphs = graph_functions(&path, None);
    assert_eq!(graphs.len(), 1);
    assert_eq!(hover["contents"]["value"], expected_hover(&graphs[0], "accumulate_band", "entry"));
    let outlined = graph_functions(&path, Some("OutlineGraphScopes"));
    let before: Vec<&str> = outlined[0].1.iter().map(|p| p.0.as_str()).collect();
    let after: Vec<&str> = graphs[0].1.iter().map(|p| p.0.as_str()).collect();
    assert!(!before.contains(&"base__ssa_v0"), "{before:?}");
    assert_eq!(graphs[0].1.last().unwrap(), &("base__ssa_v0".into(), "In".into(), "pl.Scalar[pl.INDEX]".into()));
    assert!(after.len() > before.len(), "{after:?}");
    assert!(c.stop());
}

#[test]
fn definition_across_files_and_in_a_program_class() {
    let dir = scratch_dir("definition");
    let config = "import pypto.language as pl\n\nROWS = 64\nCOLS = 64\n";
    let config_uri = write(&dir, "config.pl", config);
    let kernels = format!("{}\nfrom ..config import ROWS as R\n", KERNEL.replace("[[64, 64]", "[[R, 64]"));
    let kernels_uri = write(&dir, "kernels/__init__.pl", &kernels);
    let model = "\
import pypto.language as pl

from .config import ROWS, COLS
from .kernels import kern
from .scales import *


@pl.jit
def main(x: pl.Tensor[[ROWS, COLS], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    with pl.graph(\"band\"):
        y = kern(x, y)
    return y


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.InCore)
    def scale(self, x: pl.Tensor[[ROWS, COLS], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
        t = pl.load(x, [0, 0], [ROWS, COLS])
        pl.store(pl.mul(t, SCALE), [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[ROWS, COLS], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
        y = self.scale(x, y)
        return y
";
    let scales = "import pypto.language as pl\n\nSCALE = 2.0\n";
    let scales_uri = write(&dir, "scales.pl", scales);
    let model_uri = write(&dir, "model.pl", model);
    let mut c = Client::start();
    assert_eq!(c.open(&model_uri, model), Vec::<Value>::new(), "the package compiles");

    let location = |uri: &str, text: &str, needle: &str, len: u32| {
        let (line, col) = find(text, needle);
        json!({ "uri": uri, "range": range(line, col, line, col + len) })
    };
    // A call of a function imported from a package: its `def` in kernels/__init__.pl.
    let call = find(model, "kern(x, y)");
    assert_eq!(
        c.ok("textDocument/definition", at(&model_uri, call.0, call.1 + 2)),
        location(&kernels_uri, &kernels, "kern(", 4)
    );
    // A constant used in an annotation, through `from .config import ROWS`.
    let rows = find(model, "ROWS, COLS], pl.FP32], y");
    assert_eq!(
        c.ok("textDocument/definition", at(&model_uri, rows.0, rows.1)),
        location(&config_uri, config, "ROWS =", 4)
    );
    // On the imported name in the import itself.
    let imported = find(model, "COLS\n");
    assert_eq!(
        c.ok("textDocument/definition", at(&model_uri, imported.0, imported.1 + 1)),
        location(&config_uri, config, "COLS =", 4)
    );
    // `self.scale(...)` in a program class: the method.
    let method_call = find(model, "scale(x, y)");
    assert_eq!(
        c.ok("textDocument/definition", at(&model_uri, method_call.0, method_call.1)),
        location(&model_uri, model, "scale(self", 5)
    );
    // A parameter is the function's own, even where a module name could be meant.
    let param_use = find(model, "x, [0, 0]");
    assert_eq!(
        c.ok("textDocument/definition", at(&model_uri, param_use.0, param_use.1)),
        location(
            &model_uri,
            model,
            "x: pl.Tensor[[ROWS, COLS], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):\n        t",
            1
        )
    );
    // Following an alias from the second file: `R` in kernels/__init__.pl is config's ROWS.
    assert_eq!(c.open(&kernels_uri, &kernels), Vec::<Value>::new());
    let alias = find(&kernels, "[[R, 64]");
    assert_eq!(
        c.ok("textDocument/definition", at(&kernels_uri, alias.0, alias.1 + 2)),
        location(&config_uri, config, "ROWS =", 4)
    );
    // Nothing to go to: a pl op, a literal.
    let op = find(model, "load(");
    assert_eq!(c.ok("textDocument/definition", at(&model_uri, op.0, op.1)), Value::Null);
    let literal = find(model, "[0, 0], [ROWS");
    assert_eq!(c.ok("textDocument/definition", at(&model_uri, literal.0, literal.1 + 1)), Value::Null);
    // A name that comes from `from .scales import *`.
    let scale = find(model, "SCALE)");
    assert_eq!(
        c.ok("textDocument/definition", at(&model_uri, scale.0, scale.1)),
        location(&scales_uri, scales, "SCALE =", 5)
    );
    assert!(c.stop());
}

#[test]
fn diagnostics_of_an_imported_file_go_to_its_uri() {
    let dir = scratch_dir("imported");
    let broken =
        "import pypto.language as pl\n\nROWS = 64\n\n\n@pl.jit\ndef helper(x: pl.Tensor):\n    return \"café\" +* 2\n";
    let config_uri = write(&dir, "config.pl", broken);
    let model = format!(
        "{KERNEL}\nfrom .config import ROWS\n\n\n@pl.jit\ndef main(x: pl.Tensor[[ROWS, 64], pl.FP32]):\n    return x\n"
    );
    let model_uri = write(&dir, "model.pl", &model);
    let mut c = Client::start();
    assert_eq!(c.open(&model_uri, &model), Vec::<Value>::new());
    let (version, in_config) = c.diagnostics(&config_uri);
    assert_eq!(version, Value::Null, "config.pl is not open");
    assert_eq!(in_config.len(), 1, "{in_config:#?}");
    assert_eq!(in_config[0]["code"], "E0101");
    // `    return "café" +* 2`: the `*` is at UTF-16 column 19 (byte 20).
    assert_eq!(in_config[0]["range"], range(7, 19, 7, 20));

    // Fixing the imported file on disk and saving it checks the open file again.
    std::fs::write(dir.join("config.pl"), broken.replace("\"café\" +* 2", "x")).unwrap();
    c.notify("textDocument/didSave", json!({ "textDocument": { "uri": config_uri } }));
    assert_eq!(c.diagnostics(&config_uri), (Value::Null, Vec::new()));
    assert_eq!(c.diagnostics(&model_uri), (json!(1), Vec::new()));
    assert!(c.stop());
}

#[test]
fn document_symbols_list_functions_classes_and_regions() {
    let dir = scratch_dir("symbols");
    let text = format!(
        "{KERNEL}

@pl.jit
def main(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    for i in pl.range(2):
        with pl.graph(\"band\"):
            y = kern(x, y)
    return y


@pl.program
class Prog:
    @pl.function(type=pl.FunctionType.Orchestration)
    def run(self, x: pl.Tensor[[64, 64], pl.FP32]):
        with pl.graph(\"once\"):
            pass
        return x


if __name__ == \"__main__\":
    print(\"host code is not in the outline\")
"
    );
    let uri = write(&dir, "symbols.pl", &text);
    let mut c = Client::start();
    c.open(&uri, &text);
    let symbols = c.ok("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    // (name, kind, detail, selection start, children) for each symbol, depth first.
    fn outline(symbols: &Value) -> Vec<Value> {
        symbols
            .as_array()
            .unwrap()
            .iter()
            .map(|s| json!([s["name"], s["kind"], s["detail"], s["selectionRange"]["start"], outline(&s["children"])]))
            .collect()
    }
    let p = |needle: &str| {
        let (l, c) = find(&text, needle);
        position(l, c)
    };
    assert_eq!(
        Value::Array(outline(&symbols)),
        json!([
            ["kern", 12, "@pl.jit.incore", p("kern("), []],
            ["main", 12, "@pl.jit", p("main("), [["band", 3, "pl.graph region", p("\"band\""), []]]],
            [
                "Prog",
                5,
                "@pl.program",
                p("Prog:"),
                [[
                    "run",
                    6,
                    "@pl.function(type=pl.FunctionType.Orchestration)",
                    p("run("),
                    [["once", 3, "pl.graph region", p("\"once\""), []]]
                ]]
            ],
        ])
    );
    // A symbol's range covers its decorators and body; the region's covers its block.
    let main = &symbols[1];
    let (def_line, _) = find(&text, "@pl.jit\ndef main");
    let (return_line, _) = find(&text, "    return y\n\n\n@pl.program");
    assert_eq!(main["range"], range(def_line, 0, return_line, 12));
    let (with_line, _) = find(&text, "with pl.graph(\"band\")");
    assert_eq!(main["children"][0]["range"], range(with_line, 8, with_line + 1, 26));
    assert!(c.stop());
}

#[test]
fn protocol_errors_get_the_codes_the_specification_gives() {
    let mut c = Client::raw();
    // Before `initialize`: ServerNotInitialized; notifications are dropped.
    c.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": "file:///x.pl", "languageId": "python", "version": 1, "text": "x = $" } }),
    );
    let r = c.request("textDocument/hover", at("file:///x.pl", 0, 0));
    assert_eq!(r.response_result.unwrap_err().code, -32002);
    c.ok("initialize", json!({ "capabilities": {} }));
    // No diagnostics were published for the document opened too early.
    assert!(c.pending.is_empty(), "{:?}", c.pending);
    // A second `initialize` is an invalid request.
    assert_eq!(c.request("initialize", json!({ "capabilities": {} })).response_result.unwrap_err().code, -32600);
    // Requests plc does not implement: MethodNotFound, `$/` ones included.
    for method in ["textDocument/completion", "workspace/symbol", "$/unknown", "nonsense"] {
        let r = c.request(method, json!({}));
        let e = r.response_result.unwrap_err();
        assert_eq!(e.code, -32601, "{method}");
        assert!(e.message.contains(method), "{}", e.message);
    }
    // A known request with parameters of the wrong shape: InvalidParams.
    let r = c.request("textDocument/hover", json!({ "textDocument": 5 }));
    assert_eq!(r.response_result.unwrap_err().code, -32602);
    let r = c.request("textDocument/definition", Value::Null);
    assert_eq!(r.response_result.unwrap_err().code, -32602);
    // Notifications that are unknown or malformed are ignored; the server still answers.
    c.notify("$/cancelRequest", json!({ "id": 1 }));
    c.notify("workspace/didChangeConfiguration", json!({ "settings": {} }));
    c.notify("textDocument/didOpen", json!({ "textDocument": "not a document" }));
    c.notify("textDocument/didChange", json!({ "textDocument": { "uri": "file:///never-opened.pl", "version": 2 }, "contentChanges": [{ "text": "x" }] }));
    c.notify("textDocument/didClose", json!({ "textDocument": { "uri": "file:///never-opened.pl" } }));
    // Requests on documents that are not open have no answer to give.
    assert_eq!(c.ok("textDocument/hover", at("file:///never-opened.pl", 0, 0)), Value::Null);
    assert_eq!(
        c.ok("textDocument/documentSymbol", json!({ "textDocument": { "uri": "file:///never-opened.pl" } })),
        Value::Null
    );
    assert!(c.pending.is_empty(), "nothing was published: {:?}", c.pending);
    // After `shutdown`, requests are invalid; `exit` then ends the session cleanly.
    assert_eq!(c.request("shutdown", Value::Null).response_result.unwrap(), Value::Null);
    assert_eq!(c.request("textDocument/hover", at("file:///x.pl", 0, 0)).response_result.unwrap_err().code, -32600);
    c.notify("exit", Value::Null);
    assert!(c.server.take().unwrap().join().unwrap(), "exit after shutdown is a clean end");
}

#[test]
fn exit_without_shutdown_is_not_a_clean_end() {
    let c = Client::start();
    c.notify("exit", Value::Null);
    let mut c = c;
    assert!(!c.server.take().unwrap().join().unwrap());
}

#[test]
fn a_document_that_never_parses() {
    let garbage = "\u{0}\u{7f}def (((( ]]] \"unterminated\n\tclass:\n  @@@ 数据 \u{FEFF}\r\n)))\\\n";
    let mut c = Client::start();
    let uri = "untitled:garbage";
    let diags = c.open(uri, garbage);
    assert!(!diags.is_empty());
    for d in &diags {
        assert_eq!(d["source"], "plc");
        assert!(d["code"].as_str().unwrap().starts_with('E') || d["code"].as_str().unwrap().starts_with('N'));
    }
    for line in 0..6 {
        for character in [0, 1, 3, 7, 100] {
            assert_eq!(c.ok("textDocument/hover", at(uri, line, character)), Value::Null);
            assert_eq!(c.ok("textDocument/definition", at(uri, line, character)), Value::Null);
        }
    }
    assert_eq!(c.ok("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } })), json!([]));
    // Positions far outside the text are clamped, not trusted.
    assert_eq!(c.ok("textDocument/hover", at(uri, u32::MAX, u32::MAX)), Value::Null);
    // Ranged changes (though the server asks for whole documents) with reversed and
    // out-of-range ends are applied without harm.
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 },
                "contentChanges": [{ "range": range(9, 9, 0, 3), "text": "数" }, { "range": range(0, 0, 0, 0), "text": "x = 1\n" }] }),
    );
    let (version, _) = c.diagnostics(uri);
    assert_eq!(version, json!(2));
    assert!(c.stop());
}

#[test]
fn ten_thousand_edits_in_a_row_end_with_the_last_version() {
    let dir = scratch_dir("edits");
    let fixed = nested_regions().replace("        with pl.graph(\"café_数据\"):\n    ", "    ");
    let broken = nested_regions();
    let uri = write(&dir, "edits.pl", &fixed);
    let mut c = Client::start();
    assert_eq!(c.open(&uri, &fixed), Vec::<Value>::new());
    const EDITS: i32 = 10_000;
    // The client sends every edit without waiting. The server compiles only the newest
    // version it has when a worker is free: the publications come in order of version,
    // each right for its version, and the last is the last version's.
    let sender = c.conn.sender.clone();
    let (fixed_text, broken_text, edit_uri) = (fixed.clone(), broken.clone(), uri.clone());
    let writer = std::thread::spawn(move || {
        for version in 2..EDITS + 2 {
            let text = if version % 2 == 0 { &broken_text } else { &fixed_text };
            let params = json!({ "textDocument": { "uri": edit_uri, "version": version }, "contentChanges": [{ "text": text }] });
            sender
                .send(Message::Notification(Notification { method: "textDocument/didChange".to_string(), params }))
                .unwrap();
        }
    });
    let mut last = 1;
    let mut published = 0;
    while last != EDITS + 1 {
        let (v, diags) = c.diagnostics(&uri);
        let version = v.as_i64().unwrap() as i32;
        assert!(version > last, "version {version} after {last}");
        let expected = if version % 2 == 0 { 1 } else { 0 };
        assert_eq!(diags.len(), expected, "version {version}");
        (last, published) = (version, published + 1);
    }
    assert!(published < EDITS as usize, "{published} publications: queued edits are dropped");
    writer.join().unwrap();
    // The last version (the fixed text) is what hover sees.
    let (line, col) = find(&fixed, "\"数据\"");
    let hover = c.ok("textDocument/hover", at(&uri, line, col));
    assert!(hover["contents"]["value"].as_str().unwrap().starts_with("**Graph function `数据`**"), "{hover}");
    assert!(c.stop());
}

/// A Graph function: its name, its parameters (IR name, direction, type) and the text of
/// its result type.
type GraphFunction = (String, Vec<(String, String, String)>, String);

/// The Graph functions of the program `plc check` compiles from a file (the default
/// pipeline, or its passes up to `after`), in program order: the expectation the hover is
/// compared with, computed from the compiler's own IR.
fn graph_functions(path: &Path, after: Option<&str>) -> Vec<GraphFunction> {
    use plc::driver::{self, Input, PipelineSpec, StopAt};
    let c = driver::compile(Input::file(path), &PipelineSpec::default(), StopAt::from_option(after)).unwrap();
    assert!(!c.has_errors(), "{:?}", c.diags);
    let names = &c.session.interner;
    let mut out = Vec::new();
    for p in &c.programs {
        for f in p.functions.values().filter(|f| f.decl.kind == plc::ir::FuncKind::Graph) {
            let ty = |t| plc::ir::print::type_text(p, names, t).unwrap();
            let params = f
                .params
                .iter()
                .map(|param| {
                    let var = p.var(param.var);
                    (names.get(var.name).to_string(), param.dir.to_string(), ty(var.ty))
                })
                .collect();
            assert_eq!(f.returns.len(), 1, "the tests' Graph functions return one value");
            out.push((names.get(f.name).to_string(), params, ty(f.returns[0])));
        }
    }
    out
}

/// The hover text of a Graph function whose parameters are all versioned names
/// (`x__ssa_v0`, `i__idx_v0`).
fn expected_hover((name, params, returns): &GraphFunction, region: &str, parent: &str) -> String {
    let signature: Vec<String> = params
        .iter()
        .map(|(n, dir, ty)| if dir == "In" { format!("{n}: {ty}") } else { format!("{n}: pl.{dir}[{ty}]") })
        .collect();
    let list: Vec<String> = params
        .iter()
        .enumerate()
        .map(|(i, (n, dir, ty))| format!("{}. `{}` (`{n}`) — {dir} — `{ty}`", i + 1, n.split("__").next().unwrap()))
        .collect();
    format!(
        "**Graph function `{name}`** — made from `pl.graph(\"{region}\")` in `{parent}`\n\n\
         ```python\ndef {name}({}) -> {returns}\n```\n\n\
         Parameters, in order:\n{}",
        signature.join(", "),
        list.join("\n")
    )
}

/// A base-protocol frame.
fn frame(body: &str) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// Runs `plc lsp` with `input` on stdin; returns its exit status, the messages it wrote,
/// and its stderr.
fn run_stdio(input: Vec<u8>) -> (Option<i32>, Vec<Value>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_plc"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("plc lsp starts");
    let mut stdin = child.stdin.take().unwrap();
    // Written from a thread, so that a server blocked on a full stdout cannot deadlock us.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let mut messages = Vec::new();
    let mut rest: &[u8] = &output.stdout;
    while !rest.is_empty() {
        let text = std::str::from_utf8(rest).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").expect("a header block");
        let len: usize = head.strip_prefix("Content-Length: ").expect("Content-Length").parse().unwrap();
        messages.push(serde_json::from_str(&body[..len]).expect("the server writes JSON"));
        rest = &rest[head.len() + 4 + len..];
    }
    (output.status.code(), messages, String::from_utf8_lossy(&output.stderr).into_owned())
}

/// Over stdio the outline is written from the JSON text the worker made (not as a
/// message of lsp-server): the same answer as in process, under a number or a string id.
#[test]
fn the_outline_over_stdio_is_the_same_answer() {
    let dir = scratch_dir("stdio-outline");
    let text = nested_regions();
    let uri = write(&dir, "outline.pl", &text);
    let message = |v: Value| frame(&v.to_string());
    let symbols = |id: Value| {
        message(json!({ "jsonrpc": "2.0", "id": id, "method": "textDocument/documentSymbol",
            "params": { "textDocument": { "uri": uri } } }))
    };
    let input = [
        message(json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } })),
        message(json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} })),
        message(json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": { "textDocument": { "uri": uri, "languageId": "python", "version": 1, "text": text } } })),
        symbols(json!(2)),
        symbols(json!("outline \"3\"")),
        message(json!({ "jsonrpc": "2.0", "id": 5, "method": "shutdown" })),
        message(json!({ "jsonrpc": "2.0", "method": "exit" })),
    ]
    .concat();
    let (status, messages, stderr) = run_stdio(input);
    assert_eq!(status, Some(0), "exit after shutdown: {stderr}");
    let mut c = Client::start();
    c.open(&uri, &text);
    let expected = c.ok("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    assert!(c.stop());
    assert_eq!(expected[1]["children"][0]["name"], "数据");
    for id in [json!(2), json!("outline \"3\"")] {
        let response = messages.iter().find(|m| m["id"] == id).unwrap_or_else(|| panic!("{messages:#?}"));
        assert_eq!(response, &json!({ "jsonrpc": "2.0", "id": id, "result": expected }));
    }
}

/// The session of the issue, over stdin/stdout, written all at once as a script would:
/// initialize, didOpen of a file with an error after non-ASCII text, didChange to a fixed
/// text, hover on a region name, definition, with malformed messages in between, then
/// shutdown and exit.
#[test]
fn a_scripted_session_over_stdio() {
    let dir = scratch_dir("stdio");
    let text = nested_regions();
    let uri = write(&dir, "session.pl", &text);
    let fixed = text.replace("        with pl.graph(\"café_数据\"):\n    ", "    ");
    let (region_line, region_col) = find(&fixed, "\"数据\"");
    let (call_line, call_col) = find(&fixed, "kern(x, y)");
    let message = |v: Value| frame(&v.to_string());
    let input = [
        message(json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } })),
        message(json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} })),
        message(json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": { "textDocument": { "uri": uri, "languageId": "python", "version": 1, "text": text } } })),
        message(json!({ "jsonrpc": "2.0", "method": "textDocument/didChange",
            "params": { "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "text": fixed }] } })),
        message(json!({ "jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
            "params": at(&uri, region_line, region_col + 1) })),
        frame("{\"jsonrpc\": \"2.0\", \"id\": 9, \"method\": "),
        message(json!({ "jsonrpc": "2.0", "id": "x", "method": 7 })),
        b"Content-Type: nothing else\r\n\r\n".to_vec(),
        message(json!({ "jsonrpc": "2.0", "id": 3, "method": "textDocument/definition",
            "params": at(&uri, call_line, call_col + 1) })),
        message(json!({ "jsonrpc": "2.0", "id": 4, "method": "textDocument/formatting", "params": {} })),
        message(json!({ "jsonrpc": "2.0", "id": 5, "method": "shutdown" })),
        message(json!({ "jsonrpc": "2.0", "method": "exit" })),
    ]
    .concat();
    let (status, messages, stderr) = run_stdio(input);
    assert_eq!(status, Some(0), "exit after shutdown: {stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    assert!(messages.iter().all(|m| m["jsonrpc"] == "2.0"));

    let response = |id: Value| messages.iter().find(|m| m["id"] == id && m.get("method").is_none()).cloned();
    assert_eq!(response(json!(1)).unwrap()["result"]["capabilities"]["hoverProvider"], true);
    let published: Vec<&Value> =
        messages.iter().filter(|m| m["method"] == "textDocument/publishDiagnostics").map(|m| &m["params"]).collect();
    // The change may come before the first version is compiled, which is then dropped:
    // the last version's diagnostics are always published, the first's maybe.
    let (last, first) = published.split_last().expect("a publication");
    assert_eq!(*last, &json!({ "uri": uri, "version": 2, "diagnostics": [] }));
    assert!(first.len() <= 1, "{published:#?}");
    if let Some(first) = first.first() {
        assert_eq!((first["uri"].as_str(), &first["version"]), (Some(uri.as_str()), &json!(1)));
        let diags = first["diagnostics"].as_array().unwrap();
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0]["code"], "E0305");
        assert_eq!(diags[0]["range"], range(region_line + 1, 8, region_line + 1, 32));
    }

    let hover = response(json!(2)).unwrap();
    std::fs::write(dir.join("session.pl"), &fixed).unwrap();
    let graphs = graph_functions(&dir.join("session.pl"), None);
    assert_eq!(graphs.len(), 1);
    assert_eq!(hover["result"]["contents"]["value"], expected_hover(&graphs[0], "数据", "main"));
    let (kern_line, kern_col) = find(&fixed, "kern(x: ");
    assert_eq!(
        response(json!(3)).unwrap()["result"],
        json!({ "uri": uri, "range": range(kern_line, kern_col, kern_line, kern_col + 4) })
    );
    // Malformed messages: a parse error has no id to answer with; an invalid request
    // keeps its own.
    assert_eq!(response(Value::Null).unwrap()["error"]["code"], -32700);
    assert_eq!(response(json!("x")).unwrap()["error"]["code"], -32600);
    assert_eq!(response(json!(4)).unwrap()["error"]["code"], -32601);
    assert_eq!(response(json!(5)).unwrap()["result"], Value::Null);
    assert_eq!(messages.len(), 7 + published.len(), "five responses, two errors, the publications: {messages:#?}");
}

#[test]
fn input_that_ends_without_exit_or_is_garbage_ends_the_server_quietly() {
    // End of input in the middle of a session: exit status 1, nothing on stderr.
    let input = [
        frame(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#),
        frame(r#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:a","languageId":"python","version":1,"text":"x = $"}}}"#),
    ]
    .concat();
    let (status, messages, stderr) = run_stdio(input);
    assert_eq!((status, stderr.as_str()), (Some(1), ""));
    // The diagnostics are published if the analysis ends before the server does.
    assert!(matches!(messages.len(), 1 | 2), "the initialize response and the diagnostics: {messages:#?}");
    assert_eq!(messages[0]["id"], 1);
    // Nothing but garbage: no message can be read, none is answered.
    let mut noise: Vec<u8> = (0..20_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    noise.extend_from_slice(b"Content-Length: 99999999999999999999\r\n\r\nContent-Length: 5\r\n\r\n{}");
    let (status, messages, stderr) = run_stdio(noise);
    assert_eq!((status, stderr.as_str()), (Some(1), ""));
    assert!(messages.iter().all(|m| m["error"]["code"] == -32700 || m["error"]["code"] == -32600), "{messages:#?}");
}

/// Hover, definition and the outline anywhere in every example, whole and cut short (a
/// file being typed): every request gets an answer, never an error.
#[test]
fn queries_anywhere_in_every_example_are_answered() {
    let mut examples: Vec<PathBuf> = Vec::new();
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "pl") {
                examples.push(path.canonicalize().unwrap());
            }
        }
    }
    examples.sort();
    assert!(examples.len() >= 10, "{examples:?}");
    let mut c = Client::start();
    let mut answered = 0;
    for path in &examples {
        let text = std::fs::read_to_string(path).unwrap();
        let uri = uri_of(path);
        c.open(&uri, &text);
        let cut = text.char_indices().map(|(i, _)| i).nth(text.chars().count() * 2 / 3).unwrap_or(0);
        // Positions every few columns: many fewer on the cut text, which only has to
        // parse badly.
        for (version, version_text, step) in [(2, &text[..cut], 37), (3, text.as_str(), 13)] {
            c.change(&uri, version, version_text);
            c.diagnostics(&uri);
            let symbols = c.ok("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
            assert!(symbols.is_array());
            for (line, content) in version_text.lines().enumerate() {
                let width = content.encode_utf16().count() as u32;
                for character in (0..=width).step_by(step) {
                    for method in ["textDocument/hover", "textDocument/definition"] {
                        let r = c.request(method, at(&uri, line as u32, character));
                        assert!(r.response_result.is_ok(), "{method} at {line}:{character} of {path:?}: {r:?}");
                        answered += 1;
                    }
                }
            }
        }
        c.notify("textDocument/didClose", json!({ "textDocument": { "uri": uri } }));
    }
    assert!(answered > 1000, "{answered}");
    assert!(c.stop());
}

/// Compiles as the server does, but fails on a document that asks for it, as a bug in plc
/// would.
fn analyze_or_panic(
    name: &str,
    path: Option<&Path>,
    text: &str,
    cancelled: plc::lsp::analysis::Cancelled<'_>,
) -> Option<plc::lsp::analysis::Analysis> {
    if text.contains("# fail here") {
        panic!("an injected failure");
    }
    plc::lsp::analysis::analyze_unless(name, path, text, cancelled)
}

#[test]
fn a_panic_in_an_analysis_is_an_internal_error_and_the_server_goes_on() {
    let mut c = Client::start_with(analyze_or_panic);
    let crash = "file:///tmp/plc-lsp-crash.pl";
    let diags = c.open(crash, "X = 1  # fail here\n");
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "E0700");
    assert_eq!(diags[0]["severity"], 1);
    assert_eq!(diags[0]["range"], range(0, 0, 0, 0));
    let message = diags[0]["message"].as_str().unwrap();
    assert!(message.contains("an injected failure") && message.contains("internal error"), "{message}");
    // Other documents are still served, and the failed one once it changes.
    assert_eq!(c.open("file:///tmp/plc-lsp-fine.pl", KERNEL), Vec::<Value>::new());
    c.change(crash, 2, "X = 1\n");
    assert_eq!(c.diagnostics(crash), (json!(2), Vec::new()));
    let symbols = c.ok("textDocument/documentSymbol", json!({ "textDocument": { "uri": crash } }));
    assert_eq!(symbols, json!([]));
    assert!(c.stop());
}

#[test]
fn the_stack_overflow_reproducers_are_diagnostics_in_the_server() {
    // The server thread has the test harness's 2 MiB stack.
    let mut c = Client::start();
    let n = 100_000;
    let inputs = [
        format!("import pypto.language as pl\nX = {}\n", vec!["1"; 11_500].join("+")),
        format!("import pypto.language as pl\nX = {}1{}\n", "[".repeat(n), "]".repeat(n)),
        format!("import pypto.language as pl\nX = {}1\n", "-".repeat(20_000)),
        format!("import pypto.language as pl\nX = {}1\n", "not ".repeat(20_000)),
    ];
    for (i, text) in inputs.iter().enumerate() {
        let uri = format!("file:///tmp/plc-lsp-deep-{i}.pl");
        let diags = c.open(&uri, text);
        let codes: Vec<&str> = diags.iter().map(|d| d["code"].as_str().unwrap()).collect();
        assert_eq!(codes, ["E0120"], "input {i}");
        // Queries on the refused text are answered too.
        let end = text.len() as u32;
        c.ok("textDocument/hover", at(&uri, 1, end.min(50)));
        c.ok("textDocument/definition", at(&uri, 1, 4));
        c.ok("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    }
    assert!(c.stop());
}

/// A frame whose `Content-Length` is off by `delta` bytes.
fn frame_off_by(body: &str, delta: isize) -> Vec<u8> {
    format!("Content-Length: {}\r\n\r\n{body}", (body.len() as isize + delta) as usize).into_bytes()
}

/// Frames with a wrong `Content-Length` (characters counted instead of bytes, too large),
/// without one, with one that is not a number, and stray bytes between frames: every
/// message is still read, answered, and `exit` ends the server cleanly.
#[test]
fn damaged_frames_do_not_make_the_server_deaf() {
    let text = "import pypto.language as pl\n# café 数据 😀\nX = $\n";
    let open = json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": { "textDocument": { "uri": "untitled:damaged", "languageId": "python", "version": 1, "text": text } } })
    .to_string();
    let chars_not_bytes = format!("Content-Length: {}\r\n\r\n{open}", open.chars().count()).into_bytes();
    assert!(open.chars().count() < open.len());
    let symbols = |id: i32| {
        json!({ "jsonrpc": "2.0", "id": id, "method": "textDocument/documentSymbol",
            "params": { "textDocument": { "uri": "untitled:damaged" } } })
        .to_string()
    };
    let input = [
        frame_off_by(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#, 25),
        frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#),
        chars_not_bytes,
        frame_off_by(&symbols(2), -7),
        b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n".to_vec(),
        symbols(3).into_bytes(),
        b"Content-Length: twelve\r\n\r\n".to_vec(),
        symbols(4).into_bytes(),
        b"stray bytes \x00\xff here".to_vec(),
        frame(&symbols(5)),
        frame_off_by(r#"{"jsonrpc":"2.0","id":6,"method":"shutdown"}"#, 1000),
        frame(r#"{"jsonrpc":"2.0","method":"exit"}"#),
    ]
    .concat();
    let (status, messages, stderr) = run_stdio(input);
    assert_eq!(status, Some(0), "exit after shutdown: {stderr}\n{messages:#?}");
    let ids: Vec<&Value> = messages.iter().filter(|m| m.get("method").is_none()).map(|m| &m["id"]).collect();
    assert_eq!(ids, [&json!(1), &json!(2), &json!(3), &json!(4), &json!(5), &json!(6)], "{messages:#?}");
    assert!(messages.iter().all(|m| m.get("error").is_none()), "{messages:#?}");
    let published: Vec<&Value> = messages.iter().filter(|m| m["method"] == "textDocument/publishDiagnostics").collect();
    assert_eq!(published.len(), 1, "{messages:#?}");
    assert_eq!(published[0]["params"]["diagnostics"][0]["code"], "E0001");
}

/// A `Content-Length` larger than the message, from a client that then waits for the
/// answer: the server answers at the end of the JSON instead of waiting for bytes that
/// never come.
#[test]
fn a_too_large_length_does_not_make_the_server_wait() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_plc"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("plc lsp starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = std::io::Read::read(&mut stdout, &mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#;
    stdin.write_all(&frame_off_by(initialize, 100)).unwrap();
    stdin.flush().unwrap();
    let mut got = Vec::new();
    while !String::from_utf8_lossy(&got).contains("\"capabilities\"") {
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(bytes) => got.extend(bytes),
            Err(_) => {
                let _ = child.kill();
                panic!("no answer to an initialize whose length is too large");
            }
        }
    }
    stdin.write_all(&frame(r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#)).unwrap();
    stdin.write_all(&frame(r#"{"jsonrpc":"2.0","method":"exit"}"#)).unwrap();
    drop(stdin);
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

#[test]
fn definition_with_the_cursor_just_after_the_name() {
    let dir = scratch_dir("definition_end");
    let text = "import pypto.language as pl\n\nLAYERS = 4\n\n\n@pl.jit\ndef main(x: pl.Tensor[[64, 64], pl.FP32], y: pl.InOut[pl.Tensor[[64, 64], pl.FP32]]):\n    for i in pl.range(LAYERS):\n        y = pl.add(x, y)\n    return y\n";
    let uri = write(&dir, "end.pl", text);
    let mut c = Client::start();
    assert_eq!(c.open(&uri, text), Vec::<Value>::new());
    let (def_line, def_col) = find(text, "LAYERS =");
    let expected = json!({ "uri": uri, "range": range(def_line, def_col, def_line, def_col + 6) });
    let (line, col) = find(text, "LAYERS)");
    // On the first character, inside, and just after the last one (`LAYERS|)`).
    for offset in [0, 3, 6] {
        assert_eq!(c.ok("textDocument/definition", at(&uri, line, col + offset)), expected, "at +{offset}");
    }
    // Just after `y` at the end of a line, where nothing follows.
    let (y_line, y_col) = find(text, "y\n");
    let (y_def_line, y_def_col) = find(text, "y: pl.InOut");
    assert_eq!(
        c.ok("textDocument/definition", at(&uri, y_line, y_col + 1)),
        json!({ "uri": uri, "range": range(y_def_line, y_def_col, y_def_line, y_def_col + 1) })
    );
    assert!(c.stop());
}

/// A client that spells a URI's escapes in lower case (`caf%c3%a9.pl`) where plc spells
/// them in upper case: the file is one document, and no list of diagnostics is left
/// behind under the other spelling.
#[test]
fn uris_spelled_in_another_case_are_the_same_document() {
    let dir = scratch_dir("uri_case");
    let config_bad = "import pypto.language as pl\n\nROWS = 64\nBAD = $\n";
    let config_upper = write(&dir, "café.pl", config_bad);
    assert!(config_upper.ends_with("caf%C3%A9.pl"), "{config_upper}");
    let config_lower = config_upper.replace("%C3%A9", "%c3%a9");
    let main = format!("{KERNEL}\nfrom .café import ROWS\n");
    let main_uri = write(&dir, "main.pl", &main);
    let mut c = Client::start();
    c.open(&main_uri, &main);
    let (_, diags) = c.diagnostics(&config_upper);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0]["code"], "E0001");
    // The client opens the imported file, spelled its way, with the error fixed in the
    // buffer: its own (empty) list, and the list under plc's spelling cleared.
    let fixed = config_bad.replace("BAD = $\n", "");
    c.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": config_lower, "languageId": "python", "version": 1, "text": fixed } }),
    );
    assert_eq!(c.diagnostics(&config_upper), (Value::Null, Vec::new()));
    assert_eq!(c.diagnostics(&config_lower), (json!(1), Vec::new()));
    // Requests in either spelling find the document.
    for uri in [&config_lower, &config_upper] {
        let symbols = c.ok("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
        assert_eq!(symbols, json!([]));
        let (line, col) = find(&fixed, "ROWS");
        let found = c.ok("textDocument/definition", at(uri, line, col));
        assert_eq!(found["uri"], config_lower.as_str(), "answers use the client's spelling");
    }
    // Closed in the other spelling: the client's list is cleared, and the file shows what
    // the importing document finds in it on disk.
    c.notify("textDocument/didClose", json!({ "textDocument": { "uri": config_upper } }));
    assert_eq!(c.diagnostics(&config_lower), (Value::Null, Vec::new()));
    let (version, diags) = c.diagnostics(&config_upper);
    assert_eq!(version, Value::Null);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0]["code"], "E0001");
    assert!(c.stop());
}

/// A program built by a factory: the language server compiles the call in `main()`, so an
/// argument that makes a shape invalid is shown at the annotation inside the factory's
/// class (with the call as related information), and a graph region of the class has a
/// hover.
#[test]
fn diagnostics_and_hover_inside_a_factory_class() {
    let dir = scratch_dir("factory");
    let text = format!(
        "{KERNEL}

def Build(rows: int = 64):
    @pl.program
    class P:
        @pl.function(type=pl.FunctionType.Orchestration)
        def main(self, x: pl.Tensor[[rows, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
            with pl.graph(\"layer\"):
                y = kern(x, y)
            return y

    return P


def main():
    program = Build(rows=64)
"
    );
    let uri = write(&dir, "factory.pl", &text);
    let mut c = Client::start();
    let errors = |diags: Vec<Value>| -> Vec<Value> { diags.into_iter().filter(|d| d["severity"] == 1).collect() };
    assert_eq!(errors(c.open(&uri, &text)), Vec::<Value>::new());
    let region = find(&text, "\"layer\"");
    let hover = c.ok("textDocument/hover", at(&uri, region.0, region.1 + 1));
    let value = hover["contents"]["value"].as_str().unwrap_or_default().to_string();
    assert!(value.starts_with("**Graph function `layer`** (program `P`)"), "{value}");

    let broken = text.replace("Build(rows=64)", "Build(rows=-64)");
    c.change(&uri, 2, &broken);
    let diags = errors(c.diagnostics(&uri).1);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0]["code"], "E0229");
    let (line, col) = find(&broken, "rows, 64]");
    assert_eq!(diags[0]["range"], range(line, col, line, col + 4));
    let (call_line, call_col) = find(&broken, "Build(rows=-64)");
    let related = &diags[0]["relatedInformation"][0];
    assert_eq!(related["location"]["range"], range(call_line, call_col, call_line, call_col + 15));
    assert!(related["message"].as_str().unwrap().contains("Build(rows=-64)"), "{related}");
    assert!(c.stop());
}

/// A server initialized with the client capabilities `capabilities`.
fn start_with_capabilities(capabilities: Value, analyze: plc::lsp::Analyzer) -> Client {
    let mut c = Client::raw_with(analyze);
    let r = c.request("initialize", json!({ "capabilities": capabilities }));
    assert!(r.response_result.is_ok(), "{r:?}");
    c.notify("initialized", json!({}));
    c
}

/// The publications received so far for `uri`, as (version, diagnostics), taken out.
fn take_publications(c: &mut Client, uri: &str) -> Vec<(Value, Vec<Value>)> {
    let (mine, others) = std::mem::take(&mut c.pending).into_iter().partition(|n| is_publish_for(n, uri));
    c.pending = others;
    mine.into_iter()
        .map(|n: Notification| (n.params["version"].clone(), n.params["diagnostics"].as_array().cloned().unwrap()))
        .collect()
}

fn ranged(uri: &str, version: i32, changes: Value) -> Value {
    json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": changes })
}

/// Ranged changes (incremental sync) in UTF-16 positions, several in one notification
/// (each in the text the ones before it made), across non-ASCII text: the server's text is
/// the one the client has, as the outline and the diagnostics of the same text opened
/// whole show.
#[test]
fn incremental_changes_make_the_clients_text() {
    let dir = scratch_dir("incremental");
    let start = nested_regions().replace("        with pl.graph(\"café_数据\"):\n    ", "    ");
    let uri = write(&dir, "incremental.pl", &start);
    let mut c = Client::start();
    assert_eq!(c.open(&uri, &start), Vec::<Value>::new());
    // 1. The region `数据` becomes `层_é` (the range is in UTF-16 units: 2 characters).
    let (line, col) = find(&start, "\"数据\"");
    // 2. In that text, a region is opened around the call on the next line (after 4 of the
    // 12 spaces before it).
    let inner = "    with pl.graph(\"é\"):\n    ";
    c.notify(
        "textDocument/didChange",
        ranged(
            &uri,
            2,
            json!([{ "range": range(line, col + 1, line, col + 3), "text": "层_é" },
                   { "range": range(line + 1, 4, line + 1, 4), "text": inner }]),
        ),
    );
    // 3. The comment `# café 数据` (9 units) becomes `# ok`, and a line `Z = "😀"` is added
    // at the end; 4. ` +* 1` is written after it, the emoji counting two units.
    let middle = start
        .replace("\"数据\"", "\"层_é\"")
        .replace("            y = kern(x, y)\n", "        with pl.graph(\"é\"):\n            y = kern(x, y)\n");
    let (cl, cc) = find(&middle, "# café 数据");
    let end = middle.lines().count() as u32;
    c.notify(
        "textDocument/didChange",
        ranged(
            &uri,
            3,
            json!([{ "range": range(cl, cc, cl, cc + 9), "text": "# ok" },
                   { "range": range(end, 0, end, 0), "text": "Z = \"😀\"\n" }]),
        ),
    );
    c.notify("textDocument/didChange", ranged(&uri, 4, json!([{ "range": range(end, 8, end, 8), "text": " +* 1" }])));
    let expected = format!(
        "{KERNEL}

@pl.jit
def main(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.graph(\"层_é\"):  # ok
        with pl.graph(\"é\"):
            y = kern(x, y)
    return y
Z = \"😀\" +* 1
"
    );
    let diags = loop {
        let (version, diags) = c.diagnostics(&uri);
        if version == json!(4) {
            break diags;
        }
    };
    // The nested region, and `Z = "😀" +* 1`, not a constant, is host code: a note on the
    // whole line, 13 UTF-16 units (15 bytes). (Had `+* 1` gone inside the string, the line
    // would be a constant.)
    let codes: Vec<&Value> = diags.iter().map(|d| &d["code"]).collect();
    assert_eq!(codes, [&json!("E0305"), &json!("N0001")], "{diags:#?}");
    assert_eq!(diags[0]["range"], range(line + 1, 8, line + 1, 26));
    assert_eq!(diags[1]["range"], range(end, 0, end, 13));
    // The same text opened whole: the same outline, the same diagnostics.
    let whole = write(&dir, "whole.pl", &expected);
    let whole_diags = c.open(&whole, &expected);
    let summary = |ds: &[Value]| ds.iter().map(|d| json!([d["code"], d["range"], d["message"]])).collect::<Vec<_>>();
    assert_eq!(summary(&whole_diags), summary(&diags));
    let outline = c.ok("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    assert_eq!(outline, c.ok("textDocument/documentSymbol", json!({ "textDocument": { "uri": whole } })));
    assert_eq!(outline[1]["children"][0]["name"], "层_é");
    assert_eq!(outline[1]["children"][0]["children"][0]["name"], "é");
    assert!(c.stop());
}

/// A client that pulls diagnostics (LSP 3.17 `textDocument/diagnostic`) gets them for the
/// current version, "unchanged" when it has them already, and no pushed copy for its open
/// documents; the diagnostics of a file it has not opened are still pushed.
#[test]
fn pulled_diagnostics() {
    let dir = scratch_dir("pull");
    let text = nested_regions();
    let uri = write(&dir, "pull.pl", &text);
    let broken_config =
        "import pypto.language as pl\n\nROWS = 64\n\n\n@pl.jit\ndef helper(x: pl.Tensor):\n    return \"café\" +* 2\n";
    let config_uri = write(&dir, "config.pl", broken_config);
    let mut c = start_with_capabilities(
        json!({ "textDocument": { "diagnostic": { "dynamicRegistration": false } } }),
        plc::lsp::analysis::analyze_unless,
    );
    let pull = |c: &mut Client, previous: Option<&str>| {
        c.ok("textDocument/diagnostic", json!({ "textDocument": { "uri": uri }, "previousResultId": previous }))
    };
    c.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "python", "version": 1, "text": text } }),
    );
    let first = pull(&mut c, None);
    assert_eq!(first["kind"], "full", "{first}");
    let items = first["items"].as_array().unwrap();
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["code"], "E0305");
    let (line, _) = find(&text, "with pl.graph(\"café_数据\")");
    assert_eq!(items[0]["range"], range(line, 8, line, 32));
    let id = first["resultId"].as_str().unwrap().to_string();
    assert_eq!(pull(&mut c, Some(&id)), json!({ "kind": "unchanged", "resultId": id }));
    // A fix: the pull right after the change is answered for it.
    let fixed = text.replace("        with pl.graph(\"café_数据\"):\n    ", "    ");
    c.change(&uri, 2, &fixed);
    let second = pull(&mut c, Some(&id));
    assert_eq!(second["kind"], "full");
    assert_eq!(second["items"], json!([]));
    assert_ne!(second["resultId"].as_str(), Some(id.as_str()));
    // An import of a broken file: its diagnostics are pushed (the client does not pull a
    // file it has not opened), the document's own are pulled.
    let importing =
        fixed.replace("import pypto.language as pl\n", "import pypto.language as pl\nfrom .config import ROWS\n");
    c.change(&uri, 3, &importing);
    let third = pull(&mut c, None);
    assert_eq!(third["items"], json!([]));
    let pushed = take_publications(&mut c, &config_uri);
    assert_eq!(pushed.len(), 1, "{pushed:?}");
    assert_eq!(pushed[0].1.len(), 1);
    assert_eq!(pushed[0].1[0]["code"], "E0101");
    assert_eq!(pushed[0].1[0]["range"], range(7, 19, 7, 20));
    assert_eq!(take_publications(&mut c, &uri), Vec::new(), "an open document's diagnostics are not pushed");
    assert!(c.stop());
}

/// The outline is made once per version of the text (as JSON, by the worker that parses
/// it): after a ranged edit, it is the new text's — the edited function's region renamed,
/// the functions after it a line lower — as when the new text is opened whole.
#[test]
fn the_outline_after_an_edit_is_the_new_texts() {
    let dir = scratch_dir("outline-after-edit");
    let function = |name: &str, region: &str| {
        format!(
            "@pl.jit
def {name}(x: pl.Tensor[[64, 64], pl.FP32], y: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
    with pl.graph(\"{region}\"):
        y = kern(x, y)
    return y
"
        )
    };
    let text = format!("{KERNEL}\n\n{}\n\n{}", function("first", "a"), function("second", "b"));
    let uri = write(&dir, "outline.pl", &text);
    let mut c = Client::start();
    assert_eq!(c.open(&uri, &text), Vec::<Value>::new());
    let symbols =
        |c: &mut Client, uri: &str| c.ok("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    let by_name = |outline: &Value, name: &str| {
        outline.as_array().unwrap().iter().find(|s| s["name"] == name).cloned().unwrap_or_else(|| panic!("{name}"))
    };
    let before = symbols(&mut c, &uri);
    // The region `a` renamed `renamed`, and a line more in its body.
    let (line, col) = find(&text, "\"a\"");
    let edit = json!([
        { "range": range(line, col + 1, line, col + 2), "text": "renamed" },
        { "range": range(line + 1, 0, line + 1, 0), "text": "        y = kern(x, y)\n" },
    ]);
    c.notify("textDocument/didChange", ranged(&uri, 2, edit));
    let after = symbols(&mut c, &uri);
    let new_text = text.replacen("\"a\"", "\"renamed\"", 1).replacen(
        "        y = kern(x, y)\n",
        "        y = kern(x, y)\n        y = kern(x, y)\n",
        1,
    );
    let whole = write(&dir, "whole.pl", &new_text);
    c.open(&whole, &new_text);
    assert_eq!(after, symbols(&mut c, &whole));
    assert_eq!(by_name(&after, "first")["children"][0]["name"], "renamed");
    assert_eq!(by_name(&before, "first")["children"][0]["name"], "a");
    let second_line = |outline: &Value| by_name(outline, "second")["range"]["start"]["line"].as_u64().unwrap();
    assert_eq!(second_line(&after), second_line(&before) + 1);
    assert!(c.stop());
}

/// Requests sent right after edits, before the new version is compiled, are answered for
/// that version, from its analysis.
#[test]
fn hover_after_edits_is_answered_for_the_new_version() {
    let dir = scratch_dir("hover-after-edits");
    let text = nested_regions().replace("        with pl.graph(\"café_数据\"):\n    ", "    ");
    let uri = write(&dir, "hover.pl", &text);
    let mut c = Client::start();
    assert_eq!(c.open(&uri, &text), Vec::<Value>::new());
    let (line, col) = find(&text, "\"数据\"");
    for (version, name) in [(2, "层"), (3, "层_é"), (4, "最后")] {
        let old = c.ok("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }))[1]["children"][0]
            ["name"]
            .as_str()
            .unwrap()
            .to_string();
        let units = old.encode_utf16().count() as u32;
        c.notify(
            "textDocument/didChange",
            ranged(&uri, version, json!([{ "range": range(line, col + 1, line, col + 1 + units), "text": name }])),
        );
        let hover = c.ok("textDocument/hover", at(&uri, line, col + 1));
        let value = hover["contents"]["value"].as_str().unwrap();
        assert!(value.starts_with(&format!("**Graph function `{name}`**")), "{value}");
        let units = name.encode_utf16().count() as u32;
        assert_eq!(hover["range"], range(line, col, line, col + units + 2));
    }
    assert!(c.stop());
}

/// Held shut until a test opens it: analyses of texts with `# gate` wait for it (giving up
/// when cancelled), so that a burst of edits is sure to arrive while one is in progress.
static GATE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn analyze_behind_gate(
    name: &str,
    path: Option<&Path>,
    text: &str,
    cancelled: plc::lsp::analysis::Cancelled<'_>,
) -> Option<plc::lsp::analysis::Analysis> {
    while text.contains("# gate") && !GATE.load(std::sync::atomic::Ordering::SeqCst) {
        if cancelled() {
            return None;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    plc::lsp::analysis::analyze_unless(name, path, text, cancelled)
}

/// A burst of edits while a version is being compiled: only the last version's
/// diagnostics are published; a hover sent for an older version gets ContentModified, the
/// outline asked for meanwhile is the last version's.
#[test]
fn a_burst_of_edits_publishes_only_the_last_version() {
    let dir = scratch_dir("burst");
    let fixed = nested_regions().replace("        with pl.graph(\"café_数据\"):\n    ", "    ");
    let broken = nested_regions();
    let uri = write(&dir, "burst.pl", &fixed);
    let mut c = Client::start_with(analyze_behind_gate);
    assert_eq!(c.open(&uri, &fixed), Vec::<Value>::new());
    const LAST: i32 = 41;
    let (line, col) = find(&fixed, "\"数据\"");
    let mut ids = Vec::new();
    for version in 2..=LAST {
        // Even versions have the nested region (E0305); the last renames `main`.
        let text = if version % 2 == 0 { broken.clone() } else { fixed.clone() };
        let text = if version == LAST { text.replace("def main(", "def last(") } else { text };
        c.change(&uri, version, &format!("{text}# gate {version}\n"));
        if version == 10 {
            for (id, method, params) in [
                (1001, "textDocument/hover", at(&uri, line, col + 1)),
                (1002, "textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } })),
            ] {
                c.send(Message::Request(Request { id: RequestId::from(id), method: method.to_string(), params }));
                ids.push(id);
            }
        }
    }
    GATE.store(true, std::sync::atomic::Ordering::SeqCst);
    let (version, diags) = c.diagnostics(&uri);
    assert_eq!(version, json!(LAST), "the first publication after the burst is the last version's");
    assert_eq!(diags, Vec::<Value>::new());
    let mut answers = Vec::new();
    while answers.len() < ids.len() {
        match c.recv() {
            Message::Response(r) => answers.push(r),
            Message::Notification(n) => c.pending.push(n),
            Message::Request(r) => panic!("the server sent a request: {r:?}"),
        }
    }
    answers.sort_by_key(|r| r.id == RequestId::from(1002));
    assert_eq!(answers[0].response_result.as_ref().map_err(|e| e.code), Err(-32801), "{:?}", answers[0]);
    assert_eq!(answers[1].response_result.as_ref().unwrap()[1]["name"], "last");
    // Nothing else was published for the document.
    let outline = c.ok("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    assert_eq!(outline[1]["name"], "last");
    assert_eq!(take_publications(&mut c, &uri), Vec::new());
    assert!(c.stop());
}

// ------------------------------------------------------------ incremental analyses

#[path = "../benches/support/generate.rs"]
mod generate;

/// A small deterministic generator (xorshift), so that a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One random edit of `text`: an insertion, a deletion or a replacement at a random place
/// (most of them inside a function), of text that makes and breaks links between
/// functions (their names, region names, calls), errors of every stage, and layout.
fn random_edit(text: &str, rng: &mut Rng) -> String {
    let names: Vec<&str> =
        text.lines().filter_map(|l| l.trim_start().strip_prefix("def ").and_then(|r| r.split('(').next())).collect();
    let regions: Vec<&str> = text.split("pl.graph(\"").skip(1).filter_map(|r| r.split('"').next()).collect();
    let name = names.get(rng.below(names.len())).copied().unwrap_or("f");
    let region = regions.get(rng.below(regions.len())).copied().unwrap_or("r");
    let snippets = [
        "x".to_string(),
        "1".to_string(),
        "7".to_string(),
        "(".to_string(),
        ")".to_string(),
        ":".to_string(),
        "\n".to_string(),
        "    ".to_string(),
        "#".to_string(),
        "\"\"\"".to_string(),
        "undefined_name".to_string(),
        format!("{name}(w, acc, scale)"),
        format!("\n    y = {name}(acc, acc, 1.0)\n"),
        format!("\n        with pl.graph(\"{region}\"):\n            q = pl.add(acc, acc)\n"),
        format!("\n@pl.jit\ndef {name}(a: pl.Tensor):\n    return a\n"),
        format!("{region}_0"),
        "\n    with pl.graph(\"g\"):\n        with pl.graph(\"h\"):\n            pass\n".to_string(),
        "\n@pl.jit.inline\ndef helper(a: pl.Tensor):\n    return pl.add(a, a)\n".to_string(),
        "helper(acc)".to_string(),
        "\nROWS = 3\n".to_string(),
        " = pl.add(acc, 1)".to_string(),
        "pl.Out[pl.Tensor[[4, 4], pl.FP32]]".to_string(),
    ];
    let lines: Vec<(usize, &str)> = text
        .split_inclusive('\n')
        .scan(0, |at, l| {
            let start = *at;
            *at += l.len();
            Some((start, l))
        })
        .collect();
    let Some(&(start, line)) = lines.get(rng.below(lines.len())) else { return snippets[0].clone() };
    let cols: Vec<usize> = line.char_indices().map(|(i, _)| i).chain(std::iter::once(line.len())).collect();
    let at = start + cols[rng.below(cols.len())];
    let mut out = text.to_string();
    // Half the edits keep the text's layout: a digit or a name changed, a name put in.
    if rng.below(2) == 0 {
        let words = ["x", "acc", "w", name, region, "ROWS", "undefined_name", "helper"];
        let digit = text[at..].find(|c: char| c.is_ascii_digit()).map(|d| at + d);
        match (rng.below(2), digit) {
            (0, Some(d)) => out.replace_range(d..d + 1, &rng.below(10).to_string()),
            _ => {
                let word_at = text[at..].find(|c: char| c.is_ascii_alphabetic()).map_or(at, |d| at + d);
                out.insert_str(word_at, words[rng.below(words.len())]);
            }
        }
        return out;
    }
    match rng.below(3) {
        0 => out.insert_str(at, &snippets[rng.below(snippets.len())]),
        1 => {
            let mut end = (at + 1 + rng.below(12)).min(out.len());
            while !out.is_char_boundary(end) {
                end += 1;
            }
            out.replace_range(at..end, "");
        }
        _ => {
            let mut end = (at + 1).min(out.len());
            while !out.is_char_boundary(end) {
                end += 1;
            }
            out.replace_range(at..end, &snippets[rng.below(snippets.len())]);
        }
    }
    out
}

/// The property the incremental analyses hold to: after every edit, the diagnostics are
/// those of a whole analysis of the same text, byte for byte (a chain of edits, each
/// analysed with the cache of the one before, sometimes back to the unedited text).
#[test]
fn incremental_analyses_equal_whole_ones_after_random_edits() {
    let generated = generate::program(300);
    let mut bases: Vec<String> = vec![generated.clone()];
    for entry in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "pl") {
            bases.push(std::fs::read_to_string(&path).unwrap());
        }
    }
    bases.sort();
    let (mut reused, mut steps, mut hovers) = (0, 0, 0);
    for (b, base) in bases.iter().enumerate() {
        // The examples are small, their functions call each other: the generated program
        // (many independent functions) is where most analyses are reused.
        let counted = *base == generated;
        // `PLC_SEED=N` tries other edits (the default, 0, is what CI runs).
        let seed: u64 = std::env::var("PLC_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (b as u64 + 1) ^ seed.wrapping_mul(0x2545_F491_4F6C_DD1D));
        let mut text = base.clone();
        let mut cache = None;
        for step in 0..if counted { 400 } else { 60 } {
            // Back to the unedited text now and then, and after an edit that left nothing
            // to reuse (a syntax error).
            text = if step % 6 == 5 || (cache.is_none() && step % 2 == 1) {
                base.clone()
            } else {
                random_edit(&text, &mut rng)
            };
            let (inc, next) = plc::lsp::incremental::analyze(
                "t.pl",
                None,
                &text,
                cache.as_ref(),
                plc::lsp::analysis::analyze_unless,
                &|| false,
            )
            .unwrap();
            let whole = plc::lsp::analysis::analyze("t.pl", None, &text);
            assert!(
                inc.diags == whole.diags,
                "base {b}, step {step}: incremental\n{:#?}\nwhole\n{:#?}\ntext:\n{text}",
                inc.diags,
                whole.diags
            );
            if counted {
                reused += usize::from(!inc.complete);
                steps += 1;
            }
            // A hover on an analysis made of parts reads the programs of each unit's last
            // compilation and the tree of its unit: the same text as the whole analysis's
            // hover.
            if !inc.complete && inc.hoverable() {
                let syntax = plc::lsp::analysis::Syntax::parse(&text);
                let regions: Vec<usize> = text.match_indices("pl.graph(\"").map(|(i, _)| i + 10).collect();
                let mut pick = Rng(0x2545_F491_4F6C_DD1D ^ steps as u64);
                for _ in 0..regions.len().min(3) {
                    let at = regions[pick.below(regions.len())] as u32;
                    // As the server answers before the whole text is parsed: the tree of
                    // the unit alone.
                    let unit = plc::lsp::analysis::Syntax::of_unit(&text, &inc.parts, at);
                    let ours = plc::lsp::hover::region_hover(&inc, &unit, at);
                    let theirs = plc::lsp::hover::region_hover(&whole, &syntax, at);
                    assert_eq!(ours, theirs, "base {b}, step {step}, offset {at}, text:\n{text}");
                    hovers += usize::from(ours.is_some_and(|(_, h)| h.starts_with("**Graph function")));
                }
            }
            cache = next;
        }
    }
    // Most edits are inside one function: many analyses reuse the others.
    assert!(reused * 4 > steps, "{reused} of {steps}");
    assert!(hovers * 2 > reused, "{hovers} hovers on a Graph function, {reused} analyses made of parts");
}

/// Through the server: after edits inside one function of a large document (analysed
/// incrementally), the published diagnostics and a hover are those a fresh server gives
/// for the same text.
#[test]
fn edits_inside_one_function_answer_as_a_fresh_analysis() {
    let base = generate::program(600);
    let uri = "file:///tmp/plc-lsp-incremental.pl";
    let mut c = Client::start();
    assert_eq!(c.open(uri, &base), Vec::<Value>::new());
    let edits = [
        base.replacen("+ 5 % 7", "+ 5 % 8", 1),
        base.replacen("+ 5 % 7", "+ undefined_name % 8", 1),
        base.replacen("band_9\"", "band_3\"", 1),
        base.replacen("    return acc\n", "    return layer_4(w, acc, scale)\n", 1),
        base.clone(),
    ];
    for (i, text) in edits.iter().enumerate() {
        let version = i as i32 + 2;
        c.change(uri, version, text);
        let (published, diags) = c.diagnostics(uri);
        assert_eq!(published, json!(version));
        let mut fresh = Client::start();
        assert_eq!(diags, fresh.open(uri, text), "edit {i}");
        let region = find(text, "\"band_5\"");
        let hover = c.ok("textDocument/hover", at(uri, region.0, region.1 + 2));
        assert_eq!(hover, fresh.ok("textDocument/hover", at(uri, region.0, region.1 + 2)), "edit {i}");
        assert!(fresh.stop());
    }
    assert!(c.stop());
}
