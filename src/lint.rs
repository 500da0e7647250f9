//! Warnings about what a program does at run time that the compiler can see in the
//! lowered IR. One today: **E0414**, an `Out` tensor parameter of an entry that the entry
//! may not write whole.
//!
//! The real runtime (simpler) neither copies a pure `Out` tensor in nor zeroes it, so an
//! element the entry does not write holds whatever the memory held (E0804 is the same
//! finding made by `plc run` on one input). The check follows each entry (a function of
//! the host side that no other function calls) by abstract execution: integer scalars
//! are evaluated where they are constants, loops with a constant trip count are unrolled,
//! calls are followed into their callees, and every store, assemble, copy or element
//! write into (a window of) an `Out` parameter adds its box to what the entry writes.
//! A write under a condition, in a `while` loop, in a loop whose trip count is known
//! only at run time, or at an offset known only at run time, is a write that *may*
//! happen. When the certain writes do not cover the tensor, the warning names the first
//! reason the others may not happen (or, with none, says the elements are never written).
//!
//! The check stays silent wherever it cannot follow the program: a tensor whose shape is
//! known only at run time, a write into a reshaped or otherwise transformed view of the
//! parameter, an op that writes it in a way the check does not model, or a program too
//! large to unroll (the budget below). It never warns about a program it did not follow.

use crate::diag::{Code, Diagnostic, Label, Severity};
use crate::intern::{Interner, Symbol};
use crate::ir::ops::{Effect, OpKind, Param as P, Special};
use crate::ir::{
    arith, BinOp, Callee, Dim, Direction, ExprId, ExprKind, ForStmt, IfStmt, Loc, Program, StmtKind, Type, UnOp, VarId,
    WhileStmt,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// How many statements the abstract execution of one entry may visit.
const BUDGET: usize = 200_000;
/// How deep calls are followed.
const MAX_DEPTH: usize = 16;
/// How many boxes the uncovered remainder may split into before the check gives up.
const MAX_PIECES: usize = 4096;

/// Runs the checks of this module over lowered programs.
pub fn check(programs: &[Program], names: &Interner, diags: &mut Vec<Diagnostic>) {
    for program in programs {
        out_coverage(program, names, diags);
    }
}

/// E0414 for every entry of `program`.
fn out_coverage(program: &Program, names: &Interner, diags: &mut Vec<Diagnostic>) {
    // The called functions, found (a walk of every expression) when a function with a
    // static `Out` parameter first asks: a program without one (most) is not walked.
    let mut called: Option<FxHashSet<Symbol>> = None;
    for f in program.functions.values() {
        if f.decl.kind.is_device_kernel() || f.decl.kind == crate::ir::FuncKind::Inline {
            continue;
        }
        let outs: Vec<(usize, Vec<i64>)> = f
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| p.dir == Direction::Out)
            .filter_map(|(i, p)| static_shape(program.types.get(program.var(p.var).ty)).map(|s| (i, s)))
            .collect();
        if outs.is_empty() || called.get_or_insert_with(|| called_functions(program)).contains(&f.name) {
            continue;
        }
        let mut run = Run {
            p: program,
            bufs: f.params.iter().map(|_| Written::default()).collect(),
            budget: BUDGET,
            depth: 0,
            site: None,
        };
        let mut env = Env::default();
        for (i, p) in f.params.iter().enumerate() {
            let value = if p.dir == Direction::Out { Val::Buf { param: i, offset: None } } else { Val::Unknown };
            env.insert(p.var, value);
        }
        let finished = run.block(&f.body, &mut env, None).is_ok();
        if !finished {
            continue;
        }
        for (i, shape) in outs {
            let written = &run.bufs[i];
            if written.gave_up {
                continue;
            }
            let Some(missing) = uncovered(&shape, &written.boxes) else { continue };
            if missing.is_empty() {
                continue;
            }
            diags.push(warning(program, names, f.params[i].var, &shape, &missing, written.maybe.first().copied()));
        }
    }
}

