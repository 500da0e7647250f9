//! The registry of diagnostic codes. Codes are stable: tests and documentation refer to the
//! code, so messages may be reworded freely. `plc explain CODE` prints the entry.
//!
//! Ranges: E00xx lexical, E01xx syntax, E02xx names and types, E03xx parser-level scope
//! checks, E04xx pass errors, E05xx graph boundary, E06xx emitter, E07xx internal errors (bugs
//! in plc), E08xx running a program (`plc run`); W0xxx are warnings about programs plc accepts but
//! PyPTO does not; N0xxx are notes.

macro_rules! codes {
    ($($code:ident => $title:literal, $explanation:literal;)*) => {
        /// A stable diagnostic code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $($code,)*
        }

        impl Code {
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$code => stringify!($code),)*
                }
            }

            pub fn info(self) -> &'static CodeInfo {
                &CODES[self as usize]
            }

            /// Looks a code up by its spelling (`"E0103"`, case-insensitive).
            pub fn parse(text: &str) -> Option<Code> {
                let upper = text.trim().to_ascii_uppercase();
                CODES.iter().find(|info| info.code.as_str() == upper).map(|info| info.code)
            }
        }

        /// Every code with its one-line title and its explanation (with an example).
        pub static CODES: &[CodeInfo] = &[
            $(CodeInfo { code: Code::$code, title: $title, explanation: $explanation },)*
        ];
    };
}

impl Code {
    /// A code about the command line rather than the program (exit status 2).
    pub fn is_usage(self) -> bool {
        matches!(self, Code::E0810 | Code::E0811)
    }
}

/// What `plc explain` prints for a code.
pub struct CodeInfo {
    pub code: Code,
    pub title: &'static str,
    pub explanation: &'static str,
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

codes! {
    E0001 => "invalid character in source",
"A character that cannot start any token of the language appeared outside a string or
comment, for example `$`, `?` or a NUL byte.

    x = a $ b      # error: `$` is not an operator

Remove the character, or put it inside a string or a comment.";

    E0002 => "unterminated string literal",
"A string literal was opened but not closed. A single- or double-quoted string must close on
the same line (a backslash before the line break continues it); a triple-quoted string may
span lines but must be closed before the end of the file.

    name = \"layer     # error: the string never closes

Add the closing quote.";

    E0003 => "the file is not valid UTF-8",
"plc reads source files as UTF-8, as Python does. The diagnostic points at the byte offset of
the first byte that is not part of a valid UTF-8 sequence; nothing after it is read.

Re-save the file as UTF-8.";

    E0004 => "NUL byte in source",
"The file contains a NUL byte (0x00) outside a string. Source files must be text.";

    E0005 => "inconsistent use of tabs and spaces in indentation",
"The indentation of a line compares differently with the enclosing block depending on how wide
a tab is taken to be, so its meaning is ambiguous. plc follows Python: a line's indentation is
measured with tabs as 1 and as 8 columns, and both measures must agree.

    if c:
    \tx = 1       # indented with a tab
            y = 2     # indented with 8 spaces: the same block or not?

Indent with spaces only.";

    E0006 => "unindent does not match any outer indentation level",
"A line was dedented to a column that no enclosing block uses.

    for i in pl.range(4):
            x = 1
        y = 2      # error: column 5 was never opened

Indent the line to the column of the block it belongs to.";

    E0007 => "unclosed bracket",
"A `(`, `[` or `{` is never closed before the end of the file. The diagnostic points at the
opening bracket.

    y = pl.add(x,
               x          # error: `(` never closed

Add the matching closing bracket.";

    E0008 => "unmatched closing bracket",
"A `)`, `]` or `}` appeared with no opening bracket to close.

    y = x)       # error

Remove the bracket or add the opening one.";

    E0009 => "mismatched closing bracket",
"A closing bracket does not match the most recent open bracket.

    y = pl.load(x, [0, 0)     # error: `)` closes `[`

Close the inner bracket first.";

    E0010 => "unexpected character after line continuation",
"A backslash outside a string continues the logical line only when it is the last character
on the line.

    x = 1 + \\ 2    # error

Put the line break right after the backslash, or drop the backslash.";

    E0014 => "file too large",
"Spans are 32-bit byte offsets, so plc reads files smaller than 4 GiB.";

    E0101 => "unexpected token",
"The parser found a token where the grammar does not allow it. The message says what was
expected instead.

    def f(x pl.Tensor):     # error: expected ',' or ')' (a ':' is missing)";

    E0102 => "unexpected end of file",
"The file ended in the middle of a statement or expression.";

    E0103 => "unexpected indentation",
"A line is indented more than the statement before it, but that statement does not open a
block.

    x = 1
        y = 2      # error

Dedent the line to the column of its block.";

    E0104 => "expected an indented block",
"A statement that ends in `:` (`def`, `class`, `if`, `for`, `while`, `with`, ...) must be
followed by an indented block.

    for i in pl.range(4):
    x = 1          # error: the loop body must be indented";

    E0105 => "invalid assignment target",
"Only names, tuples of names, attribute and subscript expressions can be assigned to.

    f(x) = 1       # error";

    E0110 => "Python construct not supported in pl",
"The construct is valid Python but is not part of the pl language, whose functions are
compiled, not run by Python. The message names the construct and says what to write
instead. Examples: `x += 1` (write `x = x + 1`), `lambda`, `a if c else b`, chained
comparisons `a < b < c`, `try`, `raise`, `assert`, `del`, `global`, `*args` at a call site,
comprehensions other than a list comprehension, `is`/`in` comparisons, unary `+`, `@`.";

    E0120 => "nesting too deep",
"An expression nested more than 200 levels deep, or blocks nested more than 100 levels deep.
Python itself refuses such nesting; plc does too, so that no stage of the compiler can run
out of stack. A flat chain of operators is one level however long (`a + b + c + ...`, as
CPython reads it), but an expression more than 10 000 operations long is refused too.
Host code, which plc does not parse, is refused when its brackets nest more than 200 deep,
as Python refuses it.

    X = -(-(-(-(...(1)...))))   # 201 nested minus signs: error

Split the expression into several statements with intermediate names.";

    E0201 => "undefined name",
"A name is used in a pl function but is defined nowhere before: not a parameter, not
assigned earlier in the function, not a module constant, not a pl function.

    @pl.jit
    def f(x: pl.Tensor):
        return pl.add(x, y)      # error: `y` is not defined";

    E0202 => "wrong number of arguments",
"A call passes more arguments than the function or operation takes, or leaves a required
one out. The message lists what is missing.

    y = pl.load(x, [0, 0])       # error: pl.load needs the shapes too";

    E0203 => "unknown keyword argument",
"A call names a parameter the function or operation does not have.

    t = pl.load(x, [0, 0], [64, 64], memory=pl.MemorySpace.Vec)   # error: it is `target_memory=`";

    E0204 => "argument given twice",
"An argument is given both by position and by keyword, or twice by keyword.";

    E0205 => "unknown operation",
"`pl.X(...)` names no operation of the pl language.

    y = pl.nonexistent_op(x)     # error";

    E0206 => "unknown dtype or enumeration member",
"A dtype (`pl.FP32`, ...) or a member of an enumeration (`pl.Level.CORE_GROUP`,
`pl.MemorySpace.Vec`, ...) is misspelled. The message lists the valid names.";

    E0207 => "invalid type annotation",
"A parameter or return annotation is not a pl type. pl types are
`pl.Tensor[[dims], dtype]` (or bare `pl.Tensor`, whose shape is read at run time),
`pl.Tile[[dims], dtype]`, `pl.Scalar[dtype]`, a bare dtype such as `pl.INDEX`,
`pl.Array[n, dtype]`, and `pl.Out[...]`/`pl.InOut[...]` around a parameter type. A
return annotation may be `tuple[...]` of those; `-> None` is not accepted.";

    E0208 => "invalid parameter",
"A parameter lacks its type annotation, or is a scalar marked `pl.InOut` (a scalar is
passed by value; return its new value instead), or a HOST SubWorker method declares `self`
(its body is plain Python, run as a self-contained function).";

