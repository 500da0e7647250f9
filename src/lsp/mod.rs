//! `plc lsp`: a language server on stdin/stdout (see `docs/lsp.md`).
//!
//! The message loop runs on one thread and never compiles: documents are compiled on
//! worker threads, and the loop stays free to take in edits and answer requests. Documents
//! are synchronised by ranges (`didChange` with incremental sync, UTF-16 positions) or
//! whole; each version is compiled as `plc check` compiles a file ([`analysis`]) and every
//! diagnostic is published to the file it is in — imported files included — with UTF-16
//! ranges ([`convert`]), or handed to a client that pulls them (`textDocument/diagnostic`).
//! Hover on a `pl.graph` region name shows the Graph function it becomes ([`hover`]), go
//! to definition follows calls, constants and imports ([`definition`]), and the outline
//! lists functions, program classes and regions ([`symbols`]).
//!
//! ```text
//! client ──didOpen/didChange──► loop: apply the edit, newest version wanted
//!                                 │ (every message already waiting is taken in first)
//!                                 ▼
//!                          worker: analysis of the newest version ──► loop: publish
//!        ──hover/definition/symbols/diagnostic──► answered from the analysis of the
//!                                 current version (held back until it is there)
//! ```
//!
//! Only the newest version of a document is compiled: edits that queue up while a worker
//! is busy are applied to the text, and the next analysis starts from the last of them;
//! an analysis of a version that is no longer the newest is cancelled (between the stages
//! of the pipeline) and its result, if it comes, dropped. Requests never parse the
//! document: they read the analysis of the version they name. The protocol is followed as
//! the specification says: requests before `initialize` get ServerNotInitialized,
//! requests after `shutdown` InvalidRequest, unknown requests MethodNotFound, bad
//! parameters InvalidParams; unknown notifications are ignored.

// `lsp_types::Uri` hashes and compares by its text, which never changes; the interior
// mutability clippy sees is a cache inside fluent-uri.
#![allow(clippy::mutable_key_type)]

pub mod analysis;
pub mod convert;
pub(crate) mod definition;
pub mod hover;
pub mod incremental;
pub(crate) mod query;
pub(crate) mod symbols;
pub(crate) mod transport;

