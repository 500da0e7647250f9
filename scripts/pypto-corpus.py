#!/usr/bin/env python3
"""Measure how much of a folder of PyPTO-style test files plc accepts.

Usage:
    scripts/pypto-corpus.py TESTS_DIR [--out DIR] [--plc PATH] [--top N] [--list KEY] [--jit]

TESTS_DIR holds Python test files that build pl programs the way PyPTO's unit tests do
(see docs/testing.md for how to get such a folder; none is kept in this repository).
For each file the script reads the syntax tree (Python's `ast`, nothing is executed) and
writes every program it finds to a file of its own under --out (default
/tmp/pypto-corpus):

- a class decorated with `pl.program` (`@pl.program`, `@pl.program(...)`),
- a function decorated with `pl.function` or `pl.inline` outside such a class (with --jit,
  also a `pl.jit` / `pl.jit(...)` entry function, the form system tests use, or the same
  decorator imported by name, `from pypto.jit.decorator import jit` and `@jit`; the
  `pl.jit.incore`... functions it calls come along as definitions),
- a string constant holding a whole program (`@pl.program` or `@pl.function` text given to
  `pl.parse_program` and friends), dedented; PyPTO rejects it when the string is written
  inside `with pytest.raises(...)` or assigned to a name such a block reads,
- in a markdown page (`.md`, PyPTO's documentation), the same forms in each ```python
  block, with the imports and definitions of the page's earlier blocks; see
  `markdown_programs` for which ones count as PyPTO's rejects and which as unresolved.

A program's file holds what PyPTO sees when it parses the program: the module's imports,
then, in source order, the definitions of the module and of the enclosing test functions
(before the program) that the program reads from outside (not its own locals, parameters
or methods), directly or through another definition, then the program. A definition is a
simple assignment (`SIZE = 8`, `aliased = helper`), a function decorated with
`pl.function`, `pl.inline` or `pl.jit...` (a free function the program calls), or an
import inside a test. A test's `@pytest.mark.parametrize` values bind its parameters: the
program is written once per value (at most 8 combinations), the bindings after the
module's definitions and before the test body's. A program that names a parameter of an
enclosing function that nothing binds (a helper's argument, a fixture) is counted as
"unresolved" and not run.

A program inside `with pytest.raises(...)`, or built by a helper function the file calls
only inside such blocks, is one PyPTO rejects; every other one PyPTO accepts. Each file is checked with `plc check --message-format json`; a program is
accepted when no diagnostic has severity error. The script prints:

- accepted of the programs PyPTO accepts, rejected of the programs PyPTO rejects,
- a histogram of the first error of each false reject (code and the first words of the
  message, numbers replaced by N), most frequent first,
- with --list KEY, the files whose first error starts with KEY (a code or a message
  prefix), to look at one cause.
"""

import argparse
import ast
import builtins
import collections
import copy
import hashlib
import itertools
import json
import os
import re
import subprocess
import sys
import textwrap

MAX_COMBINATIONS = 8


