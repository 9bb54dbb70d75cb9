"""Town payments (VARIANTS.md R8.8-R8.10, R8.18, R11.4-R11.5, R14-R18) in the order of R18.3,
through :func:`kawuxing.scoring.payments.win_transfers`: every option with amounts worked out by hand,
and the worked examples of R14, R15 and R16 with exactly their numbers. Seats: A 0, B 1, C 2."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from kawuxing import scoring
from kawuxing.melds import Meld
from kawuxing.scoring.payments import WinTable, win_transfers
from kawuxing.rules import RuleSet
from kawuxing.scoring import DISCARD, SELF_DRAW, WinningHand, score_hand
from kawuxing.shapes import readings
from kawuxing.tiles import parse_tile, parse_tiles
from kawuxing.scoring.transfers import BAO_HU, HAND_VALUE, HORSE, KAN, PAO_QIA_MO_BA, PIAO

S, D = SELF_DRAW, DISCARD
KA5 = ("46s 123p 789p 555z 11s", "5s")  # + 5s: 卡五星 ×2
PIHU = ("34s 678s 123p 789p 55z", "5s")  # + 5s: 屁胡 ×1


def value(tiles, win_by=S, melds="", options=None, **flags):
    concealed, win = tiles
    hand = WinningHand(tuple(parse_tiles(concealed)), parse_tile(win), win_by,
                       tuple(Meld.parse(m) for m in melds.split()), **flags)
    return score_hand(hand, RuleSet.preset(**(options or {})))


def paid(value, winner, payers, **table):
    """(payer, amount, kind) of each transfer."""
    out = win_transfers(value, winner, payers, table=WinTable(**table) if table else None)
    return [(t.payer, t.amount, t.kind) for t in out]


def by_payer(value, winner, payers, **table) -> dict[int, int]:
    totals: dict[int, int] = {}
    for payer, amount, _ in paid(value, winner, payers, **table):
        totals[payer] = totals.get(payer, 0) + amount
    return totals


# --- defaults: nothing changes ---------------------------------------------------------------

def test_defaults_are_rules_md():
    """With every option at default the payments are RULES.md's: self-draw 2 + 2 (R7.2), 包胡
    4 alone (R8.4), 漂 once per payment (R11.1); a WinTable of nobody declared changes nothing."""
    v = value(KA5)
    assert paid(v, 0, [1, 2]) == paid(v, 0, [1, 2], declared=(False, False, False)) == [
        (1, 2, HAND_VALUE), (2, 2, HAND_VALUE)]
    bao = value(KA5, D, declared=True)  # 亮倒 + 卡五星 ×4, 包胡 ×2
    assert paid(bao, 0, [1], declared=(True, False, False), piao=(1, 2, 3)) == [
        (1, 8, BAO_HU), (1, 3, PIAO)]


# --- R8.8 亮倒输赢翻倍 ------------------------------------------------------------------------

@pytest.mark.parametrize("mode, declared, expected", [
    ("winner", (False, True, False), {1: 2, 2: 2}),
    ("either", (False, True, False), {1: 4, 2: 2}),  # B declared, A not: B ×2
    ("each", (False, True, True), {1: 4, 2: 4}),
    ("either", (True, True, False), {1: 4, 2: 4}),  # A declared: 亮倒 ×2 in the hand; no more
    ("each", (True, True, False), {1: 8, 2: 4}),  # each: B's ×2 on top of A's 亮倒
])
def test_r8_8_liang_dao_doubling_per_payer(mode, declared, expected):
    """R8.8 on a self-draw by A of 卡五星 ×2 (×4 when A declared): ``either`` doubles a
    declared payer's share if A had not declared; ``each`` always (×4 if both declared)."""
    v = value(KA5, declared=declared[0])
    v = score_hand(v.hand, RuleSet.preset(liang_dao_doubling=mode))
    assert by_payer(v, 0, [1, 2], declared=declared) == expected


def test_r8_8_discard_of_a_declared_player_and_the_cap():
    """R8.8 ``either`` on a discard: 卡五星 ×2 from declared C pays 4; with cap 2 the doubling
    is capped (R9.5, 2), unless R9.6 puts the 亮倒 doublings after the cap (4)."""
    for options, amount in (({"liang_dao_doubling": "either"}, 4),
                            ({"liang_dao_doubling": "either", "cap": 2}, 2),
                            ({"liang_dao_doubling": "either", "cap": 2,
                              "cap_excludes_declare": True}, 4)):
        v = value(KA5, D, options=options, discarder_declared=True)
        got = win_transfers(v, 0, [2], table=WinTable(declared=(False, False, True)))
        assert [(t.amount, t.params.get("declared_doubling")) for t in got] == [(amount, 2)]
        assert "R8.8" in got[0].rule


