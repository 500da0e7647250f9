//! Host code: the Python that runs around a pl program (an `if __name__ == "__main__":`
//! block, plain `def`s and `class`es, assignments computed at run time, calls such as
//! `print(...)`). It is recognised here, on the laid-out token stream, by the first tokens
//! of each top-level statement, and set aside with a note; the parser never sees it, so it
//! only has to lex. Inside an `@pl.program` class the same rule keeps undecorated methods
//! out.
//!
//! ```text
//! import pypto.language as pl          kept: an import
//! N = 128                              kept: a constant expression
//! CFG = load_config()                  host: not a constant expression
//! @pl.jit                              kept: a pl function
//! def entry(...): ...
//! def helper(): ...                    host: no `@pl.` decorator
//! if __name__ == "__main__": ...       host: the main guard
//! ```

use super::ast::{HostItem, HostKind};
use super::lexer::Token;
use super::token::Tok;
use crate::diag::{Code, Diagnostic, Label, Span};
use crate::source::FileId;

/// Splits the laid-out tokens into those the parser reads and the host items it skips,
/// with the range of tokens each host item covers (in the same order).
#[cfg(test)]
pub fn split(
    file: FileId,
    src: &str,
    tokens: &[Token],
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Token>, Vec<HostItem>, Vec<std::ops::Range<usize>>) {
    let (kept, host, ranges) = run(file, src, tokens, &Aliases::of(src, tokens), diags);
    let mut out = Vec::with_capacity(kept.len);
    kept.runs.iter().for_each(|run| run.write(tokens, &mut out));
    (out, host, ranges)
}

/// [`split`] done in the laid-out tokens' own vector (the parser's tokens are moved to its
/// front, no second vector of the file's size is made), with the laid-out tokens of each
/// host item (`syntax::host_tokens`) taken before; `aliases`: those of the whole file when
/// `tokens` are a run of whole top-level statements of a part of it (`syntax::parallel`),
/// else the tokens' own.
pub(super) fn split_in_place(
    file: FileId,
    src: &str,
    tokens: Vec<Token>,
    aliases: Option<&Aliases<'_>>,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Token>, Vec<HostItem>, Vec<Vec<Token>>) {
    let (kept, host, ranges) = match aliases {
        Some(aliases) => run(file, src, &tokens, aliases, diags),
        None => run(file, src, &tokens, &Aliases::of(src, &tokens), diags),
    };
    let host_tokens = super::host_tokens(&host, &ranges, &tokens);
    (kept.compact(tokens), host, host_tokens)
}

/// Runs the splitter over `tokens`: the runs of them the parser reads, the host items and
/// the range of each.
fn run(
    file: FileId,
    src: &str,
    tokens: &[Token],
    aliases: &Aliases<'_>,
    diags: &mut Vec<Diagnostic>,
) -> (Kept, Vec<HostItem>, Vec<std::ops::Range<usize>>) {
    let mut splitter = Splitter {
        file,
        src,
        pl: &aliases.pl,
        pld: &aliases.pld,
        jit: &aliases.jit,
        toks: tokens,
        out: Kept::default(),
        host: Vec::new(),
        ranges: Vec::new(),
        diags,
    };
    let mut i = 0;
    splitter.container(&mut i, Container::Module);
    (splitter.out, splitter.host, splitter.ranges)
}

/// The tokens the parser reads, in order: runs of the laid-out tokens, and the `pass`
/// lines that fill a class body whose every statement was host code.
#[derive(Default)]
struct Kept {
    runs: Vec<Run>,
    /// The number of tokens.
    len: usize,
}

#[derive(Clone)]
enum Run {
    Tokens(std::ops::Range<usize>),
    /// `pass` and its NEWLINE, zero-width at this offset.
    Pass(u32),
}

impl Run {
    /// The run's tokens appended to `out`.
    fn write(&self, tokens: &[Token], out: &mut Vec<Token>) {
        match self {
            Run::Tokens(range) => out.extend_from_slice(&tokens[range.clone()]),
            &Run::Pass(at) => out.extend([Token::new(Tok::Pass, at, at), Token::new(Tok::Newline, at, at)]),
        }
    }
}

impl Kept {
    /// Keeps `tokens[range]` after what is kept so far.
    fn tokens(&mut self, range: std::ops::Range<usize>) {
        if range.is_empty() {
            return;
        }
        self.len += range.len();
        match self.runs.last_mut() {
            Some(Run::Tokens(last)) if last.end == range.start => last.end = range.end,
            _ => self.runs.push(Run::Tokens(range)),
        }
    }

    fn pass(&mut self, at: u32) {
        self.len += 2;
        self.runs.push(Run::Pass(at));
    }

