"""Rule sets: every option of RULES.md, typed and validated, and the presets (R1-R13).

A :class:`RuleSet` is immutable. Build one with :meth:`RuleSet.preset` (``standard``,
``capped``, ``flat8``, ``strict``, ``app``: data files in ``kawuxing/presets/``) plus overrides,
or :meth:`RuleSet.from_dict` (``{"preset": "capped", "cap": 16}``, the shape of a case's
``rules``). Unknown options and bad values raise :class:`RulesError` naming the option.

Every option is described once, by the :class:`Option` metadata of its dataclass field (rule
number, type, choices or bounds, the values a room form offers, label keys). Validation reads
it, and :func:`rules_schema` serves it (``GET /api/rules``) so that no client keeps a copy.
"""

from __future__ import annotations

import json
import re
import tomllib
import zlib
from dataclasses import asdict, dataclass, field, fields, replace
from importlib import resources
from typing import Any

from .patterns import BY_NAME

PRESETS = ("standard", "capped", "flat8", "strict", "app", "server_common")
# VARIANTS.md "Presets": the towns' own, each a preset too
TOWNS = ("xiangyang", "xiaogan", "suizhou", "shiyan", "yicheng", "yingcheng", "yunmeng", "zaoyang")
ALL_PRESETS = PRESETS + TOWNS
MAX_MULTIPLIER = 1 << 16  # a cap above any product of R9.1 patterns (so: no cap) is refused
MAX_BASE = 10_000  # 底金 in units; keeps every score an exact number in JSON clients
DEFAULT_PRESET = "standard"
# VARIANTS.md "Presets": everywhere the room creator also picks these, whatever the town (a room
# form shows them first, beside the number of hands)
ROOM_PICKS = ("cap", "base", "piao_choices", "horse_buy")

# Option.type: what values an option takes (the JSON shapes; "choices" narrows a type to a list).
BOOLEAN = "boolean"
STRING = "string"
INTEGER = "integer"
INTEGER_OR_NULL = "integer_or_null"  # a whole number, or null (none)
INTEGER_LIST = "integer_list"  # a list of whole numbers
SUIT_PAIR = "suit_pair"  # two different suit letters of m/p/s, any order (kept in m-p-s order)
PATTERN_CAPS = "pattern_caps"  # an object: R9.1 pattern name -> positive whole number
CHOICE = "choice"  # one of ``choices``, which mix JSON types (R9.15: "off", 16, 32)

OPTION_META = "kawuxing.option"  # the key of a RuleSet field's metadata holding its Option


@dataclass(frozen=True)
class Option:
    """What one :class:`RuleSet` option is, for validation and for clients.

    - ``rule``: the RULES.md rule that defines it (``"R9.5"``).
    - ``type``: one of ``boolean``, ``string``, ``integer``, ``integer_or_null``,
      ``integer_list``, ``suit_pair``, ``pattern_caps``, ``choice`` (see the module constants).
    - ``choices``: every accepted value, the default first (empty: any value of ``type`` within
      ``minimum``/``maximum``/``max_items``).
    - ``minimum``/``maximum``: bounds of a number, or of each number of a list;
      ``max_items``: the longest list.
    - ``offered``: the values a room form offers, in order; ``None`` means the ``choices``; an
      empty tuple means a form does not show the option (set it with the API or the CLI).

    Label keys (i18n.js) follow from the option name: ``optname_<name>`` (its name),
    ``opthelp_<name>`` (one line of help) and :func:`value_label_key` for each offered value.
    """

    rule: str
    type: str
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None
    max_items: int | None = None
    offered: tuple | None = None


def _option(default: Any, rule: str, type_: str, *, choices: tuple = (),
            minimum: int | None = None, maximum: int | None = None,
            max_items: int | None = None, offered: tuple | None = None,
            factory: Any = None) -> Any:
    """A RuleSet field with its :class:`Option` metadata."""
    meta = {OPTION_META: Option(rule, type_, choices, minimum, maximum, max_items, offered)}
    if factory is not None:
        return field(default_factory=factory, metadata=meta)
    return field(default=default, metadata=meta)


class RulesError(ValueError):
    """An unknown option, a bad option value or an unknown preset."""