    E0209 => "condition is not a boolean",
"The condition of an `if` or `while` must be a scalar of type BOOL, such as a
comparison.

    if n:            # error: write `if n > 0:`";

    E0210 => "type mismatch",
"A name is reassigned with a value of another type, an annotation does not match the
value, or a tuple is unpacked into the wrong number of names. Use a new name for a value
of another type.";

    E0211 => "not callable",
"The call calls something that is not a pl function or operation: a variable, an
outside library, or a Python builtin on run-time values.";

    E0212 => "invalid decorator",
"A `@pl.` decorator is unknown, or takes an argument it does not accept. For example
`@pl.jit.graph` accepts neither `level=` nor `auto_scope=`, `type=` must be
`pl.FunctionType.<kind>`, and `auto_scope=` must be `True` or `False`. An external
kernel's `external_source=` is valid on AIC and AIV functions only and must name an
existing file (absolute, or relative to the file defining the program).
`@pl.jit.extern(core_type=\"mixed\")` needs both `aic_source=` and `aiv_source=`, and its
`include_dirs=` must name existing directories.

    @pl.jit.extern(core_type=\"mixed\", aic_source=\"k_aic.cpp\")   # error: no aiv_source=";

    E0213 => "level or role conflicts with the function type",
"The function type implies a level and a role (Orchestration and Graph: CHIP and
Orchestrator; InCore: CHIP_DIE and SubWorker; ...); an explicit `level=` or `role=` that
differs is an error.

    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.HOST)   # error";

    E0214 => "defined twice",
"Two pl functions of a program have the same name (in one file or across imported
files), or two `buf = pld.alloc_window_buffer(...)` of one program bind the same name (the
name is the window buffer's). A mixed `@pl.jit.extern` named `k` defines `k_aic` and
`k_aiv` too.";

    E0215 => "module or imported name not found",
"A relative import (`from .config import HIDDEN`) names a module that does not exist next
to the importing file (`config.pl` or `config.py`, or a package directory), or a name the
module does not define as a constant or a pl function.";

    E0216 => "import cycle",
"Modules import each other in a cycle. The note lists the chain of imports.";

    E0217 => "wrong kind of operand",
"An operation gets a value of the wrong kind: a tensor where a tile is required, a list
where a scalar is, or a Python operator on tensors or tiles (which take `pl.add`,
`pl.mul`, ... instead).

    y = x + x        # error when x is a tensor: write pl.add(x, x)";

    E0218 => "not a compile-time constant",
"A value that must be known at compile time is not: a shape extent, the bounds of
`pl.unroll`, a module constant computed by a function call. Also integer arithmetic on
constants that would fail when it runs: an overflow of 64 bits (`2 ** 200`), a division
by constant zero (`n // 0`), a negative shift count (`n << -1`).";

    E0219 => "invalid loop",
"A `for` loop must iterate over `pl.range`, `pl.parallel`, `pl.unroll`, `pl.pipeline`,
`pl.while_` or `pl.spmd`; with `init_values=` its target is `i, (a, b)` with one name per
initial value; `pl.pipeline` needs `stage=`; `pl.while_` needs `init_values=` and a first
statement `pl.cond(c)`.

    for i in range(10):          # error: write pl.range(10)";

    E0220 => "break or continue outside a loop",
"`break` and `continue` belong in a sequential loop (`pl.range`, `while`), not outside
one nor in a `pl.parallel` or `pl.unroll` loop.";

    E0221 => "misplaced or malformed yield",
"`names = pl.yield_(values)` is the last statement of a loop body with `init_values=`, or
of each branch of an `if` whose result is used after it; the names receive the values
after the loop or the `if`.";

    E0222 => "host-code name used in pl code",
"A pl function uses a name defined by host code (Python that runs around the program, such
as `CONFIG = load()` or a plain `def`) or by an outside library. Host code runs in Python
at run time; plc cannot compile what it computes.";

    E0223 => "construct not supported in pl functions",
"The construct is valid Python and even valid pl surface, but not in this position or not
supported by plc yet: an import inside a function, an expression statement without
effect, a standalone attribute, a dict literal outside `attrs=`, an f-string outside
`pl.static_print`, `pl.submit`. It is also the error of an operation PyPTO has that plc
refuses by name, with the reason (`pl.tensor.alloc`, the printed form of PyPTO's memory
allocation): docs/language.md lists them.";

    E0224 => "invalid program class",
"An `@pl.program` class must contain `@pl.function` methods. A method's first parameter is
skipped when it is named `self`; a method without `self` takes its parameters as they are,
as PyPTO reads it.";

    E0225 => "wrong number of returned values",
"A `return` returns a different number of values than the return annotation declares.";

    E0226 => "misplaced pl.func_attr, or a key it sets twice",
