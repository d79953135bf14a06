#!/usr/bin/env python3
"""The file-level import graph of a Rust crate, and its cycles.

    tools/module_graph.py CRATE_SRC                 # every file and the files it imports
    tools/module_graph.py CRATE_SRC --mermaid       # the same as a Mermaid flowchart (for docs)
    tools/module_graph.py CRATE_SRC --check         # exit 1 listing every cycle, 0 when there is none
    tools/module_graph.py CRATE_SRC --depth 1 ...   # modules folded to their first N path segments

CRATE_SRC is a crate's `src/` directory (with `lib.rs` or `main.rs`). The module tree
comes from the `mod` declarations, starting at the crate root. A file imports another
when it names one of the other file's items: a `use crate::…`, `use super::…`,
`use self::…` or `use child::…` leaf, a `crate::x::y` / `super::x` / `child::x` path in
code, or a name brought in by a glob import. A `mod` declaration places a file in the
tree and is no edge by itself. Paths are followed through re-exports (`pub use`) to the
file that defines the item, so `use crate::Error` is an edge to `error.rs`, not to
`lib.rs`; a `#[macro_export]` macro belongs to the file that defines it.

Test code (`#[cfg(test)]` items and modules) is left out unless `--tests` is given.

The resolution is syntactic: names a macro generates, and macros used by textual
scope, are invisible; an unknown name in a known module counts as that module's item.

`--check` lists each strongly connected component of more than one file, the edges
inside it with the names that make them, and a shortest cycle through each such edge,
so every edge that closes a cycle is shown once.
"""

from __future__ import annotations

import argparse
import re
import signal
import sys
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

# ---------------------------------------------------------------------------
# Tokens


