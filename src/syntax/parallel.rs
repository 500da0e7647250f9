//! A large file's front end run in parts in parallel (rayon), then joined into the one
//! tree, host items and notes the front end of the whole file makes, node for node and
//! name for name.
//!
//! [`front`]: the text is cut before lines that begin at column 0 with `@`, `def` or
//! `class` (not after a decorator line); each part is lexed, laid out, split from its host
//! code and parsed on a thread of its own, with the import aliases of the whole file
//! (gathered between the layout and the split). A cut is speculative: it is kept when the
//! lexing of the part before ends there at a token (not inside a triple-quoted string) and
//! its layout ends at the top level (no bracket or line open, no block expected, no
//! decorator last); otherwise, or when a part has a diagnostic other than a note, the file
//! goes to the serial front end, which reports the errors as always.
//!
//! [`parse`], used by the serial front end on a file without errors so far: the laid-out
//! tokens are cut before a top-level `@`, `def` or `class` that begins a new statement
//! (not one after a decorator line), so each part is a run of whole top-level statements.
//!
//! Either way each part is parsed as a module of its own with names interned into an
//! interner of its own. The parts are joined in source order: each part's names are
//! interned into the file's interner in the order the part first met them (which is the
//! order the parse of the whole file interns them), and its expression and statement ids
//! are moved past the parts before it (the whole file's parse allocates the parts' nodes
//! one part after the other). A part that has an error token, a syntax error or an error
//! recovery gives the file back to the serial parse, which reports the errors as always.

use super::ast::*;
use super::builder::Builder;
use super::host::{self, Aliases};
use super::lexer::{self, Token};
use super::token::Tok;
use crate::diag::Diagnostic;
use crate::intern::{Interner, Symbol};
use crate::ir::fork::{self, lock, InOrder};
use crate::source::FileId;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// Files with fewer tokens than this are parsed serially (a part costs a parser, an
/// interner and a join).
const MIN_TOKENS: usize = 16_384;
/// The least number of tokens of a part.
const MIN_PART: usize = 4_096;
/// Files shorter than this are lexed and laid out serially (about `MIN_TOKENS` tokens).
const MIN_BYTES: usize = 64 << 10;
/// The least length of a part of the text (about `MIN_PART` tokens).
const MIN_PART_BYTES: usize = 16 << 10;

/// One part parsed on its own.
struct Part {
    ast: Ast,
    names: Interner,
    /// The `limits` and `restrict` checks found nothing in it.
    checked: bool,
}

/// The front end's result for a file made in parts ([`front`]).
#[derive(Default)]
pub(super) struct Front {
    pub ast: Ast,
    /// The `limits` and `restrict` checks ran on the parts and found nothing.
    pub checked: bool,
    pub host: Vec<HostItem>,
    /// The laid-out tokens of each host item to be parsed after the module (see
    /// `syntax::host_tokens`).
    pub host_tokens: Vec<Vec<Token>>,
    /// The host splitter's notes, in source order.
    pub notes: Vec<Diagnostic>,
}

/// The lengths of the parts of a text of `len` bytes on `threads` threads: an eighth of the
/// text per thread while much of it is left, then smaller and smaller parts toward its end
/// (a share of what is left, down to [`MIN_PART_BYTES`]), so that the thread that finishes
/// its last part first waits little for the other's ("guided" scheduling: same-sized parts
/// left a tail of up to a whole part, 10 ms of one thread on gen(10000)).
#[derive(Clone, Copy)]
struct PartSize {
    largest: usize,
    threads: usize,
}

fn part_size(len: usize, threads: usize) -> PartSize {
    PartSize { largest: (len / (threads * 4)).max(MIN_PART_BYTES), threads }
}

impl PartSize {
    /// The length of the next part when `left` bytes of the text are left.
    fn next(self, left: usize) -> usize {
        fork::guided_len(left, self.threads, self.largest, MIN_PART_BYTES)
    }
}

thread_local! {
    /// Set while [`serially`] runs: this thread's parses stay on it.
    static SERIAL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with every parse it makes on this thread serial, not split across rayon's
/// pool (and every file it reads read in one piece): for a thread that must answer at once
/// while the pool may be busy with long work (the language server's message loop parsing the unit a hover asks about while a worker
/// parses the whole text on the pool, docs/lsp.md). The same trees either way.
pub fn serially<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            SERIAL.set(self.0);
        }
    }
    let _restore = Restore(SERIAL.replace(true));
    f()
}

/// The threads a parse (or a read of its file, `source::read_source`) may use: rayon's,
/// unless inside [`serially`].
pub(crate) fn threads() -> usize {
    if SERIAL.get() {
        1
    } else {
        rayon::current_num_threads()
    }
}