def dotted(node):
    """`a.b.c` of an Attribute/Name chain, or None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


# Names the file being read binds to PyPTO's `jit` decorator (`from pypto.jit.decorator
# import jit`, `from pypto.jit import jit as j`): `@jit.incore` reads as `@pl.jit.incore`.
JIT_ALIASES = set()


def jit_aliases(tree):
    names = set()
    for s in tree.body:
        if isinstance(s, ast.ImportFrom) and (s.module or "").split(".")[:2] in (["pypto", "jit"], ["pypto"]):
            names |= {a.asname or a.name for a in s.names if a.name == "jit"}
    return names


def decorator_name(dec):
    if isinstance(dec, ast.Call):
        dec = dec.func
    name = dotted(dec) or ""
    head, _, rest = name.partition(".")
    if head in JIT_ALIASES:
        return "pl.jit" + ("." + rest if rest else "")
    return name


def is_program_class(node):
    return isinstance(node, ast.ClassDef) and any(
        decorator_name(d) == "pl.program" for d in node.decorator_list
    )


JIT_ENTRIES = False  # --jit: a `@pl.jit` / `@pl.jit(...)` function is a program too


def is_pl_function(node):
    names = ("pl.function", "pl.inline") + (("pl.jit",) if JIT_ENTRIES else ())
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
        decorator_name(d) in names for d in node.decorator_list
    )


def is_raises_with(node):
    if not isinstance(node, ast.With):
        return False
    for item in node.items:
        expr = item.context_expr
        if isinstance(expr, ast.Call) and decorator_name(expr).endswith("raises"):
            return True
    return False


def loaded_names(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def scope_children(node):
    """The direct children of a scope's body, not descending into nested scopes' bodies."""
    stack = list(node.body) if isinstance(node.body, list) else [node.body]
    while stack:
        sub = stack.pop()
        yield sub
        if not isinstance(sub, SCOPES):
            stack.extend(ast.iter_child_nodes(sub))


def outer_parts(node):
    """What a nested scope evaluates in its enclosing scope: decorators, defaults, annotations, bases."""
    parts = list(getattr(node, "decorator_list", []))
    if isinstance(node, ast.ClassDef):
        return parts + node.bases + node.keywords
    args = node.args
    parts += args.defaults + [d for d in args.kw_defaults if d is not None]
    if not isinstance(node, ast.Lambda):
        every = args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]
        parts += [a.annotation for a in every if a is not None and a.annotation is not None]
        parts += [node.returns] if node.returns is not None else []
    return parts


def free_names(node):
    """The names `node` reads from outside: what its functions neither bind nor take as parameters."""
    if not isinstance(node, SCOPES):
        names = set()
        stack = [node]
        while stack:
            sub = stack.pop()
            if isinstance(sub, SCOPES):
                names |= free_names(sub)
            elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
                names.add(sub.id)
            else:
                stack.extend(ast.iter_child_nodes(sub))
        return names
    outside = set()
    for part in outer_parts(node):
        outside |= free_names(part)
    inner, nested, bound = set(), set(), set()
    for sub in scope_children(node):
        if isinstance(sub, SCOPES):
            # A class body's names are not visible in its methods; a function's are.
            (nested if isinstance(node, ast.ClassDef) else inner).update(free_names(sub))
            bound |= {sub.name} if not isinstance(sub, ast.Lambda) else set()
        elif isinstance(sub, ast.Name):
            (bound if isinstance(sub.ctx, (ast.Store, ast.Del)) else inner).add(sub.id)
        elif isinstance(sub, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in sub.names}
    if not isinstance(node, ast.ClassDef):
        args = node.args
        every = args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]
        bound |= {a.arg for a in every if a is not None}
    return outside | nested | (inner - bound)


def assigned_names(stmt):
    """Names a simple assignment binds (`A = ...`, `A = B = ...`, `A, B = ...`)."""
    targets = []
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        targets = [stmt.target]
    names = []
    for t in targets:
        if isinstance(t, ast.Name):
            names.append(t.id)
        elif isinstance(t, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Name) for e in t.elts):
            names.extend(e.id for e in t.elts)
        else:
            return []
    return names


def simple_value(stmt):
    """An assignment whose value a program can name: no lambda, comprehension or await."""
    value = stmt.value
    bad = (ast.Lambda, ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp, ast.Await)
    return value is not None and not any(isinstance(n, bad) for n in ast.walk(value))


PL_DEFINITION_DECORATORS = ("pl.function", "pl.inline", "pl.jit")


def is_pl_definition(node):
    """A function a program may call: decorated with `pl.function`, `pl.inline` or `pl.jit...`."""
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
        decorator_name(d) == name or decorator_name(d).startswith(name + ".")
        for d in node.decorator_list
        for name in PL_DEFINITION_DECORATORS
    )


def node_text(source, node):
    """A statement's source, dedented, with its decorators."""
    body = textwrap.dedent(ast.get_source_segment(source, node, padded=True))
    decorators = "".join(
        "@" + ast.get_source_segment(source, d) + "\n" for d in getattr(node, "decorator_list", [])
    )
    return decorators + body