"`pl.func_attr({...})` sets attributes of the function it is in (`split`, `slot_num`, ...), so
it must come first in the body, before every other statement (a docstring may precede it),
and sets each key once (within one dict and across the directives of a function).

    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        pl.func_attr({\"slot_num\": 2})      # first: fine
        y = pl.add(x, x)
        pl.func_attr({\"split\": 1})         # error E0226
        return y";

    E0227 => "duplicate parameter",
"Two parameters of one function have the same name. Python refuses such a definition
(\"duplicate argument 'x' in function definition\"); so does plc. The second parameter is
reported.

    @pl.jit
    def f(x: pl.Tensor[[64], pl.FP32], x: pl.Tensor[[64], pl.FP32]):   # error E0227
        ...

Rename one of them.";

    E0228 => "the name of the pl module bound again",
"The name a module gives `pypto.language` (`pl` in `import pypto.language as pl`), or
`pypto.language.distributed`, is bound to something else in the same file: a constant
(`pl = 3`), a function or class named `pl`, another import `as pl`, host code that assigns
it, or a parameter or variable of a pl function. Every `@pl.` decorator and `pl.` call
depends on that name, so plc refuses to let it change meaning (in Python, decorators
after the rebinding would fail).

    import pypto.language as pl
    ...
    pl = 3        # error E0228

Choose another name for the constant, function or variable.";

    E0229 => "a shape, offset or index out of range",
"A constant extent, offset or index is negative or larger than the target takes, a shape
has more dimensions than the runtime's tensors (5), or a tensor or tile would hold more
elements than the target allows (2**32 - 1 for a tensor, 2**24 for a tile). Such a program
overflowed the C++ (`uint32_t` extents, `rows * cols` in the tile library) or was refused
by the runtime only when it ran. The limits are in docs/language.md.

    t = pl.load(x, [0, 0], [2**32, 2**32])   # error E0229
    v = pl.slice(x, [4, 4], [-1, 0])         # error E0229

Use extents, offsets and indices from 0 to 2**31 - 1, and tiles a core can hold.";

    E0230 => "a statement a program factory cannot evaluate",
"A program factory (a top-level `def` that defines `@pl.program` classes or `@pl.`
functions and returns one) is evaluated by plc at compile time, for the call `main()`
makes or the one `--factory` gives. Its body may hold docstrings, assignments of constant
expressions (integer, float, bool and string arithmetic, tuples, lists), `if` statements
on constants, `assert`s, the `@pl.` definitions, and a `return` of one of them. Anything
else (a loop, a call of a Python function, an undecorated nested `def`) runs only in
Python, and the factory cannot be compiled. The error names the statement.

    def Build(batch=4):
        for i in range(batch):       # error E0230: a `for` loop
            ...
        @pl.program
        class P: ...
        return P

Compute the values with constant expressions, or move the Python code out of the factory.";

    E0231 => "a program factory call that does not fit the factory",
"The call of a program factory that plc evaluates (`--factory 'Build(batch=2)'`, or the
call found in `main()`) names a parameter the factory does not have, gives one twice,
gives too many arguments, leaves a parameter without a default unset, or is not a call of
a factory of the file at all.

    def Build(batch, heads=16): ...
    plc compile prog.py --factory 'Build(heads=8)'   # error E0231: `batch` has no value

Give every parameter without a default a constant value.";

    E0232 => "an assertion of a program factory fails",
"A program factory's `assert` is false for the arguments it is evaluated with: the
factory refuses this configuration.

    def Build(head_dim=64):
        assert head_dim % 16 == 0, \"head_dim must be a multiple of 16\"
    plc check prog.py --factory 'Build(head_dim=40)'   # error E0232

Choose arguments the factory accepts.";

    E0233 => "a name assigned twice under strict_ssa",
"With `strict_ssa=True` on `@pl.program` or `@pl.function`, each name is assigned once
per scope (a loop or branch body is a scope of its own; the function's parameters and
its top-level statements share one), as in PyPTO.

    @pl.function(strict_ssa=True)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y = pl.add(x, x)
        y = pl.mul(y, y)    # error E0233: Variable 'y' is already defined

A subscript-write `dst[...] = src` re-binds `dst`, so it is refused too: write
`dst = pl.assemble(dst, src, offsets)` with a new name. Use a new name for each value
(`y2 = pl.mul(y, y)`), or drop `strict_ssa=True`.";

    E0301 => "pl.graph() needs exactly one region name",
"`with pl.graph(...)` takes exactly one positional argument, the region name.

    with pl.graph():             # error
    with pl.graph(\"layer\"):      # ok";

    E0302 => "the graph region name must be a string literal",
"The region name becomes the recorded graph's symbol, so it must be written in the
source: a constant holding a string, an f-string or a number is refused.

    NAME = \"layer\"
    with pl.graph(NAME):         # error: write pl.graph(\"layer\")";

    E0303 => "the graph region name is empty",
"`with pl.graph(\"\"):` names no region. The name becomes the recorded graph's symbol.";

    E0304 => "the graph region name is not an identifier",
"The region name must be a valid, non-keyword identifier, because it becomes a C++ and a
Python symbol.

    with pl.graph(\"has space\"):  # error
    with pl.graph(\"class\"):      # error";

    E0305 => "graph region nested in a graph region",
"A graph region cannot be nested inside another: the runtime cannot record a graph inside
a graph. Both regions are labelled; mark either the outer one or the inner one.";

    E0306 => "graph region inside a device scope",
"A graph region records a topology of task launches, so it sits around dispatches, not
inside one: it cannot be nested inside `pl.at(...)`, `pl.cluster()` or `pl.spmd(...)`.
The message says which; move the `with pl.graph(...):` outside.";

    E0307 => "graph region in a device kernel",
"A graph region belongs in an orchestration function (`@pl.jit`, Opaque, Orchestration,
Graph or Inline), not in a device kernel (InCore, AIC, AIV, Group, Spmd). To make a whole
function a graph, decorate it with `@pl.jit.graph`.";

    E0308 => "graph region with `as` or an unexpected keyword",
"`with pl.graph(\"name\") as x:` binds nothing (only `pl.at` and `pl.spmd` take `as`), and
`pl.graph` takes no keyword argument besides `dumps=[...]`.";

    E0309 => "pl.at() without a level",
"`pl.at` needs a level: `with pl.at(level=pl.Level.CORE_GROUP):`.";

    E0310 => "unknown keyword argument of a scope",
"A scope (`pl.at`, `pl.cluster`, `pl.spmd`, `pl.scope`, `pl.manual_scope`,
`pl.auto_scope`) was given a keyword it does not take, or a flag that is not `True`/`False`. The message lists the
keywords it takes.";

    E0311 => "invalid name_hint",
"`name_hint=` must be a string literal that is a valid, non-keyword identifier: it becomes
the outlined function's name.";

    E0312 => "`as` on a scope that binds nothing",
"Only `with pl.at(...) as tid:` and `with pl.spmd(...) as tid:` bind a name (a task id),
and the name must be a plain variable name.";

    E0313 => "not a pl scope",
"A `with` statement in a pl function must use a pl scope: `pl.at`, `pl.graph`,
`pl.cluster`, `pl.spmd`, `pl.scope`, `pl.manual_scope` or `pl.auto_scope`.";

    E0314 => "invalid pl.at() arguments",
"`role=` does not go with `level=pl.Level.CORE_GROUP`; `optimizations=` and `predicate=`
only go with it; an inline `pl.at(level>=HOST, role=pl.Role.SubWorker)` is not
supported.";

    E0315 => "misplaced runtime scope",
"A manual scope may not be nested inside another manual scope, nor an automatic scope
inside a manual one (`pl.auto_scope()` included); a hand-placed `with pl.scope():` requires
`@pl.function(auto_scope=False)` (the explicit `with pl.auto_scope():` does not). A task id first bound inside a runtime scope
(`pl.scope()`, `pl.manual_scope()`, including `with pl.spmd(...) as tid:` there) ends
with it: a `deps=` after the scope has closed may not name it (bind the name before the
scope, or keep the use inside).";

    E0316 => "control leaves a region early",
"A `return`, or a `break`/`continue` of a loop outside the region, inside `with pl.graph`,
`pl.at`, `pl.cluster` or `pl.spmd`. Each such region becomes a function of its own, so
control cannot jump out of it. Assign the value inside the region and return it after
the `with` block; put the loop inside the region or the jump outside it.";

    E0317 => "a predicated core-group region nested inside another",
"A `with pl.at(level=pl.Level.CORE_GROUP, predicate=(...)):` region inside another
core-group region (an outer `pl.at(level=CORE_GROUP)`, the body of a `for ... in
pl.spmd(n)` loop, or a host `pl.split_aiv` loop). A nested region is outlined from the
InCore function the outer one becomes and called from it, in device code: no task launch
is left to carry the predicate, which would be silently dropped.

    with pl.at(level=pl.Level.CORE_GROUP):
        y = pl.add(x, x)
        with pl.at(level=pl.Level.CORE_GROUP, predicate=(flags[0] > 0)):   # error
            z = pl.mul(y, y)

Write the predicated region at orchestration level (outside every core-group region), or
drop `predicate=` and test the condition with an `if` inside the region.";

    E0318 => "per-task dispatch metadata inside pl.cluster() or a Group/Spmd function",
"A `pl.cluster()` region is outlined into one Group function, dispatched as a single task:
the launches inside it become plain calls of that function, so per-task dispatch metadata
on them would be silently dropped. Inside a cluster, `pl.submit(...)` may not carry
`deps=`, `allow_early_resolve=True` or `predicate=`; `pl.spmd_submit(...)` (its
`core_num=`/`sync_start=`) is not allowed; a nested `with pl.spmd(...)` may not carry
`deps=`, `allow_early_resolve=` or `predicate=`, nor bind a task id with `as tid`.
Likewise a `pl.at(level=pl.Level.CORE_GROUP, ...)` or `pl.spmd(...)` region written in a
Group or Spmd function runs inside that function's task and may not take `predicate=`.

    with pl.cluster():
        a, a_tid = pl.submit(self.k1, x)
        b, _ = pl.submit(self.k2, x, deps=[a_tid])   # error: deps=

Put the dependencies on the launch of the cluster's own task, or move the launch out of
the cluster.";

    E0319 => "a `with pl.spmd(...)` body that is not per-block work",
"The body of `with pl.spmd(n):` runs once per block. It must either read its block index
(`pl.tile.get_block_idx()`, anywhere in the body) or dispatch exactly one kernel, which
reads the index itself. A body that does neither would run identical work in every block;
a body that dispatches several kernels is refused too (PyPTO supports one dispatch per SPMD
scope).

    with pl.spmd(4):                      # error: no block index, no kernel
        t = pl.load(a, [0, 0], [128, 128])
        out = pl.store(t, [0, 0], out)

Offset the work by the block index (`i = pl.tile.get_block_idx()`), use the loop form
`for i in pl.spmd(4):`, or dispatch one kernel: `out = self.kernel(a, out)`.";

    E0401 => "a graph region nested inside another graph region",
"A `pl.graph` region was found inside another one after inlining (for example an inline
function holding a region, called inside a region). A graph records a topology of task
launches once and replays it; a recording cannot start inside another recording. Move the
inner region out, or drop one of the two.";

    E0402 => "a graph region left in a function that is not outlined",
"OutlineGraphScopes outlines `pl.graph` regions from Opaque, Orchestration and Graph
functions. A region in any other function type cannot be outlined, and is reported rather
than left behind.";

    E0403 => "a pass pipeline in the wrong order",
"Each pass declares the properties it requires (for example OutlineGraphScopes requires
SSAForm and InlineFunctionsEliminated). A pipeline in which a pass runs before the pass
that produces what it requires is rejected before anything runs. `plc passes` prints each
pass with what it requires and produces. Example: `--passes OutlineGraphScopes` without
`ConvertToSSA` and `InlineFunctions` before it.";

    E0404 => "an unknown pass name",
"`--passes` and `--after` take pass names as `plc passes` prints them (`InlineFunctions`,
`ConvertToSSA`, `OutlineGraphScopes`, ...), or `lower` for `--after`.";

    E0406 => "inline functions call each other in a cycle",
"An Inline function is spliced into its callers; functions that call each other in a cycle
would be spliced forever. The message names the cycle. Make one of them a real function
(drop `Inline`) or break the cycle.";

    E0407 => "an Inline function returns before its end",
"InlineFunctions splices an Inline function's body into each caller and replaces the call
by the values of its last statement, a `return`. A `return` anywhere else (inside an `if`,
a loop or a scope, or before the last statement) cannot be spliced. Compute the value in a
variable and return it once, at the end:

    if x > 3:
        return x          # error: an early return in an Inline function
    y = x + 1
    return y

becomes `y = x + 1` / `if x > 3: y = x` ... `return y`.";

    E0408 => "an Inline function called in a `while` condition",
"A call of an Inline function is replaced by the statements of its body, placed before the
statement that holds the call. A `while` condition is evaluated again before each
iteration, so the body cannot be placed before it once. Compute the condition in a
variable before the loop and again at the end of its body, or make the function a real
function (drop `Inline`).";

    E0409 => "the value of an Inline function that returns nothing",
"The call of an Inline function is used as a value (`z = self.f(x)`, or as an argument),
but the function has no `return` with a value. Return the value, or call the function as a
statement. A module-level `@pl.inline` function must return a value however it is called:
PyPTO's parser refuses a call of one without a `return` value, as a statement too.";

    E0410 => "a scalar computed on the device is read after its region",
"A device region (`pl.at(level=pl.Level.CORE_GROUP)`, `pl.cluster()`, `pl.spmd(n)`) becomes a
kernel, and a kernel cannot return a scalar. A scalar the region computes and the code after
the region reads must therefore be computable by the caller: plc moves its computation in
front of the call when it uses only literals, scalar arithmetic and values the caller has.
A scalar computed from device data (`pl.tensor.read`, the block index, a loop inside the
region) cannot move.

    with pl.at(level=pl.Level.CORE_GROUP):
        n = pl.tensor.read(counts, [0])   # read on the device
    y = n * 2                             # error: `n` is read after the region

Write the value into a [1] tensor output and read it back after the region with
`pl.tensor.read(t, [0])`, or compute it before the region.";

    E0411 => "no_dep_args names a tensor the region does not use",
"`pl.at(..., no_dep_args=[t])` marks arguments of the kernel the region becomes as taking
no part in dependency tracking. Each tensor listed must be one the region reads or writes;
otherwise it is not an argument of the kernel and the entry means nothing.

    with pl.at(level=pl.Level.CORE_GROUP, no_dep_args=[other]):   # error: `other` unused
        pl.store(pl.load(a, [0], [64]), [0], out)";

    E0412 => "a region left in a function the pass does not outline",
"OutlineIncoreScopes outlines `pl.at(level=pl.Level.CORE_GROUP)` regions from Opaque,
Orchestration and Graph functions; OutlineClusterScopes outlines `pl.cluster()` and
`pl.spmd(n)` regions from those and from Group functions. A region of that kind left in a
function of another type would not be outlined, so the pass reports it instead of skipping
it. Run InlineFunctions first (an Inline body is spliced into its caller), or move the
region into an orchestration function.";

    E0413 => "a `pl.no_dep` argument unordered with the task that writes it",
"A warning. `pl.no_dep(x)` keeps an argument out of the runtime's dependency tracking. When an
earlier task in the same scope writes `x`'s buffer and the launch declares no `deps=`,
nothing orders the two tasks: the real runtime (simpler) runs ready tasks at the same time on
several cores, so the launch may read `x` before it is written, or while it is. plc's CPU
runtime and `plc run` run tasks in program order and hide the race.

    scaled, first = pl.submit(self.scale, x, scaled)
    both = self.shift(pl.no_dep(scaled), both)              # warning: nothing orders the two
    both, _ = pl.submit(self.shift, pl.no_dep(scaled), both, deps=[first])   # ordered

Add the writing task's id to `deps=`, or pass the argument without `pl.no_dep` so that the
runtime tracks it.";

    E0414 => "an Out tensor the entry may not write whole",
"A warning. The real runtime, simpler, neither copies a pure `Out` tensor parameter in nor
zeroes it: an element the entry does not write holds whatever the memory held, and the
result changes from run to run (plc's CPU runtime fills it with a poison value). plc follows
each entry (a function no other function calls) through its constant loops, its calls and
its stores, assembles, copies and element writes, and warns when the writes it is sure of do
not cover the tensor: it names a window that is left out, and the first reason the other
writes may not happen (a condition, a `while` loop, a loop whose trip count or a write whose
offset is known only at run time). It says nothing where it cannot follow the program (a
shape known only at run time, a write through a reshaped view, too large a program).

    def main(self, x: pl.Tensor[[256, 64], pl.FP32], n: pl.Scalar[pl.INDEX],
             out: pl.Out[pl.Tensor[[256, 64], pl.FP32]]):
        for b in pl.range(n):                  # warning: `out[32:256, 0:64]` may stay unwritten
            with pl.at(level=pl.Level.CORE_GROUP):
                pl.store(pl.load(x, [b * 32, 0], [32, 64]), [b * 32, 0], out)

Write every element, or declare the parameter `pl.InOut` so that its initial contents are
defined. `plc run` finds the same on one input (E0804).";

    E0415 => "`pl.no_dep` on an argument the callee writes",
"`pl.no_dep(x)` keeps a read-only input out of the runtime's dependency tracking. An
argument bound to a `pl.Out` or `pl.InOut` parameter is written by the task: leaving it
untracked hides the task as the buffer's producer from every later reader. PyPTO (at the
commit plc follows) applies the override and says nothing; plc compiles it the same way and
warns, since on the real runtime a later reader may then run before the write.

    b = self.kernel(a, pl.no_dep(b))   # warning when kernel's b is pl.InOut[...]
    b = self.kernel(pl.no_dep(a), b)   # fine: a is only read";

    E0416 => "`arg_directions` that contradict the callee's parameters",
"A call may carry its task argument directions, `attrs={\"arg_directions\": [...]}` (as
plc and PyPTO print them after DeriveCallDirections); plc keeps them as written. Each entry
must fit its argument and the parameter it is bound to: a scalar argument is `Scalar`; a
tensor bound to a `pl.In` parameter (the default) is `Input`; one bound to a `pl.Out` or
`pl.InOut` parameter is `OutputExisting` or `InOut`; `NoDep` fits any tensor.

    # kernel(self, x: pl.Tensor[[64], pl.FP32], out: pl.Out[pl.Tensor[[64], pl.FP32]])
    r = self.kernel(x, dst, attrs={\"arg_directions\": [\"Input\", \"Input\"]})   # error: out is written

Write the direction the parameter allows, or drop `arg_directions` and let plc derive them.";

    E0420 => "a variable read where it may have no value",
"ConvertToSSA gives every assignment a variable of its own and must know, at each read,
which assignment reaches it. A name first assigned inside a loop and read after the loop
has no value when the loop runs zero times (unless a parameter or value of the same type
can stand in, as PyPTO does); a name assigned in only one branch of an `if` has no value
when the other branch runs (unless that branch ends in `continue`, `break` or `return`, so
never reaches the read); a loop variable has no value after its loop.

    for i in pl.range(n):
        out = pl.add(a, 1.0)
    return out        # error: `out` has no value when the loop runs zero times

Assign the name before the loop or the `if` (or in every branch).";

    E0501 => "a graph's scalar parameter declared Out or InOut",
"A Graph function's call is recorded once and replayed; a replay patches the boundary scalars
from the call site's arguments, by value. A scalar parameter can therefore only be an input.

    @pl.jit.graph
    def layer(a: pl.Tensor[[64], pl.FP32], n: pl.InOut[pl.Scalar[pl.INDEX]]):   # error

Declare it without `pl.Out`/`pl.InOut`; to hand a value back, write it into a tensor.";

    E0502 => "a graph's tensor parameter declared Out",
"`pl.Out` asks the runtime to allocate the tensor for the call, which a replayed graph cannot
do. Allocate the tensor at the call site (`pl.create_tensor`) and pass it in as `pl.InOut`.";

    E0503 => "a graph without tensor parameters",
"A Graph function records task launches over its boundary tensors; with none there is
nothing to patch on replay, so every replay would redo the first call's work on the same
memory. Pass the tensors the graph works on as parameters.";

    E0504 => "a graph boundary over the runtime's limits",
"The runtime patches at most 128 tensor and 64 scalar parameters per graph. Scalars derived
from the parameters (Step A of LegalizeGraphBoundary) count too. Split the region into
several graphs.";

    E0505 => "pl.full inside a graph",
"Orchestration code has no lowering for `pl.full` inside a recorded graph. Create the tensor
at the call site (with `pl.full` there, or `pl.create_tensor` and a fill kernel) and pass it
in as `pl.InOut`.";

    E0506 => "a graph allocates a tensor of run-time shape",
"A replayed graph keeps the shapes of its first call. `pl.create_tensor` in a graph needs a
shape made of constants; otherwise allocate the tensor at the call site and pass it in.";

    E0507 => "a graph launches a task with a run-time core count",
"A replayed graph keeps the launch sizes of its first call: `core_num` of a launch inside a
graph must be a compile-time constant.";

    E0508 => "a graph calls a graph",
"Nested graphs are not supported: a Graph function may not call another Graph function.
Call both from the orchestration function, or inline the inner graph's work.";

    E0509 => "a graph returns a value it computed",
"A replay patches only the boundary, so what a graph returns must be one of its own
parameters (a tensor the graph wrote through a kernel still counts: plc follows the kernel's
returned parameter). Write the result into a `pl.InOut` parameter and return that parameter.

    @pl.jit.graph
    def layer(a: pl.Tensor[[64], pl.FP32]) -> pl.Scalar[pl.INDEX]:
        m = pl.tensor.dim(a, 0)
        return m                  # error: computed in the graph";

    E0510 => "a graph launches tasks in a loop of run-time length",
"A replay repeats the first call's tasks, so a loop that launches tasks inside a graph needs
a trip count known at compile time. Give the loop constant bounds, or move it to the call
site. (A loop that launches nothing may have any bounds.)";

    E0511 => "a graph launches tasks in a while loop",
"A replay repeats the first call's tasks, so a `while` loop inside a graph may not launch
tasks. Use a `pl.range` loop with constant bounds, or move the loop to the call site.";

    E0512 => "a graph launches tasks under a condition",
"A replay repeats the branch the first call took. Hoist the branch to the call site and
give each arm its own Graph function.";

    E0513 => "a graph launching no tasks, or too many",
"A recorded graph holds between 1 and 1024 tasks (loops count once per iteration). A graph
that launches nothing is not a graph; one over the limit must be split.";

    E0514 => "a scalar computed inline in a task argument of a graph",
"A task argument inside a graph that is computed in place (`self.k(a, i * 128)`) cannot be
patched on replay. Bind it to a name first (`off = i * 128`): LegalizeGraphBoundary then
computes it at the call site and passes it in.";

    E0515 => "a graph passes a scalar that varies between calls to a task",
"A scalar task argument inside a graph must be a scalar parameter, a value derived from the
scalar parameters (moved to the call site), or the same on every replay (constants,
constant-bound loop variables, `pl.tensor.dim` of a boundary tensor). A value read from a
tensor, for example, would be frozen at the first call.";

    E0516 => "a view of a boundary tensor with a window that varies between calls",
"A graph may take views (`pl.slice`, `pl.tensor.view`) of its boundary tensors when the
window can be rebuilt at the call site (from the scalar parameters: the view then becomes a
parameter) or is the same on every replay. A window mixing both, or read from data, would be
frozen at the first call.";

    E0517 => "a graph launched with deps= or a predicate",
"`pl.submit` of a Graph function may not carry `deps=` (an explicit edge makes the launch
uncacheable) or a dispatch predicate (it would be frozen into the recording).";

    E0518 => "a view in a graph that replay may take for a boundary tensor",
"A warning. When the real runtime (simpler) replays a recorded Graph call, it matches each
tensor the recorded tasks used to a boundary tensor by address and shape (an exact match
first), not by where the view came from. A view made inside the graph with the shape and
dtype of another boundary tensor, where the call passes both as views of one buffer, is
ambiguous: if the two start at the same address at the first call, every replay re-bases
the view onto the boundary tensor, a silently different answer. plc's CPU runtime and
`plc run` follow where the view came from.

    @pl.jit.graph
    def layer(w, acc, idx):
        band = pl.tensor.slice(w, [64, 128], [idx * 64, 0])    # moved to the boundary
        for k in pl.range(2):
            part = pl.tensor.slice(w, [64, 128], [k * 64, 0])  # warning: equals `band` when idx == k

Pass the view as a parameter of the graph too, or give it a shape no boundary tensor has.";

    E0601 => "an op the C++ backend cannot lower yet",
"The kernel emitter turns each op of a device function (InCore, AIC, AIV, Group, Spmd) into a
call of plc's CPU tile library (`runtime/pto_tile.h`). This op has no CPU form yet: the
distributed ops (`pld.*`, which need several ranks), `pl.system.syncall` (a barrier across
blocks that run one after another), the forms the real toolchain does not build either
(`ci`/`arange` of several rows: PTO-ISA's TCI fills one row) and those the library lacks
(`mrgsort(..., executed=)`, gathers by comparison). The message names the op and why.
`docs/kernels.md` lists the ops that lower.";

    E0602 => "a construct the kernel emitter cannot lower",
"A device function holds something with no C++ form in a kernel: a region other than
`pl.scope()`, a core-group `pl.at` or a `pl.spmd` (a `pl.spmd` region inside a kernel runs
its body once per block index; other `pl.at` and `pl.cluster` regions are outlined before
the emitter), a task launch (`pl.submit`), `break` or `continue` in a loop that carries
values, or a value such as a string or a tuple used as a number.";

    E0603 => "a device function calls a function that is not a kernel",
"Inside a kernel, a call of another device function (InCore, AIC, AIV, Group, Spmd) becomes a
direct C++ call of its implementation. A call of an Orchestration, Graph or Opaque function, a
function that calls itself (directly or through others), or one that does not exist has no
such form.";

    E0604 => "a value whose type the kernel emitter cannot give a C++ type",
"Kernel parameters are tensors and tiles (passed as `ChipTensor`s) and scalars (passed as
u64 slots); locals are tensors, tiles, scalars, tuples of them and `pl.Array`s. A value of
another type (a communication context, a `TASK_ID` tile, a type plc could not infer) has no
C++ form in a kernel.";

    E0605 => "a loop or branch whose values change form",
"A value carried by a loop or merged by an `if` must have one C++ form on every path: a view
of a tensor (`ChipTensor`), a tile, or a scalar. A path that yields a tensor parameter where
another yields a computed tensor value (which the CPU tile library holds as a tile) cannot be
merged. Load the tensor into a tile first, or store the computed value into the tensor.";

    E0610 => "orchestration code calls a function that is not a kernel or a graph",
"In the C++ output, an orchestration function launches tasks: kernels (InCore, AIC, AIV,
Group, Spmd functions) and graphs. A call of another Opaque or Orchestration function has no
task to become. Make the callee a kernel (`@pl.function(type=pl.FunctionType.InCore)`) or a
graph, or mark the work inside it with `pl.at(level=pl.Level.CORE_GROUP)` regions.";

    E0611 => "a region the C++ backend cannot run",