/// The front end of `src` (lexing, layout, host split, parse, and the `limits` and
/// `restrict` checks) run in parts in parallel: what the serial front end makes, or `None`
/// when the file is small, there is one thread, a cut turns out not to be between two
/// top-level statements, or a part has a diagnostic other than a host note (the caller
/// runs the serial front end then). Nothing is interned unless the result is returned.
pub(super) fn front(file: FileId, src: &str, ascii: bool, interner: &mut Interner) -> Option<Front> {
    let threads = threads();
    if threads < 2 || src.len() < MIN_BYTES {
        return None;
    }
    let cuts = text_cuts(src, part_size(src.len(), threads));
    if cuts.len() < 2 {
        return None;
    }
    let end = |k: usize| part_end(src, &cuts, k);
    if let Some(aliases) = header_aliases(file, src, ascii, end(0) as usize) {
        return pipelined(file, src, ascii, interner, &cuts, &aliases);
    }
    // The parts begun in order, the smallest last ([`PartSize`]); once one part fails, the
    // parts not begun are skipped.
    let lex_failed = AtomicBool::new(false);
    let laid: Vec<(Vec<Token>, Aliases)> = fork::in_order(
        (0..cuts.len()).collect(),
        || (),
        |_, _, k| {
            if lex_failed.load(Ordering::Relaxed) {
                return None;
            }
            let laid = lay_out_part(file, src, ascii, cuts[k], end(k));
            if laid.is_none() {
                lex_failed.store(true, Ordering::Relaxed);
            }
            laid
        },
    )
    .into_iter()
    .collect::<Option<Vec<_>>>()?;
    let (laid, mut parts_aliases): (Vec<Vec<Token>>, Vec<Aliases>) = laid.into_iter().unzip();
    let mut aliases = parts_aliases.remove(0);
    parts_aliases.into_iter().for_each(|later| aliases.extend(later));
    // Room for the names of the whole compile made once: each growth of the interner's
    // table rehashes every name, on the serial path (where the parts' names, and later
    // the passes' runs', are joined). A name per 128 bytes is a few more than gen(N) has.
    interner.reserve(src.len() / 128);
    // Each part's tree, and its host items and notes (in a `Front` of its own), joined as
    // soon as the parts before it are.
    let joiner = Joiner::new(laid.len(), interner);
    fork::in_order(
        laid,
        || (),
        |_, k, tokens| {
            if joiner.failed() {
                return joiner.done(k, None);
            }
            joiner.done(k, split_and_parse(file, src, ascii, tokens, &aliases))
        },
    );
    joiner.finish(interner)
}

/// The word every statement that binds an alias ([`Aliases`]) holds: `import`.
const IMPORT: &[u8] = b"import";

/// The aliases of the whole file when every `import` in its text comes before the end of
/// the first part (`first_end`) and before a line of that part that begins a top-level
/// definition: those of the header up to that line, laid out on its own (a few lines, as a
/// rule). `None` otherwise, or when the header does not lay out cleanly.
fn header_aliases<'s>(file: FileId, src: &'s str, ascii: bool, first_end: usize) -> Option<Aliases<'s>> {
    let bytes = src.as_bytes();
    let Some(last) = memchr::memmem::rfind(bytes, IMPORT) else {
        // No import: the aliases every file has.
        return Some(Aliases::of(src, &[]));
    };
    if last >= first_end {
        return None;
    }
    let after = last + memchr::memchr(b'\n', &bytes[last..first_end])? + 1;
    let lines =
        std::iter::once(after).chain(memchr::memchr_iter(b'\n', &bytes[after..first_end]).map(|i| after + i + 1));
    let header_end = lines.take_while(|&line| line < first_end).find(|&line| begins_definition(bytes, line))?;
    let (_, aliases) = lay_out_part(file, src, ascii, 0, header_end as u32)?;
    Some(aliases)
}

/// Where part `k` of the text, cut at `cuts`, ends: at the next cut, or at the end.
fn part_end(src: &str, cuts: &[u32], k: usize) -> u32 {
    cuts.get(k + 1).copied().unwrap_or(src.len() as u32)
}

/// [`front`] when the file's aliases are known before its parts are laid out
/// ([`header_aliases`]): each part is laid out, split and parsed in one go on its thread,
/// and its tokens are freed as soon as it is parsed, so that a later part's are made in
/// memory already written (`small_alloc`'s kept blocks) rather than every part's tokens
/// being held until the last part is laid out.
fn pipelined(
    file: FileId,
    src: &str,
    ascii: bool,
    interner: &mut Interner,
    cuts: &[u32],
    aliases: &Aliases<'_>,
) -> Option<Front> {
    #[cfg(test)]
    PIPELINED.set(PIPELINED.get() + 1);
    let end = |k: usize| part_end(src, cuts, k);
    interner.reserve(src.len() / 128);
    let joiner = Joiner::new(cuts.len(), interner);
    fork::in_order(
        (0..cuts.len()).collect(),
        || (),
        |_, k, _| {
            let laid = if joiner.failed() { None } else { lay_out_part(file, src, ascii, cuts[k], end(k)) };
            let Some((tokens, _)) = laid else { return joiner.done(k, None) };
            joiner.done(k, split_and_parse(file, src, ascii, tokens, aliases))
        },
    );
    joiner.finish(interner)
}

/// One laid-out part split from its host code with the file's `aliases` and parsed: its
/// tree, and its host items and notes (in a `Front` of its own); `None` when the split or
/// the parse found an error. Its tokens are freed on return.
fn split_and_parse(
    file: FileId,
    src: &str,
    ascii: bool,
    tokens: Vec<Token>,
    aliases: &Aliases<'_>,
) -> Option<(Part, Front)> {
    let mut notes = Vec::new();
    let (dsl, host, host_tokens) = host::split_in_place(file, src, tokens, Some(aliases), &mut notes);
    if notes.iter().any(Diagnostic::is_error) {
        return None;
    }
    let part = parse_part(file, src, ascii, &dsl)?;
    Some((part, Front { ast: Ast::default(), checked: true, host, host_tokens, notes }))
}

