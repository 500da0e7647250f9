//! Analyses that reuse what an edit did not touch: after an edit inside one function of a
//! large document, only that function (and what depends on it) is compiled again; the
//! diagnostics of the others are those of the previous analysis, moved with their text.
//! The result is the whole document's: byte for byte the diagnostics a whole analysis of
//! the same text gives (a property test over random edits checks it), and whenever that
//! cannot be made sure of, the whole document is analysed instead.
//!
//! ```text
//! text ──lex──► top-level statements ──► header (imports, constants, host code, anything
//!                                         │ undecorated) + units (decorated def / class)
//!   units whose text changed, with every unit linked to them ─┐
//!   (calls, duplicate names, names outlining could clash on)  ▼
//!   compiled: the text with the other units blanked (spaces; offsets and lines kept)
//!   reused: the other units' diagnostics, moved by the change of their start
//!   merged stage by stage (lowering, lint, each pass) as the whole would have run them
//! ```
//!
//! A unit's diagnostics depend on the header, its own text and the units linked to it:
//! - **calls**: a unit names a function another unit defines (a call, an inline splice, a
//!   duplicate definition) — every name token of a unit is a possible mention;
//! - **names**: the names a unit puts in its program (its functions, and the region names
//!   — every string literal without spaces — that outlining makes functions of) against
//!   another's: equal, or one the other followed by `_...` (`band`, `band_0`,
//!   `main_graph_0`), the ways outlining makes a name unique;
//! - **the header**: a unit the header names or could clash with, or that names what the
//!   header imports (which may change on disk), is compiled every time.
//!
//! Linked units are compiled together. Stages are merged as the driver runs them: the
//! lowering's diagnostics of every unit, then (only when none is an error) the lint's, then
//! each pass's, stopping after the first stage with an error. A unit's diagnostics are kept
//! only when they are all in the unit and complete (its compilation did not stop at an
//! error of another unit). The whole document is analysed again when the top-level layout
//! changed (a statement of the header, the number or order of the units), when the text
//! does not lex, when any part has a syntax error (lowering stops at one, for every unit),
//! when a diagnostic is in another file (an import), or when the header's diagnostics are
//! not those it had with every unit there.

use super::analysis::{Analysis, Cancelled, Part, Source};
use super::Analyzer;
use crate::diag::{self, Diagnostic, Label, Span};
use crate::driver::Stage;
use crate::session::Session;
use crate::source::FileId;
use crate::syntax::lexer::{self, Token};
use crate::syntax::token::Tok;
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

/// What one analysis leaves for the next: the document's top-level layout and, for each
/// unit, its text and what each stage found in it.
pub struct Cache {
    /// The header's text, with `\0` in place of each unit.
    key: String,
    units: Vec<Cached>,
    /// The header's diagnostics (lowering only), with positions in the header alone.
    header: Vec<Diagnostic>,
}

struct Cached {
    text: String,
    start: u32,
    /// The group of linked units it was in.
    group: usize,
    /// What each stage found in it (lowering, lint, passes); `None` when it must be
    /// compiled again whatever changes.
    stages: Option<Vec<Vec<Diagnostic>>>,
    /// The compilation that has its programs, for a hover: the last one of the unit that
    /// ran every pass without an error.
    source: Option<Source>,
}

/// The top-level layout of a text.
struct Split {
    key: String,
    /// The units' byte ranges, in order.
    units: Vec<Range<u32>>,
    /// The group of each unit (linked units share one), and whether the header is in it.
    group: Vec<usize>,
    pinned: Vec<bool>,
}

/// Analyses `text`, reusing what `previous` (the cache of the same document's previous
/// analysis) holds for the units the edit did not touch. Returns the analysis (whose
/// programs are the whole document's only when it is complete) and the cache for the next
/// one; `None` when cancelled.
pub fn analyze(
    name: &str,
    path: Option<&Path>,
    text: &str,
    previous: Option<&Cache>,
    whole: Analyzer,
    cancelled: Cancelled<'_>,
) -> Option<(Analysis, Option<Cache>)> {
    let Some(split) = split(text) else { return Some((whole(name, path, text, cancelled)?, None)) };
    if let Some(prev) = previous.filter(|p| p.key == split.key && p.units.len() == split.units.len()) {
        let compile: Vec<bool> = to_compile(prev, &split, text);
        if compile.iter().any(|c| !c) {
            let blanked = blank(text, &split.units, &compile);
            let part = whole(name, path, &blanked, cancelled)?;
            if let Some(done) = merge(name, text, &split, prev, &compile, &part) {
                return Some(done);
            }
        }
    }
    let analysis = whole(name, path, text, cancelled)?;
    let cache = cache_of(text, &split, &analysis, &vec![true; split.units.len()], None);
    Some((analysis, cache))
}

