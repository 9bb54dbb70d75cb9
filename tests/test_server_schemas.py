"""``GET /api/rules`` and ``GET /api/bots``: the rule options (RULES.md numbers, choices,
defaults, label keys), the presets and the bot registry, served from the one source each
(``kawuxing.rules``, ``kawuxing.agents.registry``); the server's seat validation uses the same
registry."""

from __future__ import annotations

import dataclasses
import tomllib
from importlib import resources

import pytest

from kawuxing.agents import bot_help, make_agent
from kawuxing.rules import ALL_PRESETS, RuleSet, RulesError
from kawuxing.server.config import ServerConfig
from kawuxing.server.testing import ServerThread, http


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('db') / 'schemas.db'}"
    config = ServerConfig(db_url=url, bot_delay=0, claim_window=0, hand_pause=0,
                          min_decision_seconds=0.05, rate=1000, burst=1000)
    with ServerThread(config) as server:
        yield server


@pytest.fixture(scope="module")
def rules(srv):
    status, body = http("GET", f"{srv.url}/api/rules")
    assert status == 200
    return body


@pytest.fixture(scope="module")
def bots(srv):
    status, body = http("GET", f"{srv.url}/api/bots")
    assert status == 200
    return body


def by_name(rules: dict) -> dict[str, dict]:
    return {o["name"]: o for o in rules["options"]}


def test_rules_lists_every_option_in_field_order(rules):
    """Every RuleSet option once, in RuleSet order, with the default of the standard preset."""
    assert [o["name"] for o in rules["options"]] == [f.name for f in dataclasses.fields(RuleSet)]
    defaults = RuleSet().to_dict()
    for option in rules["options"]:
        assert option["default"] == defaults[option["name"]], option["name"]
        assert option["label"] == f"optname_{option['name']}"
        assert option["help"] == f"opthelp_{option['name']}"


def test_rules_cap_is_open_with_a_default_of_none(rules):
    """R9.5: cap is a positive whole number or null (none, the default); a form offers
    none, 8, 16, 32 and 64."""
    cap = by_name(rules)["cap"]
    assert cap["default"] is None and cap["rule"] == "R9.5"
    assert cap["type"] == "integer_or_null" and cap["choices"] is None and cap["minimum"] == 1
    assert [o["value"] for o in cap["offered"]] == [None, 8, 16, 32, 64]
    assert [o["label"] for o in cap["offered"]] == ["opt_cap_null", "opt_cap_8", "opt_cap_16",
                                                    "opt_cap_32", "opt_cap_64"]


def test_rules_closed_choices_and_rule_numbers(rules):
    """Options with a closed list of values serve it default first, with their RULES.md rule."""
    options = by_name(rules)
    assert options["double_win"] | {"offered": None} == {
        "name": "double_win", "rule": "R4.3", "type": "boolean", "default": True,
        "choices": [True, False], "minimum": None, "maximum": None, "max_items": None,
        "label": "optname_double_win", "help": "opthelp_double_win", "offered": None}
    assert options["draw_compensation"]["choices"] == [
        "per_declarer", "first_declarer", "none", "first_declarer_2", "cha_jiao", "cha_jiao_flat"]
    assert options["draw_compensation"]["rule"] == "R10.2"
    assert options["suits"]["choices"] == [["p", "s"], ["m", "p"], ["m", "s"]]
    assert [o["label"] for o in options["suits"]["offered"]] == [
        "opt_suits_ps", "opt_suits_mp", "opt_suits_ms"]
    assert options["si_gui_in_hand"]["rule"] == "R9.4"
    assert options["three_quad_seven_pairs"]["choices"] == [32, 16]
    assert options["three_quad_seven_pairs"]["offered"] == []  # not in a room form
    piao = options["piao_choices"]
    assert (piao["rule"], piao["type"], piao["minimum"], piao["maximum"], piao["max_items"]) == \
        ("R11.1", "integer_list", 0, 1000, 10)
    assert piao["offered"] == [{"value": [], "label": "opt_piao_choices_"},
                               {"value": [0, 1, 2, 5], "label": "opt_piao_choices_0125"}]
    assert options["hands_per_match"]["default"] == 8
    assert [o["value"] for o in options["hands_per_match"]["offered"]] == [1, 2, 4, 8, 12, 16]
    assert options["cap_exceptions"]["offered"] == []
    for name in ("base", "cap_exceptions"):
        assert options[name]["choices"] is None
    assert [o["value"] for o in options["base"]["offered"]] == [1, 2, 5]  # R18.1
    assert set(rules["patterns"]) >= {"双龙七对", "三龙七对", "清一色"}


def test_rules_every_served_value_is_accepted(rules):
    """Every choice and every offered value of every option makes a valid RuleSet, and the
    closed lists are complete: a value outside them is refused."""
    for option in rules["options"]:
        for value in (option["choices"] or []) + [o["value"] for o in option["offered"]]:
            got = RuleSet.preset("standard", **{option["name"]: value}).to_dict()
            assert got[option["name"]] == value, (option["name"], value)
    with pytest.raises(RulesError, match="option draw_dealer"):
        RuleSet.preset(draw_dealer="winner")


def toml_options(name: str) -> dict:
    """A preset's options from its TOML file: those of the preset it ``extends`` (VARIANTS.md
    "Presets": a town = server_common + its row), then its own; the ``[town]`` table is none."""
    data = tomllib.loads(
        resources.files("kawuxing").joinpath("presets", f"{name}.toml").read_text("utf-8"))
    data.pop("town", None)
    parent = data.pop("extends", None)
    return (toml_options(parent) if parent else {}) | data


