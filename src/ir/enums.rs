//! The enumerations of the pl language: data types, function types, levels, roles, memory
//! spaces and the other `pl.X.Y` constants, each with its source spellings.

/// An enum of the pl language with its source spellings: `Variant = "SPELLING" | "ALIAS"`,
/// or a bare `Variant` where the source spells it as the variant is named.
macro_rules! spelled_enum {
    (@spelling $variant:ident) => { stringify!($variant) };
    (@spelling $variant:ident $spelling:literal) => { $spelling };
    ($(#[$doc:meta])* $name:ident { $($variant:ident $(= $spelling:literal)? $(| $alias:literal)*,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $name {
            $($variant,)*
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The canonical spelling (what the printer writes).
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => spelled_enum!(@spelling $variant $($spelling)?),)*
                }
            }

            /// Looks a spelling up, aliases included.
            pub fn from_name(text: &str) -> Option<$name> {
                match text {
                    $(spelled_enum!(@spelling $variant $($spelling)?) $(| $alias)* => Some($name::$variant),)*
                    _ => None,
                }
            }

            /// Every canonical spelling, for "valid values are ..." messages.
            pub fn names() -> String {
                Self::ALL.iter().map(|v| v.name()).collect::<Vec<_>>().join(", ")
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

spelled_enum! {
    /// Element types (`pl.FP32`, ...).
    DType {
        Fp4 = "FP4",
        // FP4E2M1X2: two FP4 (E2M1) values packed in one byte, the carrier PyPTO's packed
        // FP4 tensors use (newer than ops.md); an extent counts carrier bytes.
        Fp4E2M1X2 = "FP4E2M1X2",
        Fp8E4M3Fn = "FP8E4M3FN",
        Fp8E5M2 = "FP8E5M2",
        Fp8E8M0 = "FP8E8M0",
        Fp16 = "FP16",
        Fp32 = "FP32",
        Bf16 = "BF16",
        Hf4 = "HF4",
        Hf8 = "HF8",
        Int4 = "INT4",
        Int8 = "INT8",
        Int16 = "INT16",
        Int32 = "INT32",
        Int64 = "INT64",
        UInt4 = "UINT4",
        UInt8 = "UINT8",
        UInt16 = "UINT16",
        UInt32 = "UINT32",
        UInt64 = "UINT64",
        Bool = "BOOL",
        Index = "INDEX",
        TaskId = "TASK_ID",
    }
}

impl DType {
    pub fn is_float(self) -> bool {
        matches!(
            self,
            DType::Fp4
                | DType::Fp4E2M1X2
                | DType::Fp8E4M3Fn
                | DType::Fp8E5M2
                | DType::Fp8E8M0
                | DType::Fp16
                | DType::Fp32
                | DType::Bf16
                | DType::Hf4
                | DType::Hf8
        )
    }

    pub fn is_int(self) -> bool {
        matches!(
            self,
            DType::Int4
                | DType::Int8
                | DType::Int16
                | DType::Int32
                | DType::Int64
                | DType::UInt4
                | DType::UInt8
                | DType::UInt16
                | DType::UInt32
                | DType::UInt64
                | DType::Index
        )
    }

    /// Size of one element in bytes (sub-byte types round up), as `pl.FP32.get_byte()`.
    pub fn bytes(self) -> i64 {
        match self {
            DType::Fp4
            | DType::Hf4
            | DType::Int4
            | DType::UInt4
            | DType::Fp8E4M3Fn
            | DType::Fp8E5M2
            | DType::Fp8E8M0
            | DType::Hf8
            | DType::Fp4E2M1X2 => 1,
            DType::Int8 | DType::UInt8 | DType::Bool => 1,
            DType::Fp16 | DType::Bf16 | DType::Int16 | DType::UInt16 => 2,
            DType::Fp32 | DType::Int32 | DType::UInt32 => 4,
            DType::Int64 | DType::UInt64 | DType::Index | DType::TaskId => 8,
        }
    }
}

spelled_enum! {
    /// `pl.FunctionType.X`.
    FuncKind {
        Opaque,
        Orchestration,
        InCore,
        Aic = "AIC",
        Aiv = "AIV",
        Group,
        Spmd,
        Inline,
        Graph,
    }
}

impl FuncKind {
    /// Orchestration and Graph functions run on the host side of a chip.
    pub fn is_orchestration_like(self) -> bool {
        matches!(self, FuncKind::Orchestration | FuncKind::Graph)
    }

    /// Functions whose body is a device kernel.
    pub fn is_device_kernel(self) -> bool {
        matches!(self, FuncKind::InCore | FuncKind::Aic | FuncKind::Aiv | FuncKind::Group | FuncKind::Spmd)
    }

    /// The level and role a function of this kind has (`None` where the kind implies none).
    pub fn derived_level_role(self) -> (Option<Level>, Option<Role>) {
        match self {
            FuncKind::Orchestration | FuncKind::Graph => (Some(Level::Chip), Some(Role::Orchestrator)),
            FuncKind::InCore => (Some(Level::ChipDie), Some(Role::SubWorker)),
            FuncKind::Aic => (Some(Level::Aic), Some(Role::SubWorker)),
            FuncKind::Aiv => (Some(Level::Aiv), Some(Role::SubWorker)),
            FuncKind::Group => (Some(Level::CoreGroup), Some(Role::SubWorker)),
            FuncKind::Opaque | FuncKind::Spmd | FuncKind::Inline => (None, None),
        }
    }
}

spelled_enum! {
    /// `pl.Level.X` (aliases share a value).
    Level {
        Aiv = "AIV",
        Aic = "AIC",
        CoreGroup = "CORE_GROUP",
        ChipDie = "CHIP_DIE" | "L2CACHE",
        Chip = "CHIP" | "PROCESSOR" | "UMA",
        Host = "HOST" | "NODE",
        Cluster0 = "CLUSTER_0" | "POD",
        Cluster1 = "CLUSTER_1" | "CLOS1",
        Cluster2 = "CLUSTER_2" | "CLOS2",
        Global = "GLOBAL",
    }
}

spelled_enum! {
    /// `pl.Role.X`. `Worker` is the name older PyPTO releases gave the non-orchestrating
    /// role, before it became `SubWorker` and a HOST one's body became Python: a program
    /// spelling it is read as those releases read it (its body is pl code, an inline
    /// `pl.at(level=HOST, role=pl.Role.Worker)` region is outlined, and the outlined
    /// function's name says `_worker`).
    Role {
        Orchestrator,
        SubWorker,
        Worker,
    }
}

spelled_enum! {
    /// `pl.MemorySpace.X` (also spelled `pl.Mem.X`).
    MemorySpace {
        Ddr = "DDR",
        Vec,
        Mat,
        Left,
        Right,
        Acc,
        Bias,
        LeftScale,
        RightScale,
    }
}

spelled_enum! {
    /// `pl.PadValue.X`.
    PadValue {
        Zero = "zero",
        Min = "min",
        Max = "max",
    }
}

impl PadValue {
    /// The padding mode a number stands for where PyPTO takes one as sugar (`pad_value=`
    /// of fillpad and slice): `0` and `0.0` are `zero`, `math.inf` `max`, `-math.inf`
    /// `min`; any other number is none (the hardware has only the three modes).
    pub fn from_number(v: f64) -> Option<PadValue> {
        if v == 0.0 {
            Some(PadValue::Zero)
        } else if v == f64::INFINITY {
            Some(PadValue::Max)
        } else if v == f64::NEG_INFINITY {
            Some(PadValue::Min)
        } else {
            None
        }
    }
}

spelled_enum! {
    /// `pl.AtomicType.X`.
    AtomicType {
        None = "None_",
        Add,
    }
}

spelled_enum! {
    /// `pl.SplitMode.X`.
    SplitMode {
        None = "NONE",
        UpDown = "UP_DOWN",
        LeftRight = "LEFT_RIGHT",
    }
}

spelled_enum! {
    /// `pl.ScopeMode.X`.
    ScopeMode {
        Auto = "AUTO",
        Manual = "MANUAL",
    }
}

spelled_enum! {
    /// Tensor layouts (`pl.ND`, `pl.NZ`, ...; `pl.TensorLayout.X`).
    Layout {
        Nd = "ND",
        Dn = "DN",
        Nz = "NZ",
        MxAZz = "MX_A_ZZ",
        MxBNn = "MX_B_NN",
    }
}

impl Layout {
    /// The layouts of MX scale tensors (`pl.MX_A_ZZ`, `pl.MX_B_NN`).
    pub fn is_mx(self) -> bool {
        matches!(self, Layout::MxAZz | Layout::MxBNn)
    }

    /// Whether reading storage laid out in `self` under `target` swaps the last two axes:
    /// ND and DN are the two orders of one row-major buffer (an [N, K] ND tensor is the
    /// [K, N] DN one), so a flip between them is a transpose of the trailing pair and a
    /// "flip" to the layout the tensor already has is the tensor itself. This is how
    /// PyPTO lowers `tensor.as_layout` and a layout-only `tensor.view` (an alias when the
    /// layouts agree, `transpose(n-2, n-1)` otherwise); NZ and the MX layouts never flip.
    pub fn flips_to(self, target: Layout) -> bool {
        matches!((self, target), (Layout::Nd, Layout::Dn) | (Layout::Dn, Layout::Nd))
    }

    /// Whether a tensor in this layout has the plain strided storage plc's CPU runtime
    /// reads: ND (row-major) or DN (its transpose). NZ keeps fractal blocks of 16 rows and
    /// the MX layouts blocked scale groups, which neither `plc run` nor the C++ model.
    pub fn has_cpu_form(self) -> bool {
        matches!(self, Layout::Nd | Layout::Dn)
    }

    /// Why a kernel's tensor parameter in this layout, handed a tensor in layout `arg`, has
    /// no CPU form, when it has none. A kernel reads a tensor parameter from the view's start
    /// with the packed strides of its declared layout (the runtime hands it only the start
    /// address): a DN parameter reads any tensor column-major in its last two axes, which
    /// `plc run` and the C++ model, but an ND parameter handed a DN view (an `as_layout` or
    /// layout view) reads the storage row-major, not the view's transposed values, and
    /// plc's CPU kernels read a view through its strides.
    pub fn param_refuses(self, arg: Layout) -> Option<&'static str> {
        (self == Layout::Nd && arg == Layout::Dn).then_some(
            "a DN tensor handed to an ND parameter: the kernel would read the storage row-major from \
             the view's start, not the transposed values; declare the parameter DN \
             (pl.TensorView(stride=..., layout=pl.TensorLayout.DN)) or pass the ND tensor",
        )
    }
}

