//! Versioned variable names: the one rule for reading and writing them.
//!
//! ConvertToSSA gives every definition of a source variable its own name, `base__role_vN`
//! (`acc__ssa_v3`, `acc__iter_v1`, `acc__rv_v2`, `i__idx_v0`), sometimes with a qualifier
//! before the role (`k__lv_idx_v0`, a spelling PyPTO writes); the outliner names its new
//! versions the same way, and LegalizeGraphBoundary binds graph arguments to
//! `<param>__graph_arg<k>`. The printed IR must read back as pl source, so the version
//! lives in the name; this module is the only place that composes such names or takes them
//! apart. Every consumer that wants the name the user wrote (the C++ emitters, the harness,
//! the interpreter's `--arg` names, hover, diagnostics) asks [`source_name`], and every
//! pass that versions a name builds it with [`Versioned`]'s `Display` — so a user variable
//! `a__b`, which has no version suffix, is `a__b` everywhere.

use crate::intern::{Interner, Symbol};
use std::fmt;

/// The SSA version a variable's name carries, as data (on [`super::VarData`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Version {
    pub qualifier: Option<Symbol>,
    pub role: Role,
    pub n: u32,
}

/// A name's source name and the version its last suffix gives, interned: what
/// [`super::Program::new_var`] records on the variable.
pub fn split(names: &mut Interner, name: Symbol) -> (Symbol, Option<Version>) {
    let text = names.get(name);
    let source = source_name(text);
    if source.len() == text.len() {
        return (name, None);
    }
    // The parts as byte ranges of `text`, interned without a copy when already known.
    let at = |part: &str| part.as_ptr() as usize - text.as_ptr() as usize;
    let version = Versioned::parse(text).map(|v| (v.qualifier.map(|q| at(q)..at(q) + q.len()), v.role, v.version));
    let source = 0..source.len();
    let version = version.map(|(qualifier, role, n)| Version {
        qualifier: qualifier.map(|q| intern_part(names, name, q)),
        role,
        n,
    });
    (intern_part(names, name, source), version)
}

/// The symbol of a part (`range`) of the name `name`.
fn intern_part(names: &mut Interner, name: Symbol, range: std::ops::Range<usize>) -> Symbol {
    if let Some(sym) = names.lookup(&names.get(name)[range.clone()]) {
        return sym;
    }
    let part = names.get(name)[range].to_string();
    names.intern(&part)
}

/// What a versioned name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// A plain value (`x__ssa_v0`).
    Ssa,
    /// A loop-carried value inside the loop (`acc__iter_v1`).
    Iter,
    /// The value a loop or an `if` returns (`acc__rv_v2`).
    Rv,
    /// The value after an `if` (`t__phi_v4`).
    Phi,
    /// Roles PyPTO's own printer writes, kept when read back.
    Tile,
    Tmp,
    Out,
    Store,
    /// A loop index (`i__idx_v0`).
    Idx,
}

impl Role {
    pub const ALL: [Role; 9] =
        [Role::Ssa, Role::Iter, Role::Rv, Role::Phi, Role::Tile, Role::Tmp, Role::Out, Role::Store, Role::Idx];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Ssa => "ssa",
            Role::Iter => "iter",
            Role::Rv => "rv",
            Role::Phi => "phi",
            Role::Tile => "tile",
            Role::Tmp => "tmp",
            Role::Out => "out",
            Role::Store => "store",
            Role::Idx => "idx",
        }
    }

    fn parse(text: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == text)
    }
}

/// A name of the `base__[qualifier_]role_vN` shape, taken apart at its last `__`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Versioned<'a> {
    pub base: &'a str,
    pub qualifier: Option<&'a str>,
    pub role: Role,
    pub version: u32,
}

