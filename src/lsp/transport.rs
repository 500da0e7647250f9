//! The stdio transport: LSP base-protocol frames (`Content-Length: N\r\n\r\n` + N bytes of
//! JSON) read from stdin and written to stdout, on two threads joined to the server by
//! channels ([`Channels`]).
//!
//! lsp-server has a stdio transport of its own, but its reader thread stops at the first
//! payload that is not a JSON-RPC message, which ends the session. This one answers such a
//! payload as JSON-RPC says — a Parse error (-32700) or an Invalid Request (-32600), with a
//! null id when the id cannot be read — and goes on with the next frame.
//!
//! It also survives frames whose framing is wrong, which would otherwise leave every later
//! message stuck to leftover bytes (the server deaf, `exit` ignored):
//! - a JSON payload is read up to the end of its JSON value, found by a scan of its
//!   brackets and strings, so a `Content-Length` too small (a client counting characters,
//!   not bytes) or too large (which would swallow the next frame, or wait for bytes that
//!   never come) costs nothing; the length decides only for a payload that is not JSON;
//! - a header line that holds `Content-Length:` after other bytes (stray bytes, the rest
//!   of a damaged frame) is read from there on: the reader resynchronises on the next
//!   header;
//! - a frame whose `Content-Length` is missing or not a number is read by the scan when
//!   its payload is JSON, and dropped otherwise.
//!
//! Nothing read is kept past its frame, and a line or a payload larger than the limits
//! below is skipped rather than held.

use crossbeam_channel::{bounded, Receiver, Sender};
use lsp_server::{ErrorCode, Message, RequestId};
use std::io::{self, Read, Write};
use std::sync::Arc;
use std::thread;

/// The longest header line kept: of a longer line, only the last this many bytes (a
/// `Content-Length` after stray bytes is at the end of its line).
const MAX_HEADER_LINE: usize = 8 * 1024;

/// The largest payload read; a larger one is skipped and answered with Invalid Request.
/// (Source files travel whole in `didOpen`/`didChange`; plc reads files of any size up to
/// 4 GiB, but an editor buffer of a quarter of that is already out of reach.)
pub const MAX_PAYLOAD: usize = 1 << 30;

/// The threads of a stdio connection.
pub struct IoThreads {
    writer: thread::JoinHandle<()>,
}

impl IoThreads {
    /// Waits until everything the server sent is written. The reader thread is not waited
    /// for: it may be blocked on stdin, and it stops by itself after `exit` or at end of input.
    pub fn join_writer(self) {
        let _ = self.writer.join();
    }
}

/// What the server hands the writer: a message, or the answer to a request whose result
/// is JSON text made beforehand (the outline, made when the document is parsed), written
/// as it is rather than turned into a `serde_json::Value` and printed again.
pub enum Outgoing {
    Message(Message),
    Result { id: RequestId, json: Arc<str> },
}

/// The two ends of the stdio connection the server holds: the messages read, and what to
/// write.
pub struct Channels {
    pub receiver: Receiver<Message>,
    pub sender: Sender<Outgoing>,
}

/// A connection over the process's stdin and stdout.
pub fn stdio() -> io::Result<(Channels, IoThreads)> {
    let (to_server, from_client) = bounded::<Message>(16);
    let (to_client, from_server) = bounded::<Outgoing>(16);
    thread::Builder::new().name("plc-lsp-reader".to_string()).spawn(move || {
        read_loop(io::stdin().lock(), &to_server, &mut write_stdout);
    })?;
    let writer = thread::Builder::new().name("plc-lsp-writer".to_string()).spawn(move || {
        for outgoing in from_server {
            // The lock is held for the whole frame, so frames never interleave.
            let written = match outgoing {
                Outgoing::Message(message) => message.write(&mut io::stdout().lock()),
                Outgoing::Result { id, json } => write_stdout(&result_frame(&id, &json)),
            };
            if written.is_err() {
                return;
            }
        }
    })?;
    Ok((Channels { sender: to_client, receiver: from_client }, IoThreads { writer }))
}

/// The frame of a response whose result is the JSON text `json`.
fn result_frame(id: &RequestId, json: &str) -> Vec<u8> {
    // A request id is a number or a string: it serializes without fail.
    let id = serde_json::to_string(id).unwrap_or_else(|_| "null".to_string());
    let head = r#"{"jsonrpc":"2.0","id":"#;
    let tail = r#","result":"#;
    let length = head.len() + id.len() + tail.len() + json.len() + 1;
    let mut frame = format!("Content-Length: {length}\r\n\r\n{head}{id}{tail}").into_bytes();
    frame.reserve(json.len() + 1);
    frame.extend_from_slice(json.as_bytes());
    frame.push(b'}');
    frame
}

