//! `kernel_config.json`: the runtime, each entry's source and signature, and each kernel's
//! func_id, source, core type and tensor directions (for a2a3sim also the target and each
//! kernel's scalar count).
//!
//! Written by hand, in the bytes `serde_json::to_writer_pretty` gave for the same records
//! (two spaces a level, `"key": value`, the keys of each object in sorted order, strings
//! escaped as serde_json escapes them: `"`, `\` and the control characters, nothing else),
//! without serde's per-value machinery. It is streamed: each entry and kernel is written
//! into one buffer, which goes to the file whenever it holds [`CHUNK`] bytes, so that the
//! file (7.9 MB for gen(10000)) is never whole in memory. Unit tests compare the writer
//! with serde_json on strings of every kind of character and on records of every form.

use super::orchestration::Shared;
use super::{cpp, kernel, pto, simpler, KernelForm, Options, Target};
use crate::intern::{Interner, Symbol};
use crate::ir::{Dim, Direction, FuncKind, Program, Type};

/// The bytes gathered before they are handed to the file.
const CHUNK: usize = 32 << 10;

/// Writes `kernel_config.json` of the entries `entries` (in order) and the kernels `shared`
/// numbered into `w`.
pub(super) fn kernel_config(
    p: &Program,
    names: &Interner,
    entries: &[(usize, Symbol)],
    shared: &Shared,
    opts: &Options,
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let target = opts.target;
    let pto_isa = target == Target::A2a3Sim && opts.kernels == KernelForm::PtoIsa;
    let mut out = Chunks { buf: String::with_capacity(CHUNK + 4096), w };
    // The top object's keys in sorted order.
    out.buf.push('{');
    let mut first = true;
    let mut key = |out: &mut String, k: &str| {
        out.push_str(if first { "\n  " } else { ",\n  " });
        first = false;
        string(out, k);
        out.push_str(": ");
    };
    if let Some(call) = &p.built_by {
        // Which configuration of a factory this output is (several may be compiled).
        key(&mut out.buf, "built_by");
        string(&mut out.buf, call);
    }
    if target == Target::A2a3Sim {
        key(&mut out.buf, "kernel_form");
        string(&mut out.buf, if pto_isa { "pto-isa" } else { "cpu" });
    }
    key(&mut out.buf, "kernels");
    // Each kernel, and before a mixed Group's (its AIV half) its AIC half.
    let halves = shared.func_ids.iter().flat_map(|(&k, &id)| {
        let aic = shared.aic_halves.get(&k).map(|&a| (k, a, true));
        aic.into_iter().chain([(k, id, false)])
    });
    out.array(halves, |buf, (k, id, aic_half)| kernel_record(buf, p, names, shared, k, id, aic_half, target, pto_isa))?;
    key(&mut out.buf, "orchestrations");
    out.array(entries.iter(), |buf, &(_, e)| entry_record(buf, p, names, e))?;
    key(&mut out.buf, "runtime");
    string(&mut out.buf, "host_build_graph");
    if target == Target::A2a3Sim {
        key(&mut out.buf, "target");
        string(&mut out.buf, "a2a3sim");
    }
    out.buf.push_str("\n}\n");
    out.flush()
}

/// The text being written: gathered in `buf`, handed to `w` a chunk at a time.
struct Chunks<'w> {
    buf: String,
    w: &'w mut dyn std::io::Write,
}

impl Chunks<'_> {
    /// An array at depth 1 whose elements `write` writes (each at depth 2), the buffer
    /// handed on whenever it is full.
    fn array<T>(
        &mut self,
        items: impl Iterator<Item = T>,
        mut write: impl FnMut(&mut String, T),
    ) -> std::io::Result<()> {
        let mut any = false;
        for item in items {
            self.buf.push_str(if any { ",\n    " } else { "[\n    " });
            any = true;
            write(&mut self.buf, item);
            if self.buf.len() >= CHUNK {
                self.flush()?;
            }
        }
        self.buf.push_str(if any { "\n  ]" } else { "[]" });
        Ok(())
    }

    /// Hands what was gathered to the file.
    fn flush(&mut self) -> std::io::Result<()> {
        self.w.write_all(self.buf.as_bytes())?;
        self.buf.clear();
        Ok(())
    }
}

/// The direction of a tensor parameter as kernel_config.json spells it.
fn dir(d: Direction) -> &'static str {
    match d {
        Direction::In => "IN",
        Direction::Out => "OUT",
        Direction::InOut => "INOUT",
    }
}