/// The warning for one parameter.
fn warning(
    program: &Program,
    names: &Interner,
    param: VarId,
    shape: &[i64],
    missing: &[Box],
    maybe: Option<(Loc, Why)>,
) -> Diagnostic {
    let var = program.var(param);
    let name = names.get(var.source);
    let example = &missing[0];
    let window = example.lo.iter().zip(&example.hi).map(|(l, h)| format!("{l}:{h}")).collect::<Vec<_>>().join(", ");
    let dims = shape.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    let (message, label) = match maybe {
        Some(_) => (
            format!("the `Out` tensor `{name}` may not be written whole"),
            format!("`{name}[{window}]` (of [{dims}]) may stay unwritten"),
        ),
        None => (
            format!("the `Out` tensor `{name}` is not written whole"),
            format!("`{name}[{window}]` (of [{dims}]) is never written"),
        ),
    };
    let mut d =
        Diagnostic::new(Severity::Warning, Code::E0414, message, Label::primary(var.loc.file, var.loc.span, label))
            .with_help(
                "the real runtime neither copies in nor zeroes an `Out` tensor: write every element, \
             or declare the parameter `pl.InOut` so that its initial contents are defined",
            );
    if let Some((loc, why)) = maybe {
        if !loc.is_compiler_made() {
            d = d.with_label(Label::secondary(loc.file, loc.span, why.text()));
        }
    }
    d
}

/// Why a write may not happen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Why {
    Condition,
    WhileLoop,
    TripCount,
    Offset,
    EarlyExit,
}

impl Why {
    fn text(self) -> &'static str {
        match self {
            Why::Condition => "written only when this condition holds, which is known only at run time",
            Why::WhileLoop => "written in a `while` loop: this condition decides how much",
            Why::TripCount => "written in a loop whose trip count is known only at run time",
            Why::Offset => "written at an offset known only at run time",
            Why::EarlyExit => "a loop with `break`, `continue` or `return` may skip the writes after it",
        }
    }
}

/// A half-open box of elements: `lo[d] <= i[d] < hi[d]`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Box {
    lo: Vec<i64>,
    hi: Vec<i64>,
}

/// What the entry writes into one parameter.
#[derive(Default)]
struct Written {
    /// Boxes certainly written.
    boxes: Vec<Box>,
    /// Writes that may not happen, with the first reason of each.
    maybe: Vec<(Loc, Why)>,
    /// A write the check cannot place: it says nothing about this parameter.
    gave_up: bool,
}

/// An abstract value.
#[derive(Clone, Debug, PartialEq)]
enum Val {
    Int(i64),
    Bool(bool),
    /// (A window of) `Out` parameter `param` of the entry, at `offset` (`None`: the origin).
    Buf {
        param: usize,
        offset: Option<Vec<i64>>,
    },
    /// A tensor made from parameter `param` in a way the check does not follow.
    Tainted(usize),
    Tuple(Vec<Val>),
    /// A value that differs between the cores of one launch (the block index, and what is
    /// computed from it): a write at such an offset is one of a family the check does not
    /// enumerate.
    Spread,
    Unknown,
}

type Env = FxHashMap<VarId, Val>;

/// The execution stopped: out of budget, too deep, or a construct it does not follow.
struct Stop;

/// How control leaves a block.
enum Flow {
    Next,
    Return(Vec<Val>),
}

struct Run<'a> {
    p: &'a Program,
    bufs: Vec<Written>,
    budget: usize,
    depth: usize,
    /// The call in the entry's own body that the execution is inside, if any: where a
    /// write's reason is shown when the write is in a callee.
    site: Option<Loc>,
}