use analysis::{Analysis, Syntax};
use crossbeam_channel::{Receiver, Sender};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Notification as NotificationTrait, PublishDiagnostics,
};
use lsp_types::request::{
    DocumentDiagnosticRequest, DocumentSymbolRequest, GotoDefinition, HoverRequest, Request as RequestTrait,
    WorkspaceDiagnosticRefresh,
};
use lsp_types::{
    DiagnosticOptions, DiagnosticServerCapabilities, DocumentDiagnosticParams, DocumentDiagnosticReport,
    DocumentDiagnosticReportResult, DocumentSymbolParams, DocumentSymbolResponse, FullDocumentDiagnosticReport,
    GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverContents, HoverParams, HoverProviderCapability,
    InitializeResult, MarkupContent, MarkupKind, OneOf, PositionEncodingKind, PublishDiagnosticsParams,
    RelatedFullDocumentDiagnosticReport, RelatedUnchangedDocumentDiagnosticReport, SaveOptions, ServerCapabilities,
    ServerInfo, TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions,
    UnchangedDocumentDiagnosticReport, Uri,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The stack of a worker thread, as large as the command line's: deep input is refused by
/// the front end first, but the passes recurse too.
const WORKER_STACK: usize = 256 << 20;

/// Runs the server on stdin/stdout until the client says `exit` or the input ends. Exit
/// status 0 after `shutdown` then `exit`, 1 otherwise (as the protocol asks), 2 when the
/// transport cannot start.
pub fn main() -> ExitCode {
    let (channels, threads) = match transport::stdio() {
        Ok(started) => started,
        Err(err) => {
            eprintln!("error: cannot start the language server: {err}");
            return ExitCode::from(2);
        }
    };
    let clean = run(&channels.receiver, Out::Stdio(&channels.sender), analysis::analyze_unless);
    // The writer stops once the last sender is gone, after writing what is queued.
    drop(channels);
    threads.join_writer();
    if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Serves one client over a connection until `exit` (or until the client is gone).
/// Returns whether the client asked for `shutdown` before it ended the session.
pub fn serve(connection: &Connection) -> bool {
    serve_with(connection, analysis::analyze_unless)
}

/// How a document is compiled: its name, its path (if it is a file), its text, and a
/// question to ask between stages — whether the work is still wanted (`None` when it was
/// given up).
pub type Analyzer = fn(&str, Option<&Path>, &str, analysis::Cancelled<'_>) -> Option<Analysis>;

/// As [`serve`], compiling documents with `analyze` (tests substitute one that fails).
/// A panic inside an analysis or a request does not end the session: the document gets
/// an internal-error diagnostic (E0700), the request an InternalError answer.
pub fn serve_with(connection: &Connection, analyze: Analyzer) -> bool {
    run(&connection.receiver, Out::Connection(&connection.sender), analyze)
}

/// Where the server's messages go: a connection of lsp-server (in process: the tests and
/// benchmarks), or the stdio transport's writer, which takes a result made beforehand as
/// JSON text and writes it as it is.
#[derive(Clone, Copy)]
enum Out<'c> {
    Connection(&'c Sender<Message>),
    Stdio(&'c Sender<transport::Outgoing>),
}

impl Out<'_> {
    /// Sends a message; a client that is gone is noticed by the receiving loop.
    fn send(self, message: Message) {
        match self {
            Out::Connection(sender) => {
                let _ = sender.send(message);
            }
            Out::Stdio(sender) => {
                let _ = sender.send(transport::Outgoing::Message(message));
            }
        }
    }

    /// Answers a request with a result written as JSON text.
    fn send_json(self, id: RequestId, json: Arc<str>) {
        match self {
            Out::Connection(_) => {
                // The text is JSON this server wrote.
                let value = serde_json::from_str(&json).unwrap_or(serde_json::Value::Null);
                self.send(Message::Response(Response { id, response_result: Ok(value) }));
            }
            Out::Stdio(sender) => {
                let _ = sender.send(transport::Outgoing::Result { id, json });
            }
        }
    }
}

/// The message loop of [`serve_with`], reading from `receiver` and writing to `out`.
fn run(receiver: &Receiver<Message>, out: Out<'_>, analyze: Analyzer) -> bool {
    let (done_sender, done) = crossbeam_channel::unbounded();
    let workers = Workers::start(analyze, done_sender);
    let mut server = Server::new(out, workers);
    loop {
        crossbeam_channel::select! {
            recv(receiver) -> message => {
                let Ok(message) = message else { return false };
                let mut end = server.message(message);
                // Every message already waiting is taken in before any work starts, so
                // that of a run of edits only the last version is compiled.
                while end.is_none() {
                    let Ok(message) = receiver.try_recv() else { break };
                    end = server.message(message);
                }
                if let Some(clean) = end {
                    // The requests sent before `exit` are answered first.
                    server.settle(&done);
                    return clean;
                }
            }
            recv(done) -> report => {
                if let Ok(report) = report {
                    server.report(report);
                }
            }
        }
        server.schedule(&done);
    }
}

/// What the server answers with what it implements: incremental sync, pulled diagnostics,
/// hover, go to definition and the outline, positions in UTF-16.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(PositionEncodingKind::UTF16),
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::INCREMENTAL),
            will_save: None,
            will_save_wait_until: None,
            // A saved file may be imported by an open one, which is then checked again.
            save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions { include_text: Some(false) })),
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        diagnostic_provider: Some(DiagnosticServerCapabilities::Options(DiagnosticOptions {
            identifier: Some("plc".to_string()),
            // A document's diagnostics depend on the files it imports.
            inter_file_dependencies: true,
            workspace_diagnostics: false,
            ..DiagnosticOptions::default()
        })),
        ..ServerCapabilities::default()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// Waiting for `initialize`.
    Uninitialized,
    Running,
    /// After `shutdown`: only `exit` is expected.
    ShutDown,
}

/// An open document: its latest text and what plc found in it.
struct Document {
    /// The URI as the client spells it (documents are keyed by [`convert::canonical_uri`]).
    uri: Uri,
    version: i32,
    file: Arc<crate::source::SourceFile>,
    /// The canonical path of a `file:` document.
    path: Option<PathBuf>,
    /// Which state of the text the requests need: a new number at each change.
    edit: u64,
    /// Which analysis is wanted: a new number at each change, and when a save may have
    /// changed the files the document imports.
    wanted: u64,
    /// The last analysis accepted, with the `edit` and `wanted` it was made for.
    analysis: Option<(u64, u64, Analysis)>,
    /// The parse tree of the text of an `edit`, made after its analysis.
    syntax: Option<(u64, Syntax)>,
    /// What the last analysis leaves for the next one (`incremental.rs`).
    cache: Option<Arc<incremental::Cache>>,
}

impl Document {
    /// The analysis of the document's current text, if it is there.
    fn current(&self) -> Option<&Analysis> {
        self.analysis.as_ref().filter(|(edit, _, _)| *edit == self.edit).map(|(_, _, a)| a)
    }

    /// The analysis and the parse tree of the current text, if both are there.
    fn parsed(&self) -> Option<(&Analysis, &Syntax)> {
        let syntax = self.syntax.as_ref().filter(|(edit, _)| *edit == self.edit).map(|(_, s)| s)?;
        Some((self.current()?, syntax))
    }

    /// Whether a request can be answered now: the diagnostics need the analysis of the
    /// current text, the other questions its parse tree too, and a hover the programs of
    /// the whole document (an analysis made of parts has its diagnostics only).
    fn ready(&self, method: &str) -> bool {
        match method {
            DocumentDiagnosticRequest::METHOD => self.current().is_some(),
            // An analysis made of parts answers before the whole text is parsed.
            HoverRequest::METHOD => {
                self.current().is_some_and(|a| a.hoverable() && (!a.parts.is_empty() || self.parsed().is_some()))
            }
            _ => self.parsed().is_some(),
        }
    }
}

