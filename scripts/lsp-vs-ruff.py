#!/usr/bin/env python3
"""Drives `plc lsp` and `ruff server` with the same edits, interleaved, and prints how long
each takes to publish the diagnostics of an edit (median, p95, and plc's over ruff's).

    python3 scripts/lsp-vs-ruff.py [--plc target/release/plc] [--ruff ruff] [--lines 5000 20000]
                                   [--baseline path/to/an/older/plc]

For each size, the same generated file (benches/support/generate.rs's `program`, written
by `cargo run --example gen -- --lines L`) is opened in both servers; then:
- open: didOpen until its diagnostics are published;
- edit: a one-character ranged change inside a function in the middle of the file, each
  waiting for the diagnostics of its version (plc and ruff take turns);
- hover / definition / symbols (plc): the time of each answer;
- hover after edit (plc): a hover sent as soon as an edit's diagnostics are published;
- burst: a key every 100 ms (20 keys), and when the last key's diagnostics come, against
  the edit time of one version alone (plc's target: within 100 ms of it).

With `--baseline`, an older plc takes its turns too (before/after in one run). All the
servers get the same client (push diagnostics, UTF-16, incremental sync). Other work
on the machine makes absolute times noisy: compare the ratios, measured in one run.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import queue


def program(lines):
    """benches/support/generate.rs's `program(lines)`, written by the `gen` example, and the
    number of its `layer_<i>` functions."""
    here = os.path.dirname(os.path.abspath(__file__))
    text = subprocess.run(
        ["cargo", "run", "--release", "--quiet", "--example", "gen", "--", "--lines", str(lines)],
        cwd=os.path.join(here, ".."), check=True, capture_output=True, text=True,
    ).stdout
    return text, text.count("\ndef layer_")


class Server:
    """A language server over stdio, with a reader thread that queues what it sends."""

    def __init__(self, name, command, root):
        self.name = name
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.messages = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        root_uri = "file://" + root
        self.request("initialize", {
            "processId": os.getpid(), "rootUri": root_uri,
            "workspaceFolders": [{"uri": root_uri, "name": "bench"}],
            "capabilities": {
                "general": {"positionEncodings": ["utf-16"]},
                "textDocument": {"synchronization": {"didSave": False},
                                 "publishDiagnostics": {"versionSupport": True}},
            },
        })
        self.notify("initialized", {})

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = out.read(length)
            # When the whole message has come (the client's decoding is not the server's time).
            self.messages.put((time.perf_counter(), json.loads(body)))

    def send(self, message):
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        self.next_id += 1
        rid = self.next_id
        started = time.perf_counter()
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            at, m = self.messages.get(timeout=120)
            if m.get("id") == rid and "method" not in m:
                return at - started, m
            if "method" in m and "id" in m:  # a request of the server's: answer it
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})

    def wait_diagnostics(self, uri, version):
        """Waits for the publication of `version` (or a later one) for `uri`."""
        while True:
            at, m = self.messages.get(timeout=300)
            if "method" in m and "id" in m:
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri:
                v = m["params"].get("version")
                if v is None or v >= version:
                    return at

    def stop(self):
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def stats(xs):
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]
    return statistics.median(xs), p95


def ms(x):
    return f"{x * 1000:8.1f}"


def ruff_binary():
    """ruff's own binary, as PyPI's package locates it, rather than a version manager's shim
    on PATH (pyenv's runs a bash script before ruff; it would delay the server's start)."""
    try:
        from ruff.__main__ import find_ruff_bin

        return find_ruff_bin()
    except Exception:
        return "ruff"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--plc", default=os.path.join(here, "..", "target", "release", "plc"))
    parser.add_argument("--ruff", default=ruff_binary(), help="ruff's own binary (default: PyPI's package's, not a shim)")
    parser.add_argument("--lines", type=int, nargs="+", default=[5000, 20000])
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--keys", type=int, default=20)
    parser.add_argument("--baseline", help="another plc binary to measure in the same run")
    args = parser.parse_args()

    root = os.path.realpath(tempfile.mkdtemp(prefix="plc-lsp-bench-"))
    for lines in args.lines:
        text, functions = program(lines)
        docs = {}
        servers = {"plc": Server("plc", [args.plc, "lsp"], root)}
        if args.baseline:
            servers["baseline"] = Server("baseline", [args.baseline, "lsp"], root)
        servers["ruff"] = Server("ruff", [args.ruff, "server"], root)
        for name in servers:
            path = os.path.join(root, f"bench{lines}.{'py' if name == 'ruff' else 'pl'}")
            with open(path, "w") as f:
                f.write(text)
            docs[name] = "file://" + path
        # The line of `% 7` in the middle function: its digit is what the edits change.
        mid = functions // 2
        line = text.splitlines().index(f"            base = step * ROWS + {mid} % 7")
        col = len(f"            base = step * ROWS + {mid} % ")
        times = {name: {"open": [], "edit": [], "burst": [], "hover": [], "hover after edit": [], "definition": [],
                        "symbols": []}
                 for name in servers}
        version = {name: 1 for name in servers}
        for name, s in servers.items():
            started = time.perf_counter()
            s.notify("textDocument/didOpen", {"textDocument": {"uri": docs[name], "languageId": "python",
                                                               "version": 1, "text": text}})
            times[name]["open"].append(s.wait_diagnostics(docs[name], 1) - started)

        def edit(name, digit):
            s = servers[name]
            version[name] += 1
            change = {"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col + 1}},
                      "text": digit}
            s.notify("textDocument/didChange", {"textDocument": {"uri": docs[name], "version": version[name]},
                                                "contentChanges": [change]})
            return time.perf_counter()

        for i in range(args.edits):
            for name in servers:  # interleaved: plc, ruff, plc, ruff, ...
                sent = edit(name, "8" if i % 2 == 0 else "7")
                times[name]["edit"].append(servers[name].wait_diagnostics(docs[name], version[name]) - sent)
        # Requests (plc): hover on a region name, definition of `ROWS`, the outline.
        region_line = text.splitlines().index(f'        with pl.graph("band_{mid}"):')
        plcs = [name for name in servers if name != "ruff"]
        for _ in range(args.edits):
            for name in plcs:
                s, doc = servers[name], {"uri": docs[name]}
                pos = {"textDocument": doc, "position": {"line": region_line, "character": 24}}
                times[name]["hover"].append(s.request("textDocument/hover", pos)[0])
                pos = {"textDocument": doc, "position": {"line": line, "character": 26}}
                times[name]["definition"].append(s.request("textDocument/definition", pos)[0])
                times[name]["symbols"].append(s.request("textDocument/documentSymbol", {"textDocument": doc})[0])
        # A hover right after each edit's diagnostics: the first question about a new text.
        for i in range(args.edits):
            for name in plcs:
                s, doc = servers[name], {"uri": docs[name]}
                edit(name, "8" if i % 2 == 0 else "7")
                s.wait_diagnostics(docs[name], version[name])
                pos = {"textDocument": doc, "position": {"line": region_line, "character": 24}}
                times[name]["hover after edit"].append(s.request("textDocument/hover", pos)[0])
        # Bursts: a key every 100 ms; when do the last key's diagnostics come?
        for _ in range(3):
            for name in servers:
                for k in range(args.keys):
                    sent = edit(name, "8" if k % 2 == 0 else "7")
                    if k + 1 < args.keys:
                        time.sleep(0.1)
                times[name]["burst"].append(servers[name].wait_diagnostics(docs[name], version[name]) - sent)
        for s in servers.values():
            s.stop()

        print(f"\n{lines} lines ({len(text.encode())} bytes), {args.edits} edits each, times in ms")
        print(f"{'':22} {'median':>8} {'p95':>8} {'÷ruff med':>9} {'÷ruff p95':>9}")
        for what in ("open", "edit", "burst"):
            rm, rp = stats(times["ruff"][what])
            for name in servers:
                m, p = stats(times[name][what])
                print(f"{what + ' ' + name:22} {ms(m)} {ms(p)} {m / rm:9.2f} {p / rp:9.2f}")
        for what in ("hover", "hover after edit", "definition", "symbols"):
            for name in plcs:
                m, p = stats(times[name][what])
                print(f"{what + ' ' + name:26} {ms(m)} {ms(p)}")
        for name in plcs:
            edit_med = stats(times[name]["edit"])[0]
            burst_med = stats(times[name]["burst"])[0]
            print(f"burst {name}: the last key's diagnostics {ms(burst_med - edit_med).strip()} ms after one edit alone")


if __name__ == "__main__":
    sys.exit(main())