"A scope other than `pl.scope()` / `pl.manual_scope()` reached the orchestration emitter
(for example `pl.at(level=pl.Level.HOST, ...)`, which no pass of plc outlines yet).";

    E0612 => "an orchestration expression with no C++ form",
"Orchestration code computes scalars (`i * 128`), views, reads and task-id arrays. A value
it cannot write in C++ — a tuple built in place, `**`, a string — is reported here.";

    E0613 => "a call result that is not one of the callee's parameters",
"A task writes its outputs into buffers the caller passes; the call's results are those
buffers. A kernel that returns something other than one of its parameters (a tile, a tensor
it allocated) gives the caller nothing to read. Store the result into an `Out` parameter and
return that parameter.";

    E0615 => "a computation in orchestration code",
"Orchestration code launches tasks and manages buffers; it does not compute on tensor
data. An op such as `pl.add` on tensors, or a tile op, outside a `pl.at(level=
pl.Level.CORE_GROUP)` region or a kernel has nowhere to run. Put it inside a region.";

    E0616 => "nothing to compile",
"`plc compile` emits one C++ orchestration file per Orchestration function (after the
passes: an Opaque function with a `pl.at` region becomes one). The program has none, or
`--entry` names a function that is not one.";

    E0617 => "the harness lacks a parameter's shape or value",