#[cfg(test)]
thread_local! {
    /// How many files this thread's front end took part by part ([`pipelined`]).
    static PIPELINED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Part `from..to` of the text lexed and laid out on its own, with its aliases; `None` when
/// it does not begin and end between two top-level statements or has a diagnostic.
fn lay_out_part<'s>(file: FileId, src: &'s str, ascii: bool, from: u32, to: u32) -> Option<(Vec<Token>, Aliases<'s>)> {
    let (mut lexed, mut diags) = (Vec::new(), Vec::new());
    let mut raw = lexer::Lexer::new(file, src, from, to, !ascii, &mut lexed);
    let tokens = super::layout::layout_part(file, src, &mut raw, from, to, &mut diags)?;
    if !raw.at_boundary() || !lexed.is_empty() || !diags.is_empty() {
        return None;
    }
    let aliases = Aliases::of(src, &tokens);
    Some((tokens, aliases))
}

/// Where the parts of the text begin (the first at 0): at the first line at or after the
/// next part's length ([`PartSize::next`]) from the last cut that begins at column 0 with
/// `@`, `def` or `class`, and whose last line before beginning at column 0 (blank and comment lines aside) begins
/// neither with `@` nor with a closing bracket (the end of a decorator over several lines).
/// Such a line may still be inside a bracket or a string: [`front`] checks.
fn text_cuts(src: &str, size: PartSize) -> Vec<u32> {
    let bytes = src.as_bytes();
    let mut cuts = vec![0u32];
    let mut from = size.next(bytes.len());
    while from < bytes.len() {
        let next = memchr::memchr_iter(b'\n', &bytes[from..])
            .map(|i| from + i + 1)
            .find(|&line| begins_definition(bytes, line));
        let Some(at) = next else { break };
        cuts.push(at as u32);
        from = at + size.next(bytes.len() - at);
    }
    cuts
}

/// Whether the line at `line` begins a top-level definition not after a decorator line.
fn begins_definition(bytes: &[u8], line: usize) -> bool {
    let rest = &bytes[line..];
    let keyword = |kw: &[u8]| rest.starts_with(kw) && matches!(rest.get(kw.len()), Some(b' ' | b'\t'));
    (rest.first() == Some(&b'@') || keyword(b"def") || keyword(b"class")) && !after_decorator(bytes, line)
}

/// Whether the last line before `line` (a line start after a `\n`) that begins at column 0
/// with neither a comment nor a line break begins with `@` or a closing bracket.
fn after_decorator(bytes: &[u8], line: usize) -> bool {
    let mut end = line - 1;
    loop {
        let start = memchr::memrchr(b'\n', &bytes[..end]).map_or(0, |i| i + 1);
        match bytes[start..end].first() {
            None | Some(b' ' | b'\t' | b'\r' | b'\x0C' | b'#') => {}
            Some(&first) => return matches!(first, b'@' | b')' | b']' | b'}'),
        }
        if start == 0 {
            return false;
        }
        end = start - 1;
    }
}

/// The tree of `dsl` (the file's pl tokens after layout, host code set aside), parsed in
/// parts in parallel, and whether the `limits` and `restrict` checks, run on each part,
/// found nothing (then they find nothing in the whole tree either: both check each
/// top-level statement on its own, and `limits` changes only what it reports); `None` when
/// the file is small, there is one thread, or a part did not parse cleanly or has an
/// expression `limits` cuts out (the caller parses it serially then). Nothing is interned
/// unless the tree is returned.
pub(super) fn parse(
    file: FileId,
    src: &str,
    ascii: bool,
    dsl: &[Token],
    interner: &mut Interner,
) -> Option<(Ast, bool)> {
    let threads = threads();
    if threads < 2 || dsl.len() < MIN_TOKENS {
        return None;
    }
    let cuts = cuts(dsl, (dsl.len() / (threads * 4)).max(MIN_PART));
    if cuts.len() < 2 {
        return None;
    }
    let joiner = Joiner::new(cuts.len(), interner);
    fork::in_order(
        cuts.clone(),
        || (),
        |_, k, at| {
            let end = cuts.get(k + 1).copied().unwrap_or(dsl.len());
            let part = match joiner.failed() {
                true => None,
                false => parse_part(file, src, ascii, &dsl[at..end]),
            };
            joiner.done(k, part.map(|part| (part, Front::default())))
        },
    );
    joiner.finish(interner).map(|front| (front.ast, front.checked))
}

/// The parts' trees (with their host items and notes) joined into one, in source order,
/// each as soon as the parts before it are, on the thread that finished it, while later
/// parts are still parsed: its names interned (into an interner over the file's, so that
/// nothing is interned in the file's unless every part parses), its ids moved past the
/// parts' before it while its nodes are still in the thread's cache, and its arenas made
/// parts of the tree's (`ast::Nodes`: its nodes are not copied). One part
/// is joined at a time, not under the lock: a part done meanwhile is left for the thread
/// that is joining.
struct Joiner {
    /// The file's interner, frozen until the finish.
    base: Arc<Interner>,
    state: Mutex<Joining>,
    /// A part did not parse cleanly: the file goes to the serial front end.
    failed: AtomicBool,
}

struct Joining {
    /// The parts done and not joined yet (`None`: failed).
    pending: InOrder<Option<(Part, Front)>>,
    /// What the joined parts made, with their names in an interner over the file's;
    /// `None` while a thread joins a part.
    joined: Option<(Front, Interner)>,
}

impl Joiner {
    fn new(parts: usize, interner: &mut Interner) -> Joiner {
        let base = Arc::new(std::mem::take(interner));
        let front = Front { checked: true, ..Front::default() };
        let state = Joining { pending: InOrder::new(parts), joined: Some((front, Interner::forked(&base))) };
        Joiner { base, state: Mutex::new(state), failed: AtomicBool::new(false) }
    }