impl Run<'_> {
    /// Executes a block; `maybe` is the innermost reason its writes may not happen.
    fn block(&mut self, block: &[crate::ir::StmtId], env: &mut Env, maybe: Option<(Loc, Why)>) -> Result<Flow, Stop> {
        for &s in block {
            self.budget = self.budget.checked_sub(1).ok_or(Stop)?;
            let stmt = self.p.stmt(s);
            match &stmt.kind {
                StmtKind::Assign { var, value } => {
                    let v = self.expr(*value, env, maybe)?;
                    env.insert(*var, v);
                }
                StmtKind::Eval(e) => {
                    self.expr(*e, env, maybe)?;
                }
                StmtKind::Return(values) => {
                    let vals = values.iter().map(|&e| self.expr(e, env, maybe)).collect::<Result<_, _>>()?;
                    return Ok(Flow::Return(vals));
                }
                // A branch's or an iteration's yield: evaluated for its effects; the values
                // reach the statement's result variables, which stay unknown.
                StmtKind::Yield(values) => {
                    for &e in values {
                        self.expr(e, env, maybe)?;
                    }
                }
                StmtKind::If(if_) => {
                    let IfStmt { cond, then_body, else_body, return_vars } = &**if_;
                    let taken = match self.expr(*cond, env, maybe)? {
                        Val::Bool(b) => Some(b),
                        Val::Int(i) => Some(i != 0),
                        _ => None,
                    };
                    let flow = match taken {
                        Some(true) => self.block(then_body, env, maybe)?,
                        Some(false) => match else_body {
                            Some(b) => self.block(b, env, maybe)?,
                            None => Flow::Next,
                        },
                        None => {
                            let why = maybe.or(Some((self.p.expr(*cond).loc, Why::Condition)));
                            self.unsure(then_body, env, why)?;
                            if let Some(b) = else_body {
                                self.unsure(b, env, why)?;
                            }
                            Flow::Next
                        }
                    };
                    if let Flow::Return(v) = flow {
                        return Ok(Flow::Return(v));
                    }
                    forget(env, return_vars);
                }
                StmtKind::For(for_) => {
                    let ForStmt { var, start, stop, step, iter_args, body, return_vars, .. } = &**for_;
                    let bounds = [*start, *stop, *step].map(|e| self.expr(e, env, maybe));
                    let trips = match bounds {
                        [Ok(Val::Int(a)), Ok(Val::Int(b)), Ok(Val::Int(c))] if c != 0 && !exits(self.p, body) => {
                            Some((a, b, c))
                        }
                        _ => None,
                    };
                    for ia in iter_args {
                        let v = self.expr(ia.init, env, maybe)?;
                        env.insert(ia.var, v);
                    }
                    match trips {
                        Some((a, b, c)) => self.unroll(*var, (a, b, c), body, env, maybe)?,
                        None => {
                            let why = match exits(self.p, body) {
                                true => (stmt.loc, Why::EarlyExit),
                                false => (self.p.expr(*stop).loc, Why::TripCount),
                            };
                            env.insert(*var, Val::Unknown);
                            self.unsure(body, env, maybe.or(Some(why)))?;
                        }
                    }
                    forget(env, iter_args.iter().map(|ia| &ia.var));
                    forget(env, return_vars);
                }
                StmtKind::While(while_) => {
                    let WhileStmt { cond, iter_args, body, return_vars } = &**while_;
                    for ia in iter_args {
                        let v = self.expr(ia.init, env, maybe)?;
                        env.insert(ia.var, v);
                    }
                    let why = maybe.or(Some((self.p.expr(*cond).loc, Why::WhileLoop)));
                    forget(env, iter_args.iter().map(|ia| &ia.var));
                    self.expr(*cond, env, why)?;
                    self.unsure(body, env, why)?;
                    forget(env, return_vars);
                }
                StmtKind::Scope(scope) => {
                    if let Flow::Return(v) = self.block(&scope.body, env, maybe)? {
                        return Ok(Flow::Return(v));
                    }
                }
                StmtKind::Break | StmtKind::Continue => return Err(Stop),
            }
        }
        Ok(Flow::Next)
    }

    /// A block that may run any number of times, or not at all: its writes may not happen,
    /// and every scalar it assigns is unknown afterwards (and while it runs). A variable
    /// that holds a parameter's buffer keeps it: a tensor reassigned in a loop is the
    /// buffer the loop writes (`out = band(x, i, out)`).
    fn unsure(&mut self, block: &[crate::ir::StmtId], env: &mut Env, why: Option<(Loc, Why)>) -> Result<(), Stop> {
        let mut assigned = Vec::new();
        assigned_in(self.p, block, &mut assigned);
        forget_scalars(env, &assigned);
        self.block(block, env, why)?;
        forget_scalars(env, &assigned);
        Ok(())
    }

    /// A loop with a constant trip count, one iteration after the other.
    fn unroll(
        &mut self,
        var: VarId,
        (start, stop, step): (i64, i64, i64),
        body: &[crate::ir::StmtId],
        env: &mut Env,
        maybe: Option<(Loc, Why)>,
    ) -> Result<(), Stop> {
        let mut i = start;
        while (step > 0 && i < stop) || (step < 0 && i > stop) {
            env.insert(var, Val::Int(i));
            if let Flow::Return(_) = self.block(body, env, maybe)? {
                return Err(Stop);
            }
            i = i.checked_add(step).ok_or(Stop)?;
            self.budget = self.budget.checked_sub(1).ok_or(Stop)?;
        }
        Ok(())
    }

    fn expr(&mut self, e: ExprId, env: &mut Env, maybe: Option<(Loc, Why)>) -> Result<Val, Stop> {
        let expr = self.p.expr(e);
        Ok(match &expr.kind {
            ExprKind::Var(v) => env.get(v).cloned().unwrap_or(Val::Unknown),
            ExprKind::Int(i) => Val::Int(*i),
            ExprKind::Bool(b) => Val::Bool(*b),
            ExprKind::Tuple(items) => {
                Val::Tuple(items.iter().map(|&i| self.expr(i, env, maybe)).collect::<Result<_, _>>()?)
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let (a, b) = (self.expr(*lhs, env, maybe)?, self.expr(*rhs, env, maybe)?);
                binary(*op, a, b)
            }
            ExprKind::Unary { op, operand } => match (op, self.expr(*operand, env, maybe)?) {
                (UnOp::Neg, Val::Int(i)) => i.checked_neg().map_or(Val::Unknown, Val::Int),
                (_, Val::Spread) => Val::Spread,
                (UnOp::Not, Val::Bool(b)) => Val::Bool(!b),
                _ => Val::Unknown,
            },
            ExprKind::TupleGet { tuple, index } => match self.expr(*tuple, env, maybe)? {
                Val::Tuple(mut items) if (*index as usize) < items.len() => items.swap_remove(*index as usize),
                _ => Val::Unknown,
            },
            ExprKind::Call { callee, args, .. } => {
                let vals: Vec<Option<Val>> =
                    args.iter().map(|a| a.map(|a| self.expr(a, env, maybe)).transpose()).collect::<Result<_, _>>()?;
                match callee {
                    Callee::Op(op) => self.op(*op, e, args, &vals, maybe),
                    Callee::Func(f) => self.call(*f, e, &vals, maybe)?,
                    // A launch's value: the function's results, then its task id.
                    Callee::Submit(f) => match self.call(*f, e, &vals, maybe)? {
                        Val::Tuple(mut items) => {
                            items.push(Val::Unknown);
                            Val::Tuple(items)
                        }
                        one => Val::Tuple(vec![one, Val::Unknown]),
                    },
                }
            }
            _ => Val::Unknown,
        })
    }

    /// A call of a function: its body with the arguments bound, its result what it returns.
    fn call(&mut self, f: Symbol, at: ExprId, vals: &[Option<Val>], maybe: Option<(Loc, Why)>) -> Result<Val, Stop> {
        let Some(func) = self.p.functions.get(&f) else { return Ok(Val::Unknown) };
        if func.decl.external_source.is_some() {
            // An external kernel's writes are those of its C++ file: not modelled.
            for (param, v) in func.params.iter().zip(vals) {
                if let (Direction::Out | Direction::InOut, Some(Val::Buf { param: b, .. } | Val::Tainted(b))) =
                    (param.dir, v)
                {
                    self.bufs[*b].gave_up = true;
                }
            }
            return Ok(Val::Unknown);
        }
        if self.depth >= MAX_DEPTH {
            return Err(Stop);
        }
        let mut env = Env::default();
        for (param, v) in func.params.iter().zip(vals) {
            env.insert(param.var, v.clone().unwrap_or(Val::Unknown));
        }
        if self.depth == 0 {
            self.site = Some(self.p.expr(at).loc);
        }
        self.depth += 1;
        let flow = self.block(&func.body, &mut env, maybe);
        self.depth -= 1;
        if self.depth == 0 {
            self.site = None;
        }
        Ok(match flow? {
            Flow::Return(mut v) if v.len() == 1 => v.pop().unwrap_or(Val::Unknown),
            Flow::Return(v) => Val::Tuple(v),
            Flow::Next => Val::Unknown,
        })
    }

    /// An op: the writes into an `Out` parameter it makes, and its value.
    fn op(
        &mut self,
        op: crate::ir::ops::Op,
        call: ExprId,
        args: &[Option<ExprId>],
        vals: &[Option<Val>],
        maybe: Option<(Loc, Why)>,
    ) -> Val {
        let def = op.def();
        let loc = self.p.expr(call).loc;
        let val = |p: P| def.param_index(p).and_then(|i| vals.get(i).cloned().flatten());
        let ty = |p: P| def.arg(args, p).map(|e| self.p.ty(e));
        let window = |t: Option<&Type>| t.and_then(static_shape);
        let (target, offsets, extent) = match def.kind {
            OpKind::Special(Special::Store) => {
                let extent = match (window(ty(P::Tile)), val(P::Shapes).as_ref().and_then(ints)) {
                    (Some(tile), Some(limit)) if limit.len() == tile.len() => {
                        Some(tile.iter().zip(&limit).map(|(t, l)| (*t).min(*l)).collect())
                    }
                    (tile, _) => tile,
                };
                (val(P::OutputTensor), val(P::Offsets), extent)
            }
            OpKind::Special(Special::BlockStore) => {
                let offsets = Some(Val::Tuple(vec![
                    val(P::RowOffset).unwrap_or(Val::Unknown),
                    val(P::ColOffset).unwrap_or(Val::Unknown),
                ]));
                let extent = match (val(P::Height), val(P::Width)) {
                    (Some(Val::Int(h)), Some(Val::Int(w))) => Some(vec![h, w]),
                    _ => None,
                };
                (val(P::OutputTensor), offsets, extent)
            }
            OpKind::Special(Special::Assemble) => (val(P::Target), val(P::Offset), window(ty(P::Source))),
            OpKind::Special(Special::Copy) => {
                let extent = val(P::Shape).as_ref().and_then(ints).or_else(|| window(ty(P::Src)));
                (val(P::Dst), val(P::DstOffsets).or(Some(Val::Tuple(Vec::new()))), extent)
            }
            OpKind::Special(Special::Write) => {
                let one = match val(P::Indices) {
                    Some(Val::Tuple(items)) => Some(vec![1; items.len()]),
                    _ => None,
                };
                (val(P::Tensor).or_else(|| val(P::Tile)), val(P::Indices), one)
            }
            OpKind::Special(Special::Slice) => return slice(val(P::X), val(P::Offset)),
            OpKind::Special(Special::BlockIdx) => return Val::Spread,
            _ => {
                // Any other op that writes a parameter's buffer: not modelled.
                for (i, v) in vals.iter().enumerate() {
                    if let Some(Val::Buf { param, .. } | Val::Tainted(param)) = v {
                        if def.effect(i) != Effect::Read {
                            self.bufs[*param].gave_up = true;
                        }
                    }
                }
                return match vals.iter().flatten().find_map(buffer_of) {
                    Some(param) if matches!(self.p.ty(call), Type::Tensor { .. } | Type::Tuple(_)) => {
                        Val::Tainted(param)
                    }
                    _ => Val::Unknown,
                };
            }
        };
        self.write(target.clone(), offsets, extent, loc, maybe);
        target.unwrap_or(Val::Unknown)
    }

    /// Records a write of `extent` elements at `offsets` into `target`.
    fn write(
        &mut self,
        target: Option<Val>,
        offsets: Option<Val>,
        extent: Option<Vec<i64>>,
        loc: Loc,
        maybe: Option<(Loc, Why)>,
    ) {
        let (param, base) = match target {
            Some(Val::Buf { param, offset }) => (param, offset),
            Some(Val::Tainted(param)) => {
                self.bufs[param].gave_up = true;
                return;
            }
            _ => return,
        };
        let Some(extent) = extent else {
            self.bufs[param].gave_up = true;
            return;
        };
        if let Some(Val::Tuple(items)) = &offsets {
            if items.contains(&Val::Spread) {
                self.bufs[param].gave_up = true;
                return;
            }
        }
        let offsets = match offsets.as_ref() {
            Some(Val::Tuple(items)) if items.is_empty() => Some(vec![0; extent.len()]),
            Some(v) => ints(v),
            None => None,
        };
        let why = match (maybe, &offsets) {
            (Some(m), _) => Some(m),
            (None, None) => Some((self.site.unwrap_or(loc), Why::Offset)),
            (None, Some(_)) => None,
        };
        let written = &mut self.bufs[param];
        match (why, offsets) {
            (Some(w), _) => written.maybe.push(w),
            (None, Some(lo)) if lo.len() == extent.len() => {
                let lo: Vec<i64> = match &base {
                    Some(b) if b.len() == lo.len() => lo.iter().zip(b).map(|(a, b)| a.saturating_add(*b)).collect(),
                    Some(_) => {
                        written.gave_up = true;
                        return;
                    }
                    None => lo,
                };
                let hi = lo.iter().zip(&extent).map(|(l, e)| l.saturating_add(*e)).collect();
                written.boxes.push(Box { lo, hi });
            }
            _ => written.gave_up = true,
        }
    }
}