"`plc compile --harness` writes a `main.cpp` that makes the entry's inputs the way `plc run`
does. A parameter whose type fixes its shape needs nothing; a bare `pl.Tensor` (or one with a
dynamic extent) needs `--arg NAME=DIMxDIM[:DTYPE]` (dtype FP32 when left out), and a scalar
needs `--arg NAME=VALUE`. An `--arg` naming no parameter is an error too.";

    E0618 => "a kernel with more arguments than a task takes",
"The runtime launches a kernel as a task of at most 16 scalar and 32 tensor arguments (as
simpler does; the limits are in src/ir/limits.rs). A device function with more — its
parameters, plus the results the runtime allocates for it, or an outlined region that
captures many values — is refused when it is compiled instead of when it is launched.

    @pl.jit.incore
    def k(a0: pl.Scalar[pl.INDEX], ..., a16: pl.Scalar[pl.INDEX], ...):   # error E0618

Pass the values in a tensor, or split the kernel.";

    E0620 => "an op or construct the PTO-ISA backend does not map yet",
"`plc compile --target a2a3sim --kernels pto-isa` writes each kernel as PTO-ISA instructions
(TLOAD, TADD, TMATMUL, TSTORE, ...) over tiles placed in on-chip memory. The message names
what has no PTO-ISA form yet: an op (with the reason, as docs/kernels.md lists them), a
`while` loop, a tile carried in L1 or L0, a load that converts its element type, a value of
run-time shape used other than by `pl.assemble` at offset 0.

    t = pl.sin(x)            # error E0620 with --kernels pto-isa

