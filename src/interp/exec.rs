//! Statements, expressions, calls, task launches and scopes.
//!
//! Everything runs in program order: a task launch (`pl.submit`) runs its function at
//! once and returns its results followed by a fresh task id; dependencies only order work
//! and are not needed when nothing runs concurrently. Loops with iter args bind the
//! yielded values to the iter args for the next iteration and to the return variables
//! after the last; `break` leaves with the iter args' current values, `continue` keeps
//! them (the meaning PyPTO's own reference lowering gives a loop that carries values).

use super::ops;
use super::tasks::{self, Access, Dep, Recording, Tasks};
use super::value::{Data, Num, Tensor, Value, POISON_F32_BITS, POISON_I64};
use crate::diag::Code;
use crate::intern::{Interner, Symbol};
use crate::ir::arith::{self, Scalar};
use crate::ir::ops::{Op, OpKind, Special};
use crate::ir::{
    ArgDir, BinOp, Block, Callee, Direction, Expr, ExprId, ExprKind, ForStmt, FuncKind, Function, IfStmt, IterArg,
    Layout, Loc, Program, ScopeKind, StmtId, StmtKind, Type, UnOp, VarId, WhileStmt,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::RefCell;
use std::rc::Rc;

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

/// E0803 for a run that reaches an external kernel: its body is C++ (for the device), which
/// has no CPU meaning in plc.
fn external_kernel(names: &Interner, func: &Function, loc: Loc) -> Fault {
    let message = format!(
        "the external kernel `{}` cannot run: its body is hand-written device C++ (its `external_source=` file), which has no CPU meaning in plc",
        names.get(func.name)
    );
    Fault { code: Code::E0803, message, loc }
}

/// A warning found while running (E0805 a race, E0806 a read of an undefined element, E0807
/// a host access simpler cannot make as `plc run` does).
#[derive(Debug)]
pub(super) struct Notice {
    pub code: Code,
    pub message: String,
    pub primary: (Loc, String),
    pub secondary: Vec<(Loc, String)>,
    pub help: String,
}

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
pub(super) enum Flow {
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
    /// Inside a task's kernel: calls there are not task launches.
    in_kernel: bool,
    /// The tasks launched, for race checks.
    tasks: Tasks,
    /// Inside a `pl.manual_scope`: the index of its first task.
    manual_since: Option<usize>,
    /// Model Graph record and replay (see `tasks`); off, a Graph call runs its body.
    pub replay_graphs: bool,
    recording: Option<Recording>,
    graphs: FxHashMap<Symbol, tasks::Definition>,
    /// The entry's `Out` tensors (poisoned until written), by buffer: name and declaration.
    pub out_buffers: FxHashMap<usize, (String, Loc)>,
    undefined_reads: FxHashSet<Loc>,
    /// When the entry is orchestration code: the buffers of its tensor arguments, the only
    /// ones simpler stages for host code to read and write (`check_host_access`).
    pub staged: Option<FxHashSet<usize>>,
    host_accesses: FxHashSet<Loc>,
    /// Warnings found while running.
    pub notices: Vec<Notice>,
    /// The cross-core pipes by `id=`: their slots and the tiles in them (`ops::cross_core`,
    /// `group::Pipe`).
    pub(super) pipes: FxHashMap<i64, super::group::Pipe>,
    /// Inside a batch of a Group's kernels running together: its baton (`group`), and the
    /// kernel that holds it (`group_me`).
    pub(super) group: Option<std::sync::Arc<super::group::Baton>>,
    group_me: usize,
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
            in_kernel: false,
            tasks: Tasks::default(),
            manual_since: None,
            replay_graphs: true,
            recording: None,
            graphs: FxHashMap::default(),
            out_buffers: FxHashMap::default(),
            undefined_reads: FxHashSet::default(),
            staged: None,
            host_accesses: FxHashSet::default(),
            notices: Vec::new(),
            pipes: FxHashMap::default(),
            group: None,
            group_me: 0,
        }
    }

    pub(super) fn program(&self) -> &'a Program {
        self.program
    }

    /// The state that belongs to the kernel running (see `group::Context`).
    pub(super) fn context(&self) -> super::group::Context {
        super::group::Context {
            depth: self.depth,
            in_kernel: self.in_kernel,
            block_idx: self.block_idx,
            block_num: self.block_num,
            manual_since: self.manual_since,
            me: self.group_me,
        }
    }

    pub(super) fn restore(&mut self, c: super::group::Context) {
        (self.depth, self.in_kernel, self.block_idx, self.block_num) = (c.depth, c.in_kernel, c.block_idx, c.block_num);
        (self.manual_since, self.group_me) = (c.manual_since, c.me);
    }

    /// Runs one kernel call of a Group's body; its returned values.
    pub(super) fn call_kernel(&mut self, call: super::group::Pending) -> R<Vec<Value>> {
        self.call(call.func, call.args, &[], None, &mut Frame::default(), call.loc)
    }

    /// A statement, for the Group bodies of `group`.
    pub(super) fn stmt_flow(&mut self, id: StmtId, frame: &mut Frame) -> R<Flow> {
        self.stmt(id, frame)
    }

    /// An expression, for the Group bodies of `group`.
    pub(super) fn eval(&mut self, id: ExprId, frame: &mut Frame) -> R<Value> {
        self.expr(id, frame)
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
            StmtKind::If(if_) => {
                let IfStmt { cond, then_body, else_body, return_vars } = &**if_;
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
            StmtKind::For(for_) => {
                let ForStmt { var, start, stop, step, iter_args, body, return_vars, .. } = &**for_;
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
                // A zero step runs zero times (PyPTO's static trip count): the test below
                // fails at once.
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
            StmtKind::While(while_) => {
                let WhileStmt { cond, iter_args, body, return_vars } = &**while_;
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
                    ScopeKind::Runtime { manual: true } if !self.in_kernel => {
                        let saved = self.manual_since;
                        self.manual_since = Some(saved.unwrap_or(self.tasks.len()));
                        let flow = self.block(&scope.body, frame);
                        self.manual_since = saved;
                        flow
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

    /// `pl.system.task_dummy(deps=...)`: a task that touches nothing, ordered after its
    /// dependencies, so that a task depending on its id is ordered after all of them. Its id.
    pub(super) fn dummy_task(&mut self, deps: Option<&Value>) -> Value {
        let mut ids = Vec::new();
        if let Some(v) = deps {
            task_ids(v, &mut ids);
        }
        let deps: Vec<Dep> =
            ids.iter().map(|id| self.tasks.ids.get(id).map_or(Dep::Unknown, |&t| Dep::Task(t))).collect();
        let (index, _) = self.tasks.launch(None, Loc::COMPILER, Vec::new(), &deps, self.manual_since);
        let id = self.new_task_id();
        self.tasks.ids.insert(id, index);
        Value::TaskId(id)
    }

    /// `pl.task_id_of(t)`: the id of the last task that wrote `t`'s elements (given one now
    /// when the task was launched without `pl.submit`); -1 when no task did.
    pub(super) fn task_id_of(&mut self, t: &Tensor) -> Value {
        let Some((lo, hi)) = tasks::extent(t) else { return Value::TaskId(-1) };
        let Some(index) = self.tasks.last_writer(tasks::buffer_id(t), lo, hi) else { return Value::TaskId(-1) };
        if let Some(id) = self.tasks.ids.iter().filter(|(_, &i)| i == index).map(|(&id, _)| id).max() {
            return Value::TaskId(id);
        }
        let id = self.new_task_id();
        self.tasks.ids.insert(id, index);
        Value::TaskId(id)
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

    /// A call of an op of the table: refused (E0803) when its form has no CPU meaning,
    /// else run, charged and watched for reads of undefined elements.
    fn op_call(&mut self, op: Op, values: Vec<Option<Value>>, e: &Expr) -> R<Value> {
        let watched = self.watched_read(&values);
        let result_type = self.program.types.get(e.ty);
        let result = result_type.dtype();
        let def = op.def();
        let given = |p| def.param_index(p).is_some_and(|i| matches!(values.get(i), Some(Some(_))));
        let no_cpu_form = def.no_cpu_form_of_call(given, result_type);
        if let Some(why) = no_cpu_form.filter(|_| def.kind.no_cpu_form().is_none()) {
            // A form of the op the CPU cannot run (the op itself says so when run).
            let message = format!("this form of `{}` has no semantics in the interpreter: {why}", def.spellings[0]);
            return Err(Fault { code: Code::E0803, message, loc: e.loc });
        }
        let program = self.program;
        let arg_ids: &[Option<ExprId>] = match &e.kind {
            ExprKind::Call { args, .. } => args,
            _ => &[],
        };
        if let (OpKind::Special(access @ (Special::Read | Special::Write)), Some(Some(Value::Tensor(t)))) =
            (def.kind, values.first())
        {
            if !self.in_kernel && self.staged.is_some() {
                let (buf, range) = (tasks::buffer_id(t), tasks::extent(t));
                let op_name = def.spellings.first().copied().unwrap_or(def.name);
                let tensor = arg_ids.first().copied().flatten();
                self.check_host_access(op_name, access == Special::Write, buf, range, tensor, e.loc);
            }
        }
        let arg_type = |i: usize| arg_ids.get(i).copied().flatten().map(|a| program.types.get(program.expr(a).ty));
        if let Some(why) = def.no_cpu_form_of_layouts(given, arg_type, result_type) {
            let message = format!("this form of `{}` has no semantics in the interpreter: {why}", def.spellings[0]);
            return Err(Fault { code: Code::E0803, message, loc: e.loc });
        }
        // The layout of the tensor an op views (values carry no layout, their types do).
        let source_layout = arg_type(0).and_then(Type::layout).unwrap_or(Layout::Nd);
        let no_cpu_form = no_cpu_form.is_some();
        let value = ops::call(self, op, values, result, source_layout).map_err(|message| {
            // An op the interpreter cannot run at all, or a failure of this call.
            let code = if no_cpu_form { Code::E0803 } else { Code::E0801 };
            Fault { code, message, loc: e.loc }
        })?;
        self.charge_value(&value, e.loc)?;
        if let Some((buf, inputs)) = watched {
            let op = def.spellings.first().copied().unwrap_or(def.name);
            self.check_undefined_read(op, buf, &inputs, &value, e.loc);
        }
        Ok(value)
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
                    Callee::Op(op) => self.op_call(*op, values, e)?,
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
                        let kind = program.functions.get(f).map(|func| func.decl.kind);
                        let mut task = None;
                        let mut results = if self.in_kernel {
                            self.call(*f, values, args, core_num, frame, e.loc)?
                        } else if kind.is_some_and(FuncKind::is_device_kernel) {
                            let (index, node) = self.launch(*f, &values, args, attrs, frame, e.loc)?;
                            task = Some((index, node));
                            self.in_kernel = true;
                            let out = self.call(*f, values, args, core_num, frame, e.loc);
                            self.in_kernel = false;
                            if let (Some(rec), Some(node)) = (self.recording.as_mut(), node) {
                                rec.nodes[node].core_num = core_num;
                            }
                            out?
                        } else if kind == Some(FuncKind::Graph) && self.replay_graphs && self.recording.is_none() {
                            self.graph_call(*f, values, args, frame, e.loc)?
                        } else {
                            self.call(*f, values, args, core_num, frame, e.loc)?
                        };
                        if matches!(callee, Callee::Submit(_)) {
                            let id = self.new_task_id();
                            if let Some((index, node)) = task {
                                self.tasks.ids.insert(id, index);
                                if let (Some(rec), Some(node)) = (self.recording.as_mut(), node) {
                                    rec.node_of_id.insert(id, node);
                                }
                            }
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
        if func.decl.external_source.is_some() {
            return Err(external_kernel(self.names, func, loc));
        }
        if args.len() != func.params.len() {
            return Err(self.fault(
                format!("`{}` takes {} arguments, {} given", self.names.get(name), func.params.len(), args.len()),
                loc,
            ));
        }
        let mut bound = Vec::with_capacity(args.len());
        let kernel = func.decl.kind.is_device_kernel();
        for (k, (p, value)) in func.params.iter().zip(args).enumerate() {
            let ty = program.types.get(program.var(p.var).ty);
            // A kernel reads a tensor parameter in its declared layout from the view's start
            // (`Layout::param_refuses`; the C++ wrapper's `plc::as_dn_packed`).
            let arg_layout =
                arg_exprs.get(k).copied().flatten().and_then(|a| program.types.get(program.expr(a).ty).layout());
            if let (true, Some(want), Some(got)) = (kernel, ty.layout(), arg_layout) {
                if let Some(why) = want.param_refuses(got) {
                    let message = format!(
                        "this call of `{}` has no semantics in the interpreter (argument {}): {why}",
                        self.names.get(name),
                        k + 1
                    );
                    return Err(Fault { code: Code::E0803, message, loc });
                }
            }
            // A scalar takes the parameter's kind, as the generated C++ converts it; an
            // Inline function's parameter is the argument itself, as splicing makes it.
            let inline = func.decl.kind == FuncKind::Inline;
            bound.push(match (ty, value) {
                (crate::ir::Type::Scalar(d), Value::Int(i)) if d.is_float() && !inline => Value::Float(i as f64),
                (crate::ir::Type::Scalar(d), Value::Float(f)) if d.is_int() && !inline => Value::Int(f as i64),
                (Type::Tensor { layout: Layout::Dn, .. }, Value::Tensor(t)) if kernel => {
                    Value::Tensor(t.as_dn_packed())
                }
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
        if func.decl.kind == FuncKind::Inline {
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

    /// What messages call an argument written as a variable: its source name, quoted.
    fn named_arg(&self, arg: Option<ExprId>) -> Option<String> {
        match arg.map(|a| &self.program.expr(a).kind) {
            Some(ExprKind::Var(v)) => Some(format!("`{}`", self.names.get(self.program.var(*v).source))),
            _ => None,
        }
    }

    /// How a task launch uses each tensor argument: (argument, written, tracked, name).
    fn modes(
        &self,
        name: Symbol,
        values: &[Value],
        arg_exprs: &[Option<ExprId>],
        attrs: &crate::ir::CallAttrs,
    ) -> Vec<(usize, bool, bool, String)> {
        let program = self.program;
        let Some(func) = program.functions.get(&name) else { return Vec::new() };
        let mut modes = Vec::new();
        for (i, (p, v)) in func.params.iter().zip(values).enumerate() {
            if !matches!(v, Value::Tensor(_)) {
                continue;
            }
            let (mut write, mut tracked) = (p.dir != Direction::In, true);
            match attrs.arg_directions.as_ref().and_then(|d| d.get(i)) {
                Some(ArgDir::Input) => write = false,
                Some(ArgDir::InOut | ArgDir::OutputExisting) => write = true,
                Some(ArgDir::NoDep) => tracked = false,
                _ => {}
            }
            if attrs.no_dep_positions().contains(&i) {
                tracked = false;
            }
            let label = self
                .named_arg(arg_exprs.get(i).copied().flatten())
                .unwrap_or_else(|| format!("argument {} of `{}`", i + 1, self.names.get(name)));
            modes.push((i, write, tracked, label));
        }
        modes
    }

    /// Records a task launch of `name` (its races, and its node in a Graph being recorded):
    /// the task's index and the node's.
    fn launch(
        &mut self,
        name: Symbol,
        values: &[Value],
        arg_exprs: &[Option<ExprId>],
        attrs: &crate::ir::CallAttrs,
        frame: &mut Frame,
        loc: Loc,
    ) -> R<(usize, Option<usize>)> {
        let mut ids = Vec::new();
        if let Some(d) = attrs.launch.deps {
            let v = self.expr(d, frame)?;
            task_ids(&v, &mut ids);
        }
        let deps: Vec<Dep> =
            ids.iter().map(|id| self.tasks.ids.get(id).map_or(Dep::Unknown, |&t| Dep::Task(t))).collect();
        let modes = self.modes(name, values, arg_exprs, attrs);
        let node = match self.recording.as_mut() {
            Some(rec) => {
                let args = values
                    .iter()
                    .zip(arg_exprs.iter().map(Some).chain(std::iter::repeat(None)))
                    .map(|(v, e)| {
                        let slot = match e.copied().flatten().map(|a| &self.program.expr(a).kind) {
                            Some(ExprKind::Var(var)) => rec.scalar_params.iter().position(|p| p == var),
                            _ => None,
                        };
                        rec.classify(v, slot)
                    })
                    .collect();
                let deps = ids.iter().filter_map(|id| rec.node_of_id.get(id).copied()).collect();
                rec.nodes.push(tasks::Node {
                    func: name,
                    loc,
                    core_num: None,
                    args,
                    deps,
                    modes: modes.clone(),
                    manual: self.manual_since.is_some(),
                });
                Some(rec.nodes.len() - 1)
            }
            None => None,
        };
        let index = self.launch_checked(name, values, &modes, &deps, self.manual_since, loc);
        Ok((index, node))
    }

    /// Adds a task to the race checks and reports its races.
    fn launch_checked(
        &mut self,
        name: Symbol,
        values: &[Value],
        modes: &[(usize, bool, bool, String)],
        deps: &[Dep],
        manual_since: Option<usize>,
        loc: Loc,
    ) -> usize {
        let accesses = modes
            .iter()
            .filter_map(|(i, write, tracked, label)| match values.get(*i) {
                Some(Value::Tensor(t)) => tasks::extent(t).map(|(lo, hi)| Access {
                    buf: tasks::buffer_id(t),
                    lo,
                    hi,
                    write: *write,
                    tracked: *tracked,
                    name: label.clone(),
                }),
                _ => None,
            })
            .collect();
        let (index, races) = self.tasks.launch(Some(name), loc, accesses, deps, manual_since);
        for race in races {
            let verb = |w: bool| if w { "writes" } else { "reads" };
            // A dummy task touches nothing, so it is in no race; the fallback is never shown.
            let name = |f: Option<Symbol>| f.map_or("a dummy task", |f| self.names.get(f));
            let (first, second) = (name(race.first.0), name(race.second.0));
            self.notices.push(Notice {
                code: Code::E0805,
                message: format!(
                    "the task `{second}` {} {} while the task `{first}`, which {} it, is not ordered before it: a race",
                    verb(race.second_writes),
                    race.name,
                    verb(race.first_writes)
                ),
                primary: (race.second.1, format!("this task {} {}", verb(race.second_writes), race.name)),
                secondary: vec![(race.first.1, format!("this task {} {}", verb(race.first_writes), race.name))],
                help: "the real runtime may run the two tasks in either order or at once; order them with `deps=`, \
                       or pass the argument without `pl.no_dep`"
                    .to_string(),
            });
        }
        index
    }

    /// A call of a Graph function: recorded on its first call, replayed on the later ones
    /// with the same boundary signature (see `tasks`).
    fn graph_call(
        &mut self,
        name: Symbol,
        values: Vec<Value>,
        arg_exprs: &[Option<ExprId>],
        caller: &mut Frame,
        loc: Loc,
    ) -> R<Vec<Value>> {
        let program = self.program;
        let Some(func) = program.functions.get(&name) else {
            return self.call(name, values, arg_exprs, None, caller, loc);
        };
        let (mut boundary, mut scalars, mut scalar_params) = (Vec::new(), Vec::new(), Vec::new());
        for (p, v) in func.params.iter().zip(&values) {
            match v {
                Value::Tensor(t) => boundary.push(t.clone()),
                Value::Int(_) | Value::Float(_) | Value::Bool(_) => {
                    scalars.push(v.clone());
                    scalar_params.push(p.var);
                }
                _ => {}
            }
        }
        let signature = tasks::Signature::of(&boundary, scalars.len());
        if boundary.is_empty() || values.len() != func.params.len() {
            return self.call(name, values, arg_exprs, None, caller, loc);
        }
        if let Some(def) = self.graphs.remove(&name) {
            let out = if def.signature == signature {
                self.replay(&def, &boundary, &scalars)
            } else {
                self.call(name, values, arg_exprs, None, caller, loc)
            };
            self.graphs.insert(name, def);
            return out;
        }
        if self.graphs.len() >= tasks::MAX_RECORDINGS {
            return self.call(name, values, arg_exprs, None, caller, loc);
        }
        self.recording = Some(Recording::new(boundary, scalar_params));
        let out = self.call(name, values, arg_exprs, None, caller, loc);
        let Some(mut rec) = self.recording.take() else { return out };
        let results = out?;
        if !rec.nodes.is_empty() {
            let recorded = results.iter().map(|v| rec.classify(v, None)).collect();
            self.graphs.insert(name, rec.finish(recorded));
        }
        Ok(results)
    }

    /// Runs a Graph's recorded tasks over a new boundary.
    fn replay(
        &mut self,
        def: &tasks::Definition,
        boundary: &[super::value::Tensor],
        scalars: &[Value],
    ) -> R<Vec<Value>> {
        let internals: Vec<Rc<RefCell<Data>>> =
            def.internals.iter().map(|d| Rc::new(RefCell::new(d.clone()))).collect();
        let start = self.tasks.len();
        let mut index_of = Vec::with_capacity(def.nodes.len());
        for node in &def.nodes {
            let args = node
                .args
                .iter()
                .map(|r| tasks::rebase(r, boundary, scalars, &internals))
                .collect::<Result<Vec<Value>, String>>()
                .map_err(|m| self.fault(m, node.loc))?;
            let deps: Vec<Dep> = node.deps.iter().filter_map(|&d| index_of.get(d).map(|&t| Dep::Task(t))).collect();
            let manual = if node.manual { Some(self.manual_since.unwrap_or(start)) } else { self.manual_since };
            let index = self.launch_checked(node.func, &args, &node.modes, &deps, manual, node.loc);
            index_of.push(index);
            self.in_kernel = true;
            let out = self.call(node.func, args, &[], node.core_num, &mut Frame::default(), node.loc);
            self.in_kernel = false;
            out?;
        }
        def.results
            .iter()
            .map(|r| tasks::rebase(r, boundary, scalars, &internals))
            .collect::<Result<Vec<Value>, String>>()
            .map_err(|m| self.fault(m, Loc::COMPILER))
    }

    /// Reports (once per place) a read or write of a tensor's elements by orchestration
    /// code (`op`, of the tensor `buf` over `range`, written as `tensor`) that simpler's
    /// host_build_graph runtime cannot do as `plc run` does. There the orchestration
    /// function runs to its end on the host before any task runs, and an element access
    /// waits for the task that last wrote the tensor (a write also for that task's
    /// readers): so it waits forever (simpler stops the run: TENSOR_WAIT_TIMEOUT) for a
    /// tensor a task writes, or the runtime made (its allocation is such a task), and a
    /// write to a tensor an earlier task reads is what that task then reads. `plc run`
    /// and plc's CPU runtime run each task when it is launched.
    fn check_host_access(
        &mut self,
        op: &str,
        write: bool,
        buf: usize,
        range: Option<(i64, i64)>,
        tensor: Option<ExprId>,
        loc: Loc,
    ) {
        let Some((lo, hi)) = range else { return };
        if self.host_accesses.contains(&loc) {
            return;
        }
        let name = self.named_arg(tensor).unwrap_or_else(|| "this tensor".to_string());
        let staged = self.staged.as_ref().is_some_and(|s| s.contains(&buf));
        let (verb, noun) = if write { ("writes", "write") } else { ("reads", "read") };
        let notice = if !staged {
            Notice {
                code: Code::E0807,
                message: format!(
                    "`{op}` {verb} {name}, a tensor the program made: on simpler its allocation is a task that runs only after the orchestration function returns, so this {noun} waits for it forever and the run stops (TENSOR_WAIT_TIMEOUT)"
                ),
                primary: (loc, format!("host code {verb} a tensor the runtime allocates")),
                secondary: Vec::new(),
                help: "host code can read and write only the entry's own tensors on simpler's host_build_graph runtime: do this in a kernel, or on an entry tensor".to_string(),
            }
        } else {
            // The task that last wrote the range, else (for a write) the last that read it.
            let conflict =
                self.tasks.last_conflict(buf, lo, hi, false).or_else(|| self.tasks.last_conflict(buf, lo, hi, write));
            let Some((func, at, access)) = conflict else { return };
            let task = func.map_or("a dummy task", |f| self.names.get(f)).to_string();
            let (task_verb, waits) = if access.write { ("writes", access.tracked) } else { ("reads", false) };
            let message = if waits {
                format!(
                    "`{op}` {verb} {name} after the task `{task}`, which writes it: on simpler that task runs only after the orchestration function returns, so this {noun} waits for it forever and the run stops (TENSOR_WAIT_TIMEOUT)"
                )
            } else if access.write {
                let after = if write {
                    "that task's write comes after this one"
                } else {
                    "this read sees the values from before that task"
                };
                format!(
                    "`{op}` {verb} {name} after the task `{task}`, which writes it untracked (`pl.no_dep`): on simpler that task runs only after the orchestration function returns, so {after}"
                )
            } else {
                format!(
                    "`{op}` {verb} {name} after the task `{task}`, which reads it: on simpler that task runs only after the orchestration function returns, so it reads what this writes"
                )
            };
            Notice {
                code: Code::E0807,
                message,
                primary: (loc, format!("host code {verb} {name} here")),
                secondary: vec![(at, format!("this task {task_verb} {}", access.name))],
                help: "`plc run` and plc's CPU runtime run each task when it is launched, simpler's host_build_graph runtime after the orchestration: read or write the tensor before the first task that uses it, or in a kernel".to_string(),
            }
        };
        self.host_accesses.insert(loc);
        self.notices.push(notice);
    }

    /// Before an op runs: the first `Out` buffer of the entry it is given (poisoned until
    /// written), and whether a tile or scalar operand already holds an undefined element.
    fn watched_read(&self, values: &[Option<Value>]) -> Option<(usize, bool)> {
        if self.out_buffers.is_empty() {
            return None;
        }
        let buf = values.iter().flatten().find_map(|v| match v {
            Value::Tensor(t) if self.out_buffers.contains_key(&tasks::buffer_id(t)) => Some(tasks::buffer_id(t)),
            _ => None,
        })?;
        let tainted = values.iter().flatten().any(|v| !matches!(v, Value::Tensor(_)) && poisoned(v, &[]) > 0);
        Some((buf, tainted))
    }

    /// Reports (once per place) an op that reads undefined elements of an `Out` tensor
    /// into a tile, a scalar or a new tensor.
    fn check_undefined_read(&mut self, op: &str, buf: usize, tainted: &bool, value: &Value, loc: Loc) {
        if *tainted || self.undefined_reads.contains(&loc) {
            return;
        }
        let n = poisoned(value, &[buf]);
        if n == 0 {
            return;
        }
        self.undefined_reads.insert(loc);
        let Some((name, decl)) = self.out_buffers.get(&buf).cloned() else { return };
        self.notices.push(Notice {
            code: Code::E0806,
            message: format!(
                "`{op}` reads {n} element{} of the Out tensor `{name}` that nothing has written: on simpler they are undefined",
                if n == 1 { "" } else { "s" }
            ),
            primary: (loc, "reads undefined elements".to_string()),
            secondary: vec![(decl, "this Out tensor starts undefined".to_string())],
            help: "write the elements before reading them, or declare the parameter `pl.InOut`".to_string(),
        });
    }

    fn run_function_keeping(&mut self, func: &Function, mut frame: Frame) -> (R<Vec<Value>>, Frame) {
        if func.decl.external_source.is_some() {
            return (Err(external_kernel(self.names, func, func.loc)), frame);
        }
        self.depth += 1;
        if self.depth > MAX_CALL_DEPTH {
            self.depth -= 1;
            let f = self.fault(
                format!("calls nested more than {MAX_CALL_DEPTH} deep (a function that calls itself?)"),
                func.loc,
            );
            return (Err(f), frame);
        }
        let flow = if func.decl.kind == FuncKind::Group {
            self.group_block(&func.body, &mut frame)
        } else {
            self.block(&func.body, &mut frame)
        };
        self.depth -= 1;
        let out = flow.map(|f| match f {
            Flow::Return(values) => values,
            _ => Vec::new(),
        });
        (out, frame)
    }
}

/// The task ids a `deps=` value names (a list, an array, an id); invalid ids left out.
fn task_ids(v: &Value, out: &mut Vec<i64>) {
    match v {
        Value::TaskId(id) if *id >= 0 => out.push(*id),
        Value::Tuple(items) => items.iter().for_each(|i| task_ids(i, out)),
        Value::Array(items) => items.borrow().iter().for_each(|i| task_ids(i, out)),
        _ => {}
    }
}

/// How many undefined (poisoned) elements a value holds; a tensor over one of `skip`'s
/// buffers counts none (it is a view of the tensor read, not a value read from it).
fn poisoned(v: &Value, skip: &[usize]) -> usize {
    let count = |d: &Data| match d {
        Data::F32(x) => x.iter().filter(|x| x.to_bits() == POISON_F32_BITS).count(),
        Data::I64(x) => x.iter().filter(|x| **x == POISON_I64).count(),
    };
    match v {
        Value::Float(f) => usize::from((*f as f32).to_bits() == POISON_F32_BITS),
        Value::Int(i) => usize::from(*i == POISON_I64),
        Value::Tile(t) => count(&t.borrow().data),
        Value::Tensor(t) if !skip.contains(&tasks::buffer_id(t)) => count(&t.to_dense().data),
        Value::Tuple(items) => items.iter().map(|i| poisoned(i, skip)).sum(),
        _ => 0,
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
