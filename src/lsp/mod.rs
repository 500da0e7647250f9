//! `plc lsp`: a language server on stdin/stdout (see `docs/lsp.md`).
//!
//! One thread handles the messages in order (the transport reads and writes on two more).
//! Documents are synchronised whole (`didOpen`/`didChange`/`didClose`); each version is
//! compiled as `plc check` compiles a file ([`analysis`]) and every diagnostic is published
//! to the file it is in — imported files included — with UTF-16 ranges ([`convert`]).
//! Hover on a `pl.graph` region name shows the Graph function it becomes ([`hover`]), go
//! to definition follows calls, constants and imports ([`definition`]), and the outline
//! lists functions, program classes and regions ([`symbols`]).
//!
//! ```text
//! client ──didOpen/didChange──► analysis ──► publishDiagnostics (per file URI)
//!        ──hover────────────────► the analysis's program: the Graph function of the region
//!        ──definition───────────► the parse trees of the file and the modules it imports
//! ```
//!
//! Only the latest version of a document and its latest analysis are kept. The protocol
//! is followed as the specification says: requests before `initialize` get
//! ServerNotInitialized, requests after `shutdown` InvalidRequest, unknown requests
//! MethodNotFound, bad parameters InvalidParams; unknown notifications are ignored.

// `lsp_types::Uri` hashes and compares by its text, which never changes; the interior
// mutability clippy sees is a cache inside fluent-uri.
#![allow(clippy::mutable_key_type)]

pub mod analysis;
pub mod convert;
pub(crate) mod definition;
pub(crate) mod hover;
pub(crate) mod query;
pub(crate) mod symbols;
pub(crate) mod transport;

use analysis::Analysis;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Notification as NotificationTrait, PublishDiagnostics,
};
use lsp_types::request::{DocumentSymbolRequest, GotoDefinition, HoverRequest, Request as RequestTrait};
use lsp_types::{
    DocumentSymbolParams, DocumentSymbolResponse, GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverContents,
    HoverParams, HoverProviderCapability, InitializeResult, MarkupContent, MarkupKind, OneOf, PositionEncodingKind,
    PublishDiagnosticsParams, SaveOptions, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Uri,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Runs the server on stdin/stdout until the client says `exit` or the input ends. Exit
/// status 0 after `shutdown` then `exit`, 1 otherwise (as the protocol asks), 2 when the
/// transport cannot start.
pub fn main() -> ExitCode {
    let (connection, threads) = match transport::stdio() {
        Ok(started) => started,
        Err(err) => {
            eprintln!("error: cannot start the language server: {err}");
            return ExitCode::from(2);
        }
    };
    let clean = serve(&connection);
    // The writer stops once the last sender is gone, after writing what is queued.
    drop(connection);
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
    serve_with(connection, analysis::analyze)
}

/// How a document is compiled: its name, its path (if it is a file) and its text.
pub type Analyzer = fn(&str, Option<&Path>, &str) -> Analysis;

/// As [`serve`], compiling documents with `analyze` (tests substitute one that fails).
/// A panic inside an analysis or a request does not end the session: the document gets
/// an internal-error diagnostic (E0700), the request an InternalError answer.
pub fn serve_with(connection: &Connection, analyze: Analyzer) -> bool {
    let mut server = Server::new(connection, analyze);
    while let Ok(message) = connection.receiver.recv() {
        match message {
            Message::Request(request) => server.request(request),
            Message::Notification(n) if n.method == "exit" => return server.state == State::ShutDown,
            Message::Notification(n) => server.notification(n),
            // plc sends no requests, so a response answers nothing.
            Message::Response(_) => {}
        }
    }
    false
}

/// What the server answers with what it implements: whole-document sync, hover, go to
/// definition and the outline, positions in UTF-16.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(PositionEncodingKind::UTF16),
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::FULL),
            will_save: None,
            will_save_wait_until: None,
            // A saved file may be imported by an open one, which is then checked again.
            save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions { include_text: Some(false) })),
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
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
    file: crate::source::SourceFile,
    /// The canonical path of a `file:` document.
    path: Option<PathBuf>,
    analysis: Option<Analysis>,
}