The default `--kernels cpu` runs every kernel on the simulator as plain C++.";

    E0621 => "a kernel whose tiles do not fit in on-chip memory",
"The PTO-ISA backend places each tile of a kernel in its core's on-chip memory (the 192 KiB
unified buffer of a vector core; L1, L0A, L0B and L0C of a cube core), sharing bytes
between tiles that are not live at the same time. Here the tiles live at one point need
more than the memory holds; the message lists them with their sizes.

    a = pl.load(x, [0, 0], [256, 256])   # 256 KiB of FP32: error E0621

Work in smaller bands, or let a tile die (its last use) before the next is made.";

    E0622 => "a tile shape a PTO-ISA instruction cannot take",
"PTO-ISA tiles have one or two constant extents, and a row of a vector tile is a multiple
of 32 bytes (8 FP32 or 16 FP16 elements); a vector tile of one column (a row reduction's
result) is column-major, and its column is a multiple of 32 bytes. A tile of another shape
has no PTO-ISA form.

    t = pl.load(x, [0, 0], [16, 4])   # rows of 16 bytes: error E0622";

    E0623 => "an assembly the runtime does not copy",
"In orchestration code (an Orchestration function, an `@pl.jit` body outside `pl.at`), an
assembly (`out[a:b, :] = t`, `pl.assemble(out, t, [..])`) is no code at all: PyPTO's
orchestration codegen makes its result name the target, and so does plc's C++. The data is
in the target only when a kernel already wrote it there: the source is the target's own
window (a `pl.slice` of it that a kernel wrote, assembled back at the same offsets), or a
tensor the function makes (a `pl.create_tensor`, a region's or kernel's new result) that is
assembled exactly once, which PyPTO (FuseCreateAssembleToSlice), and plc, make a view of the
target so that the kernel writes there. Any other source (a parameter, another tensor, a
tensor assembled twice, another window of the target) would be copied by `plc run` but
never by the runtime, so `plc compile` and `plc run` refuse it.

    @pl.jit
    def f(x: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        out[:] = x          # error E0623: the runtime copies nothing

Write the data into the target inside a region (`with pl.at(level=pl.Level.CORE_GROUP):
out[:] = pl.add(x, 0.0)`), or assemble the result of the kernel that computes it.";

    E0700 => "internal error: plc failed on this file",
"plc stopped with an internal error (a panic) while checking the file. The language server
reports it as this diagnostic, at the start of the document, and goes on serving the other
documents and requests. This is a bug in plc, not in your program; please report it with
the file.";

    E0701 => "internal error: a variable is used before its definition",
"The IR verifier found a use of a variable that no earlier statement defines. Lowering and
every pass must keep definitions before uses; this is a bug in plc, not in your program.";

    E0702 => "internal error: a misplaced or malformed yield",
"The IR verifier found a yield that is not last in its block, a yield outside a loop or an
`if`, a loop with iter args whose body does not end in a yield, or a yield whose number of
values differs from its statement's return variables. This is a bug in plc.";

    E0703 => "internal error: wrong arity",
"The IR verifier found a call with the wrong number of arguments, a call of a function the
program does not have, or a return with a number of values other than the function
declares. This is a bug in plc.";

    E0704 => "internal error: a mistyped node",
"The IR verifier found a condition that is not a boolean scalar. This is a bug in plc.";

    E0705 => "internal error: a variable assigned twice in SSA form",
"After ConvertToSSA every variable is assigned exactly once; the IR verifier found one
assigned twice. This is a bug in plc.";

    E0706 => "internal error: a pass did not establish a property it claims",
"With `--verify`, after each pass plc re-checks every property the pass produces (no
inline functions left, no graph region left, single assignment, ...) on the IR it
produced. A failure is a bug in plc.";

    E0707 => "internal error in the kernel emitter",