    /// The kept tokens moved to the front of `tokens` (the rest cut off). Every run is
    /// written before the tokens it reads from, unless the `pass` lines of empty class
    /// bodies outgrow the host code skipped before them: then into a new vector.
    fn compact(&self, mut tokens: Vec<Token>) -> Vec<Token> {
        // Each run is written at `at`: a run of tokens where it is or before, a `pass` line
        // before the next tokens still to read.
        let mut at = 0;
        for (k, run) in self.runs.iter().enumerate() {
            let (fits, len) = match run {
                Run::Tokens(range) => (at <= range.start, range.len()),
                Run::Pass(_) => {
                    let next_read = self.runs[k + 1..]
                        .iter()
                        .find_map(|r| match r {
                            Run::Tokens(range) => Some(range.start),
                            Run::Pass(_) => None,
                        })
                        .unwrap_or(tokens.len());
                    (at + 2 <= next_read, 2)
                }
            };
            if !fits {
                let mut out = Vec::with_capacity(self.len);
                self.runs.iter().for_each(|run| run.write(&tokens, &mut out));
                return out;
            }
            at += len;
        }
        let mut len = 0;
        for run in &self.runs {
            match run {
                Run::Tokens(range) => {
                    if range.start != len {
                        tokens.copy_within(range.clone(), len);
                    }
                    len += range.len();
                }
                &Run::Pass(at) => {
                    tokens[len] = Token::new(Tok::Pass, at, at);
                    tokens[len + 1] = Token::new(Tok::Newline, at, at);
                    len += 2;
                }
            }
        }
        tokens.truncate(len);
        tokens
    }
}

/// Why a top-level assignment line is host code.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Skip {
    /// Not an assignment to names at all.
    NotAssignment,
    /// `NAME: T = value`.
    Annotated,
    /// `A = B = value`.
    Chained,
    /// The value is not a constant expression of the pl language.
    NotConstant,
}

/// Builtins a constant expression may call (the reference's compile-time whitelist), and
/// the pl functions that make constants.
const CONSTANT_CALLS: &[&str] = &[
    "pl.dynamic",
    "pl.const",
    "len",
    "max",
    "min",
    "abs",
    "sum",
    "round",
    "int",
    "float",
    "bool",
    "list",
    "tuple",
    "range",
];

/// `pl.FP32.get_byte`: the byte size of a dtype, a compile-time constant.
fn is_byte_size(callee: &str) -> bool {
    callee.strip_prefix("pl.").and_then(|rest| rest.strip_suffix(".get_byte")).is_some_and(|d| !d.contains('.'))
}

/// The names a module binds to `pypto.language`, to `pypto.language.distributed` and to
/// PyPTO's `jit` decorator, from its import statements, as lowering binds them (`import
/// pypto.language as p`, `from pypto import language as lang`, `import
/// pypto.language.distributed as d`, `from pypto.jit.decorator import jit`); `pl` and `pld`
/// always count, so a module that imports nothing still reads as before.
pub(super) struct Aliases<'a> {
    pl: Vec<&'a str>,
    pld: Vec<&'a str>,
    jit: Vec<&'a str>,
}

impl<'a> Aliases<'a> {
    /// The aliases the import statements among `toks` bind.
    pub(super) fn of(src: &'a str, toks: &[Token]) -> Self {
        let (pl, pld, jit) = namespace_aliases(src, toks);
        Aliases { pl, pld, jit }
    }

    /// Adds the aliases of a later part of the file.
    pub(super) fn extend(&mut self, later: Aliases<'a>) {
        // `pl` and `pld`, first in each, are there already.
        self.pl.extend(later.pl.into_iter().skip(1));
        self.pld.extend(later.pld.into_iter().skip(1));
        self.jit.extend(later.jit);
    }
}

