// pto_runtime.cpp: the implementation of plc's CPU reference runtime (see
// pto_orchestration_api.h for the API and docs/runtime.md for the semantics).
//
// Tasks are queued with the accesses their tensor arguments declare and run at
// synchronisation points (each submit in IN_ORDER mode; host reads, host writes and
// rt_orchestration_done in REVERSE mode), a task only once every task it depends on has
// run. Graph functions are recorded on their first launch (every task they submit, with
// where each tensor and scalar argument came from) and replayed afterwards without calling
// the function again.

#include "pto_orchestration_api.h"

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

// ------------------------------------------------------------------ tasks

struct Task {
    uint64_t id = 0;
    MixedKernels kernels;
    bool dummy = false;
    int32_t block_num = 1;
    std::vector<ChipTensor> tensors;
    std::vector<TensorArgType> types;
    std::vector<uint64_t> scalars;
    std::vector<uint64_t> deps;  // ids of tasks that must have run first
    bool has_predicate = false;
    ChipTensor predicate_tensor;
    CoreTaskPredicate predicate;
};

/// A byte range a task reads or writes.
struct Access {
    uint64_t lo = 0;
    uint64_t hi = 0;  // exclusive
    bool write = false;
};

struct Pending {
    Task task;
    std::vector<Access> accesses;
};

// ------------------------------------------------------------------ graph records

enum class Source : uint8_t { BOUNDARY, INTERNAL, FIXED };

/// A tensor argument of a recorded task: a view of a boundary tensor (re-based on replay),
/// of a tensor the graph allocated (allocated afresh on replay), or a fixed tensor.
struct NodeTensor {
    Source source = Source::FIXED;
    int32_t index = 0;
    int64_t delta = 0;  // element offset from the boundary tensor's origin
    ChipTensor desc;
    TensorArgType type = TensorArgType::INPUT;
};

/// A scalar argument of a recorded task: a boundary slot (re-read on replay) or a value.
struct NodeScalar {
    int16_t slot = -1;
    uint64_t value = 0;
};

struct Node {
    MixedKernels kernels;
    bool dummy = false;
    bool manual = false;
    int32_t block_num = 1;
    std::vector<NodeTensor> tensors;
    std::vector<NodeScalar> scalars;
    std::vector<int32_t> deps;  // earlier nodes of the same recording
    bool has_predicate = false;
    NodeTensor predicate_tensor;
    CoreTaskPredicate predicate;
};

struct AllocRecord {
    TensorCreateInfo info;
};

struct BoundaryTensor {
    uint32_t ndims;
    uint32_t shapes[MAX_TENSOR_DIMS];
    uint32_t strides[MAX_TENSOR_DIMS];
    DataType dtype;
    TensorArgType type;
    int32_t alias;  // the first boundary tensor with the same buffer

    bool operator==(const BoundaryTensor& o) const {
        if (ndims != o.ndims || dtype != o.dtype || type != o.type || alias != o.alias) return false;
        for (uint32_t k = 0; k < ndims; ++k) {
            if (shapes[k] != o.shapes[k] || strides[k] != o.strides[k]) return false;
        }
        return true;
    }
};

struct Signature {
    std::vector<BoundaryTensor> tensors;
    int32_t scalar_count = 0;

    bool operator==(const Signature& o) const { return tensors == o.tensors && scalar_count == o.scalar_count; }
};

struct Definition {
    uintptr_t key = 0;
    Signature signature;
    std::vector<AllocRecord> allocs;
    std::vector<Node> nodes;
};

struct Recording {
    uintptr_t key = 0;
    const GraphTaskArgs* args = nullptr;
    Definition def;
    bool unsupported = false;
    std::vector<uint64_t> alloc_addrs;  // per alloc record
    std::vector<std::pair<uint64_t, int32_t>> node_of_task;
};

constexpr size_t kMaxDefinitions = 16;
constexpr size_t kMaxNodes = 1024;
constexpr int32_t kMaxBoundaryTensors = 128;

// ------------------------------------------------------------------ state

struct Runtime {
    PlcSchedule schedule = PlcSchedule::IN_ORDER;
    uint64_t next_id = 0;
    std::vector<Pending> pending;
    std::set<uint64_t> pending_ids;
    std::vector<std::pair<PTO2ScopeMode, uint64_t>> scopes;  // mode, first task id inside
    std::vector<void*> allocations;
    uint64_t recordings = 0;
    uint64_t replays = 0;
    uint64_t tasks_run = 0;
    std::vector<std::string> errors;
    std::vector<Definition> graphs;
    Recording* recording = nullptr;
    /// Every write a task declared, with its id, in submission order (`rt_task_id_of`).
    std::vector<std::pair<Access, uint64_t>> writes;