impl<'a> Versioned<'a> {
    /// `Some` when `name` ends in a version suffix and has a non-empty base before it.
    pub fn parse(name: &'a str) -> Option<Self> {
        let (base, suffix) = rsplit_last(name, "__")?;
        if base.is_empty() {
            return None;
        }
        let (head, digits) = rsplit_last(suffix, "_v")?;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let version = digits.parse().ok()?;
        if let Some(role) = Role::parse(head) {
            return Some(Versioned { base, qualifier: None, role, version });
        }
        let (qualifier, role) = head.rsplit_once('_')?;
        let role = Role::parse(role)?;
        (!qualifier.is_empty()).then_some(Versioned { base, qualifier: Some(qualifier), role, version })
    }

    /// The name without its version: `base__` or `base__qualifier_`, which numbered
    /// versions follow (`{prefix}{role}_v{n}`).
    pub fn prefix(base: &str, qualifier: Option<&str>) -> String {
        match qualifier {
            Some(q) => [base, "__", q, "_"].concat(),
            None => [base, "__"].concat(),
        }
    }

    /// Appends the name of `base`'s versions in `role` up to the number (`acc__rv_v`) to
    /// `buf`: a version's name is this stem followed by [`push_decimal`]'s digits.
    pub fn push_stem(buf: &mut String, base: &str, role: Role) {
        buf.push_str(base);
        buf.push_str("__");
        buf.push_str(role.as_str());
        buf.push_str("_v");
    }
}

impl fmt::Display for Versioned<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.qualifier {
            Some(q) => write!(f, "{}__{q}_{}_v{}", self.base, self.role.as_str(), self.version),
            None => write!(f, "{}__{}_v{}", self.base, self.role.as_str(), self.version),
        }
    }
}

/// `{prefix}{role}_v{n}` (a prefix made by [`Versioned::prefix`], or the base and `__`
/// of [`Versioned::push_stem`]), composed in `buf` without a `String` of its own.
pub fn versioned_name<'b>(buf: &'b mut String, prefix: &str, role: Role, n: u32) -> &'b str {
    buf.clear();
    buf.push_str(prefix);
    buf.push_str(role.as_str());
    buf.push_str("_v");
    push_decimal(buf, n);
    buf
}

/// Appends the decimal digits of `n` (without the formatting machinery: names are made
/// for every variable the passes create).
pub fn push_decimal(buf: &mut String, n: u32) {
    // Most versions are numbered below ten.
    if n < 10 {
        buf.push(char::from(b'0' + n as u8));
        return;
    }
    let mut digits = [0u8; 10];
    let (mut n, mut start) = (n, digits.len());
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    buf.push_str(std::str::from_utf8(&digits[start..]).expect("ASCII digits"));
}

/// Appends to `buf` the name of the local LegalizeGraphBoundary binds the `k`-th graph
/// argument of `param` to, `<param>__graph_arg<k>` (in place: the pass names a local for
/// every value it moves to every call site).
pub fn push_graph_arg(buf: &mut String, param: &str, k: u32) {
    buf.push_str(param);
    buf.push_str("__graph_arg");
    push_decimal(buf, k);
}

/// `name` without a `__graph_arg<k>` suffix, when it has one after a non-empty base.
/// `text.rsplit_once(pat)` (around the last occurrence of `pat`) for the short names and
/// patterns here, by a plain backward scan: `str`'s searcher sets itself up for long texts,
/// which cost more than the search on every name the passes make (docs/performance.md).
fn rsplit_last<'a>(text: &'a str, pat: &str) -> Option<(&'a str, &'a str)> {
    let (bytes, pat) = (text.as_bytes(), pat.as_bytes());
    let last = bytes.len().checked_sub(pat.len())?;
    // `pat` is ASCII, so a match starts and ends on character boundaries.
    let at = (0..=last).rev().find(|&i| bytes[i] == pat[0] && &bytes[i..i + pat.len()] == pat)?;
    Some((&text[..at], &text[at + pat.len()..]))
}

fn strip_graph_arg(name: &str) -> Option<&str> {
    let (base, suffix) = rsplit_last(name, "__graph_arg")?;
    (!base.is_empty() && !suffix.is_empty() && suffix.bytes().all(|b| b.is_ascii_digit())).then_some(base)
}