def test_r8_8_each_under_bao_hu_doubles_each_share_by_its_owner():
    """R8.8 ``each`` with 包胡 (U12): declared A wins 卡五星 on undeclared B's discard; C had
    declared: B pays A's share 4 (亮倒+卡五星) and C's share 4 × 2 = 8: 12."""
    v = value(KA5, D, options={"liang_dao_doubling": "each"}, declared=True)
    got = win_transfers(v, 0, [1], table=WinTable(declared=(True, False, True)))
    assert [(t.amount, t.kind, t.params["shares"]) for t in got] == [(12, BAO_HU, [4, 8])]


# --- R8.9 / R8.10 包胡 ------------------------------------------------------------------------

def test_r8_9_bao_hu_none_one_share():
    """R8.9 ``none``: the discarder feeding a declared winner pays one share (亮倒 ×2 included:
    亮倒 + 卡五星 = 4), the third nothing."""
    v = value(KA5, D, options={"bao_hu": "none"}, declared=True)
    assert not v.bao_hu and v.paid == 4
    assert paid(v, 0, [1]) == [(1, 4, HAND_VALUE)]


@pytest.mark.parametrize("cap_mode, amount", [("per_share", 8), ("total", 4)])
def test_r8_10_bao_hu_cap(cap_mode, amount):
    """R8.10 with cap 4 and a 包胡 of 亮倒 + 卡五星 (×4 a share): ``per_share`` caps each, then
    sums (4 + 4); ``total`` caps their sum once (min(8, 4))."""
    v = value(KA5, D, options={"cap": 4, "bao_hu_cap": cap_mode}, declared=True)
    assert paid(v, 0, [1]) == [(1, amount, BAO_HU)]


# --- R8.18 过胡翻番 ---------------------------------------------------------------------------

@pytest.mark.parametrize("passed, cap, amount", [(0, None, 4), (1, None, 8), (2, None, 16),
                                                 (2, 8, 8)])
def test_r8_18_each_passed_win_doubles_inside_the_cap(passed, cap, amount):
    """R8.18: declared A (亮倒 + 卡五星 ×4) who passed n wins is paid ×2^n by each payer, inside
    the cap; A's own multiplier stays ×4."""
    v = value(KA5, S, options={"pass_win_doubles": True, "cap": cap}, declared=True,
              passed_wins=passed)
    assert v.multiplier == 4
    got = win_transfers(v, 0, [1, 2], table=WinTable(declared=(True, False, False)))
    assert [t.amount for t in got] == [amount, amount]
    assert all(t.params.get("passed_wins", 0) == passed for t in got)


# --- R11.4 / R11.5 漂 -------------------------------------------------------------------------

def test_r11_4_piao_times_base():
    """R11.4: 漂 × base: base 2, piao A 1, B 2: B pays 卡五星 2 × 2 = 4 and (1 + 2) × 2 = 6."""
    v = value(KA5, D, options={"base": 2, "piao_times_base": True})
    assert paid(v, 0, [1], piao=(1, 2, 0)) == [(1, 4, HAND_VALUE), (1, 6, PIAO)]
    once = value(KA5, D, options={"base": 2})
    assert paid(once, 0, [1], piao=(1, 2, 0)) == [(1, 4, HAND_VALUE), (1, 3, PIAO)]


def test_r11_5_piao_per_share_under_bao_hu():
    """R11.5 ``per_share``: under 包胡 the discarder B pays piao(A)+piao(B) and piao(A)+piao(C):
    (1 + 2) + (1 + 5) = 9, not 3 (R11.1 once)."""
    v = value(KA5, D, options={"piao_bao_hu": "per_share"}, declared=True)
    got = win_transfers(v, 0, [1], table=WinTable(declared=(True, False, False),
                                                  piao=(1, 2, 5)))
    assert [(t.amount, t.kind) for t in got] == [(8, BAO_HU), (9, PIAO)]
    assert got[1].params == {"payer_piao": 2, "payee_piao": 1, "third_piao": 5}


# --- R14 horses: the worked example ----------------------------------------------------------

B_HAND = ("46p 234s 678s 999p 11s", "5p")  # B self-draws 5p: 卡五星 ×2