class Definitions:
    """What a program may name at a point, in source order: (names bound, text, names read).

    Simple assignments, functions decorated with `pl.function`/`pl.inline`/`pl.jit...`, and
    (inside a test body) imports.
    """

    def __init__(self, entries=()):
        self.entries = list(entries)

    def extended(self, stmts, source, imports=True, module=False, attrs=None):
        entries = list(self.entries)
        for stmt in stmts:
            names = assigned_names(stmt)
            if names and simple_value(stmt):
                text, value = node_text(source, stmt), stmt.value
                if attrs and "self" in free_names(value):
                    value = SelfAttrs(attrs).visit(copy.deepcopy(value))
                    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                    text = " = ".join(target_text(t) for t in targets) + " = " + ast.unparse(value) + "\n"
                reads = free_names(value)
                entries.append((set(names), text, reads, module))
            elif is_pl_definition(stmt):
                entries.append(({stmt.name}, node_text(source, stmt), free_names(stmt), module))
            elif imports and isinstance(stmt, (ast.Import, ast.ImportFrom)):
                bound = {(a.asname or a.name).split(".")[0] for a in stmt.names} - {"*"}
                entries.append((bound, node_text(source, stmt), set(), module))
        return Definitions(entries)

    def needed_by(self, names, skip=()):
        """The definitions `names` need, transitively, in source order, and every name read.

        Names in `skip` (bound otherwise) are not looked up. Each definition is
        (names bound, text, is module-level).
        """
        wanted = set(names) - set(skip)
        read = set(names)
        chosen = []
        for names_bound, text, reads, module in reversed(self.entries):
            if names_bound & wanted:
                chosen.append((names_bound, text, module))
                wanted -= names_bound
                wanted |= reads - set(skip)
                read |= reads
        return list(reversed(chosen)), read


def target_text(target):
    """An assignment target as written: `A, B` (not `ast.unparse`'s `(A, B)`)."""
    if isinstance(target, ast.Tuple):
        return ", ".join(ast.unparse(e) for e in target.elts)
    return ast.unparse(target)


class SelfAttrs(ast.NodeTransformer):
    """Replaces `self.NAME` by the value a test case's `__init__` gives it."""

    def __init__(self, attrs):
        self.attrs = attrs

    def visit_Attribute(self, node):
        if isinstance(node.value, ast.Name) and node.value.id == "self" and node.attr in self.attrs:
            return copy.deepcopy(self.attrs[node.attr])
        return self.generic_visit(node)


def init_attrs(cls):
    """`self.NAME = value` of a class's `__init__`, its parameters replaced by their defaults.

    System tests build a program in a method (`M, K = self.M, self.K` before
    `@pl.program`), with the case's sizes given to `__init__`; the defaults stand for them.
    """
    init = next(
        (s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None
    )
    if init is None:
        return {}
    args = init.args
    positional = args.posonlyargs + args.args
    defaults = dict(zip([a.arg for a in positional[len(positional) - len(args.defaults):]], args.defaults))
    defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    params = {a.arg for a in positional + args.kwonlyargs}

    class Params(ast.NodeTransformer):
        def visit_Name(self, node):
            if node.id in defaults:
                return copy.deepcopy(defaults[node.id])
            return node

    attrs = {}
    for stmt in init.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
            continue
        target, value = stmt.targets[0], Params().visit(copy.deepcopy(stmt.value))
        # `self.a, self.b = x, y` binds element by element (also when `x, y` is a
        # parameter's default: `self._rows, self._cols = shape`).
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
            pairs = list(zip(target.elts, value.elts))
        else:
            pairs = [(target, value)]
        for target, value in pairs:
            if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)):
                continue
            if target.value.id != "self":
                continue
            value = SelfAttrs(attrs).visit(Params().visit(copy.deepcopy(value)))
            if (free_names(value) & params) - set(defaults) or "self" in free_names(value):
                continue
            attrs[target.attr] = value
    return attrs