/// [`Aliases`]: the names bound to `pypto.language`, to `pypto.language.distributed` and to
/// PyPTO's `jit` decorator.
fn namespace_aliases<'a>(src: &'a str, toks: &[Token]) -> (Vec<&'a str>, Vec<&'a str>, Vec<&'a str>) {
    let (mut pl, mut pld, mut jit) = (vec!["pl"], vec!["pld"], Vec::new());
    let text = |i: usize| toks[i].text(src);
    let kind = |i: usize| toks.get(i).map(|t| t.kind);
    // The dotted name starting at `i`, and the index after it.
    let dotted = |mut i: usize| {
        let mut name = String::new();
        while kind(i) == Some(Tok::Name) {
            name.push_str(text(i));
            if kind(i + 1) != Some(Tok::Dot) {
                return (name, i + 1);
            }
            name.push('.');
            i += 2;
        }
        (name, i)
    };
    for (i, t) in toks.iter().enumerate() {
        // An `import` or `from` (rare) that begins a line.
        if !matches!(t.kind, Tok::Import | Tok::From) {
            continue;
        }
        let line_start = i == 0 || matches!(toks[i - 1].kind, Tok::Newline | Tok::Indent | Tok::Dedent);
        if !line_start {
            continue;
        }
        let (module, mut j) = match t.kind {
            Tok::Import => (String::new(), i + 1),
            Tok::From => {
                let (module, j) = dotted(i + 1);
                if kind(j) != Some(Tok::Import) {
                    continue;
                }
                (module, if kind(j + 1) == Some(Tok::LParen) { j + 2 } else { j + 1 })
            }
            _ => continue,
        };
        loop {
            let (name, after) = dotted(j);
            if name.is_empty() {
                break;
            }
            let alias = (kind(after) == Some(Tok::As) && kind(after + 1) == Some(Tok::Name)).then(|| text(after + 1));
            j = if alias.is_some() { after + 2 } else { after };
            let full = if module.is_empty() { name } else { format!("{module}.{name}") };
            match (full.as_str(), alias, module.is_empty()) {
                ("pypto.language", Some(a), _) => pl.push(a),
                ("pypto.language", None, false) => pl.push("language"),
                ("pypto.language.distributed", Some(a), true) => pld.push(a),
                (full, alias, false) if crate::syntax::is_jit_decorator_path(full) => {
                    jit.push(alias.unwrap_or("jit"));
                }
                _ => {}
            }
            if kind(j) != Some(Tok::Comma) {
                break;
            }
            j += 1;
        }
    }
    (pl, pld, jit)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Container {
    /// The top level of the module.
    Module,
    /// The body of a class decorated with `@pl.` (an `@pl.program` class).
    PlClass,
    /// The body of a program factory: a top-level `def` without a decorator that defines
    /// `@pl.` classes or functions. All of it is parsed; lowering evaluates it.
    Factory,
}

enum Class {
    /// Parsed as pl source.
    Dsl,
    /// A `@pl.`-decorated class whose body is filtered as a container of its own; `indent`
    /// is the index of the body's INDENT token.
    PlClassBody {
        indent: usize,
    },
    /// A program factory whose body is filtered as a container of its own.
    FactoryBody {
        indent: usize,
    },
    Host {
        kind: HostKind,
        what: String,
    },
}

struct Splitter<'a> {
    file: FileId,
    src: &'a str,
    /// The names `pypto.language` is imported under (`pl`, and any other alias:
    /// `import pypto.language as p`, `from pypto import language as lang`).
    pl: &'a [&'a str],
    /// The names `pypto.language.distributed` is imported under (`pld`, ...).
    pld: &'a [&'a str],
    /// The names PyPTO's `jit` decorator is imported under (`from pypto.jit.decorator
    /// import jit`): `@jit` and `@jit.incore` are `@pl.jit` and `@pl.jit.incore`.
    jit: &'a [&'a str],
    toks: &'a [Token],
    out: Kept,
    host: Vec<HostItem>,
    ranges: Vec<std::ops::Range<usize>>,
    diags: &'a mut Vec<Diagnostic>,
}