@pytest.mark.parametrize("kind, tiles, each", [
    ("one", "8s", 10),  # 2 + 8
    ("one", "7z", 12),  # a dragon: 10
    ("six", "2s 9p 7z 8p 3s 6s", 5),  # class 2-5-8: 2s, 7z, 8p score: 3
    ("six", "1s 9p 3s 1p 9s 6s", 8),  # six taken, none scoring: 6
    ("six", "2s 9p", 3),  # too few tiles: those left, no 6 — 2s scores 1
    ("one_plus_one", "1p 7z", 13),  # 1p (1) brings 7z (10)
])
def test_r14_horses_example(kind, tiles, each):
    """VARIANTS.md R14 example (base 1, ``self_draw``): B's 卡五星 ×2 self-draw; A and C each
    pay 2 + the horse value, once, not multiplied."""
    v = value(B_HAND, options={"horse_buy": "self_draw", "horse_kind": kind})
    horses = tuple(parse_tiles(tiles))
    assert by_payer(v, 1, [0, 2], horses=horses) == {0: each, 2: each}
    horse = [t for t in win_transfers(v, 1, [0, 2], table=WinTable(horses=horses))
             if t.kind == HORSE][0]
    assert horse.params == {"tiles": tiles.split(), "value": each - 2}


def test_r14_horses_times_base_or_flat():
    """R14.1 × base (R18.2): base 2, horse 8s: A pays 2 × 2 + 8 × 2 = 20; with
    ``extras_times_base`` false the horse is 8 flat: 12."""
    horses = (parse_tile("8s"),)
    v = value(B_HAND, options={"horse_buy": "self_draw", "base": 2})
    assert by_payer(v, 1, [0, 2], horses=horses)[0] == 20
    flat = value(B_HAND, options={"horse_buy": "self_draw", "base": 2,
                                  "extras_times_base": False})
    assert by_payer(flat, 1, [0, 2], horses=horses)[0] == 12


# --- R15 数坎: the worked example ------------------------------------------------------------

A_MELDS = "concealed_kong:9s pung:5z"


@pytest.mark.parametrize("options, amount", [
    ({}, 4),  # (a) 卡五星 2 + 坎 2 (9s kong, 777p)
    ({"shu_kan_triplets": "reading"}, 4),  # the reading holds 777p as a pung
    ({"extras_times_base": False, "base": 3}, 8),  # 2 × 3 + 坎 2 flat
])
def test_r15_example_a(options, amount):
    """VARIANTS.md R15 (a): A (暗杠 9s, pung 5z, 46p 777p 88s) wins on C's 5p: 卡五星 ×2;
    坎 = 1 (9s) + 1 (777p), 5z none: C pays 4."""
    v = value(("46p 777p 88s", "5p"), D, A_MELDS, {"shu_kan": "on", **options})
    assert sum(a for _, a, _ in paid(v, 0, [2])) == amount


@pytest.mark.parametrize("options, amount, kan", [
    ({}, 8, 4),  # 包胡: two shares of 2 plus 坎 2 (9s, 888s) per share
    ({"shu_kan_discard_triplet": "not_counted"}, 6, 2),  # 888s completed by the discard
    ({"bao_hu": "none"}, 4, 2),  # one share: 2 + 2
])
def test_r15_example_b(options, amount, kan):
    """VARIANTS.md R15 (b): A declared with 456p 77p 88s; undeclared B discards 8s: 亮倒 ×2."""
    v = value(("456p 77p 88s", "8s"), D, A_MELDS, {"shu_kan": "on", **options}, declared=True)
    got = paid(v, 0, [1])
    assert sum(a for _, a, _ in got) == amount
    assert [a for _, a, k in got if k == KAN] == [kan]


def test_r15_kan_kinds_or_reading_and_seven_pairs():
    """R15.2 on 111222333s 789p 99p: ``kinds`` 4 (1s, 2s, 3s and 9p each three times among the
    concealed tiles and the winning tile), ``reading`` 3 (the pungs 111s 222s 333s; 9p is in
    789p and the pair); R15.4 seven pairs with one four: 0, or 1 under ``fours``."""
    tiles = ("111222333s 789p 9p", "9p")
    for triplets, kan in (("kinds", 4), ("reading", 3)):
        v = value(tiles, S, options={"shu_kan": "on", "shu_kan_triplets": triplets})
        assert [a for _, a, k in paid(v, 0, [1, 2]) if k == KAN] == [kan, kan]
    seven = ("1111p 33s 44s 55s 66z 7z", "7z")
    for option, kan in ((0, []), ("fours", [1, 1])):
        v = value(seven, S, options={"shu_kan": "on", "shu_kan_seven_pairs": option})
        assert [a for _, a, k in paid(v, 0, [1, 2]) if k == KAN] == kan