    Runtime() {
        const char* s = std::getenv("PLC_RT_SCHEDULE");
        if (s != nullptr && std::string(s) == "reverse") schedule = PlcSchedule::REVERSE;
    }
};

Runtime& rt() {
    static Runtime r;
    return r;
}

thread_local int32_t t_block_idx = 0;
thread_local int32_t t_block_num = 1;
thread_local int32_t t_subblock_idx = 0;

void fail(const std::string& msg) {
    std::fprintf(stderr, "plc runtime error: %s\n", msg.c_str());
    rt().errors.push_back(msg);
}

// ------------------------------------------------------------------ memory

ChipTensor allocate(const TensorCreateInfo& ci) {
    ChipTensor t;
    t.ndims = ci.ndims_;
    t.dtype = ci.dtype_;
    t.manual_dep = ci.manual_dep_;
    // Checked: the element count must fit the uint32_t strides, and the byte count must
    // not wrap (plc refuses constant shapes beyond the limits at compile time, E0229).
    uint64_t stride = 1;
    for (uint32_t k = ci.ndims_; k-- > 0;) {
        t.shapes[k] = ci.shapes_[k];
        t.strides[k] = static_cast<uint32_t>(stride);
        stride *= ci.shapes_[k];
        if (stride > UINT32_MAX) {
            fail("a tensor of more than 2**32 - 1 elements: beyond the target's limit");
            t.ndims = 0;
            return t;
        }
    }
    uint64_t n = t.numel();
    uint64_t bytes = n * get_element_size(ci.dtype_);
    void* p = std::calloc(bytes == 0 ? 1 : bytes, 1);
    if (p == nullptr) {
        fail("out of memory allocating a tensor of " + std::to_string(bytes) + " bytes");
        return t;
    }
    rt().allocations.push_back(p);
    t.buffer.addr = reinterpret_cast<uint64_t>(p);
    t.buffer.size = bytes;
    if (ci.has_initial_) {
        uint32_t es = get_element_size(ci.dtype_);
        for (uint64_t i = 0; i < n; ++i) {
            void* e = static_cast<char*>(p) + i * es;
            if (ci.initial_is_float_) {
                plc_rt::store_as<double>(ci.dtype_, e, ci.initial_float_);
            } else {
                plc_rt::store_as<int64_t>(ci.dtype_, e, ci.initial_int_);
            }
        }
    }
    return t;
}

// ------------------------------------------------------------------ dependencies

/// The bytes a view can touch (its bounding range).
Access extent(const ChipTensor& t, bool write) {
    Access a;
    a.write = write;
    uint64_t es = get_element_size(t.dtype);
    uint64_t last = t.start_offset;
    for (uint32_t k = 0; k < t.ndims; ++k) {
        if (t.shapes[k] == 0) return a;  // empty
        last += static_cast<uint64_t>(t.shapes[k] - 1) * t.strides[k];
    }
    a.lo = t.buffer.addr + t.start_offset * es;
    a.hi = t.buffer.addr + (last + 1) * es;
    return a;
}

std::vector<Access> accesses_of(const Task& t) {
    std::vector<Access> out;
    for (size_t i = 0; i < t.tensors.size(); ++i) {
        switch (t.types[i]) {
            case TensorArgType::INPUT:
                out.push_back(extent(t.tensors[i], false));
                break;
            case TensorArgType::OUTPUT:
            case TensorArgType::OUTPUT_EXISTING:
            case TensorArgType::INOUT:
                out.push_back(extent(t.tensors[i], true));
                break;
            case TensorArgType::NO_DEP:
                break;  // the user said no dependency goes through it
        }
    }
    if (t.has_predicate) out.push_back(extent(t.predicate_tensor, false));
    return out;
}

bool conflict(const std::vector<Access>& a, const std::vector<Access>& b) {
    for (const Access& x : a) {
        for (const Access& y : b) {
            if ((x.write || y.write) && x.lo < y.hi && y.lo < x.hi) return true;
        }
    }
    return false;
}

