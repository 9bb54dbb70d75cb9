"""Hints at the table: the expert's ranking of a seat's choices, its second opinion included
(issue "Bots"; R13).

The observation and the legal actions are taken on the event loop (they are the seat's own,
:func:`kawuxing.engine.observation.observe`); the ranking, pure computation on that frozen
snapshot, runs in a worker thread beside the room (:class:`SeatHints`), so that neither the
room nor the process waits for it (issue 34): the room goes on while a hint is worked out;
at most :data:`HINT_THREADS` hints are worked out at once in a process (the others wait their
turn, off the event loop), so forty seats asking at once cannot starve play of the
interpreter; the same question (hand, version, seat) is answered once.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable

from ..agents.expert import agent_choices
from ..engine import Hand
from ..engine.observation import observe

log = logging.getLogger("kawuxing.server")
HINT_THREADS = 1  # hints worked out at once per process (each holds the interpreter)
_slots: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> Semaphore


def hint_job(hand: Hand, seat: int) -> Callable[[], list[dict]] | None:
    """What a hint of ``seat`` in ``hand`` now computes, as a function of a frozen snapshot
    to run off the event loop (None if the seat has no choice): the ranked choices, the
    expert's own first (:func:`~kawuxing.agents.expert.agent_choices`), as JSON."""
    legal = hand.legal_actions(seat)
    if not legal:
        return None
    obs = observe(hand, seat)
    after_kong = hand.seats[seat].kong_turn
    return lambda: [c.to_json() for c in agent_choices(obs, legal, after_kong, True)]


async def run_hint(job: Callable[[], list[dict]] | None) -> list[dict]:
    """``job()`` in a worker thread once one of the process's :data:`HINT_THREADS` is free
    (``[]`` for None)."""
    if job is None:
        return []
    loop = asyncio.get_running_loop()
    slots = _slots.get(loop)
    if slots is None:
        slots = _slots[loop] = asyncio.Semaphore(HINT_THREADS)
    async with slots:
        return await asyncio.to_thread(job)


class SeatHints:
    """A room's hints: :meth:`ask` answers at once from the last answer to the same
    question, or works it out in a task beside the room; :meth:`cancel` when the room
    stops."""

    def __init__(self) -> None:
        self.answers: dict[int, tuple[tuple, list[dict]]] = {}  # seat -> (question, choices)
        self.tasks: dict[tuple, asyncio.Task] = {}  # question -> its task

    def ask(self, hand: Hand, seat: int, question: tuple,
            answer: Callable[[list[dict]], None]) -> None:
        """Answer ``question`` (a key of the hand's state, e.g. (hand, version, seat)) by
        ``answer(choices)``: at once when it was answered last for this seat; else later,
        from a task (one per question: a question asked again meanwhile is answered once)."""
        known = self.answers.get(seat)
        if known is not None and known[0] == question:
            answer(known[1])
            return
        if question in self.tasks:
            return
        job = hint_job(hand, seat)  # the snapshot, now, on the loop

        async def work() -> None:
            try:
                choices = await run_hint(job)
            except Exception:  # a bug in the bot: no hint, the room goes on
                log.exception("hint for seat %d failed", seat)
                return
            finally:
                self.tasks.pop(question, None)
            self.answers[seat] = (question, choices)
            answer(choices)

        self.tasks[question] = asyncio.get_running_loop().create_task(work())

    def cancel(self) -> None:
        """Stop the hints being worked out (their answers are not sent)."""
        for task in self.tasks.values():
            task.cancel()
        self.tasks.clear()
