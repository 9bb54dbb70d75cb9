"""The server's wing holds together (issue 33): no import circle among ``kawuxing.server``'s
modules at run time (imports under ``TYPE_CHECKING`` are for annotations only), and the room is
the one module there that applies an action to the hand (``Hand.apply``), stores it
(``Store.add_action``), sends the seats their update (``broadcast``) and ends the match
(``finish``): pacing decides when and what, and asks the room (``Room.play``, ``answer_for``,
``tell``)."""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parents[1] / "src" / "kawuxing" / "server"


def module_name(path: Path) -> str:
    parts = path.relative_to(SERVER.parents[1]).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def runtime_imports(tree: ast.AST) -> list[ast.ImportFrom]:
    """The ``from … import …`` statements outside ``if TYPE_CHECKING:`` blocks."""
    found: list[ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.ImportFrom):
                found.append(child)
            visit(child)

    visit(tree)
    return found


def import_graph() -> dict[str, set[str]]:
    """Each server module -> the server modules it imports at run time."""
    paths = {module_name(p): p for p in SERVER.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in paths}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in runtime_imports(ast.parse(path.read_text("utf-8"))):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            subs = {f"{target}.{a.name}" for a in node.names} & paths.keys()
            graph[name] |= (subs or ({target} & paths.keys())) - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def test_no_import_circle_among_the_server_modules():
    graph = import_graph()
    assert len(graph) > 20 and graph["kawuxing.server.room"]  # the walk found the wing
    assert cycles(graph) == []
    # the check finds a circle where there is one
    graph["kawuxing.server.protocol"].add("kawuxing.server.room")
    assert any("kawuxing.server.room" in c and "kawuxing.server.protocol" in c
               for c in cycles(graph))


def test_the_room_alone_applies_actions_to_the_hand():
    callers = sorted(module_name(p) for p in SERVER.rglob("*.py")
                     if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                            and n.func.attr == "apply" and "hand" in ast.unparse(n.func.value)
                            for n in ast.walk(ast.parse(p.read_text("utf-8")))))
    assert callers == ["kawuxing.server.room"]


def callers(method: str, skip: str = "") -> list[str]:
    """The server modules that call ``<something>.<method>(…)`` (receivers containing
    ``skip`` left out)."""
    def calls(path: Path) -> bool:
        return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                   and n.func.attr == method
                   and not (skip and skip in ast.unparse(n.func.value))
                   for n in ast.walk(ast.parse(path.read_text("utf-8"))))
    return sorted(module_name(p) for p in SERVER.rglob("*.py") if calls(p))


def test_the_room_alone_stores_actions_tells_the_seats_and_ends_the_match():
    assert callers("add_action") == ["kawuxing.server.room"]
    assert callers("broadcast", skip="bus") == ["kawuxing.server.room"]  # (the cluster's bus
    assert callers("finish") == ["kawuxing.server.room"]  # relays between processes)


def test_no_part_keeps_the_room():
    """The pacer and the builders of messages and of the fair deal are handed the room they
    work for (a parameter); none stores it (``self.room = …``), so the room is the one owner
    of its state (issue 33)."""
    keepers = sorted(module_name(p) for p in SERVER.rglob("*.py")
                     if any(isinstance(n, ast.Attribute) and n.attr == "room"
                            and isinstance(n.ctx, ast.Store)
                            and ast.unparse(n.value) == "self"
                            for n in ast.walk(ast.parse(p.read_text("utf-8")))))
    assert keepers == []
