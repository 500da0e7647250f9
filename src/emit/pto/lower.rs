//! A device function as a list of PTO-ISA instructions: each on one pipe, with the tiles and
//! tensors it reads and writes (for the allocator and the sync step). The device functions
//! it calls (a Group or Spmd wrapper's kernels, helpers) are inlined. Loops and `if`s are
//! C++ blocks around the instructions ([`Item::LoopStart`]); a value a loop carries or an
//! `if` merges has one place (a tile, a C++ variable) that each `pl.yield_` writes.

use super::alloc::{Request, Space};
use super::ops::Window;
use super::sync::Pipe;
use crate::diag::{Code, Diagnostic, Label};
use crate::emit::cpp::{float_literal, int_literal, Namer};
use crate::intern::{Interner, Symbol};
use crate::ir::ops::{OpKind, Special};
use crate::ir::{
    BinOp, Callee, DType, Dim, ExprId, ExprKind, FuncKind, Function, IfStmt, Layout, Loc, MemorySpace, Program,
    ScopeKind, StmtId, StmtKind, Type, UnOp, VarId,
};
use rustc_hash::FxHashMap;

/// A buffer an instruction touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Res {
    Tile(usize),
    /// A tensor argument, by its position among the tensor arguments.
    Global(usize),
}

pub struct Inst {
    pub pipe: Pipe,
    pub lines: Vec<String>,
    pub reads: Vec<Res>,
    pub writes: Vec<Res>,
}

pub enum Item {
    Inst(Inst),
    /// `for (...) {`, `if (...) {` or `else {`: a block the sync step fences (a loop body
    /// or a branch).
    LoopStart(String),
    /// The block's `}`.
    LoopEnd,
}

pub struct TileDecl {
    /// Name (the C++ variable), memory, bytes and live range.
    pub request: Request,
    /// The C++ type, and its element type.
    pub cpp: String,
    pub elem: &'static str,
    pub dtype: DType,
    pub rows: i64,
    pub cols: i64,
    /// The constructor's arguments (`(64, 128)`: a vector tile's valid shape, set at run
    /// time by the instructions that write it).
    pub ctor: String,
    pub loc: Loc,
}

pub struct Kernel {
    /// Lines before the tiles: the scalar parameters.
    pub header: Vec<String>,
    pub tiles: Vec<TileDecl>,
    pub items: Vec<Item>,
    /// Whether it runs on a cube core (it uses L1/L0 tiles).
    pub cube: bool,
}

/// A value in the kernel.
#[derive(Clone, Debug)]
pub(super) enum Val {
    Tensor(usize),
    Tile(usize),
    /// A C++ expression and its type.
    Scalar(String, DType),
}

pub(super) type R<T> = Result<T, Box<Diagnostic>>;

pub(super) struct Lower<'a> {
    pub p: &'a Program,
    pub names: &'a Interner,
    /// The kernel's function (diagnostics inside inlined callees point at their source).
    pub root: &'a Function,
    pub tiles: Vec<TileDecl>,
    pub items: Vec<Item>,
    pub namer: Namer,
    /// The variables of the function being lowered (one frame per inlined call).
    pub vars: FxHashMap<VarId, Val>,
    pub stack: Vec<Symbol>,
    /// The tensor arguments the runtime allocates for the results: the first one's index,
    /// how many, and how many `pl.create_tensor`s have taken one.
    pub result_base: usize,
    pub result_slots: usize,
    pub created: usize,
    /// Where each enclosing loop's or `if`'s `pl.yield_` puts its values (innermost last).
    yields: Vec<Vec<Carry>>,
    /// The C++ scalars a yield assigns (bound by copy, not by name, when read).
    mutable: rustc_hash::FxHashSet<String>,
    /// Inside the band loop of a value of run-time shape (`ops.rs`, `stream_assemble`):
    /// the band's tile rows and columns, and the C++ names of its row and column.
    pub stream: Option<Band>,
    /// The half of a mixed Group being lowered ([`mixed`]): the calls of the other kind's
    /// kernels are left out (they run on the cluster's other core).
    side: Option<FuncKind>,
    /// The cross-core pipes initialised so far, by `id=`: the C++ name of the `TPipe`.
    pub pipes: FxHashMap<i64, String>,
}

/// The band a value of run-time shape is computed in: tiles of `rows` x `cols` at row `r`
/// and column `c` of the tensors seen as matrices.
#[derive(Clone, Debug)]
pub(super) struct Band {
    pub rows: i64,
    pub cols: i64,
    pub r: String,
    pub c: String,
}

