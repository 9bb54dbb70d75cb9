"""The scripts of tools/ (issue 11) refuse bad input with one ``error:`` line on stderr, exit
status 2 and nothing on stdout, before any work (kawuxing.cli.common.ToolParser)."""

import contextlib
import io
import pathlib
import runpy
import subprocess
import sys

import pytest

TOOLS = pathlib.Path(__file__).parent.parent / "tools"


@pytest.mark.parametrize("tool, bad, says", [
    ("decision_probe", ["--regret", "0"], "--regret: at least 2 choices"),
    ("decision_probe", ["--ceiling", "1"], "--ceiling: at least 2 choices"),
    ("decision_probe", ["--rows", ""], "--rows: an empty file name"),
    ("decision_probe", ["--rows", "/"], "--rows: Is a directory"),
    ("decision_probe", ["--params", '{"opp_win": 5}'], "--params: opp_win is a chance or a share"),
    ("decision_probe", ["--params", "{"], "--params: "),
    ("decision_probe", ["--deals", "0"], "must be at least 1"),
    ("decision_probe", ["--worlds", "x"], "invalid int value: 'x'"),
    ("decision_probe", ["--bogus"], "unrecognized arguments: --bogus"),
    ("ev_calibration", ["--deals", "0"], "--deals and --workers must be at least 1"),
    ("ev_calibration", ["--workers", "0"], "at least 1"),
    ("ev_calibration", ["--by", "colour"], "--by: colour"),
    ("ev_calibration", ["--by", ","], "--by: an empty name, an empty name"),
    ("ev_calibration", ["--by", "wall,,flush"], "an empty name"),
    ("ev_calibration", ["--by", "wall,wall"], "a group named twice"),
    ("ev_calibration", ["--deals", "x"], "invalid int value: 'x'"),
    ("ev_calibration", ["--bogus"], "--bogus"),
    ("arena_breakdown", ["--deals", "0"], "--deals and --workers must be at least 1"),
    ("arena_breakdown", ["--bots", "expert"], "--bots: two bots, not 'expert'"),
    ("arena_breakdown", ["--bots", "expert,nobot"], "unknown bot 'nobot'"),
    ("arena_breakdown", ["--bots", "mix:foo,heuristic:3"], "'mix:foo': mix: takes"),
    ("arena_breakdown", ["--params", "declare_bonus=abc"],
     "--params: declare_bonus must be a number, not 'abc'"),
    ("arena_breakdown", ["--params", "nope=1"], "--params: 'nope' is no field of Params"),
    ("arena_breakdown", ["--rules", "nowhere"], "unknown preset 'nowhere'"),
    ("arena_breakdown", ["--bots", "heuristic,heuristic:3"], "are the same bot"),
    ("arena_breakdown", ["--bots", "mix:turn,mix:turn+turn"], "are the same bot"),
    ("arena_breakdown", ["--bots", "heuristic:3,random", "--params", "declare_bonus=2"],
     "--params: neither bot is the expert"),
    ("arena_breakdown", ["--seed", "abc"], "invalid int value: 'abc'"),
    ("arena_breakdown", ["--out", ""], "--out: an empty file name"),
    ("arena_breakdown", ["--out", "/"], "--out: Is a directory"),
    ("expert_arena", ["--params", '{"declare_bonus": 1}', "--deals", "0"], "at least 1"),
    ("expert_arena", ["--params", "{}", "--against", "nobot"], "unknown bot 'nobot'"),
    ("expert_arena", ["--params", '{"opp_win": 2}'], "opp_win is a chance or a share"),
    ("expert_arena", [], "the following arguments are required: --params"),
    ("expert_arena", ["--params", '{"declare_bonus": 0.8}'], "nothing to compare"),
    ("expert_arena", ["--params", "[" * 100000], "maximum recursion depth"),
    ("expert_arena", ["--params", '{"mc_switch": 1' + "0" * 400 + "}"],
     "mc_switch is a number from 0 to 1000, not 10000000000000000000..."),
    ("legacy_arena", ["--workers", "0"], "--deals and --workers must be at least 1"),
    ("legacy_arena", ["--seed", "x"], "invalid int value: 'x'"),
    ("legacy_arena", ["--bots", "heuristic,heuristic:3"], "are the same bot"),
])
def test_bad_input_is_one_error_line_and_exit_2(tool, bad, says, monkeypatch):
    # in this process (runpy, as ``python tools/TOOL.py``): a subprocess a case cost a second
    # of imports; the real command line is the next test's
    script = str(TOOLS / f"{tool}.py")
    monkeypatch.setattr(sys, "argv", [script, *bad])
    monkeypatch.syspath_prepend(str(TOOLS))
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr), \
            pytest.raises(SystemExit) as exited:
        runpy.run_path(script, run_name="__main__")
    assert (exited.value.code, stdout.getvalue()) == (2, "")
    said = stderr.getvalue()
    assert said.startswith("error: ") and says in said, said
    assert said.endswith(f"({tool}.py --help)\n") and said.count("\n") == 1


def test_a_tools_bad_input_from_its_command_line():
    done = subprocess.run([sys.executable, str(TOOLS / "legacy_arena.py"), "--seed", "x"],
                          capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "error: argument --seed: invalid int value: 'x' (legacy_arena.py --help)\n"