/// A request held back until the document it names is analysed in its current version.
struct Held {
    id: RequestId,
    method: String,
    params: serde_json::Value,
    uri: Uri,
    /// The state of the text the request was sent for.
    edit: u64,
}

struct Server<'c> {
    out: Out<'c>,
    workers: Workers,
    state: State,
    /// The source of `edit` and `wanted` numbers.
    counter: u64,
    /// The open documents, by canonical URI.
    docs: FxHashMap<Uri, Document>,
    /// For each open document, the diagnostics its analysis found, by the canonical URI of
    /// the file they are in (the document's own URI always has an entry, maybe empty).
    found: FxHashMap<Uri, FxHashMap<Uri, Vec<lsp_types::Diagnostic>>>,
    /// For each file diagnostics were published for (canonical URI), the spelling they
    /// were published under: when it changes (the client opens a file it spells its own
    /// way, or closes it), the list under the old spelling is cleared.
    published_as: FxHashMap<Uri, Uri>,
    /// Requests waiting for an analysis, in the order they came.
    held: Vec<Held>,
    /// The client pulls the diagnostics of open documents (`textDocument/diagnostic`), so
    /// they are not pushed; those of files it has not opened still are.
    pull: bool,
    /// The client can be asked to pull again (`workspace/diagnostic/refresh`).
    refresh: bool,
    /// A save asked for analyses whose results a pulling client must be told about.
    refresh_due: bool,
    next_request: i32,
    /// A `shutdown` that waits for the held requests to be answered.
    shutdown: Option<RequestId>,
}

type Answer = Result<Reply, (ErrorCode, String)>;

/// The result of a request: a JSON value, or JSON text made beforehand (the outline).
enum Reply {
    Value(serde_json::Value),
    Json(Arc<str>),
}

impl Reply {
    const NULL: Reply = Reply::Value(serde_json::Value::Null);
}

impl<'c> Server<'c> {
    fn new(out: Out<'c>, workers: Workers) -> Self {
        Server {
            out,
            workers,
            state: State::Uninitialized,
            counter: 0,
            docs: FxHashMap::default(),
            found: FxHashMap::default(),
            published_as: FxHashMap::default(),
            held: Vec::new(),
            pull: false,
            refresh: false,
            refresh_due: false,
            next_request: 0,
            shutdown: None,
        }
    }

    fn send(&self, message: Message) {
        self.out.send(message);
    }

    fn respond(&self, id: RequestId, answer: Answer) {
        let response = match answer {
            // Not `Response::new_ok`, which would copy the value whole.
            Ok(Reply::Value(value)) => Response { id, response_result: Ok(value) },
            Ok(Reply::Json(json)) => return self.out.send_json(id, json),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        };
        self.send(Message::Response(response));
    }

    /// Handles one message; `Some(clean)` when it ends the session.
    fn message(&mut self, message: Message) -> Option<bool> {
        match message {
            Message::Request(request) => self.request(request),
            Message::Notification(n) if n.method == "exit" => return Some(self.state == State::ShutDown),
            Message::Notification(n) => self.notification(n),
            // The only requests plc sends are refreshes, whose answers say nothing.
            Message::Response(_) => {}
        }
        None
    }

    fn request(&mut self, request: Request) {
        let Request { id, method, params } = request;
        let answer = match (self.state, method.as_str()) {
            (State::Uninitialized, "initialize") => {
                self.state = State::Running;
                // Read leniently: a capability that does not parse is one the client lacks.
                self.pull = params.pointer("/capabilities/textDocument/diagnostic").is_some_and(|v| v.is_object());
                self.refresh =
                    params.pointer("/capabilities/workspace/diagnostics/refreshSupport") == Some(&true.into());
                let result = InitializeResult {
                    capabilities: capabilities(),
                    server_info: Some(ServerInfo {
                        name: "plc".to_string(),
                        version: Some(env!("CARGO_PKG_VERSION").to_string()),
                    }),
                };
                Ok(to_value(result))
            }
            (State::Uninitialized, _) => {
                Err((ErrorCode::ServerNotInitialized, format!("`{method}` before `initialize`")))
            }
            (State::ShutDown, _) => Err((ErrorCode::InvalidRequest, format!("`{method}` after `shutdown`"))),
            (State::Running, "initialize") => Err((ErrorCode::InvalidRequest, "`initialize` was already sent".into())),
            (State::Running, "shutdown") => {
                self.state = State::ShutDown;
                if !self.held.is_empty() {
                    // Answered after the requests sent before it.
                    self.shutdown = Some(id);
                    return;
                }
                Ok(Reply::NULL)
            }
            (State::Running, HoverRequest::METHOD)
            | (State::Running, GotoDefinition::METHOD)
            | (State::Running, DocumentSymbolRequest::METHOD)
            | (State::Running, DocumentDiagnosticRequest::METHOD) => {
                // A question about an open document waits for the analysis of its text.
                let uri =
                    params.pointer("/textDocument/uri").and_then(|u| serde_json::from_value::<Uri>(u.clone()).ok());
                if let Some(uri) = uri.map(|u| convert::canonical_uri(&u)) {
                    if let Some(doc) = self.docs.get(&uri).filter(|d| !d.ready(&method)) {
                        let edit = doc.edit;
                        self.held.push(Held { id, method, params, uri, edit });
                        return;
                    }
                }
                self.answer(&method, params)
            }
            (State::Running, _) => Err((ErrorCode::MethodNotFound, format!("plc does not implement `{method}`"))),
        };
        self.respond(id, answer);
    }

