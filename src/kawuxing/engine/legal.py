"""The one place that decides what a seat may do (RULES.md R4-R8, R11).

:func:`legal_actions` lists every legal :class:`Action` of a seat at this moment;
:func:`claim_options` decides who may take a discard or rob a kong; :func:`why_illegal`
explains a refusal with its rule. Nothing else in the project re-derives legality.
"""

from __future__ import annotations

from itertools import combinations, compress
from typing import TYPE_CHECKING

from ..face_down import PUNG as GROUP_PUNG
from ..face_down import Group, fixed_waits, is_fixed_win, pungs, waiting_part, without
from ..melds import MELD_PUNG, Meld
from ..rules import RuleSet
from ..scoring import DISCARD as BY_DISCARD
from ..scoring import (ROBBING_KONG, SELF_DRAW, HandValue, WinningHand, cap_multiplier,
                       score_hand)
from ..shapes import UNITS, is_win_key, shanten, waits
from ..tiles import NUM_KINDS, tiles_of
from .actions import (ADDED_KONG, CONCEALED_KONG, DISCARD, KONG, PASS, PIAO, PUNG, WIN, Action,
                      malformed)
from .state import CLAIM, PIAO_PHASE, ROB, TURN, SeatState

if TYPE_CHECKING:
    from .hand import Hand


def legal_actions(hand: Hand, seat: int) -> list[Action]:
    """Every action ``seat`` may take now; ``[]`` when it has nothing to decide."""
    phase = hand.phase
    if phase == TURN:
        return _turn_actions(hand, seat) if seat == hand.current else []
    if phase in (CLAIM, ROB):
        pending = hand.pending
        if seat in pending.answers or seat not in pending.options:
            return []
        verbs = pending.options[seat]
        if must_win(hand, seat, verbs):  # R8.17: a declared player who can win wins
            return [Action(seat, WIN)]
        return [Action(seat, v) for v in verbs] + [Action(seat, PASS)]
    if phase == PIAO_PHASE:
        if hand.seats[seat].piao is not None:
            return []
        return [Action(seat, PIAO, piao=p) for p in hand.rules.piao_choices]
    return []


def _turn_actions(hand: Hand, seat: int) -> list[Action]:
    s = hand.seats[seat]
    out: list[Action] = []
    if self_draw_value(hand, seat) is not None:
        if must_win(hand, seat, [WIN]):  # R8.17
            return [Action(seat, WIN)]
        out.append(Action(seat, WIN))
        if auto_kong_drawn(hand, seat):  # R8.19: not winning, the tile is konged at once
            return out + [Action(seat, CONCEALED_KONG, s.drawn)]
    out += [Action(seat, CONCEALED_KONG, k) for k in concealed_kong_tiles(hand, seat)]
    if added_kong_allowed(hand, seat):
        out.append(Action(seat, ADDED_KONG, s.drawn))
    tiles = discard_tiles(hand, seat)
    new = tuple.__new__  # Action(seat, DISCARD, tile) without the keyword-default wrapper
    out += [new(Action, (seat, DISCARD, tile, False, (), None)) for tile in tiles]
    if not s.declared and may_declare(hand, seat):  # declare_actions, the discards listed once
        ready = _ready_discards(s, _declare_discards(hand, seat, tiles))
        out += _declares(s, seat, ready, hand.rules)
    return out


def must_win(hand: Hand, seat: int, verbs: list[str]) -> bool:
    """R8.17 ``declared_must_win``: ``seat`` has declared and ``verbs`` (its options now)
    include a win, which is then its only legal action (no pass, no kong; the R13.2 claim
    window still runs)."""
    return hand.rules.declared_must_win and hand.seats[seat].declared and WIN in verbs


def shown_counts(s: SeatState) -> list[int]:
    """The concealed counts of ``s`` less its face-down groups (R8.6, R8.11): the tiles a
    declared hand shows, the tile just drawn included."""
    return without(s.concealed, s.hidden)  # the concealed tiles always hold the groups