/// A value a loop carries or an `if` merges: a tile the yields copy into, a C++ scalar
/// they assign, or a tensor argument (yields must hand on the same one).
#[derive(Clone, Debug)]
enum Carry {
    Tile(usize),
    Scalar(String, DType),
    Tensor(Option<usize>),
}

/// Whether a device function's PTO-ISA kernel runs on a cube core: it (or a device
/// function it calls) has a tile in L1 or L0. The kernel of a mixed Group is its AIV half.
pub fn uses_cube(program: &Program, names: &Interner, func: Symbol) -> bool {
    let side = mixed(program, func).then_some(FuncKind::Aiv);
    let Ok(k) = lower(program, names, func, side) else { return false };
    k.cube
}

/// Whether `func` is a mixed Group: a Group function calling an AIC and an AIV function
/// (the cube and vector kernels of one cluster, which may talk through cross-core pipes).
/// With PTO-ISA kernels it is launched as one mixed task of two kernels, its AIC half and
/// its AIV half, each reading the Group's arguments.
pub fn mixed(p: &Program, func: Symbol) -> bool {
    let Some(f) = p.functions.get(&func) else { return false };
    if f.decl.kind != FuncKind::Group {
        return false;
    }
    let kinds: Vec<FuncKind> = f
        .body
        .iter()
        .filter_map(|&s| match &p.stmt(s).kind {
            StmtKind::Eval(e) | StmtKind::Assign { value: e, .. } => match &p.expr(*e).kind {
                ExprKind::Call { callee: Callee::Func(g), .. } => p.functions.get(g).map(|g| g.decl.kind),
                _ => None,
            },
            _ => None,
        })
        .collect();
    kinds.contains(&FuncKind::Aic) && kinds.contains(&FuncKind::Aiv)
}

/// `func` as a list of instructions; for a mixed Group, `side` says which half.
pub fn lower(p: &Program, names: &Interner, func: Symbol, side: Option<FuncKind>) -> R<Kernel> {
    let f = &p.functions[&func];
    let mut l = Lower {
        p,
        names,
        root: f,
        tiles: Vec::new(),
        items: Vec::new(),
        namer: Namer::new(),
        vars: FxHashMap::default(),
        stack: vec![func],
        result_base: 0,
        result_slots: 0,
        created: 0,
        yields: Vec::new(),
        mutable: Default::default(),
        stream: None,
        side,
        pipes: FxHashMap::default(),
    };
    for reserved in ["args", "gm"] {
        l.namer.reserve(reserved);
    }
    let mut header = Vec::new();
    // The ABI (as the CPU kernels'): the tensor and tile parameters, then a tensor for each
    // result the runtime allocates, then the scalars.
    let new_results = crate::emit::kernel::runtime_allocated_results(p, func);
    let params = f.params.iter().filter(|q| !p.types.get(p.var(q.var).ty).is_scalar()).count();
    let tensors = params + new_results.len();
    (l.result_base, l.result_slots) = (params, new_results.len());
    let (mut t, mut s) = (0, 0);
    for q in &f.params {
        let var = p.var(q.var);
        match p.types.get(var.ty).clone() {
            // A DN parameter is read column-major from the view's start (the CPU kernels'
            // `plc::as_dn_packed`); this backend addresses a tensor through its strides.
            Type::Tensor { layout: Layout::Dn, .. } => {
                return Err(l.unmapped(var.loc, "a DN tensor parameter".to_string()));
            }
            Type::Tensor { .. } | Type::Unknown => {
                l.vars.insert(q.var, Val::Tensor(t));
                t += 1;
            }
            Type::Scalar(d) => {
                let cty = scalar_cpp(d).ok_or_else(|| l.unmapped(var.loc, format!("a {d} scalar parameter")))?;
                let name = l.namer.first_free(&[names.get(var.source), names.get(var.name)]);
                header.push(format!("const {cty} {name} = plc_scalar<{cty}>(args, {});", tensors + s));
                l.vars.insert(q.var, Val::Scalar(name, d));
                s += 1;
            }
            ty @ Type::Tile { .. } => {
                // A tile parameter arrives as a tensor and is read whole.
                let tile = l.new_tile(&ty, names.get(var.source), var.loc)?;
                l.emit_load(tile, t, Window::At(zeros(&ty)));
                l.vars.insert(q.var, Val::Tile(tile));
                t += 1;
            }
            _ => return Err(l.unmapped(var.loc, "a parameter of this type".to_string())),
        }
    }
    let returned = l.block(&f.body.clone())?.unwrap_or_default();
    for (k, &i) in new_results.iter().enumerate() {
        match returned.get(i) {
            Some(Val::Tile(tile)) => {
                let ty = p.types.get(f.returns[i]).clone();
                l.emit_store(*tile, params + k, Window::At(zeros(&ty)), f.loc)?;
            }
            // A tensor the kernel made with `pl.create_tensor` is that result's tensor.
            Some(Val::Tensor(j)) if *j == params + k => {}
            _ => return Err(l.unmapped(f.loc, "a kernel result that is a tensor it computes".to_string())),
        }
    }
    l.live_ranges();
    let cube = l.tiles.iter().any(|t| t.request.space != Space::Vec);
    Ok(Kernel { header, tiles: l.tiles, items: l.items, cube })
}