    /// The answer to a question about a document, from its current analysis.
    fn answer(&self, method: &str, params: serde_json::Value) -> Answer {
        guarded(method, || match method {
            HoverRequest::METHOD => with_params(params, |p| self.hover(p)),
            GotoDefinition::METHOD => with_params(params, |p| self.definition(p)),
            DocumentSymbolRequest::METHOD => with_params(params, |p| self.document_symbols(p)),
            _ => with_params(params, |p| self.pulled(p)),
        })
    }

    /// Answers the requests held for `uri`, once its current text is analysed. A question
    /// about a position in a text that has changed since gets ContentModified, as the
    /// protocol says (the position may name something else now); the outline and the
    /// diagnostics are answered for the newest text.
    fn release(&mut self, uri: &Uri) {
        let doc = self.docs.get(uri);
        let edit = doc.map(|d| d.edit);
        let (ready, waiting) = std::mem::take(&mut self.held)
            .into_iter()
            .partition(|h| &h.uri == uri && doc.is_none_or(|d| d.ready(&h.method)));
        self.held = waiting;
        for Held { id, method, params, edit: sent_for, .. } in ready {
            let positional = matches!(method.as_str(), HoverRequest::METHOD | GotoDefinition::METHOD);
            let answer = if positional && edit.is_some_and(|e| e != sent_for) {
                Err((ErrorCode::ContentModified, "the document changed before the answer was ready".to_string()))
            } else {
                self.answer(&method, params)
            };
            self.respond(id, answer);
        }
        if self.held.is_empty() {
            if let Some(id) = self.shutdown.take() {
                self.respond(id, Ok(Reply::NULL));
            }
        }
    }

    /// Finishes the analyses the held requests wait for, and answers them (at `exit`).
    fn settle(&mut self, done: &Receiver<Report>) {
        while !self.held.is_empty() {
            self.schedule(done);
            if self.held.is_empty() || self.workers.idle() {
                break;
            }
            match done.recv() {
                Ok(report) => self.report(report),
                Err(_) => break,
            }
        }
    }