/// Which units are compiled: those whose text changed, with every unit of their group now
/// and before, those the header is linked to, and those whose diagnostics were not kept.
fn to_compile(prev: &Cache, split: &Split, text: &str) -> Vec<bool> {
    let n = split.units.len();
    let mut groups: FxHashSet<(bool, usize)> = FxHashSet::default();
    for (i, range) in split.units.iter().enumerate() {
        let cached = &prev.units[i];
        if cached.stages.is_none() || split.pinned[i] || cached.text != text[range.start as usize..range.end as usize] {
            groups.insert((false, cached.group));
            groups.insert((true, split.group[i]));
        }
    }
    let mut compile: Vec<bool> = (0..n)
        .map(|i| {
            split.pinned[i]
                || groups.contains(&(false, prev.units[i].group))
                || groups.contains(&(true, split.group[i]))
        })
        .collect();
    // With every unit of their groups now. (Links between unchanged units are the same
    // before and after, so a unit of an old group has no new link to a unit outside; this
    // makes sure of it.)
    let now: FxHashSet<usize> = (0..n).filter(|&i| compile[i]).map(|i| split.group[i]).collect();
    for (c, group) in compile.iter_mut().zip(&split.group) {
        *c |= now.contains(group);
    }
    compile
}

/// The text with the units not compiled made blank: every byte a space but line breaks,
/// so that offsets and lines stay those of the document.
pub(crate) fn blank(text: &str, units: &[Range<u32>], compile: &[bool]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for (range, _) in units.iter().zip(compile).filter(|(_, c)| !**c) {
        for b in &mut bytes[range.start as usize..range.end as usize] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }
    // Only whole characters were replaced (the ranges start and end at line starts or at
    // tokens), by ASCII bytes.
    String::from_utf8(bytes).unwrap_or_default()
}

/// Where a diagnostic of a compilation belongs: the unit its primary label is in, or the
/// header (`None`).
fn owner(units: &[Range<u32>], span: Span) -> Option<usize> {
    let i = units.partition_point(|r| r.end <= span.lo);
    units.get(i).filter(|r| r.start <= span.lo).map(|_| i)
}

/// The stages of an analysis, in the driver's order (lowering, lint, each pass); `None`
/// when they are not those, a diagnostic is in another file, or there is a syntax error.
fn stages_of(analysis: &Analysis) -> Option<Vec<&[Diagnostic]>> {
    let found = &analysis.found;
    let in_order = found.first().is_some_and(|(s, _)| *s == Stage::Lower)
        && found.iter().skip(1).enumerate().all(|(i, (s, _))| (i == 0) == (*s == Stage::Lint));
    let elsewhere =
        |d: &Diagnostic| d.primary.file != analysis.root || d.secondary.iter().any(|l| l.file != analysis.root);
    let syntax = |d: &Diagnostic| d.is_error() && matches!(&d.code.as_str()[..3], "E00" | "E01");
    if !in_order || analysis.diags.iter().any(|d| elsewhere(d) || syntax(d)) {
        return None;
    }
    Some(found.iter().map(|(_, d)| d.as_slice()).collect())
}

/// Moves every label of a diagnostic by `by` bytes.
fn shifted(d: &Diagnostic, by: i64) -> Diagnostic {
    let mut d = d.clone();
    let at = |x: u32| (i64::from(x) + by) as u32;
    for label in std::iter::once(&mut d.primary).chain(d.secondary.iter_mut()) {
        label.span = Span::new(at(label.span.lo), at(label.span.hi));
    }
    d
}