impl Lower<'_> {
    // ------------------------------------------------------------------ diagnostics

    pub fn at(&self, loc: Loc) -> Loc {
        if loc.is_compiler_made() {
            self.root.loc
        } else {
            loc
        }
    }

    /// E0620: something the PTO-ISA backend does not map yet.
    pub fn unmapped(&self, loc: Loc, what: String) -> Box<Diagnostic> {
        let loc = self.at(loc);
        Box::new(
            Diagnostic::error(
                Code::E0620,
                format!("{what} has no PTO-ISA form yet (kernel `{}`)", self.names.get(self.root.name)),
                Label::primary(loc.file, loc.span, ""),
            )
            .with_help(
                "`--kernels cpu` (the default) runs it; docs/kernels.md lists what the PTO-ISA backend maps"
                    .to_string(),
            ),
        )
    }

    /// E0622: a tile the instructions cannot take.
    pub fn illegal_shape(&self, loc: Loc, what: String) -> Box<Diagnostic> {
        let loc = self.at(loc);
        Box::new(Diagnostic::error(Code::E0622, what, Label::primary(loc.file, loc.span, "")))
    }

    // ------------------------------------------------------------------ live ranges

    /// Each tile's first and last use; a tile used in a loop lives through the whole loop.
    fn live_ranges(&mut self) {
        let mut first = vec![usize::MAX; self.tiles.len()];
        let mut last = vec![0; self.tiles.len()];
        let mut loops = Vec::new();
        let mut spans = Vec::new();
        for (k, item) in self.items.iter().enumerate() {
            match item {
                Item::LoopStart(_) => loops.push(k),
                Item::LoopEnd => spans.push((loops.pop().unwrap_or(0), k)),
                Item::Inst(inst) => {
                    for r in inst.reads.iter().chain(&inst.writes) {
                        if let Res::Tile(t) = *r {
                            first[t] = first[t].min(k);
                            last[t] = last[t].max(k);
                        }
                    }
                }
            }
        }
        for t in 0..self.tiles.len() {
            if first[t] == usize::MAX {
                (first[t], last[t]) = (0, 0);
            }
            for &(s, e) in &spans {
                if first[t] <= e && s <= last[t] {
                    first[t] = first[t].min(s);
                    last[t] = last[t].max(e);
                }
            }
            self.tiles[t].request.first = first[t];
            self.tiles[t].request.last = last[t];
        }
    }

    // ------------------------------------------------------------------ emitting

    pub fn inst(&mut self, pipe: Pipe, lines: Vec<String>, reads: Vec<Res>, writes: Vec<Res>) {
        self.items.push(Item::Inst(Inst { pipe, lines, reads, writes }));
    }

    /// A scalar statement (no buffers).
    fn scalar_line(&mut self, line: String) {
        self.inst(Pipe::S, vec![line], Vec::new(), Vec::new());
    }

    /// A new tile of the type `ty` named after `hint`.
    pub fn new_tile(&mut self, ty: &Type, hint: &str, loc: Loc) -> R<usize> {
        // A tensor value a tensor op computes in the kernel is held as a vector tile.
        let (shape, dtype, memory) = match ty {
            Type::Tile { shape, dtype, memory } => (shape, dtype, memory),
            Type::Tensor { shape: Some(shape), dtype: Some(dtype), .. } => (shape, dtype, &None),
            _ => return Err(self.unmapped(loc, format!("a tensor value computed in a kernel ({})", ty.kind_name()))),
        };
        let elem = pto_elem(*dtype).ok_or_else(|| self.unmapped(loc, format!("a tile of {dtype}")))?;
        let dims: Vec<i64> = shape.iter().map(|d| if let Dim::Const(n) = d { *n } else { -1 }).collect();
        let (rows, cols) = match dims[..] {
            [c] if c > 0 => (1, c),
            [r, c] if r > 0 && c > 0 => (r, c),
            _ => {
                return Err(self.illegal_shape(
                    loc,
                    format!(
                        "a tile of shape {} has no PTO-ISA form: tiles have one or two constant extents",
                        dims_text(shape)
                    ),
                ))
            }
        };
        let space = match memory.unwrap_or(MemorySpace::Vec) {
            MemorySpace::Vec => Space::Vec,
            MemorySpace::Mat => Space::Mat,
            MemorySpace::Left => Space::Left,
            MemorySpace::Right => Space::Right,
            MemorySpace::Acc => Space::Acc,
            other => return Err(self.unmapped(loc, format!("a tile in memory {other}"))),
        };
        let bytes = (rows * cols * dtype.bytes()) as u64;
        // A one-column vector tile (a row reduction's result) is column-major: its column
        // is contiguous, and must be a multiple of 32 bytes.
        let column = space == Space::Vec && cols == 1 && rows > 1;
        if column && (rows * dtype.bytes()) % 32 != 0 {
            return Err(self.illegal_shape(
                loc,
                format!(
                    "a one-column vector tile is column-major and its column must be a multiple of 32 bytes: {rows}x1 of {dtype} has a column of {} bytes",
                    rows * dtype.bytes()
                ),
            ));
        }
        if space == Space::Vec && !column && (cols * dtype.bytes()) % 32 != 0 {
            return Err(self.illegal_shape(
                loc,
                format!(
                    "a vector tile's rows must be a multiple of 32 bytes: {rows}x{cols} of {dtype} has rows of {} bytes",
                    cols * dtype.bytes()
                ),
            ));
        }
        let cpp = match space {
            Space::Vec if column => format!("Tile<TileType::Vec, {elem}, {rows}, 1, BLayout::ColMajor, -1, -1>"),
            Space::Vec => format!("Tile<TileType::Vec, {elem}, {rows}, {cols}, BLayout::RowMajor, -1, -1>"),
            Space::Mat => format!(
                "Tile<TileType::Mat, {elem}, {rows}, {cols}, BLayout::ColMajor, {rows}, {cols}, SLayout::RowMajor, 512>"
            ),
            Space::Left => format!("TileLeft<{elem}, {rows}, {cols}, {rows}, {cols}>"),
            Space::Right => format!("TileRight<{elem}, {rows}, {cols}, {rows}, {cols}>"),
            Space::Acc => format!("TileAcc<{elem}, {rows}, {cols}, {rows}, {cols}>"),
        };
        let name = self.namer.fresh(hint);
        let ctor = if space == Space::Vec { format!("({rows}, {cols})") } else { String::new() };
        self.tiles.push(TileDecl {
            request: Request { name, space, bytes, first: 0, last: 0 },
            cpp,
            elem,
            dtype: *dtype,
            rows,
            cols,
            ctor,
            loc,
        });
        Ok(self.tiles.len() - 1)
    }

    pub fn tile_name(&self, t: usize) -> String {
        self.tiles[t].request.name.clone()
    }

    pub fn tile_elem(&self, t: usize) -> &'static str {
        self.tiles[t].elem
    }

    pub fn tile_dims(&self, t: usize) -> (u64, Space) {
        (self.tiles[t].request.bytes, self.tiles[t].request.space)
    }

    // ------------------------------------------------------------------ statements

    /// Lowers a block; the values of its `return`, if it has one.
    pub fn block(&mut self, block: &[StmtId]) -> R<Option<Vec<Val>>> {
        for &s in block {
            if let Some(values) = self.stmt(s)? {
                return Ok(Some(values));
            }
        }
        Ok(None)
    }

    fn stmt(&mut self, s: StmtId) -> R<Option<Vec<Val>>> {
        let loc = self.p.stmt(s).loc;
        match self.p.stmt(s).kind.clone() {
            StmtKind::Assign { var, value } => {
                let hint = self.names.get(self.p.var(var).source).to_string();
                let v = self.value(value, &hint)?;
                let v = match v {
                    Val::Scalar(text, d) if !is_simple(&text) || self.mutable.contains(&text) => {
                        let cty = scalar_cpp(d).ok_or_else(|| self.unmapped(loc, format!("a {d} scalar")))?;
                        let name = self.namer.first_free(&[&hint]);
                        self.scalar_line(format!("const {cty} {name} = {text};"));
                        Val::Scalar(name, d)
                    }
                    other => other,
                };
                self.vars.insert(var, v);
                Ok(None)
            }
            StmtKind::Eval(e) => {
                self.value(e, "t")?;
                Ok(None)
            }
            StmtKind::Return(values) => {
                let mut out = Vec::new();
                for v in values {
                    out.push(self.value(v, "r")?);
                }
                Ok(Some(out))
            }
            StmtKind::For(for_) => {
                let crate::ir::ForStmt { var, start, stop, step, iter_args, body, return_vars, .. } = *for_;
                let start = self.scalar(start)?;
                let stop = self.scalar(stop)?;
                let step = self.scalar(step)?;
                // The carried values: each initial value copied into the place the yields
                // write (a tile, a C++ variable), bound to the iteration variable.
                let mut carries = Vec::new();
                for a in &iter_args {
                    let hint = self.names.get(self.p.var(a.var).source).to_string();
                    let init = self.value(a.init, &hint)?;
                    let c = self.carry(init, &hint, loc)?;
                    self.vars.insert(a.var, self.carried(&c, loc)?);
                    carries.push(c);
                }
                let name = self.namer.first_free(&[self.names.get(self.p.var(var).source)]);
                // A zero step runs zero times.
                let test = if step == "0" {
                    "false".to_string()
                } else {
                    format!("({step}) > 0 ? {name} < ({stop}) : {name} > ({stop})")
                };
                self.items
                    .push(Item::LoopStart(format!("for (int64_t {name} = {start}; {test}; {name} += ({step})) {{")));
                self.vars.insert(var, Val::Scalar(name, DType::Index));
                self.yields.push(carries);
                let returned = self.block(&body);
                let carries = self.yields.pop().unwrap_or_default();
                if returned?.is_some() {
                    return Err(self.unmapped(loc, "a `return` inside a loop".to_string()));
                }
                self.items.push(Item::LoopEnd);
                self.bind_carried(&return_vars, &carries, loc)?;
                Ok(None)
            }
            StmtKind::If(if_) => {
                let IfStmt { cond, then_body, else_body, return_vars } = *if_;
                let cond = self.scalar(cond)?;
                // The merged values: a place of each result's type, which each branch's
                // yield writes.
                let mut carries = Vec::new();
                for &v in &return_vars {
                    let var = self.p.var(v);
                    let hint = self.names.get(var.source).to_string();
                    carries.push(match self.p.types.get(var.ty).clone() {
                        ty @ Type::Tile { .. } => Carry::Tile(self.new_tile(&ty, &hint, loc)?),
                        Type::Scalar(d) => {
                            let cty = scalar_cpp(d).ok_or_else(|| self.unmapped(loc, format!("a {d} scalar")))?;
                            let name = self.namer.first_free(&[&hint]);
                            self.scalar_line(format!("{cty} {name}{{}};"));
                            self.mutable.insert(name.clone());
                            Carry::Scalar(name, d)
                        }
                        Type::Tensor { .. } | Type::Unknown => Carry::Tensor(None),
                        _ => return Err(self.unmapped(loc, "an `if` merging a value of this type".to_string())),
                    });
                }
                self.yields.push(carries);
                let mut branches = vec![(format!("if ({cond}) {{"), then_body)];
                branches.extend(else_body.map(|b| ("else {".to_string(), b)));
                for (head, body) in branches {
                    self.items.push(Item::LoopStart(head));
                    let saved = self.vars.clone();
                    let returned = self.block(&body);
                    self.vars = saved;
                    if returned?.is_some() {
                        self.yields.pop();
                        return Err(self.unmapped(loc, "a `return` inside an `if`".to_string()));
                    }
                    self.items.push(Item::LoopEnd);
                }
                let carries = self.yields.pop().unwrap_or_default();
                self.bind_carried(&return_vars, &carries, loc)?;
                Ok(None)
            }
            StmtKind::Yield(values) => {
                let Some(mut carries) = self.yields.pop() else {
                    return Err(self.unmapped(loc, "a `pl.yield_` outside a loop or `if`".to_string()));
                };
                let done = self.yield_into(&values, &mut carries, loc);
                self.yields.push(carries);
                done?;
                Ok(None)
            }
            StmtKind::Scope(scope) if matches!(scope.kind, ScopeKind::Runtime { .. }) => self.block(&scope.body),
            StmtKind::While(_) => Err(self.unmapped(loc, "a `while` loop".to_string())),
            StmtKind::Break | StmtKind::Continue | StmtKind::Scope(_) => {
                Err(self.unmapped(loc, "this statement".to_string()))
            }
        }
    }

    // ------------------------------------------------------------------ carried values

    /// The place a loop carries `init` in: a vector tile of its shape (`TMOV` of the
    /// initial value), the tile itself for a tile outside the unified buffer, a C++
    /// variable, or the tensor argument itself.
    fn carry(&mut self, init: Val, hint: &str, loc: Loc) -> R<Carry> {
        match init {
            Val::Tile(t) => {
                let d = &self.tiles[t];
                if d.request.space != Space::Vec {
                    // A cube tile (an accumulator `matmul_acc` updates in place) is carried
                    // in its own place: each yield must hand on that tile.
                    return Ok(Carry::Tile(t));
                }
                let shape = vec![Dim::Const(d.rows), Dim::Const(d.cols)];
                let ty = Type::Tile { shape, dtype: d.dtype, memory: Some(MemorySpace::Vec) };
                let c = self.new_tile(&ty, hint, loc)?;
                self.copy_tile(c, t, loc)?;
                Ok(Carry::Tile(c))
            }
            Val::Scalar(text, d) => {
                let cty = scalar_cpp(d).ok_or_else(|| self.unmapped(loc, format!("a {d} scalar")))?;
                let name = self.namer.first_free(&[hint]);
                self.scalar_line(format!("{cty} {name} = {text};"));
                self.mutable.insert(name.clone());
                Ok(Carry::Scalar(name, d))
            }
            Val::Tensor(i) => Ok(Carry::Tensor(Some(i))),
        }
    }

    /// The value a carried place holds.
    fn carried(&self, c: &Carry, loc: Loc) -> R<Val> {
        match c {
            Carry::Tile(t) => Ok(Val::Tile(*t)),
            Carry::Scalar(name, d) => Ok(Val::Scalar(name.clone(), *d)),
            Carry::Tensor(Some(i)) => Ok(Val::Tensor(*i)),
            Carry::Tensor(None) => Err(self.unmapped(loc, "an `if` result no branch yields".to_string())),
        }
    }

    fn bind_carried(&mut self, vars: &[VarId], carries: &[Carry], loc: Loc) -> R<()> {
        for (&v, c) in vars.iter().zip(carries) {
            let val = self.carried(c, loc)?;
            self.vars.insert(v, val);
        }
        Ok(())
    }

    /// A `pl.yield_`: each value written into its carried place.
    fn yield_into(&mut self, values: &[ExprId], carries: &mut [Carry], loc: Loc) -> R<()> {
        if values.len() != carries.len() {
            return Err(self.unmapped(loc, "a `pl.yield_` of another number of values".to_string()));
        }
        for (&e, c) in values.iter().zip(carries.iter_mut()) {
            match (self.value(e, "y")?, &mut *c) {
                (Val::Tile(v), Carry::Tile(t)) => {
                    let t = *t;
                    if v != t {
                        self.copy_tile(t, v, loc)?;
                    }
                }
                (Val::Scalar(text, _), Carry::Scalar(name, _)) => {
                    let line = format!("{name} = {text};");
                    self.scalar_line(line);
                }
                (Val::Tensor(i), Carry::Tensor(slot @ None)) => *slot = Some(i),
                (Val::Tensor(i), Carry::Tensor(Some(j))) if i == *j => {}
                _ => {
                    let loc = self.p.expr(e).loc;
                    return Err(
                        self.unmapped(loc, "a yielded value of another form than the one it replaces".to_string())
                    );
                }
            }
        }
        Ok(())
    }

    /// `TMOV` of vector tile `src` into `dst`, of the same shape and element type.
    fn copy_tile(&mut self, dst: usize, src: usize, loc: Loc) -> R<()> {
        let (a, b) = (&self.tiles[dst], &self.tiles[src]);
        if (a.rows, a.cols, a.dtype, a.request.space) != (b.rows, b.cols, b.dtype, b.request.space)
            || a.request.space != Space::Vec
        {
            return Err(self.unmapped(loc, "a carried or merged tile whose shape or memory changes".to_string()));
        }
        let (d, s) = (self.tile_name(dst), self.tile_name(src));
        let lines =
            vec![format!("{d}.SetValidShape({s}.GetValidRow(), {s}.GetValidCol());"), format!("TMOV({d}, {s});")];
        self.inst(Pipe::V, lines, vec![Res::Tile(src)], vec![Res::Tile(dst)]);
        Ok(())
    }

    // ------------------------------------------------------------------ expressions

    /// A value; a tile the expression makes is named after `hint`.
    pub fn value(&mut self, e: ExprId, hint: &str) -> R<Val> {
        let expr = self.p.expr(e).clone();
        let loc = expr.loc;
        match expr.kind {
            ExprKind::Var(v) => self.vars.get(&v).cloned().ok_or_else(|| {
                Box::new(Diagnostic::error(
                    Code::E0707,
                    "internal error: a variable read before the PTO-ISA backend saw its definition".to_string(),
                    Label::primary(self.at(loc).file, self.at(loc).span, ""),
                ))
            }),
            ExprKind::Int(n) => Ok(Val::Scalar(int_literal(n), DType::Index)),
            ExprKind::Float(x) => Ok(Val::Scalar(float_literal(x), DType::Fp32)),
            ExprKind::Bool(b) => Ok(Val::Scalar(b.to_string(), DType::Bool)),
            ExprKind::Binary { op, lhs, rhs } => self.binary(op, lhs, rhs, loc),
            ExprKind::Unary { op, operand } => {
                let (x, d) = self.scalar_typed(operand)?;
                let sym = match op {
                    UnOp::Neg => "-",
                    UnOp::Not => "!",
                    UnOp::BitNot => "~",
                };
                Ok(Val::Scalar(format!("({sym}{x})"), if op == UnOp::Not { DType::Bool } else { d }))
            }
            ExprKind::Call { callee: Callee::Op(op), args, .. } => match op.def().kind {
                OpKind::Special(Special::BlockIdx) => Ok(Val::Scalar("plc_block_idx(args)".to_string(), DType::Index)),
                OpKind::Special(Special::BlockNum) => Ok(Val::Scalar("plc_block_num(args)".to_string(), DType::Index)),
                _ => self.op(e, op, &args, hint),
            },
            ExprKind::Call { callee: Callee::Func(g), args, .. } => self.inline(g, &args, loc),
            _ => Err(self.unmapped(loc, "this expression".to_string())),
        }
    }

    fn binary(&mut self, op: BinOp, lhs: ExprId, rhs: ExprId, loc: Loc) -> R<Val> {
        let (a, da) = self.scalar_typed(lhs)?;
        let (b, db) = self.scalar_typed(rhs)?;
        let float = da.is_float() || db.is_float();
        let d = if op.is_comparison() || op.is_logical() {
            DType::Bool
        } else if float {
            DType::Fp32
        } else {
            da
        };
        let text = match op {
            BinOp::FloorDiv if !float => format!("plc_floordiv({a}, {b})"),
            BinOp::Mod if !float => format!("plc_mod({a}, {b})"),
            BinOp::Div if !float => format!("(static_cast<double>({a}) / static_cast<double>({b}))"),
            BinOp::And => format!("({a} && {b})"),
            BinOp::Or => format!("({a} || {b})"),
            BinOp::Pow | BinOp::FloorDiv | BinOp::Mod => {
                return Err(self.unmapped(loc, format!("scalar `{}` here", op.spelling())))
            }
            _ => format!("({a} {} {b})", op.spelling()),
        };
        let d = if op == BinOp::Div && !float { DType::Fp32 } else { d };
        Ok(Val::Scalar(text, d))
    }

    /// A scalar operand's C++ text.
    pub fn scalar(&mut self, e: ExprId) -> R<String> {
        Ok(self.scalar_typed(e)?.0)
    }

    pub fn scalar_typed(&mut self, e: ExprId) -> R<(String, DType)> {
        match self.value(e, "s")? {
            Val::Scalar(text, d) => Ok((text, d)),
            _ => Err(self.unmapped(self.p.expr(e).loc, "a tensor or tile where a scalar is expected".to_string())),
        }
    }

    /// A call of another device function, inlined: its parameters bound to the arguments.
    fn inline(&mut self, g: Symbol, args: &[Option<ExprId>], loc: Loc) -> R<Val> {
        let Some(callee) = self.p.functions.get(&g) else {
            return Err(self.unmapped(loc, "a call of a function the program lacks".to_string()));
        };
        if !callee.decl.kind.is_device_kernel() || self.stack.contains(&g) {
            return Err(self.unmapped(loc, format!("a call of `{}`", self.names.get(g))));
        }
        if self
            .side
            .is_some_and(|side| callee.decl.kind != side && matches!(callee.decl.kind, FuncKind::Aic | FuncKind::Aiv))
        {
            return self.other_half(g, args, loc);
        }
        let mut bound = Vec::new();
        for (q, a) in callee.params.iter().zip(args) {
            let Some(a) = a else { return Err(self.unmapped(loc, "a call without an argument".to_string())) };
            bound.push((q.var, self.value(*a, "arg")?));
        }
        let saved = std::mem::take(&mut self.vars);
        self.vars.extend(bound);
        self.stack.push(g);
        let body = callee.body.clone();
        let returned = self.block(&body);
        self.stack.pop();
        self.vars = saved;
        let mut returned = returned?.unwrap_or_default();
        match returned.len() {
            1 => Ok(returned.remove(0)),
            0 => Ok(Val::Scalar("0".to_string(), DType::Index)),
            _ => Err(self.unmapped(loc, "a call of a function with several results".to_string())),
        }
    }
}