fn write_stdout(frame: &[u8]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(frame)?;
    out.flush()
}

/// Reads frames until the end of input, an `exit` notification, or a server that has
/// stopped listening. Error responses to unreadable payloads go straight to `output`, one
/// whole frame per call.
fn read_loop(input: impl Read, to_server: &Sender<Message>, output: &mut dyn FnMut(&[u8]) -> io::Result<()>) {
    let mut input = Input::new(input);
    loop {
        let frame = match input.read_frame() {
            Ok(Some(frame)) => frame,
            Ok(None) | Err(_) => return,
        };
        let payload = match frame {
            Frame::Payload(bytes) => bytes,
            Frame::TooLarge(len) => {
                let message = format!("a message of {len} bytes is larger than plc's limit of {MAX_PAYLOAD} bytes");
                if output(&error_frame(None, ErrorCode::InvalidRequest, &message)).is_err() {
                    return;
                }
                continue;
            }
            Frame::Malformed => continue,
        };
        match decode(&payload) {
            Ok(message) => {
                let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if to_server.send(message).is_err() || exit {
                    return;
                }
            }
            Err((id, code, message)) => {
                if output(&error_frame(id, code, &message)).is_err() {
                    return;
                }
            }
        }
    }
}

enum Frame {
    Payload(Vec<u8>),
    /// A frame whose payload was skipped because it is larger than [`MAX_PAYLOAD`].
    TooLarge(usize),
    /// Headers without a usable `Content-Length` and a payload that is not JSON: nothing
    /// can be read as its payload.
    Malformed,
}

/// The input stream with a buffer that can be looked into before it is consumed, so that
/// a frame can end where its JSON ends and leave the rest to the next frame.
struct Input<R> {
    inner: R,
    buf: Vec<u8>,
    /// The first byte of `buf` not consumed yet.
    pos: usize,
}

impl<R: Read> Input<R> {
    fn new(inner: R) -> Self {
        Input { inner, buf: Vec::new(), pos: 0 }
    }