/// An entry of `orchestrations` (at depth 2): `function_name`, `name`, `params`,
/// `signature`, `source`.
fn entry_record(out: &mut String, p: &Program, names: &Interner, e: Symbol) {
    let f = &p.functions[&e];
    out.push_str("{\n      \"function_name\": \"aicpu_orchestration_entry\",\n      \"name\": ");
    string(out, names.get(e));
    out.push_str(",\n      \"params\": ");
    if f.params.is_empty() {
        out.push_str("[]");
    } else {
        out.push('[');
        for (i, q) in f.params.iter().enumerate() {
            out.push_str(if i == 0 { "\n        {\n" } else { ",\n        {\n" });
            let name = names.get(p.var(q.var).source);
            match p.types.get(p.var(q.var).ty) {
                Type::Scalar(d) => {
                    out.push_str("          \"dtype\": ");
                    string(out, d.name());
                    out.push_str(",\n          \"kind\": \"scalar\",\n          \"name\": ");
                    string(out, name);
                }
                t => {
                    out.push_str("          \"direction\": ");
                    string(out, dir(q.dir));
                    out.push_str(",\n          \"dtype\": ");
                    match t.dtype() {
                        Some(d) => string(out, d.name()),
                        None => out.push_str("null"),
                    }
                    out.push_str(",\n          \"kind\": \"tensor\",\n          \"name\": ");
                    string(out, name);
                    out.push_str(",\n          \"shape\": ");
                    match t.shape() {
                        None => out.push_str("null"),
                        Some([]) => out.push_str("[]"),
                        Some(shape) => {
                            out.push('[');
                            for (j, d) in shape.iter().enumerate() {
                                out.push_str(if j == 0 { "\n            " } else { ",\n            " });
                                match d {
                                    Dim::Const(n) => out.push_str(cpp::Digits::signed(*n).as_str()),
                                    Dim::Dyn(s) => string(out, names.get(*s)),
                                    _ => out.push_str("null"),
                                }
                            }
                            out.push_str("\n          ]");
                        }
                    }
                }
            }
            out.push_str("\n        }");
        }
        out.push_str("\n      ]");
    }
    out.push_str(",\n      \"signature\": ");
    let signature = f.params.iter().filter(|q| !p.types.get(p.var(q.var).ty).is_scalar()).map(|q| dir(q.dir));
    strings(out, signature, 3);
    out.push_str(",\n      \"source\": ");
    string(out, &super::entry_file(names, e));
    out.push_str("\n    }");
}

/// A kernel of `kernels` (at depth 2): `core_type`, `external_source` and
/// `extra_include_dirs` (an external kernel's), `func_id`, `function_type`, `name`,
/// `scalar_count` (a2a3sim), `signature`, `source`.
#[allow(clippy::too_many_arguments)]
fn kernel_record(
    out: &mut String,
    p: &Program,
    names: &Interner,
    shared: &Shared,
    k: Symbol,
    id: u32,
    aic_half: bool,
    target: Target,
    pto_isa: bool,
) {
    let f = &p.functions[&k];
    // A PTO-ISA kernel with L1/L0 tiles is compiled for a cube core.
    let cube = aic_half || f.decl.kind == FuncKind::Aic || (pto_isa && pto::uses_cube(p, names, k));
    out.push_str("{\n      \"core_type\": ");
    string(out, if cube { "aic" } else { "aiv" });
    if let Some(source) = &f.decl.external_source {
        // Its file is this source's text, as it is.
        out.push_str(",\n      \"external_source\": ");
        string(out, source);
    }
    if !f.decl.include_dirs.is_empty() {
        // An external kernel's include directories (`include_dirs=` of `@pl.jit.extern`),
        // absolute, under PyPTO's key: what its compiler is given with `-I`.
        out.push_str(",\n      \"extra_include_dirs\": ");
        strings(out, f.decl.include_dirs.iter().map(String::as_str), 3);
    }
    out.push_str(",\n      \"func_id\": ");
    out.push_str(cpp::Digits::new(id.into()).as_str());
    out.push_str(",\n      \"function_type\": ");
    string(out, f.decl.kind.name());
    out.push_str(",\n      \"name\": ");
    if aic_half {
        string(out, &cpp::cat(&[names.get(k), ".aic"]));
    } else {
        string(out, names.get(k));
    }
    if target == Target::A2a3Sim {
        out.push_str(",\n      \"scalar_count\": ");
        out.push_str(cpp::Digits::new(simpler::scalar_count(p, k) as u64).as_str());
    }
    out.push_str(",\n      \"signature\": ");
    let signature = shared.signatures.get(&k).map_or(&[][..], Vec::as_slice);
    strings(out, signature.iter().copied(), 3);
    out.push_str(",\n      \"source\": ");
    if aic_half {
        string(out, &pto::aic_half_file(names, k));
    } else {
        string(out, &kernel::kernel_file(names, k));
    }
    out.push_str("\n    }");
}