    fn failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }

    /// Part `k` is done (`None`: it failed); the parts ready are joined in order, unless
    /// another thread is joining (it joins this one too before it stops).
    fn done(&self, k: usize, part: Option<(Part, Front)>) {
        if part.is_none() {
            self.failed.store(true, Ordering::Relaxed);
        }
        let mut state = lock(&self.state);
        state.pending.put(k, part);
        loop {
            let Some(joined) = state.joined.take() else { return };
            let Some((next, part)) = state.pending.next() else {
                state.joined = Some(joined);
                return;
            };
            drop(state);
            let joined = match part {
                Some(part) if !self.failed() => self.join(joined, part, next == 0),
                _ => joined,
            };
            state = lock(&self.state);
            state.joined = Some(joined);
        }
    }

    /// `part` joined to what the parts before it made (nothing, for the `first`).
    fn join(
        &self,
        (mut front, mut names): (Front, Interner),
        (mut part, mut each): (Part, Front),
        first: bool,
    ) -> (Front, Interner) {
        let shift = Shift {
            exprs: front.ast.exprs.len() as u32,
            stmts: front.ast.stmts.len() as u32,
            lists: front.ast.lists.lens().map(|len| len as u32),
            names: part.names.names().map(|name| names.intern(name)).collect(),
        };
        shift.ast(&mut part.ast);
        front.checked &= part.checked;
        front.host.append(&mut each.host);
        front.host_tokens.append(&mut each.host_tokens);
        front.notes.append(&mut each.notes);
        // The first part's tree is the file's; the later parts' arenas become parts of its
        // (their nodes stay where the part's parser made them: no copy).
        if first {
            front.ast = part.ast;
        } else {
            front.ast.exprs.append(part.ast.exprs);
            front.ast.stmts.append(part.ast.stmts);
            front.ast.lists.append(part.ast.lists);
            front.ast.body.append(&mut part.ast.body);
        }
        (front, names)
    }

    /// The joined front end, and the joined parts' names interned into `interner` (the
    /// file's, given back) in order; `None`, with nothing interned, when a part failed.
    fn finish(self, interner: &mut Interner) -> Option<Front> {
        let Joiner { base, state, failed, .. } = self;
        let Joining { pending, joined } = state.into_inner().unwrap_or_else(PoisonError::into_inner);
        let complete = !failed.into_inner() && pending.all_handed_on();
        drop(pending);
        let (front, names) = joined.unzip();
        let made = names.map(Interner::own_names);
        *interner = Arc::try_unwrap(base).unwrap_or_else(|b| (*b).clone());
        let (front, made) = (front.filter(|_| complete)?, made?);
        interner.absorb(made);
        Some(front)
    }
}

/// Where the parts begin (the first at 0): before a top-level `@`, `def` or `class` that
/// begins a logical line after a line that is not a decorator, once the part before has at
/// least `least` tokens.
fn cuts(dsl: &[Token], least: usize) -> Vec<usize> {
    let mut cuts = vec![0];
    let mut depth = 0usize;
    // The last line begun at the top level is a decorator (`@...`).
    let mut decorated = false;
    for (i, t) in dsl.iter().enumerate() {
        let starts_line = i == 0 || matches!(dsl[i - 1].kind, Tok::Newline | Tok::Dedent);
        match t.kind {
            Tok::Indent => depth += 1,
            Tok::Dedent => depth = depth.saturating_sub(1),
            kind if depth == 0 && starts_line => {
                let last = cuts.last().copied().unwrap_or(0);
                if matches!(kind, Tok::At | Tok::Def | Tok::Class) && !decorated && i - last >= least {
                    cuts.push(i);
                }
                decorated = kind == Tok::At;
            }
            _ => {}
        }
    }
    cuts
}

/// One part parsed as a module into arenas of its own, or `None` when it has an error token,
/// the parser reported or recovered from an error, or `limits` cut an expression out.
fn parse_part(file: FileId, src: &str, ascii: bool, tokens: &[Token]) -> Option<Part> {
    if tokens.iter().any(|t| t.kind == Tok::Error) {
        return None;
    }
    let mut names = Interner::new();
    // Arenas large enough for most parts (pl code makes about 0.45 expressions and 0.07
    // statements a token): grown, they would be copied, page after page.
    let arenas = Ast {
        exprs: Nodes::with_capacity(tokens.len() / 2),
        stmts: Nodes::with_capacity(tokens.len() / 8),
        lists: Lists::with_capacity(tokens.len()),
        ..Ast::default()
    };
    let mut builder = Builder::new(file, src, &mut names, arenas, ascii);
    let parsed = super::descent::parse(&mut builder, tokens).is_ok();
    let (limits, (restrict, restrict_exprs)) = (builder.limits_may_cut(), builder.restrict_may_refuse());
    let Builder { mut ast, diags, seen, .. } = builder;
    if !parsed || !diags.is_empty() || seen.error_node {
        return None;
    }
    let mut found = Vec::new();
    if limits {
        super::limits::check(file, &mut ast, &mut found);
        if !found.is_empty() {
            return None;
        }
    }
    // Findings set aside for a body with `role=` count as findings: the whole tree is
    // checked again, which records them with the file's ids.
    let deferred =
        if restrict { super::restrict::check(file, src, &ast, restrict_exprs, &mut found) } else { Vec::new() };
    Some(Part { ast, names, checked: found.is_empty() && deferred.is_empty() })
}

/// How a part's ids and names move into the file's tree.
struct Shift {
    exprs: u32,
    stmts: u32,
    /// Where the part's lists go in the file's ([`Lists::lens`]'s order).
    lists: [u32; 5],
    /// The file's symbol of each of the part's symbols, by the part's index.
    names: Vec<Symbol>,
}

