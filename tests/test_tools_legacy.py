"""tools/legacy_arena.py (issue 11): the first version's heuristic:3, read from git history,
plays a legal game against today's bots; a commit git cannot show is refused."""

import importlib.util
import pathlib
import subprocess
import sys

import pytest

from kawuxing.arena import run_arena
from kawuxing.rules import RuleSet

ROOT = pathlib.Path(__file__).parent.parent
spec = importlib.util.spec_from_file_location("legacy_arena", ROOT / "tools" / "legacy_arena.py")
legacy = importlib.util.module_from_spec(spec)
spec.loader.exec_module(legacy)

has_history = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e",
                              f"{legacy.FIRST_VERSION}^{{commit}}"],
                             capture_output=True).returncode == 0


@pytest.fixture
def old_package(tmp_path):
    legacy.materialize(legacy.FIRST_VERSION, tmp_path)
    sys.path.insert(0, str(tmp_path))
    yield tmp_path / legacy.PACKAGE
    sys.path.remove(str(tmp_path))
    for name in [m for m in sys.modules if m.split(".")[0] == legacy.PACKAGE]:
        del sys.modules[name]


@pytest.mark.skipif(not has_history, reason="a clone without the first version's commit")
def test_the_first_versions_bot_plays_whole_deals_against_the_expert(old_package):
    source = (old_package / "heuristic.py").read_text()
    assert "from kawuxing.engine.actions import" in source
    assert f"from {legacy.PACKAGE}.hints import" in source and "from .." not in source
    report = run_arena(["expert", "old"], 1, RuleSet.preset(), 7, workers=1,
                       players={"old": legacy.legacy_level3}).to_json()
    pair = report["pairs"][0]
    assert (pair["deals"], pair["hands"]) == (1, 6)  # one deal in its six arrangements
    # duplicate: the two bots' mean seat scores per hand are opposite
    assert report["bots"]["expert"]["mean"] == -report["bots"]["old"]["mean"]
    assert pair["mean_diff"] == pytest.approx(2 * report["bots"]["expert"]["mean"], abs=1e-3)


@pytest.mark.parametrize("commit, message", [("0000000", "no such commit"),
                                             ("--output=x", "not a commit"), ("", "not a commit")])
def test_what_is_no_commit_is_refused_before_git_shows_anything(tmp_path, commit, message):
    with pytest.raises(ValueError, match=message):
        legacy.materialize(commit, tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not has_history, reason="a clone without the project's history")
def test_a_commit_without_the_bot_is_refused(tmp_path):
    root = subprocess.run(["git", "-C", str(ROOT), "rev-list", "--max-parents=0", "HEAD"],
                          capture_output=True, text=True).stdout.split()[0]
    with pytest.raises(ValueError, match="git cannot show src/kawuxing/agents/heuristic.py"):
        legacy.materialize(root, tmp_path)


@pytest.mark.skipif(not has_history, reason="a clone without the project's history")
def test_a_later_commits_bot_brings_the_modules_it_imports(tmp_path):
    legacy.materialize("HEAD", tmp_path)
    names = sorted(p.stem for p in (tmp_path / legacy.PACKAGE).glob("*.py"))
    assert names == ["__init__", "declare", "defence", "heuristic", "hints"]