def test_r15_2_u10_between_equal_readings_the_one_with_more_kan(monkeypatch):
    """U10: 111222333p 456s 77s (self-drawn 7s): 111p 222p 333p (3 坎) and 123p ×3 (0) are both
    屁胡 ×1; under ``reading`` the one with more 坎 is taken, in whichever order the readings
    come (here the chows first)."""
    tiles = ("111222333p 456s 7s", "7s")
    monkeypatch.setattr(scoring, "readings", lambda counts: list(readings(counts))[::-1])
    v = value(tiles, S, options={"shu_kan": "on", "shu_kan_triplets": "reading"})
    assert v.raw_multiplier == 1
    assert [a for _, a, k in paid(v, 0, [1, 2]) if k == KAN] == [3, 3]


# --- R16 跑恰摸八: the worked example --------------------------------------------------------

B16 = ("345p 777p 46s 99s", "5s")  # + exposed pung 2p; 卡五星 ×2


@pytest.mark.parametrize("ba, win_by, payers, each, parts", [
    ("all_tiles", S, [0, 2], 7, {"pao": 1, "qia": 1, "mo": 1, "ba": 2}),  # nine 筒
    ("concealed", S, [0, 2], 5, {"pao": 1, "qia": 1, "mo": 1, "ba": 0}),  # six 筒
    ("per_suit", S, [0, 2], 7, {"pao": 1, "qia": 1, "mo": 1, "ba": 2}),
    ("all_tiles", D, [0], 6, {"pao": 1, "qia": 1, "mo": 0, "ba": 2}),  # A discards 5s
])
def test_r16_example(ba, win_by, payers, each, parts):
    """VARIANTS.md R16 (base 1): B self-draws 5s: 卡五星 ×2; 跑 1, 恰 1 (777p), 摸 1, 八 2:
    A and C pay 2 + 5 = 7 each; ``ba_count`` concealed: 5 each; A's discard: 2 + 1 + 1 + 2."""
    v = value(B16, win_by, "pung:2p", {"pao_qia_mo_ba": "on", "ba_count": ba})
    got = win_transfers(v, 1, payers)
    assert {p: sum(t.amount for t in got if t.payer == p) for p in payers} == {
        p: each for p in payers}
    extra = [t for t in got if t.kind == PAO_QIA_MO_BA][0]
    assert {k: extra.params[k] for k in parts} == parts and extra.params["shares"] == 1


def test_r16_once_per_share_under_bao_hu_and_with_shu_kan():
    """R16.1 under 包胡 once per share, and with ``shu_kan`` on both are paid: declared B wins
    5s on A's discard: 亮倒 + 卡五星 ×4 × 2 shares = 8, 跑恰摸八 (1 + 1 + 0 + 2) × 2 = 8,
    坎 1 × 2 = 2: 18."""
    v = value(B16, D, "pung:2p", {"pao_qia_mo_ba": "on", "shu_kan": "on"}, declared=True)
    got = paid(v, 1, [0])
    assert got == [(0, 8, BAO_HU), (0, 2, KAN), (0, 8, PAO_QIA_MO_BA)]


# --- R17 上楼 / R18 -------------------------------------------------------------------------

@pytest.mark.parametrize("options, dice, base_factor, expected", [
    ({"shang_lou": "dice_doubles"}, (3, 4), 1, [(1, 2, HAND_VALUE), (1, 3, PIAO)]),
    ({"shang_lou": "dice_doubles"}, (3, 3), 1, [(1, 4, HAND_VALUE), (1, 3, PIAO)]),
    # hand_value scope: ×2 before the cap (cap 2: still 2)
    ({"shang_lou": "dice_doubles", "cap": 2}, (3, 3), 1, [(1, 2, HAND_VALUE), (1, 3, PIAO)]),
    # everything: every payment ×2, the hand value after the cap
    ({"shang_lou": "dice_doubles", "shang_lou_scope": "everything", "cap": 2}, (3, 3), 1,
     [(1, 4, HAND_VALUE), (1, 6, PIAO)]),
    # after_draw: the base ×4 for hand value, not 漂
    ({"shang_lou": "after_draw"}, None, 4, [(1, 8, HAND_VALUE), (1, 3, PIAO)]),
])
def test_r17_shang_lou(options, dice, base_factor, expected):
    """R17.1/R17.2 on 卡五星 ×2 from B (piao A 1, B 2): 豹子 doubles the multiplier before the
    cap (``hand_value``) or every payment (``everything``); ``after_draw`` doubles the base."""
    v = value(KA5, D, options=options)
    assert paid(v, 0, [1], piao=(1, 2, 0), dice=dice, base_factor=base_factor) == expected