def auto_kong_drawn(hand: Hand, seat: int) -> bool:
    """R8.19 ``declared_auto_kong`` (杀马): the declared ``seat`` just drew the fourth tile of a
    triplet among its shown tiles, with a tile left in the wall (R5.2, R5.4): unless it wins,
    the tile is konged at once (暗杠)."""
    s = hand.seats[seat]
    return (hand.rules.declared_auto_kong and s.declared and s.drawn is not None
            and hand.wall_left > 0 and shown_counts(s)[s.drawn] == 4)


def auto_kong_seat(hand: Hand) -> int | None:
    """R8.19: the declared seat whose shown triplet the discard on the table (won by nobody,
    not the last discard, R5.3) makes four, konged at once as a 直杠; else None."""
    pending = hand.pending
    if not hand.rules.declared_auto_kong or pending.robbing or pending.last:
        return None
    for seat, s in enumerate(hand.seats):
        if seat != pending.seat and s.declared and shown_counts(s)[pending.tile] == 3:
            return seat
    return None


def may_declare(hand: Hand, seat: int) -> bool:
    """Whether ``seat`` may declare 亮倒 at all now: R8.13 ``declare_min_wall`` (no 亮倒 with
    fewer tiles in the wall, counted after the declarer's draw) and R8.14
    ``declare_requires_concealed`` (门清: no declared meld, a concealed kong included, U11)."""
    rules = hand.rules
    if hand.wall_left < rules.declare_min_wall:
        return False
    return not (rules.declare_requires_concealed and hand.seats[seat].melds)


def _declare_discards(hand: Hand, seat: int, tiles: list[int]) -> list[int]:
    """R8.15 ``declare_discard_feeds = forbidden``: the discard made with 亮倒 is not a current
    wait of another declared player."""
    if hand.rules.declare_discard_feeds != "forbidden":
        return tiles
    danger = _other_waits(hand, seat)
    return [t for t in tiles if t not in danger]


def _other_waits(hand: Hand, seat: int) -> set[int]:
    """The current waits of the declared players other than ``seat`` (R8.1)."""
    return {w for i, o in enumerate(hand.seats) if i != seat and o.declared for w in o.waits}


def self_draw_value(hand: Hand, seat: int) -> HandValue | None:
    """The value of a self-drawn win (R7.2) if ``seat`` may declare one now, else None."""
    s = hand.seats[seat]
    if s.drawn is None or not (is_fixed_win(s.concealed, s.hidden) if s.hidden
                               else is_win_key(s.key())):  # R7.1 (the key: SeatState.key)
        return None
    counts = list(s.concealed)
    counts[s.drawn] -= 1
    value = score_hand(WinningHand(tuple(tiles_of(counts)), s.drawn, SELF_DRAW, tuple(s.melds),
                                   after_kong=s.replacement, last_tile=hand.wall_left == 0,
                                   declared=s.declared, hidden=s.hidden,
                                   kong_chain=hand.chain if s.replacement else 0,  # R9.18
                                   **_passes(hand, s)), hand.rules)
    return value if value.legal else None


def concealed_kong_tiles(hand: Hand, seat: int) -> list[int]:
    """Kinds ``seat`` may declare a concealed kong of (R6.1, R5.2, R5.4; after 亮倒 R8.3, or
    R8.16 ``hidden_triplets_only``: only a face-down triplet; R8.19 konges shown ones)."""
    s = hand.seats[seat]
    if s.drawn is None or hand.wall_left == 0 or 4 not in s.concealed:
        return []
    return [kind for kind, c in enumerate(s.concealed)
            if c == 4 and (not s.declared or _declared_kong_ok(hand, s, kind, 4))]


def _declared_kong_ok(hand: Hand, s: SeatState, kind: int, n: int) -> bool:
    """After 亮倒, a 暗杠 (``n`` = 4) or 直杠 (``n`` = 3) of ``kind``: R8.16
    ``hidden_triplets_only``: a face-down triplet of it; else R8.3: the waits are unchanged.
    Under R8.19 a kong of shown tiles is the engine's, never a choice. Either way the kong
    may not take a tile of another face-down group (R8.6, R8.11: never split), e.g. the
    fourth copy held in a face-down run."""
    if not _kong_keeps_groups(s, kind, n):
        return False
    if hand.rules.declared_auto_kong and shown_counts(s)[kind] >= n:
        return False
    if hand.rules.declared_kong == "hidden_triplets_only":
        return Group(GROUP_PUNG, kind) in s.hidden
    return _waits_kept(s, kind, n)