    fn notification(&mut self, n: Notification) {
        if self.state != State::Running {
            return;
        }
        // Notifications with parameters that do not parse are ignored: they have no answer.
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params) {
                    let doc = p.text_document;
                    self.open(doc.uri, doc.version, doc.text);
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params) {
                    self.change(p);
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params) {
                    self.close(&convert::canonical_uri(&p.text_document.uri));
                }
            }
            DidSaveTextDocument::METHOD => {
                // Open documents read the files they import from disk: check them all again.
                let open: Vec<Uri> = self.docs.keys().cloned().collect();
                for uri in open {
                    self.want(&uri, false);
                }
                self.refresh_due = self.pull && self.refresh;
            }
            _ => {}
        }
    }

    // ------------------------------------------------------------ documents

    /// Asks for a new analysis of a document (after a change of its text when `edited`),
    /// and gives up the work in hand for it.
    fn want(&mut self, uri: &Uri, edited: bool) {
        self.counter += 1;
        let counter = self.counter;
        if let Some(doc) = self.docs.get_mut(uri) {
            doc.wanted = counter;
            if edited {
                doc.edit = counter;
            } else {
                // The files it imports may have changed: nothing of the last analysis is kept.
                doc.cache = None;
            }
        }
        self.workers.cancel(uri);
    }

    fn open(&mut self, spelled: Uri, version: i32, text: String) {
        let uri = convert::canonical_uri(&spelled);
        let path = convert::uri_to_path(&uri).map(|p| p.canonicalize().unwrap_or(p));
        let name = path.as_ref().map_or_else(|| spelled.as_str().to_string(), |p| p.display().to_string());
        let file = Arc::new(convert::source_file(name, text));
        // Opening a document already open replaces it.
        let doc = Document {
            uri: spelled,
            version,
            file,
            path,
            edit: 0,
            wanted: 0,
            analysis: None,
            syntax: None,
            cache: None,
        };
        self.docs.insert(uri.clone(), doc);
        self.want(&uri, true);
    }

    fn change(&mut self, p: lsp_types::DidChangeTextDocumentParams) {
        let uri = convert::canonical_uri(&p.text_document.uri);
        let Some(doc) = self.docs.get_mut(&uri) else { return };
        let mut text = doc.file.text.clone();
        let mut changed = false;
        for change in p.content_changes {
            match change.range {
                Some(range) => {
                    // The positions of each change are in the text the changes before it made.
                    let rebuilt;
                    let lines = if changed {
                        rebuilt = crate::diag::LineIndex::new(&text);
                        &rebuilt
                    } else {
                        doc.file.lines()
                    };
                    convert::apply_change(&mut text, lines, range, &change.text);
                }
                None => text = change.text,
            }
            changed = true;
        }
        doc.version = p.text_document.version;
        doc.file = Arc::new(convert::source_file(doc.file.name.clone(), text));
        self.want(&uri, true);
    }

    fn close(&mut self, uri: &Uri) {
        if self.docs.remove(uri).is_none() {
            return;
        }
        self.workers.cancel(uri);
        // Its held requests are answered as for a document that is not open.
        self.release(uri);
        let mut affected: FxHashSet<Uri> = self.found.remove(uri).map(|m| m.into_keys().collect()).unwrap_or_default();
        affected.insert(uri.clone());
        for file in sorted(affected) {
            self.publish(&file);
        }
    }

    /// Starts the analyses wanted, newest text of each document, as workers are free (in
    /// the order of the documents' URIs); a session without workers analyses in turn on
    /// this thread.
    fn schedule(&mut self, done: &Receiver<Report>) {
        // A document whose analysis is made of parts is analysed whole when a hover waits.
        let hovered = |uri: &Uri, d: &Document| {
            d.current().is_some_and(|a| !a.hoverable())
                && self.held.iter().any(|h| &h.uri == uri && h.method == HoverRequest::METHOD)
        };
        let mut wanted: Vec<(&Uri, bool)> = self
            .docs
            .iter()
            .filter(|(uri, d)| !self.workers.busy_with(uri, d.wanted))
            .filter_map(|(uri, d)| {
                let stale = d.analysis.as_ref().is_none_or(|(_, wanted, _)| *wanted != d.wanted);
                (stale || hovered(uri, d)).then_some((uri, !stale))
            })
            .collect();
        wanted.sort();
        let jobs: Vec<Job> = wanted
            .into_iter()
            .take(self.workers.free())
            .map(|(uri, whole)| {
                let d = &self.docs[uri];
                // The parse tree is made again only when the text changed.
                let parse = !whole && d.syntax.as_ref().is_none_or(|(edit, _)| *edit != d.edit);
                let (path, file, cancel) = (d.path.clone(), d.file.clone(), Arc::default());
                let cache = if whole { None } else { d.cache.clone() };
                Job { uri: uri.clone(), wanted: d.wanted, edit: d.edit, parse, path, file, cancel, cache }
            })
            .collect();
        for job in jobs {
            for report in self.workers.run(job) {
                self.report(report);
            }
        }
        if self.workers.is_empty() {
            while let Ok(report) = done.try_recv() {
                self.report(report);
            }
        }
        if self.refresh_due && self.workers.idle() && self.docs.values().all(|d| d.current().is_some()) {
            self.refresh_due = false;
            self.next_request += 1;
            let id = RequestId::from(format!("plc-refresh-{}", self.next_request));
            self.send(Message::Request(Request::new(id, WorkspaceDiagnosticRefresh::METHOD.to_string(), ())));
        }
    }

    /// Takes in what a worker reports.
    fn report(&mut self, report: Report) {
        match report {
            Report::Analysed(finished) => self.finished(finished),
            Report::Parsed { uri, wanted, edit, syntax } => {
                self.workers.finished(&uri, wanted);
                let Some(syntax) = syntax else { return };
                let Some(doc) = self.docs.get_mut(&uri) else { return };
                if doc.edit == edit {
                    doc.syntax = Some((edit, *syntax));
                    self.release(&uri);
                }
            }
        }
    }

    /// Takes in the result of an analysis: kept and published when it is of the wanted
    /// state of its document, dropped otherwise.
    fn finished(&mut self, finished: Finished) {
        let Finished { uri, wanted, analysis, cache } = finished;
        let Some(analysis) = analysis else { return };
        let Some(doc) = self.docs.get_mut(&uri) else { return };
        if doc.wanted != wanted {
            return;
        }
        let edit = doc.edit;
        doc.cache = cache.map(Arc::new);
        if doc.analysis.as_ref().is_some_and(|(_, w, _)| *w == wanted) {
            // The whole analysis of a version whose diagnostics (the same) are published:
            // for the hovers that wait for its programs.
            doc.analysis = Some((edit, wanted, analysis));
            self.release(&uri);
            return;
        }
        let open_paths: FxHashMap<PathBuf, Uri> =
            self.docs.iter().filter_map(|(u, d)| Some((d.path.clone()?, u.clone()))).collect();
        let files = &analysis.session.files;
        let mut uris: FxHashMap<crate::source::FileId, Option<Uri>> = FxHashMap::default();
        let mut uri_of = |file: crate::source::FileId| {
            if file == analysis.root {
                return Some(uri.clone());
            }
            uris.entry(file).or_insert_with(|| file_uri(&files.get(file).name, &open_paths)).clone()
        };
        let docs = &self.docs;
        let mut by_file: FxHashMap<Uri, Vec<lsp_types::Diagnostic>> = FxHashMap::default();
        by_file.insert(uri.clone(), Vec::new());
        for d in &crate::diag::cap_repeats(&analysis.diags) {
            // Diagnostics of the pipeline's own text cannot arise from the default pipeline.
            let Some(target) = uri_of(d.primary.file) else { continue };
            // Related information names files as the client spells them.
            let mut spelled_uri_of =
                |file| uri_of(file).map(|canonical| docs.get(&canonical).map_or(canonical, |d| d.uri.clone()));
            let converted = convert::diagnostic(files, d, &mut spelled_uri_of);
            by_file.entry(target).or_default().push(converted);
        }
        let mut affected: FxHashSet<Uri> = by_file.keys().cloned().collect();
        if let Some(old) = self.found.insert(uri.clone(), by_file) {
            affected.extend(old.into_keys());
        }
        if let Some(doc) = self.docs.get_mut(&uri) {
            doc.analysis = Some((edit, wanted, analysis));
        }
        for file in sorted(affected) {
            self.publish(&file);
        }
        self.release(&uri);
    }

    /// The diagnostics of one file and the version of the text they are of. An open file
    /// has what its own analysis found (the others read it from disk, which may be older
    /// than the buffer); a file that is not open what the analyses of the open files that
    /// import it found.
    fn diagnostics_of(&self, uri: &Uri) -> (Vec<lsp_types::Diagnostic>, Option<i32>) {
        if let Some(doc) = self.docs.get(uri) {
            let own = self.found.get(uri).and_then(|m| m.get(uri)).cloned().unwrap_or_default();
            return (own, Some(doc.version));
        }
        let mut roots: Vec<&Uri> = self.found.keys().collect();
        roots.sort();
        let lists: Vec<&Vec<lsp_types::Diagnostic>> =
            roots.into_iter().filter_map(|root| self.found[root].get(uri)).collect();
        let mut all: Vec<lsp_types::Diagnostic> = Vec::new();
        for (i, list) in lists.iter().enumerate() {
            for d in list.iter() {
                // Two open files importing this one report its problems twice.
                if i == 0 || !all.contains(d) {
                    all.push(d.clone());
                }
            }
        }
        (all, None)
    }

    /// Publishes the diagnostics of one file (see [`Server::diagnostics_of`]); for a client
    /// that pulls, only those of files it has not opened.
    fn publish(&mut self, uri: &Uri) {
        let pulled = self.pull && self.docs.contains_key(uri);
        let spelled = self.docs.get(uri).map_or_else(|| uri.clone(), |d| d.uri.clone());
        let old =
            if pulled { self.published_as.remove(uri) } else { self.published_as.insert(uri.clone(), spelled.clone()) };
        if let Some(old) = old {
            if pulled || old != spelled {
                let params = PublishDiagnosticsParams { uri: old, diagnostics: Vec::new(), version: None };
                self.send(Message::Notification(Notification::new(PublishDiagnostics::METHOD.to_string(), params)));
            }
        }
        if pulled {
            return;
        }
        let (diagnostics, version) = self.diagnostics_of(uri);
        let params = PublishDiagnosticsParams { uri: spelled, diagnostics, version };
        self.send(Message::Notification(Notification::new(PublishDiagnostics::METHOD.to_string(), params)));
    }

    // ------------------------------------------------------------ requests

    fn hover(&self, p: HoverParams) -> Answer {
        let at = p.text_document_position_params;
        let uri = convert::canonical_uri(&at.text_document.uri);
        let Some(doc) = self.docs.get(&uri) else { return Ok(Reply::NULL) };
        let Some(analysis) = doc.current() else { return Ok(Reply::NULL) };
        let offset = convert::offset(&doc.file.text, doc.file.lines(), at.position);
        // The whole text's tree, or (while it is being made) the tree of the unit asked about.
        let unit;
        let syntax = match doc.parsed() {
            Some((_, syntax)) => syntax,
            None => {
                unit = Syntax::of_unit(&doc.file.text, &analysis.parts, offset);
                &unit
            }
        };
        let Some((span, text)) = hover::region_hover(analysis, syntax, offset) else {
            return Ok(Reply::NULL);
        };
        let hover = Hover {
            contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: text }),
            range: Some(convert::range(&doc.file, span)),
        };
        Ok(to_value(hover))
    }

    fn definition(&self, p: GotoDefinitionParams) -> Answer {
        let at = p.text_document_position_params;
        let Some(doc) = self.docs.get(&convert::canonical_uri(&at.text_document.uri)) else {
            return Ok(Reply::NULL);
        };
        let Some((_, syntax)) = doc.parsed() else { return Ok(Reply::NULL) };
        let offset = convert::offset(&doc.file.text, doc.file.lines(), at.position);
        let root = definition::SourceDoc { uri: doc.uri.clone(), path: doc.path.clone(), file: doc.file.clone() };
        let read = |path: &Path| self.read_file(path);
        match definition::definition(root, syntax, offset, &read) {
            Some(location) => Ok(to_value(GotoDefinitionResponse::Scalar(location))),
            None => Ok(Reply::NULL),
        }
    }

    fn document_symbols(&self, p: DocumentSymbolParams) -> Answer {
        let Some(doc) = self.docs.get(&convert::canonical_uri(&p.text_document.uri)) else {
            return Ok(Reply::NULL);
        };
        let Some((_, syntax)) = doc.parsed() else { return Ok(Reply::NULL) };
        // Made by the worker that parsed the text, after its analysis.
        match &syntax.outline {
            Some(json) => Ok(Reply::Json(json.clone())),
            None => Ok(to_value(DocumentSymbolResponse::Nested(symbols::document_symbols(&doc.file, syntax)))),
        }
    }

    /// `textDocument/diagnostic`: the diagnostics of the current version, or "unchanged"
    /// when the client already has them (the result id names the analysis).
    fn pulled(&self, p: DocumentDiagnosticParams) -> Answer {
        let uri = convert::canonical_uri(&p.text_document.uri);
        let result_id = self.docs.get(&uri).and_then(|d| d.analysis.as_ref()).map(|(_, wanted, _)| wanted.to_string());
        let report = match (&result_id, &p.previous_result_id) {
            (Some(id), Some(previous)) if id == previous => {
                DocumentDiagnosticReport::Unchanged(RelatedUnchangedDocumentDiagnosticReport {
                    related_documents: None,
                    unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport { result_id: id.clone() },
                })
            }
            _ => DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
                related_documents: None,
                full_document_diagnostic_report: FullDocumentDiagnosticReport {
                    result_id,
                    items: self.diagnostics_of(&uri).0,
                },
            }),
        };
        Ok(to_value(DocumentDiagnosticReportResult::Report(report)))
    }

    /// A file for go to definition: the editor's buffer when it is open, else the disk's.
    fn read_file(&self, path: &Path) -> Option<definition::SourceDoc> {
        let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        if let Some(doc) = self.docs.values().find(|d| d.path.as_deref() == Some(path.as_path())) {
            return Some(definition::SourceDoc { uri: doc.uri.clone(), path: Some(path), file: doc.file.clone() });
        }
        // A FIFO or a device named like a module must not block the server, nor a pool busy
        // with an analysis (a large file is read in one piece here).
        let read = crate::syntax::serially(|| crate::source::read_source(&path));
        let crate::source::Source::Bytes(bytes) = read.ok()? else { return None };
        let text = String::from_utf8(bytes).ok()?;
        let uri = convert::path_to_uri(&path)?;
        let file = Arc::new(convert::source_file(path.display().to_string(), text));
        Some(definition::SourceDoc { uri, path: Some(path), file })
    }
}