def test_r18_3_order_of_operations():
    """R18.3 all at once: declared A self-draws 卡五星 (×4 with 亮倒) having passed a win
    (×2), with 豹子 (hand_value ×2), cap 16, base 2 and after_draw factor 2; horses 8s, 坎 on,
    piao A 1, B 0, C 2; ``each``: B had declared (×2). B: (1) 4×2×2×2 = 32 → (2) cap 16 →
    (3) × 2 × 2 = 64; (5) horse 8 × 4 = 32, 坎 1 (555z) × 4 = 4; (6) 漂 1 → 101. C: 4×2×2 =
    16 → 64, 32, 4, 漂 3 → 103."""
    options = {"liang_dao_doubling": "each", "pass_win_doubles": True, "cap": 16, "base": 2,
               "shang_lou": "dice_doubles", "horse_buy": "self_draw", "shu_kan": "on"}
    v = value(KA5, S, options=options, declared=True, passed_wins=1)
    table = dict(declared=(True, True, False), piao=(1, 0, 2), horses=(parse_tile("8s"),),
                 dice=(6, 6), base_factor=2)
    assert by_payer(v, 0, [1, 2], **table) == {1: 101, 2: 103}


# --- the words: the CLI's describe() and the browser's transferText agree --------------------

NODE = Path("/usr/bin/node")
JS = Path(__file__).resolve().parents[1] / "src" / "kawuxing" / "web" / "static" / "js"


@pytest.mark.skipif(not NODE.exists(), reason="no node")
def test_town_payment_words_are_the_same_in_the_cli_and_the_browser():
    """R18.3: what a town option adds to a payment (包胡 shares, R8.8 doubling, R8.18, 上楼
    dice and base, R11.5's third 漂) and the extras are worded alike by
    :func:`kawuxing.scoring.transfers.describe` and i18n.js ``transferText`` in English."""
    transfers = []
    v = value(KA5, D, options={"liang_dao_doubling": "each", "piao_bao_hu": "per_share"},
              declared=True)
    transfers += win_transfers(v, 0, [1], table=WinTable(declared=(True, False, True),
                                                         piao=(1, 2, 5)))
    v = value(KA5, S, options={"pass_win_doubles": True, "shang_lou": "dice_doubles"},
              declared=True, passed_wins=1)
    transfers += win_transfers(v, 0, [1, 2], table=WinTable(declared=(True, True, False),
                                                            dice=(2, 2), base_factor=2))
    v = value(B16, D, "pung:2p", {"pao_qia_mo_ba": "on", "shu_kan": "on"}, declared=True)
    transfers += win_transfers(v, 1, [0])
    v = value(B_HAND, options={"horse_buy": "self_draw", "horse_kind": "six"})
    transfers += win_transfers(v, 1, [0, 2], table=WinTable(
        horses=tuple(parse_tiles("2s 9p 7z 8p 3s 6s"))))
    script = f"""
        import {{ setLang, transferText }} from {json.dumps((JS / 'i18n.js').as_uri())};
        const data = JSON.parse(process.argv[1]);
        setLang('en');
        console.log(JSON.stringify(data.map((tr) => transferText(tr,
          (keys) => keys.map((k) => ({{ liang_dao: '亮倒', ka_wu_xing: '卡五星' }})[k] || k)))));
    """
    run = subprocess.run([str(NODE), "--input-type=module", "-e", script,
                          json.dumps([t.to_json() for t in transfers])],
                         capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(run.stdout) == [t.describe() for t in transfers]
    assert transfers[0].describe() == ("hand value 亮倒+卡五星 ×4, 包胡 double (discard to a "
                                       "declared hand) (shares ×4 + ×8), 亮倒 doubling ×2")
    assert transfers[2].describe() == ("hand value 亮倒+卡五星 ×16, 过胡翻番 (1 wins passed), "
                                       "上楼 dice doubles ×2, 上楼 base ×2")