def _kong_keeps_groups(s: SeatState, kind: int, n: int) -> bool:
    """Whether ``n`` concealed copies of ``kind`` can go into a kong leaving every face-down
    group of ``s`` whole (a face-down triplet of ``kind`` becomes the kong, R8.6)."""
    if not s.hidden:
        return True
    rest = list(s.concealed)
    rest[kind] -= n
    return without(rest, (g for g in s.hidden if g != Group(GROUP_PUNG, kind))) is not None


def added_kong_allowed(hand: Hand, seat: int) -> bool:
    """R6.2: the tile just drawn is the fourth of an exposed pung; R5.2/R5.4: wall not empty;
    R6.7 ``added_kong_on_declared_wait``: not a current wait of another declared player
    (``forbidden``; ``forbidden_undeclared``: for an undeclared ``seat`` only)."""
    s = hand.seats[seat]
    if not (s.drawn is not None and hand.wall_left > 0
            and any(m.kind == MELD_PUNG and m.tile == s.drawn for m in s.melds)):
        return False
    return not _added_kong_feeds(hand, seat, s.drawn)


def _added_kong_feeds(hand: Hand, seat: int, tile: int) -> bool:
    """R6.7: a 补杠 of ``tile`` by ``seat`` is refused as another declared player's wait."""
    mode = hand.rules.added_kong_on_declared_wait
    if mode == "allowed" or (mode == "forbidden_undeclared" and hand.seats[seat].declared):
        return False
    return tile in _other_waits(hand, seat)


def discard_tiles(hand: Hand, seat: int) -> list[int]:
    """Kinds ``seat`` may discard: the drawn tile after 亮倒 (R8.2); not a declarer's wait while
    holding a safe tile under ``feeding_declared = forbidden_if_safe_tile`` (R8.7)."""
    s = hand.seats[seat]
    if s.declared:
        return [s.drawn] if s.drawn is not None else []
    kinds = list(compress(_KINDS, s.concealed))  # the kinds held
    danger = _declared_waits(hand, seat)
    if danger:
        safe = [k for k in kinds if k not in danger]
        if safe:
            return safe
    return kinds


_KINDS = range(NUM_KINDS)


def _declared_waits(hand: Hand, seat: int) -> set[int]:
    if hand.rules.feeding_declared != "forbidden_if_safe_tile":
        return set()
    return _other_waits(hand, seat)


def declare_waits(hand: Hand, seat: int) -> dict[int, tuple[int, ...]]:
    """R8.1: each kind ``seat`` may discard with 亮倒 (a discard of :func:`discard_tiles`
    that leaves a ready hand; R8.13-R8.15 checked) -> the waits (kinds, ascending) that hand
    then has; ``{}`` when the hand is not one tile from ready or may not declare. The
    face-down triplet choices of R8.6 keep exactly these waits under R8.12 ``same_waits``
    (under ``still_ready`` a choice may keep fewer), and R8.11's face-down groups always do.
    Does not check whose turn it is: :func:`legal_actions` does."""
    if not may_declare(hand, seat):
        return {}
    return _ready_discards(hand.seats[seat],
                           _declare_discards(hand, seat, discard_tiles(hand, seat)))


def _ready_discards(s: SeatState, tiles: list[int]) -> dict[int, tuple[int, ...]]:
    """Each of ``tiles`` whose discard leaves ``s``'s hand ready -> its waits (R8.1)."""
    melds = len(s.melds)
    if shanten(s.concealed, melds) > 0:  # not ready by either shape (seven pairs: no melds)
        return {}
    out: dict[int, tuple[int, ...]] = {}
    held = s.held()
    for tile in tiles:
        s.concealed[tile] -= 1
        held[tile] -= 1
        try:
            found = waits(s.concealed, held)
            if found:
                out[tile] = tuple(found)
        finally:
            s.concealed[tile] += 1
            held[tile] += 1
    return out


