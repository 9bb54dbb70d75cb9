"""The ``kawuxing`` command line: ``score`` (R7-R9, R11 values) and ``cases`` (CASES.md)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kawuxing.cli import app

SHARED = Path(__file__).resolve().parents[2] / "shared"
KA5 = "46p 234p 123s 789s 99p"  # + 5p: 卡五星 ×2 (R9.1)


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})
    return invoke


def score_json(run, *args: str) -> dict:
    result = run("score", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# --------------------------------------------------------------------------------------------
# kawuxing score
# --------------------------------------------------------------------------------------------

def test_score_human_output(run):
    """R9.1 卡五星 on a discard: the reading, the pattern with ×2 and rule, who pays what."""
    result = run("score", KA5, "--win", "5p", "--discard")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "reading: 234p 456p 123s 789s 99p" in out
    assert "卡五星" in out and "R9.1" in out
    assert "multiplier ×2" in out
    assert "seat 1 pays seat 0 2" in out
    assert "winner receives 2" in out
    assert result.stderr == ""


def test_score_human_seven_pairs_and_melds_shown(run):
    """R7.1: the seven-pairs reading shows each pair; declared melds are shown as melds."""
    out = run("score", "22p 44p 66p 11s 33s 77s 5z", "--win", "5z").stdout
    assert "reading: seven pairs 22p 44p 66p 11s 33s 77s 55z" in out
    out = run("score", "68p 123s 456s 55z", "--meld", "pung:7p", "--win", "7p").stdout
    assert "[pung:7p]" in out and "明四归一" in out and "winner receives 4" in out


def test_score_json_discard(run):
    """--json: R9.1 卡五星 on a discard: ×2, the discarder (seat 1) pays 2."""
    data = score_json(run, KA5, "--win", "5p", "--discard")
    assert data["legal"] is True and data["multiplier"] == 2 and data["raw_multiplier"] == 2
    assert [p["name"] for p in data["patterns"]] == ["卡五星"]
    assert data["patterns"][0]["multiplier"] == 2
    assert data["paid"] == 2 and data["cap"] is None
    assert [(t["payer"], t["payee"], t["amount"]) for t in data["transfers"]] == [(1, 0, 2)]
    assert data["transfers"] == [{"kind": "hand_value", "payer": 1, "payee": 0, "amount": 2,
                                  "rule": "R7.2 R9.7", "patterns": ["ka_wu_xing"],
                                  "multiplier": 2, "win_by": "discard"}]
    assert data["patterns"][0]["key"] == "ka_wu_xing"


def test_score_json_self_draw_default(run):
    """R7.2: self-draw is the default: both others pay 2, total 4."""
    data = score_json(run, KA5, "--win", "5p")
    assert data["paid"] == 4
    assert [(t["payer"], t["amount"]) for t in data["transfers"]] == [(1, 2), (2, 2)]


def test_score_json_declared_flush_bao_hu(run):
    """R8.4: 卡五星 2 × 清一色 4 × 亮倒 2 = 16 on a discard; 包胡: the discarder pays 32."""
    data = score_json(run, "46p 123p 678p 999p 22p", "--win", "5p", "--discard", "--declared")
    assert data["multiplier"] == 16
    assert sorted(p["name"] for p in data["patterns"]) == sorted(["卡五星", "清一色", "亮倒"])
    assert data["paid"] == 32
    assert [(t["payer"], t["amount"], t["rule"]) for t in data["transfers"]] == [
        (1, 32, "R8.4 R9.7")]
    # 包胡 is its own kind; the parameters are the hand's (×16), the amount doubled: 2 × 16
    assert [(t["kind"], t["multiplier"], t["patterns"]) for t in data["transfers"]] == [
        ("bao_hu", 16, ["full_flush", "liang_dao", "ka_wu_xing"])]


def test_score_pi_hu_lists_its_row_and_words_the_transfers(run):
    """R9.1: a self-drawn hand with no pattern shows the 屁胡 row ×1 (the JSON too) and each
    payment is worded from its kind: "hand value 屁胡 ×1"."""
    data = score_json(run, "34p 678p 123s 789s 99p", "--win", "5p")
    assert [(p["key"], p["name"], p["multiplier"]) for p in data["patterns"]] == [
        ("pi_hu", "屁胡", 1)]
    assert [(t["kind"], t["amount"], t["patterns"]) for t in data["transfers"]] == [
        ("hand_value", 1, ["pi_hu"]), ("hand_value", 1, ["pi_hu"])]
    out = run("score", "34p 678p 123s 789s 99p", "--win", "5p").stdout
    assert "屁胡" in out and "plain win (no pattern)" in out
    assert "seat 1 pays seat 0 1 — hand value 屁胡 ×1 (R7.2 R9.7)" in out


def test_score_json_mutual_declared_single(run):
    """R8.5 mutual_declared single: the declared discarder pays single: 卡五星 × 亮倒 = 4."""
    data = score_json(run, KA5, "--win", "5p", "--discard", "--declared",
                      "--discarder-declared", "--option", "mutual_declared=single")
    assert data["multiplier"] == 4 and data["paid"] == 4


def test_score_json_preset_and_options(run):
    """R9.5: --rules capped: 双龙七对 × 清一色 = 64 → 16 (own cap); --option cap=... overrides."""
    hand = ["1111p 2222p 33p 44p 5p", "--win", "5p"]
    data = score_json(run, *hand, "--rules", "capped")
    assert (data["multiplier"], data["raw_multiplier"], data["cap"], data["paid"]) == \
        (16, 64, 16, 32)
    assert score_json(run, *hand, "--rules", "flat8")["multiplier"] == 8
    assert score_json(run, *hand)["multiplier"] == 64
    data = score_json(run, *hand, "--rules", "capped", "--option",
                      'cap_exceptions={"双龙七对": 32}')
    assert data["multiplier"] == 32
    data = score_json(run, *hand, "--option", "base=3", "--option", "cap=8")
    assert data["multiplier"] == 8 and data["paid"] == 2 * 3 * 8


def test_score_json_situational_flags(run):
    """R9.1: --after-kong (杠上开花 / 杠上炮), --last-tile (海底捞月), --robbing-kong (抢杠胡)."""
    hand = "123p 456p 78s 55z 222s"
    names = lambda d: [p["name"] for p in d["patterns"]]  # noqa: E731
    assert names(score_json(run, hand, "--win", "9s", "--after-kong")) == ["杠上开花"]
    assert names(score_json(run, hand, "--win", "9s", "--discard", "--after-kong")) == ["杠上炮"]
    assert names(score_json(run, hand, "--win", "9s", "--last-tile")) == ["海底捞月"]
    data = score_json(run, hand, "--win", "9s", "--robbing-kong")
    assert names(data) == ["抢杠胡"] and data["paid"] == 2


def test_score_illegal_discard_win(run):
    """R7.3: a ×1 hand on a discard is a winning shape but not a legal win: exit 0, reason."""
    result = run("score", "34p 678p 123s 789s 99p", "--win", "5p", "--discard")
    assert result.exit_code == 0
    assert "not a legal win" in result.stdout and "R7.3" in result.stdout
    data = score_json(run, "34p 678p 123s 789s 99p", "--win", "5p", "--discard")
    assert data["legal"] is False and data["paid"] == 0 and "R7.3" in data["reason"]
    assert "transfers" not in data


def test_score_non_win_shows_waits_and_shanten(run):
    """R7.1/R8.1: not a winning hand: the waits and shanten of the 13 tiles before it.
    34p 678p 123s 789s 99p waits 2p 5p (shanten 0)."""
    result = run("score", "34p 678p 123s 789s 99p", "--win", "1p")
    assert result.exit_code == 0
    assert "not a win" in result.stdout
    assert "waits 2p 5p; shanten 0" in result.stdout
    data = score_json(run, "34p 678p 123s 789s 99p", "--win", "1p")
    assert data["legal"] is False and data["waits"] == ["2p", "5p"] and data["shanten"] == 0


def test_score_non_win_not_ready(run):
    """Five pairs and three single dragons: seven pairs one tile away (6 − 5 pairs = 1),
    no waits."""
    data = score_json(run, "1133p 5577s 99s 5z 6z 7z", "--win", "1s")
    assert data["legal"] is False and data["waits"] == [] and data["shanten"] == 1
    out = run("score", "1133p 5577s 99s 5z 6z 7z", "--win", "1s").stdout
    assert "waits none; shanten 1" in out


@pytest.mark.parametrize("args, message", [
    ([KA5, "--win", "5x"], "bad tile string '5x'"),
    (["46p 234p 123s 789s 9p", "--win", "5p"], "12 concealed tiles with 0 melds"),
    (["1111p 23p 456p 789p 5z", "--win", "1p"], "5 copies of 1p"),
    (["123m 456p 78p 55z 222s", "--win", "9p"], "1m is not in play"),
    ([KA5, "--win", "5p", "--option", "cap=0"], "option cap: 0"),
    ([KA5, "--win", "5p", "--option", "kap=8"], "unknown option 'kap'"),
    ([KA5, "--win", "5p", "--option", "cap"], "name=value"),
    ([KA5, "--win", "5p", "--option", "suits=5"], "option suits"),
    ([KA5, "--win", "5p", "--option", "piao_choices=[0,0]"], "option piao_choices: [0, 0]"),
    ([KA5, "--win", "5p", "--rules", "wuhan"], "unknown preset 'wuhan'"),
    (["68p 123s 456s 55z", "--meld", "pong:7p", "--win", "7p"], "unknown meld kind 'pong'"),
    (["68p 123s 456s 55z", "--meld", "7p", "--win", "7p"], "bad meld '7p'"),
    ([KA5, "--win", "5p", "--self-draw", "--discard"], "choose one of"),
    ([KA5], "missing --win"),
])
def test_score_bad_input_one_line_exit_2(run, args, message):
    """Bad input: exit status 2, nothing on stdout, exactly one line on stderr naming the
    problem (never a traceback)."""
    result = run("score", *args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and message in lines[0]


# --------------------------------------------------------------------------------------------
# kawuxing cases
# --------------------------------------------------------------------------------------------

def test_cases_good_and_malformed_lines(run, tmp_path):
    """CASES.md: one output line per case, in order; malformed JSON and malformed cases give
    {"id", "error"} (the id kept when it can be read) and the run goes on; blank lines skipped."""
    lines = [
        {"id": "ka5", "concealed": KA5, "win_tile": "5p", "win_by": "discard",
         "expect": {"multiplier": 2}},
        '{"id": "broken", "concealed": "46p"',  # malformed JSON, id readable
        '{not json at all',  # malformed JSON, no id
        {"id": "bad-tile", "concealed": KA5, "win_tile": "5x", "win_by": "discard"},
        "",
        {"id": "no-win-tile", "concealed": KA5, "win_by": "discard"},
        {"id": "bad-rules", "concealed": KA5, "win_tile": "5p", "win_by": "discard",
         "rules": {"preset": "capped", "kap": 8}},
        {"id": "bad-count", "concealed": "46p", "win_tile": "5p", "win_by": "discard"},
        [1, 2],
        {"id": "capped-big", "rules": {"preset": "capped"}, "concealed": "8s",
         "melds": [{"kind": "pung", "tile": t} for t in ("5z", "6z", "7z", "2p")],
         "win_tile": "8s", "win_by": "discard"},
        {"id": "illegal", "concealed": "34p 678p 123s 789s 99p", "win_tile": "5p",
         "win_by": "discard"},
    ]
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(l if isinstance(l, str) else json.dumps(l, ensure_ascii=False)
                              for l in lines) + "\n", encoding="utf-8")
    result = run("cases", str(path))
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["id"] for r in rows] == ["ka5", "broken", "line 3", "bad-tile", "no-win-tile",
                                       "bad-rules", "bad-count", "line 9", "capped-big", "illegal"]
    ok = rows[0]
    assert (ok["legal"], ok["multiplier"], ok["patterns"], ok["paid"]) == (True, 2, ["卡五星"], 2)
    assert "error" not in ok
    for row in rows[1:8]:
        assert set(row) == {"id", "error"} and row["error"]
        assert not row["error"].startswith(("ValueError", "TileError"))  # words, not classes
    assert "JSON" in rows[1]["error"] and "line 2" in rows[1]["error"]
    assert "5x" in rows[3]["error"]
    assert "win_tile" in rows[4]["error"]
    assert "kap" in rows[5]["error"]
    assert "concealed tiles" in rows[6]["error"]
    big = rows[8]  # R9.5 capped: 大三元 × 碰碰胡 × 手抓一 = 64 → 8
    assert (big["legal"], big["multiplier"], big["paid"]) == (True, 8, 8)
    assert sorted(big["patterns"]) == sorted(["大三元", "碰碰胡", "手抓一"])
    assert rows[9]["legal"] is False and rows[9]["paid"] == 0  # R7.3


def test_cases_missing_file(run, tmp_path):
    """A file that cannot be read: one line, exit 2."""
    result = run("cases", str(tmp_path / "nope.jsonl"))
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and "cannot read" in result.stderr


@pytest.mark.skipif(not (SHARED / "tools" / "check_cases.py").exists(),
                    reason="shared/ conformance tools not present")
def test_shared_hand_cases_pass():
    """CASES.md: the shared checker passes every case of shared/cases/hands.jsonl."""
    cmd = f"{shlex.quote(sys.executable)} -m kawuxing.cli cases"
    proc = subprocess.run([sys.executable, str(SHARED / "tools" / "check_cases.py"),
                           str(SHARED / "cases" / "hands.jsonl"), "--cmd", cmd],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " 0 failed" in proc.stdout


@pytest.mark.parametrize("args, message", [
    (["arena", "--bots", "expert,heuristic:3", "--deals", "abc"],
     "Invalid value for '--deals'"),
    (["hint", "123p", "--wall", "abc"], "Invalid value for '--wall'"),
    (["hint", "123p", "--bogus"], "No such option: --bogus"),
    (["hint"], "Missing argument 'hand'"),
    (["nope"], "No such command 'nope'"),
])
def test_usage_errors_are_one_line_exit_2(run, args, message):
    """A usage error (a value of the wrong type, an unknown option or command, a missing
    argument) is one ``error:`` line naming it and the help to read, exit 2, like every other
    bad input (the command group OneLineErrors)."""
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]
    assert lines[0].endswith("--help)")
