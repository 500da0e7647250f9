//! The ops of a kernel body as C++ over the CPU tile library: each op's kind in the op
//! table (`ir/ops.rs`) picks its form here. The families share one form per member
//! function (`pl.add` and `pl.adds` are `plc::add`, `pl.row_sum` is `plc::row_sum`); every
//! [`Special`] op has a form of its own, or says why it has none (E0601).

use super::{Emitter, Repr, Res};
use crate::diag::{Code, Diagnostic};
use crate::emit::cpp::runtime_dtype;
use crate::emit::cpp::scalar_ctype;
use crate::ir::ops::{Axis, Op, OpKind, OpLevel, Param as P, ReduceFn, Slot, Special};
use crate::ir::{DType, Dim, EnumValue, ExprId, ExprKind, Layout, Loc, MaskPattern, PadValue, Type};

/// An argument of a plain call of the tile library (`Emitter::lib_call`): a tile (or a
/// tensor value held as one) or a scalar.
#[derive(Clone, Copy)]
enum Lib {
    Tile(Slot),
    Scalar(Slot),
}

/// `(input, index, src)`: the arguments of the scatters of `src` into `input` at `index`.
const INPUT_INDEX_SRC: [Lib; 3] =
    [Lib::Tile(Slot::Named(P::Input)), Lib::Tile(Slot::Named(P::Index)), Lib::Tile(Slot::Named(P::Src))];

/// An op call being emitted: its expression, the op and its arguments (in the op's
/// parameter order).
struct OpCall<'a> {
    e: ExprId,
    op: Op,
    args: &'a [Option<ExprId>],
    loc: Loc,
}

impl OpCall<'_> {
    /// The argument given for a parameter.
    fn get(&self, p: P) -> Option<ExprId> {
        self.op.def().arg(self.args, p)
    }
}