/// Whether the innermost scope turns automatic tracking off, and the first task id of the
/// outermost manual scope (tasks before it are still tracked).
bool in_manual_scope(uint64_t* since) {
    for (const auto& s : rt().scopes) {
        if (s.first == PTO2ScopeMode::MANUAL) {
            *since = s.second;
            return true;
        }
    }
    return false;
}

// ------------------------------------------------------------------ running

void call_kernel(int32_t id, int64_t* argv) {
    if (id < 0 || id >= plc_kernel_count || plc_kernel_table[id] == nullptr) {
        fail("no kernel with func_id " + std::to_string(id) + " (the kernel table has " +
             std::to_string(plc_kernel_count) + ")");
        return;
    }
    plc_kernel_table[id](argv);
}

bool predicate_holds(const Task& t) {
    const CorePredicateOperand& o = t.predicate.operand;
    double v = plc_rt::load_as<double>(t.predicate_tensor.dtype,
                                       plc_rt_element_address(t.predicate_tensor, o.ndims, o.indices));
    double target = static_cast<double>(t.predicate.target);
    switch (t.predicate.op) {
        case PredicateOp::NONE:
            return true;
        case PredicateOp::EQ:
            return v == target;
        case PredicateOp::NE:
            return v != target;
        case PredicateOp::GT:
            return v > target;
        case PredicateOp::LT:
            return v < target;
        case PredicateOp::GE:
            return v >= target;
        case PredicateOp::LE:
            return v <= target;
    }
    return true;
}

void run_task(Task& t) {
    if (t.dummy) return;
    if (t.has_predicate && !predicate_holds(t)) return;
    std::vector<int64_t> argv(t.tensors.size() + t.scalars.size() + 1, 0);
    for (size_t i = 0; i < t.tensors.size(); ++i) {
        argv[i] = static_cast<int64_t>(reinterpret_cast<intptr_t>(&t.tensors[i]));
    }
    for (size_t k = 0; k < t.scalars.size(); ++k) {
        argv[t.tensors.size() + k] = static_cast<int64_t>(t.scalars[k]);
    }
    bool reverse = rt().schedule == PlcSchedule::REVERSE;
    int32_t n = t.block_num < 1 ? 1 : t.block_num;
    for (int32_t b = 0; b < n; ++b) {
        t_block_idx = reverse ? n - 1 - b : b;
        t_block_num = n;
        if (t.kernels.aic_kernel_id != INVALID_KERNEL_ID) {
            t_subblock_idx = 0;
            call_kernel(t.kernels.aic_kernel_id, argv.data());
        }
        if (t.kernels.aiv0_kernel_id != INVALID_KERNEL_ID) {
            t_subblock_idx = 0;
            call_kernel(t.kernels.aiv0_kernel_id, argv.data());
        }
        if (t.kernels.aiv1_kernel_id != INVALID_KERNEL_ID) {
            t_subblock_idx = 1;
            call_kernel(t.kernels.aiv1_kernel_id, argv.data());
        }
    }
    t_block_idx = 0;
    t_block_num = 1;
    t_subblock_idx = 0;
    rt().tasks_run++;
}

/// Runs every queued task, each once its predecessors have run.
void flush() {
    Runtime& r = rt();
    while (!r.pending.empty()) {
        size_t pick = r.pending.size();
        size_t count = r.pending.size();
        for (size_t k = 0; k < count; ++k) {
            size_t i = r.schedule == PlcSchedule::REVERSE ? count - 1 - k : k;
            bool ready = true;
            for (uint64_t d : r.pending[i].task.deps) {
                if (r.pending_ids.count(d) != 0) {
                    ready = false;
                    break;
                }
            }
            if (ready) {
                pick = i;
                break;
            }
        }
        if (pick == r.pending.size()) {
            fail("tasks wait for each other in a cycle; dropping " + std::to_string(count) + " queued tasks");
            r.pending.clear();
            r.pending_ids.clear();
            return;
        }
        Task t = std::move(r.pending[pick].task);
        r.pending.erase(r.pending.begin() + static_cast<std::ptrdiff_t>(pick));
        run_task(t);
        r.pending_ids.erase(t.id);
    }
}

