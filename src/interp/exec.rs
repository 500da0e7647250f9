//! Statements, expressions, calls, task launches and scopes.
//!
//! Everything runs in program order: a task launch (`pl.submit`) runs its function at
//! once and returns its results followed by a fresh task id; dependencies only order work
//! and are not needed when nothing runs concurrently. Loops with iter args bind the
//! yielded values to the iter args for the next iteration and to the return variables
//! after the last; `break` leaves with the iter args' current values, `continue` keeps
//! them (the meaning PyPTO's own reference lowering gives a loop that carries values).

use super::ops;
use super::value::{Num, Value};
use crate::diag::Code;
use crate::intern::{Interner, Symbol};
use crate::ir::arith::{self, Scalar};
use crate::ir::{
    BinOp, Block, Callee, Direction, ExprId, ExprKind, FuncKind, Function, IterArg, Loc, Program, ScopeKind, StmtId,
    StmtKind, UnOp, VarId,
};
use rustc_hash::FxHashMap;

/// The most elements one tensor or tile may have.
pub(super) const MAX_ELEMENTS: usize = 1 << 26;
/// The deepest chain of calls.
const MAX_CALL_DEPTH: usize = 256;

/// A run-time error and where it happened.
#[derive(Debug)]
pub(super) struct Fault {
    /// E0801 (a failure), E0802 (the step limit) or E0803 (an op with no CPU semantics).
    pub code: Code,
    pub message: String,
    pub loc: Loc,
}

type R<T> = Result<T, Fault>;

/// The variables of one function activation.
#[derive(Default)]
pub(super) struct Frame {
    vars: FxHashMap<VarId, Value>,
}

impl Frame {
    pub fn set(&mut self, var: VarId, value: Value) {
        self.vars.insert(var, value);
    }

    fn get(&self, var: VarId) -> Option<&Value> {
        self.vars.get(&var)
    }
}

/// How a block ended.
enum Flow {
    Next,
    Break,
    Continue,
    Return(Vec<Value>),
    Yield(Vec<Value>),
}

pub(super) struct Interp<'a> {
    program: &'a Program,
    names: &'a Interner,
    steps: u64,
    max_steps: u64,
    /// The extents of `pl.dynamic` dimensions, bound by the entry's arguments.
    dyn_dims: FxHashMap<Symbol, i64>,
    /// The block index and count that `pl.tile.get_block_idx()` / `get_block_num()` return.
    pub block_idx: i64,
    pub block_num: i64,
    next_task: i64,
    depth: usize,
}

impl<'a> Interp<'a> {
    pub fn new(
        programs: &'a [Program],
        names: &'a Interner,
        prog: usize,
        max_steps: u64,
        dyn_dims: FxHashMap<Symbol, i64>,
    ) -> Self {
        Interp {
            program: &programs[prog],
            names,
            steps: 0,
            max_steps,
            dyn_dims,
            block_idx: 0,
            block_num: 1,
            next_task: 0,
            depth: 0,
        }
    }

