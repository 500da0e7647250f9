//! The PTO-ISA form of each op: an exhaustive match on the op's kind (and on the [`Special`]
//! member), so that a new kind or member does not compile until it is mapped here or said
//! unmapped (E0620, with the reason docs/kernels.md gives).

use super::alloc::Space;
use super::lower::{Band, Item, Lower, Res, Val, R};
use super::sync::Pipe;
use crate::ir::ops::{Axis, BinaryFn, Op, OpKind, OpLevel, Param as P, ReduceFn, Slot, Special, UnaryFn};
use crate::ir::{DType, Dim, EnumValue, ExprId, ExprKind, Loc, MemorySpace, Type};

/// The tile a value of run-time shape is computed in, band by band (8 KiB of FP32: the
/// tiles of many operands fit in the unified buffer).
const BAND_ROWS: i64 = 16;
const BAND_COLS: i64 = 128;

/// Where a load or store's window is: at offsets (one per axis of the tensor), or the
/// current band of a band loop (`Lower::stream`).
#[derive(Clone, Debug)]
pub(super) enum Window {
    At(Vec<String>),
    Band,
}

/// The instruction of a tile-tile binary function.
fn tile_tile(f: BinaryFn) -> Option<&'static str> {
    Some(match f {
        BinaryFn::Add => "TADD",
        BinaryFn::Sub => "TSUB",
        BinaryFn::Mul => "TMUL",
        BinaryFn::Div => "TDIV",
        BinaryFn::Max => "TMAX",
        BinaryFn::Min => "TMIN",
        BinaryFn::And => "TAND",
        BinaryFn::Or => "TOR",
        BinaryFn::Shl => "TSHL",
        BinaryFn::Shr => "TSHR",
        // With a scratch tile (`takes_scratch`).
        BinaryFn::Xor => "TXOR",
        // TREM rounds toward zero (Python's `%` toward -inf).
        BinaryFn::Rem => return None,
        // TFMOD and the expdif pair (TSUB then TEXP) are not mapped yet.
        BinaryFn::Fmod | BinaryFn::ExpDif => return None,
    })
}

/// The instruction of a tile-scalar binary function.
fn tile_scalar(f: BinaryFn) -> Option<&'static str> {
    Some(match f {
        BinaryFn::Add => "TADDS",
        BinaryFn::Sub => "TSUBS",
        BinaryFn::Mul => "TMULS",
        BinaryFn::Div => "TDIVS",
        BinaryFn::Max => "TMAXS",
        BinaryFn::Min => "TMINS",
        BinaryFn::Or => "TORS",
        BinaryFn::And => "TANDS",
        BinaryFn::Shl => "TSHLS",
        BinaryFn::Shr => "TSHRS",
        // With a scratch tile (`takes_scratch`).
        BinaryFn::Xor => "TXORS",
        BinaryFn::Rem | BinaryFn::Fmod | BinaryFn::ExpDif => return None,
    })
}

/// Whether the instruction of a binary function takes a scratch tile of the result's shape
/// last (`TXOR(dst, a, b, tmp)`, `TXORS(dst, a, s, tmp)`).
fn takes_scratch(f: BinaryFn) -> bool {
    f == BinaryFn::Xor
}

/// The instruction of a reduction along an axis, and whether it takes a scratch tile.
fn reduction(axis: Axis, f: ReduceFn) -> (&'static str, bool) {
    match (axis, f) {
        (Axis::Row, ReduceFn::Sum) => ("TROWSUM", true),
        (Axis::Row, ReduceFn::Max) => ("TROWMAX", true),
        (Axis::Row, ReduceFn::Min) => ("TROWMIN", true),
        (Axis::Row, ReduceFn::Prod) => ("TROWPROD", true),
        (Axis::Col, ReduceFn::Sum) => ("TCOLSUM", false),
        (Axis::Col, ReduceFn::Max) => ("TCOLMAX", false),
        (Axis::Col, ReduceFn::Min) => ("TCOLMIN", false),
        (Axis::Col, ReduceFn::Prod) => ("TCOLPROD", false),
    }
}

/// The instruction of a row or column expansion combining with `f`: `t` op the one-column
/// (one-row) `v` repeated along the rows (down the columns).
fn expansion(axis: Axis, f: BinaryFn) -> Option<&'static str> {
    Some(match (axis, f) {
        (Axis::Row, BinaryFn::Add) => "TROWEXPANDADD",
        (Axis::Row, BinaryFn::Sub) => "TROWEXPANDSUB",
        (Axis::Row, BinaryFn::Mul) => "TROWEXPANDMUL",
        (Axis::Row, BinaryFn::Div) => "TROWEXPANDDIV",
        (Axis::Row, BinaryFn::Max) => "TROWEXPANDMAX",
        (Axis::Row, BinaryFn::Min) => "TROWEXPANDMIN",
        (Axis::Row, BinaryFn::ExpDif) => "TROWEXPANDEXPDIF",
        (Axis::Col, BinaryFn::Add) => "TCOLEXPANDADD",
        (Axis::Col, BinaryFn::Sub) => "TCOLEXPANDSUB",
        (Axis::Col, BinaryFn::Mul) => "TCOLEXPANDMUL",
        (Axis::Col, BinaryFn::Div) => "TCOLEXPANDDIV",
        (Axis::Col, BinaryFn::Max) => "TCOLEXPANDMAX",
        (Axis::Col, BinaryFn::Min) => "TCOLEXPANDMIN",
        (Axis::Col, BinaryFn::ExpDif) => "TCOLEXPANDEXPDIF",
        // No expanding form of these in the table.
        (_, BinaryFn::Rem | BinaryFn::And | BinaryFn::Or | BinaryFn::Xor | BinaryFn::Shl | BinaryFn::Shr)
        | (_, BinaryFn::Fmod) => return None,
    })
}

fn unary(f: UnaryFn) -> Option<&'static str> {
    Some(match f {
        UnaryFn::Exp => "TEXP",
        UnaryFn::Log => "TLOG",
        UnaryFn::Sqrt => "TSQRT",
        UnaryFn::Rsqrt => "TRSQRT",
        UnaryFn::Recip => "TRECIP",
        UnaryFn::Neg => "TNEG",
        UnaryFn::Abs => "TABS",
        UnaryFn::Relu => "TRELU",
        UnaryFn::Not => "TNOT",
        // The vector unit has no sine or cosine instruction; PyPTO expands them.
        UnaryFn::Sin | UnaryFn::Cos => return None,
    })
}