/// Queues a task behind the tasks it depends on (explicit deps, and the earlier tasks whose
/// declared accesses overlap its own with a write on either side) and, in IN_ORDER mode,
/// runs it.
void enqueue(Task t, bool manual, uint64_t manual_since) {
    Runtime& r = rt();
    std::vector<Access> acc = accesses_of(t);
    std::vector<uint64_t> deps;
    for (uint64_t d : t.deps) {
        if (r.pending_ids.count(d) != 0) deps.push_back(d);
    }
    for (const Pending& p : r.pending) {
        if (manual && p.task.id >= manual_since) continue;
        if (conflict(acc, p.accesses)) deps.push_back(p.task.id);
    }
    t.deps = std::move(deps);
    for (const Access& a : acc) {
        if (a.write) r.writes.emplace_back(a, t.id);
    }
    r.pending_ids.insert(t.id);
    r.pending.push_back(Pending{std::move(t), std::move(acc)});
    if (r.schedule == PlcSchedule::IN_ORDER) flush();
}

// ------------------------------------------------------------------ recording

int32_t internal_index(const Recording& rec, uint64_t addr) {
    for (size_t i = 0; i < rec.alloc_addrs.size(); ++i) {
        if (rec.alloc_addrs[i] == addr) return static_cast<int32_t>(i);
    }
    return -1;
}

bool same_view(const ChipTensor& a, const ChipTensor& b) {
    if (a.buffer.addr != b.buffer.addr || a.start_offset != b.start_offset || a.ndims != b.ndims || a.dtype != b.dtype) {
        return false;
    }
    for (uint32_t k = 0; k < a.ndims; ++k) {
        if (a.shapes[k] != b.shapes[k] || a.strides[k] != b.strides[k]) return false;
    }
    return true;
}

/// The boundary tensor a tensor of the recording stands for, by value, as simpler's
/// `graph_tensor_from_boundary` finds it: a boundary tensor equal to it (buffer, offset,
/// shape, strides, dtype) first, else the first boundary tensor over the same buffer that
/// starts at or before it (the tensor is a view of it); -1 when neither. So a view made in
/// the body that equals a boundary tensor at the first launch is that boundary tensor on
/// every replay, whatever it was made from (the E0518 warning of plc is about this).
int32_t boundary_of(const GraphTaskArgs& args, const ChipTensor& t) {
    for (int32_t i = 0; i < args.tensor_count_; ++i) {
        const ChipTensor* b = args.tensors_[i].tensor;
        if (b != nullptr && b->buffer.size == t.buffer.size && same_view(*b, t)) return i;
    }
    for (int32_t i = 0; i < args.tensor_count_; ++i) {
        const ChipTensor* b = args.tensors_[i].tensor;
        if (b != nullptr && b->buffer.addr == t.buffer.addr && b->buffer.size == t.buffer.size &&
            t.start_offset >= b->start_offset) {
            return i;
        }
    }
    return -1;
}

NodeTensor classify(const Recording& rec, const ChipTensor& t, TensorArgType type) {
    NodeTensor nt;
    nt.desc = t;
    nt.type = type;
    const GraphTaskArgs& args = *rec.args;
    int32_t found = boundary_of(args, t);
    if (found >= 0) {
        nt.source = Source::BOUNDARY;
        nt.index = found;
        nt.delta = static_cast<int64_t>(t.start_offset) - static_cast<int64_t>(args.tensors_[found].tensor->start_offset);
        return nt;
    }
    int32_t internal = internal_index(rec, t.buffer.addr);
    if (internal >= 0) {
        nt.source = Source::INTERNAL;
        nt.index = internal;
    }
    return nt;
}

void record_alloc(Recording& rec, const TensorCreateInfo& ci, const ChipTensor& t) {
    rec.def.allocs.push_back(AllocRecord{ci});
    rec.alloc_addrs.push_back(t.buffer.addr);
}

void record_node(Recording& rec, const Task& t, const std::vector<int16_t>& origins, bool manual) {
    if (rec.def.nodes.size() >= kMaxNodes) {
        if (!rec.unsupported) {
            fail("a Graph recording has more than " + std::to_string(kMaxNodes) + " tasks");
        }
        rec.unsupported = true;
        return;
    }
    Node n;
    n.kernels = t.kernels;
    n.dummy = t.dummy;
    n.manual = manual;
    n.block_num = t.block_num;
    for (size_t i = 0; i < t.tensors.size(); ++i) {
        n.tensors.push_back(classify(rec, t.tensors[i], t.types[i]));
    }
    for (size_t k = 0; k < t.scalars.size(); ++k) n.scalars.push_back(NodeScalar{origins[k], t.scalars[k]});
    for (uint64_t d : t.deps) {
        for (const auto& nt : rec.node_of_task) {
            if (nt.first == d) n.deps.push_back(nt.second);
        }
    }
    n.has_predicate = t.has_predicate;
    if (t.has_predicate) {
        n.predicate_tensor = classify(rec, t.predicate_tensor, TensorArgType::INPUT);
        n.predicate = t.predicate;
    }
    rec.node_of_task.emplace_back(t.id, static_cast<int32_t>(rec.def.nodes.size()));
    rec.def.nodes.push_back(std::move(n));
}

