"""Whether to declare 亮倒 (R8): a simple expected-value comparison for the heuristic bot.

A ready hand is played out over the draws left, concealed or declared, by a per-round model
(one round = one draw of each seat, ``wall_left / 3`` rounds): each wait's unseen copies
(``u`` of ``U`` unseen tiles) come to the player by their own draw, by a declared opponent's
forced discard (R8.2) or by a concealed opponent's discard; someone else may win first.

- Concealed: a self-draw is paid by both others (R7.2); a discard win needs a multiplier ≥ 2
  (R7.3, ×1 waits self-draw only). Opponents do not know the waits, so they feed them often;
  drawing a declared opponent's wait means holding it back (the hand suffers).
- Declared: every wait is worth ×2 (R8.4, so a ×1 wait becomes discard-winnable); a discarder
  pays double (包胡, R8.4/R8.5; one share under R8.9 ``bao_hu`` none). But the opponents see
  the waits and avoid them, the hand must discard every draw (R8.2) — feeding a declared
  opponent at double — and if nobody wins the declarer pays 荒庄 compensation (R10.2,
  R10.3), which matters near the end of the wall.

Figures are in base units; the constants are rough rates, tuned by simulation.
"""

from __future__ import annotations

from ..engine.actions import Action
from ..engine.observation import Observation
from ..face_down import fixed_waits, pungs
from ..melds import MELD_PUNG
from ..tiles import kinds_for_suits
from ..scoring.transfers import CHA_JIAO_MODES, draw_compensation
from .hints import WaitValue, unseen

FEED_UNAWARE = 0.5  # per round: a concealed opponent throws a given unseen wait copy's kind, × u/U
FEED_AWARE = 0.15  # the same once the waits are shown (they avoid them, but not always)
HIDDEN_WIN_RATE = 0.05  # per round: a concealed opponent wins
DECLARED_MULTIPLIER = 2  # a declared opponent's multiplier on a discard (亮倒 ×2 at least)
HOLD_BACK_LOSS = 1.0  # concealed: drawing a declared opponent's wait costs this (held, not played)


def kept_waits(obs: Observation, action: Action) -> list[int]:
    """The waits (kinds) the 亮倒 ``action`` of ``obs``'s seat leaves, its face-down triplets
    (``action.hidden``, R8.6) fixed as pungs: under R8.12 ``still_ready`` hiding a triplet may
    cut the waits (3334p hiding 333p waits 4p only), under ``same_waits`` never."""
    counts = list(obs.concealed)
    counts[action.tile] -= 1
    held = list(counts)
    for kind, tile in obs.melds[obs.seat]:
        held[tile] += 3 if kind == MELD_PUNG else 4
    return fixed_waits(counts, pungs(action.hidden), held)


def compensation(obs: Observation, declared: bool) -> int:
    """The player's net 荒庄 compensation (units, base 1) if the hand ends drawn, declaring or
    not, by :func:`kawuxing.scoring.transfers.draw_compensation` (the others' declarations first):
    R10.2 ``per_declarer`` (each declarer pays each non-declarer 1; all three declared: nobody
    pays), ``first_declarer`` (the first to declare pays each other player 1), R10.3
    ``first_declarer_2`` (2 each); 0 under ``none`` and 查叫 (R10.3: it depends on hands the
    player cannot see, and both a declared and a ready concealed hand collect)."""
    mode = obs.rules.draw_compensation
    if mode in CHA_JIAO_MODES:
        return 0
    declarers = [s for s in range(3) if s != obs.seat and obs.declared[s]]
    if declared:
        declarers.append(obs.seat)
    return sum(t.amount * ((t.payee == obs.seat) - (t.payer == obs.seat))
               for t in draw_compensation(declarers, mode, 1))


def hand_ev(obs: Observation, waits: list[WaitValue] | tuple[WaitValue, ...],
            declared: bool) -> float:
    """Expected result (base units) of playing the ready hand whose ``waits`` (with their
    multipliers: concealed, or from :func:`~kawuxing.agents.hints.wait_values` with
    ``declared=True``) are given, concealed or declared, from ``obs`` on (module doc)."""
    rules = obs.rules
    kinds = kinds_for_suits(rules.suits)
    total = max(1, sum(unseen(obs.visible, k) for k in kinds))
    rounds = max(1, obs.wall_left // 3)
    opponents = [s for s in range(3) if s != obs.seat]
    feeders = [s for s in opponents if obs.declared[s]]  # must discard their draws (R8.2)
    hidden = len(opponents) - len(feeders)
    bao = rules.bao_hu != "none"  # R8.9 none: a declared winner gets one share, no 包胡
    double = declared and bao and rules.mutual_declared == "double"  # R8.5: a declared discarder
    feed = FEED_AWARE if declared else FEED_UNAWARE
    rate = value = 0.0
    for w in waits:
        q = w.unseen / total
        rate += q
        value += q * 2 * w.self_draw  # both others pay (R7.2)
        if w.discard:
            pay = 2 * w.discard if declared and bao else w.discard  # 包胡 (R8.4)
            rate += q * (len(feeders) + feed * hidden)
            value += q * (len(feeders) * (2 * w.discard if double else w.discard)
                          + feed * hidden * pay)
    others = hidden * HIDDEN_WIN_RATE
    cost = 0.0
    for s in feeders:
        q = sum(unseen(obs.visible, k) for k in obs.waits[s]) / total
        others += q
        if declared:  # the player's own draws are thrown into their waits
            others += q
            pay = DECLARED_MULTIPLIER * (2 if bao and rules.mutual_declared == "double" else 1)
            cost += q * pay
        else:
            cost += q * HOLD_BACK_LOSS
    hazard = min(0.95, rate + others)
    alive = (1 - (1 - hazard) ** rounds) / hazard if hazard > 0 else rounds
    drawn = (1 - hazard) ** rounds  # nobody wins before the wall is empty (荒庄)
    return alive * (value - cost) + drawn * compensation(obs, declared)


def declare_gain(obs: Observation, concealed: list[WaitValue] | tuple[WaitValue, ...],
                 declared: list[WaitValue] | tuple[WaitValue, ...]) -> float:
    """Expected gain (base units) of declaring 亮倒 with this discard rather than staying
    concealed: :func:`hand_ev` declared − concealed. ``concealed`` / ``declared``: the waits
    of the hand left with their multipliers without / with the 亮倒 pattern."""
    return hand_ev(obs, declared, True) - hand_ev(obs, concealed, False)
