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
from dataclasses import asdict, dataclass, field, fields, replace
from importlib import resources
from typing import Any

from .patterns import BY_NAME

PRESETS = ("standard", "capped", "flat8", "strict", "app")
MAX_MULTIPLIER = 1 << 16  # a cap above any product of R9.1 patterns (so: no cap) is refused
MAX_BASE = 10_000  # 底金 in units; keeps every score an exact number in JSON clients
DEFAULT_PRESET = "standard"

# Option.type: what values an option takes (the JSON shapes; "choices" narrows a type to a list).
BOOLEAN = "boolean"
STRING = "string"
INTEGER = "integer"
INTEGER_OR_NULL = "integer_or_null"  # a whole number, or null (none)
INTEGER_LIST = "integer_list"  # a list of whole numbers
SUIT_PAIR = "suit_pair"  # two different suit letters of m/p/s, any order (kept in m-p-s order)
PATTERN_CAPS = "pattern_caps"  # an object: R9.1 pattern name -> positive whole number

OPTION_META = "kawuxing.option"  # the key of a RuleSet field's metadata holding its Option


@dataclass(frozen=True)
class Option:
    """What one :class:`RuleSet` option is, for validation and for clients.

    - ``rule``: the RULES.md rule that defines it (``"R9.5"``).
    - ``type``: one of ``boolean``, ``string``, ``integer``, ``integer_or_null``,
      ``integer_list``, ``suit_pair``, ``pattern_caps`` (see the module constants).
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
    draw_dealer: str = _option("stay", "R2.2", STRING, choices=("stay", "declarer"))
    double_win: bool = _option(True, "R4.3", BOOLEAN, choices=(True, False))  # 一炮双响
    concealed_kong_visible: bool = _option(False, "R6.1", BOOLEAN, choices=(False, True))
    direct_kong_pay: int = _option(2, "R6.3", INTEGER, choices=(2, 1))
    min_multiplier_discard_win: int = _option(2, "R7.3", INTEGER, choices=(2, 1))
    robbing_kong: bool = _option(True, "R7.4", BOOLEAN, choices=(True, False))
    missed_win_exception: str = _option("bigger", "R7.5", STRING, choices=("bigger", "none"))
    mutual_declared: str = _option("double", "R8.5", STRING, choices=("double", "single"))
    declare_hide_triplets: bool = _option(False, "R8.6", BOOLEAN, choices=(False, True))
    feeding_declared: str = _option("allowed", "R8.7", STRING,
                                    choices=("allowed", "forbidden_if_safe_tile"))
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
    base: int = _option(1, "R9.7", INTEGER, minimum=1, maximum=MAX_BASE, offered=())  # 底金
    draw_compensation: str = _option("per_declarer", "R10.2", STRING,
                                     choices=("per_declarer", "first_declarer", "none"))
    piao_choices: tuple[int, ...] = _option((), "R11.1", INTEGER_LIST, minimum=0, maximum=1000,
                                            max_items=10, offered=((), (0, 1, 2, 5)))
    # a room form asks for it as the number of hands of the match
    hands_per_match: int = _option(8, "R12.1", INTEGER, minimum=1,
                                   offered=(1, 2, 4, 8, 12, 16))

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
        for name in ("base", "hands_per_match"):
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

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_dict(), sort_keys=True))

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
    """The options preset ``name`` sets (its ``presets/NAME.toml``, a fresh dict each call).

    Raises :class:`RulesError` for an unknown preset."""
    if name not in PRESETS:
        raise RulesError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}")
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
                            "help": "preset_help_NAME"}, ...},   # PRESETS order
         "default_preset": "standard",
         "patterns": [R9.1 pattern names]}               # the keys cap_exceptions takes

    A preset's ``options`` are exactly its TOML file's (what it changes from the defaults).
    """
    return {
        "options": [option_schema(name) for name in _SPECS],
        "presets": {name: {"options": preset_overrides(name), "label": f"preset_{name}",
                           "help": f"preset_help_{name}"} for name in PRESETS},
        "default_preset": DEFAULT_PRESET,
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
    except ValueError:
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