impl Splitter<'_> {
    fn kind(&self, i: usize) -> Option<Tok> {
        self.toks.get(i).map(|t| t.kind)
    }

    fn text(&self, i: usize) -> &str {
        self.toks.get(i).map_or("", |t| t.text(self.src))
    }

    /// Filters the statements of one container, starting at `*i`, up to the DEDENT that
    /// closes it (left for the caller) or the end of the tokens.
    fn container(&mut self, i: &mut usize, container: Container) {
        while *i < self.toks.len() {
            let start = *i;
            if self.toks[start].kind == Tok::Dedent {
                if container != Container::Module {
                    return;
                }
                // Unreachable with balanced layout; keep the token and go on.
                self.out.tokens(start..start + 1);
                *i += 1;
                continue;
            }
            let end = self.stmt_end(start);
            match self.classify(start, end, container) {
                Class::Dsl => self.out.tokens(start..end),
                Class::PlClassBody { indent } => {
                    self.out.tokens(start..indent + 1);
                    let body_start = self.out.len;
                    *i = indent + 1;
                    self.container(i, Container::PlClass);
                    if self.out.len == body_start {
                        // Every statement of the class was host code: an empty `pass` keeps
                        // the class well formed, and lowering says what it lacks.
                        self.out.pass(self.toks[indent].span.hi);
                    }
                    // The class body's DEDENT.
                    if *i < end {
                        self.out.tokens(*i..end);
                    }
                }
                Class::FactoryBody { indent } => {
                    self.out.tokens(start..indent + 1);
                    *i = indent + 1;
                    self.container(i, Container::Factory);
                    if *i < end {
                        self.out.tokens(*i..end);
                    }
                }
                Class::Host { kind, what } => self.host_item(start, end, kind, what),
            }
            *i = end;
        }
    }

    /// Index just past the NEWLINE that ends the logical line starting at `i`.
    fn line_end(&self, mut i: usize) -> usize {
        while i < self.toks.len() {
            i += 1;
            if self.toks[i - 1].kind == Tok::Newline {
                break;
            }
        }
        i
    }

    /// Index of the DEDENT matching the INDENT at `i`.
    fn matching_dedent(&self, i: usize) -> usize {
        let mut depth = 0usize;
        for (j, t) in self.toks.iter().enumerate().skip(i) {
            match t.kind {
                Tok::Indent => depth += 1,
                Tok::Dedent => {
                    depth -= 1;
                    if depth == 0 {
                        return j;
                    }
                }
                _ => {}
            }
        }
        self.toks.len() - 1
    }

    /// Index just past the statement starting at `i`: its decorators, its header line, its
    /// block, and the `elif`/`else`/`except`/`finally` clauses that continue it.
    fn stmt_end(&self, i: usize) -> usize {
        if self.kind(i) == Some(Tok::Indent) {
            return self.matching_dedent(i) + 1;
        }
        let mut j = i;
        while self.kind(j) == Some(Tok::At) {
            j = self.line_end(j);
        }
        j = self.line_end(j);
        loop {
            if self.kind(j) == Some(Tok::Indent) {
                j = self.matching_dedent(j) + 1;
            }
            match self.kind(j) {
                Some(Tok::Elif | Tok::Else | Tok::Except | Tok::Finally) => j = self.line_end(j),
                _ => return j,
            }
        }
    }

    /// True when the decorator line at `i` (an `@`) is `@pl.` something, or PyPTO's `jit`
    /// decorator imported by name (`@jit`, `@jit(...)`, `@jit.incore`).
    fn is_pl_decorator(&self, i: usize) -> bool {
        if self.kind(i + 1) != Some(Tok::Name) {
            return false;
        }
        let root = self.text(i + 1);
        (self.pl.contains(&root) && self.kind(i + 2) == Some(Tok::Dot))
            || (self.jit.contains(&root)
                && matches!(self.kind(i + 2), Some(Tok::Dot | Tok::LParen | Tok::Newline) | None))
    }

    fn classify(&self, start: usize, end: usize, container: Container) -> Class {
        let first = self.toks[start].kind;
        // Decorated definitions: pl ones are kept, others are host code.
        if first == Tok::At {
            let mut j = start;
            let mut pl = false;
            while self.kind(j) == Some(Tok::At) {
                pl |= self.is_pl_decorator(j);
                j = self.line_end(j);
            }
            let def_at = if self.kind(j) == Some(Tok::Async) { j + 1 } else { j };
            let name = self.text(def_at + 1).to_string();
            let deco_end = self.line_end(start).saturating_sub(2).max(start);
            let deco = deco_text(self.src, self.toks[start].span.to(self.toks[deco_end].span));
            let decorated = |kw: &str| format!("`{kw} {name}` is decorated with `{deco}`, not with a `@pl.` decorator");
            return match self.kind(def_at) {
                Some(Tok::Class) if pl && container != Container::PlClass => match self.class_body(def_at, end) {
                    Some(indent) => Class::PlClassBody { indent },
                    None => Class::Dsl,
                },
                Some(Tok::Def) if pl => Class::Dsl,
                // Inside a factory everything is parsed, and lowering says what it cannot
                // evaluate.
                _ if container == Container::Factory => Class::Dsl,
                Some(Tok::Class) => Class::Host { kind: HostKind::Class, what: decorated("class") },
                Some(Tok::Def) => Class::Host { kind: HostKind::Function, what: decorated("def") },
                // A decorator without a definition: a syntax error for the parser to report.
                _ if pl => Class::Dsl,
                _ => Class::Host { kind: HostKind::Statement, what: String::new() },
            };
        }
        if container == Container::Factory {
            return Class::Dsl;
        }
        match first {
            Tok::Def if container == Container::Module && self.is_factory(start, end) => {
                return match self.class_body(start, end) {
                    Some(indent) => Class::FactoryBody { indent },
                    None => Class::Dsl,
                }
            }
            Tok::Def => {
                return Class::Host {
                    kind: HostKind::Function,
                    what: format!("`def {}` has no `@pl.` decorator", self.text(start + 1)),
                }
            }
            Tok::Async if self.kind(start + 1) == Some(Tok::Def) => {
                return Class::Host {
                    kind: HostKind::Function,
                    what: format!("`async def {}` has no `@pl.` decorator", self.text(start + 2)),
                }
            }
            Tok::Class => {
                return Class::Host {
                    kind: HostKind::Class,
                    what: format!("`class {}` has no `@pl.` decorator", self.text(start + 1)),
                }
            }
            Tok::Pass | Tok::Indent | Tok::Error | Tok::Newline => return Class::Dsl,
            _ if self.is_docstring(start) => return Class::Dsl,
            _ => {}
        }
        if container == Container::PlClass {
            return Class::Host { kind: HostKind::Statement, what: String::new() };
        }
        match first {
            Tok::Import | Tok::From => Class::Dsl,
            Tok::If if self.is_main_guard(start) => Class::Host { kind: HostKind::MainGuard, what: String::new() },
            Tok::If | Tok::For | Tok::While | Tok::With | Tok::Try | Tok::Async => {
                Class::Host { kind: HostKind::Compound(first.spelling().unwrap_or("")), what: String::new() }
            }
            Tok::Name => match self.constant_assignment(start, end) {
                Ok(()) => Class::Dsl,
                Err(Skip::NotAssignment) => Class::Host { kind: HostKind::Statement, what: String::new() },
                Err(skip) => {
                    let name = self.text(start);
                    let what = match skip {
                        Skip::Annotated => format!("an annotated assignment to `{name}` runs in Python (pl constants are written `{name} = value`)"),
                        Skip::Chained => format!("a chained assignment to `{name}` runs in Python (pl constants are written `{name} = value`)"),
                        _ => format!("the value assigned to `{name}` is not a constant expression"),
                    };
                    Class::Host { kind: HostKind::Assignment, what }
                }
            },
            _ => Class::Host { kind: HostKind::Statement, what: String::new() },
        }
    }

    /// The index of the INDENT of a class body, when the class has an indented body.
    fn class_body(&self, class_at: usize, end: usize) -> Option<usize> {
        let header_end = self.line_end(class_at);
        (header_end < end && self.kind(header_end) == Some(Tok::Indent)).then_some(header_end)
    }

    /// A program factory: a `def` whose body defines, directly, a class or function
    /// decorated with `@pl.` (`def Build(n=16): ... @pl.program class P: ... return P`).
    fn is_factory(&self, start: usize, end: usize) -> bool {
        let Some(indent) = self.class_body(start, end) else { return false };
        let mut depth = 0usize;
        for j in indent..end {
            match self.toks[j].kind {
                Tok::Indent => depth += 1,
                Tok::Dedent => depth = depth.saturating_sub(1),
                Tok::At
                    if depth == 1
                        && matches!(self.toks[j - 1].kind, Tok::Newline | Tok::Indent | Tok::Dedent)
                        && self.is_pl_decorator(j) =>
                {
                    return true;
                }
                _ => {}
            }
        }
        false
    }

    fn is_docstring(&self, start: usize) -> bool {
        let mut j = start;
        while self.kind(j).is_some_and(Tok::is_string) {
            j += 1;
        }
        j > start && self.kind(j) == Some(Tok::Newline)
    }

    /// `if __name__ == "__main__":` (either quote, either operand order).
    fn is_main_guard(&self, start: usize) -> bool {
        let texts: Vec<&str> = (start + 1..start + 4).map(|j| self.text(j)).collect();
        let is_main = |s: &str| s == "\"__main__\"" || s == "'__main__'";
        self.kind(start + 4) == Some(Tok::Colon)
            && texts[1] == "=="
            && ((texts[0] == "__name__" && is_main(texts[2])) || (is_main(texts[0]) && texts[2] == "__name__"))
    }

    /// For a line of assignments `NAME (, NAME)* = value` (several separated by `;` are
    /// allowed): whether it defines pl constants, judged by its tokens. A line with a
    /// lexing error is left to the parser, which reports nothing more for it.
    fn constant_assignment(&self, start: usize, end: usize) -> Result<(), Skip> {
        let line_end = self.line_end(start).min(end);
        let line = &self.toks[start..line_end];
        if line.iter().any(|t| t.kind == Tok::Error) {
            return Ok(());
        }
        let newline = usize::from(line.last().is_some_and(|t| t.kind == Tok::Newline));
        let line = &line[..line.len() - newline];
        let mut depth = 0usize;
        let mut segment_start = 0;
        for (k, t) in line.iter().enumerate() {
            if t.kind.is_open_bracket() {
                depth += 1;
            } else if t.kind.is_close_bracket() {
                depth = depth.saturating_sub(1);
            }
            if k + 1 == line.len() || (t.kind == Tok::Semi && depth == 0) {
                let segment_end = if t.kind == Tok::Semi { k } else { k + 1 };
                let segment = &line[segment_start..segment_end];
                if !segment.is_empty() {
                    self.constant_segment(segment)?;
                }
                segment_start = k + 1;
            }
        }
        Ok(())
    }

    /// One `NAME (, NAME)* = value` statement whose value must be a constant expression of
    /// the pl language: the forms `restrict` refuses (unary `+`, `*` unpacking, chained
    /// comparisons) are not constants but Python, so they make host code.
    fn constant_segment(&self, segment: &[Token]) -> Result<(), Skip> {
        // Targets: names separated by commas, then `=`; a chain (`TR = TC = 128`) repeats
        // them.
        let kind = |j: usize| segment.get(j).map(|t| t.kind);
        let targets = |mut j: usize| -> Result<usize, Skip> {
            loop {
                if kind(j) != Some(Tok::Name) {
                    return Err(Skip::NotAssignment);
                }
                j += 1;
                match kind(j) {
                    Some(Tok::Comma) if kind(j + 1) == Some(Tok::Name) => j += 1,
                    Some(Tok::Assign) => return Ok(j),
                    Some(Tok::Colon) => return Err(Skip::Annotated),
                    _ => return Err(Skip::NotAssignment),
                }
            }
        };
        let mut j = targets(0)?;
        while let Ok(next) = targets(j + 1) {
            j = next;
        }
        let value = &segment[j + 1..];
        // A lone attribute chain of any root (`dtype = DataType.FP32`, a parametrize value
        // of a system test): lowering folds it when its root is an outside library (a
        // value known by its spelling) and notes it as host code otherwise.
        let lone_chain = value.len() >= 3
            && value.iter().enumerate().all(|(k, t)| t.kind == if k % 2 == 0 { Tok::Name } else { Tok::Dot })
            && value.len() % 2 == 1;
        if lone_chain {
            return Ok(());
        }
        // Comparison operators seen in the current operand list, per bracket depth.
        let mut comparisons: Vec<u32> = vec![0];
        // Per open brace: whether a `:` made it a dict (a set is not a pl constant), and
        // whether the current entry is still in its key (before the `:`).
        let mut braces: Vec<(usize, bool, bool)> = Vec::new();
        // Per open bracket: whether it reads a key or index of a value (`T[k]`), the only
        // place besides a dict key where a value of an outside library may stand.
        let mut keyed: Vec<bool> = Vec::new();
        for (k, t) in value.iter().enumerate() {
            let prev = k.checked_sub(1).map(|p| value[p].kind);
            let after_operand = matches!(
                prev,
                Some(
                    Tok::Int
                        | Tok::Float
                        | Tok::Str
                        | Tok::True
                        | Tok::False
                        | Tok::None
                        | Tok::Name
                        | Tok::RParen
                        | Tok::RBracket
                        | Tok::RBrace
                )
            );
            let depth = comparisons.len() - 1;
            let ok = match t.kind {
                Tok::Int | Tok::Float | Tok::Str | Tok::True | Tok::False | Tok::None | Tok::Name => true,
                // Binary only: unary `+` and `*`/`**` unpacking are not pl.
                Tok::Plus | Tok::Star | Tok::DoubleStar => after_operand,
                Tok::Minus | Tok::Tilde | Tok::Not => true,
                Tok::Slash
                | Tok::DoubleSlash
                | Tok::Percent
                | Tok::LShift
                | Tok::RShift
                | Tok::Amp
                | Tok::Pipe
                | Tok::Caret => true,
                // `in`/`not in` fold between constants (`not` is taken above).
                Tok::Lt | Tok::Gt | Tok::Le | Tok::Ge | Tok::EqEq | Tok::NotEq | Tok::In => {
                    comparisons[depth] += 1;
                    // A chained comparison is not pl.
                    comparisons[depth] < 2
                }
                Tok::Comma | Tok::And | Tok::Or => {
                    comparisons[depth] = 0;
                    if t.kind == Tok::Comma {
                        if let Some(b) = braces.last_mut().filter(|b| b.0 == depth) {
                            b.2 = true;
                        }
                    }
                    true
                }
                // A conditional expression, `A if COND else B`, between operands.
                Tok::If | Tok::Else => {
                    comparisons[depth] = 0;
                    after_operand
                }
                Tok::LParen => {
                    comparisons.push(0);
                    keyed.push(false);
                    match prev {
                        Some(Tok::Name) => {
                            let callee = self.canonical(self.chain(value, k - 1));
                            CONSTANT_CALLS.contains(&callee.as_str()) || is_byte_size(&callee)
                        }
                        Some(Tok::RParen | Tok::RBracket) => false,
                        _ => true,
                    }
                }
                Tok::LBracket => {
                    comparisons.push(0);
                    keyed.push(after_operand);
                    true
                }
                // Dict literals (`{"fp32": pl.FP32}`), read by constant keys.
                Tok::LBrace => {
                    comparisons.push(0);
                    keyed.push(false);
                    braces.push((comparisons.len() - 1, false, true));
                    true
                }
                Tok::Colon if braces.last().is_some_and(|b| b.0 == depth) => {
                    comparisons[depth] = 0;
                    let brace = braces.last_mut().expect("checked");
                    brace.1 = true;
                    brace.2 = false;
                    true
                }
                Tok::RBrace => {
                    let (_, dict, _) = braces.pop().unwrap_or((0, false, false));
                    if comparisons.len() > 1 {
                        comparisons.pop();
                    }
                    keyed.pop();
                    dict || prev == Some(Tok::LBrace)
                }
                Tok::RParen | Tok::RBracket => {
                    if comparisons.len() > 1 {
                        comparisons.pop();
                    }
                    keyed.pop();
                    true
                }
                // Keyword arguments of an allowed call; at the top, a chained assignment.
                Tok::Assign if depth == 0 => return Err(Skip::Chained),
                Tok::Assign => true,
                // Attribute chains are constants only on `pl` (`pl.FP32`, `pl.Level.CHIP`), `pld`
                // (`pld.ReduceOp.Sum`) and `math` (`math.inf`); in a dict's key or in the
                // key that reads one (`{DataType.FP32: pl.FP32}`, `T[DataType.FP32]`), any
                // chain: lowering compares a value of an outside library by its spelling.
                Tok::Dot => {
                    prev == Some(Tok::Name) && {
                        let root = self.chain_root(value, k - 1);
                        let key = match (braces.last(), keyed.last()) {
                            (Some(b), _) if b.0 == depth && depth > 0 => b.2,
                            (_, Some(&index)) => index,
                            _ => false,
                        };
                        key || root == "math" || self.pl.contains(&root) || self.pld.contains(&root)
                    }
                }
                _ => false,
            };
            if !ok {
                return Err(Skip::NotConstant);
            }
        }
        Ok(())
    }

    /// The dotted name ending at `value[k]` (a Name): `pl.dynamic` for `... pl . dynamic`.
    fn chain(&self, value: &[Token], k: usize) -> String {
        let mut first = k;
        while first >= 2 && value[first - 1].kind == Tok::Dot && value[first - 2].kind == Tok::Name {
            first -= 2;
        }
        value[first..=k].iter().map(|t| t.text(self.src)).collect()
    }

    /// A dotted name with an alias of `pypto.language` at its root spelled `pl`
    /// (`p.dynamic` → `pl.dynamic`).
    fn canonical(&self, chain: String) -> String {
        match chain.split_once('.') {
            Some((root, rest)) if root != "pl" && self.pl.contains(&root) => format!("pl.{rest}"),
            _ => chain,
        }
    }

    fn chain_root<'s>(&'s self, value: &[Token], k: usize) -> &'s str {
        let mut first = k;
        while first >= 2 && value[first - 1].kind == Tok::Dot && value[first - 2].kind == Tok::Name {
            first -= 2;
        }
        value[first].text(self.src)
    }

    /// Records a host item with its note, and a note for each pl definition inside it.
    fn host_item(&mut self, start: usize, end: usize, kind: HostKind, what: String) {
        let real = |t: &&Token| !matches!(t.kind, Tok::Newline | Tok::Indent | Tok::Dedent);
        let first = self.toks[start..end].iter().find(real).copied().unwrap_or(self.toks[start]);
        let last = self.toks[start..end].iter().rev().find(real).copied().unwrap_or(first);
        let span = first.span.to(last.span);
        // The label covers the item's first line only.
        let header_end = self.line_end(start).min(end);
        let header_last = self.toks[start..header_end].iter().rev().find(real).copied().unwrap_or(first);
        let header = first.span.to(header_last.span);

        let message = match kind {
            HostKind::MainGuard => {
                "host code skipped: the `if __name__ == \"__main__\":` block runs in Python, not in the compiled program".to_string()
            }
            HostKind::Compound(kw) => format!("host code skipped: a top-level `{kw}` statement runs in Python when the module is imported"),
            HostKind::Function | HostKind::Class => format!("host code skipped: {what}, so it is plain Python"),
            HostKind::Assignment => format!("host code skipped: {what}"),
            HostKind::Statement => "host code skipped: this statement runs in Python, not in the compiled program".to_string(),
        };
        self.diags.push(Diagnostic::note(
            Code::N0001,
            message,
            Label::primary(self.file, header, "skipped, not parsed"),
        ));
        self.check_bracket_depth(start, end);

        let mut dsl_defs = Vec::new();
        let mut j = start;
        while j < end {
            let at_line_start = j == start || matches!(self.toks[j - 1].kind, Tok::Newline | Tok::Indent | Tok::Dedent);
            if at_line_start && self.toks[j].kind == Tok::At && self.is_pl_decorator(j) {
                let deco_end = self.line_end(j);
                let deco = self.toks[j].span.to(self.toks[deco_end.saturating_sub(2).max(j)].span);
                let mut d = deco_end;
                while self.kind(d) == Some(Tok::At) {
                    d = self.line_end(d);
                }
                if self.kind(d) == Some(Tok::Async) {
                    d += 1;
                }
                if matches!(self.kind(d), Some(Tok::Def | Tok::Class)) && self.kind(d + 1) == Some(Tok::Name) {
                    let name = self.toks[d + 1];
                    dsl_defs.push((deco, name.span));
                    let what = if self.kind(d) == Some(Tok::Class) { "class" } else { "function" };
                    self.diags.push(
                        Diagnostic::note(
                            Code::N0002,
                            format!(
                                "`{}` {what} `{}` is defined inside host code, so plc does not compile it",
                                deco_text(self.src, deco),
                                name.text(self.src)
                            ),
                            Label::primary(self.file, name.span, "built by Python when the host code runs"),
                        )
                        .with_label(Label::secondary(self.file, header, "inside this host code"))
                        .with_help("move it to the top level of the module to compile it with plc"),
                    );
                }
                j = deco_end;
                continue;
            }
            j += 1;
        }
        let defines = self.top_level_names(start, end, kind);
        self.host.push(HostItem { kind, span, dsl_defs, defines, parsed: Vec::new() });
        self.ranges.push(start..end);
    }
}