/// A header diagnostic with its positions counted in the header alone (the units taken
/// out), so that it compares with the same diagnostic of another layout; `None` when a
/// label is inside a unit.
fn in_header(d: &Diagnostic, units: &[Range<u32>]) -> Option<Diagnostic> {
    let map = |x: u32| -> Option<u32> {
        let before = units.partition_point(|r| r.end <= x);
        if units.get(before).is_some_and(|r| r.start < x) {
            return None;
        }
        Some(x - units[..before].iter().map(|r| r.end - r.start).sum::<u32>())
    };
    let mut d = d.clone();
    for label in std::iter::once(&mut d.primary).chain(d.secondary.iter_mut()) {
        label.span = Span::new(map(label.span.lo)?, map(label.span.hi)?);
    }
    Some(d)
}

/// The whole document's analysis from a compilation of its compiled units (`part`) and
/// the kept diagnostics of the others; `None` when it cannot be made sure of.
fn merge(
    name: &str,
    text: &str,
    split: &Split,
    prev: &Cache,
    compile: &[bool],
    part: &Analysis,
) -> Option<(Analysis, Option<Cache>)> {
    let stages = stages_of(part)?;
    // The header's diagnostics: lowering's only, and those it had with every unit there.
    let mut header: Vec<Diagnostic> = Vec::new();
    for (s, found) in stages.iter().enumerate() {
        for d in found.iter().filter(|d| owner(&split.units, d.primary.span).is_none()) {
            if s > 0 {
                return None;
            }
            header.push(in_header(d, &split.units)?);
        }
    }
    if header != prev.header {
        return None;
    }
    let mut merged: Vec<Vec<Diagnostic>> = stages.iter().map(|found| found.to_vec()).collect();
    let ran = merged.len();
    for (i, range) in split.units.iter().enumerate().filter(|(i, _)| !compile[*i]) {
        let cached = &prev.units[i];
        let kept = cached.stages.as_ref()?;
        let by = i64::from(range.start) - i64::from(cached.start);
        for (s, found) in kept.iter().enumerate() {
            if s >= merged.len() {
                merged.push(Vec::new());
            }
            merged[s].extend(found.iter().map(|d| shifted(d, by)));
        }
    }
    // Stage by stage, as the driver runs them: nothing after a stage with an error; the
    // stages the compilation did not run are there only when an earlier one stops it.
    let mut diags = Vec::new();
    for (s, found) in merged.into_iter().enumerate() {
        let error = diag::has_errors(&found);
        diags.extend(found);
        if error {
            break;
        }
        if s + 1 == ran && ran < 2 + crate::passes::PASSES.len() {
            // The compilation stopped here, at an error of its own: the whole would have.
            return None;
        }
    }
    diag::sort(&mut diags);
    let mut session = Session::new();
    let root = session.files.add(name, text);
    if root != part.root {
        return None;
    }
    let cache = cache_of(text, split, part, compile, Some(prev));
    // Every unit's programs, when every unit has them, for a hover.
    let parts = cache
        .as_ref()
        .and_then(|c| {
            split
                .units
                .iter()
                .zip(&c.units)
                .map(|(range, unit)| Some(Part { range: range.clone(), source: unit.source.clone()? }))
                .collect::<Option<Vec<Part>>>()
        })
        .unwrap_or_default();
    let analysis = Analysis {
        session: Arc::new(session),
        root,
        programs: Arc::default(),
        diags,
        found: Vec::new(),
        complete: false,
        parts,
    };
    Some((analysis, cache))
}