/// A window of a parameter's buffer (`pl.slice`), or a tainted tensor.
fn slice(x: Option<Val>, offset: Option<Val>) -> Val {
    match (x, offset.as_ref().and_then(ints)) {
        (Some(Val::Buf { param, offset: base }), Some(off)) => {
            let offset = match base {
                None => Some(off),
                Some(b) if b.len() == off.len() => {
                    Some(b.iter().zip(&off).map(|(a, b)| a.saturating_add(*b)).collect())
                }
                Some(_) => return Val::Tainted(param),
            };
            Val::Buf { param, offset }
        }
        (Some(Val::Buf { param, .. } | Val::Tainted(param)), _) => Val::Tainted(param),
        _ => Val::Unknown,
    }
}

/// The parameter whose buffer a value is (or is made from).
fn buffer_of(v: &Val) -> Option<usize> {
    match v {
        Val::Buf { param, .. } | Val::Tainted(param) => Some(*param),
        Val::Tuple(items) => items.iter().find_map(buffer_of),
        _ => None,
    }
}

/// A tuple of known integers.
fn ints(v: &Val) -> Option<Vec<i64>> {
    match v {
        Val::Tuple(items) => items.iter().map(|i| if let Val::Int(i) = i { Some(*i) } else { None }).collect(),
        _ => None,
    }
}