spelled_enum! {
    /// `pl.tile.MaskPattern.X`.
    MaskPattern {
        P0101,
        P1010,
        P0001,
        P0010,
        P0100,
        P1000,
        P1111,
    }
}

impl MaskPattern {
    /// PyPTO's integer code (1-7, in the order above).
    pub fn code(self) -> i64 {
        Self::ALL.iter().position(|&p| p == self).map_or(0, |i| i as i64 + 1)
    }

    /// The pattern of a code 1-7.
    pub fn from_code(code: i64) -> Option<MaskPattern> {
        usize::try_from(code - 1).ok().and_then(|i| Self::ALL.get(i).copied())
    }

    /// The period of the pattern along a row: 2 for `P0101`/`P1010`, 4 for `P0001` to
    /// `P1000`, 1 for `P1111` (every column).
    pub fn stride(self) -> i64 {
        match self {
            MaskPattern::P0101 | MaskPattern::P1010 => 2,
            MaskPattern::P1111 => 1,
            _ => 4,
        }
    }

    /// The column within each period the pattern selects (the set bit, counted from the
    /// right of its name: `P0101` the first, `P1010` the second); 0 for `P1111`.
    pub fn lane(self) -> i64 {
        match self {
            MaskPattern::P0101 | MaskPattern::P0001 | MaskPattern::P1111 => 0,
            MaskPattern::P1010 | MaskPattern::P0010 => 1,
            MaskPattern::P0100 => 2,
            MaskPattern::P1000 => 3,
        }
    }
}