"The IR reaching the kernel emitter lacks something the passes should have provided (a value
for a variable, a well-formed loop). This is a bug in plc; please report it with the
program.";

    E0708 => "internal error in the orchestration emitter",
"The IR reaching the emitter lacks something a pass should have provided (argument
directions, a value for a variable). This is a bug in plc; please report it with the
program.";

    E0709 => "internal error in the interpreter",
"`plc run` itself failed (it could not start its thread, or it stopped unexpectedly). This is
a bug in plc; please report it with the program and the command.";

    E0710 => "internal error: a node shared by two functions",
"The IR verifier found a statement or an expression that two functions' bodies both hold.
Lowering, InlineFunctions and the outliners give each function nodes of its own, and the
passes rely on it (a rewrite of one function must not change another). This is a bug in
plc; please report it with the program.";

    E0801 => "the program failed while running",
"`plc run` stopped because the program did something that has no result: an index outside a
tensor, a division by zero, a shape that does not fit, a value of the wrong kind. The
diagnostic points at the expression that failed.

    x = pl.tensor.read(t, [64, 0])   # error when t has 64 rows: the index is outside it

The compiled C++ would fail (or compute garbage) at the same place.";

    E0802 => "the run took more steps than allowed",
"`plc run` counts statements, loop iterations and element work (one unit per 256 elements)
and stops after `--max-steps` of them (50 000 000 by default), so that a loop that never ends
does not hang it. Raise the limit with `--max-steps N` for a long run.";

    E0803 => "an operation the interpreter cannot run",