Signature signature_of(const GraphTaskArgs& args) {
    Signature s;
    s.scalar_count = args.scalar_count_;
    for (int32_t i = 0; i < args.tensor_count_; ++i) {
        const ChipTensor& t = *args.tensors_[i].tensor;
        BoundaryTensor b{};
        b.ndims = t.ndims;
        for (uint32_t k = 0; k < MAX_TENSOR_DIMS; ++k) {
            b.shapes[k] = k < t.ndims ? t.shapes[k] : 0;
            b.strides[k] = k < t.ndims ? t.strides[k] : 0;
        }
        b.dtype = t.dtype;
        b.type = args.tensors_[i].type;
        b.alias = i;
        for (int32_t j = 0; j < i; ++j) {
            if (args.tensors_[j].tensor->buffer.addr == t.buffer.addr) {
                b.alias = j;
                break;
            }
        }
        s.tensors.push_back(b);
    }
    return s;
}

ChipTensor rebase(const NodeTensor& nt, const GraphTaskArgs& args, const std::vector<ChipTensor>& allocs) {
    ChipTensor t = nt.desc;
    switch (nt.source) {
        case Source::BOUNDARY: {
            const ChipTensor& b = args.tensor(nt.index).ref();
            t.buffer = b.buffer;
            t.start_offset = static_cast<uint64_t>(static_cast<int64_t>(b.start_offset) + nt.delta);
            break;
        }
        case Source::INTERNAL:
            t.buffer = allocs[static_cast<size_t>(nt.index)].buffer;
            break;
        case Source::FIXED:
            break;
    }
    return t;
}

/// Submits the recorded tasks again over the new boundary: tensors re-based, boundary
/// scalars re-read from their slots, the graph's own allocations made afresh.
PTO2TaskId replay(const Definition& def, const GraphTaskArgs& args) {
    Runtime& r = rt();
    std::vector<ChipTensor> allocs;
    for (const AllocRecord& a : def.allocs) allocs.push_back(allocate(a.info));
    uint64_t start = r.next_id;
    std::vector<uint64_t> ids(def.nodes.size(), 0);
    PTO2TaskId last;
    for (size_t k = 0; k < def.nodes.size(); ++k) {
        const Node& n = def.nodes[k];
        Task t;
        t.id = r.next_id++;
        t.kernels = n.kernels;
        t.dummy = n.dummy;
        t.block_num = n.block_num;
        for (const NodeTensor& nt : n.tensors) {
            t.tensors.push_back(rebase(nt, args, allocs));
            t.types.push_back(nt.type);
        }
        for (const NodeScalar& s : n.scalars) t.scalars.push_back(s.slot >= 0 ? args.scalars_[s.slot] : s.value);
        for (int32_t d : n.deps) t.deps.push_back(ids[static_cast<size_t>(d)]);
        t.has_predicate = n.has_predicate;
        if (n.has_predicate) {
            t.predicate_tensor = rebase(n.predicate_tensor, args, allocs);
            t.predicate = n.predicate;
        }
        ids[k] = t.id;
        last = PTO2TaskId{t.id};
        uint64_t since = 0;
        bool manual = in_manual_scope(&since);
        if (n.manual) {
            manual = true;
            since = start;
        }
        enqueue(std::move(t), manual, since);
    }
    return last;
}

// ------------------------------------------------------------------ submitting