impl Shift {
    fn ast(&self, ast: &mut Ast) {
        for e in ast.exprs.iter_mut() {
            self.expr(&mut e.kind);
        }
        for s in ast.stmts.iter_mut() {
            self.stmt(&mut s.kind);
        }
        ast.body.iter_mut().for_each(|s| self.s(s));
        ast.lists.exprs.iter_mut().for_each(|e| self.e(e));
        ast.lists.stmts.iter_mut().for_each(|s| self.s(s));
        ast.lists.args.iter_mut().for_each(|a| self.arg(a));
        for WithItem { context, target, span: _ } in ast.lists.with_items.iter_mut() {
            self.e(context);
            self.oe(target);
        }
    }

    /// A list's place in the file's lists (the one empty list stays as it is).
    fn seq<T>(&self, seq: &mut Seq<T>, k: usize) {
        if !seq.is_empty() {
            seq.start += self.lists[k];
        }
    }

    fn e(&self, id: &mut ExprId) {
        id.0 += self.exprs;
    }

    fn oe(&self, id: &mut Option<ExprId>) {
        if let Some(id) = id {
            self.e(id);
        }
    }

    fn s(&self, id: &mut StmtId) {
        id.0 += self.stmts;
    }

    fn sym(&self, sym: &mut Symbol) {
        *sym = self.names[sym.index()];
    }

    fn ident(&self, ident: &mut Ident) {
        self.sym(&mut ident.name);
    }

    fn block(&self, block: &mut Block) {
        self.seq(&mut block.stmts, 1);
    }

    fn oblock(&self, block: &mut Option<Block>) {
        if let Some(b) = block {
            self.block(b);
        }
    }

    fn params(&self, params: &mut [Param]) {
        for Param { kind: _, name, annotation, default, span: _ } in params {
            if let Some(name) = name {
                self.ident(name);
            }
            self.oe(annotation);
            self.oe(default);
        }
    }

    fn args(&self, args: &mut [Arg]) {
        args.iter_mut().for_each(|a| self.arg(a));
    }

    fn arg(&self, Arg { kind, value, span: _ }: &mut Arg) {
        if let ArgKind::Keyword(name) = kind {
            self.ident(name);
        }
        self.e(value);
    }

    fn dotted(&self, name: &mut DottedName) {
        name.parts.iter_mut().for_each(|p| self.ident(p));
    }

    fn imports(&self, names: &mut [ImportName]) {
        for ImportName { name, alias, span: _ } in names {
            self.dotted(name);
            if let Some(alias) = alias {
                self.ident(alias);
            }
        }
    }

    fn expr(&self, kind: &mut ExprKind) {
        match kind {
            ExprKind::Name(sym) => self.sym(sym),
            ExprKind::Str(pieces) => self.seq(pieces, 4),
            // The other literals (`Str` is matched above).
            #[allow(unreachable_patterns)]
            literal_kinds!() | ExprKind::Error => {}
            ExprKind::Attribute { value, attr } => {
                self.e(value);
                self.ident(attr);
            }
            ExprKind::Call { func, args } => {
                self.e(func);
                self.seq(args, 2);
            }
            ExprKind::Subscript { value, index } => {
                self.e(value);
                self.e(index);
            }
            ExprKind::Slice { lower, upper, step } => {
                self.oe(lower);
                self.oe(upper);
                self.oe(step);
            }
            ExprKind::List(items) | ExprKind::Tuple(items) | ExprKind::Set(items) => self.seq(items, 0),
            ExprKind::Dict(entries) => {
                for DictEntry { key, value } in entries {
                    self.oe(key);
                    self.e(value);
                }
            }
            ExprKind::Comprehension { kind: _, elt, value, generators } => {
                self.e(elt);
                self.oe(value);
                for Generator { target, iter, ifs, span: _ } in generators {
                    self.e(target);
                    self.e(iter);
                    ifs.iter_mut().for_each(|e| self.e(e));
                }
            }
            ExprKind::Unary { op: _, operand } => self.e(operand),
            ExprKind::Binary { op: _, lhs, rhs } | ExprKind::Bool { op: _, lhs, rhs } => {
                self.e(lhs);
                self.e(rhs);
            }
            ExprKind::Compare { first, rest } => {
                self.e(first);
                rest.iter_mut().for_each(|(_, e)| self.e(e));
            }
            ExprKind::IfExp { test, body, orelse } => {
                self.e(test);
                self.e(body);
                self.e(orelse);
            }
            ExprKind::Lambda { params, body } => {
                self.params(params);
                self.e(body);
            }
            ExprKind::Starred(e) | ExprKind::Await(e) => self.e(e),
            ExprKind::NamedExpr { target, value } => {
                self.e(target);
                self.e(value);
            }
            ExprKind::Yield(e) => self.oe(e),
        }
    }