spelled_enum! {
    /// `pld.WaitCmp.X`: how `pld.system.wait` compares a signal.
    WaitCmp {
        Eq,
        Ne,
        Gt,
        Ge,
        Lt,
        Le,
    }
}

spelled_enum! {
    /// `pld.NotifyOp.X`: how `pld.system.notify` updates a signal.
    NotifyOp {
        Set,
        AtomicAdd,
    }
}

spelled_enum! {
    /// `pld.ReduceOp.X`: the reduction of a collective.
    ReduceOp {
        Sum,
        Max,
        Min,
        Prod,
    }
}

spelled_enum! {
    /// `pl.PipeType.X`: the hardware pipe a `pl.system.sync_*` or barrier names.
    PipeType {
        Mte1 = "MTE1",
        Mte2 = "MTE2",
        Mte3 = "MTE3",
        M,
        V,
        S,
        Fix = "FIX",
        All = "ALL",
    }
}

spelled_enum! {
    /// The loop kinds of `pl.range`, `pl.parallel`, `pl.unroll` and `pl.pipeline`.
    ForKind {
        Sequential = "range",
        Parallel = "parallel",
        Unroll = "unroll",
        Pipeline = "pipeline",
    }
}

spelled_enum! {
    /// Parameter directions.
    Direction {
        In,
        Out,
        InOut,
    }
}

