"""Transfers as data (kawuxing.scoring.transfers): a machine-readable ``kind`` with its parameters in
the engine, its events, the views, the records and ``kawuxing score --json``; prose only from
``describe`` (R6.1-R6.5, R7.2, R8.4, R9.7, R10.2, R11.1). Amounts computed by hand."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from kawuxing.engine import CONCEALED_KONG, DISCARD, KONG, Action, Hand
from kawuxing.engine import events as ev
from kawuxing.engine.views import events_for_seat, hand_result, seat_view
from kawuxing.melds import Meld
from kawuxing.patterns import BY_KEY, PATTERNS, PI_HU, SCORED
from kawuxing.records import hand_record, replay
from kawuxing.rules import RuleSet
from kawuxing.scoring import DISCARD as BY_DISCARD
from kawuxing.scoring.payments import win_transfers
from kawuxing.scoring import SELF_DRAW, WinningHand, score_hand
from kawuxing.tiles import parse_tile, parse_tiles
from kawuxing.scoring.transfers import (BAO_HU, CHA_JIAO, DRAW_COMPENSATION, HAND_VALUE, HORSE, KAN,
                                KINDS, KONG_ADDED, KONG_CONCEALED, KONG_EXPOSED, PAO_QIA_MO_BA,
                                PIAO, Transfer, describe, draw_compensation, kong_transfers)

from helpers import auto_pass

STANDARD = RuleSet.preset()
KA5 = ("46s 123p 789p 555z 11s", "5s")  # + 5s: 卡五星 ×2
PIHU = ("34s 678s 123p 789p 55z", "5s")  # + 5s: no pattern, 屁胡 ×1
JS = Path(__file__).resolve().parents[1] / "src" / "kawuxing" / "web" / "static" / "js"


def value(tiles: tuple[str, str], win_by: str = SELF_DRAW, **flags):
    concealed, win = tiles
    return score_hand(WinningHand(tuple(parse_tiles(concealed)), parse_tile(win), win_by,
                                  **flags), STANDARD)


# --- the pattern table: 屁胡 is a row ----------------------------------------------------------

def test_r9_1_pi_hu_is_a_row_of_the_pattern_table_but_not_a_pattern_a_hand_has():
    """R9.1: 屁胡 (no pattern) ×1 is a row of the table; a hand with no pattern still has an
    empty pattern list (the conformance cases print "patterns": []) and shows the 屁胡 row."""
    assert PI_HU in PATTERNS and PI_HU not in SCORED and BY_KEY["pi_hu"].name == "屁胡"
    assert (PI_HU.multiplier, PI_HU.rule) == (1, "R9.1")
    pihu = value(PIHU)
    assert pihu.legal and pihu.patterns == () and pihu.pattern_names == []
    assert [(p.name, p.multiplier) for p in pihu.pattern_rows] == [("屁胡", 1)]
    ka5 = value(KA5)
    assert ka5.pattern_rows == ka5.patterns and [p.pattern.key for p in ka5.patterns] == [
        "ka_wu_xing"]
    not_a_win = score_hand(WinningHand(tuple(parse_tiles("1p 3p 5p 7p 9p 1s 3s 5s 7s 9s 5z 6z "
                                                         "7z")), parse_tile("2p")), STANDARD)
    assert not_a_win.reading is None and not_a_win.pattern_rows == ()


# --- win_transfers: hand_value, bao_hu, piao ---------------------------------------------------

def test_r7_2_hand_value_kind_and_parameters():
    """R7.2: 卡五星 ×2 self-drawn by seat 0: seats 1 and 2 each pay 2, kind hand_value with the
    pattern keys, the multiplier and how it was won."""
    paid = win_transfers(value(KA5), 0, [1, 2])
    assert [t.to_json() for t in paid] == [
        {"kind": "hand_value", "payer": p, "payee": 0, "amount": 2, "rule": "R7.2 R9.7",
         "patterns": ["ka_wu_xing"], "multiplier": 2, "win_by": "self_draw"} for p in (1, 2)]
    assert paid[0].describe() == "hand value 卡五星 ×2"


def test_r9_1_pi_hu_hand_value_names_the_pi_hu_row():
    """R9.1/R7.3: a 屁胡 self-draw ×1: each pays 1, patterns ["pi_hu"]; the words say 屁胡."""
    paid = win_transfers(value(PIHU), 2, [0, 1])
    assert [(t.payer, t.amount, t.kind, t.params["patterns"], t.params["multiplier"])
            for t in paid] == [(0, 1, HAND_VALUE, ["pi_hu"], 1), (1, 1, HAND_VALUE, ["pi_hu"], 1)]
    assert describe(paid[0].to_json()) == "hand value 屁胡 ×1"


def test_r8_4_bao_hu_is_its_own_kind_with_the_doubled_amount():
    """R8.4: seat 2 declared and wins 卡五星 ×2 × 亮倒 ×2 = ×4 on seat 1's discard: 包胡, seat 1
    pays 2 × 4 = 8 alone, kind bao_hu; the parameters are those of the hand (×4, not ×8), the
    patterns in table order."""
    v = value(KA5, BY_DISCARD, declared=True)
    (paid,) = win_transfers(v, 2, [1])
    assert paid.to_json() == {"kind": "bao_hu", "payer": 1, "payee": 2, "amount": 8,
                              "rule": "R8.4 R9.7", "patterns": ["liang_dao", "ka_wu_xing"],
                              "multiplier": 4, "win_by": "discard"}
    assert paid.describe() == "hand value 亮倒+卡五星 ×4, 包胡 double (discard to a declared hand)"


def test_r11_1_piao_kind_carries_both_piao_values():
    """R11.1: piao [1, 2, 5], seat 0 self-draws 卡五星 ×2: besides 2 each, seat 1 pays 2+1 = 3 and
    seat 2 pays 5+1 = 6 of kind piao, with the payer's and the winner's piao."""
    paid = [t for t in win_transfers(value(KA5), 0, [1, 2], piao=[1, 2, 5]) if t.kind == PIAO]
    assert [t.to_json() for t in paid] == [
        {"kind": "piao", "payer": 1, "payee": 0, "amount": 3, "rule": "R11.1",
         "payer_piao": 2, "payee_piao": 1},
        {"kind": "piao", "payer": 2, "payee": 0, "amount": 6, "rule": "R11.1",
         "payer_piao": 5, "payee_piao": 1}]
    assert paid[1].describe() == "漂 5+1"


# --- kong money and 荒庄 compensation ------------------------------------------------------------

@pytest.mark.parametrize("kind, money, chain, base, amount, rule, words", [
    (KONG_CONCEALED, None, 1, 1, 2, "R6.1", "暗杠 concealed kong"),
    (KONG_ADDED, None, 1, 1, 1, "R6.2", "补杠 added kong"),
    (KONG_EXPOSED, 2, 1, 1, 2, "R6.3", "直杠 exposed kong"),
    (KONG_EXPOSED, 1, 1, 3, 3, "R6.3", "直杠 exposed kong"),  # direct_kong_pay 1, base 3
    (KONG_CONCEALED, None, 2, 1, 4, "R6.1 R6.5", "暗杠 concealed kong, 杠上杠 ×2 (kong 2 of a chain)"),
    (KONG_ADDED, None, 3, 2, 8, "R6.2 R6.5", "补杠 added kong, 杠上杠 ×4 (kong 3 of a chain)"),
])
def test_r6_kong_transfers(kind, money, chain, base, amount, rule, words):
    """R6.1 暗杠 2, R6.2 补杠 1, R6.3 直杠 direct_kong_pay, each × base; R6.5 the n-th kong of a
    chain × 2^(n-1): e.g. a third 补杠 at base 2 is 1 × 4 × 2 = 8 a payer."""
    paid = kong_transfers(kind, 0, [1, 2], chain, base, money)
    assert [(t.payer, t.payee, t.amount, t.kind, t.rule) for t in paid] == [
        (1, 0, amount, kind, rule), (2, 0, amount, kind, rule)]
    assert paid[0].params == {"chain": chain, "factor": 2 ** (chain - 1)}
    assert paid[0].describe() == words


def test_kong_transfers_refuse_bad_input():
    with pytest.raises(ValueError, match="kong kind"):
        kong_transfers("kong", 0, [1], 1, 1, 2)
    with pytest.raises(ValueError, match="chain"):
        kong_transfers(KONG_ADDED, 0, [1], 0, 1)
    with pytest.raises(ValueError, match="direct_kong_pay"):
        kong_transfers(KONG_EXPOSED, 0, [1], 1, 1)


@pytest.mark.parametrize("declarers, mode, paid", [
    ([1], "per_declarer", [(1, 0), (1, 2)]),
    ([2, 0], "per_declarer", [(0, 1), (2, 1)]),  # each declarer pays the one non-declarer
    ([0, 1, 2], "per_declarer", []),  # all three declared: nobody pays
    ([2, 0], "first_declarer", [(2, 0), (2, 1)]),
    ([0, 1, 2], "first_declarer", [(0, 1), (0, 2)]),
    ([1], "none", []),
    ([], "per_declarer", []),
])
def test_r10_2_draw_compensation_kind_and_mode(declarers, mode, paid):
    """R10.2: who pays whom ``base`` (here 2) by mode; each transfer names its mode."""
    out = draw_compensation(declarers, mode, 2)
    assert [(t.payer, t.payee) for t in out] == paid
    assert all((t.kind, t.amount, t.rule, t.params) == (DRAW_COMPENSATION, 2, "R10.2",
                                                       {"mode": mode}) for t in out)
    words = {"per_declarer": "荒庄 亮倒 compensation",
             "first_declarer": "荒庄 compensation by the first declarer"}
    assert all(t.describe() == words[mode] for t in out)
    with pytest.raises(ValueError, match="draw_compensation"):
        draw_compensation([0], "all", 1)


# --- the JSON form -------------------------------------------------------------------------

def test_transfer_json_round_trip_and_validation():
    """to_json is flat (kind, payer, payee, amount, rule, parameters); from_json reads it back;
    an unknown kind or a missing parameter is a ValueError."""
    t = Transfer(1, 0, 4, KONG_EXPOSED, "R6.3 R6.5", {"chain": 2, "factor": 2})
    data = t.to_json()
    assert list(data) == ["kind", "payer", "payee", "amount", "rule", "chain", "factor"]
    assert Transfer.from_json(data) == t and Transfer.from_json(json.loads(json.dumps(data))) == t
    assert str(t) == "seat 1 pays seat 0 4: 直杠 exposed kong, 杠上杠 ×2 (kong 2 of a chain)"
    with pytest.raises(ValueError, match="kind 'prose'"):
        Transfer(1, 0, 1, "prose")
    with pytest.raises(ValueError, match="missing factor"):
        Transfer(1, 0, 1, KONG_ADDED, "R6.2", {"chain": 1})
    with pytest.raises(ValueError, match="not a transfer with a kind"):
        Transfer.from_json({"payer": 1, "payee": 0, "amount": 1, "reason": "old"})
    # a record written before kinds existed keeps its words
    assert describe({"payer": 1, "payee": 0, "amount": 2, "reason": "补杠 added kong"}) == \
        "补杠 added kong"
    assert set(KINDS) == {HAND_VALUE, BAO_HU, KONG_CONCEALED, KONG_ADDED, KONG_EXPOSED,
                          DRAW_COMPENSATION, PIAO, HORSE, KAN, PAO_QIA_MO_BA, CHA_JIAO}


# --- in the engine: events, views, records ---------------------------------------------------

def chain_hand() -> Hand:
    """The R6.5 chain of test_engine_rules: dealer 0 暗杠s 1s (×1) and on the replacement 9p
    (×2), discards 3s and seat 1 直杠s it (×4: 2 × 4 = 8); seat 2 later 暗杠s 8p (a new chain,
    ×1); the last discard is not taken: 荒庄, nobody declared, no compensation."""
    hand = Hand(STANDARD, 0, [parse_tiles(h) for h in (
        "1111s 999p 3s 5z 6z 7z 2p 4p", "333s 5p 7p 8s 6s 4s 2s 5z 6z 1p 3p",
        "888p 7s 9s 5s 7z 5z 6z 1p 3p 6p 2p")], parse_tiles("9p 7s 2s 6s 8p 4p"))
    for seat, verb, tile in [(0, CONCEALED_KONG, "1s"), (0, CONCEALED_KONG, "9p"),
                             (0, DISCARD, "3s"), (1, KONG, None), (1, DISCARD, "5z"),
                             (2, CONCEALED_KONG, "8p"), (2, DISCARD, "4p")]:
        for other in hand.to_act():  # seats answering the tile on the table pass first
            if other != seat and hand.phase in ("claim", "rob"):
                hand.apply(Action(other, "pass"))
        hand.apply(Action(seat, verb, parse_tile(tile) if tile else None))
        auto_pass(hand)
    assert hand.result == "draw"
    return hand


def test_r6_5_engine_kong_transfers_carry_chain_and_factor():
    """R6.5: the transfers of the chain hand by kind, chain index and factor: 2+2, 4+4, 8 (seat
    0 pays the 直杠 of seat 1, kong 3 of the chain), then 2+2 for seat 2's new chain."""
    hand = chain_hand()
    got = [(t.kind, t.payer, t.payee, t.amount, t.params["chain"], t.params["factor"], t.rule)
           for t in hand.transfers]
    assert got == [(KONG_CONCEALED, 1, 0, 2, 1, 1, "R6.1"), (KONG_CONCEALED, 2, 0, 2, 1, 1, "R6.1"),
                   (KONG_CONCEALED, 1, 0, 4, 2, 2, "R6.1 R6.5"),
                   (KONG_CONCEALED, 2, 0, 4, 2, 2, "R6.1 R6.5"),
                   (KONG_EXPOSED, 0, 1, 8, 3, 4, "R6.3 R6.5"),
                   (KONG_CONCEALED, 0, 2, 2, 1, 1, "R6.1"), (KONG_CONCEALED, 1, 2, 2, 1, 1, "R6.1")]
    assert hand.deltas == [2, 0, -2]