"Some operations have no meaning in one process on the CPU: the distributed ops (`pld.*`)
need several ranks running at once; some forms of an op have no meaning the real toolchain
builds (`ci`/`arange` of several rows: PTO-ISA's TCI fills one row). `plc run` stops at the
first one, naming the op and why. `plc check` accepts the program.";

    E0804 => "an Out tensor is not written whole",
"A warning of `plc run`: the run left part of an `Out` tensor parameter of the entry unwritten
(or computed from such a part). `plc run` and plc's CPU runtime print those elements as
zeros, but the real runtime, simpler, neither copies an `Out` tensor in nor zeroes it: there
the elements are whatever the memory held, and the result changes from run to run.

    def main(self, x: pl.Tensor[[256, 64], pl.FP32], n: pl.Scalar[pl.INDEX],
             out: pl.Out[pl.Tensor[[256, 64], pl.FP32]]):
        for b in pl.range(n):            # n < 8 leaves rows of `out` unwritten
            ...

Write every element of the tensor, or declare it `pl.InOut` so that its initial contents are
defined. `plc compile --target a2a3sim --harness` runs the entry on the harness's inputs first
and refuses it with this error: `run.sh` could not print what `plc run` prints.";

    E0805 => "two tasks race on a buffer",
"A warning of `plc run`: two task launches touch overlapping parts of a tensor, at least one
of them writing, and nothing orders them. The runtime orders a task after an earlier one when
their tracked arguments overlap with a write on either side (not inside a
`pl.manual_scope`), or when `deps=` names it; a `pl.no_dep(x)` argument is not tracked.
`plc run` runs the tasks in program order, but the real runtime, simpler, runs ready tasks
at once on several cores: the reader may see the old or the new values, or a mix.

    scaled, first = pl.submit(self.scale, x, scaled)     # writes `scaled`
    both = self.shift(pl.no_dep(scaled), both)           # reads it, unordered: a race

Order the second task after the first (`deps=[first]`), or pass the argument without
`pl.no_dep`. The static warning E0413 finds the `pl.no_dep` case at compile time, and
`plc compile --target a2a3sim --harness`, which runs the entry first, refuses it with this
error.";

    E0806 => "a read of an undefined element",
"A warning of `plc run`: an op read elements of an `Out` tensor parameter of the entry that
nothing had written yet. The real runtime, simpler, neither copies an `Out` tensor in nor
zeroes it, so those elements are whatever the memory held; `plc run` poisons them (a NaN or
an integer sentinel that computations carry) and reports the first op that reads them at
each place.

    def main(self, out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
        t = pl.load(out, [0, 0], [64, 64])    # out is undefined here

Write the elements first, or declare the parameter `pl.InOut` so that its initial contents
are the caller's.";

    E0807 => "host code reads or writes a tensor a task uses",
"A warning of `plc run`: orchestration code read or wrote elements of a tensor
(`pl.tensor.read`, `pl.tensor.write`) where the real runtime cannot do what `plc run` does.
`plc run` and plc's CPU runtime run each task when it is launched. simpler's
host_build_graph runtime runs the orchestration function to its end on the host first, and
the tasks after it; an element access there waits for the task that last wrote the tensor
(a write also for that task's readers). So:

- reading or writing a tensor after a task that writes it waits for a task that cannot run
  yet: simpler stops the run (TENSOR_WAIT_TIMEOUT);
- a tensor the program made (`pl.create_tensor`, a kernel's new result) is allocated by
  such a task, so host code cannot read or write it at all;
- writing a tensor after a task that reads it changes what that task reads;
- a `pl.no_dep` write is not waited for, so a read after it sees the value before it.

    out = self.fill(x, out)                  # a task writes `out`
    v = pl.tensor.read(out, [0, 0])          # waits for it: the run stops on simpler

Read or write the tensor before the first task that uses it, or do the work in a kernel.
`plc compile --target a2a3sim --harness`, which runs the entry first, refuses the entry
with this error.";

    E0810 => "no function to run by that name",
"`plc run --entry NAME` names the function to run: `name`, or `Class.name` when several
`@pl.program` classes have a function of that name. The diagnostic lists the functions there
are. This is a usage error (exit status 2).";

    E0811 => "a missing or malformed --arg",
"`plc run` and `plc compile --harness` make the entry's inputs: a tensor parameter whose type
does not fix its shape needs `--arg NAME=DIMxDIM[:DTYPE]`, a scalar parameter needs
`--arg NAME=VALUE`. An `--arg` naming no parameter, given twice, of the wrong rank or dtype,
or not a value of the parameter's type is reported here, pointing at the `--arg` on the
command line. This is a usage error (exit status 2).";

    N0001 => "host code skipped",
"Host code is the Python that runs around the pl program: an `if __name__ == \"__main__\":`
block, a top-level `def` or `class` without a `@pl.` decorator, a top-level assignment whose
value is not a constant expression, or any other top-level statement that is not an import,
a constant, or a pl function or program. plc recognises it by indentation, skips it without
parsing it, and says so in this note. The body of a HOST SubWorker
(`@pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)`) is Python too: PyPTO runs it
in the host process; plc keeps the function's signature and skips its body.";

    N0002 => "pl function defined inside host code",
"A function decorated with `@pl.` (or a `@pl.program` class) sits inside host code, for
example inside `if __name__ == \"__main__\":` or inside a plain Python function. Python builds
it when that code runs, so plc cannot compile it statically. Move it to the top level of the
module to compile it.";

    N0003 => "import of an outside library skipped",
"An import of a library other than `pypto.language` (`import torch`,
`from pypto.runtime import RunConfig`) serves host code; plc skips it. Using such a name in
a pl function is error E0222.";

    W0001 => "an older spelling that PyPTO no longer accepts",
"The call is spelled as an older PyPTO release spelled it: the `pl.op.block.*`,
`pl.op.tensor.*` and `pl.block.*` namespaces, `pl.create`, `pl.copy`, `pl.view`,
`pl.l0c_store`, `pl.scalar.*`, the axis-generic reductions `pl.tensor.sum/max/min` and
`pl.tile.sum/max/min`, the tensor forms of tile-only ops (`pl.tensor.rems`, `pl.tensor.sel`,
...). plc still compiles it as the older release meant it, but PyPTO today rejects the
program. The warning names today's spelling:

    y = pl.op.block.add(a, b)        # warning: use pl.tile.add
    s = pl.tensor.sum(x, axis=-1)    # warning: use pl.tensor.row_sum or pl.tensor.col_sum
    m = pl.tile.max(t, axis=1)       # warning: use pl.tile.row_max or pl.tile.col_max

Note that `pl.tile.max(a, b)` and `pl.tile.min(a, b)` of two scalars are today's scalar
maximum and minimum, not reductions. Rewrite the call with today's spelling (its parameters
may differ: see docs/language.md) to silence the warning.";

    W0002 => "an older spelling of a core-group region that PyPTO no longer accepts",
"The region is written as an older PyPTO release wrote it, before `pl.at(...,
optimizations=[...])` took over its options. plc compiles it as that release meant it and
names today's spelling:

    with pl.incore():                                           # use pl.at(level=pl.Level.CORE_GROUP)
    with pl.incore(split=pl.SplitMode.UP_DOWN):                 # use pl.at(level=pl.Level.CORE_GROUP,
                                                                #        optimizations=[pl.split(pl.SplitMode.UP_DOWN)])
    with pl.auto_incore():                                      # use ..., optimizations=[pl.auto_chunk])
    with pl.at(level=pl.Level.CORE_GROUP,
               optimization=pl.chunked_loop_optimizer):         # use optimizations=[pl.auto_chunk]
    with pl.at(level=pl.Level.CORE_GROUP,
               optimization=pl.chunked_loop_optimizer(split=pl.SplitMode.LEFT_RIGHT)):
                                                                # use optimizations=[pl.auto_chunk,
                                                                #        pl.split(pl.SplitMode.LEFT_RIGHT)]
    with pl.at(level=pl.Level.CORE_GROUP, split=pl.SplitMode.UP_DOWN):
                                                                # use optimizations=[pl.split(pl.SplitMode.UP_DOWN)]

    with pl.cluster(core_num=4):                                # use pl.spmd(core_num=4)

`pl.chunked_loop_optimizer` asked for today's `pl.auto_chunk` (chunk the region's parallel
loops for the cores); `split=` for today's `pl.split(mode)`; `pl.SplitMode.NONE` for no
split. The older options keep their older rules, as errors E0314: `optimization=` takes
only `pl.chunked_loop_optimizer`, bare or called with `split=`; `optimization=` and
`split=` not together, nor with `optimizations=[...]`; only at `level=pl.Level.CORE_GROUP`.
Rewrite the region with today's spelling to silence the warning.";

    W0003 => "an MX op given the raw bytes of an older MX quantizer",
"An older PyPTO release's `pl.mx_quant` (also `pl.tquant`) fed the MX matrix product
directly: its results, the quantized data and the E8M0 block scales, went to
`pl.tget_scale_addr` and `pl.matmul_mx` (`_acc`, `_bias`) as they were. plc types those
results as PyPTO types them now, as raw bytes (INT8 data, UINT8 scales), and still lets
the MX ops take them, reading INT8 as the FP8E4M3FN values and UINT8 as the FP8E8M0 scales
the bytes hold. PyPTO today wants the FP8 types there:

    q, s = pl.mx_quant(t, mode=\"mxfp8_e4m3\")
    c = pl.matmul_mx(q, s, rhs, rhs_s)                              # warning
    q8 = pl.tile.reinterpret_view(q, pl.FP8E4M3FN)                  # today: view the bytes
    s8 = pl.tile.reinterpret_view(s, pl.FP8E8M0)                    # as FP8 first

The scales of `pl.mx_quant` come as one row of M*K/32 bytes; `pl.matmul_mx` takes that
packed row as well as `[M, K/32]`. Rewrite the chain with the views to silence the
warning.";

    N0004 => "a program factory evaluated for a call",
"A program factory (a top-level `def` that builds and returns a `@pl.program` class or
`@pl.` function) is compiled by evaluating it at compile time. This note says for which
call: the one `main()` or the `__main__` block makes (its arguments may be constants
assigned before it in the same function), or, without such a call, the factory's defaults.
Other calls found in the file are listed; `--factory 'Build(...)'` selects another.";

    N0005 => "a program factory not compiled",
"A program factory has parameters without defaults, and no call in the file's host code
gives them compile-time constant values (an argument read from the command line, for
example, is only known when Python runs). Its program is not compiled; give the arguments
with `--factory 'Build(batch=2, ...)'`.";
}
