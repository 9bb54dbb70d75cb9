"""Defence for the heuristic bot: how dangerous each discard is, from one seat's Observation.

Against a declared player (亮倒, R8.1) the waits are known exactly: each is a fixed, large
penalty (fold always). Against a concealed opponent only risk can be guessed, and it matters
when a discard win is possible at all — R7.3: a ×1 hand wins only by self-draw, so the tiles
to fear are those that make a ×2 hand: a 5 between a live 4 and 6 (卡五星), the fourth tile of
the opponent's exposed pung (明四归一), any tile of the suit a flush-looking opponent collects
(清一色), and any tile right after one's own kong (杠上炮 ×2, R9.1). Tiles already seen are
safer (fewer copies left to wait on), a kind the opponent discarded itself safer still.
"""

from __future__ import annotations

from ..engine.observation import Observation
from ..melds import MELD_PUNG
from ..tiles import DRAGON_BASE
from .hints import unseen

DECLARED_WAIT = 1e5  # the penalty of a declared player's wait (R8.1): never fed if avoidable
RISK_SCALE = 40.0  # penalty per unit of risk at full fold (a shanten step is 100)
KAWUXING = 2.5  # a 5 with a live 4 and 6 (卡五星 ×2 makes a discard win legal, R7.3)
MIDDLE = 1.3  # 3-7: more ways to wait on them
DRAGON = 0.8  # dragons are waited on only as a pair or a pung
FLUSH = 3.0  # the suit of a flush-looking opponent (清一色 ×4)
OWN_DISCARD = 0.25  # a kind the opponent discarded itself
FOURTH_OF_PUNG = 1.5  # the fourth tile of the opponent's exposed pung (明四归一 ×2), held


def flush_suit(obs: Observation, seat: int) -> int | None:
    """The suit index (0 m, 1 p, 2 s) that ``seat`` seems to collect for 清一色, or None: no
    meld outside that suit (no dragon meld), and few of its discards in it (at most one, or a
    fifth of them) — with at least one meld in the suit, or at least 6 discards."""
    melds = [t for _, t in obs.melds[seat] if t is not None]
    suits = {t // 9 for t in melds if t < DRAGON_BASE}
    if len(suits) > 1 or any(t >= DRAGON_BASE for t in melds):
        return None
    thrown = obs.discards[seat]
    if not suits and len(thrown) < 6:
        return None
    for suit in suits or ("mps".index(s) for s in obs.rules.suits):
        inside = sum(t < DRAGON_BASE and t // 9 == suit for t in thrown)
        if inside <= max(1, len(thrown) // 5):
            return suit
    return None


def risk(obs: Observation, kind: int, opponents: list[int],
         flushes: dict[int, int | None] | None = None) -> float:
    """Rough danger of discarding ``kind`` into the concealed ``opponents`` (module doc):
    per opponent (unseen copies / 3) × the kind's factors, + :data:`FOURTH_OF_PUNG` for the
    fourth tile of its exposed pung. ``flushes``: each opponent's :func:`flush_suit`, if
    already known."""
    if flushes is None:
        flushes = {seat: flush_suit(obs, seat) for seat in opponents}
    left = unseen(obs.visible, kind)
    total = 0.0
    for seat in opponents:
        r = left / 3
        if kind >= DRAGON_BASE:
            r *= DRAGON
        else:
            rank = kind % 9 + 1
            if rank == 5 and unseen(obs.visible, kind - 1) and unseen(obs.visible, kind + 1):
                r *= KAWUXING
            elif 3 <= rank <= 7:
                r *= MIDDLE
            if flushes[seat] == kind // 9:
                r *= FLUSH
        if kind in obs.discards[seat]:
            r *= OWN_DISCARD
        if any(k == MELD_PUNG and t == kind for k, t in obs.melds[seat]):
            r += FOURTH_OF_PUNG
        total += r
    return total


def danger(obs: Observation, kinds: list[int], fold: float) -> dict[int, float]:
    """Penalty per kind among ``kinds`` (the discards considered), in the units of
    :func:`~kawuxing.agents.hints.rank_discards`: :data:`DECLARED_WAIT` for each declared
    opponent's wait (R8.1), + ``fold`` (0-1, how much to give up for safety) ×
    :data:`RISK_SCALE` × :func:`risk` against the concealed opponents."""
    out: dict[int, float] = {}
    for seat, waits in enumerate(obs.waits):
        if seat != obs.seat:
            for w in waits:
                if w in kinds:
                    out[w] = out.get(w, 0.0) + DECLARED_WAIT
    hidden = [s for s in range(3) if s != obs.seat and not obs.declared[s]]
    if fold > 0 and hidden:
        flushes = {seat: flush_suit(obs, seat) for seat in hidden}
        for kind in kinds:
            r = risk(obs, kind, hidden, flushes)
            if r:
                out[kind] = out.get(kind, 0.0) + fold * RISK_SCALE * r
    return out
