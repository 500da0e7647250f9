//! The trailing items of a `pl.Tile[...]` annotation and the `pl.MemRef(...)` placements
//! of a Tile or Tensor annotation, checked as PyPTO's type resolver checks them (ops.md
//! §4.2 `_resolve_tile_annotation_args`, `resolve_memref`). plc keeps only the memory
//! space in the type; a placement is the memory planner's business, which plc does itself.

use super::annot::parse_int;
use super::consts::Const;
use super::{Binding, Lowering, ModuleId};
use crate::diag::{Code, Span};
use crate::intern::Symbol;
use crate::ir::{EnumValue, MemorySpace};
use crate::syntax::ast::{self, ArgKind, ExprKind as E};

/// What one trailing item of a Tile annotation is.
enum TileExtra {
    Memory(MemorySpace),
    MemRef,
    TileView,
}

// A list read from a module's tree is copied before a call that takes `&mut self`
// (clippy's `unnecessary_to_owned` would keep `self` borrowed across it).
#[allow(clippy::unnecessary_to_owned)]
impl Lowering<'_> {
    /// The memory space among the trailing items of a Tile annotation, if any. E0207 for
    /// a second memory space, memref or `pl.TileView(...)`, a tensor layout (`pl.NZ`), an
    /// item of no kind, or a memref without a memory space.
    pub(crate) fn tile_extras(&mut self, m: ModuleId, extras: &[ast::ExprId]) -> Option<Option<MemorySpace>> {
        let file = self.modules[m].file;
        let (mut memory, mut memref, mut view) = (None, None, false);
        for &extra in extras {
            let span = self.ast(m).expr(extra).span;
            let (message, label) = match self.tile_extra(m, extra)? {
                TileExtra::Memory(_) if memory.is_some() => {
                    ("a Tile annotation takes at most one memory space", "a second memory space")
                }
                TileExtra::Memory(ms) => {
                    memory = Some(ms);
                    continue;
                }
                TileExtra::MemRef if memref.is_some() => {
                    ("a Tile annotation takes at most one memref argument", "a second memref")
                }
                TileExtra::MemRef => {
                    memref = Some(span);
                    continue;
                }
                TileExtra::TileView if view => {
                    ("a Tile annotation takes at most one pl.TileView(...)", "a second view")
                }
                TileExtra::TileView => {
                    view = true;
                    continue;
                }
            };
            self.error(Code::E0207, file, span, message, label);
            return None;
        }
        if let (Some(span), None) = (memref, memory) {
            self.error_help(
                Code::E0207,
                file,
                span,
                "a Tile annotation with a memref argument must also specify an explicit memory space",
                "memref without a memory space",
                "add the memory space the buffer lives in, as `pl.Mem.Vec`",
            );
            return None;
        }
        Some(memory)
    }

    /// The kind of one trailing item of a Tile annotation; E0207 (reported) when it has
    /// none, or is a memref PyPTO refuses.
    fn tile_extra(&mut self, m: ModuleId, extra: ast::ExprId) -> Option<TileExtra> {
        let file = self.modules[m].file;
        let e = self.ast(m).expr(extra).clone();
        // One slot of a multi-slot declaration: `pl.MemRef("pipe", slots=3)[0]`, `ring[i]`.
        if let E::Subscript { value, index } = e.kind {
            return match self.ast(m).expr(value).kind.clone() {
                E::Name(_) => Some(TileExtra::MemRef),
                E::Call { func, args } if self.is_pl_path(m, func, "MemRef") => {
                    (self.memref_ok(m, value, &self.ast(m).list(args).to_vec())
                        && self.memref_slot_ok(m, &self.ast(m).list(args).to_vec(), index))
                    .then_some(TileExtra::MemRef)
                }
                _ => self.unsupported_tile_extra(m, extra),
            };
        }
        if let E::Call { func, args } = &e.kind {
            match self.pl_path(m, *func).as_deref() {
                Some("MemRef") => {
                    return self.memref_ok(m, extra, &self.ast(m).list(*args).to_vec()).then_some(TileExtra::MemRef)
                }
                Some("TileView") => {
                    return self
                        .view_ok(m, extra, &self.ast(m).list(*args).to_vec(), true)
                        .then_some(TileExtra::TileView)
                }
                _ => {}
            }
        }
        if let Some(path) = self.pl_path(m, extra) {
            let name = path.rsplit('.').next().unwrap_or(&path);
            if let Some((family, member)) = path.split_once('.') {
                if let Some(EnumValue::MemorySpace(ms)) = EnumValue::lookup(family, member) {
                    return Some(TileExtra::Memory(ms));
                }
            }
            if crate::ir::Layout::from_name(name).is_some() {
                let message = format!("a Tile does not take a tensor layout like pl.{path}");
                let help = "a tile's layout is its pl.TileView(blayout=..., slayout=...)";
                self.error_help(Code::E0207, file, e.span, message, "a tensor layout", help);
                return None;
            }
        }
        // A name: a memory space constant, or a declared allocation (`ping = pl.MemRef()`).
        if let E::Name(n) = e.kind {
            if let Some((Binding::Const(Const::Enum(EnumValue::MemorySpace(ms))), _)) = self.modules[m].names.get(&n) {
                return Some(TileExtra::Memory(*ms));
            }
            return self.declaration_ok(m, n, e.span).then_some(TileExtra::MemRef);
        }
        self.unsupported_tile_extra(m, extra)
    }

    /// A module-level name used as a memref: when it is a declaration (`ping =
    /// pl.MemRef()`, named after the variable, or `slot = pl.MemRef("l0c_ping")`), no other
    /// declaration may resolve to the same allocation name (ops.md §4.2
    /// `_declared_alloc_name`). E0207 otherwise.
    fn declaration_ok(&mut self, m: ModuleId, n: Symbol, span: Span) -> bool {
        let Some(alloc) = self.declared_alloc(m, n) else { return true };
        match self.memref_decls.get(&(m, alloc.clone())) {
            Some(&first) if first != n => {
                let (file, other) = (self.modules[m].file, self.name(first).to_string());
                let message = format!(
                    "two separate pl.MemRef() declarations both resolve to the name '{alloc}': `{other}` and `{}`",
                    self.name(n)
                );
                let help = "give each declaration its own name, or use one declaration for both tiles";
                self.error_help(Code::E0207, file, span, message, "a second declaration", help);
                false
            }
            Some(_) => true,
            None => {
                self.shared_changed();
                self.memref_decls.insert((m, alloc), n);
                true
            }
        }
    }

    /// The allocation name of the module-level declaration `n = pl.MemRef()` (the
    /// variable's name) or `n = pl.MemRef("alloc")`, read from the host statement that
    /// binds `n`.
    fn declared_alloc(&self, m: ModuleId, n: Symbol) -> Option<String> {
        let ast = self.ast(m);
        let mut found = None;
        for &s in ast.host.iter().flat_map(|h| &h.parsed) {
            let ast::StmtKind::Assign { targets, value } = &ast.stmt(s).kind else { continue };
            if targets.len() != 1 || !matches!(ast.expr(ast.list(*targets)[0]).kind, E::Name(t) if t == n) {
                continue;
            }
            found = None;
            let E::Call { func, args } = &ast.expr(*value).kind else { continue };
            if !self.is_pl_path(m, *func, "MemRef") || ast.list(*args).iter().any(|a| a.kind != ArgKind::Positional) {
                continue;
            }
            found = match ast.list(*args) {
                [] => Some(self.name(n).to_string()),
                [arg] => match &ast.expr(arg.value).kind {
                    E::Str(pieces) if ast.list(*pieces).iter().all(|p| p.kind == ast::StrKind::Plain) => {
                        self.string_value(m, *pieces)
                    }
                    _ => None,
                },
                _ => None,
            };
        }
        found
    }

    /// The arguments of a `pl.TileView(...)` (`tile`) or `pl.TensorView(...)` in an
    /// annotation, as PyPTO's type resolver reads them (ops.md §4.2 `_resolve_tileview`,
    /// `_resolve_tensorview`): keywords only, each a known field; `valid_shape` and `stride`
    /// list literals; a TileView's `blayout`/`slayout` a `pl.TileLayout` member, `pad` a
    /// `pl.PadValue` member, `fractal` an integer; a TensorView's `layout` a tensor layout.
    /// E0207 (E0206 for an unknown member), reported; `false` then.
    pub(crate) fn view_ok(&mut self, m: ModuleId, call: ast::ExprId, args: &[ast::Arg], tile: bool) -> bool {
        let file = self.modules[m].file;
        let (ctor, fields) = if tile {
            ("pl.TileView", "valid_shape, stride, start_offset, blayout, slayout, fractal, pad")
        } else {
            ("pl.TensorView", "valid_shape, stride, layout")
        };
        if args.iter().any(|a| !matches!(a.kind, ArgKind::Keyword(_))) {
            let span = self.ast(m).expr(call).span;
            let help = format!("name each field ({fields})");
            self.error_help(
                Code::E0207,
                file,
                span,
                format!("{ctor}() takes no positional arguments"),
                "positional argument",
                help,
            );
            return false;
        }
        for arg in args {
            let ArgKind::Keyword(k) = arg.kind else { continue };
            let key = self.name(k.name).to_string();
            let value = self.ast(m).expr(arg.value).clone();
            let member = match value.kind {
                E::Attribute { attr, .. } => Some(self.name(attr.name).to_string()),
                _ => None,
            };
            // A name may hold the member (a module constant): left to the value's own use.
            let by_name = matches!(value.kind, E::Name(_));
            let member_of = |set: &[&str]| by_name || member.as_deref().is_some_and(|n| set.contains(&n));
            let problem = match (key.as_str(), tile) {
                ("valid_shape" | "stride", _) if !matches!(value.kind, E::List(_)) => Some((
                    Code::E0207,
                    format!("{ctor} {key} must be a list literal"),
                    "use a list such as [64, 32]".to_string(),
                )),
                ("valid_shape" | "stride", _) | ("start_offset", true) => None,
                ("blayout" | "slayout", true) if !member_of(&["none_box", "row_major", "col_major"]) => Some((
                    Code::E0206,
                    format!("unknown TileLayout value for {key}"),
                    "use pl.TileLayout.none_box, pl.TileLayout.row_major or pl.TileLayout.col_major".to_string(),
                )),
                ("pad", true) if !member_of(&["null", "zero", "max", "min"]) => Some((
                    Code::E0206,
                    "unknown PadValue value for pad".to_string(),
                    "use pl.PadValue.null, pl.PadValue.zero, pl.PadValue.max or pl.PadValue.min".to_string(),
                )),
                ("blayout" | "slayout" | "pad", true) => None,
                ("fractal", true) => match self.eval_const(m, arg.value) {
                    Some(Const::Int(_)) => None,
                    None => return false,
                    Some(_) => Some((
                        Code::E0207,
                        "TileView fractal must be an integer".to_string(),
                        "write an integer such as 512".to_string(),
                    )),
                },
                ("layout", false) => match self.pl_path(m, arg.value) {
                    Some(p)
                        if crate::ir::Layout::from_name(p.strip_prefix("TensorLayout.").unwrap_or(&p)).is_some() =>
                    {
                        None
                    }
                    None if by_name => match self.eval_const(m, arg.value) {
                        Some(Const::Enum(EnumValue::Layout(_))) => None,
                        None => return false,
                        Some(_) => Some((
                            Code::E0206,
                            "a layout variable must hold a pl.TensorLayout member".to_string(),
                            format!("the layouts are {}", crate::ir::Layout::names()),
                        )),
                    },
                    _ => Some((
                        Code::E0206,
                        "unknown layout for layout".to_string(),
                        format!("the layouts are {}", crate::ir::Layout::names()),
                    )),
                },
                _ => Some((
                    Code::E0207,
                    format!("unknown {ctor} keyword argument `{key}`"),
                    format!("the fields are {fields}"),
                )),
            };
            if let Some((code, message, help)) = problem {
                let known = matches!(
                    key.as_str(),
                    "valid_shape" | "stride" | "start_offset" | "blayout" | "slayout" | "pad" | "fractal" | "layout"
                );
                let span = if known { value.span } else { arg.span };
                self.error_help(code, file, span, message, "here", help);
                return false;
            }
        }
        true
    }

    fn unsupported_tile_extra(&mut self, m: ModuleId, extra: ast::ExprId) -> Option<TileExtra> {
        let (file, span) = (self.modules[m].file, self.ast(m).expr(extra).span);
        let text = self.text_of(m, span).to_string();
        let message = format!("unsupported Tile annotation argument: {text}");
        let help = "after the shape and dtype a Tile takes a memory space, a pl.MemRef(...) and a pl.TileView(...)";
        self.error_help(Code::E0207, file, span, message, "not a tile annotation argument", help);
        None
    }

    /// The slot `index` of a declaration `pl.MemRef("name", slots=n)[index]`: `slots=` a
    /// positive integer literal, a literal index below it, and no subscript without
    /// `slots=` (ops.md §4.2 `_resolve_memref_slot_ref`, `_resolve_slots_kwarg`). E0207.
    fn memref_slot_ok(&mut self, m: ModuleId, args: &[ast::Arg], index: ast::ExprId) -> bool {
        let file = self.modules[m].file;
        let slots = args.iter().find(|a| matches!(a.kind, ArgKind::Keyword(k) if self.name(k.name) == "slots"));
        let Some(slots) = slots else {
            let span = self.ast(m).expr(index).span;
            let message = "a pl.MemRef declared with a single slot cannot be subscripted";
            self.error_help(
                Code::E0207,
                file,
                span,
                message,
                "a subscript",
                "declare the slots: pl.MemRef(\"name\", slots=2)",
            );
            return false;
        };
        let count = match self.ast(m).expr(slots.value).kind {
            E::Int => super::annot::parse_int(self.text_of(m, self.ast(m).expr(slots.value).span)),
            _ => None,
        };
        let count = match count {
            Some(Const::Int(n)) if n > 0 => n,
            _ => {
                let span = self.ast(m).expr(slots.value).span;
                let text = self.text_of(m, span).to_string();
                let message = format!("slots must be a positive integer literal, got {text}");
                self.error(Code::E0207, file, span, message, "not a positive integer literal");
                return false;
            }
        };
        if let E::Int = self.ast(m).expr(index).kind {
            let span = self.ast(m).expr(index).span;
            if let Some(Const::Int(i)) = super::annot::parse_int(self.text_of(m, span)) {
                if i < 0 || i >= count {
                    let message =
                        format!("slot index {i} is out of range for a pl.MemRef declared with {count} slot(s)");
                    self.error(Code::E0207, file, span, message, "out of range");
                    return false;
                }
            }
        }
        true
    }

    /// A `pl.MemRef(...)` call of an annotation is one PyPTO resolves: a declared
    /// allocation named by one non-empty string literal (`pl.MemRef("ping")`), or the
    /// three-argument placement `pl.MemRef(base, byte_offset, size)`. E0207 otherwise.
    pub(crate) fn memref_ok(&mut self, m: ModuleId, call: ast::ExprId, args: &[ast::Arg]) -> bool {
        let file = self.modules[m].file;
        let positional: Vec<ast::ExprId> =
            args.iter().filter(|a| a.kind == ArgKind::Positional).map(|a| a.value).collect();
        let span = self.ast(m).expr(call).span;
        match positional.len() {
            0 => true,
            3 => {
                // PyPTO's `_resolve_int_literal`: a size written as a number is >= 0.
                let size = self.ast(m).expr(positional[2]).clone();
                let negative = match &size.kind {
                    E::Unary { op: ast::UnaryOp::Neg, operand } => {
                        let operand = self.ast(m).expr(*operand).clone();
                        matches!(operand.kind, E::Int)
                            && matches!(parse_int(self.text_of(m, operand.span)), Some(Const::Int(v)) if v != 0)
                    }
                    _ => false,
                };
                if negative {
                    let text = self.text_of(m, size.span).to_string();
                    self.error(
                        Code::E0207,
                        file,
                        size.span,
                        format!("MemRef size must be >= 0, got: {text}"),
                        "negative size",
                    );
                    return false;
                }
                true
            }
            1 => {
                let name = match &self.ast(m).expr(positional[0]).kind {
                    E::Str(pieces) if self.ast(m).list(*pieces).iter().all(|p| p.kind == ast::StrKind::Plain) => {
                        self.string_value(m, *pieces)
                    }
                    _ => None,
                };
                if name.is_some_and(|n| !n.is_empty()) {
                    return true;
                }
                let arg = self.ast(m).expr(positional[0]).span;
                let text = self.text_of(m, arg).to_string();
                self.error_help(
                    Code::E0207,
                    file,
                    arg,
                    format!("a declared allocation's name must be a non-empty string literal, got {text}"),
                    "not a string literal",
                    "the name identifies the allocation when the program is read: write it out, as pl.MemRef(\"ping\")",
                );
                false
            }
            n => {
                let message = format!("pl.MemRef requires 3 arguments (base, byte_offset, size), got {n}");
                self.error(Code::E0207, file, span, message, "wrong number of arguments");
                false
            }
        }
    }
}