def declare_actions(hand: Hand, seat: int) -> list[Action]:
    """Discards with 亮倒 that leave a ready hand (R8.1, :func:`declare_waits`), with the
    face-down triplet choices of option ``declare_hide_triplets`` (R8.6, R8.12)."""
    return _declares(hand.seats[seat], seat, declare_waits(hand, seat), hand.rules)


def _declares(s: SeatState, seat: int, ready: dict[int, tuple[int, ...]],
              rules: RuleSet) -> list[Action]:
    """The 亮倒 actions of the ``ready`` discards; R8.6 choices unless R8.11 ``waiting_part``
    decides what stays face down (the engine, not the player: no choice is offered)."""
    hide = rules.declare_hide_triplets and rules.declare_show == "all"
    still_ready = rules.hide_triplet_test == "still_ready"
    out = []
    for tile, found in ready.items():
        out.append(Action(seat, DISCARD, tile, True))
        if hide:
            s.concealed[tile] -= 1
            held = s.held()
            try:
                out += [Action(seat, DISCARD, tile, True, h)
                        for h in _hide_choices(s.concealed, held, list(found), still_ready)]
            finally:
                s.concealed[tile] += 1
    return out


def position_actions(rules: RuleSet, concealed: list[int], melds: list[Meld],
                     seat: int = 0) -> list[Action]:
    """The turn actions of a free-standing position (``kawuxing hint``), where ``seat`` holds
    ``concealed`` (counts, 14 − 3 × len(melds) tiles) and ``melds`` having just drawn, the wall
    not empty and nobody declared: a concealed kong of each four (R6.1), every discard (R4.1)
    and every 亮倒 discard that leaves a ready hand (R8.1) with its face-down choices (R8.6).
    A win is not listed: which tile was drawn is unknown."""
    s = SeatState(list(concealed), list(melds))
    kinds = [k for k, c in enumerate(concealed) if c]
    out = [Action(seat, CONCEALED_KONG, k) for k in kinds if concealed[k] == 4]
    out += [Action(seat, DISCARD, k) for k in kinds]
    if rules.declare_requires_concealed and melds:  # R8.14
        return out
    return out + _declares(s, seat, _ready_discards(s, kinds), rules)


def _hide_choices(counts: list[int], held: list[int], found: list[int],
                  still_ready: bool = False) -> list[tuple[int, ...]]:
    """Non-empty sets of concealed triplets that may stay face down (R8.6): their removal
    keeps exactly the same waits (R8.12 ``same_waits``), or leaves a ready hand
    (``still_ready``: the waits are then those of that hand)."""
    triplets = [k for k, c in enumerate(counts) if c >= 3]
    out = []
    for n in range(1, len(triplets) + 1):
        for combo in combinations(triplets, n):
            for k in combo:
                counts[k] -= 3
            try:
                left = waits(counts, held)
                if (left if still_ready else left == found):
                    out.append(combo)
            finally:
                for k in combo:
                    counts[k] += 3
    return out


def face_down_groups(hand: Hand, s: SeatState, chosen: tuple[int, ...]) -> tuple[Group, ...]:
    """The face-down groups of ``s`` declaring now (its concealed hand after the declaring
    discard): R8.11 ``waiting_part``: the groups common to every winning reading
    (:func:`kawuxing.face_down.waiting_part`, U9); else the triplets ``chosen`` (R8.6)."""
    if hand.rules.declare_show == "waiting_part":
        return waiting_part(s.concealed, waits(s.concealed, s.held()))
    return pungs(chosen)


def live_waits(s: SeatState) -> tuple[int, ...]:
    """R8.1: the waits of a (declared) player's concealed hand as it is now: kinds that would
    complete it, face-down groups kept whole (R8.6, R8.11), kinds whose four copies the
    player holds left out. Recomputed whenever the hand or its melds change."""
    return tuple(fixed_waits(s.concealed, s.hidden, s.held()))


