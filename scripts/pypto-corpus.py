#!/usr/bin/env python3
"""Measure how much of a folder of PyPTO-style test files plc accepts.

Usage:
    scripts/pypto-corpus.py TESTS_DIR [--out DIR] [--plc PATH] [--top N] [--list KEY]

TESTS_DIR holds Python test files that build pl programs the way PyPTO's unit tests do
(see docs/testing.md for how to get such a folder; none is kept in this repository).
For each file the script reads the syntax tree (Python's `ast`, nothing is executed) and
writes every program it finds to a file of its own under --out (default
/tmp/pypto-corpus):

- a class decorated with `pl.program` (`@pl.program`, `@pl.program(...)`),
- a function decorated with `pl.function` or `pl.inline` outside such a class,
- a string constant holding a whole program (`@pl.program` or `@pl.function` text given to
  `pl.parse_program` and friends), dedented; PyPTO rejects it when the string is written
  inside `with pytest.raises(...)` or assigned to a name such a block reads.

A program's file starts with the module's imports, then the module-level assignments and
the assignments of the enclosing test functions (before the program) that the program
names, directly or through another such assignment, then the program. A test's
`@pytest.mark.parametrize` values bind its parameters: the program is written once per
value (at most 8 combinations). A program that names a parameter of an enclosing function
that nothing binds (a helper's argument) is counted as "unresolved" and not run.

A program inside `with pytest.raises(...)` is one PyPTO rejects; every other one PyPTO
accepts. Each file is checked with `plc check --message-format json`; a program is
accepted when no diagnostic has severity error. The script prints:

- accepted of the programs PyPTO accepts, rejected of the programs PyPTO rejects,
- a histogram of the first error of each false reject (code and the first words of the
  message, numbers replaced by N), most frequent first,
- with --list KEY, the files whose first error starts with KEY (a code or a message
  prefix), to look at one cause.
"""

import argparse
import ast
import collections
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


def decorator_name(dec):
    if isinstance(dec, ast.Call):
        dec = dec.func
    return dotted(dec) or ""


def is_program_class(node):
    return isinstance(node, ast.ClassDef) and any(
        decorator_name(d) == "pl.program" for d in node.decorator_list
    )


def is_pl_function(node):
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
        decorator_name(d) in ("pl.function", "pl.inline") for d in node.decorator_list
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


class Definitions:
    """Assignments visible at a point: (names, source) in source order."""

    def __init__(self, entries=()):
        self.entries = list(entries)

    def extended(self, stmts, source):
        entries = list(self.entries)
        for stmt in stmts:
            names = assigned_names(stmt)
            if names and simple_value(stmt):
                entries.append((set(names), ast.get_source_segment(source, stmt)))
        return Definitions(entries)

    def needed_by(self, names):
        """The assignments that `names` need, transitively, in source order."""
        wanted = set(names)
        chosen = []
        for names_bound, text in reversed(self.entries):
            if names_bound & wanted:
                chosen.append(text)
                wanted -= names_bound
                wanted |= loaded_names(ast.parse(textwrap.dedent(text)))
        return list(reversed(chosen))


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
    def __init__(self, path):
        self.path = path
        with open(path, encoding="utf-8") as f:
            self.source = f.read()
        self.tree = ast.parse(self.source)
        self.imports = [
            ast.get_source_segment(self.source, s)
            for s in self.tree.body
            if isinstance(s, (ast.Import, ast.ImportFrom))
        ]
        self.programs = []  # (name, text, expect_reject) or (name, None, reason)
        self.raises_reads = {}  # test scope -> names read inside its pytest.raises blocks

    def run(self):
        module_defs = Definitions().extended(
            [s for s in self.tree.body if not isinstance(s, (ast.Import, ast.ImportFrom))],
            self.source,
        )
        self.visit_block(self.tree.body, module_defs, [], False, [])
        return self.programs

    def visit_block(self, stmts, defs, bindings, raises, scope):
        for i, stmt in enumerate(stmts):
            local = defs.extended(stmts[:i], self.source) if scope else defs
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
            for combo in parametrize_bindings(node, self.source):
                frame = (node.name, params, combo)
                self.visit_block(node.body, defs, bindings + [frame], raises, scope + [node.name])
            return
        if isinstance(node, ast.ClassDef):
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
        name = ".".join(scope + [node.name])
        body = textwrap.dedent(ast.get_source_segment(self.source, node, padded=True))
        decorators = "".join(
            "@" + ast.get_source_segment(self.source, d) + "\n" for d in node.decorator_list
        )
        text_of_node = decorators + body
        used = loaded_names(node)
        bound = {}
        for _, _, combo in bindings:
            bound.update(combo)
        free_params = set()
        for _, params, _ in bindings:
            free_params |= params
        lines = []
        for pname in sorted(used & set(bound)):
            lines.append(f"{pname} = {bound[pname]}")
        needed = defs.needed_by(used - set(bound))
        defined = set()
        for text in needed:
            defined |= set(assigned_names(ast.parse(textwrap.dedent(text)).body[0]))
        unresolved = (used & free_params) - set(bound) - defined
        if unresolved:
            self.programs.append((name, None, "unresolved " + ", ".join(sorted(unresolved))))
            return
        parts = ["\n".join(self.imports), "\n".join(lines + [textwrap.dedent(t) for t in needed])]
        text = "\n\n".join(p for p in parts if p) + "\n\n\n" + text_of_node + "\n"
        self.programs.append((name, text, raises))


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
    args = ap.parse_args()

    os.makedirs(args.out, exist_ok=True)
    for old in os.listdir(args.out):
        if old.endswith(".py"):
            os.remove(os.path.join(args.out, old))

    programs = []  # (file, expect_reject)
    unresolved = 0
    unparsable = 0
    for root, _, files in sorted(os.walk(args.tests_dir)):
        for fname in sorted(files):
            if not fname.endswith(".py"):
                continue
            path = os.path.join(root, fname)
            try:
                found = Extractor(path).run()
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