TaskOutputTensors submit(const MixedKernels& kernels, const CoreTaskArgs& args, bool dummy) {
    Runtime& r = rt();
    if (args.has_error) {
        fail(std::string("malformed task arguments: ") + (args.error_msg ? args.error_msg : "?"));
        return TaskOutputTensors();
    }
    Task t;
    t.id = r.next_id++;
    t.kernels = kernels;
    t.dummy = dummy;
    t.block_num = args.launch_spec.block_num();
    std::vector<ChipTensor> outs;
    for (int32_t i = 0; i < args.tensor_count_; ++i) {
        const PlcTensorArg& a = args.tensors_[i];
        if (a.create != nullptr) {
            ChipTensor c = allocate(*a.create);
            if (r.recording != nullptr) record_alloc(*r.recording, *a.create, c);
            outs.push_back(c);
            t.tensors.push_back(c);
        } else {
            t.tensors.push_back(*a.tensor);
        }
        t.types.push_back(a.type);
    }
    std::vector<int16_t> origins;
    for (int32_t k = 0; k < args.scalar_count_; ++k) {
        t.scalars.push_back(args.scalars_[k]);
        origins.push_back(args.scalar_origin_[k]);
    }
    for (uint32_t k = 0; k < args.dep_count_; ++k) {
        if (args.deps_[k].is_valid()) t.deps.push_back(args.deps_[k].raw);
    }
    if (args.has_predicate_) {
        if (args.predicate_.operand.tensor == nullptr) {
            fail("a task predicate without an operand tensor");
        } else {
            t.has_predicate = true;
            t.predicate = args.predicate_;
            t.predicate_tensor = *args.predicate_.operand.tensor;
        }
    }
    // A view reaching past its buffer would make the kernel read or write memory that is
    // not the tensor's: refuse the task.
    for (size_t i = 0; i < t.tensors.size(); ++i) {
        const ChipTensor& v = t.tensors[i];
        Access a = extent(v, false);
        if (a.hi > a.lo && v.buffer.size > 0 && (a.lo < v.buffer.addr || a.hi > v.buffer.addr + v.buffer.size)) {
            fail("tensor argument " + std::to_string(i) + " of task " + std::to_string(t.id) +
                 " is a view reaching past its buffer (elements " + std::to_string(v.start_offset) + ".. of a " +
                 std::to_string(v.buffer.size / get_element_size(v.dtype)) + "-element buffer); the task is not run");
            return TaskOutputTensors();
        }
    }
    uint64_t since = 0;
    bool manual = in_manual_scope(&since);
    if (r.recording != nullptr) record_node(*r.recording, t, origins, manual);
    PTO2TaskId id{t.id};
    enqueue(std::move(t), manual, since);
    return TaskOutputTensors(id, std::move(outs));
}

}  // namespace

// ------------------------------------------------------------------ the API

void plc_rt_assert_failed(const char* cond, const char* file, int line) {
    std::fprintf(stderr, "plc runtime: assertion failed: %s (%s:%d)\n", cond, file, line);
    std::abort();
}

int16_t plc_rt_scalar_origin(const void* addr) {
    Recording* rec = rt().recording;
    if (rec == nullptr) return -1;
    uintptr_t a = reinterpret_cast<uintptr_t>(addr);
    uintptr_t lo = reinterpret_cast<uintptr_t>(&rec->args->scalars_[0]);
    uintptr_t hi = reinterpret_cast<uintptr_t>(&rec->args->scalars_[0] + rec->args->scalar_count_);
    if (a < lo || a >= hi || (a - lo) % sizeof(uint64_t) != 0) return -1;
    return static_cast<int16_t>((a - lo) / sizeof(uint64_t));
}

TaskOutputTensors alloc_tensors(const TensorCreateInfo infos[], uint32_t n) {
    Runtime& r = rt();
    std::vector<ChipTensor> outs;
    for (uint32_t i = 0; i < n; ++i) {
        ChipTensor t = allocate(infos[i]);
        if (r.recording != nullptr) record_alloc(*r.recording, infos[i], t);
        outs.push_back(t);
    }
    return TaskOutputTensors(PTO2TaskId{r.next_id++}, std::move(outs));
}

TaskOutputTensors alloc_tensors(const CoreTaskArgs& args) {
    std::vector<TensorCreateInfo> infos;
    for (int32_t i = 0; i < args.tensor_count_; ++i) {
        if (args.tensors_[i].create != nullptr) infos.push_back(*args.tensors_[i].create);
    }
    return alloc_tensors(infos.data(), static_cast<uint32_t>(infos.size()));
}

TaskOutputTensors rt_submit_task(const MixedKernels& kernels, const CoreTaskArgs& args) {
    return submit(kernels, args, false);
}

TaskOutputTensors rt_submit_aic_task(int32_t func_id, const CoreTaskArgs& args) {
    MixedKernels k;
    k.aic_kernel_id = func_id;
    return submit(k, args, false);
}