struct Server<'c> {
    connection: &'c Connection,
    analyze: Analyzer,
    state: State,
    /// The open documents, by canonical URI.
    docs: FxHashMap<Uri, Document>,
    /// For each open document, the diagnostics its analysis found, by the canonical URI of
    /// the file they are in (the document's own URI always has an entry, maybe empty).
    found: FxHashMap<Uri, FxHashMap<Uri, Vec<lsp_types::Diagnostic>>>,
    /// For each file diagnostics were published for (canonical URI), the spelling they
    /// were published under: when it changes (the client opens a file it spells its own
    /// way, or closes it), the list under the old spelling is cleared.
    published_as: FxHashMap<Uri, Uri>,
}

type Answer = Result<serde_json::Value, (ErrorCode, String)>;

impl<'c> Server<'c> {
    fn new(connection: &'c Connection, analyze: Analyzer) -> Self {
        Server {
            connection,
            analyze,
            state: State::Uninitialized,
            docs: FxHashMap::default(),
            found: FxHashMap::default(),
            published_as: FxHashMap::default(),
        }
    }

    fn send(&self, message: Message) {
        // A client that is gone is noticed by the receiving loop.
        let _ = self.connection.sender.send(message);
    }

    fn respond(&self, id: RequestId, answer: Answer) {
        let response = match answer {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        };
        self.send(Message::Response(response));
    }