/// An array of strings at depth `depth`.
fn strings<'a>(out: &mut String, items: impl Iterator<Item = &'a str>, depth: usize) {
    const SPACES: &str = "                                ";
    let mut any = false;
    for s in items {
        out.push_str(if any { ",\n" } else { "[\n" });
        any = true;
        out.push_str(&SPACES[..2 * (depth + 1)]);
        string(out, s);
    }
    if any {
        out.push('\n');
        out.push_str(&SPACES[..2 * depth]);
        out.push(']');
    } else {
        out.push_str("[]");
    }
}

/// A JSON string as serde_json writes it: `"` and `\` escaped with a backslash, the control
/// characters below U+0020 as `\b`, `\t`, `\n`, `\f`, `\r` or `\u00xx`; every other
/// character (U+007F and non-ASCII too) as it is.
fn string(out: &mut String, s: &str) {
    out.push('"');
    let bytes = s.as_bytes();
    // Most strings (names, paths) need no escape: pushed whole.
    if bytes.iter().all(|&b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.push_str(s);
        out.push('"');
        return;
    }
    let mut from = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escape: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            b'\t' => "\\t",
            b'\n' => "\\n",
            0x0c => "\\f",
            b'\r' => "\\r",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[from..i]);
        from = i + 1;
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(HEX[usize::from(b >> 4)] as char);
            out.push(HEX[usize::from(b & 0xf)] as char);
        } else {
            out.push_str(escape);
        }
    }
    out.push_str(&s[from..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character class serde_json treats apart, and a few it does not.
    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let mut all: String = (0u8..0x80).map(char::from).collect();
        all.push_str("größe ✓ \u{2028} \u{1F600} \u{7f}");
        for s in ["", "plain", "a\"b\\c", "\u{0}\u{1f}\u{8}\u{c}", &all] {
            let mut ours = String::new();
            string(&mut ours, s);
            assert_eq!(ours, serde_json::to_string(s).unwrap(), "{s:?}");
        }
    }

    /// Arrays of strings at each depth, empty or not, as serde_json's pretty printer writes
    /// them.
    #[test]
    fn string_arrays_are_pretty_printed_as_serde_json_prints_them() {
        for items in [vec![], vec!["IN"], vec!["IN", "a\"b", "OUT"]] {
            let mut ours = String::new();
            strings(&mut ours, items.iter().copied(), 0);
            assert_eq!(ours, serde_json::to_string_pretty(&items).unwrap());
        }
    }

    /// Integers of each sign, as serde_json writes them.
    #[test]
    fn integers_are_written_as_serde_json_writes_them() {
        for n in [0i64, 7, -7, 1 << 40, i64::MIN, i64::MAX] {
            assert_eq!(cpp::Digits::signed(n).as_str(), serde_json::to_string(&n).unwrap());
        }
    }

    /// A whole file's shape — the top object, arrays empty and not, elements handed on in
    /// chunks — as serde_json's pretty printer writes the same values.
    #[test]
    fn arrays_in_chunks_are_pretty_printed_as_serde_json_prints_them() {
        for n in [0usize, 1, 3, 2000] {
            let items: Vec<String> = (0..n).map(|i| format!("k{i}")).collect();
            let mut file = Vec::new();
            let mut out = Chunks { buf: String::new(), w: &mut file };
            out.buf.push_str("{\n  \"a\": ");
            out.array(items.iter(), |buf, s| {
                buf.push_str("{\n      \"name\": ");
                string(buf, s);
                buf.push_str("\n    }");
            })
            .unwrap();
            out.buf.push_str("\n}\n");
            out.flush().unwrap();
            let records: Vec<serde_json::Value> = items.iter().map(|s| serde_json::json!({ "name": s })).collect();
            let mut expected = serde_json::to_string_pretty(&serde_json::json!({ "a": records })).unwrap();
            expected.push('\n');
            assert_eq!(String::from_utf8(file).unwrap(), expected, "{n} elements");
        }
    }
}