def test_transfers_in_events_views_and_records_are_the_same_json():
    """The engine's transfer events, the view of the ended hand (every seat's), the record and
    its replay all carry the transfers as to_json: kind, payer, payee, amount, rule, params;
    no prose "reason" anywhere."""
    hand = chain_hand()
    want = [t.to_json() for t in hand.transfers]
    events = [{k: v for k, v in e.items() if k != "type"} for e in hand.events
              if e["type"] == ev.TRANSFER]
    assert events == want
    for seat in range(3):
        assert seat_view(hand, seat)["result"]["transfers"] == want
        seen = [e for e in events_for_seat(hand, seat) if e["type"] == ev.TRANSFER]
        assert [{k: v for k, v in e.items() if k not in ("type", "n")} for e in seen] == want
    record = json.loads(json.dumps(hand_record(hand, None)))
    assert record["result"]["transfers"] == want
    assert hand_result(replay(record))["transfers"] == want
    assert not any("reason" in t for t in want)


def test_r13_1_a_concealed_kong_transfer_names_no_tile():
    """R6.1/R13.1: a concealed kong's transfers reach every seat and carry no tile; the kong
    event seen by another seat has none either (concealed_kong_visible false)."""
    hand = chain_hand()
    for t in hand.transfers:
        assert "tile" not in t.to_json()
    other = [e for e in events_for_seat(hand, 1) if e["type"] == ev.KONG and e["seat"] == 0]
    assert other and all("tile" not in e for e in other)