// ---------------------------------------------------------------- workers

/// An analysis to run: the state of a document it is for, and its text.
struct Job {
    uri: Uri,
    wanted: u64,
    edit: u64,
    /// Whether to parse the text for the requests after the analysis.
    parse: bool,
    path: Option<PathBuf>,
    file: Arc<crate::source::SourceFile>,
    /// Set when the work is no longer wanted.
    cancel: Arc<AtomicBool>,
    /// What the document's last analysis left (`None`: analyse the whole text).
    cache: Option<Arc<incremental::Cache>>,
}

/// What a worker hands back: the analysis, or `None` when it was given up.
struct Finished {
    uri: Uri,
    wanted: u64,
    analysis: Option<Analysis>,
    cache: Option<incremental::Cache>,
}

/// What a worker reports of a job: first its analysis (published at once), then the
/// parse tree of its text for the requests (`None` when it was not made; boxed, as the
/// tree is large beside the other variant), which ends it.
enum Report {
    Analysed(Finished),
    Parsed { uri: Uri, wanted: u64, edit: u64, syntax: Option<Box<Syntax>> },
}

/// The threads that compile documents, and the jobs they hold.
struct Workers {
    analyze: Analyzer,
    jobs: Option<Sender<Job>>,
    threads: usize,
    /// The jobs started and not finished: (document, wanted, cancel flag).
    running: Vec<(Uri, u64, Arc<AtomicBool>)>,
}

