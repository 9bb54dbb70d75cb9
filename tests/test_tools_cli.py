"""The scripts of tools/ (issue 11) refuse bad input with one ``error:`` line on stderr, exit
status 2 and nothing on stdout, before any work (kawuxing.cli.common.ToolParser)."""

import pathlib
import subprocess
import sys

import pytest

TOOLS = pathlib.Path(__file__).parent.parent / "tools"


@pytest.mark.parametrize("tool, bad, says", [
    ("arena_breakdown", ["--deals", "0"], "--deals and --workers must be at least 1"),
    ("arena_breakdown", ["--bots", "expert"], "--bots: two different bots, not 'expert'"),
    ("arena_breakdown", ["--bots", "expert,nobot"], "unknown bot 'nobot'"),
    ("arena_breakdown", ["--bots", "mix:foo,heuristic:3"], "'mix:foo': mix: takes"),
    ("arena_breakdown", ["--params", "declare_bonus=abc"], "is no name=number"),
    ("arena_breakdown", ["--params", "nope=1"], "--params: 'nope' is no field of Params"),
    ("arena_breakdown", ["--rules", "nowhere"], "unknown preset 'nowhere'"),
    ("expert_arena", ["--params", "{}", "--deals", "0"], "must be at least 1"),
    ("expert_arena", ["--params", "{}", "--against", "nobot"], "unknown bot 'nobot'"),
    ("expert_arena", ["--params", '{"opp_win": 2}'], "opp_win is a chance or a share"),
    ("expert_arena", [], "the following arguments are required: --params"),
    ("legacy_arena", ["--workers", "0"], "--deals and --workers must be at least 1"),
    ("legacy_arena", ["--seed", "x"], "invalid int value: 'x'"),
])
def test_bad_input_is_one_error_line_and_exit_2(tool, bad, says):
    done = subprocess.run([sys.executable, str(TOOLS / f"{tool}.py"), *bad],
                          capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("error: ") and says in done.stderr, done.stderr
    assert done.stderr.endswith(f"({tool}.py --help)\n") and done.stderr.count("\n") == 1