spelled_enum! {
    /// How a task uses an argument, as DeriveCallDirections derives it at each call and the
    /// runtime's task arguments take it (`add_input`, `add_inout`, `add_output`, ...).
    ArgDir {
        Input,
        InOut,
        OutputExisting,
        NoDep,
        Scalar,
    }
}

spelled_enum! {
    /// `pl.AccPhase.X`: the unit-flag phase of a matmul accumulation (`acc_phase=`); a
    /// hint to the cube's fixpipe with no CPU meaning. `Unknown` is PTO-ISA's older name of
    /// `Unspecified`.
    AccPhase {
        Unspecified | "Unknown",
        Partial,
        Final,
    }
}

spelled_enum! {
    /// `pl.STPhase.X`: the unit-flag phase of an accumulator store (`st_phase=`); a hint.
    StPhase {
        Unspecified,
        Partial,
        Final,
    }
}

spelled_enum! {
    /// `pl.LoadL2Hint.X`: how a load allocates in the L2 cache (`l2_hint=` of `pl.load`);
    /// a hint with no CPU meaning.
    LoadL2Hint {
        NormalFirstVictim,
        NormalLastVictim,
        NormalPersistent,
        NotAllocKeep,
        NotAllocClean,
        NotAllocDrop,
    }
}

spelled_enum! {
    /// `pl.StoreL2Hint.X`: how a store allocates in the L2 cache (`l2_hint=` of `pl.store`).
    StoreL2Hint {
        NormalFirstVictim,
        NormalLastVictim,
        NormalPersistent,
        NotAllocClean,
    }
}

spelled_enum! {
    /// `pl.CachePolicy.X`: whether a read of global memory goes through the L2 cache
    /// (`cache=` of `pl.load`); a hint.
    CachePolicy {
        Default = "DEFAULT",
        Bypass = "BYPASS",
    }
}

spelled_enum! {
    /// `pl.TileLayout.X`: the block (`blayout=`) or sub-block (`slayout=`) layout of a tile
    /// (`pl.move(t, target_memory=..., blayout=pl.TileLayout.row_major)`); an arrangement
    /// of the hardware buffer, with no CPU meaning.
    TileLayout {
        NoneBox = "none_box",
        RowMajor = "row_major",
        ColMajor = "col_major",
    }
}

/// A value of one of the `pl.<Family>.<Name>` enumerations, as an expression in the IR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EnumValue {
    Level(Level),
    Role(Role),
    FuncKind(FuncKind),
    MemorySpace(MemorySpace),
    PadValue(PadValue),
    AtomicType(AtomicType),
    SplitMode(SplitMode),
    ScopeMode(ScopeMode),
    Layout(Layout),
    MaskPattern(MaskPattern),
    WaitCmp(WaitCmp),
    NotifyOp(NotifyOp),
    ReduceOp(ReduceOp),
    PipeType(PipeType),
    AccPhase(AccPhase),
    StPhase(StPhase),
    LoadL2Hint(LoadL2Hint),
    StoreL2Hint(StoreL2Hint),
    CachePolicy(CachePolicy),
    TileLayout(TileLayout),
}

