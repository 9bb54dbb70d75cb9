"""Rule sets: every option of RULES.md, typed and validated, and the presets (R1-R13).

A :class:`RuleSet` is immutable. Build one with :meth:`RuleSet.preset` (``standard``,
``capped``, ``flat8``, ``strict``, ``app``: data files in ``kawuxing/presets/``) plus overrides,
or :meth:`RuleSet.from_dict` (``{"preset": "capped", "cap": 16}``, the shape of a case's
``rules``). Unknown options and bad values raise :class:`RulesError` naming the option.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import asdict, dataclass, field, fields, replace
from importlib import resources

from .patterns import BY_NAME

PRESETS = ("standard", "capped", "flat8", "strict", "app")

# option -> allowed values (a tuple) or a type check name; the one table validation reads.
_CHOICES: dict[str, tuple] = {
    "first_dealer": ("random", "seat0"),  # R2.1
    "draw_dealer": ("stay", "declarer"),  # R2.2
    "double_win": (True, False),  # R4.3
    "concealed_kong_visible": (False, True),  # R6.1
    "direct_kong_pay": (2, 1),  # R6.3
    "min_multiplier_discard_win": (2, 1),  # R7.3
    "robbing_kong": (True, False),  # R7.4
    "missed_win_exception": ("bigger", "none"),  # R7.5
    "mutual_declared": ("double", "single"),  # R8.5
    "declare_hide_triplets": (False, True),  # R8.6
    "feeding_declared": ("allowed", "forbidden_if_safe_tile"),  # R8.7
    "an_si_gui_on_discard": (True, False),  # R9.1
    "three_quad_seven_pairs": (32, 16),  # R9.1
    "last_discard_bonus": (False, True),  # R9.1
    "si_gui_in_hand": ("flush", "any_pattern", "win_tile_only"),  # R9.4
    "cap_excludes_declare": (False, True),  # R9.6
    "draw_compensation": ("per_declarer", "first_declarer", "none"),  # R10.2
}


class RulesError(ValueError):
    """An unknown option, a bad option value or an unknown preset."""


@dataclass(frozen=True)
class RuleSet:
    """Every option of RULES.md with its default (the ``standard`` preset).

    Units: ``base`` (底金) and all payments are integer base units; ``cap`` is a multiplier
    (None = no cap). See RULES.md for each option; the rule number is in the comment.
    """

    suits: tuple[str, str] = ("p", "s")  # R1.1
    first_dealer: str = "random"  # R2.1
    draw_dealer: str = "stay"  # R2.2
    double_win: bool = True  # R4.3 一炮双响
    concealed_kong_visible: bool = False  # R6.1
    direct_kong_pay: int = 2  # R6.3
    min_multiplier_discard_win: int = 2  # R7.3
    robbing_kong: bool = True  # R7.4
    missed_win_exception: str = "bigger"  # R7.5
    mutual_declared: str = "double"  # R8.5
    declare_hide_triplets: bool = False  # R8.6
    feeding_declared: str = "allowed"  # R8.7
    an_si_gui_on_discard: bool = True  # R9.1
    three_quad_seven_pairs: int = 32  # R9.1
    last_discard_bonus: bool = False  # R9.1
    si_gui_in_hand: str = "flush"  # R9.4
    cap: int | None = None  # R9.5
    cap_exceptions: dict[str, int] = field(default_factory=dict)  # R9.5 pattern name -> cap
    cap_excludes_declare: bool = False  # R9.6
    base: int = 1  # R9.7 底金
    draw_compensation: str = "per_declarer"  # R10.2
    piao_choices: tuple[int, ...] = ()  # R11.1
    hands_per_match: int = 8  # R12.1

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
        if self.cap is not None and not _positive_int(self.cap):
            raise RulesError(f"option cap: {self.cap!r} must be a positive integer or none")
        if not isinstance(self.cap_exceptions, dict):
            raise RulesError("option cap_exceptions: must be a table of pattern name -> cap")
        for name, cap in self.cap_exceptions.items():
            if name not in BY_NAME:
                raise RulesError(f"option cap_exceptions: unknown pattern {name!r}; known: "
                                 f"{', '.join(BY_NAME)}")
            if not _positive_int(cap):
                raise RulesError(f"option cap_exceptions: {name} cap {cap!r} must be a positive"
                                 " integer")
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
        if len(piao) > 10 or any(p > 1000 for p in piao):
            raise RulesError(f"option piao_choices: at most 10 choices of at most 1000 each "
                             f"(R11.1), got {len(piao)}")
        object.__setattr__(self, "piao_choices", piao)

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_dict(), sort_keys=True))

    @classmethod
    def preset(cls, name: str = "standard", **overrides: object) -> RuleSet:
        """The preset ``name`` (RULES.md "Presets") with option ``overrides`` applied.

        Raises :class:`RulesError` for an unknown preset, option or value.
        """
        if name not in PRESETS:
            raise RulesError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}")
        text = resources.files("kawuxing").joinpath("presets", f"{name}.toml").read_text("utf-8")
        options = tomllib.loads(text)
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
        name = data.pop("preset", "standard")
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