def test_rules_presets_are_the_toml_files(rules):
    """Each preset (RULES.md and VARIANTS.md Presets) is served with exactly its TOML file's
    options (over those of the preset it extends), and those options rebuild the preset."""
    assert list(rules["presets"]) == list(ALL_PRESETS) and rules["default_preset"] == "standard"
    for name, preset in rules["presets"].items():
        assert preset["options"] == toml_options(name)
        assert (preset["label"], preset["help"]) == (f"preset_{name}", f"preset_help_{name}")
        assert RuleSet.from_options(preset["options"]) == RuleSet.preset(name)
    xiaogan = rules["presets"]["xiaogan"]["options"]
    assert xiaogan["liang_dao_doubling"] == "either"  # from server_common
    assert (xiaogan["shu_kan"], xiaogan["cap"]) == ("on", 16)
    assert rules["presets"]["standard"]["options"] == {}
    assert rules["presets"]["capped"]["options"] == {
        "cap": 8, "cap_exceptions": {"双龙七对": 16, "三龙七对": 16}}
    assert rules["presets"]["app"]["options"] == {"piao_choices": [0, 1, 2, 5]}


def test_rules_towns_and_common_picks(rules):
    """VARIANTS.md Presets: a town preset is served with its town (name, the values a room
    there may also pick, each valid there); other presets have none. ``common``: the options a
    room creator picks everywhere (cap, piao, base, horse_buy), each one a form offers."""
    towns = {name: p["town"] for name, p in rules["presets"].items() if p["town"]}
    assert {name: town["name"] for name, town in towns.items()} == {
        "xiangyang": "襄阳", "xiaogan": "孝感", "suizhou": "随州", "shiyan": "十堰",
        "yicheng": "宜城", "yingcheng": "应城", "yunmeng": "云梦", "zaoyang": "枣阳"}
    assert towns["xiaogan"]["alternatives"]["cha_jiao_doubling"] == ["none"]
    assert towns["suizhou"]["alternatives"]["horse_kind"] == ["six", "one_plus_one"]
    assert towns["yunmeng"]["alternatives"] == {} and towns["zaoyang"]["alternatives"] == {}
    options = by_name(rules)
    for name, town in towns.items():
        for option, values in town["alternatives"].items():
            offered = [o["value"] for o in options[option]["offered"]]
            assert set(map(repr, values)) <= set(map(repr, offered)), (name, option)
    assert rules["common"] == ["cap", "base", "piao_choices", "horse_buy"]
    assert all(options[name]["offered"] for name in rules["common"])


def test_bots_registry(bots):
    """The registry: random, heuristic with levels 1-3 (bare name = level 3), expert, learned
    (policy:PATH is not listed: a room seats no file); the
    choices a form offers, strongest first, with their label keys; the default and suggested
    bot."""
    assert [b["name"] for b in bots["bots"]] == ["random", "learned", "heuristic", "expert"]
    heuristic = bots["bots"][2]
    assert heuristic["levels"] == [1, 2, 3] and heuristic["default_level"] == 3
    assert heuristic["specs"] == ["heuristic:3", "heuristic:2", "heuristic:1"]
    assert bots["bots"][0]["levels"] == [] and bots["bots"][0]["default_level"] is None
    assert all(b["description"] for b in bots["bots"])
    assert bots["bots"][3]["levels"] == [] and bots["bots"][3]["specs"] == ["expert"]
    assert bots["choices"] == [
        {"spec": "expert", "label": "seatkind_expert"},
        {"spec": "heuristic:3", "label": "seatkind_heuristic_3"},
        {"spec": "heuristic:2", "label": "seatkind_heuristic_2"},
        {"spec": "heuristic:1", "label": "seatkind_heuristic_1"},
        {"spec": "learned", "label": "seatkind_learned"},
        {"spec": "random", "label": "seatkind_random"}]
    assert bots["default"] == "heuristic" and bots["suggested"] == "heuristic:2"
    assert make_agent(bots["default"]).level == 3
    for choice in bots["choices"]:
        assert make_agent(choice["spec"]).name == choice["spec"].partition(":")[0]


def test_every_served_bot_takes_a_seat_and_others_are_refused(srv, bots):
    """Seat validation uses the same registry: each served spec is accepted; a bad level or
    name is a 422 naming the bots."""
    specs = [c["spec"] for c in bots["choices"]] + [b["name"] for b in bots["bots"]]
    for spec in specs:
        status, out = http("POST", f"{srv.url}/api/rooms",
                           {"seats": ["human", spec, spec], "hands": 1})
        assert status == 201, out
        assert [s["bot"] for s in out["room"]["seats"]][1:] == [spec, spec]
    for spec, message in [("heuristic:4", "heuristic levels are 1, 2 and 3"),
                          ("minimax", "unknown bot 'minimax'"), ("random:2", "unknown bot")]:
        status, out = http("POST", f"{srv.url}/api/rooms", {"seats": ["human", spec, "random"]})
        assert status == 422 and out["detail"]["code"] == "bad_seats"
        assert message in out["detail"]["message"] and bot_help() in out["detail"]["message"]
    status, out = http("POST", f"{srv.url}/api/rooms", {"auto_bot": "heuristic:9"})
    assert status == 422 and "heuristic levels" in out["detail"]["message"]