    pub fn names(&self) -> &'a Interner {
        self.names
    }

    /// Charges `units` steps of work done at `loc`; past the limit the run stops (E0802).
    pub fn charge(&mut self, units: u64, loc: Loc) -> R<()> {
        self.steps = self.steps.saturating_add(units);
        if self.steps > self.max_steps {
            let message = format!(
                "the run took more than {} steps (statements, loop iterations and element work); \
                 a loop that does not end? (--max-steps raises the limit)",
                self.max_steps
            );
            return Err(Fault { code: Code::E0802, message, loc });
        }
        Ok(())
    }

    /// The work an op's value took: one step per 256 elements.
    fn charge_value(&mut self, value: &Value, loc: Loc) -> R<()> {
        let work = match value {
            Value::Tensor(t) => t.len(),
            Value::Tile(t) => t.borrow().len(),
            _ => 0,
        };
        self.charge(work as u64 / 256, loc)
    }

    fn fault(&self, message: impl Into<String>, loc: Loc) -> Fault {
        Fault { code: Code::E0801, message: message.into(), loc }
    }

    fn var_name(&self, var: VarId) -> &str {
        self.names.get(self.program.var(var).name)
    }

    /// Runs a function whose parameters are bound in `frame`; its returned values.
    pub fn run_function(&mut self, func: &Function, frame: Frame) -> R<Vec<Value>> {
        self.run_function_keeping(func, frame).0
    }

    fn block(&mut self, block: &Block, frame: &mut Frame) -> R<Flow> {
        for &stmt in block {
            match self.stmt(stmt, frame)? {
                Flow::Next => {}
                flow => return Ok(flow),
            }
        }
        Ok(Flow::Next)
    }

    fn stmt(&mut self, id: StmtId, frame: &mut Frame) -> R<Flow> {
        let program = self.program;
        let stmt = program.stmt(id);
        let loc = stmt.loc;
        self.charge(1, loc)?;
        match &stmt.kind {
            StmtKind::Assign { var, value } => {
                let v = self.expr(*value, frame)?;
                frame.set(*var, v);
                Ok(Flow::Next)
            }
            StmtKind::Eval(e) => {
                self.expr(*e, frame)?;
                Ok(Flow::Next)
            }
            StmtKind::Return(values) => Ok(Flow::Return(self.exprs(values, frame)?)),
            StmtKind::Yield(values) => Ok(Flow::Yield(self.exprs(values, frame)?)),
            StmtKind::Break => Ok(Flow::Break),
            StmtKind::Continue => Ok(Flow::Continue),
            StmtKind::If { cond, then_body, else_body, return_vars } => {
                let c = self.expr(*cond, frame)?;
                let taken = truthy(&c).map_err(|m| self.fault(m, program.expr(*cond).loc))?;
                let flow = match (taken, else_body) {
                    (true, _) => self.block(then_body, frame)?,
                    (false, Some(e)) => self.block(e, frame)?,
                    (false, None) => Flow::Next,
                };
                match flow {
                    Flow::Yield(values) => {
                        self.bind_all(return_vars, values, frame, loc)?;
                        Ok(Flow::Next)
                    }
                    Flow::Next if !return_vars.is_empty() => {
                        Err(self.fault("a branch of this `if` ends without a yield for its results", loc))
                    }
                    flow => Ok(flow),
                }
            }
            StmtKind::For { var, start, stop, step, iter_args, body, return_vars, .. } => {
                let int = |this: &mut Self, e: ExprId, frame: &mut Frame, what: &str| -> R<i64> {
                    let v = this.expr(e, frame)?;
                    as_int(&v).ok_or_else(|| {
                        this.fault(
                            format!("the loop's {what} must be an integer, not {}", v.kind()),
                            program.expr(e).loc,
                        )
                    })
                };
                let (start, stop, step) = (
                    int(self, *start, frame, "start")?,
                    int(self, *stop, frame, "stop")?,
                    int(self, *step, frame, "step")?,
                );
                if step == 0 {
                    return Err(self.fault("the loop's step is 0", loc));
                }
                let mut current = self.exprs(&iter_args.iter().map(|a| a.init).collect::<Vec<_>>(), frame)?;
                let mut i = start;
                while (step > 0 && i < stop) || (step < 0 && i > stop) {
                    self.charge(1, loc)?;
                    frame.set(*var, Value::Int(i));
                    enter_iteration(iter_args, &current, frame);
                    match self.iteration(iter_args, body, &mut current, frame, loc)? {
                        Flow::Break => break,
                        ret @ Flow::Return(_) => return Ok(ret),
                        _ => {}
                    }
                    i = match i.checked_add(step) {
                        Some(next) => next,
                        None => break,
                    };
                }
                self.bind_all(return_vars, current, frame, loc)?;
                Ok(Flow::Next)
            }
            StmtKind::While { cond, iter_args, body, return_vars } => {
                let mut current = self.exprs(&iter_args.iter().map(|a| a.init).collect::<Vec<_>>(), frame)?;
                loop {
                    self.charge(1, loc)?;
                    enter_iteration(iter_args, &current, frame);
                    let c = self.expr(*cond, frame)?;
                    if !truthy(&c).map_err(|m| self.fault(m, program.expr(*cond).loc))? {
                        break;
                    }
                    match self.iteration(iter_args, body, &mut current, frame, loc)? {
                        Flow::Break => break,
                        ret @ Flow::Return(_) => return Ok(ret),
                        _ => {}
                    }
                }
                self.bind_all(return_vars, current, frame, loc)?;
                Ok(Flow::Next)
            }
            StmtKind::Scope(scope) => {
                if let Some(tid) = scope.task_id {
                    let id = self.new_task_id();
                    frame.set(tid, Value::TaskId(id));
                }
                match &scope.kind {
                    ScopeKind::Spmd { core_num } => {
                        let n = self.expr(*core_num, frame)?;
                        let n = as_int(&n).filter(|&n| n >= 0).ok_or_else(|| {
                            self.fault(
                                format!("pl.spmd needs a block count >= 0, not {}", describe(&n)),
                                program.expr(*core_num).loc,
                            )
                        })?;
                        self.blocks(n, loc, |this| this.block(&scope.body, frame))
                    }
                    // Device work, clusters, graphs and runtime scopes run where they stand.
                    _ => self.block(&scope.body, frame),
                }
            }
        }
    }

    /// Runs `body` once per block index `0..n`, with the block count `n`.
    fn blocks(&mut self, n: i64, loc: Loc, mut body: impl FnMut(&mut Self) -> R<Flow>) -> R<Flow> {
        let saved = (self.block_idx, self.block_num);
        let mut result = Ok(Flow::Next);
        for b in 0..n {
            (self.block_idx, self.block_num) = (b, n);
            if let Err(f) = self.charge(1, loc) {
                result = Err(f);
                break;
            }
            match body(self) {
                Ok(Flow::Next) => {}
                other => {
                    result = other;
                    break;
                }
            }
        }
        (self.block_idx, self.block_num) = saved;
        result
    }

    fn new_task_id(&mut self) -> i64 {
        let id = self.next_task;
        self.next_task += 1;
        id
    }

    /// Runs one iteration of a loop body: its yield becomes the carried values. Returns
    /// `Break` or `Return` when the loop ends there, `Next` otherwise.
    fn iteration(
        &mut self,
        iter_args: &[IterArg],
        body: &Block,
        current: &mut Vec<Value>,
        frame: &mut Frame,
        loc: Loc,
    ) -> R<Flow> {
        match self.block(body, frame)? {
            Flow::Yield(values) => {
                if values.len() != iter_args.len() {
                    return Err(self.fault(
                        format!("the loop yields {} values for {} iter args", values.len(), iter_args.len()),
                        loc,
                    ));
                }
                *current = values;
                Ok(Flow::Next)
            }
            Flow::Next | Flow::Continue => Ok(Flow::Next),
            other => Ok(other),
        }
    }

    fn bind_all(&mut self, vars: &[VarId], values: Vec<Value>, frame: &mut Frame, loc: Loc) -> R<()> {
        if vars.is_empty() {
            return Ok(());
        }
        if vars.len() != values.len() {
            return Err(self.fault(format!("{} values for {} results", values.len(), vars.len()), loc));
        }
        for (v, value) in vars.iter().zip(values) {
            frame.set(*v, value);
        }
        Ok(())
    }

    fn exprs(&mut self, ids: &[ExprId], frame: &mut Frame) -> R<Vec<Value>> {
        ids.iter().map(|&e| self.expr(e, frame)).collect()
    }

    pub(super) fn dyn_dim(&self, sym: Symbol) -> Option<i64> {
        self.dyn_dims.get(&sym).copied()
    }

    fn expr(&mut self, id: ExprId, frame: &mut Frame) -> R<Value> {
        let program = self.program;
        let e = program.expr(id);
        Ok(match &e.kind {
            ExprKind::Var(v) => match frame.get(*v) {
                Some(value) => value.clone(),
                None => {
                    return Err(self.fault(
                        format!("`{}` has no value here: it is read before it is assigned", self.var_name(*v)),
                        e.loc,
                    ))
                }
            },
            ExprKind::Int(i) => Value::Int(*i),
            ExprKind::Float(f) => Value::Float(*f),
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::Str(s) => Value::Str(*s),
            ExprKind::None => Value::None,
            ExprKind::DType(d) => Value::DType(*d),
            ExprKind::Enum(v) => Value::Enum(*v),
            ExprKind::DynDim(sym) => match self.dyn_dim(*sym) {
                Some(n) => Value::Int(n),
                None => {
                    return Err(self.fault(
                        format!(
                            "the dynamic dimension `{}` has no value: no argument of the entry has it",
                            self.names.get(*sym)
                        ),
                        e.loc,
                    ))
                }
            },
            ExprKind::Tuple(items) => Value::tuple(self.exprs(items, frame)?),
            ExprKind::Binary { op: op @ (BinOp::And | BinOp::Or), lhs, rhs } => {
                let l = self.expr(*lhs, frame)?;
                let t = truthy(&l).map_err(|m| self.fault(m, program.expr(*lhs).loc))?;
                if t == (*op == BinOp::And) {
                    self.expr(*rhs, frame)?
                } else {
                    l
                }
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let l = self.expr(*lhs, frame)?;
                let r = self.expr(*rhs, frame)?;
                binary(*op, &l, &r).map_err(|m| self.fault(m, e.loc))?
            }
            ExprKind::Unary { op, operand } => {
                let v = self.expr(*operand, frame)?;
                unary(*op, &v).map_err(|m| self.fault(m, e.loc))?
            }
            ExprKind::TupleGet { tuple, index } => match self.expr(*tuple, frame)? {
                Value::Tuple(items) => match items.get(*index as usize) {
                    Some(v) => v.clone(),
                    None => {
                        return Err(self.fault(format!("element {index} of a tuple of {}", items.len()), e.loc));
                    }
                },
                other => return Err(self.fault(format!("`[{index}]` of {}, not of a tuple", other.kind()), e.loc)),
            },
            ExprKind::Call { callee, args, attrs } => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(match a {
                        Some(a) => Some(self.expr(*a, frame)?),
                        None => None,
                    });
                }
                match callee {
                    Callee::Op(op) => {
                        let value = ops::call(self, *op, values).map_err(|message| {
                            // An op the interpreter cannot run at all, or a failure of this call.
                            let code = if op.def().kind.no_cpu_form().is_some() { Code::E0803 } else { Code::E0801 };
                            Fault { code, message, loc: e.loc }
                        })?;
                        self.charge_value(&value, e.loc)?;
                        value
                    }
                    Callee::Func(f) | Callee::Submit(f) => {
                        let core_num = match attrs.launch.core_num {
                            Some(c) => {
                                let v = self.expr(c, frame)?;
                                Some(as_int(&v).filter(|&n| n >= 0).ok_or_else(|| {
                                    self.fault(format!("core_num must be an integer >= 0, not {}", describe(&v)), e.loc)
                                })?)
                            }
                            None => None,
                        };
                        let values: Vec<Value> = values.into_iter().map(|v| v.unwrap_or(Value::None)).collect();
                        let mut results = self.call(*f, values, args, core_num, frame, e.loc)?;
                        if matches!(callee, Callee::Submit(_)) {
                            let id = self.new_task_id();
                            results.push(Value::TaskId(id));
                            Value::tuple(results)
                        } else {
                            match results.len() {
                                0 => Value::None,
                                1 => results.pop().unwrap_or(Value::None),
                                _ => Value::tuple(results),
                            }
                        }
                    }
                }
            }
        })
    }

    /// Calls a function of the program: parameters bound by position (tensors and tiles by
    /// reference, so writes through `Out`/`InOut` parameters reach the caller), run
    /// `core_num` times with block indices `0..n` when given. A call of an Inline function
    /// also hands back what the body assigned to an `Out`/`InOut` parameter given a
    /// variable, as splicing the body does.
    fn call(
        &mut self,
        name: Symbol,
        args: Vec<Value>,
        arg_exprs: &[Option<ExprId>],
        core_num: Option<i64>,
        caller: &mut Frame,
        loc: Loc,
    ) -> R<Vec<Value>> {
        let program = self.program;
        let Some(func) = program.functions.get(&name) else {
            return Err(self.fault(format!("there is no function `{}` to call", self.names.get(name)), loc));
        };
        if args.len() != func.params.len() {
            return Err(self.fault(
                format!("`{}` takes {} arguments, {} given", self.names.get(name), func.params.len(), args.len()),
                loc,
            ));
        }
        let mut bound = Vec::with_capacity(args.len());
        for (p, value) in func.params.iter().zip(args) {
            let ty = program.types.get(program.var(p.var).ty);
            // A scalar takes the parameter's kind, as the generated C++ converts it; an
            // Inline function's parameter is the argument itself, as splicing makes it.
            let inline = func.kind == FuncKind::Inline;
            bound.push(match (ty, value) {
                (crate::ir::Type::Scalar(d), Value::Int(i)) if d.is_float() && !inline => Value::Float(i as f64),
                (crate::ir::Type::Scalar(d), Value::Float(f)) if d.is_int() && !inline => Value::Int(f as i64),
                (_, v) => v,
            });
        }
        let runs = core_num.unwrap_or(1);
        let mut results = Vec::new();
        let mut last_frame = None;
        let saved = (self.block_idx, self.block_num);
        for b in 0..runs {
            if let Err(f) = self.charge(1, loc) {
                (self.block_idx, self.block_num) = saved;
                return Err(f);
            }
            if core_num.is_some() {
                (self.block_idx, self.block_num) = (b, runs);
            }
            let mut frame = Frame::default();
            for (p, value) in func.params.iter().zip(&bound) {
                frame.set(p.var, value.clone());
            }
            let (out, frame) = self.run_function_keeping(func, frame);
            match out {
                Ok(values) => results = values,
                Err(f) => {
                    (self.block_idx, self.block_num) = saved;
                    return Err(f);
                }
            }
            last_frame = Some(frame);
        }
        (self.block_idx, self.block_num) = saved;
        if func.kind == FuncKind::Inline {
            if let Some(frame) = last_frame {
                for (p, arg) in func.params.iter().zip(arg_exprs) {
                    if p.dir == Direction::In {
                        continue;
                    }
                    if let (Some(arg), Some(value)) = (arg, frame.get(p.var)) {
                        if let ExprKind::Var(v) = program.expr(*arg).kind {
                            caller.set(v, value.clone());
                        }
                    }
                }
            }
        }
        Ok(results)
    }

    fn run_function_keeping(&mut self, func: &Function, mut frame: Frame) -> (R<Vec<Value>>, Frame) {
        self.depth += 1;
        if self.depth > MAX_CALL_DEPTH {
            self.depth -= 1;
            let f = self.fault(
                format!("calls nested more than {MAX_CALL_DEPTH} deep (a function that calls itself?)"),
                func.loc,
            );
            return (Err(f), frame);
        }
        let flow = self.block(&func.body, &mut frame);
        self.depth -= 1;
        let out = flow.map(|f| match f {
            Flow::Return(values) => values,
            _ => Vec::new(),
        });
        (out, frame)
    }
}