impl Lower<'_> {
    /// A call of the other core's kernel in one half of a mixed Group: left out (it runs on
    /// the other core of the cluster). It is lowered and its instructions dropped, for its
    /// result: a tensor argument it stores into (a tile it returns is refused).
    fn other_half(&mut self, g: Symbol, args: &[Option<ExprId>], loc: Loc) -> R<Val> {
        let (items, tiles, pipes, created) = (self.items.len(), self.tiles.len(), self.pipes.clone(), self.created);
        let side = self.side.take();
        let result = self.inline(g, args, loc);
        self.side = side;
        self.items.truncate(items);
        self.tiles.truncate(tiles);
        (self.pipes, self.created) = (pipes, created);
        match result? {
            Val::Tile(_) => Err(self.unmapped(
                loc,
                "in a mixed Group, a kernel returning a tile to the other core's kernel (use a cross-core pipe)"
                    .to_string(),
            )),
            other => Ok(other),
        }
    }

    /// Whether an op call is directly in the body of a mixed Group (not in its kernels).
    pub fn in_mixed_group_body(&self) -> bool {
        self.side.is_some() && self.stack.len() == 1
    }
}

/// `[0, 0]` for a value of `ty`'s rank.
fn zeros(ty: &Type) -> Vec<String> {
    vec!["0".to_string(); ty.shape().map_or(2, |s| s.len())]
}