    fn stmt(&self, kind: &mut StmtKind) {
        match kind {
            StmtKind::Expr(e) => self.e(e),
            StmtKind::Assign { targets, value } => {
                self.seq(targets, 0);
                self.e(value);
            }
            StmtKind::AnnAssign { target, annotation, value } => {
                self.e(target);
                self.e(annotation);
                self.oe(value);
            }
            StmtKind::AugAssign { target, op: _, value } => {
                self.e(target);
                self.e(value);
            }
            StmtKind::Return(value) => self.oe(value),
            StmtKind::Pass | StmtKind::Break | StmtKind::Continue | StmtKind::Error => {}
            StmtKind::If { branches, orelse } => {
                for IfBranch { test, body, span: _ } in branches {
                    self.e(test);
                    self.block(body);
                }
                self.oblock(orelse);
            }
            StmtKind::For { target, iter, body, orelse } => {
                self.e(target);
                self.e(iter);
                self.block(body);
                self.oblock(orelse);
            }
            StmtKind::While { test, body, orelse } => {
                self.e(test);
                self.block(body);
                self.oblock(orelse);
            }
            StmtKind::With { items, body } => {
                self.seq(items, 3);
                self.block(body);
            }
            StmtKind::FunctionDef(def) => {
                let FunctionDef { decorators, name, params, returns, body, is_async: _ } = &mut **def;
                decorators.iter_mut().for_each(|d| self.e(&mut d.expr));
                self.ident(name);
                self.params(params);
                self.oe(returns);
                self.block(body);
            }
            StmtKind::ClassDef(def) => {
                let ClassDef { decorators, bases, name, body } = &mut **def;
                decorators.iter_mut().for_each(|d| self.e(&mut d.expr));
                self.args(bases);
                self.ident(name);
                self.block(body);
            }
            StmtKind::Import(names) => self.imports(names),
            StmtKind::ImportFrom { level: _, module, names, star: _ } => {
                if let Some(module) = module {
                    self.dotted(module);
                }
                self.imports(names);
            }
            StmtKind::Unsupported { construct: _, exprs, blocks } => {
                exprs.iter_mut().for_each(|e| self.e(e));
                blocks.iter_mut().for_each(|b| self.block(b));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Diagnostic;

    /// Top-level forms of every kind, repeated: decorated functions and classes with
    /// methods, imports, constants, and expressions of every node kind.
    fn program(copies: usize) -> String {
        let mut src = String::from("import pypto.language as pl\nfrom os import path as p, sep\n\nN = 4\n");
        for i in 0..copies {
            src.push_str(&format!(
                "
@pl.function(type=pl.FunctionType.InCore)
def f_{i}(a: pl.Tensor[[N, 8], pl.FP32], *rest, k=1, **kw) -> pl.Tensor:
    x = [v * 2 for v in range(3) if v > 0 and not v]
    y = {{\"k\": 1, **kw}}, {{1, 2}}, a[1:2, ::3], -x ** 2 | 3 & 4 ^ 5 << 1
    if 0 < x <= 3 is not None:
        z = x if x else (lambda q, r=2: q + r)(1, r=3)
    elif (w := 5) in [1]:
        pass
    else:
        for j, k2 in zip(x, y):
            continue
    while x:
        break
    with pl.at(level=pl.Level.CORE_GROUP) as s:
        t: pl.Tensor = pl.load(a, [0, 0], [N, 8])
        t += 1
    return f\"{{x}}\" \"tail_{i}\"

@pl.program
class P_{i}:
    @pl.function
    def m(self, b: pl.Tensor) -> pl.Tensor:
        return b
    def n_{i}(self, *, c):
        yield c

def g_{i}(u):
    assert u, \"msg\"
    del u
    global N
"
            ));
        }
        src
    }

    fn parse_with(threads: usize, src: &str) -> (Ast, Interner, Vec<Diagnostic>) {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a thread pool");
        pool.install(|| {
            let mut interner = Interner::new();
            let mut diags = Vec::new();
            let ast = super::super::parse(FileId(0), src, &mut interner, &mut diags);
            (ast, interner, diags)
        })
    }

    #[test]
    fn parts_make_the_tree_of_the_whole_file() {
        let src = program(150);
        let (serial, serial_names, serial_diags) = parse_with(1, &src);
        let (par, par_names, par_diags) = parse_with(4, &src);
        // The parts were parsed in parallel.
        let mut diags = Vec::new();
        let dsl = super::super::tokens(FileId(0), &src, &mut diags);
        let (dsl, _, _) = super::super::host::split(FileId(0), &src, &dsl, &mut diags);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().expect("a thread pool");
        assert!(pool.install(|| cuts(&dsl, MIN_PART).len() > 4
            && parse(FileId(0), &src, src.is_ascii(), &dsl, &mut Interner::new()).is_some()));
        // So was the whole front end.
        assert!(text_cuts(&src, part_size(src.len(), 4)).len() > 4);
        assert!(pool.install(|| front(FileId(0), &src, true, &mut Interner::new()).is_some()));
        assert!(serial_diags.iter().any(|d| d.code == crate::diag::Code::N0001));
        assert!(serial.exprs.len() > 10_000);
        assert!(serial.exprs == par.exprs);
        assert!(serial.stmts == par.stmts);
        assert!(serial.lists == par.lists);
        assert_eq!(serial.body, par.body);
        assert_eq!(serial.host, par.host);
        assert_eq!(serial_names.names().collect::<Vec<_>>(), par_names.names().collect::<Vec<_>>());
        assert_eq!(format!("{serial_diags:?}"), format!("{par_diags:?}"));
    }

    /// Functions without a form `restrict` refuses, and with `extra` in the middle one.
    fn clean_program(copies: usize, extra: &str) -> String {
        let mut src = String::from("import pypto.language as pl\n");
        for i in 0..copies {
            let body = if i == copies / 2 { extra } else { "x = a" };
            src.push_str(&format!(
                "\n@pl.jit\ndef e_{i}(a: pl.Tensor, b: pl.InOut[pl.Tensor]):\n    for i in pl.range(4):\n        \
                 with pl.at(level=pl.Level.CORE_GROUP):\n            t = pl.load(a, [i * 8, 0], [8, 8])\n            \
                 pl.store(pl.add(t, t), [0, 0], b)\n    {body}\n    return b\n"
            ));
        }
        src
    }

    /// Inside `serially` a large file is parsed on the calling thread alone, even on a
    /// pool of four, into the same tree; the parallel path is back afterwards.
    #[test]
    fn a_parse_made_serially_stays_on_its_thread_and_makes_the_same_tree() {
        let src = program(150);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().expect("a thread pool");
        pool.install(|| {
            assert!(front(FileId(0), &src, true, &mut Interner::new()).is_some());
            assert!(serially(|| front(FileId(0), &src, true, &mut Interner::new()).is_none()));
            let mut diags = Vec::new();
            let dsl = super::super::tokens(FileId(0), &src, &mut diags);
            let (dsl, _, _) = super::super::host::split(FileId(0), &src, &dsl, &mut diags);
            assert!(serially(|| parse(FileId(0), &src, src.is_ascii(), &dsl, &mut Interner::new())).is_none());
            assert_eq!(threads(), 4);
        });
        let (par, par_names, par_diags) = parse_with(4, &src);
        let (alone, alone_names, alone_diags) = pool.install(|| {
            serially(|| {
                let (mut names, mut diags) = (Interner::new(), Vec::new());
                (super::super::parse(FileId(0), &src, &mut names, &mut diags), names, diags)
            })
        });
        assert!(
            alone.exprs == par.exprs && alone.stmts == par.stmts && alone.body == par.body && alone.lists == par.lists
        );
        assert_eq!(alone_names.names().collect::<Vec<_>>(), par_names.names().collect::<Vec<_>>());
        assert_eq!(format!("{alone_diags:?}"), format!("{par_diags:?}"));
    }

    #[test]
    fn the_checks_run_on_the_parts_when_they_find_nothing() {
        let src = clean_program(400, "x = a");
        let mut diags = Vec::new();
        let dsl = super::super::tokens(FileId(0), &src, &mut diags);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().expect("a thread pool");
        let parsed = pool.install(|| parse(FileId(0), &src, src.is_ascii(), &dsl, &mut Interner::new()));
        assert!(matches!(parsed, Some((_, true))));
        let (serial, serial_names, serial_diags) = parse_with(1, &src);
        let (par, par_names, par_diags) = parse_with(4, &src);
        assert!(serial_diags.is_empty() && par_diags.is_empty());
        assert!(
            serial.exprs == par.exprs
                && serial.stmts == par.stmts
                && serial.body == par.body
                && serial.lists == par.lists
        );
        assert_eq!(serial_names.names().collect::<Vec<_>>(), par_names.names().collect::<Vec<_>>());
    }

    #[test]
    fn an_expression_too_long_in_a_part_is_reported_as_by_the_serial_parse() {
        let long = format!("x = 1{}", " + 1".repeat(10_050));
        let src = clean_program(400, &long);
        let (serial, _, serial_diags) = parse_with(1, &src);
        let (par, _, par_diags) = parse_with(4, &src);
        assert_eq!(serial_diags.len(), 1);
        assert_eq!(format!("{serial_diags:?}"), format!("{par_diags:?}"));
        assert!(serial.exprs == par.exprs);
    }

    #[test]
    fn a_syntax_error_in_a_part_is_reported_as_by_the_serial_parse() {
        let mut src = program(150);
        let at = src.len() / 2;
        let line = src[at..].find("\n    x = ").map(|i| at + i + 9).expect("a line to break");
        src.insert_str(line, "( ");
        let (serial, _, serial_diags) = parse_with(1, &src);
        let (par, _, par_diags) = parse_with(4, &src);
        assert!(!serial_diags.is_empty());
        assert_eq!(format!("{serial_diags:?}"), format!("{par_diags:?}"));
        assert!(serial.stmts == par.stmts);
        assert!(serial.lists == par.lists);
    }

    /// The laid-out tokens of the parts, one after the other, are those of the whole file.
    #[test]
    fn the_parts_lex_and_lay_out_as_the_whole_file() {
        let src = program(150);
        let cuts = text_cuts(&src, part_size(src.len(), 4));
        assert!(cuts.len() > 4);
        let mut joined = Vec::new();
        for (k, &lo) in cuts.iter().enumerate() {
            let hi = cuts.get(k + 1).copied().unwrap_or(src.len() as u32);
            let mut diags = Vec::new();
            let (raw, at_token) = lexer::lex_part(FileId(0), &src, lo, hi, false, &mut diags);
            assert!(at_token);
            joined.extend(
                super::super::layout::layout_part(FileId(0), &src, &mut &raw[..], lo, hi, &mut diags).expect("a cut"),
            );
            assert!(diags.is_empty());
        }
        let mut diags = Vec::new();
        assert_eq!(joined, super::super::tokens(FileId(0), &src, &mut diags));
    }

    /// The result of the front end of `src` on one thread and on four, and whether the
    /// front end in parts gave it on four.
    fn both(src: &str) -> bool {
        let (serial, serial_names, serial_diags) = parse_with(1, src);
        let (par, par_names, par_diags) = parse_with(4, src);
        assert!(
            serial.exprs == par.exprs
                && serial.stmts == par.stmts
                && serial.body == par.body
                && serial.lists == par.lists
        );
        assert_eq!(serial.host, par.host);
        assert_eq!(serial_names.names().collect::<Vec<_>>(), par_names.names().collect::<Vec<_>>());
        assert_eq!(format!("{serial_diags:?}"), format!("{par_diags:?}"));
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().expect("a thread pool");
        pool.install(|| front(FileId(0), src, src.is_ascii(), &mut Interner::new()).is_some())
    }

    /// `src` with `text` inserted before the `@` of the `copy`th function.
    fn before_copy(src: &str, copy: usize, text: &str) -> String {
        let at = src.find(&format!("\n@pl.jit\ndef e_{copy}(")).expect("the copy") + 1;
        format!("{}{text}{}", &src[..at], &src[at..])
    }

    #[test]
    fn errors_in_a_part_are_reported_as_by_the_serial_front_end() {
        let src = clean_program(400, "x = a");
        assert!(both(&src));
        // A lexing error, a dedent to no enclosing block (layout).
        for bad in ["x = a $ b", "if a:\n        x = 1\n      y = 2"] {
            let src = clean_program(400, bad);
            let (_, _, diags) = parse_with(1, &src);
            assert!(diags.iter().any(Diagnostic::is_error), "{bad}");
            assert!(!both(&src), "{bad}");
        }
    }

    #[test]
    fn a_cut_inside_a_bracket_or_a_line_gives_the_serial_result() {
        // A bracket left open before every function: each `@` line is inside it (E0007 at
        // the `def` that follows).
        let mut src = clean_program(400, "x = a");
        for copy in 1..400 {
            src = before_copy(&src, copy, "X = (1,\n");
        }
        let (_, _, diags) = parse_with(1, &src);
        assert!(diags.iter().any(|d| d.code == crate::diag::Code::E0007));
        assert!(!both(&src));
        // A backslash continuation: `Y = a @pl.jit` (valid: host code), then `def`.
        let mut src = clean_program(400, "x = a");
        for copy in 1..400 {
            src = before_copy(&src, copy, "Y = a \\\n");
        }
        let (_, _, diags) = parse_with(1, &src);
        assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
        assert!(!both(&src));
    }

    #[test]
    fn a_cut_inside_a_triple_quoted_string_gives_the_serial_result() {
        let src = clean_program(400, "x = a");
        let inner = "@pl.jit\ndef s(a: pl.Tensor):\n    return a\n\n".repeat(src.len() / 64);
        let src = before_copy(&src, 200, &format!("DOC = \"\"\"\n{inner}\"\"\"\n"));
        let string = src.find("DOC = ").expect("the string") as u32;
        let string_end = src.rfind("\"\"\"").expect("its end") as u32;
        assert!(text_cuts(&src, part_size(src.len(), 4)).iter().any(|&c| string < c && c < string_end));
        let (_, _, diags) = parse_with(1, &src);
        assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
        assert!(!both(&src));
    }

    /// An alias of `pypto.language` bound in a later part is every part's: a function
    /// decorated through it in a later part still is pl code, not host code.
    #[test]
    fn an_alias_bound_in_a_later_part_is_every_later_part_s() {
        let src = clean_program(400, "x = a");
        let src = before_copy(&src, 200, "import pypto.language as late\n\n");
        let src = before_copy(
            &src,
            380,
            "@late.jit\ndef via_alias(a: late.Tensor):\n    with late.at(level=late.Level.CORE_GROUP):\n        \
             t = late.load(a, [0, 0], [8, 8])\n    return a\n\n",
        );
        let cuts = text_cuts(&src, part_size(src.len(), 4));
        let import = src.find("import pypto.language as late").expect("the import") as u32;
        let use_at = src.find("@late.jit").expect("the use") as u32;
        // The alias is bound in a later part than the first, and used in a later one still.
        assert!(cuts[1] < import);
        assert!(cuts.iter().any(|&c| import < c && c < use_at));
        let (serial, _, diags) = parse_with(1, &src);
        assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
        assert!(serial.host.iter().all(|h| !src[h.span.lo as usize..h.span.hi as usize].contains("via_alias")));
        assert!(both(&src));
        assert!(!part_by_part(&src), "an import after the first part: every part laid out first");
    }

    /// Whether the front end on a pool of four took `src` part by part ([`pipelined`]),
    /// the file's aliases read from its header.
    fn part_by_part(src: &str) -> bool {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().expect("a thread pool");
        pool.install(|| {
            PIPELINED.set(0);
            assert!(front(FileId(0), src, src.is_ascii(), &mut Interner::new()).is_some());
            PIPELINED.get() == 1
        })
    }

    /// A file whose imports are all in its header is taken part by part, with the header's
    /// aliases (a function decorated through one, far into the file, is pl code), into the
    /// tree of the whole file.
    #[test]
    fn a_file_whose_imports_are_in_its_header_is_taken_part_by_part() {
        let src = clean_program(400, "x = a");
        assert!(both(&src));
        assert!(part_by_part(&src));
        let src = format!("import pypto.language as p\n{src}");
        let src = before_copy(
            &src,
            380,
            "@p.jit\ndef via_alias(a: p.Tensor):\n    with p.at(level=p.Level.CORE_GROUP):\n        \
             t = p.load(a, [0, 0], [8, 8])\n    return a\n\n",
        );
        let (serial, _, diags) = parse_with(1, &src);
        assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
        assert!(serial.host.iter().all(|h| !src[h.span.lo as usize..h.span.hi as usize].contains("via_alias")));
        assert!(both(&src));
        assert!(part_by_part(&src));
        // No import at all: the aliases every file has.
        let bare = src.replacen("import pypto.language as p\nimport pypto.language as pl\n", "", 1);
        assert!(!bare.contains("import"));
        assert!(both(&bare));
        assert!(part_by_part(&bare));
    }

    /// The word `import` anywhere after the first part (in a string here) or after the
    /// first part's last definition keeps every part laid out before any is split.
    #[test]
    fn an_import_word_after_the_header_keeps_the_parts_laid_out_first() {
        let src = clean_program(400, "x = \"import\"");
        assert!(both(&src));
        assert!(!part_by_part(&src));
    }
}