/// Why an op kind or member has no PTO-ISA form yet (None: it has one).
pub fn unmapped_reason(kind: OpKind) -> Option<&'static str> {
    match kind {
        OpKind::Binary(_) => None,
        OpKind::Unary(f) => match unary(f) {
            Some(_) => None,
            None => Some("sin and cos have no vector instruction; they are not expanded yet"),
        },
        OpKind::ArgReduce(..) => Some("arg reductions (TROWARGMAX, ...) need one-column result tiles, not placed yet"),
        OpKind::Part(_) => Some("the part ops (TPARTADD, ...) are not mapped yet"),
        OpKind::CrossCore => None,
        OpKind::Prefetch => Some("prefetch contexts have no form in the simulator"),
        OpKind::PlannedMemory => Some("buffers of PyPTO's memory planning are placed by the simulator's own planning"),
        OpKind::Microscaling => {
            Some("the MX matmuls (TMATMUL_MX), the MX quantizer (TQUANT) and their scale buffers are not mapped yet")
        }
        OpKind::SplitTransfer => Some("the lane transfers of a pl.split_aiv region are not mapped yet"),
        OpKind::Chain(_) => Some("the chained forms (TADDC, TSUBC, ...) are not mapped yet"),
        OpKind::Expand(axis, Some(f)) if expansion(axis, f).is_some() => None,
        OpKind::Expand(..) => {
            Some("the plain `row_expand`/`col_expand` (TROWEXPAND/TCOLEXPAND into a target's shape) are not mapped yet")
        }
        OpKind::Reduce(..) => None,
        OpKind::AxisReduce { .. } => Some(
            "`sum`/`max`/`min` along an axis (which may drop it) are not mapped yet; `row_sum`, `col_sum`, ... are",
        ),
        OpKind::Compare => None,
        OpKind::Marker => Some("an optimisation marker has no instruction"),
        OpKind::Distributed => Some("the distributed ops need several ranks"),
        OpKind::Special(s) => match s {
            Special::Load
            | Special::Store
            | Special::BlockLoad
            | Special::BlockStore
            | Special::Full
            | Special::Expands
            | Special::CreateTile
            | Special::Move
            | Special::Matmul
            | Special::MatmulAcc
            | Special::BlockIdx
            | Special::BlockNum
            | Special::CreateTensor
            | Special::Assemble
            | Special::Cast => None,
            Special::ShapeOf
            | Special::DTypeOf
            | Special::Dim
            | Special::Slice
            | Special::Reshape
            | Special::Transpose
            | Special::View
            | Special::Copy => Some("tensor values computed inside a kernel have no place in on-chip memory yet"),
            Special::Read | Special::Write => Some("single elements of a tile are not read or written yet"),
            Special::Ci => Some("TCI is not mapped yet"),
            Special::ScalarCast | Special::ScalarMax | Special::ScalarMin => {
                Some("these scalar ops are not mapped yet")
            }
            Special::MatmulBias => Some("the bias table (TileType::Bias) is not placed yet"),
            Special::Lrelu | Special::Prelu => Some("TLRELU/TPRELU are not mapped yet"),
            Special::Sel | Special::Sels => Some("TSEL's mask layout is not matched to plc's packed mask yet"),
            Special::Concat | Special::Fillpad | Special::SetValidShape | Special::TransposeView => {
                Some("valid-shape and layout changes are not mapped yet")
            }
            Special::Sort32 | Special::Mrgsort | Special::Gather | Special::GatherMask => {
                Some("sorts and gathers are not mapped yet")
            }
            // PTO-ISA's CPU simulator has no compare form of TGATHER (only its NPU headers do).
            Special::GatherCompare => Some("the compare form of TGATHER has no CPU implementation in PTO-ISA"),
            Special::ArrayCreate | Special::ArrayGet | Special::ArrayUpdate => Some("`pl.Array` is not mapped yet"),
            Special::SyncAll => Some("a barrier across cores is not mapped yet"),
            Special::SubblockIdx | Special::AvailableAivCount | Special::AvailableClusterCount => {
                Some("these runtime values are not read in PTO-ISA kernels yet")
            }
            Special::Hardware => Some("explicit hardware synchronisation is left to the pipe-flag step"),
            Special::PinBuffer => {
                Some("tiles pinned to buffers of the user's are placed by the simulator's own planning")
            }
            Special::TaskInvalid => Some("a task id is an orchestration value"),
            Special::RuntimePrint => Some("TPRINT is not mapped yet"),
            Special::Tri
            | Special::FillpadExpand
            | Special::FillpadInplace
            | Special::ExpandClone
            | Special::Extract => Some("these shaping ops are not mapped yet"),
            Special::Img2col => Some("TIMG2COL is not mapped yet"),
            Special::Scatter | Special::ScatterMask | Special::ScatterUpdate => Some("TSCATTER is not mapped yet"),
            Special::Random => Some("TRANDOM is not mapped yet"),
            Special::ReinterpretView => Some("reinterpreting views are not mapped yet"),
            Special::CreateBufferSet | Special::BufferSlot => {
                Some("explicit tile buffer sets (alloc_multi_tile, multi_tile_get) are not mapped yet")
            }
            Special::TaskDummy | Special::TaskIdOf => Some("a task id is an orchestration value"),
            Special::BatchMatmul | Special::BatchMatmulAcc => {
                Some("batch matmuls (TMATMUL per batch of an ND tile) are not mapped yet")
            }
            Special::GatherB | Special::MGather | Special::MScatter | Special::GatherRow | Special::PagedGather => {
                Some("TGATHERB, MGATHER, MSCATTER and the row gathers into L1 are not mapped yet")
            }
        },
    }
}