/// Whether a scalar's text can be repeated (a name or a literal) rather than bound.
fn is_simple(text: &str) -> bool {
    text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        || text.starts_with('(') && text[1..].trim_end_matches(')').parse::<f64>().is_ok()
}

fn dims_text(shape: &[Dim]) -> String {
    let parts: Vec<String> =
        shape.iter().map(|d| if let Dim::Const(n) = d { n.to_string() } else { "?".to_string() }).collect();
    format!("[{}]", parts.join(", "))
}

/// The C++ type of a scalar in a PTO-ISA kernel.
pub(super) fn scalar_cpp(d: DType) -> Option<&'static str> {
    Some(match d {
        DType::Bool => "bool",
        DType::Index | DType::Int64 => "int64_t",
        DType::Int32 => "int32_t",
        DType::UInt64 => "uint64_t",
        DType::UInt32 => "uint32_t",
        DType::Fp32 | DType::Fp16 | DType::Bf16 => "float",
        _ => return None,
    })
}

/// PTO-ISA's element type of a tile of `d`.
pub(super) fn pto_elem(d: DType) -> Option<&'static str> {
    Some(match d {
        DType::Fp32 => "float",
        DType::Fp16 => "half",
        DType::Bf16 => "bfloat16_t",
        DType::Int32 => "int32_t",
        DType::Int16 => "int16_t",
        DType::Int8 => "int8_t",
        DType::UInt8 => "uint8_t",
        DType::UInt16 => "uint16_t",
        DType::UInt32 => "uint32_t",
        _ => return None,
    })
}
