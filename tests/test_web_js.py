"""The browser client's JavaScript tests (tests/js/*.test.mjs, Node's built-in runner, no npm
packages): the protocol state machine game-state.js on a recorded session and the sequences of
docs/protocol.md, and the i18n tables. Skipped only when ``node`` is missing. Also the shape of
the client's small parts: game-state.js touches no DOM, socket, timer or clock; el() is
defined once, in dom.js."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from kawuxing.web import STATIC_DIR

ROOT = Path(__file__).resolve().parent.parent
JS = STATIC_DIR / "js"
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_node_unit_tests_pass():
    files = sorted(str(p) for p in (ROOT / "tests" / "js").glob("*.test.mjs"))
    assert len(files) >= 2
    run = subprocess.run([NODE, "--test", *files], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert run.returncode == 0, f"node --test failed:\n{run.stdout}\n{run.stderr}"
    passed = re.search(r"^# pass (\d+)$", run.stdout, re.M)
    assert passed and int(passed.group(1)) >= 20, run.stdout


def test_game_state_is_pure():
    text = (JS / "game-state.js").read_text("utf-8")
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    for word in ("document", "window", "WebSocket", "setTimeout", "setInterval", "Date.now",
                 "Math.random", "localStorage", "import "):
        assert word not in code, word
    assert "new GameState(" in (JS / "game.js").read_text("utf-8")


def test_one_el_helper_in_dom_js():
    defined = [p.name for p in sorted(JS.rglob("*.js"))
               if re.search(r"^(export )?function el\(", p.read_text("utf-8"), re.M)]
    assert defined == ["dom.js"]
    for name in ("game.js", "lobby.js", "replay.js", "settle.js", "table.js", "ui.js"):
        assert re.search(r"^import \{ el(, \w+)* \} from './dom\.js';$", (JS / name).read_text("utf-8"), re.M), name


def test_i18n_strings_in_their_own_files_and_packaged():
    lookup = (JS / "i18n.js").read_text("utf-8")
    assert not re.search(r"^const (zh|en) = \{", lookup, re.M)  # only the lookup is left
    for lang in ("zh", "en"):
        assert f"from './i18n/{lang}.js';" in lookup
        assert (JS / "i18n" / f"{lang}.js").is_file()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    globs = data["tool"]["setuptools"]["package-data"]["kawuxing"]
    assert "web/static/js/*.js" in globs and "web/static/js/i18n/*.js" in globs