def test_engine_win_transfers_with_piao_and_hand_value_params():
    """R7.2 + R11.1 in play: piao [1, 0, 2]; seat 1 wins 卡五星 ×2 on dealer 0's 5p discard:
    seat 0 pays 2 (hand_value, discard) and 1 + 0 = 1 (piao)."""
    hand = Hand(STANDARD, 0, [parse_tiles(h) for h in (
        "5p 111s 222s 333s 789p", "46p 456s 789s 99s 777z", "46p 888p 555s 66z 123p")],
        parse_tiles("7z 6z 5z"), piao=[1, 0, 2])
    hand.apply(Action(0, DISCARD, parse_tile("5p")))
    assert hand.to_act() == [1, 2]  # both wait on 5p; seat 2 lets seat 1 win alone
    hand.apply(Action(1, "win"))
    hand.apply(Action(2, "pass"))
    assert hand.winners == [1] and hand.deltas == [-3, 3, 0]
    assert [t.to_json() for t in hand.transfers] == [
        {"kind": "hand_value", "payer": 0, "payee": 1, "amount": 2, "rule": "R7.2 R9.7",
         "patterns": ["ka_wu_xing"], "multiplier": 2, "win_by": "discard"},
        {"kind": "piao", "payer": 0, "payee": 1, "amount": 1, "rule": "R11.1",
         "payer_piao": 1, "payee_piao": 0}]