impl Emitter<'_> {
    /// An op call: its C++ expression and the form of its value.
    pub(super) fn op(&mut self, e: ExprId, op: Op, args: &[Option<ExprId>]) -> Res<(String, Repr)> {
        let c = OpCall { e, op, args, loc: self.loc(e) };
        let given = |p: P| c.get(p).is_some_and(|x| !matches!(self.p.expr(x).kind, ExprKind::None));
        let arg_type = |i: usize| args.get(i).copied().flatten().map(|x| self.p.ty(x));
        if let Some(why) = op.def().no_cpu_form_of_layouts(given, arg_type, self.p.ty(e)) {
            let name = op.def().print_name();
            return Err(self.err(Code::E0601, c.loc, format!("`{name}` has no CPU form in the C++ backend ({why})")));
        }
        match op.def().kind {
            OpKind::Special(special) => self.special(&c, special),
            OpKind::CrossCore => self.cross_core(&c),
            kind if kind.family_operands().is_some() => {
                let elem = self.elem_of(e)?;
                let text = self.family(&c, kind)?;
                Ok((self.narrow_rounded(e, text), Repr::Tile(elem)))
            }
            _ => Err(self.no_cpu_form(&c)),
        }
    }

    /// The cross-core pipes, as `plc run` runs them (`interp::ops::cross_core`): a pipe
    /// (`id=`) has the slots its `*_initialize_pipe` sets up (`plc::pipe_init`, the count from
    /// `ir::ops::pipe_slots`), a push puts a copy of the tile in a free slot, a pop takes the
    /// oldest one pushed the other way and holds its slot until a free
    /// (`plc::pipe_push`/`pipe_pop`/`pipe_free`); buffer addresses are `base=` (-1, AUTO) and
    /// -1. `split=` other than 0 is E0601.
    fn cross_core(&mut self, c: &OpCall<'_>) -> Res<(String, Repr)> {
        let id = self.int_arg(c.get(P::Id), 0)?;
        let split = !matches!(c.op, Op::SystemReserveBuffer | Op::SystemImportPeerBuffer)
            && !matches!(
                c.get(P::Split).map(|s| &self.p.expr(s).kind),
                None | Some(ExprKind::Int(0)) | Some(ExprKind::None)
            );
        if split {
            return Err(self.err(
                Code::E0601,
                c.loc,
                format!(
                    "`{}` with `split=` other than 0 (a tile shared by the two vector cores) has no CPU form",
                    c.op
                ),
            ));
        }
        let int32 = |text: String| (format!("static_cast<int32_t>({text})"), Repr::Scalar("int32_t"));
        Ok(match c.op {
            Op::SystemReserveBuffer => int32(self.int_arg(c.get(P::Base), crate::ir::ops::AUTO_BASE)?),
            Op::SystemImportPeerBuffer => int32("-1".to_string()),
            Op::TileTpushToAiv | Op::TileTpushToAic => {
                let t = self.tile_arg(self.need(c, P::Tile)?)?;
                let to_vector = c.op == Op::TileTpushToAiv;
                (format!("plc::pipe_push({id}, {to_vector}, {t})"), Repr::None)
            }
            Op::TileTpopFromAic | Op::TileTpopFromAiv => {
                let elem = self.elem_of(c.e)?;
                let to_vector = c.op == Op::TileTpopFromAic;
                (format!("plc::pipe_pop<{elem}>({id}, {to_vector})"), Repr::Tile(elem))
            }
            Op::SystemAicInitializePipe | Op::SystemAivInitializePipe => {
                let literal = |p: P| match c.get(p).map(|e| &self.p.expr(e).kind) {
                    Some(ExprKind::Int(n)) => Ok(Some(*n)),
                    None | Some(ExprKind::None) => Ok(None),
                    Some(_) => Err(self.err(
                        Code::E0601,
                        c.loc,
                        format!("`{}` with `{p}=` not an integer literal has no CPU form", c.op),
                    )),
                };
                let slots = crate::ir::ops::pipe_slots(literal(P::DirMask)?, literal(P::SlotNum)?);
                (format!("plc::pipe_init({id}, {slots})"), Repr::None)
            }
            Op::SystemTfreeToAic | Op::SystemTfreeToAiv => {
                // `tfree_to_aic` is the vector core's: it frees a slot of the cube's tiles to it.
                let to_vector = c.op == Op::SystemTfreeToAic;
                (format!("plc::pipe_free({id}, {to_vector})"), Repr::None)
            }
            _ => ("plc::hardware_sync()".to_string(), Repr::None),
        })
    }

    /// A computed tile of FP16 or BF16, which the tile library holds as `float`, rounded
    /// to its format: the vector unit rounds each instruction's result, and so does
    /// `plc run`, so two ops in a row round twice (BF16 sums differed before).
    fn narrow_rounded(&self, e: ExprId, text: String) -> String {
        match self.p.ty(e) {
            Type::Tile { dtype: d @ (DType::Fp16 | DType::Bf16), .. } => {
                format!("plc::rounded({text}, {})", runtime_dtype(*d))
            }
            _ => text,
        }
    }

    /// An argument the op cannot do without (lowering checked it is there).
    fn need(&self, c: &OpCall<'_>, slot: impl Into<Slot>) -> Res<ExprId> {
        let slot = slot.into();
        let def = c.op.def();
        let arg = def.slot_index(slot).and_then(|i| c.args.get(i).copied().flatten());
        arg.ok_or_else(|| {
            let what = def.slot_name(slot);
            self.err(Code::E0707, c.loc, format!("internal error: `{}` lacks its argument `{what}`", c.op))
        })
    }

    /// E0601 for an op the tile library has no form for.
    fn no_cpu_form(&self, c: &OpCall<'_>) -> Box<Diagnostic> {
        let def = c.op.def();
        let why = match def.kind.no_cpu_form() {
            Some(why) => format!(" ({why})"),
            None => "; docs/kernels.md lists the ops that lower".to_string(),
        };
        self.err(
            Code::E0601,
            c.loc,
            format!("`{}` ({}) has no CPU form in the C++ backend yet{why}", def.print_name(), c.op),
        )
    }

    /// The elementwise, reduction and comparison families.
    fn family(&mut self, c: &OpCall<'_>, kind: OpKind) -> Res<String> {
        let first = self.need(c, Slot::Nth(0))?;
        let x = self.tile_arg(first)?;
        // The axis a column reduction collapses (the runtime's `col_axis`), as the type rule.
        let col_axis = |axis: Axis| match axis {
            Axis::Row => String::new(),
            Axis::Col => format!(", {}", Axis::col_axis(matches!(self.p.ty(first), Type::Tile { .. }))),
        };
        Ok(match kind {
            // Pieces joined once, not formatted (the elementwise ops of every kernel).
            OpKind::Binary(f) => {
                let y = self.operand(self.need(c, Slot::Nth(1))?)?;
                super::super::cpp::cat(&["plc::", f.tile_fn(), "(", &x, ", ", &y, ")"])
            }
            OpKind::Unary(f) => super::super::cpp::cat(&["plc::", f.tile_fn(), "(", &x, ")"]),
            OpKind::Chain(f) => {
                let y = self.operand(self.need(c, Slot::Nth(1))?)?;
                let z = self.tile_arg(self.need(c, Slot::Nth(2))?)?;
                format!("plc::{}c({x}, {y}, {z})", f.tile_fn())
            }
            OpKind::Expand(axis, f) => {
                let v = self.tile_arg(self.need(c, Slot::Nth(1))?)?;
                let suffix = f.map_or(String::new(), |f| format!("_{}", f.family_suffix()));
                format!("plc::{}_expand{suffix}({x}, {v})", axis.prefix())
            }
            OpKind::Part(f) => {
                let y = self.tile_arg(self.need(c, Slot::Nth(1))?)?;
                format!("plc::part_{}({x}, {y})", f.family_suffix())
            }
            OpKind::Reduce(axis, f) => format!("plc::{}_{}({x}{})", axis.prefix(), f.tile_fn(), col_axis(axis)),
            OpKind::ArgReduce(axis, f) => {
                format!("plc::{}_arg{}({x}{})", axis.prefix(), f.tile_fn(), col_axis(axis))
            }
            OpKind::AxisReduce { f, default_axis, default_keep } => {
                let axis = self.int_arg(c.get(P::Axis), default_axis)?;
                let keep = match c.get(P::KeepDim).or(c.get(P::Keepdim)) {
                    None => default_keep.to_string(),
                    Some(k) => self.typed_scalar(k, "bool")?,
                };
                let f = match f {
                    ReduceFn::Sum => "plc::Reduce::Sum",
                    ReduceFn::Max => "plc::Reduce::Max",
                    ReduceFn::Min => "plc::Reduce::Min",
                    ReduceFn::Prod => "plc::Reduce::Prod",
                };
                format!("plc::reduce_axis({x}, {f}, {axis}, {keep})")
            }
            OpKind::Compare => {
                let y = self.operand(self.need(c, Slot::Nth(1))?)?;
                let code = self.int_arg(c.get(P::CmpType), 0)?;
                // A tile comparison gives PyPTO's packed mask (see `ir::ops::packed_mask_cols`).
                match c.op.def().level {
                    OpLevel::Tile => format!("plc::pack_mask(plc::cmp({x}, {y}, {code}))"),
                    _ => format!("plc::cmp({x}, {y}, {code})"),
                }
            }
            _ => return Err(self.err(Code::E0707, c.loc, format!("internal error: `{}` is not a family op", c.op))),
        })
    }

    /// The ops with a form of their own.
    fn special(&mut self, c: &OpCall<'_>, special: Special) -> Res<(String, Repr)> {
        match special {
            Special::Load | Special::BlockLoad | Special::Store | Special::BlockStore | Special::Copy => {
                self.memory(c, special)
            }
            Special::CreateTensor
            | Special::CreateTile
            | Special::CreateBufferSet
            | Special::Full
            | Special::Ci
            | Special::Dim
            | Special::BlockIdx
            | Special::BlockNum
            | Special::SubblockIdx
            | Special::AvailableAivCount
            | Special::AvailableClusterCount => self.create(c, special),
            // Barriers, flags and fences order the pipes of one core and the cores of a
            // cluster: the CPU runs everything in program order, so they do nothing.
            Special::Hardware => Ok(("plc::hardware_sync()".to_string(), Repr::None)),
            // A pinned buffer: every tile of a CPU kernel has storage of its own.
            Special::PinBuffer => Ok(("(void)0 /* pl.tile.alloc_buffer */".to_string(), Repr::None)),
            // A device debug print: the CPU kernel prints nothing (see `Special::RuntimePrint`).
            Special::RuntimePrint => Ok(("(void)0 /* pl.runtime_print */".to_string(), Repr::None)),
            Special::Read
            | Special::Write
            | Special::ScalarCast
            | Special::ScalarMax
            | Special::ScalarMin
            | Special::ArrayCreate
            | Special::ArrayGet
            | Special::ArrayUpdate => self.scalar(c, special),
            Special::Slice
            | Special::Reshape
            | Special::View
            | Special::Transpose
            | Special::TransposeView
            | Special::SetValidShape
            | Special::Assemble
            | Special::Move => self.layout(c, special),
            // The compare form of `tensor.gather` has two results, as `gather_compare`.
            Special::Gather if c.get(P::Kvalue).is_some() => self.gather_compare(c),
            crate::ir::ops::specials!(tuple) => self.gather_compare(c),
            Special::BufferSlot => {
                let (set, repr) = self.expr(self.need(c, P::Buffers)?)?;
                let index = self.typed_scalar(self.need(c, P::Index)?, "int64_t")?;
                match repr {
                    Repr::Tuple(items) if !items.is_empty() => Ok((format!("{set}[{index}]"), items[0].clone())),
                    other => Err(self.err(
                        Code::E0602,
                        c.loc,
                        format!("a slot of {}, not a set of tile buffers", other.describe()),
                    )),
                }
            }
            Special::Cast | crate::ir::ops::specials!(matmul) | crate::ir::ops::specials!(compute) => {
                let elem = self.elem_of(c.e)?;
                let text = self.compute(c, special, elem)?;
                Ok((self.narrow_rounded(c.e, text), Repr::Tile(elem)))
            }
            crate::ir::ops::specials!(shaping) => {
                let elem = self.elem_of(c.e)?;
                let text = self.shaping(c, special, elem)?;
                Ok((text, Repr::Tile(elem)))
            }
            crate::ir::ops::specials!(scatter) => {
                let elem = self.elem_of(c.e)?;
                let text = self.scatter_family(c, special, elem)?;
                Ok((text, Repr::Tile(elem)))
            }
            crate::ir::ops::specials!(placing) => self.placing(c, special),
            // A bare tensor's shape and dtype are orchestration values; a barrier across
            // cores has no meaning for one kernel on the CPU.
            Special::ShapeOf
            | Special::DTypeOf
            | Special::SyncAll
            | Special::TaskInvalid
            | Special::TaskDummy
            | Special::TaskIdOf => Err(self.no_cpu_form(c)),
        }
    }

    /// Loads into tiles, stores and copies into tensors.
    fn memory(&mut self, c: &OpCall<'_>, special: Special) -> Res<(String, Repr)> {
        match special {
            Special::Load => {
                let src = self.need(c, P::Tensor)?;
                let offsets = self.dims(c.get(P::Offsets))?;
                let shapes = self.dims(c.get(P::Shapes))?;
                let valid = self.dims(c.get(P::ValidShapes).or(c.get(P::ValidShape)))?;
                let (t, r) = self.expr(src)?;
                if let Repr::Tile(_) = r {
                    // A load from a tensor value the kernel computed: a window of that tile.
                    return Ok((format!("plc::slice({t}, {shapes}, {offsets}, {valid})"), self.tile_result(c.e)?));
                }
                let transpose = self.flag(c.get(P::Transpose))?;
                let elem = self.elem_of(c.e)?;
                // Pieces joined once, not formatted (every kernel loads).
                let mut parts = ["plc::load<", elem, ">(", &t, ", ", &offsets, ", ", &shapes, "", "", "", "", ")"];
                if transpose != "false" {
                    parts[8..12].copy_from_slice(&[", ", &valid, ", ", &transpose]);
                } else if valid != "plc::Dims()" {
                    parts[8..10].copy_from_slice(&[", ", &valid]);
                }
                Ok((super::super::cpp::cat(&parts), Repr::Tile(elem)))
            }
            Special::BlockLoad => {
                let t = self.tensor_arg(self.need(c, P::Tensor)?)?;
                let [row, col, height, width] = self.block_window(c)?;
                let elem = self.elem_of(c.e)?;
                Ok((
                    format!("plc::load<{elem}>({t}, plc::Dims{{{row}, {col}}}, plc::Dims{{{height}, {width}}})"),
                    Repr::Tile(elem),
                ))
            }
            Special::Store => {
                self.refuse_fixpipe(c)?;
                let tile = self.tile_arg(self.need(c, P::Tile)?)?;
                let offsets = self.dims(c.get(P::Offsets))?;
                let shapes = self.dims(c.get(P::Shapes))?;
                let atomic = self.atomic(c.get(P::Atomic));
                self.store_into(self.need(c, P::OutputTensor)?, &tile, &offsets, &shapes, atomic)
            }
            Special::BlockStore => {
                let tile = self.tile_arg(self.need(c, P::Tile)?)?;
                let [row, col, height, width] = self.block_window(c)?;
                let offsets = format!("plc::Dims{{{row}, {col}}}");
                let shapes = format!("plc::Dims{{{height}, {width}}}");
                self.store_into(self.need(c, P::OutputTensor)?, &tile, &offsets, &shapes, "false")
            }
            _ => {
                // `pl.copy(dst, src, dst_offsets, src_offsets, shape)`.
                let dst = self.tensor_arg(self.need(c, P::Dst)?)?;
                let src = self.need(c, P::Src)?;
                let src_text = self.tensor_arg(src)?;
                let dst_off = self.dims(c.get(P::DstOffsets))?;
                let src_off = self.dims(c.get(P::SrcOffsets))?;
                let shape = self.dims(c.get(P::Shape))?;
                let elem = self.elem_of(src)?;
                Ok((format!("plc::copy<{elem}>({dst}, {src_text}, {dst_off}, {src_off}, {shape})"), Repr::Tensor))
            }
        }
    }

    /// The row, column, height and width of the older `pl.op.block` load and store.
    fn block_window(&mut self, c: &OpCall<'_>) -> Res<[String; 4]> {
        let mut parts: [String; 4] = Default::default();
        for (k, p) in [P::RowOffset, P::ColOffset, P::Height, P::Width].into_iter().enumerate() {
            parts[k] = self.typed_scalar(self.need(c, p)?, "int64_t")?;
        }
        Ok(parts)
    }

    /// New tiles and tensors, and what the runtime knows (extents, the block index).
    fn create(&mut self, c: &OpCall<'_>, special: Special) -> Res<(String, Repr)> {
        match special {
            Special::CreateTile => {
                let shape = self.dims(c.get(P::Shape))?;
                let elem = self.elem_of(c.e)?;
                Ok((format!("plc::create<{elem}>({shape})"), Repr::Tile(elem)))
            }
            Special::CreateBufferSet => {
                // A `std::array` of the slots: `std::get<k>` reads a constant slot, `[i]` any.
                let count = match c.get(P::Count).map(|e| &self.p.expr(e).kind) {
                    Some(ExprKind::Int(n)) if *n > 0 => *n as usize,
                    _ => {
                        return Err(self.err(
                            Code::E0602,
                            c.loc,
                            "a set of tile buffers of no constant count".to_string(),
                        ))
                    }
                };
                let shape = self.dims(c.get(P::Shape))?;
                let dtype = self.dtype_arg(c.get(P::Dtype)).unwrap_or(DType::Fp32);
                let elem = super::elem_ctype(dtype).ok_or_else(|| {
                    self.err(Code::E0604, c.loc, format!("a tile of {dtype} has no C++ form in a kernel"))
                })?;
                let slots = vec![format!("plc::create<{elem}>({shape})"); count].join(", ");
                Ok((format!("std::array{{{slots}}}"), Repr::Tuple(vec![Repr::Tile(elem); count])))
            }
            Special::Full => {
                let shape = self.dims(c.get(P::Shape))?;
                let value = self.expr(self.need(c, P::Value)?)?.0;
                let elem = self.elem_of(c.e)?;
                Ok((format!("plc::full<{elem}>({shape}, {value})"), Repr::Tile(elem)))
            }
            Special::Ci => {
                if let Some(why) = c.op.def().no_cpu_form_of_call(|_| false, self.p.ty(c.e)) {
                    return Err(self.no_cpu_form_because(c, why));
                }
                let start = self.expr(self.need(c, P::Start)?)?.0;
                let shape = self.dims(c.get(P::Shape))?;
                let descending = self.flag(c.get(P::Descending))?;
                let elem = self.elem_of(c.e)?;
                Ok((format!("plc::ci<{elem}>({start}, {shape}, {descending})"), Repr::Tile(elem)))
            }
            Special::CreateTensor => {
                let shape = self.dims(c.get(P::Shape))?;
                let dtype = self.dtype_arg(c.get(P::Dtype)).unwrap_or(DType::Fp32);
                Ok((format!("plc::create_tensor({shape}, {})", runtime_dtype(dtype)), Repr::Tensor))
            }
            Special::Dim => {
                let (t, r) = self.expr(self.need(c, P::Tensor)?)?;
                if !matches!(r, Repr::Tensor | Repr::Tile(_)) {
                    return Err(self.err(Code::E0602, c.loc, format!("the extent of {}", r.describe())));
                }
                let axis = self.int_arg(c.get(P::Axis), 0)?;
                Ok((format!("plc::dim({t}, {axis})"), Repr::Scalar("int64_t")))
            }
            Special::BlockIdx => Ok(("plc::get_block_idx()".to_string(), Repr::Scalar("int64_t"))),
            Special::SubblockIdx => Ok(("plc::get_subblock_idx()".to_string(), Repr::Scalar("int64_t"))),
            Special::AvailableAivCount => Ok(("plc::available_aiv_count()".to_string(), Repr::Scalar("int32_t"))),
            Special::AvailableClusterCount => {
                Ok(("plc::available_cluster_count()".to_string(), Repr::Scalar("int32_t")))
            }
            _ => Ok(("plc::get_block_num()".to_string(), Repr::Scalar("int64_t"))),
        }
    }

    /// Elements of tiles, tensors and arrays; scalar casts and `max`/`min`.
    fn scalar(&mut self, c: &OpCall<'_>, special: Special) -> Res<(String, Repr)> {
        match special {
            Special::Read => {
                // The tensor or tile read from, the first argument.
                let src = self.need(c, Slot::Nth(0))?;
                let idx = self.dims(c.get(P::Indices))?;
                let ctype = self.scalar_repr(c.e).unwrap_or(Repr::Scalar("float"));
                let (t, r) = self.expr(src)?;
                let text = match (&r, &ctype) {
                    (Repr::Tensor, Repr::Scalar(ct)) => format!("plc::read<{ct}>({t}, {idx})"),
                    (Repr::Tile(_), _) => format!("plc::read({t}, {idx})"),
                    _ => return Err(self.err(Code::E0602, c.loc, format!("reading an element of {}", r.describe()))),
                };
                Ok((text, ctype))
            }
            Special::Write => {
                let dst = self.need(c, Slot::Nth(0))?;
                let idx = self.dims(c.get(P::Indices))?;
                let value = self.expr(self.need(c, P::Value)?)?.0;
                let (t, r) = self.expr(dst)?;
                if !matches!(r, Repr::Tensor | Repr::Tile(_)) {
                    return Err(self.err(Code::E0602, c.loc, format!("writing an element of {}", r.describe())));
                }
                Ok((format!("plc::write({t}, {idx}, {value})"), r))
            }
            Special::ScalarCast => {
                let x = self.expr(self.need(c, P::X)?)?.0;
                let d = self.dtype_arg(c.get(P::TargetType)).unwrap_or(DType::Fp32);
                let Some(ct) = scalar_ctype(d) else {
                    return Err(self.no_cpu_form_because(c, "a cast to TASK_ID"));
                };
                let mode = self.round_mode(c.get(P::Mode));
                Ok((format!("plc::cast_scalar<{ct}>({x}, {}, {mode})", runtime_dtype(d)), Repr::Scalar(ct)))
            }
            Special::ScalarMax | Special::ScalarMin => {
                let Some(Repr::Scalar(ct)) = self.scalar_repr(c.e) else {
                    return Err(self.err(Code::E0604, c.loc, "a scalar max/min of no scalar type".to_string()));
                };
                let x = self.typed_scalar(self.need(c, P::Lhs)?, ct)?;
                let y = self.typed_scalar(self.need(c, P::Rhs)?, ct)?;
                let f = if special == Special::ScalarMax { "max" } else { "min" };
                Ok((format!("std::{f}<{ct}>(static_cast<{ct}>({x}), static_cast<{ct}>({y}))"), Repr::Scalar(ct)))
            }
            Special::ArrayCreate => {
                let Type::Array { len, dtype } = self.p.ty(c.e).clone() else {
                    return Err(self.err(Code::E0604, c.loc, "an array of unknown length".to_string()));
                };
                let Some(ct) = scalar_ctype(dtype) else {
                    return Err(self.no_cpu_form_because(c, "an array of TASK_ID"));
                };
                Ok((format!("std::array<{ct}, {len}>{{}}"), Repr::Array(ct, len)))
            }
            Special::ArrayGet => {
                let (t, r) = self.expr(self.need(c, P::Array)?)?;
                let i = self.typed_scalar(self.need(c, P::Index)?, "int64_t")?;
                let Repr::Array(ct, _) = r else {
                    return Err(self.err(Code::E0602, c.loc, format!("an element of {}", r.describe())));
                };
                Ok((format!("{t}[static_cast<size_t>({i})]"), Repr::Scalar(ct)))
            }
            _ => {
                // `pl.array.update_element(array, index, value)`.
                let (t, r) = self.expr(self.need(c, P::Array)?)?;
                let i = self.typed_scalar(self.need(c, P::Index)?, "int64_t")?;
                let v = self.expr(self.need(c, P::Value)?)?.0;
                if !matches!(r, Repr::Array(..)) {
                    return Err(self.err(Code::E0602, c.loc, format!("an element of {}", r.describe())));
                }
                Ok((format!("plc::array_set({t}, {i}, {v})"), r))
            }
        }
    }

    /// E0601 for a form of an op the tile library lacks.
    fn no_cpu_form_because(&self, c: &OpCall<'_>, why: &str) -> Box<Diagnostic> {
        let name = c.op.def().print_name();
        self.err(Code::E0601, c.loc, format!("`{name}` has no CPU form in the C++ backend yet ({why})"))
    }

    /// E0601 for a store or assemble given `pre_quant=` or `pre_relu=`: the fixpipe's
    /// quantization is a computation the CPU kernels do not do yet.
    fn refuse_fixpipe(&self, c: &OpCall<'_>) -> Res<()> {
        let given = |p: P| c.get(p).filter(|&x| !matches!(self.p.expr(x).kind, ExprKind::None | ExprKind::Bool(false)));
        if given(P::PreQuant).is_none() && given(P::PreRelu).is_none() {
            return Ok(());
        }
        let printed = c.op.def().spellings[0];
        Err(self.err(
            Code::E0601,
            c.loc,
            format!("`{printed}` with pre_quant= or pre_relu= (the fixpipe's quantization) has no CPU form yet"),
        ))
    }

    /// Slices, reshapes, transposes, valid shapes, moves and assembling.
    fn layout(&mut self, c: &OpCall<'_>, special: Special) -> Res<(String, Repr)> {
        let src = match special {
            Special::Assemble => {
                self.refuse_fixpipe(c)?;
                self.need(c, P::Target)?
            }
            _ => self.need(c, Slot::Nth(0))?,
        };
        match special {
            Special::Slice => self.slice(c, src),
            Special::Reshape | Special::View => {
                let (t, r) = self.expr(src)?;
                if special == Special::View && c.get(P::Shape).is_none() {
                    // A layout alone that flips the source's swaps the last two axes (see
                    // the op's type rule); the source's own layout is the source itself.
                    let source = self.p.ty(src).layout().unwrap_or(Layout::Nd);
                    if matches!(self.enum_arg(c.get(P::Layout)), Some(EnumValue::Layout(l)) if source.flips_to(l)) {
                        return Ok((format!("plc::transpose({t}, -2, -1)"), r));
                    }
                    return Ok((t, r));
                }
                let shape = self.dims(c.get(P::Shape))?;
                let repr = if r == Repr::Tensor { Repr::Tensor } else { self.tile_result(c.e)? };
                if !matches!(r, Repr::Tensor | Repr::Tile(_)) {
                    return Err(self.err(Code::E0602, c.loc, format!("a reshape of {}", r.describe())));
                }
                Ok((format!("plc::reshape({t}, {shape})"), repr))
            }
            Special::Transpose => {
                let (t, r) = self.expr(src)?;
                let x = self.int_arg(c.get(P::Axis1), 0)?;
                let y = self.int_arg(c.get(P::Axis2), 1)?;
                let repr = if r == Repr::Tensor { Repr::Tensor } else { self.tile_result(c.e)? };
                Ok((format!("plc::transpose({t}, {x}, {y})"), repr))
            }
            Special::TransposeView => {
                let t = self.tile_arg(src)?;
                Ok((format!("plc::transpose({t}, -2, -1)"), self.tile_result(c.e)?))
            }
            Special::SetValidShape => {
                let t = self.tile_arg(src)?;
                let rows = self.typed_scalar(self.need(c, P::ValidRows)?, "int64_t")?;
                let cols = self.typed_scalar(self.need(c, P::ValidCols)?, "int64_t")?;
                Ok((format!("plc::set_validshape({t}, {rows}, {cols})"), self.tile_result(c.e)?))
            }
            Special::Move => {
                let t = self.tile_arg(src)?;
                let transpose = self.flag(c.get(P::Transpose))?;
                let text = if transpose == "false" {
                    format!("plc::move({t})")
                } else {
                    format!("plc::move({t}, {transpose})")
                };
                Ok((text, self.tile_result(c.e)?))
            }
            _ => {
                // `pl.assemble(target, source, offset, atomic=...)`.
                let source = self.tile_arg(self.need(c, P::Source)?)?;
                let offset = self.dims(c.get(P::Offset))?;
                let atomic = self.atomic(c.get(P::Atomic));
                let (t, r) = self.expr(src)?;
                let repr = match r {
                    Repr::Tensor => Repr::Tensor,
                    Repr::Tile(_) => self.tile_result(c.e)?,
                    other => return Err(self.err(Code::E0602, c.loc, format!("assembling into {}", other.describe()))),
                };
                Ok((format!("plc::assemble({t}, {source}, {offset}, {atomic})"), repr))
            }
        }
    }

    /// `pl.slice(x, shape, offset, valid_shape=..., drop_dims=...)` of a tensor (a view) or
    /// of a tile (a copy).
    fn slice(&mut self, c: &OpCall<'_>, src: ExprId) -> Res<(String, Repr)> {
        let shape = self.dims(c.get(P::Shape))?;
        let offset = self.dims(c.get(P::Offset))?;
        let drop_dims = c.get(P::DropDims).filter(|&d| !matches!(self.p.expr(d).kind, ExprKind::None));
        let (t, r) = self.expr(src)?;
        let valid_shape = c.get(P::ValidShape).filter(|&v| !matches!(self.p.expr(v).kind, ExprKind::None));
        match r {
            // A window with a valid region of its own is read into a tile that carries it
            // (PyPTO converts such a slice to `tile.load(..., valid_shapes=)`).
            Repr::Tensor if valid_shape.is_some() && drop_dims.is_none() => {
                let elem = self.elem_of(c.e)?;
                let valid = self.dims(valid_shape)?;
                Ok((format!("plc::load<{elem}>({t}, {offset}, {shape}, {valid})"), self.tile_result(c.e)?))
            }
            Repr::Tensor => {
                let mut text = format!("plc::slice({t}, {shape}, {offset})");
                if let Some(d) = drop_dims {
                    text = format!("plc::drop_dims({text}, {})", self.dims(Some(d))?);
                }
                Ok((text, Repr::Tensor))
            }
            Repr::Tile(_) => {
                let valid = self.dims(c.get(P::ValidShape))?;
                let mut text = format!("plc::slice({t}, {shape}, {offset}, {valid})");
                if drop_dims.is_some() {
                    // The result drops extents of 1: its shape is the IR type's.
                    let dims = self.static_shape(c.e)?;
                    text = format!("plc::reshape({text}, {dims})");
                }
                Ok((text, self.tile_result(c.e)?))
            }
            other => Err(self.err(Code::E0602, c.loc, format!("a slice of {}", other.describe()))),
        }
    }

    /// `pl.store(tile, offsets, out)` into a tensor, or into a tensor value held as a tile.
    fn store_into(
        &mut self,
        out: ExprId,
        tile: &str,
        offsets: &str,
        shapes: &str,
        atomic: &str,
    ) -> Res<(String, Repr)> {
        let (t, r) = self.expr(out)?;
        match r {
            Repr::Tensor => {
                // Pieces joined once, not formatted (every kernel stores).
                let mut parts = ["plc::store(", tile, ", ", offsets, ", ", &t, "", "", "", "", ")"];
                if shapes != "plc::Dims()" || atomic != "false" {
                    parts[6..8].copy_from_slice(&[", ", shapes]);
                }
                if atomic != "false" {
                    parts[8..10].copy_from_slice(&[", ", atomic]);
                }
                Ok((super::super::cpp::cat(&parts), Repr::Tensor))
            }
            Repr::Tile(_) => Ok((format!("plc::assemble({t}, {tile}, {offsets}, {atomic})"), r)),
            other => Err(self.err(Code::E0602, self.loc(out), format!("storing into {}", other.describe()))),
        }
    }

    /// A constant shape from an expression's IR type, as `plc::Dims{...}`.
    fn static_shape(&self, e: ExprId) -> Res<String> {
        let dims: Option<Vec<String>> = self.p.ty(e).shape().and_then(|s| {
            s.iter()
                .map(|d| match d {
                    Dim::Const(n) => Some(n.to_string()),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()
        });
        match dims {
            Some(d) => Ok(format!("plc::Dims{{{}}}", d.join(", "))),
            None => Err(self.err(
                Code::E0602,
                self.loc(e),
                "a slice dropping axes of a tile whose shape is not constant".to_string(),
            )),
        }
    }

    /// The other computations: the same on tiles and on tensor values (held as tiles).
    fn compute(&mut self, c: &OpCall<'_>, special: Special, elem: &'static str) -> Res<String> {
        Ok(match special {
            Special::Cast => {
                let x = self.tile_arg(self.need(c, P::X)?)?;
                let d = self.dtype_arg(c.get(P::TargetType)).unwrap_or(DType::Fp32);
                let mode = self.round_mode(c.get(P::Mode));
                format!("plc::cast<{elem}>({x}, {}, {mode})", runtime_dtype(d))
            }
            Special::Matmul
            | Special::MatmulAcc
            | Special::MatmulBias
            | Special::BatchMatmul
            | Special::BatchMatmulAcc => self.matmul(c, special, elem)?,
            Special::Lrelu => self.lib_call(c, "lrelu", &[Lib::Tile(Slot::Nth(0)), Lib::Scalar(Slot::Nth(1))])?,
            Special::Prelu => self.lib_call(c, "prelu", &[Lib::Tile(Slot::Nth(0)), Lib::Tile(Slot::Nth(1))])?,
            Special::Sel => self.lib_call(
                c,
                "sel",
                &[Lib::Tile(P::Mask.into()), Lib::Tile(P::Lhs.into()), Lib::Tile(P::Rhs.into())],
            )?,
            // `sels(mask, src, tmp, scalar)`, or the older `sels(mask, src, scalar)`.
            Special::Sels if c.op.def().level == OpLevel::Tile => {
                let m = self.tile_arg(self.need(c, P::Mask)?)?;
                let x = self.tile_arg(self.need(c, P::Src)?)?;
                let s = match c.get(P::Scalar) {
                    Some(s) => s,
                    None => self.need(c, P::Tmp)?,
                };
                let s = self.expr(s)?.0;
                format!("plc::sels({m}, {x}, {s})")
            }
            Special::Sels => self.lib_call(
                c,
                "sels_values",
                &[Lib::Tile(P::Lhs.into()), Lib::Tile(P::Rhs.into()), Lib::Scalar(P::SelectMode.into())],
            )?,
            Special::Expands => {
                self.lib_call(c, "expands", &[Lib::Tile(P::Target.into()), Lib::Scalar(P::Scalar.into())])?
            }
            Special::Concat => self.lib_call(c, "concat", &[Lib::Tile(Slot::Nth(0)), Lib::Tile(Slot::Nth(1))])?,
            Special::Sort32 => {
                let src = self.need(c, P::Src)?;
                let dtype = runtime_dtype(self.p.ty(src).dtype().unwrap_or(DType::Fp32));
                let (x, i) = (self.tile_arg(src)?, self.tile_arg(self.need(c, P::Idx)?)?);
                format!("plc::sort32({x}, {i}, {dtype})")
            }
            Special::Mrgsort => self.mrgsort(c)?,
            Special::Gather | Special::GatherMask => self.gather(c, elem)?,
            Special::GatherB => {
                let src = self.need(c, P::Src)?;
                let x = self.tile_arg(src)?;
                let off = self.tile_arg(self.need(c, P::Offset)?)?;
                let dtype = self.p.ty(src).dtype().unwrap_or(DType::Fp32);
                let out = self.dtype_arg(c.get(P::OutputDtype)).unwrap_or(dtype);
                if !crate::ir::ops::gatherb_reads_bits(dtype, out) {
                    return Err(self.err(
                        Code::E0601,
                        c.loc,
                        format!(
                            "`pl.tile.gatherb` reading {} bytes as {} (another width, or FP16/BF16 bits) has no form in the tile library",
                            dtype.name(),
                            out.name()
                        ),
                    ));
                }
                format!("plc::gatherb<{elem}>({x}, {off}, {})", dtype.bytes())
            }
            Special::MGather => {
                use crate::ir::ops::{COALESCE_MODES, GATHER_OOB_MODES};
                let mem = self.tile_arg(self.need(c, P::Mem)?)?;
                let idx = self.tile_arg(self.need(c, P::Idx)?)?;
                let coalesce = self.named_code(c.get(P::Coalesce), &COALESCE_MODES);
                let oob = self.named_code(c.get(P::GatherOob), &GATHER_OOB_MODES);
                let valid = self.dims(c.get(P::ValidShape))?;
                format!("plc::mgather({mem}, {idx}, {coalesce}, {oob}, {valid})")
            }
            Special::PagedGather => {
                let src = self.tile_arg(self.need(c, P::Src)?)?;
                let indices = self.tile_arg(self.need(c, P::Indices)?)?;
                let table = self.tile_arg(self.need(c, P::BlockTable)?)?;
                let block = self.int_arg(c.get(P::BlockSize), 1)?;
                let size = self.int_arg(c.get(P::Size), 1)?;
                let rows = self.int_arg(c.get(P::MaxIndices), 1)?;
                let col_off = self.int_arg(c.get(P::ColOff), 0)?;
                let trans = self.flag(c.get(P::IsTrans))?;
                format!("plc::paged_gather({src}, {indices}, {table}, {block}, {size}, {rows}, {col_off}, {trans})")
            }
            _ => {
                // `pl.fillpad(x, pad_value=...)`.
                let x = self.tile_arg(self.need(c, Slot::Nth(0))?)?;
                format!("plc::fillpad({x}, {})", self.pad_arg(c))
            }
        })
    }

    /// `plc::NAME(args...)`, each argument read from its slot, in order.
    fn lib_call(&mut self, c: &OpCall<'_>, name: &str, args: &[Lib]) -> Res<String> {
        let mut texts = Vec::with_capacity(args.len());
        for &a in args {
            texts.push(match a {
                Lib::Tile(slot) => self.tile_arg(self.need(c, slot)?)?,
                Lib::Scalar(slot) => self.expr(self.need(c, slot)?)?.0,
            });
        }
        Ok(format!("plc::{name}({})", texts.join(", ")))
    }

    /// `pad_value=` as the tile library's `plc::Pad`.
    fn pad_arg(&self, c: &OpCall<'_>) -> &'static str {
        match self.enum_arg(c.get(P::PadValue)) {
            Some(EnumValue::PadValue(PadValue::Min)) => "plc::Pad::Min",
            Some(EnumValue::PadValue(PadValue::Max)) => "plc::Pad::Max",
            _ => "plc::Pad::Zero",
        }
    }

    /// `tri`, `fillpad_expand`, `fillpad_inplace`, `expand_clone`, `tile.extract`.
    fn shaping(&mut self, c: &OpCall<'_>, special: Special, elem: &'static str) -> Res<String> {
        Ok(match special {
            Special::Tri => {
                let diagonal = self.typed_scalar(self.need(c, P::Diagonal)?, "int64_t")?;
                let shape = self.dims(c.get(P::Shape))?;
                let valid = self.dims(c.get(P::ValidShape))?;
                let upper = self.flag(c.get(P::Upper))?;
                format!("plc::tri<{elem}>({diagonal}, {shape}, {valid}, {upper})")
            }
            Special::FillpadExpand => {
                let x = self.tile_arg(self.need(c, Slot::Nth(0))?)?;
                let shape = self.dims(c.get(P::Shape))?;
                format!("plc::fillpad_expand({x}, {shape}, {})", self.pad_arg(c))
            }
            Special::FillpadInplace => {
                let x = self.tile_arg(self.need(c, P::Tile)?)?;
                format!("plc::fillpad_inplace({x}, {})", self.pad_arg(c))
            }
            Special::ExpandClone => {
                self.lib_call(c, "expand_clone", &[Lib::Tile(P::Src.into()), Lib::Tile(P::Target.into())])?
            }
            Special::Img2col => {
                let x = self.tile_arg(self.need(c, P::Src)?)?;
                let m = self.typed_scalar(self.need(c, P::PosM)?, "int64_t")?;
                let k = self.typed_scalar(self.need(c, P::PosK)?, "int64_t")?;
                let mut geometry = Vec::new();
                for p in [P::Shape, P::ImageShape, P::KernelSize, P::Stride, P::Padding, P::Dilation] {
                    geometry.push(self.dims(c.get(p))?);
                }
                let c0 = crate::ir::ops::img2col_c0(self.p.ty(c.e).dtype().unwrap_or(DType::Fp16));
                format!("plc::img2col({x}, {m}, {k}, {}, {c0})", geometry.join(", "))
            }
            _ => {
                let x = self.tile_arg(self.need(c, P::Src)?)?;
                let row = self.typed_scalar(self.need(c, P::IndexRow)?, "int64_t")?;
                let col = self.typed_scalar(self.need(c, P::IndexCol)?, "int64_t")?;
                let shape = self.dims(c.get(P::Shape))?;
                format!("plc::slice({x}, {shape}, plc::Dims{{{row}, {col}}})")
            }
        })
    }

    /// `mscatter` into a tensor (or a tensor value held as a tile) and `gather_row` into a
    /// tile or a tensor: written in place, the destination returned.
    fn placing(&mut self, c: &OpCall<'_>, special: Special) -> Res<(String, Repr)> {
        if special == Special::MScatter {
            let src = self.tile_arg(self.need(c, P::Src)?)?;
            let idx = self.tile_arg(self.need(c, P::Idx)?)?;
            let (t, r) = self.expr(self.need(c, P::OutputTensor)?)?;
            return match r {
                Repr::Tensor | Repr::Tile(_) => Ok((format!("plc::mscatter({src}, {idx}, {t})"), r)),
                other => Err(self.err(Code::E0602, c.loc, format!("scattering into {}", other.describe()))),
            };
        }
        let src = self.need(c, P::Src)?;
        let offsets = self.dims(c.get(P::SrcOffset))?;
        let shapes = self.dims(c.get(P::Shapes))?;
        let valid = self.dims(c.get(P::ValidShape))?;
        let transpose = self.flag(c.get(P::Transpose))?;
        let (s, sr) = self.expr(src)?;
        let window = match sr {
            Repr::Tensor => {
                let elem = self.elem_of(src)?;
                format!("plc::load<{elem}>({s}, {offsets}, {shapes}, {valid}, {transpose})")
            }
            // A tensor value the kernel computed: a window of that tile.
            Repr::Tile(_) => format!("plc::move(plc::slice({s}, {shapes}, {offsets}, {valid}), {transpose})"),
            other => return Err(self.err(Code::E0602, c.loc, format!("gathering rows of {}", other.describe()))),
        };
        let dst_offset = self.dims(c.get(P::DstOffset))?;
        let (d, dr) = self.expr(self.need(c, Slot::Nth(0))?)?;
        match dr {
            Repr::Tensor | Repr::Tile(_) => Ok((format!("plc::assemble({d}, {window}, {dst_offset})"), dr)),
            other => Err(self.err(Code::E0602, c.loc, format!("gathering rows into {}", other.describe()))),
        }
    }

    /// A mode given by name or code (`coalesce='row'`, `gather_oob=2`) as its code in `names`
    /// (lowering checked it; 0 when absent).
    fn named_code(&self, e: Option<ExprId>, names: &[&str]) -> i64 {
        match e.map(|e| &self.p.expr(e).kind) {
            Some(ExprKind::Str(s)) => names.iter().position(|n| *n == self.names.get(*s)).unwrap_or(0) as i64,
            Some(ExprKind::Int(k)) => *k,
            _ => 0,
        }
    }

    /// `matmul`, `matmul_acc`, `matmul_bias` and their `gemv` forms; `batch_matmul` and
    /// `batch_matmul_acc`.
    fn matmul(&mut self, c: &OpCall<'_>, special: Special, elem: &'static str) -> Res<String> {
        if let Special::BatchMatmul | Special::BatchMatmulAcc = special {
            let x = self.tile_arg(self.need(c, P::Lhs)?)?;
            let y = self.tile_arg(self.need(c, P::Rhs)?)?;
            if special == Special::BatchMatmul {
                return Ok(format!("plc::batch_matmul<{elem}>({x}, {y})"));
            }
            let acc = self.tile_arg(self.need(c, P::Acc)?)?;
            let init = self.flag(c.get(P::InitCond))?;
            return Ok(format!("plc::batch_matmul_acc({acc}, {x}, {y}, {init})"));
        }
        let acc = match special {
            Special::MatmulAcc => Some(self.tile_arg(self.need(c, P::Acc)?)?),
            _ => None,
        };
        let x = self.tile_arg(self.need(c, P::Lhs)?)?;
        let y = self.tile_arg(self.need(c, P::Rhs)?)?;
        let bias = match special {
            Special::MatmulBias => Some(self.tile_arg(self.need(c, P::Bias)?)?),
            _ => None,
        };
        let (at, bt) = (self.flag(c.get(P::ATrans))?, self.flag(c.get(P::BTrans))?);
        Ok(match (acc, bias) {
            (Some(acc), _) => {
                let init = self.flag(c.get(P::InitCond))?;
                format!("plc::matmul_acc({acc}, {x}, {y}, {init}, {at}, {bt})")
            }
            (None, Some(b)) => format!("plc::matmul_bias<{elem}>({x}, {y}, {b}, {at}, {bt})"),
            (None, None) => {
                let trans = if at == "false" && bt == "false" { String::new() } else { format!(", {at}, {bt}") };
                format!("plc::matmul<{elem}>({x}, {y}{trans})")
            }
        })
    }

    /// `pl.mrgsort(src0, block_len=...)`, or of 2-4 sources (`plc::merge_lists`).
    fn mrgsort(&mut self, c: &OpCall<'_>) -> Res<String> {
        let given = |p: P| c.get(p).filter(|&x| !matches!(self.p.expr(x).kind, ExprKind::None));
        if let Some(why) = c.op.def().no_cpu_form_of_call(|p| given(p).is_some(), self.p.ty(c.e)) {
            return Err(self.no_cpu_form_because(c, why));
        }
        if given(P::Src1).is_some() {
            let mut tiles = Vec::new();
            for p in [P::Src0, P::Src1, P::Src2, P::Src3, P::Tmp] {
                if let Some(x) = given(p) {
                    tiles.push(self.tile_arg(x)?);
                }
            }
            let tile = c.op.def().level == OpLevel::Tile;
            let exhausted = self.flag(c.get(P::Exhausted))?;
            let bytes = self.p.ty(c.e).dtype().unwrap_or(DType::Fp32).bytes();
            return Ok(format!("plc::merge_lists({tile}, {exhausted}, {bytes}, {})", tiles.join(", ")));
        }
        let Some(block_len) = c.get(P::BlockLen) else {
            let printed = c.op.def().spellings[0];
            return Err(self.err(
                Code::E0601,
                c.loc,
                format!("`{printed}` of one source lowers with `block_len=`; this call has none"),
            ));
        };
        let x = self.tile_arg(self.need(c, P::Src0)?)?;
        let n = self.typed_scalar(block_len, "int64_t")?;
        Ok(format!("plc::mrgsort({x}, {n})"))
    }

    /// `gather` by the mask patterns P0101/P1010, or by an index along the last axis.
    fn gather(&mut self, c: &OpCall<'_>, elem: &'static str) -> Res<String> {
        let x = self.tile_arg(self.need(c, Slot::Nth(0))?)?;
        let mask = c.get(P::MaskPattern);
        let pattern = match mask.map(|m| &self.p.expr(m).kind) {
            Some(ExprKind::Enum(EnumValue::MaskPattern(p))) => Some(*p),
            Some(ExprKind::Int(code)) => MaskPattern::from_code(*code),
            _ => None,
        };
        let tile = c.op.def().level == OpLevel::Tile;
        let index = if tile { c.get(P::Indices) } else { c.get(P::Index) };
        match (mask, pattern, index) {
            (Some(_), Some(p), _) => {
                let from = self.p.ty(self.need(c, Slot::Nth(0))?).dtype().unwrap_or(DType::Fp32);
                let to = self.p.ty(c.e).dtype().unwrap_or(from);
                let (from, to) = (runtime_dtype(from), runtime_dtype(to));
                Ok(format!("plc::gather_mask<{elem}>({x}, {from}, {to}, {}, {})", p.stride(), p.lane()))
            }
            (None, _, Some(index)) if tile => {
                let i = self.tile_arg(index)?;
                Ok(format!("plc::gather_flat({x}, {i})"))
            }
            (None, _, Some(index)) if self.is_last_axis(c.get(P::Dim), c.e) => {
                let i = self.tile_arg(index)?;
                Ok(format!("plc::gather_index({x}, {i})"))
            }
            _ => {
                let printed = c.op.def().spellings[0];
                Err(self.err(
                    Code::E0601,
                    c.loc,
                    format!(
                        "`{printed}` lowers with a mask pattern of 1 to 7 or an index along the last axis; this call has another form"
                    ),
                ))
            }
        }
    }

    /// `gather_compare` (and `tensor.gather`'s compare form): a pair of tiles, the positions
    /// of each row's matches and their counts.
    fn gather_compare(&mut self, c: &OpCall<'_>) -> Res<(String, Repr)> {
        let src = self.need(c, Slot::Nth(0))?;
        let x = self.tile_arg(src)?;
        let k = self.expr(self.need(c, P::Kvalue)?)?.0;
        let name = match c.get(P::CmpMode).map(|e| &self.p.expr(e).kind) {
            Some(ExprKind::Str(s)) => Some(self.names.get(*s).to_string()),
            _ => None,
        };
        let given = c.get(P::CmpMode).and_then(|e| match self.p.expr(e).kind {
            ExprKind::Int(k) => Some(k),
            _ => None,
        });
        // Lowering checked the mode (E0217).
        let code = crate::ir::ops::cmp_mode_code(name.as_deref(), given).unwrap_or(0);
        let offset = self.int_arg(c.get(P::Offset), 0)?;
        let out_cols = self.int_arg(c.get(P::OutCols), 1)?;
        let counted = self.dtype_arg(c.get(P::CountDtype)).unwrap_or(DType::Int32);
        let count = super::elem_ctype(counted).unwrap_or("int32_t");
        let text = format!("plc::gather_compare<{count}>({x}, {k}, {code}, {offset}, {out_cols})");
        Ok((text, Repr::Tuple(vec![Repr::Tile("int32_t"), Repr::Tile(count)])))
    }

    /// The scatters, `random` and `reinterpret_view`. The tile scatters write into their
    /// first argument and return it; the tensor forms make a new value (`_copy`).
    fn scatter_family(&mut self, c: &OpCall<'_>, special: Special, elem: &'static str) -> Res<String> {
        let tile = c.op.def().level == OpLevel::Tile;
        Ok(match special {
            Special::Scatter if tile => {
                let dst = self.tile_arg(self.need(c, P::Dst)?)?;
                let src = self.tile_arg(self.need(c, P::Src)?)?;
                let idx = self.tile_arg(self.need(c, P::Indexes)?)?;
                format!("plc::scatter_flat({dst}, {src}, {idx})")
            }
            Special::Scatter | Special::ScatterMask if !tile && c.get(P::MaskPattern).is_some() => {
                let dst = self.tile_arg(self.need(c, P::Dst)?)?;
                let src = self.tile_arg(self.need(c, P::Input)?)?;
                let (stride, lane) = self.mask_lanes(c)?;
                format!("plc::scatter_mask_copy({dst}, {src}, {stride}, {lane})")
            }
            Special::Scatter => self.lib_call(c, "scatter_columns", &INPUT_INDEX_SRC)?,
            Special::ScatterMask => {
                let dst = self.tile_arg(self.need(c, P::Dst)?)?;
                let src = self.tile_arg(self.need(c, P::Src)?)?;
                let (stride, lane) = self.mask_lanes(c)?;
                format!("plc::scatter_mask({dst}, {src}, {stride}, {lane})")
            }
            Special::ScatterUpdate => {
                self.lib_call(c, if tile { "scatter_rows" } else { "scatter_rows_copy" }, &INPUT_INDEX_SRC)?
            }
            Special::Random => {
                let mut words = Vec::new();
                for p in [P::Key0, P::Key1, P::Counter0, P::Counter1, P::Counter2, P::Counter3] {
                    words.push(self.typed_scalar(self.need(c, p)?, "int64_t")?);
                }
                let shape = self.dims(c.get(P::Shape))?;
                let valid = self.dims(c.get(P::ValidShape))?;
                let rounds = self.int_arg(c.get(P::Rounds), 10)?;
                format!("plc::random<{elem}>({}, {shape}, {valid}, {rounds})", words.join(", "))
            }
            _ => {
                let data = self.need(c, P::Data)?;
                let from = self.p.ty(data).dtype().unwrap_or(DType::Fp32);
                let to = self.p.ty(c.e).dtype().unwrap_or(DType::Fp32);
                let x = self.tile_arg(data)?;
                let shape = self.dims(c.get(P::Shape))?;
                format!("plc::reinterpret<{elem}>({x}, {}, {}, {shape})", runtime_dtype(from), runtime_dtype(to))
            }
        })
    }

    /// The column stride and lane of `mask_pattern=` (a `pl.tile.MaskPattern` member or its code).
    fn mask_lanes(&self, c: &OpCall<'_>) -> Res<(i64, i64)> {
        let pattern = match c.get(P::MaskPattern).map(|m| &self.p.expr(m).kind) {
            Some(ExprKind::Enum(EnumValue::MaskPattern(p))) => Some(*p),
            Some(ExprKind::Int(code)) => MaskPattern::from_code(*code),
            _ => None,
        };
        match pattern {
            Some(p) => Ok((p.stride(), p.lane())),
            None => Err(self.err(
                Code::E0601,
                c.loc,
                format!("`{}` lowers with a constant mask_pattern", c.op.def().spellings[0]),
            )),
        }
    }

    /// Whether `dim` names the last axis of `e`'s value (`-1`, or its rank less one).
    fn is_last_axis(&self, dim: Option<ExprId>, e: ExprId) -> bool {
        let rank = self.p.ty(e).shape().map_or(0, |s| s.len()) as i64;
        match dim.map(|d| &self.p.expr(d).kind) {
            Some(ExprKind::Int(d)) => *d == -1 || *d == rank - 1,
            _ => false,
        }
    }
}