fn binary(op: BinOp, a: Val, b: Val) -> Val {
    match (op, a, b) {
        (_, Val::Spread, _) | (_, _, Val::Spread) => Val::Spread,
        (BinOp::And, Val::Bool(x), Val::Bool(y)) => Val::Bool(x && y),
        (BinOp::Or, Val::Bool(x), Val::Bool(y)) => Val::Bool(x || y),
        (BinOp::And, Val::Bool(false), _) | (BinOp::And, _, Val::Bool(false)) => Val::Bool(false),
        (BinOp::Or, Val::Bool(true), _) | (BinOp::Or, _, Val::Bool(true)) => Val::Bool(true),
        (op, Val::Int(x), Val::Int(y)) => match op {
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                arith::compare(op, &x, &y).map_or(Val::Unknown, Val::Bool)
            }
            _ => match arith::int(op, x, y, false) {
                Ok(arith::Scalar::Int(i)) => Val::Int(i),
                Ok(arith::Scalar::Bool(b)) => Val::Bool(b),
                _ => Val::Unknown,
            },
        },
        _ => Val::Unknown,
    }
}

/// The extents of a tensor or tile type when every one is a constant.
fn static_shape(ty: &Type) -> Option<Vec<i64>> {
    let dims = match ty {
        Type::Tensor { shape: Some(shape), .. } => shape,
        Type::Tile { shape, .. } => shape,
        _ => return None,
    };
    dims.iter().map(|d| if let Dim::Const(c) = d { Some(*c) } else { None }).collect()
}