def test_event_constructors_make_the_protocol_shapes():
    """engine/events.py: one constructor a type, the shapes of docs/protocol.md."""
    assert ev.kong(0, "exposed_kong", parse_tile("5p"), 2) == {
        "type": "kong", "seat": 0, "kind": "exposed_kong", "tile": "5p", "from": 2}
    assert "from" not in ev.kong(0, "concealed_kong", parse_tile("5p"))
    assert ev.hand_end("draw", [], [1, -1, 0], 0, [parse_tiles("33p 1s")], [[Meld("pung", 9)]]) \
        == {"type": "hand_end", "result": "draw", "winners": [], "deltas": [1, -1, 0],
            "next_dealer": 0, "hands": ["33p 1s"], "melds": [[str(Meld("pung", 9))]]}
    assert ev.transfer(Transfer(1, 0, 2, PIAO, "R11.1", {"payer_piao": 1, "payee_piao": 1})) == {
        "type": "transfer", "kind": "piao", "payer": 1, "payee": 0, "amount": 2, "rule": "R11.1",
        "payer_piao": 1, "payee_piao": 1}
    assert len(set(ev.TYPES)) == len(ev.TYPES) == 15


# --- the browser translates by kind -----------------------------------------------------------

def test_client_translates_transfers_by_kind_without_parsing_text():
    """i18n.js and settle.js hold no regular expression over reason text, and i18n.js has a
    zh and an en string for every transfer kind."""
    for name in ("i18n.js", "settle.js"):
        text = (JS / name).read_text(encoding="utf-8")
        assert "reasonText" not in text and "REASONS_ZH" not in text
        # a transfer's reason text is never read (a match's rating.reason is a code, R-free)
        assert re.findall(r"(\w+)\.reason\b", text) in ([], ["rating"]), name
        assert "RegExp" not in text and ".match(/" not in text, name
        # the only regular expressions left: t()'s {name} placeholders and XML escaping
        assert set(re.findall(r"replace\(/([^/]*)/", text)) <= {r"\{(\w+)\}", "[&<>\"']"}, name
    i18n = "".join((JS / "i18n" / f"{lang}.js").read_text(encoding="utf-8") for lang in ("zh", "en"))
    for kind in KINDS:
        assert len(re.findall(rf"\btransfer_{kind}: ", i18n)) == 2, kind