    fn request(&mut self, request: Request) {
        let Request { id, method, params } = request;
        let answer = match (self.state, method.as_str()) {
            (State::Uninitialized, "initialize") => {
                self.state = State::Running;
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
                Ok(serde_json::Value::Null)
            }
            (State::Running, HoverRequest::METHOD) => guarded(&method, || with_params(params, |p| self.hover(p))),
            (State::Running, GotoDefinition::METHOD) => {
                guarded(&method, || with_params(params, |p| self.definition(p)))
            }
            (State::Running, DocumentSymbolRequest::METHOD) => {
                guarded(&method, || with_params(params, |p| self.document_symbols(p)))
            }
            (State::Running, _) => Err((ErrorCode::MethodNotFound, format!("plc does not implement `{method}`"))),
        };
        self.respond(id, answer);
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
                    self.analyze(&uri);
                }
            }
            _ => {}
        }
    }

    // ------------------------------------------------------------ documents

    fn open(&mut self, spelled: Uri, version: i32, text: String) {
        let uri = convert::canonical_uri(&spelled);
        let path = convert::uri_to_path(&uri).map(|p| p.canonicalize().unwrap_or(p));
        let name = path.as_ref().map_or_else(|| spelled.as_str().to_string(), |p| p.display().to_string());
        let file = convert::source_file(name, text);
        // Opening a document already open replaces it.
        self.docs.insert(uri.clone(), Document { uri: spelled, version, file, path, analysis: None });
        self.analyze(&uri);
    }

    fn change(&mut self, p: lsp_types::DidChangeTextDocumentParams) {
        let uri = convert::canonical_uri(&p.text_document.uri);
        let Some(doc) = self.docs.get_mut(&uri) else { return };
        let mut text = std::mem::take(&mut doc.file.text);
        for change in p.content_changes {
            match change.range {
                // The server asks for whole documents, but a ranged change is applied too.
                Some(range) => {
                    let lines = crate::diag::LineIndex::new(&text);
                    let start = convert::offset(&text, &lines, range.start) as usize;
                    let end = convert::offset(&text, &lines, range.end) as usize;
                    let (start, end) = (start.min(end), start.max(end));
                    text.replace_range(start..end, &change.text);
                }
                None => text = change.text,
            }
        }
        doc.version = p.text_document.version;
        doc.file = convert::source_file(std::mem::take(&mut doc.file.name), text);
        doc.analysis = None;
        self.analyze(&uri);
    }

    fn close(&mut self, uri: &Uri) {
        if self.docs.remove(uri).is_none() {
            return;
        }
        let mut affected: FxHashSet<Uri> = self.found.remove(uri).map(|m| m.into_keys().collect()).unwrap_or_default();
        affected.insert(uri.clone());
        for file in sorted(affected) {
            self.publish(&file);
        }
    }

    /// Compiles an open document and publishes the diagnostics of every file whose list
    /// changed owner: the document's, and those of the files it imports (or imported).
    fn analyze(&mut self, uri: &Uri) {
        let Some(doc) = self.docs.get(uri) else { return };
        let analyze = self.analyze;
        let run = || analyze(&doc.file.name, doc.path.as_deref(), &doc.file.text);
        let analysis = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
            Ok(analysis) => analysis,
            Err(panic) => analysis::crashed(&doc.file.name, &doc.file.text, &panic_message(panic.as_ref())),
        };
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
        if let Some(doc) = self.docs.get_mut(uri) {
            doc.analysis = Some(analysis);
        }
        for file in sorted(affected) {
            self.publish(&file);
        }
    }

    /// Publishes the diagnostics of one file. An open file shows what its own analysis
    /// found (the others read it from disk, which may be older than the buffer); a file
    /// that is not open shows what the analyses of the open files that import it found.
    fn publish(&mut self, uri: &Uri) {
        let (diagnostics, version) = match self.docs.get(uri) {
            Some(doc) => {
                let own = self.found.get(uri).and_then(|m| m.get(uri)).cloned().unwrap_or_default();
                (own, Some(doc.version))
            }
            None => {
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
        };
        let spelled = self.docs.get(uri).map_or_else(|| uri.clone(), |d| d.uri.clone());
        if let Some(old) = self.published_as.insert(uri.clone(), spelled.clone()) {
            if old != spelled {
                let params = PublishDiagnosticsParams { uri: old, diagnostics: Vec::new(), version: None };
                self.send(Message::Notification(Notification::new(PublishDiagnostics::METHOD.to_string(), params)));
            }
        }
        let params = PublishDiagnosticsParams { uri: spelled, diagnostics, version };
        self.send(Message::Notification(Notification::new(PublishDiagnostics::METHOD.to_string(), params)));
    }

    // ------------------------------------------------------------ requests

    fn hover(&self, p: HoverParams) -> Answer {
        let at = p.text_document_position_params;
        let uri = convert::canonical_uri(&at.text_document.uri);
        let Some(doc) = self.docs.get(&uri) else { return Ok(serde_json::Value::Null) };
        let Some(analysis) = &doc.analysis else { return Ok(serde_json::Value::Null) };
        let offset = convert::offset(&doc.file.text, &doc.file.lines, at.position);
        let Some((span, text)) = hover::region_hover(analysis, offset) else { return Ok(serde_json::Value::Null) };
        let hover = Hover {
            contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: text }),
            range: Some(convert::range(&doc.file, span)),
        };
        Ok(to_value(hover))
    }

    fn definition(&self, p: GotoDefinitionParams) -> Answer {
        let at = p.text_document_position_params;
        let Some(doc) = self.docs.get(&convert::canonical_uri(&at.text_document.uri)) else {
            return Ok(serde_json::Value::Null);
        };
        let offset = convert::offset(&doc.file.text, &doc.file.lines, at.position);
        let root = definition::SourceDoc {
            uri: doc.uri.clone(),
            path: doc.path.clone(),
            file: convert::source_file(doc.file.name.clone(), doc.file.text.clone()),
        };
        let read = |path: &Path| self.read_file(path);
        match definition::definition(root, offset, &read) {
            Some(location) => Ok(to_value(GotoDefinitionResponse::Scalar(location))),
            None => Ok(serde_json::Value::Null),
        }
    }

    fn document_symbols(&self, p: DocumentSymbolParams) -> Answer {
        let Some(doc) = self.docs.get(&convert::canonical_uri(&p.text_document.uri)) else {
            return Ok(serde_json::Value::Null);
        };
        Ok(to_value(DocumentSymbolResponse::Nested(symbols::document_symbols(&doc.file))))
    }

    /// A file for go to definition: the editor's buffer when it is open, else the disk's.
    fn read_file(&self, path: &Path) -> Option<definition::SourceDoc> {
        let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        if let Some(doc) = self.docs.values().find(|d| d.path.as_deref() == Some(path.as_path())) {
            let file = convert::source_file(doc.file.name.clone(), doc.file.text.clone());
            return Some(definition::SourceDoc { uri: doc.uri.clone(), path: Some(path), file });
        }
        // A FIFO or a device named like a module must not block the server.
        let crate::source::Source::Bytes(bytes) = crate::source::read_source(&path).ok()? else { return None };
        let text = String::from_utf8(bytes).ok()?;
        let uri = convert::path_to_uri(&path)?;
        let file = convert::source_file(path.display().to_string(), text);
        Some(definition::SourceDoc { uri, path: Some(path), file })
    }
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

fn to_value(value: impl serde::Serialize) -> serde_json::Value {
    // The protocol types serialize to JSON without fail (no maps with non-string keys).
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}

/// URIs in a stable order, so that a session's notifications come in the same order.
fn sorted(uris: FxHashSet<Uri>) -> Vec<Uri> {
    let mut uris: Vec<Uri> = uris.into_iter().collect();
    uris.sort();
    uris
}