/// What is left of the box `[0, shape)` once `boxes` are taken out (`None`: too many
/// pieces to tell).
fn uncovered(shape: &[i64], boxes: &[Box]) -> Option<Vec<Box>> {
    let mut left = vec![Box { lo: vec![0; shape.len()], hi: shape.to_vec() }];
    for b in boxes {
        let mut next = Vec::with_capacity(left.len());
        for piece in left {
            subtract(piece, b, &mut next);
        }
        if next.len() > MAX_PIECES {
            return None;
        }
        left = next;
    }
    Some(left)
}

/// The parts of `a` outside `b`, pushed to `out` (at most two per dimension).
fn subtract(mut a: Box, b: &Box, out: &mut Vec<Box>) {
    if b.lo.len() != a.lo.len() || (0..a.lo.len()).any(|d| b.hi[d] <= a.lo[d] || b.lo[d] >= a.hi[d]) {
        out.push(a);
        return;
    }
    for d in 0..a.lo.len() {
        if a.lo[d] < b.lo[d] {
            let mut below = a.clone();
            below.hi[d] = b.lo[d];
            out.push(below);
            a.lo[d] = b.lo[d];
        }
        if a.hi[d] > b.hi[d] {
            let mut above = a.clone();
            above.lo[d] = b.hi[d];
            out.push(above);
            a.hi[d] = b.hi[d];
        }
    }
}