impl Workers {
    /// Two workers at least, so that the newest version of a document starts at once even
    /// while an older one winds down; one per core up to four.
    fn start(analyze: Analyzer, done: Sender<Report>) -> Workers {
        let wanted = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(2, 4);
        let (sender, receiver) = crossbeam_channel::unbounded::<Job>();
        let mut threads = 0;
        for i in 0..wanted {
            let (receiver, done) = (receiver.clone(), done.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("plc-lsp-worker-{i}"))
                .stack_size(WORKER_STACK)
                .spawn(move || {
                    for job in receiver {
                        if work(analyze, job, &mut |report| done.send(report).is_ok()).is_none() {
                            return;
                        }
                    }
                });
            threads += usize::from(spawned.is_ok());
        }
        // Without any worker thread, the analyses run on the message loop's thread.
        let jobs = (threads > 0).then_some(sender);
        Workers { analyze, jobs, threads, running: Vec::new() }
    }

    fn is_empty(&self) -> bool {
        self.jobs.is_none()
    }

    fn idle(&self) -> bool {
        self.running.is_empty()
    }

    /// How many jobs can start now.
    fn free(&self) -> usize {
        self.threads.max(1).saturating_sub(self.running.len())
    }

    fn busy_with(&self, uri: &Uri, wanted: u64) -> bool {
        self.running.iter().any(|(u, w, _)| u == uri && *w == wanted)
    }

