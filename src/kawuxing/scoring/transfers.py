"""Payments of a hand as data (RULES.md R6, R7.2, R8.4, R10, R11, R14-R18): who pays whom, why.

A :class:`Transfer` names its cause by a machine-readable ``kind`` with the parameters that
explain its amount, never by prose. Its JSON form, the same in engine events, views, records,
server messages and ``kawuxing score --json``, is flat::

    {"kind": "kong_exposed", "payer": 1, "payee": 0, "amount": 4, "rule": "R6.3 R6.5",
     "chain": 2, "factor": 2}

========================  =================================================  ==============
``kind``                  parameters                                         rule
========================  =================================================  ==============
``hand_value``            ``patterns`` (keys, ``["pi_hu"]`` for 屁胡),        R7.2 R9.7
                          ``multiplier`` (after the cap), ``win_by``
``bao_hu``                as ``hand_value``; the amount is doubled (包胡)     R8.4 R9.7
``kong_concealed``        ``chain`` (n-th kong of a 杠上杠 chain), ``factor``   R6.1 (+R6.5)
``kong_added``            ``chain``, ``factor`` (2^(n-1))                    R6.2 (+R6.5)
``kong_exposed``          ``chain``, ``factor``                              R6.3 (+R6.5)
``draw_compensation``     ``mode`` (``per_declarer`` | ``first_declarer`` |   R10.2 R10.3
                          ``first_declarer_2``)
``piao``                  ``payer_piao``, ``payee_piao``                     R11.1
``horse``                 ``tiles`` (MPSZ), ``value`` (units per payer)      R14.1 R14.2
``kan``                   ``count`` (坎), ``shares`` (2 under 包胡)           R15.1
``pao_qia_mo_ba``         ``pao``, ``qia``, ``mo``, ``ba``, ``shares``       R16.1 R16.2
``cha_jiao``              ``mode`` (``cha_jiao`` | ``cha_jiao_flat``),       R10.3-R10.5
                          ``payer_class``, ``payee_class`` (``declared`` |
                          ``ready`` | ``not_ready``), ``multiplier``; with
                          ``cha_jiao``: ``wait``, ``patterns``
========================  =================================================  ==============

A payment changed by a town option carries what changed it, only then (VARIANTS.md R18.3):
``declared_doubling`` (R8.8: 2 or 4 in a share), ``shares`` (包胡: each share's multiplier, when
they differ or R8.10 ``total`` caps their sum), ``passed_wins`` (R8.18), ``dice`` (R17.1 豹子:
2), ``base_factor`` (R17.1 ``after_draw``: the base ×2, ×4 …), ``third_piao`` (R11.5).

Words for people are made from kind and parameters in one place, :func:`describe` (English
with the Chinese terms, for the CLI); the browser translates by ``kind`` (web/static/js/i18n.js).
A kong transfer carries no tile: the transfer event reaches every seat, and the tile of a
concealed kong is hidden from the others (R6.1, R13.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..patterns import BY_KEY, PI_HU
from ..tiles import parse_tile, tile_english

HAND_VALUE = "hand_value"
BAO_HU = "bao_hu"
KONG_CONCEALED = "kong_concealed"
KONG_ADDED = "kong_added"
KONG_EXPOSED = "kong_exposed"
DRAW_COMPENSATION = "draw_compensation"
PIAO = "piao"
HORSE = "horse"
KAN = "kan"
PAO_QIA_MO_BA = "pao_qia_mo_ba"
CHA_JIAO = "cha_jiao"

#: the payments of a hand value (R7.2; 包胡 R8.4)
WIN_KINDS = (HAND_VALUE, BAO_HU)
#: kong money (R6.1-R6.3, R6.5)
KONG_KINDS = (KONG_CONCEALED, KONG_ADDED, KONG_EXPOSED)
#: every kind, with the parameters each must carry
PARAMS: dict[str, tuple[str, ...]] = {
    HAND_VALUE: ("patterns", "multiplier", "win_by"),
    BAO_HU: ("patterns", "multiplier", "win_by"),
    KONG_CONCEALED: ("chain", "factor"),
    KONG_ADDED: ("chain", "factor"),
    KONG_EXPOSED: ("chain", "factor"),
    DRAW_COMPENSATION: ("mode",),
    PIAO: ("payer_piao", "payee_piao"),
    HORSE: ("tiles", "value"),
    KAN: ("count", "shares"),
    PAO_QIA_MO_BA: ("pao", "qia", "mo", "ba", "shares"),
    CHA_JIAO: ("mode", "payer_class", "payee_class", "multiplier"),
}
#: the extras of a win, on top of its hand value (R14-R16)
EXTRA_KINDS = (HORSE, KAN, PAO_QIA_MO_BA)
#: draw_compensation modes settled by 查叫 (R10.3, :mod:`kawuxing.cha_jiao`)
CHA_JIAO_MODES = ("cha_jiao", "cha_jiao_flat")
KINDS = tuple(PARAMS)
_FIELDS = ("kind", "payer", "payee", "amount", "rule")

# kong kind -> (what it is in words, its rule, its money per payer before the chain: None
# for 直杠, whose money is the option direct_kong_pay)
_KONG = {KONG_CONCEALED: ("暗杠 concealed kong", "R6.1", 2),
         KONG_ADDED: ("补杠 added kong", "R6.2", 1),
         KONG_EXPOSED: ("直杠 exposed kong", "R6.3", None)}
_COMPENSATION = {"per_declarer": "荒庄 亮倒 compensation",
                 "first_declarer": "荒庄 compensation by the first declarer",
                 "first_declarer_2": "荒庄 compensation by the first declarer (2 each)"}
# R10.3 查叫 classes in words
_CLASSES = {"declared": "declared (亮)", "ready": "ready (听)", "not_ready": "not ready (未听)"}
# R10.2/R10.3: the units a first declarer pays each other player
_FIRST_DECLARER_UNITS = {"first_declarer": 1, "first_declarer_2": 2}


@dataclass(frozen=True)
class Transfer:
    """One payment: seat ``payer`` pays seat ``payee`` ``amount`` units (base units; 漂 units
    for ``piao``, R11.1), for the reason ``kind`` (one of :data:`KINDS`) with its ``params``
    (see the module table); ``rule`` the RULES.md numbers.

    Raises ``ValueError`` for an unknown kind or missing parameters.
    """

    payer: int
    payee: int
    amount: int
    kind: str
    rule: str = ""
    params: dict = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if self.kind not in PARAMS:
            raise ValueError(f"transfer kind {self.kind!r}: use one of {', '.join(KINDS)}")
        missing = [p for p in PARAMS[self.kind] if p not in self.params]
        if missing:
            raise ValueError(f"transfer {self.kind}: missing {', '.join(missing)}")
        clash = [p for p in self.params if p in _FIELDS]
        if clash:
            raise ValueError(f"transfer {self.kind}: parameter {clash[0]!r} is a field")

    def to_json(self) -> dict:
        """The flat JSON form: ``kind``, ``payer``, ``payee``, ``amount``, ``rule``, then the
        parameters (a new dict; lists copied)."""
        out = {"kind": self.kind, "payer": self.payer, "payee": self.payee,
               "amount": self.amount, "rule": self.rule}
        for key, value in self.params.items():
            out[key] = list(value) if isinstance(value, (list, tuple)) else value
        return out

    @classmethod
    def from_json(cls, data: dict) -> Transfer:
        """Read :meth:`to_json`'s form back. Raises ``ValueError`` if it is not one (a record
        written before transfers had a ``kind`` has only a ``reason``)."""
        if not isinstance(data, dict) or "kind" not in data:
            raise ValueError(f"not a transfer with a kind: {data!r}")
        params = {k: v for k, v in data.items() if k not in _FIELDS}
        return cls(data["payer"], data["payee"], data["amount"], data["kind"],
                   data.get("rule", ""), params)

    def describe(self) -> str:
        """Why, in words (English with the Chinese terms): see :func:`describe`."""
        return describe(self.to_json())

    def __str__(self) -> str:
        return f"seat {self.payer} pays seat {self.payee} {self.amount}: {self.describe()}"


def describe(transfer: dict) -> str:
    """The reason of a transfer in its JSON form, in words for the CLI: e.g.
    ``"hand value 卡五星+清一色 ×8"``, ``"直杠 exposed kong, 杠上杠 ×2 (kong 2 of a chain)"``,
    ``"漂 1+2"``. The one place that turns a ``kind`` into prose. A transfer of a record
    written before kinds existed keeps its stored ``reason``; an unknown kind is named as is."""
    kind = transfer.get("kind")
    if kind is None:
        return str(transfer.get("reason", ""))
    return _describe_kind(kind, transfer) + _changed_by(transfer)


def _describe_kind(kind: str, transfer: dict) -> str:
    if kind in WIN_KINDS:
        names = "+".join(pattern_name(k) for k in transfer["patterns"]) or PI_HU.name
        text = f"hand value {names} ×{transfer['multiplier']}"
        return text + (", 包胡 double (discard to a declared hand)" if kind == BAO_HU else "")
    if kind in _KONG:
        text = _KONG[kind][0]
        if transfer["factor"] > 1:
            text += f", 杠上杠 ×{transfer['factor']} (kong {transfer['chain']} of a chain)"
        return text
    if kind == DRAW_COMPENSATION:
        return _COMPENSATION.get(transfer["mode"], f"荒庄 compensation ({transfer['mode']})")
    if kind == PIAO:
        return f"漂 {transfer['payer_piao']}+{transfer['payee_piao']}"
    if kind == HORSE:
        tiles = " ".join(tile_english(parse_tile(t)) for t in transfer["tiles"])
        return f"买马 horses {tiles}: worth {transfer['value']}"
    if kind == KAN:
        return f"数坎: {transfer['count']} 坎"
    if kind == PAO_QIA_MO_BA:
        return (f"跑恰摸八: 跑 {transfer['pao']} + 恰 {transfer['qia']} + 摸 {transfer['mo']} + "
                f"八 {transfer['ba']}")
    if kind == CHA_JIAO:
        payer, payee = (_CLASSES.get(transfer[k], transfer[k]) for k in ("payer_class",
                                                                        "payee_class"))
        if "wait" not in transfer:
            return f"查叫 (1 each): {payer} pays {payee}"
        return (f"查叫: {payer} pays {payee}, waiting on "
                f"{tile_english(parse_tile(transfer['wait']))} ×{transfer['multiplier']}")
    return str(kind)


def _changed_by(transfer: dict) -> str:
    """The words for what a town option changed in a payment (R18.3), after its reason."""
    text = ""
    shares = transfer.get("shares")
    if isinstance(shares, list):  # a hand value's 包胡 shares
        text += " (shares " + " + ".join(f"×{m}" for m in shares) + ")"
    elif shares is not None and shares > 1:  # an extra paid once per share
        text += f", {shares} 包胡 shares"
    if transfer.get("declared_doubling", 1) > 1:
        text += f", 亮倒 doubling ×{transfer['declared_doubling']}"
    if transfer.get("passed_wins"):
        text += f", 过胡翻番 ({transfer['passed_wins']} wins passed)"
    if transfer.get("dice"):
        text += f", 上楼 dice doubles ×{transfer['dice']}"
    if transfer.get("base_factor", 1) > 1:
        text += f", 上楼 base ×{transfer['base_factor']}"
    if "third_piao" in transfer:
        text += f", and 漂 {transfer['payee_piao']}+{transfer['third_piao']} for the third player"
    return text


def pattern_name(key: str) -> str:
    """The Chinese name of the pattern ``key`` (the key itself if unknown)."""
    found = BY_KEY.get(key)
    return found.name if found else key


def kong_transfers(kind: str, konger: int, payers: list[int], chain: int, base: int,
                   money: int | None = None, *, base_factor: int = 1) -> list[Transfer]:
    """Kong money (R6.1-R6.3), paid at once (R6.6), one transfer per payer.

    ``kind``: one of :data:`KONG_KINDS`; ``chain``: this kong is the n-th of a 杠上杠 chain
    (n >= 1), so it pays 2^(n-1) × its money (R6.5); ``base``: 底金; ``money``: the money per
    payer before the chain, by default 2 (暗杠) or 1 (补杠) — required for 直杠, whose money is
    the option ``direct_kong_pay`` (R6.3). ``base_factor`` (R17.1 ``after_draw``: the hand's
    base ×2, ×4 …) multiplies it and is then named in the params. Raises ``ValueError`` for
    a bad kind or chain.
    """
    if kind not in _KONG:
        raise ValueError(f"kong kind {kind!r}: use one of {', '.join(KONG_KINDS)}")
    if type(chain) is not int or chain < 1:
        raise ValueError(f"chain {chain!r}: a kong is the first (1) or a later kong of a chain")
    _, rule, default = _KONG[kind]
    money = default if money is None else money
    if money is None:
        raise ValueError("kong_exposed: give its money (option direct_kong_pay, R6.3)")
    factor = 2 ** (chain - 1)
    rule += " R6.5" if factor > 1 else ""
    params: dict = {"chain": chain, "factor": factor}
    if base_factor > 1:
        params["base_factor"] = base_factor
        rule += " R17.1"
    return [Transfer(payer, konger, money * factor * base * base_factor, kind, rule,
                     dict(params)) for payer in payers]


def draw_compensation(declarers: list[int], mode: str, base: int) -> list[Transfer]:
    """亮倒 compensation of an exhaustive draw (R10.2, R10.3).

    ``declarers``: the seats that declared 亮倒, in the order they declared; ``mode``: the option
    ``draw_compensation``: ``per_declarer`` (each declarer pays each non-declarer ``base``;
    nobody pays if all three declared), ``first_declarer`` (the first to declare pays each
    other seat ``base``), ``first_declarer_2`` (the same, 2 × ``base``) or ``none``. Raises
    ``ValueError`` for another mode (the 查叫 modes, :data:`CHA_JIAO_MODES`, need the hands:
    :func:`kawuxing.cha_jiao.cha_jiao_transfers`).
    """
    if mode == "none" or not declarers:
        return []
    if mode == "per_declarer":
        return [Transfer(d, o, base, DRAW_COMPENSATION, "R10.2", {"mode": mode})
                for d in sorted(declarers) for o in range(3) if o not in declarers]
    if mode in _FIRST_DECLARER_UNITS:
        first = declarers[0]
        rule = "R10.2" if mode == "first_declarer" else "R10.3"
        return [Transfer(first, o, _FIRST_DECLARER_UNITS[mode] * base, DRAW_COMPENSATION, rule,
                         {"mode": mode}) for o in range(3) if o != first]
    raise ValueError(f"draw_compensation {mode!r}: per_declarer, first_declarer, "
                     "first_declarer_2 or none")