def callee_name(call):
    """The name a call calls: `f` of `f(...)` and of `x.f(...)`."""
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def raising_helpers(tree):
    """Functions the file calls only inside `with pytest.raises(...)` blocks.

    A program such a helper builds is one PyPTO rejects (`with pytest.raises(...):
    self._mismatched_matmul()`).
    """
    inside = set()
    for sub in ast.walk(tree):
        if is_raises_with(sub):
            for stmt in sub.body:
                inside |= {id(c) for c in ast.walk(stmt) if isinstance(c, ast.Call)}
    raising, plain = set(), set()
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and callee_name(call):
            (raising if id(call) in inside else plain).add(callee_name(call))
    return raising - plain


def param_defaults(func, source):
    """{name: source} of the parameters of `func` that have a default value.

    A program factory (`def make(rows=16): @pl.program ...`) builds its program with
    these when nothing else binds the parameter.
    """
    args = func.args
    positional = args.posonlyargs + args.args
    pairs = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
    return {a.arg: ast.get_source_segment(source, d) for a, d in pairs}


def parametrize_bindings(func, source):
    """The list of {name: source} bindings `@pytest.mark.parametrize` gives a test."""
    axes = []
    for dec in func.decorator_list:
        if not (isinstance(dec, ast.Call) and decorator_name(dec).endswith("parametrize")):
            continue
        if len(dec.args) < 2:
            continue
        argnames, argvalues = dec.args[0], dec.args[1]
        if isinstance(argnames, ast.Constant) and isinstance(argnames.value, str):
            names = [n.strip() for n in argnames.value.split(",") if n.strip()]
        elif isinstance(argnames, (ast.Tuple, ast.List)):
            names = [e.value for e in argnames.elts if isinstance(e, ast.Constant)]
        else:
            continue
        if not isinstance(argvalues, (ast.List, ast.Tuple)):
            continue
        options = []
        for value in argvalues.elts:
            if isinstance(value, ast.Call) and decorator_name(value).endswith("param") and value.args:
                value = value.args[0] if len(names) == 1 else ast.Tuple(elts=value.args)
            if len(names) == 1:
                options.append({names[0]: ast.get_source_segment(source, value)})
            elif isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(names):
                options.append(
                    {n: ast.get_source_segment(source, e) for n, e in zip(names, value.elts)}
                )
        if options:
            axes.append(options)
    combos = []
    for combo in itertools.islice(itertools.product(*axes), MAX_COMBINATIONS):
        merged = {}
        for part in combo:
            merged.update(part)
        combos.append(merged)
    return combos or [{}]