    /// Starts a job on a worker; without workers, runs it here and returns its reports.
    fn run(&mut self, job: Job) -> Vec<Report> {
        let mut reports = Vec::new();
        let mut keep = |report| {
            reports.push(report);
            true
        };
        let Some(jobs) = &self.jobs else {
            work(self.analyze, job, &mut keep);
            return reports;
        };
        self.running.push((job.uri.clone(), job.wanted, job.cancel.clone()));
        if let Err(err) = jobs.send(job) {
            // The workers are gone (they cannot be: they stop when this sender does).
            self.running.pop();
            work(self.analyze, err.into_inner(), &mut keep);
        }
        reports
    }

    /// Gives up the jobs for a document.
    fn cancel(&self, uri: &Uri) {
        for (u, _, cancel) in &self.running {
            if u == uri {
                cancel.store(true, Ordering::Relaxed);
            }
        }
    }

    /// A job has ended (its last report came).
    fn finished(&mut self, uri: &Uri, wanted: u64) {
        if let Some(i) = self.running.iter().position(|(u, w, _)| u == uri && *w == wanted) {
            self.running.swap_remove(i);
        }
    }
}

/// Runs one job and reports it: its analysis, then (unless it was given up or no tree is
/// wanted) the parse tree of its text. A panic in either is caught: the document gets an
/// internal error, or an empty tree. `None` when `report` says nobody listens any more.
fn work(analyze: Analyzer, job: Job, report: &mut dyn FnMut(Report) -> bool) -> Option<()> {
    let Job { uri, wanted, edit, parse, path, file, cancel, cache } = job;
    let cancelled = || cancel.load(Ordering::Relaxed);
    let run = || incremental::analyze(&file.name, path.as_deref(), &file.text, cache.as_deref(), analyze, &cancelled);
    let (analysis, cache) = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(Some((analysis, cache))) => (Some(analysis), cache),
        Ok(None) => (None, None),
        Err(panic) => (Some(analysis::crashed(&file.name, &file.text, &panic_message(panic.as_ref()))), None),
    };
    let analysed = analysis.is_some();
    report(Report::Analysed(Finished { uri: uri.clone(), wanted, analysis, cache })).then_some(())?;
    let syntax = (parse && analysed && !cancelled()).then(|| {
        Box::new(
            std::panic::catch_unwind(|| Syntax::parse(&file.text).with_outline(&file))
                .unwrap_or_else(|_| Syntax::empty()),
        )
    });
    report(Report::Parsed { uri, wanted, edit, syntax }).then_some(())
}

/// The URI of a file an analysis read (by the name the session gave it, its path): the
/// open document's URI when the file is open, else its `file:` URI. `None` for the
/// session's own texts (`<pipeline>`).
fn file_uri(name: &str, open_paths: &FxHashMap<PathBuf, Uri>) -> Option<Uri> {
    if name.starts_with('<') {
        return None;
    }
    let path = PathBuf::from(name);
    let path = path.canonicalize().unwrap_or(path);
    open_paths.get(&path).cloned().or_else(|| convert::path_to_uri(&path))
}

/// Answers a request, or InternalError when answering it panics (the panic message is
/// also printed on stderr, the editor's log, by the default hook).
fn guarded(method: &str, answer: impl FnOnce() -> Answer) -> Answer {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(answer)).unwrap_or_else(|panic| {
        let message = panic_message(panic.as_ref());
        Err((ErrorCode::InternalError, format!("internal error in plc while answering `{method}`: {message}")))
    })
}

/// The text of a panic's payload.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    match (panic.downcast_ref::<&str>(), panic.downcast_ref::<String>()) {
        (Some(s), _) => s.to_string(),
        (_, Some(s)) => s.clone(),
        _ => "a panic without a message".to_string(),
    }
}

/// Parses a request's parameters, or answers InvalidParams.
fn with_params<P: serde::de::DeserializeOwned>(params: serde_json::Value, handle: impl FnOnce(P) -> Answer) -> Answer {
    match serde_json::from_value(params) {
        Ok(p) => handle(p),
        Err(e) => Err((ErrorCode::InvalidParams, format!("invalid parameters: {e}"))),
    }
}

fn to_value(value: impl serde::Serialize) -> Reply {
    // The protocol types serialize to JSON without fail (no maps with non-string keys).
    Reply::Value(serde_json::to_value(value).unwrap_or(serde_json::Value::Null))
}

/// URIs in a stable order, so that a session's notifications come in the same order.
fn sorted(uris: FxHashSet<Uri>) -> Vec<Uri> {
    let mut uris: Vec<Uri> = uris.into_iter().collect();
    uris.sort();
    uris
}
