//! The extents of a kernel's new result that plc's types leave unknown, as C++ expressions
//! the orchestration evaluates before the launch, so the runtime allocates the result at
//! run time (as PyPTO does once the call's arguments are known).
//!
//! ```text
//! @pl.function(type=pl.FunctionType.InCore)
//! def cube(self, a: pl.Tensor, b: pl.Tensor) -> pl.Tensor:   # bare tensors
//!     return pl.matmul(a, b, out_dtype=pl.FP32)              # [Unknown, Unknown]
//! ```
//! called as `acc = self.cube(ext_a, ext_b)`, gives `{ext_a.shapes[0], ext_b.shapes[1]}`,
//! assuming `ext_a` and `ext_b` have 2 axes (the orchestration checks that at run time).
//!
//! The returned value is traced back through the callee's definitions to its parameters;
//! each op on the way is typed again by its row of the op table ([`crate::ir::ops`]), on
//! operand types whose unknown extents stand for the C++ expressions. A bare `pl.Tensor`
//! parameter has no rank: it is taken to have the rank of the value computed from it.

use crate::intern::{Interner, Symbol};
use crate::ir::lineage::{Def, Defs};
use crate::ir::ops::Args;
use crate::ir::{Callee, DType, Dim, EnumValue, ExprId, ExprKind, Function, Program, StmtKind, Type};
use crate::lower::body::ArgView;
use rustc_hash::FxHashMap;

/// A result's extents, and what they assume.
pub struct RunTimeShape {
    /// One C++ expression per axis.
    pub extents: Vec<String>,
    /// `(argument, rank)`: a tensor argument of no declared rank taken to have this rank.
    pub ranks: Vec<(String, usize)>,
}

/// The extents of result `index` of `g`, called with arguments whose C++ texts are
/// `args` (by position; `None` for an absent one); `None` when they cannot be traced.
pub fn result_extents(
    p: &Program,
    names: &Interner,
    g: Symbol,
    index: usize,
    args: &[Option<String>],
) -> Option<RunTimeShape> {
    let f = p.functions.get(&g)?;
    let mut returned = None;
    crate::ir::visit::walk_stmts(p, &f.body, |s| {
        if let StmtKind::Return(values) = &p.stmt(s).kind {
            returned = returned.or_else(|| values.get(index).copied());
        }
    });
    let mut t = Tracer {
        p,
        f,
        args,
        defs: Defs::of(p, f),
        local: names.clone(),
        texts: FxHashMap::default(),
        ranks: Vec::new(),
        depth: 0,
    };
    let extents = t.shape(returned?, None)?;
    Some(RunTimeShape { extents, ranks: t.ranks })
}

struct Tracer<'a> {
    p: &'a Program,
    f: &'a Function,
    args: &'a [Option<String>],
    defs: Defs,
    /// The program's names and the stand-ins for C++ extents.
    local: Interner,
    texts: FxHashMap<Symbol, String>,
    ranks: Vec<(String, usize)>,
    depth: u32,
}