/// Python's truth of a condition.
pub(super) fn truthy(v: &Value) -> Result<bool, String> {
    match v {
        Value::Bool(b) => Ok(*b),
        Value::Int(i) => Ok(*i != 0),
        Value::Float(f) => Ok(*f != 0.0),
        Value::None => Ok(false),
        Value::TaskId(t) => Ok(*t >= 0),
        other => Err(format!("{} used as a condition", other.kind())),
    }
}

pub(super) fn as_int(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Bool(b) => Some(*b as i64),
        _ => None,
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        other => other.kind().to_string(),
    }
}

/// A scalar operator with Python's meaning: integer arithmetic stays integral (an overflow
/// is an error), `/` is true division, `//` and `%` round toward negative infinity.
pub(super) fn binary(op: BinOp, l: &Value, r: &Value) -> Result<Value, String> {
    let (Some(a), Some(b)) = (l.num(), r.num()) else {
        return match op {
            BinOp::Eq => Ok(Value::Bool(same(l, r))),
            BinOp::Ne => Ok(Value::Bool(!same(l, r))),
            _ => Err(format!("`{}` needs numbers, not {} and {}", op.spelling(), l.kind(), r.kind())),
        };
    };
    let bools = matches!((l, r), (Value::Bool(_), Value::Bool(_)));
    let result = match (a, b) {
        (Num::I(x), Num::I(y)) => arith::int(op, x, y, bools),
        _ => arith::float(op, a.as_f64(), b.as_f64()),
    };
    match result.map_err(|e| e.message(op))? {
        Scalar::Int(v) => Ok(Value::Int(v)),
        Scalar::Float(v) => Ok(Value::Float(v)),
        Scalar::Bool(v) => Ok(Value::Bool(v)),
    }
}