class Extractor:
    def __init__(self, path, source=None, first_line=0):
        self.path = path
        if source is None:
            with open(path, encoding="utf-8") as f:
                source = f.read()
        self.source = source
        # A page's block (see `markdown_programs`): programs above this line come from
        # earlier blocks, carried for their definitions only, and names nothing defines
        # leave a program unresolved.
        self.first_line = first_line
        self.tree = ast.parse(self.source)
        JIT_ALIASES.clear()
        JIT_ALIASES.update(jit_aliases(self.tree))
        self.imports = [
            ast.get_source_segment(self.source, s)
            for s in self.tree.body
            if isinstance(s, (ast.Import, ast.ImportFrom))
        ]
        self.programs = []  # (name, text, expect_reject) or (name, None, reason)
        self.raising_helpers = raising_helpers(self.tree)
        self.raises_reads = {}  # test scope -> names read inside its pytest.raises blocks
        self.class_attrs = {}  # class scope -> its __init__'s `self.NAME` values

    def run(self):
        module_defs = Definitions().extended(self.tree.body, self.source, imports=False, module=True)
        self.visit_block(self.tree.body, module_defs, [], False, [])
        return self.programs

    def visit_block(self, stmts, defs, bindings, raises, scope):
        attrs = self.class_attrs.get(tuple(scope[:-1]))
        for i, stmt in enumerate(stmts):
            local = defs.extended(stmts[:i], self.source, attrs=attrs) if scope else defs
            self.visit(stmt, local, bindings, raises, scope)

    def visit(self, node, defs, bindings, raises, scope):
        if is_program_class(node) or is_pl_function(node):
            self.emit(node, defs, bindings, raises, scope)
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            params = {a.arg for a in node.args.args + node.args.kwonlyargs} - {"self", "cls"}
            reads = set()
            for sub in ast.walk(node):
                if is_raises_with(sub):
                    for stmt in sub.body:
                        reads |= loaded_names(stmt)
            self.raises_reads[tuple(scope + [node.name])] = reads
            raises = raises or node.name in self.raising_helpers
            defaults = param_defaults(node, self.source)
            for combo in parametrize_bindings(node, self.source):
                combo = {**defaults, **combo}
                frame = (node.name, params, combo)
                self.visit_block(node.body, defs, bindings + [frame], raises, scope + [node.name])
            return
        if isinstance(node, ast.ClassDef):
            # A case without an `__init__` of its own takes its base class's (a base
            # class of the same file: `class DivCase(_ColExpandBase)`).
            attrs = {}
            for base in node.bases:
                if isinstance(base, ast.Name):
                    attrs.update(self.class_attrs.get(tuple(scope + [base.id]), {}))
            attrs.update(init_attrs(node))
            self.class_attrs[tuple(scope + [node.name])] = attrs
            self.visit_block(node.body, defs, bindings, raises, scope + [node.name])
            return
        if isinstance(node, ast.With):
            self.visit_block(node.body, defs, bindings, raises or is_raises_with(node), scope)
            return
        for field in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.AST):
                if isinstance(block[0], ast.ExceptHandler):
                    for h in block:
                        self.visit_block(h.body, defs, bindings, raises, scope)
                else:
                    self.visit_block(block, defs, bindings, raises, scope)
        raised_names = set()
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id in self.raised_names(scope) for t in node.targets
        ):
            raised_names.add(True)
        for sub in ast.walk(node):
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                self.emit_string(sub, raises or bool(raised_names), scope)

    def raised_names(self, scope):
        """Names read inside a `with pytest.raises(...)` block of the innermost test."""
        return self.raises_reads.get(tuple(scope), set())

    def emit_string(self, const, raises, scope):
        if const.lineno < self.first_line:
            return
        text = textwrap.dedent(const.value)
        if not re.search(r"^\s*@pl\.(program|function)", text, re.M) or "def " not in text:
            return
        try:
            ast.parse(text)
        except SyntaxError:
            return
        name = ".".join(scope + [f"text{const.lineno}"])
        if "import pypto.language as pl" not in text:
            text = "import pypto.language as pl\n\n" + text
        self.programs.append((name, text, raises))

    def emit(self, node, defs, bindings, raises, scope):
        if node.lineno < self.first_line:
            return
        name = ".".join(scope + [node.name])
        text_of_node = node_text(self.source, node)
        used = free_names(node)
        bound = {}
        for _, _, combo in bindings:
            bound.update(combo)
        free_params = set()
        for _, params, _ in bindings:
            free_params |= params
        # A parameter's value may name a definition, and a definition a parameter:
        # grow the names read until nothing new turns up.
        wanted = set(used)
        while True:
            needed, read = defs.needed_by(wanted, skip=bound)
            grown = set(read)
            for pname in read & set(bound):
                grown |= free_names(ast.parse(bound[pname], mode="eval"))
            if grown <= wanted:
                break
            wanted |= grown
        defined = set()
        for names_bound, _, _ in needed:
            defined |= names_bound
        unresolved = (read & free_params) - set(bound) - defined
        if self.first_line and not isinstance(node, ast.ClassDef) and not scope:
            # A page's method shown without its class (`def main(self, ...)` calling
            # `self.stage1`) is a fragment.
            if node.args.args and node.args.args[0].arg == "self":
                unresolved.add("self")
        if self.first_line:
            imported = set()
            for s in self.tree.body:
                if isinstance(s, (ast.Import, ast.ImportFrom)):
                    imported |= {(a.asname or a.name).split(".")[0] for a in s.names}
            unresolved |= read - set(bound) - defined - imported - set(dir(builtins)) - {"self"}
        if unresolved:
            self.programs.append((name, None, "unresolved " + ", ".join(sorted(unresolved))))
            return
        # Module-level definitions, then the test's parameters, then the test body's ones.
        lines = [f"{pname} = {bound[pname]}" for pname in sorted(read & set(bound))]
        parts = [
            "\n".join(self.imports),
            "\n\n".join(t.rstrip() for _, t, module in needed if module),
            "\n".join(lines),
            "\n\n".join(t.rstrip() for _, t, module in needed if not module),
        ]
        text = "\n\n".join(p for p in parts if p) + "\n\n\n" + text_of_node + "\n"
        self.programs.append((name, text, raises))