impl Tracer<'_> {
    /// The extents of the value `e`; `rank` is the rank it is taken to have if its type
    /// does not say.
    fn shape(&mut self, e: ExprId, rank: Option<usize>) -> Option<Vec<String>> {
        if self.depth > 64 {
            return None;
        }
        let declared = self.p.ty(e).shape().map(<[Dim]>::to_vec);
        if let Some(texts) = declared.as_ref().and_then(|d| d.iter().map(|&x| self.text(x)).collect()) {
            return Some(texts);
        }
        let rank = declared.as_ref().map(Vec::len).or(rank);
        self.depth += 1;
        let result = match &self.p.expr(e).kind {
            ExprKind::Var(v) => match self.defs.map.get(v) {
                Some(Def::Param(k)) => self.param(*k, declared.as_deref(), rank),
                Some(Def::Value(x) | Def::Carried(x)) => {
                    let x = *x;
                    self.shape(x, rank)
                }
                _ => None,
            },
            ExprKind::Call { callee: Callee::Op(op), args, .. } => {
                let mut tys = Vec::new();
                for a in args {
                    tys.push(a.and_then(|a| self.operand(a, rank)));
                }
                let view = ArgView::new(self.p, &self.local, args);
                let ty = (op.def().result)(&Retyped { view, tys }).ok()?;
                ty.shape().and_then(|d| d.iter().map(|&x| self.text(x)).collect())
            }
            _ => None,
        };
        self.depth -= 1;
        result
    }

    /// A tensor or tile operand's type with its extents standing for their C++ texts.
    fn operand(&mut self, a: ExprId, rank: Option<usize>) -> Option<Type> {
        let ty = self.p.ty(a).clone();
        if !matches!(ty, Type::Tensor { .. } | Type::Tile { .. }) {
            return None;
        }
        let dims: Vec<Dim> = self.shape(a, rank)?.into_iter().map(|t| self.dim(t)).collect();
        Some(match ty {
            Type::Tile { dtype, memory, .. } => Type::Tile { shape: dims, dtype, memory },
            Type::Tensor { dtype, distributed, layout, .. } => {
                Type::Tensor { shape: Some(dims), dtype, distributed, layout }
            }
            other => other,
        })
    }

    /// Parameter `k`'s extents: the argument's, read at run time.
    fn param(&mut self, k: usize, declared: Option<&[Dim]>, rank: Option<usize>) -> Option<Vec<String>> {
        let arg = self.args.get(k).cloned().flatten()?;
        let rank = match declared {
            Some(d) => d.len(),
            None => {
                let r = rank?;
                self.ranks.push((arg.clone(), r));
                r
            }
        };
        let extent = |j: usize| match declared.and_then(|d| d.get(j)) {
            Some(Dim::Const(n)) => n.to_string(),
            _ => format!("(int64_t){arg}.shapes[{j}]"),
        };
        Some((0..rank).map(extent).collect())
    }

    /// The C++ text of an extent: a literal, a scalar parameter's argument, or a stand-in.
    fn text(&self, d: Dim) -> Option<String> {
        match d {
            Dim::Const(n) => Some(n.to_string()),
            Dim::Dyn(s) => self.texts.get(&s).cloned(),
            Dim::Var(v) => match self.defs.map.get(&v) {
                Some(Def::Param(k)) if self.f.params.get(*k).is_some() => self.args.get(*k).cloned().flatten(),
                _ => None,
            },
            Dim::Unknown => None,
        }
    }

    /// The extent a C++ text stands for: a literal, or a stand-in of its own.
    fn dim(&mut self, text: String) -> Dim {
        if let Ok(n) = text.parse::<i64>() {
            return Dim::Const(n);
        }
        let s = self.local.intern(&format!("\u{0}extent{}", self.texts.len()));
        self.texts.insert(s, text);
        Dim::Dyn(s)
    }
}

/// A call's arguments with some types replaced.
struct Retyped<'p> {
    view: ArgView<'p>,
    tys: Vec<Option<Type>>,
}

impl Args for Retyped<'_> {
    fn ty(&self, i: usize) -> Option<&Type> {
        match self.tys.get(i) {
            Some(Some(t)) => Some(t),
            _ => self.view.ty(i),
        }
    }
    fn dims(&self, i: usize) -> Option<Vec<Dim>> {
        self.view.dims(i)
    }
    fn dtype(&self, i: usize) -> Option<DType> {
        self.view.dtype(i)
    }
    fn enum_value(&self, i: usize) -> Option<EnumValue> {
        self.view.enum_value(i)
    }
    fn int(&self, i: usize) -> Option<i64> {
        self.view.int(i)
    }
    fn present(&self, i: usize) -> bool {
        self.view.present(i)
    }
    fn flag(&self, i: usize) -> Option<bool> {
        self.view.flag(i)
    }
    fn text(&self, i: usize) -> Option<String> {
        self.view.text(i)
    }
    fn tuple_items(&self, i: usize) -> Option<Vec<Type>> {
        self.view.tuple_items(i)
    }
}