TaskOutputTensors rt_submit_aiv_task(int32_t func_id, const CoreTaskArgs& args) {
    MixedKernels k;
    k.aiv0_kernel_id = func_id;
    return submit(k, args, false);
}

TaskOutputTensors rt_submit_dummy_task(const CoreTaskArgs& args) {
    return submit(MixedKernels(), args, true);
}

PTO2TaskId rt_task_id_of(const ChipTensor& t) {
    const Access range = extent(t, false);
    const auto& writes = rt().writes;
    for (auto it = writes.rbegin(); it != writes.rend(); ++it) {
        if (it->first.lo < range.hi && range.lo < it->first.hi) return PTO2TaskId{it->second};
    }
    return PTO2TaskId::invalid();
}

GraphSubmitResult rt_submit_graph(void (*fn)(const GraphTaskArgs&), const GraphTaskArgs& args) {
    Runtime& r = rt();
    uintptr_t key = reinterpret_cast<uintptr_t>(fn);
    GraphSubmitResult result;
    if (r.recording != nullptr) {
        // The real runtime poisons the outer recording; so does this one, and says so.
        if (!r.recording->unsupported) {
            fail("nested Graph recording is not supported: a Graph function was launched while another was being recorded");
        }
        r.recording->unsupported = true;
        fn(args);
        return result;
    }
    if (args.has_error) {
        fail(std::string("malformed Graph arguments: ") + (args.error_msg ? args.error_msg : "?"));
        return result;
    }
    bool cacheable = args.tensor_count_ > 0 && args.tensor_count_ <= kMaxBoundaryTensors;
    for (int32_t i = 0; i < args.tensor_count_; ++i) {
        if (args.tensors_[i].create != nullptr) cacheable = false;
    }
    if (!cacheable) {
        fn(args);
        return result;
    }
    Signature sig = signature_of(args);
    for (const Definition& d : r.graphs) {
        if (d.key != key) continue;
        if (!(d.signature == sig)) {
            std::fprintf(stderr, "plc runtime warning: a Graph launched with another boundary signature runs unrecorded\n");
            fn(args);
            return result;
        }
        r.replays++;
        result.task_id = replay(d, args);
        result.replayed = true;
        return result;
    }
    if (r.graphs.size() >= kMaxDefinitions) {
        std::fprintf(stderr, "plc runtime warning: more than %zu Graph recordings; this one runs unrecorded\n",
                     kMaxDefinitions);
        fn(args);
        return result;
    }
    Recording rec;
    rec.key = key;
    rec.args = &args;
    rec.def.key = key;
    rec.def.signature = sig;
    uint64_t first = r.next_id;
    r.recording = &rec;
    fn(args);
    r.recording = nullptr;
    if (rec.unsupported) return result;
    if (rec.def.nodes.empty()) {
        fail("a Graph function launched no task");
        return result;
    }
    r.recordings++;
    r.graphs.push_back(std::move(rec.def));
    result.task_id = PTO2TaskId{r.next_id > first ? r.next_id - 1 : first};
    return result;
}

int32_t rt_available_cluster_count() { return 24; }
int32_t rt_available_aiv_count() { return 48; }

void rt_orchestration_done() {
    Runtime& r = rt();
    flush();
    for (void* p : r.allocations) std::free(p);
    r.allocations.clear();
    if (!r.errors.empty()) {
        std::fprintf(stderr, "plc runtime: %zu error(s)\n", r.errors.size());
    }
}

PTO2ScopeGuard::PTO2ScopeGuard(PTO2ScopeMode mode) { rt().scopes.emplace_back(mode, rt().next_id); }

PTO2ScopeGuard::~PTO2ScopeGuard() {
    if (!rt().scopes.empty()) rt().scopes.pop_back();
}

void plc_rt_sync() { flush(); }

int32_t plc_rt_block_idx() { return t_block_idx; }
int32_t plc_rt_block_num() { return t_block_num; }
int32_t plc_rt_subblock_idx() { return t_subblock_idx; }

uint64_t plc_rt_graph_recordings() { return rt().recordings; }
uint64_t plc_rt_graph_replays() { return rt().replays; }
uint64_t plc_rt_tasks_run() { return rt().tasks_run; }

bool plc_rt_failed() { return !rt().errors.empty(); }

void plc_rt_set_schedule(PlcSchedule s) {
    flush();
    rt().schedule = s;
}