    fn available(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    fn consume(&mut self, n: usize) {
        self.pos += n;
    }

    /// Reads more input after what is buffered; `false` at the end of input.
    fn fill(&mut self) -> io::Result<bool> {
        if self.pos > 0 && self.pos * 2 >= self.buf.len() {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        let mut chunk = [0u8; 64 * 1024];
        loop {
            match self.inner.read(&mut chunk) {
                Ok(0) => return Ok(false),
                Ok(n) => {
                    self.buf.extend_from_slice(&chunk[..n]);
                    return Ok(true);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// The next byte, not consumed; `None` at the end of input.
    fn peek(&mut self) -> io::Result<Option<u8>> {
        if self.available().is_empty() && !self.fill()? {
            return Ok(None);
        }
        Ok(self.available().first().copied())
    }

    /// Reads one frame; `None` at the end of input.
    fn read_frame(&mut self) -> io::Result<Option<Frame>> {
        let mut length: Option<usize> = None;
        let mut malformed = false;
        let mut seen_header = false;
        loop {
            // A JSON payload where a header should be (after a frame without a usable
            // length): read it by its brackets.
            if !seen_header && self.peek()? == Some(b'{') {
                return self.read_json(None);
            }
            let Some(line) = self.read_line()? else { return Ok(None) };
            let line = line.strip_suffix(b"\n").unwrap_or(&line);
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            // Stray bytes, or the rest of a damaged frame, before a header: resynchronise.
            let line = match find_ignore_case(line, b"content-length:") {
                Some(at) => &line[at..],
                None => line,
            };
            if line.iter().all(u8::is_ascii_whitespace) {
                if !seen_header {
                    // A stray blank line between frames.
                    continue;
                }
                break;
            }
            seen_header = true;
            let Some((name, value)) = std::str::from_utf8(line).ok().and_then(|l| l.split_once(':')) else {
                malformed = true;
                continue;
            };
            if name.trim().eq_ignore_ascii_case("Content-Length") {
                match value.trim().parse::<usize>() {
                    Ok(n) => (length, malformed) = (Some(n), false),
                    Err(_) => malformed = true,
                }
            }
        }
        let length = length.filter(|_| !malformed);
        match self.peek()? {
            Some(b'{' | b'[') => self.read_json(length),
            _ => match length {
                Some(length) => self.read_exactly(length),
                None => Ok(Some(Frame::Malformed)),
            },
        }
    }

    /// A payload that is not JSON: exactly `length` bytes, as the header says.
    fn read_exactly(&mut self, length: usize) -> io::Result<Option<Frame>> {
        if length > MAX_PAYLOAD {
            let mut left = length;
            while left > 0 {
                if self.available().is_empty() && !self.fill()? {
                    return Ok(None);
                }
                let n = left.min(self.available().len());
                self.consume(n);
                left -= n;
            }
            return Ok(Some(Frame::TooLarge(length)));
        }
        // Read as the bytes arrive: a length the input does not hold allocates nothing
        // upfront.
        while self.available().len() < length {
            if !self.fill()? {
                return Ok(None);
            }
        }
        let payload = self.available()[..length].to_vec();
        self.consume(length);
        Ok(Some(Frame::Payload(payload)))
    }

    /// A JSON payload, which starts here: it ends where its value ends, whatever
    /// `length` says. Bytes that cannot continue a JSON value end it early: within the
    /// declared length the frame is what its length says (and is answered as not JSON);
    /// past it, the frame ends there and the rest belongs to the next one.
    fn read_json(&mut self, length: Option<usize>) -> io::Result<Option<Frame>> {
        let mut scan = JsonScan::default();
        let mut scanned = 0;
        loop {
            while scanned < self.available().len() {
                let byte = self.available()[scanned];
                scanned += 1;
                match scan.feed(byte) {
                    Step::More if scanned > MAX_PAYLOAD => {
                        return self.read_exactly(length.unwrap_or(0).max(scanned));
                    }
                    Step::More => {}
                    Step::Done => {
                        let payload = self.available()[..scanned].to_vec();
                        self.consume(scanned);
                        return Ok(Some(Frame::Payload(payload)));
                    }
                    Step::Invalid => {
                        return match length {
                            Some(length) if scanned <= length => self.read_exactly(length),
                            _ => {
                                let payload = self.available()[..scanned - 1].to_vec();
                                self.consume(scanned - 1);
                                Ok(Some(Frame::Payload(payload)))
                            }
                        };
                    }
                }
            }
            if !self.fill()? {
                return Ok(None);
            }
        }
    }

    /// Reads a line up to and including its `\n` (or up to the end of input); only the
    /// last [`MAX_HEADER_LINE`] bytes of a longer line are kept. `None` at the end of input.
    fn read_line(&mut self) -> io::Result<Option<Vec<u8>>> {
        let mut line = Vec::new();
        let mut any = false;
        loop {
            if self.available().is_empty() && !self.fill()? {
                return Ok(any.then_some(line));
            }
            any = true;
            let buf = self.available();
            let (used, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            line.extend_from_slice(&buf[..used]);
            self.consume(used);
            if line.len() > 2 * MAX_HEADER_LINE {
                line.drain(..line.len() - MAX_HEADER_LINE);
            }
            if done {
                if line.len() > MAX_HEADER_LINE {
                    line.drain(..line.len() - MAX_HEADER_LINE);
                }
                return Ok(Some(line));
            }
        }
    }
}

fn find_ignore_case(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle))
}

/// Finds where a JSON value ends, one byte at a time: brackets are counted outside
/// strings. It does not validate the JSON (the decoder does), but it knows bytes that
/// cannot be part of one, such as a raw line break in a string or a letter that starts
/// no literal (the `C` of a `Content-Length` header).
#[derive(Default)]
struct JsonScan {
    depth: u32,
    in_string: bool,
    escape: bool,
}

enum Step {
    More,
    Done,
    Invalid,
}

impl JsonScan {
    fn feed(&mut self, byte: u8) -> Step {
        if self.in_string {
            if self.escape {
                self.escape = false;
            } else if byte == b'\\' {
                self.escape = true;
            } else if byte == b'"' {
                self.in_string = false;
            } else if byte < 0x20 {
                return Step::Invalid;
            }
            return Step::More;
        }
        match byte {
            b'{' | b'[' => self.depth += 1,
            b'}' | b']' if self.depth > 0 => {
                self.depth -= 1;
                if self.depth == 0 {
                    return Step::Done;
                }
            }
            b'"' if self.depth > 0 => self.in_string = true,
            b' ' | b'\t' | b'\r' | b'\n' => {}
            // Numbers and the literals true, false and null.
            b','
            | b':'
            | b'-'
            | b'+'
            | b'.'
            | b'0'..=b'9'
            | b'e'
            | b'E'
            | b't'
            | b'r'
            | b'u'
            | b'f'
            | b'a'
            | b'l'
            | b's'
            | b'n'
                if self.depth > 0 => {}
            _ => return Step::Invalid,
        }
        Step::More
    }
}

type DecodeError = (Option<serde_json::Value>, ErrorCode, String);

/// A payload as a message, or the error response it gets: Parse error for text that is not
/// JSON, Invalid Request for JSON that is not a request, response or notification (with the
/// request's id when it has a readable one).
fn decode(payload: &[u8]) -> Result<Message, DecodeError> {
    let value: serde_json::Value = serde_json::from_slice(payload)
        .map_err(|e| (None, ErrorCode::ParseError, format!("the message is not JSON: {e}")))?;
    let id = value.get("id").filter(|id| id.is_number() || id.is_string()).cloned();
    serde_json::from_value(value)
        .map_err(|e| (id, ErrorCode::InvalidRequest, format!("the message is not a JSON-RPC request: {e}")))
}

/// The frame of an error response, written directly (lsp-server's `Response` cannot carry
/// a null id).
fn error_frame(id: Option<serde_json::Value>, code: ErrorCode, message: &str) -> Vec<u8> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id.unwrap_or(serde_json::Value::Null),
        "error": { "code": code as i32, "message": message },
    })
    .to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    /// Runs the reader over `input`; returns what reached the server and what was answered
    /// directly.
    fn read_all(input: &str) -> (Vec<Message>, String) {
        let (tx, rx) = crossbeam_channel::unbounded();
        let mut answered = Vec::new();
        read_loop(io::Cursor::new(input.as_bytes()), &tx, &mut |frame| {
            answered.extend_from_slice(frame);
            Ok(())
        });
        drop(tx);
        (rx.into_iter().collect(), String::from_utf8(answered).unwrap())
    }

    #[test]
    fn bad_payloads_are_answered_and_reading_goes_on() {
        let input = [
            frame("{not json"),
            frame(r#"{"jsonrpc":"2.0","id":7,"method":5}"#),
            frame(r#"[1,2]"#),
            "Garbage header line\r\n\r\n".to_string(),
            frame(r#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#),
            frame(r#"{"jsonrpc":"2.0","method":"exit"}"#),
            frame(r#"{"jsonrpc":"2.0","id":2,"method":"after-exit"}"#),
        ]
        .concat();
        let (messages, answered) = read_all(&input);
        let methods: Vec<String> = messages
            .iter()
            .map(|m| match m {
                Message::Request(r) => r.method.clone(),
                Message::Notification(n) => n.method.clone(),
                Message::Response(_) => "response".to_string(),
            })
            .collect();
        assert_eq!(methods, ["shutdown", "exit"], "reading stops after exit");
        let bodies: Vec<serde_json::Value> = answered
            .split("Content-Length: ")
            .filter(|s| !s.is_empty())
            .map(|s| serde_json::from_str(s.split_once("\r\n\r\n").unwrap().1).unwrap())
            .collect();
        let summary: Vec<(serde_json::Value, i64)> =
            bodies.iter().map(|b| (b["id"].clone(), b["error"]["code"].as_i64().unwrap())).collect();
        assert_eq!(
            summary,
            [(serde_json::Value::Null, -32700), (serde_json::json!(7), -32600), (serde_json::Value::Null, -32600)]
        );
    }

    #[test]
    fn a_truncated_frame_ends_the_input_and_a_huge_length_allocates_nothing() {
        let (messages, answered) = read_all("Content-Length: 1000000000\r\n\r\n{\"jsonrpc\"");
        assert!(messages.is_empty() && answered.is_empty());
        let (messages, answered) = read_all(&format!("Content-Length: {}\r\n\r\n", usize::MAX));
        assert!(messages.is_empty() && answered.is_empty());
    }

    #[test]
    fn an_overlong_header_line_is_cut_and_skipped() {
        let input = format!("{}\r\n\r\n{}", "x".repeat(100_000), frame(r#"{"jsonrpc":"2.0","method":"initialized"}"#));
        let (messages, answered) = read_all(&input);
        assert_eq!(messages.len(), 1);
        assert!(answered.is_empty());
    }

    #[test]
    fn a_result_written_as_text_is_the_frame_of_its_response() {
        for id in [RequestId::from(7), RequestId::from("a\"b".to_string())] {
            let json = r#"[{"name":"main","kind":12}]"#;
            let frame = String::from_utf8(result_frame(&id, json)).unwrap();
            let (messages, answered) = read_all(&frame);
            assert!(answered.is_empty(), "{frame}");
            let [Message::Response(r)] = &messages[..] else { panic!("{frame}") };
            assert_eq!(r.id, id);
            assert_eq!(
                r.response_result.as_ref().ok(),
                Some(&serde_json::from_str::<serde_json::Value>(json).unwrap())
            );
        }
    }
}