def _waits_kept(s: SeatState, kind: int, n: int) -> bool:
    """R8.3: after taking ``n`` of ``kind`` from the concealed hand into a kong, the declared
    player's waits are exactly those it has now (:func:`live_waits`, not those of the
    declaration). The kong holds all four copies (a 直杠 takes the discard too), so ``kind``
    is no longer a wait (R8.1); a face-down triplet of ``kind`` becomes that kong (R8.6); a
    kong that would split another face-down group (a chow or pair of R8.11) is refused."""
    s.concealed[kind] -= n
    try:
        held = s.held()
        held[kind] += 4
        hidden = tuple(g for g in s.hidden if g != Group(GROUP_PUNG, kind))
        if without(s.concealed, hidden) is None:
            return False
        return tuple(fixed_waits(s.concealed, hidden, held)) == s.waits
    finally:
        s.concealed[kind] += n


def claim_options(hand: Hand, discarder: int, tile: int, robbing: bool,
                  after_kong: bool, last: bool) -> tuple[dict[int, list[str]],
                                                         dict[int, HandValue]]:
    """Who may take ``tile`` from ``discarder`` and how (R4.2, R4.3, R5.3, R6.3, R7.4, R7.5, R8).

    Returns (seat -> verbs, seat -> value of its win). A discard may be won, punged (holding
    two, not after 亮倒, not the last discard) or konged (holding three, not the last discard,
    after 亮倒 only keeping the same waits). A kong being added may only be robbed.
    """
    options: dict[int, list[str]] = {}
    values: dict[int, HandValue] = {}
    giver = hand.seats[discarder]
    for seat in range(3):
        if seat == discarder:
            continue
        s = hand.seats[seat]
        verbs = []
        value = win_value(hand, seat, tile, ROBBING_KONG if robbing else BY_DISCARD,
                          after_kong, last, giver.declared)
        if value is not None and not missed_win_blocks(hand, seat, value):
            verbs.append(WIN)
            values[seat] = value
        if not robbing and not last:
            c = s.concealed[tile]
            if c >= 2 and not s.declared:
                verbs.append(PUNG)
            if c >= 3 and (not s.declared or _declared_kong_ok(hand, s, tile, 3)):
                verbs.append(KONG)
        if verbs:
            options[seat] = verbs
    return options, values


def win_value(hand: Hand, seat: int, tile: int, win_by: str, after_kong: bool, last: bool,
              discarder_declared: bool) -> HandValue | None:
    """The value of ``seat`` winning on another player's ``tile`` if the win is legal by shape
    and value (R7.1, R7.3, R7.4), else None. 漏胡 is checked by :func:`missed_win_blocks`."""
    s = hand.seats[seat]
    if s.hidden:  # face-down groups kept whole (R8.6, R8.11)
        s.concealed[tile] += 1
        try:
            if not is_fixed_win(s.concealed, s.hidden):
                return None
        finally:
            s.concealed[tile] -= 1
    elif not is_win_key((s._key if s.concealed == s._snap else s.key())  # s.key(), inlined
                        + UNITS[tile]):  # R7.1, the tile added to the packed key
        return None
    value = score_hand(WinningHand(tuple(tiles_of(s.concealed)), tile, win_by, tuple(s.melds),
                                   after_kong=after_kong, last_tile=last, declared=s.declared,
                                   discarder_declared=discarder_declared, hidden=s.hidden,
                                   kong_chain=hand.chain if after_kong else 0,  # R9.18
                                   **_passes(hand, s)),
                       hand.rules)
    return value if value.legal else None


def _passes(hand: Hand, s: SeatState) -> dict[str, int]:
    """R8.18 ``pass_win_doubles``: the wins the declared player passed this hand, for the
    :class:`WinningHand` (×2 each); nothing when the option is off."""
    return {"passed_wins": s.passed_wins} if hand.rules.pass_win_doubles else {}