@dataclass(frozen=True)
class RuleSet:
    """Every option of RULES.md with its default (the ``standard`` preset).

    Units: ``base`` (底金) and all payments are integer base units; ``cap`` is a multiplier
    (None = no cap). See RULES.md for each option; each field's :class:`Option` metadata names
    its rule, choices or bounds (:func:`option_specs`, :func:`rules_schema`).
    """

    suits: tuple[str, str] = _option(
        ("p", "s"), "R1.1", SUIT_PAIR, choices=(("p", "s"), ("m", "p"), ("m", "s")))
    first_dealer: str = _option("random", "R2.1", STRING, choices=("random", "seat0"))
    draw_dealer: str = _option("stay", "R2.2", STRING,
                               choices=("stay", "declarer", "last_drawer", "cha_jiao_payer"))
    double_win: bool = _option(True, "R4.3", BOOLEAN, choices=(True, False))  # 一炮双响
    concealed_kong_visible: bool = _option(False, "R6.1", BOOLEAN, choices=(False, True))
    direct_kong_pay: int = _option(2, "R6.3", INTEGER, choices=(2, 1))
    # R6.7 不可擦炮炮子: no 补杠 with a tile that is another declared player's current wait
    added_kong_on_declared_wait: str = _option(
        "allowed", "R6.7", STRING, choices=("allowed", "forbidden", "forbidden_undeclared"))
    min_multiplier_discard_win: int = _option(2, "R7.3", INTEGER, choices=(2, 1))
    robbing_kong: bool = _option(True, "R7.4", BOOLEAN, choices=(True, False))
    missed_win_exception: str = _option("bigger", "R7.5", STRING, choices=("bigger", "none"))
    min_multiplier_counts_discarder_declared: bool = _option(False, "R7.6", BOOLEAN,
                                                             choices=(False, True))
    min_multiplier_self_draw: int = _option(1, "R7.7", INTEGER, choices=(1, 2))  # 2番起胡
    mutual_declared: str = _option("double", "R8.5", STRING, choices=("double", "single"))
    declare_hide_triplets: bool = _option(False, "R8.6", BOOLEAN, choices=(False, True))
    feeding_declared: str = _option("allowed", "R8.7", STRING,
                                    choices=("allowed", "forbidden_if_safe_tile"))
    liang_dao_doubling: str = _option("winner", "R8.8", STRING,
                                      choices=("winner", "either", "each"))  # 亮倒输赢翻倍
    bao_hu: str = _option("double", "R8.9", STRING, choices=("double", "none"))  # 包胡
    bao_hu_cap: str = _option("per_share", "R8.10", STRING, choices=("per_share", "total"))
    declare_show: str = _option("all", "R8.11", STRING, choices=("all", "waiting_part"))  # 部分亮
    hide_triplet_test: str = _option("same_waits", "R8.12", STRING,
                                     choices=("same_waits", "still_ready"))
    declare_min_wall: int = _option(0, "R8.13", INTEGER, choices=(0, 12))  # 剩12张不可亮
    declare_requires_concealed: bool = _option(False, "R8.14", BOOLEAN,
                                               choices=(False, True))  # 门清才能亮
    declare_discard_feeds: str = _option("allowed", "R8.15", STRING,
                                         choices=("allowed", "forbidden"))
    declared_kong: str = _option("waits_unchanged", "R8.16", STRING,
                                 choices=("waits_unchanged", "hidden_triplets_only"))
    declared_must_win: bool = _option(False, "R8.17", BOOLEAN, choices=(False, True))  # 亮倒必胡
    pass_win_doubles: bool = _option(False, "R8.18", BOOLEAN, choices=(False, True))  # 过胡翻番
    declared_auto_kong: bool = _option(False, "R8.19", BOOLEAN, choices=(False, True))  # 杀马
    an_si_gui_on_discard: bool = _option(True, "R9.1", BOOLEAN, choices=(True, False))
    three_quad_seven_pairs: int = _option(32, "R9.1", INTEGER, choices=(32, 16), offered=())
    last_discard_bonus: bool = _option(False, "R9.1", BOOLEAN, choices=(False, True))
    si_gui_in_hand: str = _option("flush", "R9.4", STRING,
                                  choices=("flush", "any_pattern", "win_tile_only"))
    cap: int | None = _option(None, "R9.5", INTEGER_OR_NULL, minimum=1, maximum=MAX_MULTIPLIER,
                              offered=(None, 8, 16, 32, 64))
    # R9.5 pattern name -> its own cap
    cap_exceptions: dict[str, int] = _option(None, "R9.5", PATTERN_CAPS, minimum=1,
                                             maximum=MAX_MULTIPLIER, offered=(), factory=dict)
    cap_excludes_declare: bool = _option(False, "R9.6", BOOLEAN, choices=(False, True))
    base: int = _option(1, "R9.7", INTEGER, minimum=1, maximum=MAX_BASE,
                        offered=(1, 2, 5))  # 底金 (R18.1)
    si_gui_channel: str = _option("off", "R9.8", STRING,
                                  choices=("off", "full", "full_once", "half"))  # 全频道/半频道
    flush_four_bonus: str = _option("off", "R9.9", STRING, choices=("off", "x2_each"))  # 见四乘二
    ka_wu_xing_value: int = _option(2, "R9.10", INTEGER, choices=(2, 4))  # 卡五星×4
    peng_peng_value: int = _option(2, "R9.11", INTEGER, choices=(2, 4))  # 碰碰胡×4
    kong_win_value: int = _option(2, "R9.12", INTEGER, choices=(2, 4))  # 杠上花/杠上炮×4
    kong_win_value_includes_robbing: bool = _option(False, "R9.13", BOOLEAN,
                                                    choices=(False, True))
    seven_pairs_values: str = _option("standard", "R9.14", STRING,
                                      choices=("standard", "steep", "doubled"))
    san_yuan_seven_pairs: str | int = _option("off", "R9.15", CHOICE,
                                              choices=("off", 16, 32))  # 三元七对
    shou_zhua_yi_value: int = _option(4, "R9.16", INTEGER, choices=(4, 2))  # 手抓一
    shou_zhua_yi_with_peng_peng: str = _option("combine", "R9.17", STRING,
                                               choices=("combine", "exclusive"))
    kong_chain_win_bonus: bool = _option(False, "R9.18", BOOLEAN, choices=(False, True))
    draw_compensation: str = _option("per_declarer", "R10.2", STRING,
                                     choices=("per_declarer", "first_declarer", "none",
                                              "first_declarer_2", "cha_jiao", "cha_jiao_flat"))
    cha_jiao_declared_pays: str = _option(
        "always", "R10.4", STRING, choices=("always", "all_ready_only", "first_declarer_all_ready"))
    cha_jiao_doubling: str = _option("r8_8", "R10.5", STRING, choices=("r8_8", "none"))
    cha_jiao_extras: str = _option("none", "R10.6", STRING, choices=("none", "piao_and_kan"))
    piao_choices: tuple[int, ...] = _option((), "R11.1", INTEGER_LIST, minimum=0, maximum=1000,
                                            max_items=10, offered=((), (0, 1, 2, 5)))
    piao_mode: str = _option("each_hand", "R11.2", STRING,
                             choices=("each_hand", "first_hand", "fixed"))  # 每局选漂/首局定漂/固定漂
    piao_fixed: int = _option(1, "R11.3", INTEGER, minimum=1, maximum=1000, offered=(1, 2, 3, 5))
    piao_times_base: bool = _option(False, "R11.4", BOOLEAN, choices=(False, True))
    piao_bao_hu: str = _option("once", "R11.5", STRING, choices=("once", "per_share"))
    # a room form asks for it as the number of hands of the match
    hands_per_match: int = _option(8, "R12.1", INTEGER, minimum=1,
                                   offered=(1, 2, 4, 8, 12, 16))
    horse_buy: str = _option("off", "R14.1", STRING,
                             choices=("off", "self_draw", "declared_self_draw"))  # 买马
    horse_kind: str = _option("one", "R14.2", STRING, choices=("one", "six", "one_plus_one"))
    horse_from: str = _option("next", "R14.3", STRING, choices=("next", "far_end"))
    shu_kan: str = _option("off", "R15.1", STRING, choices=("off", "on"))  # 数坎
    shu_kan_triplets: str = _option("kinds", "R15.2", STRING, choices=("kinds", "reading"))
    shu_kan_discard_triplet: str = _option("counts", "R15.3", STRING,
                                           choices=("counts", "not_counted"))
    shu_kan_seven_pairs: int | str = _option(0, "R15.4", CHOICE, choices=(0, "fours"))
    pao_qia_mo_ba: str = _option("off", "R16.1", STRING, choices=("off", "on"))  # 跑恰摸八
    ba_count: str = _option("all_tiles", "R16.2", STRING,
                            choices=("all_tiles", "per_suit", "concealed"))
    shang_lou: str = _option("off", "R17.1", STRING,
                             choices=("off", "dice_doubles", "after_draw"))  # 上楼
    shang_lou_scope: str = _option("hand_value", "R17.2", STRING,
                                   choices=("hand_value", "everything"))
    extras_times_base: bool = _option(True, "R18.2", BOOLEAN, choices=(True, False))

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if not any(value == a and type(value) is type(a) for a in allowed):
                raise RulesError(f"option {name}: {value!r} is not one of "
                                 f"{', '.join(json.dumps(a) for a in allowed)}")
        suits = tuple(self.suits) if isinstance(self.suits, (list, tuple, str)) else ()
        if len(suits) != 2 or not all(isinstance(s, str) and s in ("m", "p", "s") for s in suits) \
                or suits[0] == suits[1]:
            raise RulesError(f"option suits: {self.suits!r} must be two different of "
                             '"m", "p", "s" (R1.1)')
        object.__setattr__(self, "suits", tuple(sorted(suits, key="mps".index)))
        if self.cap == "none":  # RULES.md R9.5 writes the default as `none`
            object.__setattr__(self, "cap", None)
        if self.cap is not None and not (_positive_int(self.cap) and self.cap <= MAX_MULTIPLIER):
            raise RulesError(f"option cap: {self.cap!r} must be a whole number 1-{MAX_MULTIPLIER}"
                             " or none")
        if not isinstance(self.cap_exceptions, dict):
            raise RulesError("option cap_exceptions: must be a table of pattern name -> cap")
        for name, cap in self.cap_exceptions.items():
            if name not in BY_NAME:
                raise RulesError(f"option cap_exceptions: unknown pattern {name!r}; known: "
                                 f"{', '.join(BY_NAME)}")
            if not (_positive_int(cap) and cap <= MAX_MULTIPLIER):
                raise RulesError(f"option cap_exceptions: {name} cap {cap!r} must be a whole "
                                 f"number 1-{MAX_MULTIPLIER}")
        if _positive_int(self.base) and self.base > MAX_BASE:
            raise RulesError(f"option base: {self.base!r} must be a whole number 1-{MAX_BASE}")
        for name in ("base", "hands_per_match", "piao_fixed"):
            if not _positive_int(getattr(self, name)):
                raise RulesError(f"option {name}: {getattr(self, name)!r} must be a positive "
                                 "integer")
        piao = tuple(self.piao_choices) if isinstance(self.piao_choices, (list, tuple)) else None
        if piao is None:
            raise RulesError(f"option piao_choices: {self.piao_choices!r} must be a list of "
                             "distinct whole numbers >= 0, e.g. [0,1,2,5] (R11.1)")
        if not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in piao) or \
                len(set(piao)) != len(piao):
            raise RulesError(f"option piao_choices: {list(piao)!r} must be distinct whole "
                             "numbers >= 0 (R11.1)")
        limit = _SPECS["piao_choices"]
        if len(piao) > limit.max_items or any(p > limit.maximum for p in piao):
            raise RulesError(f"option piao_choices: at most {limit.max_items} choices of at most "
                             f"{limit.maximum} each (R11.1), got {len(piao)}")
        object.__setattr__(self, "piao_choices", piao)
        if self.piao_fixed > _SPECS["piao_fixed"].maximum:
            raise RulesError(f"option piao_fixed: {self.piao_fixed!r} must be a whole number "
                             f"1-{_SPECS['piao_fixed'].maximum} (R11.3)")
        if self.pass_win_doubles and self.declared_must_win:
            raise RulesError("option pass_win_doubles: true needs declared_must_win false "
                             "(R8.18: a declared player who must win never passes one)")

    def __hash__(self) -> int:
        """Of the options, computed once (the instance is frozen; bots key caches by it), as
        a CRC so that a copy pickled to another process keeps a valid cached hash."""
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = zlib.crc32(json.dumps(self.to_dict(), sort_keys=True).encode())
            object.__setattr__(self, "_hash", cached)
        return cached

    @classmethod
    def preset(cls, name: str = DEFAULT_PRESET, **overrides: object) -> RuleSet:
        """The preset ``name`` (RULES.md "Presets") with option ``overrides`` applied.

        Raises :class:`RulesError` for an unknown preset, option or value.
        """
        options = preset_overrides(name)
        options.update(overrides)
        return cls.from_options(options)

    @classmethod
    def from_options(cls, options: dict[str, object]) -> RuleSet:
        """A RuleSet from option name -> value over the defaults; unknown names are an error."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise RulesError(f"unknown option {unknown[0]!r}; options: {', '.join(sorted(known))}")
        values = dict(options)
        if "suits" in values and isinstance(values["suits"], (list, tuple)):
            values["suits"] = tuple(values["suits"])
        if "piao_choices" in values and isinstance(values["piao_choices"], (list, tuple)):
            values["piao_choices"] = tuple(values["piao_choices"])
        return cls(**values)

    @classmethod
    def from_dict(cls, data: dict[str, object] | None) -> RuleSet:
        """``{"preset": NAME, option: value, ...}`` (a case's ``rules``); ``None`` = standard."""
        if data is None:
            return cls.preset()
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object of options, got {type(data).__name__}")
        data = dict(data)
        name = data.pop("preset", DEFAULT_PRESET)
        return cls.preset(name, **data)

    def to_dict(self) -> dict[str, object]:
        """All options as JSON-ready values (tuples become lists)."""
        out = asdict(self)
        out["suits"] = list(self.suits)
        out["piao_choices"] = list(self.piao_choices)
        return out

    def with_options(self, **options: object) -> RuleSet:
        """A copy with some options changed (validated as in the constructor).

        Raises :class:`RulesError` for an unknown option or a bad value."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise RulesError(f"unknown option {unknown[0]!r}; options: {', '.join(sorted(known))}")
        return replace(self, **options)


def option_specs() -> dict[str, Option]:
    """Every RuleSet option name -> its :class:`Option`, in RuleSet field order (rule order)."""
    return dict(_SPECS)


def preset_overrides(name: str) -> dict[str, object]:
    """The options preset ``name`` sets over the defaults (a fresh dict each call).

    A preset is ``presets/NAME.toml``: option values, an optional ``extends = "OTHER"`` (a town
    preset is ``server_common`` plus its own row, VARIANTS.md "Presets") whose options it
    overrides, and an optional ``[town]`` table (:func:`preset_town`), which is not an option.
    Raises :class:`RulesError` for an unknown preset."""
    data = _preset_file(name)
    data.pop("town", None)
    parent = data.pop("extends", None)
    options = preset_overrides(parent) if parent else {}
    options.update(data)
    return options


def preset_town(name: str) -> dict[str, object] | None:
    """A town preset's ``[town]`` table: ``{"name": "襄阳", "alternatives": {option: [values]}}``
    (the values a room there may also pick, VARIANTS.md "selectable"); None for other presets.

    Raises :class:`RulesError` for an unknown preset."""
    town = _preset_file(name).get("town")
    if town is None:
        return None
    return {"name": town["name"], "alternatives": dict(town.get("alternatives", {}))}


def _preset_file(name: str) -> dict[str, object]:
    if name not in ALL_PRESETS:
        raise RulesError(f"unknown preset {name!r}; presets: {', '.join(ALL_PRESETS)}")
    text = resources.files("kawuxing").joinpath("presets", f"{name}.toml").read_text("utf-8")
    return tomllib.loads(text)


def value_label_key(name: str, value: object) -> str:
    """The i18n key of one value of option ``name``: ``opt_<name>_<slug>``, the slug being the
    value's JSON with everything but letters, digits and ``_`` removed (``opt_cap_null``,
    ``opt_suits_ps``, ``opt_piao_choices_0125``, ``opt_piao_choices_`` for ``[]``)."""
    return f"opt_{name}_{re.sub(r'[^a-z0-9_]', '', json.dumps(_json(value)), flags=re.I)}"


def option_schema(name: str) -> dict[str, object]:
    """One option as JSON: ``{"name", "rule", "type", "default", "choices", "minimum",
    "maximum", "max_items", "label", "help", "offered": [{"value", "label"}, ...]}``.

    ``choices`` is null for an open option (bounded by ``minimum``/``maximum``/``max_items``);
    ``offered`` is empty for an option a room form does not show. Raises ``KeyError`` for an
    unknown option name."""
    spec = _SPECS[name]
    offered = spec.choices if spec.offered is None else spec.offered
    return {
        "name": name, "rule": spec.rule, "type": spec.type,
        "default": _DEFAULT.to_dict()[name],
        "choices": [_json(c) for c in spec.choices] or None,
        "minimum": spec.minimum, "maximum": spec.maximum, "max_items": spec.max_items,
        "label": f"optname_{name}", "help": f"opthelp_{name}",
        "offered": [{"value": _json(v), "label": value_label_key(name, v)} for v in offered],
    }


def rules_schema() -> dict[str, object]:
    """Every option and preset as JSON (``GET /api/rules``)::

        {"options": [option_schema(name), ...],          # RuleSet field order
         "presets": {NAME: {"options": {...}, "label": "preset_NAME",
                            "help": "preset_help_NAME",
                            "town": preset_town(NAME)}, ...},    # ALL_PRESETS order
         "default_preset": "standard",
         "common": ["cap", ...],                         # ROOM_PICKS: a form shows them first
         "patterns": [R9.1 pattern names]}               # the keys cap_exceptions takes

    A preset's ``options`` are what it changes from the defaults (its ``extends`` included).
    """
    return {
        "options": [option_schema(name) for name in _SPECS],
        "presets": {name: {"options": preset_overrides(name), "label": f"preset_{name}",
                           "help": f"preset_help_{name}", "town": preset_town(name)}
                    for name in ALL_PRESETS},
        "default_preset": DEFAULT_PRESET,
        "common": list(ROOM_PICKS),
        "patterns": list(BY_NAME),
    }


def parse_option(text: str) -> tuple[str, object]:
    """Read one ``name=value`` override from the command line.

    The value is JSON when it parses (``true``, ``8``, ``[0,1,2,5]``, ``{"双龙七对": 16}``),
    ``none``/``null`` is None (``cap=none``) except that ``none`` stays the string for the
    options that have a ``none`` choice (``missed_win_exception``, ``draw_compensation``);
    anything else is a string. Raises :class:`RulesError`.
    """
    name, sep, raw = text.partition("=")
    if not sep or not name.strip():
        raise RulesError(f"bad option {text!r}: write name=value, e.g. cap=8")
    raw, name = raw.strip(), name.strip()
    if raw.lower() in ("none", "null"):
        # `none` is a value of its own for some options (R7.5, R10.2), None for cap (R9.5)
        return name, "none" if raw == "none" and "none" in _CHOICES.get(name, ()) else None
    try:
        return name, json.loads(raw)
    except ValueError as exc:
        if raw[:1] in "{[":  # meant as JSON: say where it breaks
            raise RulesError(f"option {name}: {raw!r} is not valid JSON ({exc})") from None
        return name, raw


def _positive_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _json(value: object) -> object:
    """A choice as JSON: tuples become lists."""
    return list(_json(v) for v in value) if isinstance(value, tuple) else value


# option -> its Option, in field order; option -> allowed values, the one table that the
# closed-choice validation reads (suits has its own check: any order of a pair is accepted)
_SPECS: dict[str, Option] = {f.name: f.metadata[OPTION_META] for f in fields(RuleSet)}
_CHOICES: dict[str, tuple] = {name: spec.choices for name, spec in _SPECS.items()
                              if spec.choices and spec.type != SUIT_PAIR}
_DEFAULT = RuleSet()