impl Splitter<'_> {
    /// Host code is never parsed, but Python refuses it when its brackets nest more than
    /// 200 deep ("too many nested parentheses"), and so does plc: E0120 at the first
    /// bracket too many, once per host item. A run of more than 200 prefix operators
    /// (`- - - x`, `not not x`) is nesting too, refused the same way.
    fn check_bracket_depth(&mut self, start: usize, end: usize) {
        let limit = super::limits::MAX_EXPR_DEPTH;
        let (mut depth, mut prefix_run) = (0usize, 0usize);
        for tok in &self.toks[start..end] {
            prefix_run =
                if matches!(tok.kind, Tok::Minus | Tok::Plus | Tok::Tilde | Tok::Not) { prefix_run + 1 } else { 0 };
            if tok.kind.is_open_bracket() {
                depth += 1;
            } else if tok.kind.is_close_bracket() {
                depth = depth.saturating_sub(1);
            }
            // In a run of operators only the first may be a binary one (`a - -b`).
            if depth > limit || prefix_run > limit + 1 {
                let what = if depth > limit { "brackets" } else { "operators" };
                self.diags.push(
                    Diagnostic::error(
                        Code::E0120,
                        format!("too many nested {what} in host code (Python allows {limit} levels)"),
                        Label::primary(self.file, tok.span, "nested too deeply here"),
                    )
                    .with_help("Python refuses this module too; split the expression"),
                );
                return;
            }
        }
    }

    /// The names a host item binds at the top level.
    fn top_level_names(&self, start: usize, end: usize, kind: HostKind) -> Vec<Span> {
        match kind {
            HostKind::Function | HostKind::Class => {
                let mut j = start;
                while self.kind(j) == Some(Tok::At) {
                    j = self.line_end(j);
                }
                while j < end && !matches!(self.kind(j), Some(Tok::Def | Tok::Class)) {
                    j += 1;
                }
                match self.kind(j + 1) {
                    Some(Tok::Name) => vec![self.toks[j + 1].span],
                    _ => Vec::new(),
                }
            }
            HostKind::Assignment => {
                let mut names = Vec::new();
                let mut j = start;
                while self.kind(j) == Some(Tok::Name) {
                    names.push(self.toks[j].span);
                    match self.kind(j + 1) {
                        Some(Tok::Comma) => j += 2,
                        _ => break,
                    }
                }
                names
            }
            // The targets of a top-level `for` (`for pl in ...:`) and the names after
            // `as` in a top-level `with` header bind module names too.
            HostKind::Compound("for") => {
                let mut names = Vec::new();
                let mut j = start + 1;
                while j < end && !matches!(self.kind(j), Some(Tok::In | Tok::Newline) | None) {
                    if self.kind(j) == Some(Tok::Name) {
                        names.push(self.toks[j].span);
                    }
                    j += 1;
                }
                names
            }
            HostKind::Compound("with") => {
                let header_end = self.line_end(start).min(end);
                (start..header_end)
                    .filter(|&j| self.kind(j) == Some(Tok::As) && self.kind(j + 1) == Some(Tok::Name))
                    .map(|j| self.toks[j + 1].span)
                    .collect()
            }
            _ => Vec::new(),
        }
    }
}

/// `@pl.jit` for a decorator span, without its arguments.
fn deco_text(src: &str, span: Span) -> &str {
    let text = &src[span.lo as usize..span.hi as usize];
    text.split('(').next().unwrap_or(text).trim()
}