/// The name the user wrote: every version and graph-argument suffix removed
/// (`acc__ssa_v3` → `acc`, `band__ssa_v0__graph_arg2` → `band`); a name without one
/// (`a__b`, `__ssa_v0`) as it is.
fn source_name(name: &str) -> &str {
    let mut name = name;
    loop {
        if let Some(v) = Versioned::parse(name) {
            name = v.base;
        } else if let Some(base) = strip_graph_arg(name) {
            name = base;
        } else {
            return name;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_decimal_writes_the_decimal_form() {
        for n in [0u32, 5, 9, 10, 909, u32::MAX] {
            let mut buf = String::from("x");
            push_decimal(&mut buf, n);
            assert_eq!(buf, format!("x{n}"));
        }
    }

    #[test]
    fn a_stem_and_its_number_spell_the_version() {
        for (base, role, n) in [("acc", Role::Rv, 0u32), ("tid", Role::Ssa, 12)] {
            let mut buf = String::new();
            Versioned::push_stem(&mut buf, base, role);
            push_decimal(&mut buf, n);
            assert_eq!(buf, Versioned { base, qualifier: None, role, version: n }.to_string());
        }
    }

    #[test]
    fn versions_parse_and_print_back() {
        for name in ["x__ssa_v0", "acc__iter_v12", "k__lv_idx_v0", "a__b__ssa_v3", "t__phi_v4"] {
            assert_eq!(Versioned::parse(name).map(|v| v.to_string()).as_deref(), Some(name));
        }
        let v = Versioned::parse("k__lv_idx_v0").unwrap();
        assert_eq!((v.base, v.qualifier, v.role, v.version), ("k", Some("lv"), Role::Idx, 0));
        for name in ["my__var", "__ssa_v0", "x__ssa_v", "x__ssa_v1a", "x__bogus_v1", "x__ssa_v99999999999"] {
            assert_eq!(Versioned::parse(name), None, "{name}");
        }
    }

    #[test]
    fn variables_record_source_and_version() {
        let mut names = Interner::new();
        let mut split_of = |text: &str| {
            let sym = names.intern(text);
            let (source, version) = split(&mut names, sym);
            (
                names.get(source).to_string(),
                version.map(|v| (v.qualifier.map(|q| names.get(q).to_string()), v.role, v.n)),
            )
        };
        assert_eq!(split_of("acc__rv_v2"), ("acc".to_string(), Some((None, Role::Rv, 2))));
        assert_eq!(split_of("k__lv_idx_v0"), ("k".to_string(), Some((Some("lv".to_string()), Role::Idx, 0))));
        assert_eq!(split_of("band__ssa_v0__graph_arg2"), ("band".to_string(), None));
        assert_eq!(split_of("a__b"), ("a__b".to_string(), None));
    }

    #[test]
    fn rsplit_last_is_rsplit_once() {
        for text in ["", "_", "__", "___", "a___b", "x__ssa_v0", "a__b__ssa_v3", "é__ü_v1", "band__ssa_v0__graph_arg2"]
        {
            for pat in ["__", "_v", "__graph_arg"] {
                assert_eq!(rsplit_last(text, pat), text.rsplit_once(pat), "{text:?} {pat:?}");
            }
        }
    }

    #[test]
    fn source_names_strip_every_suffix_and_nothing_else() {
        for (name, source) in [
            ("acc__ssa_v3", "acc"),
            ("acc__iter_v0", "acc"),
            ("band__ssa_v0__graph_arg2", "band"),
            ("a__b__ssa_v3", "a__b"),
            ("a__b", "a__b"),
            ("x", "x"),
            ("__ssa_v0", "__ssa_v0"),
            ("__graph_arg1", "__graph_arg1"),
        ] {
            assert_eq!(source_name(name), source, "{name}");
        }
        let mut name = String::new();
        push_graph_arg(&mut name, "w", 1);
        assert_eq!((name.as_str(), source_name(&name)), ("w__graph_arg1", "w"));
    }
}