/// Equality of values that are not numbers (dtypes, enumeration values, strings, None).
fn same(l: &Value, r: &Value) -> bool {
    match (l, r) {
        (Value::None, Value::None) => true,
        (Value::DType(a), Value::DType(b)) => a == b,
        (Value::Enum(a), Value::Enum(b)) => a == b,
        (Value::Str(a), Value::Str(b)) => a == b,
        _ => false,
    }
}

fn unary(op: UnOp, v: &Value) -> Result<Value, String> {
    match op {
        UnOp::Not => Ok(Value::Bool(!truthy(v)?)),
        UnOp::Neg => match v.num() {
            Some(Num::I(i)) => Ok(Value::Int(i.checked_neg().ok_or("integer overflow in `-`")?)),
            Some(Num::F(f)) => Ok(Value::Float(-f)),
            None => Err(format!("`-` needs a number, not {}", v.kind())),
        },
        UnOp::BitNot => match v.num() {
            Some(Num::I(i)) => Ok(Value::Int(!i)),
            _ => Err(format!("`~` needs an integer, not {}", v.kind())),
        },
    }
}

/// Binds a loop's iter args to their values for the next iteration.
fn enter_iteration(iter_args: &[IterArg], current: &[Value], frame: &mut Frame) {
    for (arg, value) in iter_args.iter().zip(current) {
        frame.set(arg.var, value.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_integer_division() {
        assert!(matches!(binary(BinOp::Div, &Value::Int(7), &Value::Int(2)), Ok(Value::Float(f)) if f == 3.5));
        assert!(binary(BinOp::FloorDiv, &Value::Int(1), &Value::Int(0)).is_err());
        assert!(binary(BinOp::Mul, &Value::Int(i64::MAX), &Value::Int(2)).is_err());
        assert!(matches!(binary(BinOp::Pow, &Value::Int(2), &Value::Int(-1)), Ok(Value::Float(f)) if f == 0.5));
    }
}