def missed_win_blocks(hand: Hand, seat: int, value: HandValue) -> bool:
    """R7.5 漏胡: a win passed since the seat's own last draw blocks wins on others' tiles,
    unless (option ``bigger``) this one's capped multiplier beats every one passed."""
    s = hand.seats[seat]
    if not s.missed:
        return False
    if hand.rules.missed_win_exception == "none":
        return True
    return compared_multiplier(hand, s, value) <= max(s.missed)


def compared_multiplier(hand: Hand, s: SeatState, value: HandValue) -> int:
    """The capped multiplier R7.5 compares wins by: ``value.multiplier``, with R8.18
    ``pass_win_doubles`` the ×2 of each win the declared player passed so far counted
    (inside the cap, as in its payments)."""
    if not hand.rules.pass_win_doubles or not s.passed_wins:
        return value.multiplier
    return cap_multiplier(value.patterns, hand.rules, 2 ** s.passed_wins)[1]


def why_illegal(hand: Hand, action: Action) -> tuple[str, str]:
    """(reason, rule) for an action that :func:`legal_actions` does not offer."""
    problem = malformed(action)
    if problem:
        return problem, "R4"
    phase, verb, s = hand.phase, action.verb, hand.seats[action.seat]
    if phase == "ended":
        return "the hand is over", "R5.5"
    if phase == PIAO_PHASE:
        if verb != PIAO:
            return "every player first picks a 漂", "R11.1"
        if s.piao is not None:
            return "this seat already picked its 漂", "R11.1"
        return f"漂 must be one of {list(hand.rules.piao_choices)}", "R11.1"
    if verb == PIAO:
        return "漂 is picked before the hand", "R11.1"
    if phase in (CLAIM, ROB):
        pending = hand.pending
        if action.seat == pending.seat:
            return "waiting for the other players to answer your tile", "R4.3"
        if action.seat in pending.answers and verb in pending.options[action.seat] + [PASS]:
            return "this seat already answered", "R4.3"
        if verb not in (WIN, PUNG, KONG, PASS):
            return "answer the tile on the table first (win, pung, kong or pass)", "R4.3"
        if verb != WIN and must_win(hand, action.seat, pending.options.get(action.seat, [])):
            return _MUST_WIN, "R8.17"
        if verb == WIN:
            return _why_no_win(hand, action.seat), "R7"
        if verb in (PUNG, KONG):
            return _why_no_claim(hand, s, verb)
        return "nothing to pass", "R4.3"
    if action.seat != hand.current:
        return "not this seat's turn", "R4.1"
    if verb in (PUNG, KONG, PASS):
        return "there is no discard to answer", "R4.2"
    if verb != WIN and Action(action.seat, WIN) in legal_actions(hand, action.seat):
        if must_win(hand, action.seat, [WIN]):
            return _MUST_WIN, "R8.17"
        if auto_kong_drawn(hand, action.seat):
            return ("杀马: the fourth tile of a shown triplet is konged at once unless the "
                    "player wins (option declared_auto_kong)"), "R8.19"
    if verb == WIN:
        return ("no winning hand" if s.drawn is not None else "no self-draw in the turn of a "
                "pung"), "R7.1"
    if verb in (CONCEALED_KONG, ADDED_KONG):
        return _why_no_kong(hand, s, action)
    if verb == DISCARD:
        return _why_no_discard(hand, s, action)
    return f"unknown verb {verb!r}", "R4"


_MUST_WIN = "亮倒必胡: a declared player who can win must win (option declared_must_win)"


def _why_no_win(hand: Hand, seat: int) -> str:
    pending = hand.pending
    value = win_value(hand, seat, pending.tile, ROBBING_KONG if pending.robbing else BY_DISCARD,
                      pending.after_kong, pending.last, hand.seats[pending.seat].declared)
    if value is not None:
        return "漏胡: a win was passed since this player's last draw (R7.5)"
    return "not a winning hand, or ×1 which may win only by self-draw (R7.1, R7.3)"