/// The functions some function of the program calls or launches.
fn called_functions(program: &Program) -> FxHashSet<Symbol> {
    let mut called = FxHashSet::default();
    for e in &program.exprs {
        if let ExprKind::Call { callee: Callee::Func(f) | Callee::Submit(f), .. } = &e.kind {
            called.insert(*f);
        }
    }
    called
}

/// Whether a loop body can leave early (`break`, `continue`, `return` at any depth).
fn exits(p: &Program, block: &[crate::ir::StmtId]) -> bool {
    let mut found = false;
    crate::ir::visit::walk_stmts(p, block, |s| {
        found |= matches!(p.stmt(s).kind, StmtKind::Break | StmtKind::Continue | StmtKind::Return(_));
    });
    found
}

/// Every variable a block assigns, at any depth.
fn assigned_in(p: &Program, block: &[crate::ir::StmtId], out: &mut Vec<VarId>) {
    crate::ir::visit::walk_stmts(p, block, |s| match &p.stmt(s).kind {
        StmtKind::Assign { var, .. } => out.push(*var),
        StmtKind::For(for_) => {
            let ForStmt { var, iter_args, return_vars, .. } = &**for_;
            out.push(*var);
            out.extend(iter_args.iter().map(|ia| ia.var));
            out.extend(return_vars);
        }
        StmtKind::While(while_) => {
            let WhileStmt { iter_args, return_vars, .. } = &**while_;
            out.extend(iter_args.iter().map(|ia| ia.var));
            out.extend(return_vars);
        }
        StmtKind::If(if_) => {
            let IfStmt { return_vars, .. } = &**if_;
            out.extend(return_vars)
        }
        _ => {}
    });
}

/// Makes the variables that do not hold a parameter's buffer unknown.
fn forget_scalars(env: &mut Env, vars: &[VarId]) {
    for v in vars {
        if !matches!(env.get(v), Some(Val::Buf { .. } | Val::Tainted(_))) {
            env.insert(*v, Val::Unknown);
        }
    }
}

/// Makes variables unknown.
fn forget<'a>(env: &mut Env, vars: impl IntoIterator<Item = &'a VarId>) {
    for v in vars {
        env.insert(*v, Val::Unknown);
    }
}