FENCE = re.compile(r"^( *)```(\w*)[^\n]*\n(.*?)^\1```", re.M | re.S)
# Words of the prose just before a block, or of a comment line just above a program in
# it, that make it an example of an error.
ERROR_WORDS = re.compile(
    r"❌|\b(errors?|rejected|rejects|invalid|not allowed|illegal|raises|will fail|fails)\b", re.I
)


def markdown_programs(path):
    """The programs of a markdown page's ```python blocks, as `Extractor.run` gives them.

    Each block that Python parses is a module of its own, preceded by the imports,
    assignments and `pl` functions of the page's earlier blocks that parse (a page
    defines `M = 64` once and uses it below); `import pypto.language as pl` is added when
    no block imports it. A program that names something nothing defines (a doc fragment's
    `n`) is unresolved. A program is one PyPTO rejects when the prose paragraph before
    its block (for the block's first program) or the comment lines right above it say so
    (ERROR_WORDS: "❌", "error", "rejected", "invalid", ...), when its own lines carry a
    "✗" or "❌" mark, or when it is written inside `with pytest.raises(...)`. A method
    shown without its class (`def main(self, ...)`) is unresolved too.
    """
    with open(path, encoding="utf-8") as f:
        page = f.read()
    earlier = []  # definition statements of the earlier blocks, as source
    programs = []
    last_end = 0
    for m in FENCE.finditer(page):
        lead = page[last_end:m.start()].strip().split("\n\n")[-1]
        last_end = m.end()
        if m.group(2).lower() not in ("python", "py"):
            continue
        block = textwrap.dedent(m.group(3))
        try:
            tree = ast.parse(block)
        except SyntaxError:
            continue
        prefix = "\n".join(earlier)
        if not re.search(r"^import pypto\.language as pl", prefix + "\n" + block, re.M):
            prefix = "import pypto.language as pl\n" + prefix
        source = prefix + "\n\n" + block
        first_line = prefix.count("\n") + 3
        lines = source.splitlines()
        found = Extractor(path, source=source, first_line=first_line).run()
        tops = [n for n in ast.walk(ast.parse(source)) if is_program_class(n) or is_pl_function(n)]
        first_program = min((n.lineno for n in tops if n.lineno >= first_line), default=None)
        for name, text, expect in found:
            node = next((n for n in tops if n.name == name.split(".")[-1] and n.lineno >= first_line), None)
            if node is not None and text is not None:
                start = min([node.lineno] + [d.lineno for d in node.decorator_list])
                above = []
                for line in reversed(lines[: start - 1]):
                    if not line.strip().startswith("#"):
                        break
                    above.append(line)
                said = "\n".join(above) + ("\n" + lead if node.lineno == first_program else "")
                own = "\n".join(lines[start - 1 : node.end_lineno])
                expect = expect or bool(ERROR_WORDS.search(said)) or bool(re.search("[✗❌]", own))
            programs.append((f"block{m.start()}." + name, text, expect))
        for stmt in tree.body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)) or (
                assigned_names(stmt) and simple_value(stmt)
            ) or (is_pl_definition(stmt) and not is_pl_function(stmt)):
                earlier.append(ast.get_source_segment(block, stmt, padded=True) or "")
    return programs