NODE = "/usr/bin/node"
SAMPLES = [  # one transfer of each kind (and a chained kong), as the engine writes them
    win_transfers(value(KA5, BY_DISCARD, declared=True), 2, [1])[0],  # bao_hu
    win_transfers(value(PIHU), 0, [1, 2], piao=[0, 1, 2])[0],  # hand_value 屁胡
    win_transfers(value(PIHU), 0, [1, 2], piao=[0, 1, 2])[1],  # piao 1+0
    kong_transfers(KONG_CONCEALED, 0, [1], 1, 1)[0],
    kong_transfers(KONG_ADDED, 0, [1], 2, 1)[0],
    kong_transfers(KONG_EXPOSED, 0, [1], 3, 1, 2)[0],
    draw_compensation([1], "per_declarer", 1)[0],
    draw_compensation([1], "first_declarer", 1)[0],
    draw_compensation([1], "first_declarer_2", 1)[0],  # R10.3
    Transfer(1, 0, 10, HORSE, "R14.1 R14.2", {"tiles": ["1p", "7z"], "value": 10}),
    Transfer(2, 0, 4, KAN, "R15.1", {"count": 2, "shares": 2}),
    Transfer(1, 0, 5, PAO_QIA_MO_BA, "R16.1 R16.2",
             {"pao": 1, "qia": 1, "mo": 1, "ba": 2, "shares": 1}),
    Transfer(2, 0, 4, CHA_JIAO, "R10.3 R10.4 R10.5",
             {"mode": "cha_jiao", "payer_class": "not_ready", "payee_class": "declared",
              "multiplier": 4, "wait": "5p", "patterns": ["ka_wu_xing"]}),
]
ZH = ["胡牌 亮倒+卡五星 ×4，包胡加倍（点了亮倒）", "胡牌 屁胡 ×1", "漂 1+0", "暗杠",
      "补杠，杠上杠 ×2（连杠第 2 杠）", "直杠，杠上杠 ×4（连杠第 3 杠）", "荒庄 亮倒赔付",
      "荒庄 第一个亮倒者赔付", "荒庄 第一个亮倒者赔付（每家 2）", "买马 一筒 中：马值 10",
      "数坎：2 坎，包胡 2 份", "跑恰摸八：跑 1 + 恰 1 + 摸 1 + 八 2", "查叫：未听赔亮倒，听五筒 ×4"]


