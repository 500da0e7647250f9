//! The stdio transport: LSP base-protocol frames (`Content-Length: N\r\n\r\n` + N bytes of
//! JSON) read from stdin and written to stdout, on two threads joined to the server by
//! channels (an `lsp_server::Connection`).
//!
//! lsp-server has a stdio transport of its own, but its reader thread stops at the first
//! payload that is not a JSON-RPC message, which ends the session. This one answers such a
//! payload as JSON-RPC says — a Parse error (-32700) or an Invalid Request (-32600), with a
//! null id when the id cannot be read — and goes on with the next frame. Header lines that
//! do not parse are skipped; a frame without a `Content-Length` is dropped. Nothing read is
//! kept past its frame, and a line or a payload larger than the limits below is skipped
//! rather than held.

use crossbeam_channel::{bounded, Sender};
use lsp_server::{Connection, ErrorCode, Message};
use std::io::{self, BufRead, Read, Write};
use std::thread;

/// The longest header line kept; the rest of a longer line is skipped.
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

/// A connection over the process's stdin and stdout.
pub fn stdio() -> io::Result<(Connection, IoThreads)> {
    let (to_server, from_client) = bounded::<Message>(16);
    let (to_client, from_server) = bounded::<Message>(16);
    thread::Builder::new().name("plc-lsp-reader".to_string()).spawn(move || {
        let stdin = io::stdin();
        read_loop(&mut stdin.lock(), &to_server, &mut write_stdout);
    })?;
    let writer = thread::Builder::new().name("plc-lsp-writer".to_string()).spawn(move || {
        for message in from_server {
            // The lock is held for the whole frame, so frames never interleave.
            if message.write(&mut io::stdout().lock()).is_err() {
                return;
            }
        }
    })?;
    Ok((Connection { sender: to_client, receiver: from_client }, IoThreads { writer }))
}

fn write_stdout(frame: &[u8]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(frame)?;
    out.flush()
}

/// Reads frames until the end of input, an `exit` notification, or a server that has
/// stopped listening. Error responses to unreadable payloads go straight to `output`, one
/// whole frame per call.
fn read_loop(input: &mut impl BufRead, to_server: &Sender<Message>, output: &mut dyn FnMut(&[u8]) -> io::Result<()>) {
    loop {
        let frame = match read_frame(input) {
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
    /// Headers without a usable `Content-Length`: nothing can be read as its payload.
    Malformed,
}

/// Reads one frame; `None` at the end of input.
fn read_frame(input: &mut impl BufRead) -> io::Result<Option<Frame>> {
    let mut length: Option<usize> = None;
    let mut malformed = false;
    let mut seen_header = false;
    loop {
        let Some(line) = read_line(input)? else { return Ok(None) };
        let line = line.strip_suffix(b"\n").unwrap_or(&line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
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
                Ok(n) => length = Some(n),
                Err(_) => malformed = true,
            }
        }
    }
    let Some(length) = length.filter(|_| !malformed) else { return Ok(Some(Frame::Malformed)) };
    if length > MAX_PAYLOAD {
        let skipped = io::copy(&mut input.take(length as u64), &mut io::sink())?;
        return Ok(if skipped < length as u64 { None } else { Some(Frame::TooLarge(length)) });
    }
    // Read as the bytes arrive: a length the input does not hold allocates nothing upfront.
    let mut payload = Vec::new();
    input.take(length as u64).read_to_end(&mut payload)?;
    if payload.len() < length {
        return Ok(None);
    }
    Ok(Some(Frame::Payload(payload)))
}

/// Reads a line up to and including its `\n` (or up to the end of input); only the first
/// [`MAX_HEADER_LINE`] bytes are kept. `None` at the end of input.
fn read_line(input: &mut impl BufRead) -> io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some(line));
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let room = MAX_HEADER_LINE.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = chunk.len();
        input.consume(used);
        if done {
            return Ok(Some(line));
        }
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
        read_loop(&mut io::Cursor::new(input.as_bytes()), &tx, &mut |frame| {
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
}