def first_error(stdout):
    for line in stdout.splitlines():
        try:
            d = json.loads(line)
        except json.JSONDecodeError:
            continue
        if d.get("severity") == "error":
            return d
    return None


def histogram_key(diag):
    words = re.sub(r"\d+", "N", diag["message"]).split()
    return f"{diag['code']} {' '.join(words[:7])}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tests_dir")
    ap.add_argument("--out", default="/tmp/pypto-corpus")
    ap.add_argument("--plc", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "plc"))
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--list", dest="list_key", default=None)
    ap.add_argument("--jit", action="store_true", help="also measure `@pl.jit` entry functions (system tests)")
    args = ap.parse_args()
    global JIT_ENTRIES
    JIT_ENTRIES = args.jit

    os.makedirs(args.out, exist_ok=True)
    for old in os.listdir(args.out):
        if old.endswith(".py"):
            os.remove(os.path.join(args.out, old))

    programs = []  # (file, expect_reject)
    unresolved = 0
    unparsable = 0
    for root, _, files in sorted(os.walk(args.tests_dir)):
        for fname in sorted(files):
            if not fname.endswith((".py", ".md")):
                continue
            path = os.path.join(root, fname)
            try:
                found = markdown_programs(path) if fname.endswith(".md") else Extractor(path).run()
            except SyntaxError:
                unparsable += 1
                continue
            stem = os.path.splitext(os.path.relpath(path, args.tests_dir))[0].replace(os.sep, "__")
            for name, text, expect in found:
                if text is None:
                    unresolved += 1
                    continue
                digest = hashlib.sha1(text.encode()).hexdigest()[:8]
                out = os.path.join(args.out, f"{stem}__{name}__{digest}.py")
                with open(out, "w", encoding="utf-8") as f:
                    f.write(text)
                programs.append((out, expect))

    accept_total = accept_ok = reject_total = reject_ok = 0
    hist = collections.Counter()
    listed = []
    for out, expect_reject in programs:
        proc = subprocess.run(
            [args.plc, "check", "--message-format", "json", out],
            capture_output=True,
            text=True,
        )
        err = first_error(proc.stdout)
        if proc.returncode not in (0, 1) and err is None:
            err = {"code": "CRASH", "message": proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "exit"}
        if expect_reject:
            reject_total += 1
            reject_ok += err is not None
        else:
            accept_total += 1
            if err is None:
                accept_ok += 1
            else:
                key = histogram_key(err)
                hist[key] += 1
                if args.list_key and key.startswith(args.list_key):
                    listed.append(f"{out}:{err['span']['line'] if 'span' in err else 0}: {err['message']}")

    def pct(a, b):
        return f"{100.0 * a / b:.1f} %" if b else "n/a"

    print(f"programs: {len(programs)} ({unresolved} unresolved, {unparsable} files not parsed)")
    print(f"accepted: {accept_ok} of {accept_total} PyPTO accepts ({pct(accept_ok, accept_total)})")
    print(f"rejected: {reject_ok} of {reject_total} PyPTO rejects ({pct(reject_ok, reject_total)})")
    print(f"\nfirst error of the {accept_total - accept_ok} false rejects:")
    for key, count in hist.most_common(args.top):
        print(f"{count:6d}  {key}")
    for line in listed:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