impl EnumValue {
    /// Resolves `pl.<family>.<name>` (and the short family spellings PyPTO accepts).
    pub fn lookup(family: &str, name: &str) -> Option<EnumValue> {
        Some(match family {
            "Level" => EnumValue::Level(Level::from_name(name)?),
            "Role" => EnumValue::Role(Role::from_name(name)?),
            "FunctionType" => EnumValue::FuncKind(FuncKind::from_name(name)?),
            "MemorySpace" | "Mem" => EnumValue::MemorySpace(MemorySpace::from_name(name)?),
            "PadValue" => EnumValue::PadValue(PadValue::from_name(name)?),
            "AtomicType" => EnumValue::AtomicType(AtomicType::from_name(name)?),
            "SplitMode" => EnumValue::SplitMode(SplitMode::from_name(name)?),
            "ScopeMode" => EnumValue::ScopeMode(ScopeMode::from_name(name)?),
            "TensorLayout" => EnumValue::Layout(Layout::from_name(name)?),
            "MaskPattern" => EnumValue::MaskPattern(MaskPattern::from_name(name)?),
            "WaitCmp" => EnumValue::WaitCmp(WaitCmp::from_name(name)?),
            "NotifyOp" => EnumValue::NotifyOp(NotifyOp::from_name(name)?),
            "ReduceOp" => EnumValue::ReduceOp(ReduceOp::from_name(name)?),
            "PipeType" => EnumValue::PipeType(PipeType::from_name(name)?),
            "AccPhase" => EnumValue::AccPhase(AccPhase::from_name(name)?),
            "STPhase" => EnumValue::StPhase(StPhase::from_name(name)?),
            "LoadL2Hint" => EnumValue::LoadL2Hint(LoadL2Hint::from_name(name)?),
            "StoreL2Hint" => EnumValue::StoreL2Hint(StoreL2Hint::from_name(name)?),
            "CachePolicy" => EnumValue::CachePolicy(CachePolicy::from_name(name)?),
            "TileLayout" => EnumValue::TileLayout(TileLayout::from_name(name)?),
            _ => return None,
        })
    }

    /// The family names `lookup` knows, with the valid member names of one family.
    pub fn family_members(family: &str) -> Option<String> {
        Some(match family {
            "Level" => Level::names(),
            "Role" => Role::names(),
            "FunctionType" => FuncKind::names(),
            "MemorySpace" | "Mem" => MemorySpace::names(),
            "PadValue" => PadValue::names(),
            "AtomicType" => AtomicType::names(),
            "SplitMode" => SplitMode::names(),
            "ScopeMode" => ScopeMode::names(),
            "TensorLayout" => Layout::names(),
            "MaskPattern" => MaskPattern::names(),
            "WaitCmp" => WaitCmp::names(),
            "NotifyOp" => NotifyOp::names(),
            "ReduceOp" => ReduceOp::names(),
            "PipeType" => PipeType::names(),
            "AccPhase" => AccPhase::names(),
            "STPhase" => StPhase::names(),
            "LoadL2Hint" => LoadL2Hint::names(),
            "StoreL2Hint" => StoreL2Hint::names(),
            "CachePolicy" => CachePolicy::names(),
            "TileLayout" => TileLayout::names(),
            _ => return None,
        })
    }

    /// The source spelling: `pl.Level.CORE_GROUP`, `pl.tile.MaskPattern.P0101`.
    pub fn spelling(self) -> String {
        match self {
            EnumValue::Level(v) => format!("pl.Level.{v}"),
            EnumValue::Role(v) => format!("pl.Role.{v}"),
            EnumValue::FuncKind(v) => format!("pl.FunctionType.{v}"),
            EnumValue::MemorySpace(v) => format!("pl.MemorySpace.{v}"),
            EnumValue::PadValue(v) => format!("pl.PadValue.{v}"),
            EnumValue::AtomicType(v) => format!("pl.AtomicType.{v}"),
            EnumValue::SplitMode(v) => format!("pl.SplitMode.{v}"),
            EnumValue::ScopeMode(v) => format!("pl.ScopeMode.{v}"),
            EnumValue::Layout(v) => format!("pl.{v}"),
            EnumValue::MaskPattern(v) => format!("pl.tile.MaskPattern.{v}"),
            EnumValue::WaitCmp(v) => format!("pld.WaitCmp.{v}"),
            EnumValue::NotifyOp(v) => format!("pld.NotifyOp.{v}"),
            EnumValue::ReduceOp(v) => format!("pld.ReduceOp.{v}"),
            EnumValue::PipeType(v) => format!("pl.PipeType.{v}"),
            EnumValue::AccPhase(v) => format!("pl.AccPhase.{v}"),
            EnumValue::StPhase(v) => format!("pl.STPhase.{v}"),
            EnumValue::LoadL2Hint(v) => format!("pl.LoadL2Hint.{v}"),
            EnumValue::StoreL2Hint(v) => format!("pl.StoreL2Hint.{v}"),
            EnumValue::CachePolicy(v) => format!("pl.CachePolicy.{v}"),
            EnumValue::TileLayout(v) => format!("pl.TileLayout.{v}"),
        }
    }
}