impl Lower<'_> {
    fn arg(&self, op: Op, args: &[Option<ExprId>], slot: impl Into<Slot>) -> Option<ExprId> {
        let i = op.def().slot_index(slot.into())?;
        args.get(i).copied().flatten()
    }

    fn need(&self, op: Op, args: &[Option<ExprId>], slot: impl Into<Slot>, loc: Loc) -> R<ExprId> {
        let slot = slot.into();
        self.arg(op, args, slot)
            .ok_or_else(|| self.unmapped(loc, format!("`{op}` without its argument `{}`", op.def().slot_name(slot))))
    }

    fn tile_operand(&mut self, e: ExprId) -> R<usize> {
        match self.value(e, "t")? {
            Val::Tile(t) => Ok(t),
            // A tensor argument where a tile op wants a tile (`pl.add` of tensors in a
            // kernel): read whole, as the CPU kernels do.
            Val::Tensor(i) => {
                let ty = self.p.types.get(self.p.expr(e).ty).clone();
                if self.stream.is_some() {
                    // In a band loop: the band's window of it.
                    let t = self.band_tile(&ty, "band", self.p.expr(e).loc)?;
                    self.emit_load(t, i, Window::Band);
                    return Ok(t);
                }
                let t = self.new_tile(&ty, "whole", self.p.expr(e).loc)?;
                let rank = ty.shape().map_or(2, |s| s.len());
                self.emit_load(t, i, Window::At(vec!["0".to_string(); rank]));
                Ok(t)
            }
            _ => Err(self.unmapped(self.p.expr(e).loc, "a tensor or scalar where a tile is expected".to_string())),
        }
    }

    fn tensor_operand(&mut self, e: ExprId) -> R<usize> {
        match self.value(e, "t")? {
            Val::Tensor(i) => Ok(i),
            _ => Err(self
                .unmapped(self.p.expr(e).loc, "a load or store of a value that is not a tensor argument".to_string())),
        }
    }

    /// The scalars of a list argument (`[r, 0]`).
    fn index_list(&mut self, e: Option<ExprId>) -> R<Vec<String>> {
        let Some(e) = e else { return Ok(Vec::new()) };
        let ExprKind::Tuple(items) = self.p.expr(e).kind.clone() else {
            return Err(self.unmapped(self.p.expr(e).loc, "an offset list that is not written out".to_string()));
        };
        items.iter().map(|&x| self.scalar(x)).collect()
    }

    /// The tile a call makes, of the call's type.
    fn result_tile(&mut self, e: ExprId, hint: &str) -> R<usize> {
        let ty = self.p.types.get(self.p.expr(e).ty).clone();
        if self.stream.is_some() && matches!(ty, Type::Tensor { .. } | Type::Unknown) {
            return self.band_tile(&ty, hint, self.p.expr(e).loc);
        }
        self.new_tile(&ty, hint, self.p.expr(e).loc)
    }

    /// The scratch argument (`, tmp`) of `f`'s instruction: the call's `tmp` tile (of `t`'s
    /// shape), else a new tile of `t`'s type; and what it writes. Nothing when the
    /// instruction takes none.
    fn scratch_like(
        &mut self,
        f: BinaryFn,
        op: Op,
        args: &[Option<ExprId>],
        t: usize,
        loc: Loc,
    ) -> R<(String, Vec<Res>)> {
        if !takes_scratch(f) {
            return Ok((String::new(), Vec::new()));
        }
        if let Some(given) = self.arg(op, args, P::Tmp) {
            let tmp = self.tile_operand(given)?;
            if self.tile_dims(tmp) != self.tile_dims(t) {
                return Err(self.unmapped(loc, format!("`{op}` with a `tmp` tile of another size than its result")));
            }
            return Ok((format!(", {}", self.tile_name(tmp)), vec![Res::Tile(tmp)]));
        }
        let d = &self.tiles[t];
        let shape = vec![Dim::Const(d.rows), Dim::Const(d.cols)];
        let ty = Type::Tile { shape, dtype: d.dtype, memory: Some(MemorySpace::Vec) };
        let tmp = self.new_tile(&ty, "tmp", loc)?;
        Ok((format!(", {}", self.tile_name(tmp)), vec![Res::Tile(tmp)]))
    }

    /// A vector tile of the band's shape holding a band of a tensor value of type `ty`
    /// (FP32 when its dtype is unknown, as the CPU kernels take it).
    fn band_tile(&mut self, ty: &Type, hint: &str, loc: Loc) -> R<usize> {
        let (rows, cols) = self.stream.as_ref().map_or((BAND_ROWS, BAND_COLS), |b| (b.rows, b.cols));
        let dtype = ty.dtype().unwrap_or(DType::Fp32);
        let shape = vec![Dim::Const(rows), Dim::Const(cols)];
        self.new_tile(&Type::Tile { shape, dtype, memory: Some(MemorySpace::Vec) }, hint, loc)
    }

    /// Whether `e` is a tensor value whose shape or dtype is known only at run time (a tensor
    /// op on bare `pl.Tensor` arguments): it has no tile of its own, and is computed band
    /// by band where it is stored.
    fn runtime_shaped(&self, e: ExprId) -> bool {
        match self.p.types.get(self.p.expr(e).ty) {
            Type::Tensor { shape: Some(shape), dtype: Some(_), .. } => {
                !shape.iter().all(|d| matches!(d, Dim::Const(_)))
            }
            Type::Tensor { .. } => true,
            _ => false,
        }
    }

    /// `pl.assemble(target, src, [0, ...])` of a value of run-time shape: a loop over the
    /// target's bands (the tensor seen as a matrix: rows the product of the leading
    /// extents), each computing the band of `src` from the bands of its tensor operands
    /// (clipped to each, as `TLOAD` of a window past a tensor's end) and storing it.
    fn stream_assemble(&mut self, src: ExprId, i: usize, loc: Loc) -> R<Val> {
        let (rows, cols) = (self.namer.fresh("rows"), self.namer.fresh("cols"));
        let line = format!("const int64_t {rows} = plc_rows(args, {i}), {cols} = plc_cols(args, {i});");
        self.inst(Pipe::S, vec![line], Vec::new(), Vec::new());
        let (r, c) = (self.namer.fresh("r0"), self.namer.fresh("c0"));
        self.items.push(Item::LoopStart(format!("for (int64_t {r} = 0; {r} < {rows}; {r} += {BAND_ROWS}) {{")));
        self.items.push(Item::LoopStart(format!("for (int64_t {c} = 0; {c} < {cols}; {c} += {BAND_COLS}) {{")));
        self.stream = Some(Band { rows: BAND_ROWS, cols: BAND_COLS, r, c });
        let stored = self.tile_operand(src).and_then(|t| self.emit_store(t, i, Window::Band, loc));
        self.stream = None;
        stored?;
        self.items.push(Item::LoopEnd);
        self.items.push(Item::LoopEnd);
        Ok(Val::Tensor(i))
    }

    /// An op call: its instructions, and its value.
    pub(super) fn op(&mut self, e: ExprId, op: Op, args: &[Option<ExprId>], hint: &str) -> R<Val> {
        let loc = self.p.expr(e).loc;
        let kind = op.def().kind;
        if let Some(why) = unmapped_reason(kind) {
            return Err(self.unmapped(loc, format!("`{}` ({op}: {why})", op.def().print_name())));
        }
        let given = |p: crate::ir::ops::Param| {
            op.def().arg(args, p).is_some_and(|x| !matches!(self.p.expr(x).kind, ExprKind::None))
        };
        let arg_type = |i: usize| args.get(i).copied().flatten().map(|x| self.p.ty(x));
        if let Some(why) = op.def().no_cpu_form_of_layouts(given, arg_type, self.p.ty(e)) {
            return Err(self.unmapped(loc, format!("`{}` ({why})", op.def().print_name())));
        }
        if self.in_mixed_group_body() {
            return Err(self.unmapped(
                loc,
                format!(
                    "`{}` in a mixed Group's own body (its work belongs in its AIC and AIV kernels)",
                    op.def().print_name()
                ),
            ));
        }
        match kind {
            OpKind::Binary(f) => {
                let x = self.tile_operand(self.need(op, args, Slot::Nth(0), loc)?)?;
                let y_expr = self.need(op, args, Slot::Nth(1), loc)?;
                let y = if self.p.types.get(self.p.expr(y_expr).ty).is_scalar() {
                    self.value(y_expr, "t")?
                } else {
                    Val::Tile(self.tile_operand(y_expr)?)
                };
                let t = self.result_tile(e, hint)?;
                let (dst, src) = (self.tile_name(t), self.tile_name(x));
                match y {
                    Val::Tile(u) => {
                        let name = tile_tile(f).ok_or_else(|| self.unmapped(loc, format!("`{op}` of two tiles")))?;
                        if self.tile_dims(u) != self.tile_dims(x) || self.tile_dims(t) != self.tile_dims(x) {
                            return Err(self.unmapped(loc, format!("`{op}` of tiles of different shapes (broadcast)")));
                        }
                        let (scratch, mut writes) = self.scratch_like(f, op, args, t, loc)?;
                        writes.push(Res::Tile(t));
                        let line = format!("{name}({dst}, {src}, {}{scratch});", self.tile_name(u));
                        let lines = self.valid_from(t, x, Some(u)).into_iter().chain([line]).collect();
                        self.inst(Pipe::V, lines, vec![Res::Tile(x), Res::Tile(u)], writes);
                    }
                    Val::Scalar(s, _) => {
                        let name = tile_scalar(f)
                            .ok_or_else(|| self.unmapped(loc, format!("`{op}` of a tile and a scalar")))?;
                        let (scratch, mut writes) = self.scratch_like(f, op, args, t, loc)?;
                        writes.push(Res::Tile(t));
                        let line = format!("{name}({dst}, {src}, static_cast<{}>({s}){scratch});", self.tile_elem(x));
                        let lines = self.valid_from(t, x, None).into_iter().chain([line]).collect();
                        self.inst(Pipe::V, lines, vec![Res::Tile(x)], writes);
                    }
                    Val::Tensor(_) => return Err(self.unmapped(loc, format!("`{op}` of a tensor"))),
                }
                Ok(Val::Tile(t))
            }
            OpKind::Unary(f) => {
                let x = self.tile_operand(self.need(op, args, Slot::Nth(0), loc)?)?;
                let t = self.result_tile(e, hint)?;
                let name = unary(f).ok_or_else(|| self.unmapped(loc, format!("`{op}`")))?;
                let line = format!("{name}({}, {});", self.tile_name(t), self.tile_name(x));
                let lines = self.valid_from(t, x, None).into_iter().chain([line]).collect();
                self.inst(Pipe::V, lines, vec![Res::Tile(x)], vec![Res::Tile(t)]);
                Ok(Val::Tile(t))
            }
            OpKind::Reduce(axis, f) => {
                // Over the valid region: a one-column tile of the rows (column-major) or a
                // one-row tile of the columns.
                let x = self.tile_operand(self.need(op, args, Slot::Nth(0), loc)?)?;
                let t = self.result_tile(e, hint)?;
                if self.tile_dims(x).1 != Space::Vec || self.tile_dims(t).1 != Space::Vec {
                    return Err(self.unmapped(loc, format!("`{op}` of a tile outside the unified buffer")));
                }
                let (name, scratch) = reduction(axis, f);
                let (d, src) = (self.tile_name(t), self.tile_name(x));
                let valid = match axis {
                    Axis::Row => format!("{d}.SetValidShape({src}.GetValidRow(), 1);"),
                    Axis::Col => format!("{d}.SetValidShape(1, {src}.GetValidCol());"),
                };
                let (mut reads, mut writes) = (vec![Res::Tile(x)], vec![Res::Tile(t)]);
                let line = if scratch {
                    // The scratch tile: the source's shape and element type.
                    let shape = vec![Dim::Const(self.tiles[x].rows), Dim::Const(self.tiles[x].cols)];
                    let ty = Type::Tile { shape, dtype: self.tiles[x].dtype, memory: Some(MemorySpace::Vec) };
                    let tmp = self.new_tile(&ty, "tmp", loc)?;
                    reads.push(Res::Tile(tmp));
                    writes.push(Res::Tile(tmp));
                    format!("{name}({d}, {src}, {});", self.tile_name(tmp))
                } else {
                    format!("{name}({d}, {src});")
                };
                self.inst(Pipe::V, vec![valid, line], reads, writes);
                Ok(Val::Tile(t))
            }
            OpKind::Expand(axis, Some(f)) => {
                let x = self.tile_operand(self.need(op, args, Slot::Nth(0), loc)?)?;
                let v = self.tile_operand(self.need(op, args, Slot::Nth(1), loc)?)?;
                let t = self.result_tile(e, hint)?;
                let name = expansion(axis, f).ok_or_else(|| self.unmapped(loc, format!("`{op}`")))?;
                let (vr, vc) = (self.tiles[v].rows, self.tiles[v].cols);
                let fits = match axis {
                    Axis::Row => vc == 1 && vr == self.tiles[x].rows,
                    Axis::Col => vr == 1 && vc == self.tiles[x].cols,
                };
                if !fits || self.tile_dims(t) != self.tile_dims(x) || self.tile_dims(x).1 != Space::Vec {
                    return Err(self.unmapped(
                        loc,
                        format!("`{op}` of a vector of another shape than the tile's rows or columns"),
                    ));
                }
                let line = format!("{name}({}, {}, {});", self.tile_name(t), self.tile_name(x), self.tile_name(v));
                let lines = self.valid_from(t, x, None).into_iter().chain([line]).collect();
                self.inst(Pipe::V, lines, vec![Res::Tile(x), Res::Tile(v)], vec![Res::Tile(t)]);
                Ok(Val::Tile(t))
            }
            OpKind::Compare => self.compare(e, op, args, hint),
            OpKind::CrossCore => self.cross_core(e, op, args, hint),
            OpKind::Special(s) => self.special(e, op, args, s, hint),
            OpKind::Chain(_)
            | OpKind::Expand(..)
            | OpKind::AxisReduce { .. }
            | OpKind::ArgReduce(..)
            | OpKind::Part(_)
            | OpKind::Prefetch
            | OpKind::PlannedMemory
            | OpKind::Microscaling
            | OpKind::SplitTransfer
            | OpKind::Marker
            | OpKind::Distributed => Err(self.unmapped(loc, format!("`{op}`"))),
        }
    }

    /// The window of a block load or store: its `row_offset=` and `col_offset=`.
    fn block_offsets(&mut self, op: Op, args: &[Option<ExprId>], loc: Loc) -> R<Vec<String>> {
        Ok(vec![
            self.scalar(self.need(op, args, P::RowOffset, loc)?)?,
            self.scalar(self.need(op, args, P::ColOffset, loc)?)?,
        ])
    }

    fn special(&mut self, e: ExprId, op: Op, args: &[Option<ExprId>], s: Special, hint: &str) -> R<Val> {
        let loc = self.p.expr(e).loc;
        match s {
            Special::Load | Special::BlockLoad => {
                let src = self.need(op, args, P::Tensor, loc)?;
                let i = self.tensor_operand(src)?;
                let offsets = if s == Special::Load {
                    if self.arg(op, args, P::ValidShapes).or(self.arg(op, args, P::ValidShape)).is_some() {
                        return Err(self.unmapped(loc, "a load with a valid shape".to_string()));
                    }
                    if self
                        .arg(op, args, P::Transpose)
                        .is_some_and(|t| !matches!(self.p.expr(t).kind, ExprKind::Bool(false)))
                    {
                        return Err(self.unmapped(loc, "a transposing load".to_string()));
                    }
                    self.index_list(self.arg(op, args, P::Offsets))?
                } else {
                    self.block_offsets(op, args, loc)?
                };
                let t = self.load_tile(e, op, args, src, hint)?;
                let tensor_dtype = self.p.types.get(self.p.expr(src).ty).dtype();
                let tile_dtype = self.p.types.get(self.p.expr(e).ty).dtype();
                if let (Some(a), Some(b)) = (tensor_dtype, tile_dtype) {
                    if a != b {
                        return Err(self.unmapped(loc, format!("a load that converts {a} to {b}")));
                    }
                }
                self.emit_load(t, i, Window::At(offsets));
                Ok(Val::Tile(t))
            }
            Special::Store | Special::BlockStore => {
                let t = self.tile_operand(self.need(op, args, P::Tile, loc)?)?;
                let i = self.tensor_operand(self.need(op, args, P::OutputTensor, loc)?)?;
                let offsets = if s == Special::Store {
                    if self.arg(op, args, P::Atomic).is_some() {
                        return Err(self.unmapped(loc, "an atomic store".to_string()));
                    }
                    self.index_list(self.arg(op, args, P::Offsets))?
                } else {
                    self.block_offsets(op, args, loc)?
                };
                self.emit_store(t, i, Window::At(offsets), loc)?;
                Ok(Val::Tensor(i))
            }
            Special::Full | Special::Expands => {
                let value =
                    self.scalar(self.need(op, args, if s == Special::Full { P::Value } else { P::Scalar }, loc)?)?;
                let t = self.result_tile(e, hint)?;
                let (name, rows, cols) = (self.tile_name(t), self.tiles[t].rows, self.tiles[t].cols);
                let valid = format!("{name}.SetValidShape({rows}, {cols});");
                let line = format!("TEXPANDS({name}, static_cast<{}>({value}));", self.tile_elem(t));
                self.inst(Pipe::V, vec![valid, line], Vec::new(), vec![Res::Tile(t)]);
                Ok(Val::Tile(t))
            }
            Special::CreateTile => Ok(Val::Tile(self.result_tile(e, hint)?)),
            Special::Assemble => {
                // `source` (a tile, or a tensor value computed here) written into `target`.
                if self.arg(op, args, P::Atomic).is_some() || op.def().level == OpLevel::Tile {
                    return Err(self.unmapped(loc, format!("`{op}` (atomic, or into a tile)")));
                }
                let i = self.tensor_operand(self.need(op, args, P::Target, loc)?)?;
                let src = self.need(op, args, P::Source, loc)?;
                let offsets = self.index_list(self.arg(op, args, P::Offset))?;
                if self.stream.is_none() && self.runtime_shaped(src) {
                    if offsets.iter().any(|o| o != "0") {
                        return Err(
                            self.unmapped(loc, "an assemble of a value of run-time shape at an offset".to_string())
                        );
                    }
                    return self.stream_assemble(src, i, loc);
                }
                let t = self.tile_operand(src)?;
                self.emit_store(t, i, Window::At(offsets), loc)?;
                Ok(Val::Tensor(i))
            }
            Special::CreateTensor => {
                // The tensor the runtime allocates for the kernel's next result (checked
                // when the kernel returns it).
                if self.created >= self.result_slots {
                    return Err(self.unmapped(loc, "a tensor made in a kernel that does not return it".to_string()));
                }
                self.created += 1;
                Ok(Val::Tensor(self.result_base + self.created - 1))
            }
            Special::Cast => self.cast(e, op, args, hint),
            Special::Move => self.move_tile(e, op, args, hint),
            Special::Matmul | Special::MatmulAcc => self.matmul(e, op, args, s, hint),
            _ => Err(self.unmapped(loc, format!("`{op}`"))),
        }
    }

    /// The tile a load makes: of the call's type, or, where plc could not infer it (a load
    /// of a bare `pl.Tensor`), of the `shapes` given, in `target_memory`, of the tensor's
    /// dtype (FP32 when unknown, as the CPU kernels take it).
    fn load_tile(&mut self, e: ExprId, op: Op, args: &[Option<ExprId>], src: ExprId, hint: &str) -> R<usize> {
        let ty = self.p.types.get(self.p.expr(e).ty).clone();
        if ty.is_tile() {
            return self.result_tile(e, hint);
        }
        let loc = self.p.expr(e).loc;
        let mut shape = Vec::new();
        if let Some(ExprKind::Tuple(items)) = self.arg(op, args, P::Shapes).map(|x| self.p.expr(x).kind.clone()) {
            for x in items {
                match self.p.expr(x).kind {
                    ExprKind::Int(n) => shape.push(Dim::Const(n)),
                    _ => shape.push(Dim::Unknown),
                }
            }
        }
        let memory = match self.arg(op, args, P::TargetMemory).map(|x| self.p.expr(x).kind.clone()) {
            Some(ExprKind::Enum(EnumValue::MemorySpace(m))) => Some(m),
            _ => None,
        };
        let dtype = self.p.types.get(self.p.expr(src).ty).dtype().unwrap_or(DType::Fp32);
        self.new_tile(&Type::Tile { shape, dtype, memory }, hint, loc)
    }

    /// `TLOAD` of tile `t` from tensor argument `i` at `offsets`.
    pub(super) fn emit_load(&mut self, t: usize, i: usize, at: Window) {
        let mut lines = vec!["{".to_string()];
        lines.extend(self.global(t, i, &at, false));
        lines.push(format!("    TLOAD({}, gm);", self.tile_name(t)));
        lines.push("}".to_string());
        self.inst(Pipe::Mte2, lines, vec![Res::Global(i)], vec![Res::Tile(t)]);
    }

    /// `TSTORE` of tile `t`'s valid region into tensor argument `i` at `offsets`.
    pub(super) fn emit_store(&mut self, t: usize, i: usize, at: Window, loc: Loc) -> R<()> {
        let pipe = match self.tile_dims(t).1 {
            Space::Vec => Pipe::Mte3,
            Space::Acc => Pipe::Fix,
            other => return Err(self.unmapped(loc, format!("a store from {}", other.name()))),
        };
        let mut lines = vec!["{".to_string()];
        lines.extend(self.global(t, i, &at, true));
        lines.push(format!("    TSTORE(gm, {});", self.tile_name(t)));
        if pipe == Pipe::Mte3 {
            lines.push(format!("    {}.SetValidShape(keep_r, keep_c);", self.tile_name(t)));
        }
        lines.push("}".to_string());
        self.inst(pipe, lines, vec![Res::Tile(t)], vec![Res::Global(i)]);
        Ok(())
    }

    /// The lines that make `gm`, the window of tensor argument `i` at `offsets` with tile
    /// `t`'s shape: for a vector tile, the part inside the tensor (`vr` x `vc`, which
    /// `load` makes the tile's valid shape and `store` clips the tile's valid shape to).
    fn global(&self, t: usize, i: usize, at: &Window, store: bool) -> Vec<String> {
        let (rows, cols) = (self.tiles[t].rows, self.tiles[t].cols);
        let elem = self.tile_elem(t);
        let name = self.tile_name(t);
        let (ptr, window) = match (at, &self.stream) {
            (Window::Band, Some(b)) => (
                format!("plc_gm_rc<{elem}>(args, {i}, {}, {})", b.r, b.c),
                format!("    plc_window_rc(args, {i}, {}, {}, {rows}, {cols}, vr, vc);", b.r, b.c),
            ),
            (Window::At(_), _) | (Window::Band, None) => {
                let offsets = match at {
                    Window::At(o) if !o.is_empty() => o.join(", "),
                    _ => "0".to_string(),
                };
                (
                    format!("plc_gm<{elem}>(args, {i}, {{{offsets}}})"),
                    format!("    plc_window(args, {i}, {{{offsets}}}, {rows}, {cols}, vr, vc);"),
                )
            }
        };
        let stride = format!("Stride<1, 1, 1, -1, 1>(1, 1, 1, plc_row_stride(args, {i}, {cols}), 1)");
        if self.tile_dims(t).1 != Space::Vec {
            return vec![format!(
                "    GlobalTensor<{elem}, Shape<1, 1, 1, {rows}, {cols}>, Stride<1, 1, 1, -1, 1>> gm({ptr}, Shape<1, 1, 1, {rows}, {cols}>(), {stride});"
            )];
        }
        let mut lines = vec!["    unsigned vr = 0, vc = 0;".to_string(), window];
        if store {
            lines.push(format!("    const unsigned keep_r = {name}.GetValidRow(), keep_c = {name}.GetValidCol();"));
            lines.push("    vr = vr < keep_r ? vr : keep_r;".to_string());
            lines.push("    vc = vc < keep_c ? vc : keep_c;".to_string());
        }
        lines.push(format!("    {name}.SetValidShape(vr, vc);"));
        lines.push(format!(
            "    GlobalTensor<{elem}, Shape<1, 1, 1, -1, -1>, Stride<1, 1, 1, -1, 1>> gm({ptr}, Shape<1, 1, 1, -1, -1>(1, 1, 1, vr, vc), {stride});"
        ));
        lines
    }

    /// Sets vector tile `t`'s valid shape to `x`'s (and `y`'s, the smaller).
    fn valid_from(&self, t: usize, x: usize, y: Option<usize>) -> Option<String> {
        if self.tile_dims(t).1 != Space::Vec {
            return None;
        }
        let (d, a) = (self.tile_name(t), self.tile_name(x));
        Some(match y {
            None => format!("{d}.SetValidShape({a}.GetValidRow(), {a}.GetValidCol());"),
            Some(y) => {
                let b = self.tile_name(y);
                format!("{d}.SetValidShape(std::min({a}.GetValidRow(), {b}.GetValidRow()), std::min({a}.GetValidCol(), {b}.GetValidCol()));")
            }
        })
    }

    /// `cmp` of two tiles: `TCMP` into the packed UINT8 mask plc's type gives (bit `c % 8` of
    /// byte `c / 8` of each row, the rest zero), valid over the source's valid rows and
    /// `ceil(valid columns / 8)` bytes, as `plc run` packs it. `cmp_type`'s codes are
    /// `CmpMode`'s (0 EQ, 1 NE, 2 LT, 3 LE, 4 GT, 5 GE).
    fn compare(&mut self, e: ExprId, op: Op, args: &[Option<ExprId>], hint: &str) -> R<Val> {
        let loc = self.p.expr(e).loc;
        let rhs = self.need(op, args, P::Rhs, loc)?;
        if op.def().level != OpLevel::Tile || self.p.types.get(self.p.expr(rhs).ty).is_scalar() {
            // TCMPS compares for equality within 1e-9 and packs whole rows; a tensor `cmp`
            // is 0/1 values, not a mask.
            return Err(self.unmapped(loc, format!("`{op}` with a scalar, or of tensors")));
        }
        let x = self.tile_operand(self.need(op, args, P::Lhs, loc)?)?;
        let y = self.tile_operand(rhs)?;
        let t = self.result_tile(e, hint)?;
        if self.tile_dims(x) != self.tile_dims(y) || self.tiles[x].dtype != self.tiles[y].dtype {
            return Err(self.unmapped(loc, format!("`{op}` of tiles of different shapes or types")));
        }
        if !matches!(self.tiles[x].dtype, DType::Fp32 | DType::Fp16 | DType::Int32) {
            return Err(
                self.unmapped(loc, format!("`{op}` of {} tiles (TCMP takes FP32, FP16, INT32)", self.tiles[x].dtype))
            );
        }
        let code = match self.arg(op, args, P::CmpType) {
            Some(c) => self.scalar(c)?,
            None => "0".to_string(),
        };
        let (d, a, b) = (self.tile_name(t), self.tile_name(x), self.tile_name(y));
        let lines = vec![
            format!("{d}.SetValidShape({a}.GetValidRow(), ({a}.GetValidCol() + 7) / 8);"),
            format!("TCMP({d}, {a}, {b}, static_cast<CmpMode>({code}));"),
        ];
        self.inst(Pipe::V, lines, vec![Res::Tile(x), Res::Tile(y)], vec![Res::Tile(t)]);
        Ok(Val::Tile(t))
    }

    /// `TCVT` into a tile of the target type: float to integer rounds as `mode` says (toward
    /// zero by default, as `plc run`), every other conversion to nearest (ties to even).
    fn cast(&mut self, e: ExprId, op: Op, args: &[Option<ExprId>], hint: &str) -> R<Val> {
        let loc = self.p.expr(e).loc;
        let x = self.tile_operand(self.need(op, args, P::X, loc)?)?;
        let t = self.result_tile(e, hint)?;
        let (a, b) = (&self.tiles[x], &self.tiles[t]);
        if (a.rows, a.cols) != (b.rows, b.cols) || a.request.space != Space::Vec || b.request.space != Space::Vec {
            return Err(self.unmapped(loc, format!("`{op}` into a tile of another shape or memory")));
        }
        let mode = match self.arg(op, args, P::Mode).map(|m| self.p.expr(m).kind.clone()) {
            None => None,
            Some(ExprKind::Str(m)) => Some(self.names.get(m).to_string()),
            Some(_) => return Err(self.unmapped(loc, format!("`{op}` with a mode that is not a string literal"))),
        };
        let round = if a.dtype.is_float() && b.dtype.is_int() {
            match mode.as_deref() {
                None | Some("trunc") | Some("none") => "CAST_TRUNC",
                Some("round") => "CAST_ROUND",
                Some("rint") => "CAST_RINT",
                Some("floor") => "CAST_FLOOR",
                Some("ceil") => "CAST_CEIL",
                Some(other) => return Err(self.unmapped(loc, format!("`{op}` with mode `{other}`"))),
            }
        } else {
            "CAST_RINT"
        };
        let line = format!("TCVT({}, {}, RoundMode::{round});", self.tile_name(t), self.tile_name(x));
        let lines = self.valid_from(t, x, None).into_iter().chain([line]).collect();
        self.inst(Pipe::V, lines, vec![Res::Tile(x)], vec![Res::Tile(t)]);
        Ok(Val::Tile(t))
    }

    fn move_tile(&mut self, e: ExprId, op: Op, args: &[Option<ExprId>], hint: &str) -> R<Val> {
        let loc = self.p.expr(e).loc;
        if self.arg(op, args, P::Transpose).is_some_and(|t| !matches!(self.p.expr(t).kind, ExprKind::Bool(false))) {
            return Err(self.unmapped(loc, "a transposing move".to_string()));
        }
        let x = self.tile_operand(self.need(op, args, P::Tile, loc)?)?;
        let t = if self.p.types.get(self.p.expr(e).ty).is_tile() {
            self.result_tile(e, hint)?
        } else {
            // plc could not infer the type (a tile of a bare tensor): the source's shape and
            // dtype in `target_memory`.
            let memory = match self.arg(op, args, P::TargetMemory).map(|m| self.p.expr(m).kind.clone()) {
                Some(ExprKind::Enum(EnumValue::MemorySpace(m))) => Some(m),
                _ => None,
            };
            let shape = vec![Dim::Const(self.tiles[x].rows), Dim::Const(self.tiles[x].cols)];
            let dtype = self.tiles[x].dtype;
            self.new_tile(&Type::Tile { shape, dtype, memory }, hint, loc)?
        };
        let pipe = match (self.tile_dims(x).1, self.tile_dims(t).1) {
            (Space::Mat, Space::Left | Space::Right) => Pipe::Mte1,
            (Space::Vec, Space::Vec) => Pipe::V,
            (a, b) => return Err(self.unmapped(loc, format!("a move from {} to {}", a.name(), b.name()))),
        };
        let line = format!("TMOV({}, {});", self.tile_name(t), self.tile_name(x));
        let lines = self.valid_from(t, x, None).into_iter().chain([line]).collect();
        self.inst(pipe, lines, vec![Res::Tile(x)], vec![Res::Tile(t)]);
        Ok(Val::Tile(t))
    }

    /// An integer attribute written as a literal (`id=`, `split=`, `slot_size=`, ...), or
    /// `default` when absent.
    fn literal(&self, op: Op, args: &[Option<ExprId>], slot: P, default: i64, loc: Loc) -> R<i64> {
        match self.arg(op, args, slot).map(|x| self.p.expr(x).kind.clone()) {
            None => Ok(default),
            Some(ExprKind::Int(n)) => Ok(n),
            Some(_) => Err(self.unmapped(loc, format!("`{op}` with `{slot}=` not an integer literal"))),
        }
    }

    /// The cross-core pipes of a mixed kernel, from the cube to the vector core (`dir_mask=1`,
    /// C2V), one tile per push (`split=0`): `*_initialize_pipe` declares the `TPipe` (slot
    /// size from `slot_size=`, `slot_num=` slots, default `ir::ops::pipe_slots`'s 8, `local_slot_num=` default 2), a
    /// push is `TPUSH` of the Acc tile (FIX pipe), a pop `TPOP` into a new vector tile (MTE2),
    /// a free `TFREE`. Buffer addresses (`reserve_buffer`, `import_peer_buffer`) are their
    /// `base=`, 0 by default: the simulator's pipe keeps its slots itself (docs/kernels.md).
    fn cross_core(&mut self, e: ExprId, op: Op, args: &[Option<ExprId>], hint: &str) -> R<Val> {
        let loc = self.p.expr(e).loc;
        let id = self.literal(op, args, P::Id, 0, loc)?;
        if !matches!(op, Op::SystemReserveBuffer | Op::SystemImportPeerBuffer)
            && self.literal(op, args, P::Split, 0, loc)? != 0
        {
            return Err(self.unmapped(loc, format!("`{op}` with `split=` other than 0")));
        }
        let pipe = |l: &Self| {
            l.pipes
                .get(&id)
                .cloned()
                .ok_or_else(|| l.unmapped(loc, format!("`{op}` on pipe {id} before its `*_initialize_pipe`")))
        };
        let none = Val::Scalar("0".to_string(), DType::Index);
        match op {
            Op::SystemReserveBuffer => {
                let base = self.literal(op, args, P::Base, crate::ir::ops::AUTO_BASE, loc)?.max(0);
                Ok(Val::Scalar(base.to_string(), DType::Int32))
            }
            Op::SystemImportPeerBuffer => Ok(Val::Scalar("0".to_string(), DType::Int32)),
            Op::SystemAicInitializePipe | Op::SystemAivInitializePipe => {
                if self.literal(op, args, P::DirMask, 0, loc)? != 1 {
                    return Err(
                        self.unmapped(loc, format!("`{op}` with `dir_mask=` other than 1 (vector to cube pipes)"))
                    );
                }
                let size = self.literal(op, args, P::SlotSize, 0, loc)?;
                let slots = self.literal(op, args, P::SlotNum, crate::ir::ops::pipe_slots(Some(1), None), loc)?;
                let local = self.literal(op, args, P::LocalSlotNum, 2, loc)?;
                if !(0..16).contains(&id) || size <= 0 || slots <= 0 || local <= 0 {
                    return Err(self.unmapped(
                        loc,
                        format!("`{op}` with `id=` outside 0..15 or a slot size or count not positive"),
                    ));
                }
                let buf = |slot: P, l: &mut Self| -> R<String> {
                    match l.arg(op, args, slot) {
                        Some(x) => Ok(format!("static_cast<uint32_t>({})", l.scalar(x)?)),
                        None => Ok("0u".to_string()),
                    }
                };
                let (c2v, v2c) = (buf(P::C2vConsumerBuf, self)?, buf(P::V2cConsumerBuf, self)?);
                let name = self.namer.fresh(&format!("pipe{id}"));
                let lines = vec![
                    format!("using {name}_t = TPipe<{id}, Direction::DIR_C2V, {size}, {slots}, {local}, true>;"),
                    format!("{name}_t {name}(nullptr, {c2v}, {v2c});"),
                ];
                self.inst(Pipe::S, lines, Vec::new(), Vec::new());
                self.pipes.insert(id, name);
                Ok(none)
            }
            Op::TileTpushToAiv => {
                let t = self.tile_operand(self.need(op, args, P::Tile, loc)?)?;
                if self.tile_dims(t).1 != Space::Acc {
                    return Err(self.unmapped(loc, format!("`{op}` of a tile not in Acc (push a matmul's result)")));
                }
                let (pipe, tile) = (pipe(self)?, self.tile_name(t));
                let line = format!("TPUSH<{pipe}_t, {tile}_t, TileSplitAxis::TILE_NO_SPLIT>({pipe}, {tile});");
                self.inst(Pipe::Fix, vec![line], vec![Res::Tile(t)], Vec::new());
                Ok(none)
            }
            Op::TileTpopFromAic => {
                let pipe = pipe(self)?;
                let t = self.result_tile(e, hint)?;
                if self.tile_dims(t).1 != Space::Vec {
                    return Err(self.unmapped(loc, format!("`{op}` into a tile outside the unified buffer")));
                }
                let (tile, rows, cols) = (self.tile_name(t), self.tiles[t].rows, self.tiles[t].cols);
                let lines = vec![
                    format!("{tile}.SetValidShape({rows}, {cols});"),
                    format!("TPOP<{pipe}_t, {tile}_t, TileSplitAxis::TILE_NO_SPLIT>({pipe}, {tile});"),
                ];
                self.inst(Pipe::Mte2, lines, Vec::new(), vec![Res::Tile(t)]);
                Ok(Val::Tile(t))
            }
            Op::SystemTfreeToAic => {
                // After the last use of the popped tile so far: the slot is the producer's again.
                let t = self.tile_operand(self.need(op, args, P::Tile, loc)?)?;
                let line = format!("TFREE<{0}_t, TileSplitAxis::TILE_NO_SPLIT>({0});", pipe(self)?);
                self.inst(Pipe::S, vec![line], vec![Res::Tile(t)], vec![Res::Tile(t)]);
                Ok(none)
            }
            _ => Err(self.unmapped(loc, format!("`{op}` (the vector-to-cube direction)"))),
        }
    }

    fn matmul(&mut self, e: ExprId, op: Op, args: &[Option<ExprId>], s: Special, hint: &str) -> R<Val> {
        let loc = self.p.expr(e).loc;
        for p in [P::ATrans, P::BTrans, P::InitCond] {
            if self.arg(op, args, p).is_some() {
                return Err(self.unmapped(loc, format!("`{op}` with `{p}=`")));
            }
        }
        let a = self.tile_operand(self.need(op, args, P::Lhs, loc)?)?;
        let b = self.tile_operand(self.need(op, args, P::Rhs, loc)?)?;
        if self.tile_dims(a).1 != Space::Left || self.tile_dims(b).1 != Space::Right {
            return Err(self.unmapped(loc, format!("`{op}` of tiles not in Left and Right (move them there first)")));
        }
        let (c, line) = if s == Special::MatmulAcc {
            // In place: the accumulator's bytes hold the sum.
            let c = self.tile_operand(self.need(op, args, P::Acc, loc)?)?;
            (c, "TMATMUL_ACC")
        } else {
            // The product is FP32 in Acc, of lhs's rows and rhs's columns.
            let (rows, cols) = (self.tiles[a].rows, self.tiles[b].cols);
            let shape = vec![Dim::Const(rows), Dim::Const(cols)];
            let ty = Type::Tile { shape, dtype: DType::Fp32, memory: Some(MemorySpace::Acc) };
            (self.new_tile(&ty, hint, loc)?, "TMATMUL")
        };
        if self.tile_dims(c).1 != Space::Acc {
            return Err(self.unmapped(loc, format!("`{op}` into a tile not in Acc")));
        }
        // `TMATMUL_ACC(out, in, a, b)`: the accumulator is both (in place).
        let acc = if s == Special::MatmulAcc { format!("{0}, {0}", self.tile_name(c)) } else { self.tile_name(c) };
        let line = format!("{line}({acc}, {}, {});", self.tile_name(a), self.tile_name(b));
        let mut reads = vec![Res::Tile(a), Res::Tile(b)];
        if s == Special::MatmulAcc {
            reads.push(Res::Tile(c));
        }
        self.inst(Pipe::M, vec![line], reads, vec![Res::Tile(c)]);
        Ok(Val::Tile(c))
    }
}