def _why_no_claim(hand: Hand, s: SeatState, verb: str) -> tuple[str, str]:
    pending = hand.pending
    if pending.robbing:
        return "a kong being added can only be robbed", "R7.4"
    if pending.last:
        return "the last discard may only be won on", "R5.3"
    if s.declared and verb == PUNG:
        return "no pungs after 亮倒", "R8.2"
    if s.declared and hand.rules.declared_auto_kong and shown_counts(s)[pending.tile] >= 3:
        return ("杀马: a shown triplet's fourth is konged by the rule itself once nobody wins "
                "on it (option declared_auto_kong)"), "R8.19"
    if s.declared and hand.rules.declared_kong == "hidden_triplets_only":
        return ("after 亮倒 only a face-down triplet may be konged (option declared_kong "
                "hidden_triplets_only)"), "R8.16"
    if s.declared:
        return "after 亮倒 a kong must keep the same waits and no face-down group", "R8.3"
    need = 2 if verb == PUNG else 3
    return f"{verb} needs {need} of the tile in hand", "R4.2"


def _why_no_kong(hand: Hand, s: SeatState, action: Action) -> tuple[str, str]:
    if s.drawn is None:
        return "no kong in the turn of a pung", "R6.1"
    if hand.wall_left == 0:
        return "no kong after drawing the last tile", "R5.2"
    if action.verb == ADDED_KONG:
        if (action.tile == s.drawn and _added_kong_feeds(hand, action.seat, s.drawn)
                and any(m.kind == MELD_PUNG and m.tile == s.drawn for m in s.melds)):
            return ("不可擦炮炮子: no 补杠 with another declared player's wait (option "
                    "added_kong_on_declared_wait)"), "R6.7"
        return "an added kong must be made with the fourth tile just drawn", "R6.2"
    if action.tile is not None and 0 <= action.tile < NUM_KINDS and s.concealed[action.tile] == 4:
        if hand.rules.declared_kong == "hidden_triplets_only":
            return ("after 亮倒 only a face-down triplet may be konged (option declared_kong "
                    "hidden_triplets_only)"), "R8.16"
        return "after 亮倒 a kong must keep the same waits and no face-down group", "R8.3"
    return "a concealed kong needs four of the kind in hand", "R6.1"


def _why_no_discard(hand: Hand, s: SeatState, action: Action) -> tuple[str, str]:
    tile = action.tile
    if tile is None or not isinstance(tile, int) or not 0 <= tile < NUM_KINDS or not s.concealed[tile]:
        return "that tile is not in the hand", "R4.1"
    if s.declared:
        if action.declare:
            return "already declared 亮倒", "R8.1"
        return "after 亮倒 the player discards the tile just drawn", "R8.2"
    if tile not in discard_tiles(hand, action.seat):
        return "may not feed a declared hand while holding a safe tile", "R8.7"
    if action.declare:
        rules = hand.rules
        if hand.wall_left < rules.declare_min_wall:
            return (f"no 亮倒 with fewer than {rules.declare_min_wall} tiles in the wall "
                    f"({hand.wall_left} left; option declare_min_wall)"), "R8.13"
        if rules.declare_requires_concealed and s.melds:
            return ("门清才能亮: only a hand with no declared meld (a concealed kong is one) may "
                    "declare (option declare_requires_concealed)"), "R8.14"
        if tile not in _declare_discards(hand, action.seat, [tile]):
            return ("the discard made with 亮倒 may not be another declared player's wait "
                    "(option declare_discard_feeds)"), "R8.15"
        if action.hidden and rules.declare_show == "waiting_part":
            return ("部分亮: the groups common to every winning reading stay face down by "
                    "themselves; no triplet is chosen (option declare_show waiting_part)"), "R8.11"
    if action.hidden and not hand.rules.declare_hide_triplets:
        return "keeping triplets face down is off (option declare_hide_triplets)", "R8.6"
    if action.hidden and hand.rules.hide_triplet_test == "still_ready":
        return "a hidden triplet must be a concealed triplet that leaves the hand ready", "R8.12"
    if action.hidden:
        return "a hidden triplet must be a concealed triplet outside every wait", "R8.6"
    return "the hand left after this discard is not ready", "R8.1"
