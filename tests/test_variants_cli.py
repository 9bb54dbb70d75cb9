"""``kawuxing score`` with the town presets and options (VARIANTS.md R8.8, R14-R17): every
preset scores, and the extras show as payments. The winner is seat 0."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kawuxing.cli import app
from kawuxing.rules import ALL_PRESETS

B_HAND = "46p 234s 678s 999p 11s"  # + 5p: 卡五星 ×2


def run(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})


def score_json(*args: str) -> dict:
    result = run("score", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_score_works_with_every_preset(preset):
    """Every preset (RULES.md's, server_common and the towns) scores 卡五星 by self-draw; each
    payer pays the preset's 卡五星 (×4 in 孝感 and 十堰, R9.10) and its extras: 孝感 坎 1
    (999p, R15); 宜城 跑 1 + 恰 1 + 摸 1 + 八 1 (eight 条, R16)."""
    data = score_json(B_HAND, "--win", "5p", "--preset", preset)
    each = {"xiaogan": 4 + 1, "shiyan": 4, "yicheng": 2 + 4}.get(preset, 2)
    assert data["legal"] and data["received"] == 2 * each


def test_score_shows_the_horses():
    """R14: ``--horses`` names the tiles taken; each payer pays 2 + 8 (R14 example)."""
    data = score_json(B_HAND, "--win", "5p", "--option", "horse_buy=self_draw", "--horses", "8s")
    horses = [t for t in data["transfers"] if t["kind"] == "horse"]
    assert [(t["payer"], t["amount"], t["tiles"]) for t in horses] == [(1, 8, ["8s"]),
                                                                       (2, 8, ["8s"])]
    assert data["received"] == 20
    out = run("score", B_HAND, "--win", "5p", "--option", "horse_buy=self_draw", "--horses",
              "8s").stdout
    assert "买马 horses 8 bamboo: worth 8" in out and "winner receives 20" in out


def test_score_refuses_horses_where_none_are_taken():
    """R14.1: horses follow a self-draw with horse_buy on; otherwise one error line."""
    result = run("score", B_HAND, "--win", "5p", "--horses", "8s")
    assert result.exit_code == 2 and "R14.1" in result.output


def test_score_extras_of_a_town_preset():
    """宜城 (跑恰摸八 on): the R16 example's self-draw, 2 + 5 a payer; 孝感 (数坎, no 包胡): the
    R15 example (b), B pays 2 + 坎 2, and 漂 2 + 1."""
    data = score_json("345p 777p 46s 99s", "--meld", "pung:2p", "--win", "5s", "--preset",
                      "yicheng")
    assert data["received"] == 14
    data = score_json("456p 77p 88s", "--win", "8s", "--discard", "--declared", "--meld",
                      "concealed_kong:9s", "--meld", "pung:5z", "--preset", "xiaogan",
                      "--piao", "1,2,0")
    assert [(t["kind"], t["amount"]) for t in data["transfers"]] == [
        ("hand_value", 2), ("kan", 2), ("piao", 3)]


def test_score_declared_payer_dice_and_base_factor():
    """R8.8 ``either``: seat 1 declared pays ×2 (4 + 2); R17.1 豹子 (3,3) doubles each (4 + 4);
    ``after_draw`` base ×2 (4 + 4)."""
    assert score_json(B_HAND, "--win", "5p", "--option", "liang_dao_doubling=either",
                      "--declared-payer", "1")["received"] == 6
    assert score_json(B_HAND, "--win", "5p", "--option", "shang_lou=dice_doubles", "--dice",
                      "3,3")["received"] == 8
    assert score_json(B_HAND, "--win", "5p", "--base-factor", "2")["received"] == 8
    assert run("score", B_HAND, "--win", "5p", "--dice", "7,1").exit_code == 2
    for flag, bad in (("--dice", "3,x"), ("--dice", "12,3"), ("--piao", "a,b,c")):
        result = run("score", B_HAND, "--win", "5p", flag, bad)
        assert result.exit_code == 2 and f"error: {flag}:" in result.output, (bad, result.output)