/// The cache after an analysis that compiled the units marked in `compile` (`analysis`),
/// the others kept from `prev`.
fn cache_of(text: &str, split: &Split, analysis: &Analysis, compile: &[bool], prev: Option<&Cache>) -> Option<Cache> {
    let stages = stages_of(analysis)?;
    let complete = stages.len() == 2 + crate::passes::PASSES.len();
    let mut per_unit: Vec<Vec<Vec<Diagnostic>>> = vec![Vec::new(); split.units.len()];
    let mut header = Vec::new();
    for (s, found) in stages.iter().enumerate() {
        for unit in &mut per_unit {
            unit.push(Vec::new());
        }
        for d in found.iter() {
            match owner(&split.units, d.primary.span) {
                Some(i) => per_unit[i][s].push(d.clone()),
                None if s == 0 => header.push(in_header(d, &split.units)?),
                None => return None,
            }
        }
    }
    let last_error = |unit: &Vec<Vec<Diagnostic>>| unit.last().is_some_and(|d| diag::has_errors(d));
    // The programs of a compilation that ran every pass without an error.
    let clean = complete && !diag::has_errors(&analysis.diags);
    let units = split
        .units
        .iter()
        .enumerate()
        .map(|(i, range)| {
            let (start, end) = (range.start, range.end);
            let unit_text = text[start as usize..end as usize].to_string();
            let (stages, source) = if compile[i] {
                let unit = std::mem::take(&mut per_unit[i]);
                let inside = |l: &Label| start <= l.span.lo && l.span.hi <= end;
                let all_inside = unit.iter().flatten().all(|d| inside(&d.primary) && d.secondary.iter().all(inside));
                // Complete: every stage ran, or the unit's own error stopped them.
                let stages = (all_inside && (complete || last_error(&unit))).then_some(unit);
                let source = clean.then(|| Source {
                    session: Arc::clone(&analysis.session),
                    root: analysis.root,
                    programs: Arc::clone(&analysis.programs),
                    start,
                });
                (stages, source)
            } else {
                let cached = &prev?.units[i];
                let by = i64::from(start) - i64::from(cached.start);
                let stages = cached
                    .stages
                    .as_ref()
                    .map(|s| s.iter().map(|f| f.iter().map(|d| shifted(d, by)).collect()).collect());
                (stages, cached.source.clone())
            };
            Some(Cached { text: unit_text, start, group: split.group[i], stages, source })
        })
        .collect::<Option<Vec<Cached>>>()?;
    Some(Cache { key: split.key.clone(), units, header })
}

// ---------------------------------------------------------------- the layout

/// The top-level statements of a text and its units, with their groups; `None` when the
/// text does not lex cleanly (the whole is analysed then).
fn split(text: &str) -> Option<Split> {
    if text.starts_with('\u{FEFF}') || text.len() > u32::MAX as usize / 2 {
        return None;
    }
    let mut lexed = Vec::new();
    let tokens = lexer::lex(FileId(0), text, &mut lexed);
    if diag::has_errors(&lexed) {
        return None;
    }
    let starts = statement_starts(text, &tokens);
    // Statements: [start, next start); a run of decorators joins the statement it decorates.
    let mut units: Vec<Range<u32>> = Vec::new();
    let mut unit_tokens: Vec<Range<usize>> = Vec::new();
    let mut header_tokens: Vec<Range<usize>> = Vec::new();
    let mut key = String::new();
    let end_of = |k: usize| starts.get(k).map_or(text.len() as u32, |&t| tokens[t].span.lo);
    let mut cursor = 0u32;
    let mut k = 0;
    while k < starts.len() {
        let first = k;
        while k < starts.len() && tokens[starts[k]].kind == Tok::At {
            k += 1;
        }
        let decorated = k > first && k < starts.len() && matches!(tokens[starts[k]].kind, Tok::Def | Tok::Class);
        let last = k.min(starts.len() - 1);
        let (lo, hi) = (tokens[starts[first]].span.lo, end_of(last + 1));
        let toks = starts[first]..starts.get(last + 1).copied().unwrap_or(tokens.len());
        if decorated {
            key.push_str(&text[cursor as usize..lo as usize]);
            key.push('\0');
            cursor = hi;
            units.push(lo..hi);
            unit_tokens.push(toks);
        } else {
            header_tokens.push(toks);
        }
        k = last + 1;
    }
    key.push_str(&text[cursor as usize..]);
    let (group, pinned) = link(text, &tokens, &unit_tokens, &header_tokens);
    Some(Split { key, units, group, pinned })
}

/// The indices of the tokens that start a top-level statement: at the start of a line, not
/// inside brackets, after the end of a logical line.
fn statement_starts(text: &str, tokens: &[Token]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut depth = 0usize;
    let mut line_ended = true;
    for (i, t) in tokens.iter().enumerate() {
        if t.kind == Tok::Newline {
            line_ended = depth == 0;
            continue;
        }
        let at_line_start = t.span.lo == 0 || matches!(text.as_bytes()[t.span.lo as usize - 1], b'\n' | b'\r');
        if line_ended && depth == 0 && at_line_start {
            starts.push(i);
        }
        line_ended = false;
        if t.kind.is_open_bracket() {
            depth += 1;
        } else if t.kind.is_close_bracket() {
            depth = depth.saturating_sub(1);
        }
    }
    starts
}