_PUNCT2 = ("::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "..")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def tokenize(src: str) -> list[str]:
    """Identifiers, `::` and single punctuation characters; comments, string,
    char and number literals dropped (a literal becomes the token `"`)."""
    out: list[str] = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c.isspace():
            i += 1
        elif src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if src.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif src.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == '"' or (c in "br" and _raw_or_byte_string(src, i)):
            i = _skip_string(src, i)
            out.append('"')
        elif c == "'":
            i = _skip_char_or_lifetime(src, i, out)
        elif c.isdigit():
            m = re.compile(r"[0-9][0-9A-Za-z_]*(\.[0-9][0-9A-Za-z_]*)?").match(src, i)
            i = m.end()
            out.append('"')
        elif c.isalpha() or c == "_":
            m = _IDENT.match(src, i)
            word = m.group()
            i = m.end()
            if word == "r" and src.startswith("#", i) and _IDENT.match(src, i + 1):
                m = _IDENT.match(src, i + 1)  # raw identifier r#name
                word, i = m.group(), m.end()
            out.append(word)
        else:
            two = src[i : i + 2]
            if two in _PUNCT2:
                out.append(two)
                i += 2
            else:
                out.append(c)
                i += 1
    return out


def _raw_or_byte_string(src: str, i: int) -> bool:
    m = re.compile(r'(br|b|r)(#*)"').match(src, i)
    return m is not None and (m.group(1) != "b" or not m.group(2)) and not _ident_before(src, i)


def _ident_before(src: str, i: int) -> bool:
    return i > 0 and (src[i - 1].isalnum() or src[i - 1] == "_")


def _skip_string(src: str, i: int) -> int:
    m = re.compile(r'(br|b|r)?(#*)"').match(src, i)
    raw = m.group(1) in ("r", "br")
    hashes = m.group(2)
    i = m.end()
    if raw:
        end = src.find('"' + hashes, i)
        return len(src) if end < 0 else end + 1 + len(hashes)
    while i < len(src):
        if src[i] == "\\":
            i += 2
        elif src[i] == '"':
            return i + 1
        else:
            i += 1
    return i


def _skip_char_or_lifetime(src: str, i: int, out: list[str]) -> int:
    m = re.compile(r"'(\\(x[0-9A-Fa-f]{2}|u\{[0-9A-Fa-f]*\}|.)|[^\\'])'", re.S).match(src, i)
    if m:
        out.append('"')
        return m.end()
    m = _IDENT.match(src, i + 1)
    return m.end() if m else i + 1  # a lifetime or label: dropped


# ---------------------------------------------------------------------------
# Modules


@dataclass
class Module:
    """One module: a file or an inline `mod x { … }` inside one."""

    path: tuple[str, ...]
    file: Path
    dir: Path  # where `mod x;` inside this module looks for x.rs / x/mod.rs
    children: dict[str, "Module"] = field(default_factory=dict)
    items: dict[str, Path] = field(default_factory=dict)  # name -> defining file
    uses: dict[str, tuple[str, ...]] = field(default_factory=dict)  # name -> absolute path
    globs: list[tuple[str, ...]] = field(default_factory=list)
    # (absolute path, name bound or None, re-exported) of every use leaf, for edges
    use_leaves: list[tuple[tuple[str, ...], str | None, bool]] = field(default_factory=list)
    code_paths: list[list[str]] = field(default_factory=list)  # paths written in code
    idents: set[str] = field(default_factory=set)  # every identifier used in code
    calls: set[str] = field(default_factory=set)  # those called, or heading a path or macro


_ITEM_KEYWORDS = {"fn", "struct", "enum", "trait", "type", "const", "static", "union"}


class Crate:
    """A crate's module tree, built from its root file."""

    def __init__(self, src: Path, tests: bool):
        self.tests = tests
        root = src / "lib.rs"
        if not root.exists():
            root = src / "main.rs"
        if not root.exists():
            raise SystemExit(f"module_graph: no lib.rs or main.rs in {src}")
        self.root = Module(path=(), file=root, dir=src)
        self.modules: list[Module] = []
        self._load_file(self.root)

    # -- building ----------------------------------------------------------

    def _load_file(self, module: Module) -> None:
        tokens = tokenize(module.file.read_text(encoding="utf-8"))
        self._walk(tokens, 0, module)

    def _child_file(self, parent: Module, name: str) -> tuple[Path, Path] | None:
        for file, subdir in (
            (parent.dir / f"{name}.rs", parent.dir / name),
            (parent.dir / name / "mod.rs", parent.dir / name),
        ):
            if file.exists():
                return file, subdir
        return None

    def _walk(self, toks: list[str], i: int, module: Module) -> int:
        """Reads the items of `module` from toks[i:] up to its closing brace
        (or the end of the file); returns the index after it."""
        if module not in self.modules:
            self.modules.append(module)
        depth = 0  # braces inside items (fn bodies, impls) of this module
        n = len(toks)
        macro_export = False
        while i < n:
            t = toks[i]
            if t == "#":
                attr, j = _attribute(toks, i)
                if attr is None:
                    i += 1
                    continue
                if attr == ["cfg", "(", "test", ")"] and not self.tests:
                    i = _skip_item(toks, j)
                    continue
                if attr == ["macro_export"]:
                    macro_export = True
                i = j
                continue
            if t == "{":
                depth += 1
            elif t == "}":
                if depth == 0:
                    return i + 1
                depth -= 1
            elif t == "use" and (i == 0 or toks[i - 1] != "."):
                i = self._use(toks, i + 1, module, _is_pub(toks, i))
                continue
            elif t == "mod" and depth == 0 and i + 2 < n and _IDENT.fullmatch(toks[i + 1]):
                name = toks[i + 1]
                if toks[i + 2] == ";":
                    found = self._child_file(module, name)
                    if found:
                        child = Module(path=module.path + (name,), file=found[0], dir=found[1])
                        module.children[name] = child
                        self._load_file(child)
                    i += 3
                    continue
                if toks[i + 2] == "{":
                    child = Module(
                        path=module.path + (name,), file=module.file, dir=module.dir / name
                    )
                    module.children[name] = child
                    i = self._walk(toks, i + 3, child)
                    continue
            elif t == "macro_rules" and i + 2 < n and toks[i + 1] == "!":
                name = toks[i + 2]
                target = self.root if macro_export else module
                target.items.setdefault(name, module.file)
                module.items.setdefault(name, module.file)
                macro_export = False
                i += 3
                continue
            elif t in _ITEM_KEYWORDS and depth == 0 and i + 1 < n and _IDENT.fullmatch(toks[i + 1]):
                if not (t == "type" and i > 0 and toks[i - 1] == "::"):
                    module.items.setdefault(toks[i + 1], module.file)
            elif t in ("crate", "super", "self") or (
                _IDENT.fullmatch(t) and i + 1 < n and toks[i + 1] == "::"
            ):
                if i == 0 or toks[i - 1] not in ("::", "."):
                    path, i = _code_path(toks, i)
                    if len(path) > 1 or path[0] not in ("crate", "super", "self"):
                        module.code_paths.append(path)
                    module.idents.update(path[:1])
                    module.calls.update(path[:1])
                    continue
            if _IDENT.fullmatch(t):
                module.idents.add(t)
                if i + 1 < n and toks[i + 1] in ("(", "!"):
                    module.calls.add(t)
            macro_export = False
            i += 1
        return i

    def _use(self, toks: list[str], i: int, module: Module, public: bool) -> int:
        """Reads a use tree up to `;`; records its leaves in `module`."""
        leaves: list[tuple[list[str], str | None]] = []

        def tree(i: int, prefix: list[str]) -> int:
            path = list(prefix)
            while i < len(toks):
                t = toks[i]
                if t == "::":
                    i += 1
                elif t == "{":
                    i += 1
                    while toks[i] != "}":
                        i = tree(i, path)
                        if toks[i] == ",":
                            i += 1
                    return i + 1
                elif t == "*":
                    leaves.append((path, "*"))
                    return i + 1
                elif t in (",", "}", ";"):
                    if path != prefix:
                        if path[-1] == "self":
                            path = path[:-1]
                        leaves.append((path, path[-1] if path else None))
                    return i
                elif t == "as":
                    alias = toks[i + 1]
                    if path[-1] == "self":
                        path = path[:-1]
                    leaves.append((path, None if alias == "_" else alias))
                    return i + 2
                else:
                    path.append(t)
                    i += 1
            return i

        end = tree(i, [])
        while end < len(toks) and toks[end] != ";":
            end += 1
        for path, name in leaves:
            absolute = self._absolute(path, module)
            if absolute is None:
                continue
            if name == "*":
                module.globs.append(absolute)
            else:
                if name is not None:
                    module.uses[name] = absolute
                module.use_leaves.append((absolute, name, public))
        return end + 1

    def _absolute(self, path: list[str], module: Module) -> tuple[str, ...] | None:
        """The crate-absolute form of a path written in `module` (None: another crate)."""
        if not path:
            return None
        head = path[0]
        if head in ("crate", "$crate"):
            return tuple(path[1:])
        if head == "self":
            return module.path + tuple(path[1:])
        if head == "super":
            base = list(module.path)
            rest = list(path)
            while rest and rest[0] == "super":
                base = base[:-1]
                rest = rest[1:]
            return tuple(base) + tuple(rest)
        if head in module.children or head in module.items:
            return module.path + tuple(path)
        if head in module.uses:
            return module.uses[head] + tuple(path[1:])
        return None

    # -- resolving ---------------------------------------------------------

    def module_at(self, path: tuple[str, ...]) -> Module | None:
        m = self.root
        for s in path:
            m = m.children.get(s)
            if m is None:
                return None
        return m

    def resolve(self, path: tuple[str, ...], seen: frozenset = frozenset()) -> tuple[Path, bool] | None:
        """The file defining what a crate-absolute path names, and whether
        it names a module; None when it leaves the crate."""
        if path in seen:
            return None
        seen = seen | {path}
        m = self.root
        for k, s in enumerate(path):
            if s in m.children:
                m = m.children[s]
                continue
            if s in m.items:
                return m.items[s], False
            if s in m.uses:
                return self.resolve(m.uses[s] + path[k + 1 :], seen)
            for g in m.globs:
                gm = self.module_at(g)
                if gm is not None and (s in gm.items or s in gm.uses or s in gm.children):
                    return self.resolve(g + path[k:], seen)
            return m.file, False
        return m.file, True

    def edges(self) -> dict[Path, dict[Path, set[str]]]:
        """file -> imported file -> the names that make the edge."""
        graph: dict[Path, dict[Path, set[str]]] = {}
        for m in self.modules:
            graph.setdefault(m.file, {})
        for m in self.modules:
            out = graph[m.file]

            def add(path: tuple[str, ...], label: str) -> bool:
                found = self.resolve(path)
                if found is None:
                    return False
                target, _ = found
                if target != m.file:
                    out.setdefault(target, set()).add(label)
                return True

            module_bindings: set[str] = set()
            for path, name, public in m.use_leaves:
                found = self.resolve(path)
                if found is None or (public and name not in m.idents):
                    continue  # another crate's, or only passed on (a re-export)
                target, is_module = found
                if is_module and name is not None and name in m.idents:
                    module_bindings.add(name)  # edges come from the paths through it
                elif target != m.file:
                    out.setdefault(target, set()).add(path[-1] if path else "crate")
            for p in m.code_paths:
                absolute = self._absolute(p, m)
                if absolute is None:
                    continue
                if p[0] in m.uses and p[0] not in module_bindings:
                    continue  # an item import: its use leaf made the edge
                label = "::".join(p[1:] if p[0] in ("crate", "super", "self") else p)
                add(absolute, label or p[0])
            for g in m.globs:
                gm = self.module_at(g)
                if gm is None:
                    continue
                names = set(gm.items) | set(gm.uses) | set(gm.children)
                for name in sorted(names & m.idents):
                    # a lower-case name (function, module, macro) counts where it is
                    # called or heads a path: elsewhere it is likely a local variable
                    if name[0].isupper() or name in m.calls:
                        add(g + (name,), name)
        return graph


def _attribute(toks: list[str], i: int) -> tuple[list[str] | None, int]:
    """`#[...]` or `#![...]` at toks[i]: its inner tokens and the index after it."""
    j = i + 1
    if j < len(toks) and toks[j] == "!":
        j += 1
    if j >= len(toks) or toks[j] != "[":
        return None, i + 1
    depth, k = 0, j
    while k < len(toks):
        if toks[k] == "[":
            depth += 1
        elif toks[k] == "]":
            depth -= 1
            if depth == 0:
                return toks[j + 1 : k], k + 1
        k += 1
    return toks[j + 1 :], k


def _is_pub(toks: list[str], i: int) -> bool:
    """Whether the item keyword at toks[i] has a `pub` or `pub(…)` before it."""
    j = i - 1
    if j >= 0 and toks[j] == ")":
        while j >= 0 and toks[j] != "(":
            j -= 1
        j -= 1
    return j >= 0 and toks[j] == "pub"


def _skip_item(toks: list[str], i: int) -> int:
    """The index after the item starting at toks[i] (its attributes included)."""
    while i < len(toks) and toks[i] == "#":
        _, i = _attribute(toks, i)
    depth = 0
    while i < len(toks):
        t = toks[i]
        if t in "{([":
            depth += 1
        elif t in "})]":
            depth -= 1
            if depth == 0 and t == "}":
                return i + 1
        elif t == ";" and depth == 0:
            return i + 1
        i += 1
    return i


def _code_path(toks: list[str], i: int) -> tuple[list[str], int]:
    """A path `a::b::c` in code starting at toks[i]; stops before `::<` and `::{`."""
    path = [toks[i]]
    i += 1
    while i + 1 < len(toks) and toks[i] == "::" and _IDENT.fullmatch(toks[i + 1]):
        path.append(toks[i + 1])
        i += 2
    return path, i


# ---------------------------------------------------------------------------
# Graph algorithms and printing


def fold(graph: dict[str, dict[str, set[str]]], depth: int) -> dict[str, dict[str, set[str]]]:
    """Nodes merged to their first `depth` module path segments."""

    def key(node: str) -> str:
        return "::".join(node.split("::")[:depth]) if node != "crate" else node

    out: dict[str, dict[str, set[str]]] = {}
    for a, targets in graph.items():
        ka = key(a)
        out.setdefault(ka, {})
        for b, labels in targets.items():
            kb = key(b)
            if kb != ka:
                out[ka].setdefault(kb, set()).update(labels)
    return out


def sccs(graph: dict[str, dict[str, set[str]]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    result: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                result.append(sorted(comp))
    return sorted(result)


def shortest_path(graph: dict[str, dict[str, set[str]]], src: str, dst: str, within: set[str]):
    """A shortest path src -> dst using only nodes in `within` (BFS)."""
    prev: dict[str, str | None] = {src: None}
    queue = deque([src])
    while queue:
        node = queue.popleft()
        if node == dst:
            path = [node]
            while prev[path[-1]] is not None:
                path.append(prev[path[-1]])
            return path[::-1]
        for nxt in sorted(graph[node]):
            if nxt in within and nxt not in prev:
                prev[nxt] = node
                queue.append(nxt)
    return None


def cycles(graph: dict[str, dict[str, set[str]]], comp: list[str]) -> list[list[str]]:
    """A shortest cycle through every edge inside `comp`, without repeats."""
    within = set(comp)
    seen: set[tuple[str, ...]] = set()
    out = []
    for a in comp:
        for b in sorted(graph[a]):
            if b not in within:
                continue
            back = shortest_path(graph, b, a, within)
            cyc = [a] + back[:-1]
            k = cyc.index(min(cyc))
            canon = tuple(cyc[k:] + cyc[:k])
            if canon not in seen:
                seen.add(canon)
                out.append(list(canon))
    return sorted(out, key=lambda c: (len(c), c))


def mermaid(graph: dict[str, dict[str, set[str]]], comps: list[list[str]]) -> str:
    # (a module with no edge, such as a lib.rs that only declares and
    # re-exports its children, is left out of the drawing)
    drawn = {a for a, t in graph.items() if t} | {b for t in graph.values() for b in t}
    ids = {node: f"n{k}" for k, node in enumerate(sorted(drawn))}
    lines = ["flowchart LR"]
    for node in sorted(drawn):
        lines.append(f'    {ids[node]}["{node}"]')
    in_cycle = {n for c in comps if len(c) > 1 for n in c}
    for a in sorted(graph):
        for b in sorted(graph[a]):
            lines.append(f"    {ids[a]} --> {ids[b]}")
    if in_cycle:
        lines.append("    classDef cycle stroke:#c00,stroke-width:2px")
        lines.append("    class " + ",".join(ids[n] for n in sorted(in_cycle)) + " cycle")
    return "\n".join(lines)


def reduce(graph: dict[str, dict[str, set[str]]]) -> dict[str, dict[str, set[str]]]:
    """Transitive reduction of an acyclic graph: drops an edge a -> b when b
    is also reached from a through another module (the layers stay readable
    in a drawing; the reachability is the same)."""

    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in graph.get(todo.pop(), {}):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    below = {b: reach(b) for t in graph.values() for b in t}
    return {
        a: {b: ls for b, ls in t.items() if not any(b in below[c] for c in t if c != b)}
        for a, t in graph.items()
    }


def labels(names: set[str], limit: int = 6) -> str:
    shown = sorted(names)
    more = len(shown) - limit
    return ", ".join(shown[:limit]) + (f", … (+{more})" if more > 0 else "")


def main() -> int:
    ap = argparse.ArgumentParser(
        description="File-level import graph of a Rust crate (see the module docstring).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__,
    )
    ap.add_argument("src", type=Path, help="the crate's src/ directory")
    ap.add_argument("--check", action="store_true", help="exit 1 listing every cycle")
    ap.add_argument("--mermaid", action="store_true", help="print a Mermaid flowchart")
    ap.add_argument("--depth", type=int, help="fold modules to their first N path segments")
    ap.add_argument("--reduce", action="store_true", help="drop edges implied by others (acyclic only)")
    ap.add_argument("--tests", action="store_true", help="include #[cfg(test)] code")
    args = ap.parse_args()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under `| head`

    crate = Crate(args.src, tests=args.tests)
    src = args.src.resolve()
    raw = crate.edges()

    def name(file: Path) -> str:
        return file.resolve().relative_to(src).as_posix()

    if args.depth is not None:
        mod_name: dict[Path, str] = {}
        for m in crate.modules:  # a file's own module comes before its inline ones
            mod_name.setdefault(m.file, "::".join(m.path) or "crate")
        graph = {
            mod_name[a]: {mod_name[b]: ls for b, ls in t.items()} for a, t in raw.items()
        }
        graph = fold(graph, args.depth)
    else:
        graph = {name(a): {name(b): ls for b, ls in t.items()} for a, t in raw.items()}

    comps = [c for c in sccs(graph) if len(c) > 1]
    if args.reduce:
        if comps:
            print(f"{args.src}: --reduce needs an acyclic graph (see --check)", file=sys.stderr)
            return 1
        graph = reduce(graph)
    if args.mermaid:
        print(mermaid(graph, comps))
    elif not args.check:
        for a in sorted(graph):
            print(a)
            for b in sorted(graph[a]):
                print(f"    -> {b}  ({labels(graph[a][b])})")
    if not args.check:
        return 0
    if not comps:
        print(f"{args.src}: no cycle among {len(graph)} modules")
        return 0
    print(f"{args.src}: {len(comps)} cycle(s) among {len(graph)} modules")
    for k, comp in enumerate(comps, 1):
        print(f"\ncomponent {k}: {len(comp)} modules import each other")
        for node in comp:
            print(f"    {node}")
        print("  edges inside it:")
        for a in comp:
            for b in sorted(graph[a]):
                if b in comp:
                    print(f"    {a} -> {b}  ({labels(graph[a][b])})")
        print("  cycles (a shortest one through each edge):")
        for cyc in cycles(graph, comp):
            print("    " + " -> ".join(cyc + [cyc[0]]))
    return 1


if __name__ == "__main__":
    sys.exit(main())