@pytest.mark.skipif(not Path(NODE).exists(), reason="no node")
def test_client_transfer_text_by_kind_in_both_languages():
    """i18n.js transferText (run by node): in English it says exactly what the CLI's
    describe() says; in Chinese the 中文 words. Pattern keys become names through the hand's
    value (the settlement passes them), here the table's names."""
    names = {p.key: p.name for p in PATTERNS}
    script = f"""
        import {{ setLang, transferText }} from {json.dumps((JS / 'i18n.js').as_uri())};
        const data = JSON.parse(process.argv[1]);
        const names = (keys) => keys.map((k) => data.names[k] || k);
        const out = {{}};
        for (const lang of ['en', 'zh']) {{
          setLang(lang);
          out[lang] = data.transfers.map((tr) => transferText(tr, names));
        }}
        console.log(JSON.stringify(out));
    """
    data = {"names": names, "transfers": [t.to_json() for t in SAMPLES]}
    run = subprocess.run([NODE, "--input-type=module", "-e", script, json.dumps(data)],
                         capture_output=True, text=True, timeout=60, check=True)
    out = json.loads(run.stdout)
    assert out["en"] == [t.describe() for t in SAMPLES]
    assert out["zh"] == ZH
    assert {t.kind for t in SAMPLES} == set(KINDS)