/// The names a run of tokens mentions (every name), and those it puts in its program:
/// functions and classes (what follows `def` and `class`), and string literals without
/// spaces (region names).
#[derive(Default)]
struct Names<'t> {
    mentions: Vec<Cow<'t, str>>,
    functions: Vec<Cow<'t, str>>,
    strings: Vec<&'t str>,
}

fn names_of<'t>(text: &'t str, tokens: &[Token], range: Range<usize>, names: &mut Names<'t>) {
    let Names { mentions, functions, strings } = names;
    let toks = &tokens[range];
    for (j, t) in toks.iter().enumerate() {
        let s = t.text(text);
        match t.kind {
            Tok::Name => {
                let name = crate::syntax::ident::normalize(s);
                if j > 0 && matches!(toks[j - 1].kind, Tok::Def | Tok::Class) {
                    functions.push(name.clone());
                }
                mentions.push(name);
            }
            Tok::Str | Tok::FStr | Tok::Bytes => {
                let inner =
                    s.trim_start_matches(|c: char| c.is_ascii_alphabetic()).trim_matches(|c| c == '"' || c == '\'');
                if !inner.is_empty() && inner.len() <= 200 && !inner.chars().any(char::is_whitespace) {
                    strings.push(inner);
                }
            }
            _ => {}
        }
    }
}

/// Groups the units that are linked (see the module's documentation); a unit linked to
/// the header is pinned (compiled every time). Returns each unit's group and whether it
/// is pinned.
fn link(text: &str, tokens: &[Token], units: &[Range<usize>], header: &[Range<usize>]) -> (Vec<usize>, Vec<bool>) {
    // Node 0 is the header, node i + 1 the unit i.
    let mut parts: Vec<Names> = vec![Names::default()];
    for range in header {
        // `from .module import f`: pl code of another file (absolute imports are the pl
        // namespace, `math`, or outside libraries, which do not change).
        let import = tokens[range.start].kind == Tok::From
            && tokens.get(range.start + 1).is_some_and(|t| t.text(text).starts_with('.'));
        let before = parts[0].mentions.len();
        names_of(text, tokens, range.clone(), &mut parts[0]);
        if import {
            // An imported function is defined elsewhere, and may change there.
            let imported = parts[0].mentions[before..].to_vec();
            parts[0].functions.extend(imported);
        }
    }
    for range in units {
        let mut names = Names::default();
        names_of(text, tokens, range.clone(), &mut names);
        parts.push(names);
    }
    let mut functions: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    let mut program: FxHashMap<&str, Vec<usize>> = FxHashMap::default();
    for (node, names) in parts.iter().enumerate() {
        for f in &names.functions {
            functions.entry(f.as_ref()).or_default().push(node);
        }
        for n in names.functions.iter().map(|f| f.as_ref()).chain(names.strings.iter().copied()) {
            program.entry(n).or_default().push(node);
        }
    }
    let mut uf = UnionFind::new(parts.len());
    for (node, names) in parts.iter().enumerate() {
        for m in &names.mentions {
            for &other in functions.get(m.as_ref()).into_iter().flatten() {
                uf.union(node, other);
            }
        }
        for n in names.functions.iter().map(|f| f.as_ref()).chain(names.strings.iter().copied()) {
            // `n` itself, and each prefix of it that ends before a `_`.
            let prefixes = n.match_indices('_').map(|(at, _)| &n[..at]).chain(std::iter::once(n));
            for p in prefixes {
                for &other in program.get(p).into_iter().flatten() {
                    uf.union(node, other);
                }
            }
        }
    }
    let header_root = uf.find(0);
    (1..parts.len()).map(|n| (uf.find(n), uf.find(n) == header_root)).unzip()
}

struct UnionFind(Vec<usize>);

impl UnionFind {
    fn new(n: usize) -> Self {
        UnionFind((0..n).collect())
    }

    fn find(&mut self, mut x: usize) -> usize {
        while self.0[x] != x {
            self.0[x] = self.0[self.0[x]];
            x = self.0[x];
        }
        x
    }

    fn union(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        self.0[a.max(b)] = a.min(b);
    }
}
