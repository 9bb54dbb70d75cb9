"""The AI review (复盘) of one seat's play in an ended hand: every decision it made with a
choice, the reviewer's values of its options, and what the choice made cost.

The reviewer is the expert's model (:func:`kawuxing.agents.expert.rank_actions`): the
*value* of an option is its expected score change for the seat from that decision to the end
of the hand, in base units, computed from the seat's own Observation at that moment (R13:
what the player knew, nothing of the other hands or the wall). The review's ``best`` is the
option of highest value and ``loss`` = value(best) − value(chosen), ≥ 0. (The expert as a
player adds a pace rule and a second opinion to the model, so in close cases it may play
another option than the review's best.)

It reads a finished hand's record (:mod:`kawuxing.records`): a hand in play is refused,
since a record holds the wall (R13).
"""

from __future__ import annotations

from .agents.expert import rank_actions
from .engine.actions import Action
from .engine.observation import observe
from .engine.state import TURN
from .records import replay

TOP = 5  # options listed a decision, and the costliest decisions named first


class ReviewError(ValueError):
    """A record that cannot be reviewed: not ended, or a seat that is not 0-2."""


def _label(action: Action) -> list:
    """An action as the record writes it, without the seat: ``["discard", "5p"]``."""
    return action.to_json()[1:]


def review(record: dict, seat: int) -> dict:
    """The review of ``seat``'s decisions in ``record`` (an ended hand)::

        {"seat", "decisions": [{"step", "phase", "chosen", "best", "loss", "choices":
          [{"action", "value"}, …]}], "agreement", "total_loss", "costliest": [step, …]}

    ``step``: the index of the decision's action in ``record["actions"]``; actions as the
    record writes them without the seat (``["discard", "5p"]``); ``choices``: the
    :data:`TOP` options of highest value, values in base units rounded to 0.01;
    ``agreement``: the share of decisions where the choice was the best; ``costliest``: the
    steps of the five largest losses, largest first. Raises :class:`ReviewError` for a hand
    not ended or a bad seat, ``ValueError`` (from :func:`~kawuxing.records.replay`) for a bad
    record."""
    if seat not in (0, 1, 2):
        raise ReviewError(f"seat {seat!r}: seats are 0, 1 and 2")
    if not isinstance(record, dict):
        raise ReviewError("not a hand record: a JSON object is expected")
    if not record.get("result"):
        raise ReviewError("the hand is not over: a record is reviewed once its hand has ended "
                          "(it holds the wall, R13)")
    hand = replay(record, 0)
    full = replay(record)
    if not full.ended:
        raise ReviewError("the hand is not over: its actions stop before the end (a record is "
                          "reviewed once its hand has ended, R13)")
    decisions = []
    for step, action in enumerate(full.actions):
        if action.seat == seat:
            legal = hand.legal_actions(seat)
            if len(legal) > 1:
                obs = observe(hand, seat)
                after_kong = hand.phase == TURN and hand.seats[seat].kong_turn
                ranked = sorted(rank_actions(obs, legal, after_kong),
                                key=lambda c: -c.ev)
                value = {c.action: c.ev for c in ranked}
                best = ranked[0]
                decisions.append({
                    "step": step, "phase": hand.phase, "chosen": _label(action),
                    "best": _label(best.action),
                    "loss": round(best.ev - value[action], 2),  # best: the highest
                    "choices": [{"action": _label(c.action), "value": round(c.ev, 2)}
                                for c in ranked[:TOP]]})
        hand.apply(action)
    agree = sum(d["chosen"] == d["best"] for d in decisions)
    costly = sorted(decisions, key=lambda d: -d["loss"])[:TOP]
    return {"seat": seat, "decisions": decisions,
            "agreement": round(agree / len(decisions), 4) if decisions else None,
            "total_loss": round(sum(d["loss"] for d in decisions), 2),
            "costliest": [d["step"] for d in costly if d["loss"] > 0]}
