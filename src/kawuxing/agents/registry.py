"""The registry of bots: one table of every bot a seat, the simulator or the CLI may name.

A bot is named by a *spec*: its name, or ``name:LEVEL`` for a bot with levels
(``random``, ``heuristic`` = ``heuristic:3``, ``heuristic:1`` … ``heuristic:3``).
:func:`make_agent` builds one, :func:`check_bot` validates a spec, :func:`bots_schema` serves
the table (``GET /api/bots``) so that no client keeps a list of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .base import Agent
from .expert import ExpertAgent
from .heuristic import HeuristicAgent
from .random_agent import RandomAgent


@dataclass(frozen=True)
class Bot:
    """One bot of the registry.

    ``name``: what a spec starts with; ``description``: one English line; ``levels``: the
    levels a spec may add after ``:`` (empty: none); ``default_level``: the level of the bare
    name; ``build(level, seed)``: a fresh agent (``level`` None for a bot without levels).
    """

    name: str
    description: str
    build: Callable[[int | None, int | str | None], Agent]
    levels: tuple[int, ...] = ()
    default_level: int | None = None

    def specs(self) -> list[str]:
        """Every spec that names a distinct player of this bot, strongest first
        (``["heuristic:3", "heuristic:2", "heuristic:1"]``, ``["random"]``)."""
        if not self.levels:
            return [self.name]
        return [f"{self.name}:{level}" for level in sorted(self.levels, reverse=True)]


# In order of strength, weakest first.
BOTS: tuple[Bot, ...] = (
    Bot("random", "a uniformly random legal action (a baseline)",
        lambda level, seed: RandomAgent(seed)),
    Bot("heuristic", "shanten, effective tiles and live waits; level 2 adds the value of the "
        "waits, 亮倒 by expected value (R8) and concealed kongs; level 3 adds defence (declared "
        "waits, late folds, 杠上炮), the end-of-wall rules and 漂 with a good hand",
        lambda level, seed: HeuristicAgent(level, seed), levels=(1, 2, 3), default_level=3),
    Bot("expert", "expected base units for every decision: hand value, kong money, 包胡 both "
        "ways, 荒庄 compensation, the race against the wall, the danger of each discard",
        lambda level, seed: ExpertAgent(seed)),
)
BY_NAME: dict[str, Bot] = {bot.name: bot for bot in BOTS}
AGENT_NAMES: tuple[str, ...] = tuple(BY_NAME)

DEFAULT_BOT = "heuristic"  # a bot seat, 托管 and a left seat when no bot is named
SUGGESTED_BOT = "heuristic:2"  # what a room form preselects for a bot seat (declares 亮倒)


def bot_help() -> str:
    """The specs in one line for messages: ``random, heuristic, heuristic:1-3``."""
    parts = []
    for bot in BOTS:
        parts.append(bot.name)
        if bot.levels:
            parts.append(f"{bot.name}:{min(bot.levels)}-{max(bot.levels)}")
    return ", ".join(parts)


def parse_bot(spec: object) -> tuple[Bot, int | None]:
    """The bot and level a spec names (surrounding spaces ignored; the bare name of a bot
    with levels is its ``default_level``). Raises ``ValueError`` for anything else, a
    non-string included."""
    if not isinstance(spec, str):
        raise ValueError(f"unknown bot {spec!r}; bots: {bot_help()}")
    name, _, level = spec.strip().partition(":")
    bot = BY_NAME.get(name)
    if bot is None or (level and not bot.levels):
        raise ValueError(f"unknown bot {spec!r}; bots: {bot_help()}")
    if not bot.levels:
        return bot, None
    if not level:
        return bot, bot.default_level
    if level not in {str(v) for v in bot.levels}:
        levels = [str(v) for v in bot.levels]
        raise ValueError(f"bot {spec!r}: {name} levels are {', '.join(levels[:-1])} and "
                         f"{levels[-1]}")
    return bot, int(level)


def check_bot(spec: object) -> str:
    """``spec`` stripped, if it names a bot (:func:`parse_bot`); raises ``ValueError``."""
    parse_bot(spec)
    return str(spec).strip()


def make_agent(spec: str, seed: int | str | None = None) -> Agent:
    """An agent from its spec: ``random`` or ``heuristic`` / ``heuristic:LEVEL`` (1-3).

    ``seed`` seeds the agent's own RNG (its tie-breaks and random choices). Raises
    ``ValueError`` for an unknown name or level.
    """
    bot, level = parse_bot(spec)
    return bot.build(level, seed)


def bots_schema() -> dict[str, object]:
    """The registry as JSON (``GET /api/bots``)::

        {"bots": [{"name", "description", "levels": [1, 2, 3], "default_level": 3,
                   "specs": ["heuristic:3", "heuristic:2", "heuristic:1"]}, ...],  # weakest first
         "choices": [{"spec": "heuristic:3", "label": "seatkind_heuristic_3"}, ...,
                     {"spec": "random", "label": "seatkind_random"}],  # every spec, strongest first
         "default": "heuristic", "suggested": "heuristic:2"}

    ``label`` is the i18n key of a spec (:func:`spec_label_key`). ``default``: the bot of a seat
    named by no spec (and of 托管); ``suggested``: what a room form preselects.
    """
    return {
        "bots": [{"name": bot.name, "description": bot.description, "levels": list(bot.levels),
                  "default_level": bot.default_level,
                  "specs": bot.specs()} for bot in BOTS],
        "choices": [{"spec": s, "label": spec_label_key(s)}
                    for bot in reversed(BOTS) for s in bot.specs()],
        "default": DEFAULT_BOT,
        "suggested": SUGGESTED_BOT,
    }


def spec_label_key(spec: str) -> str:
    """The i18n key naming a seat of this spec: ``seatkind_heuristic_2``, ``seatkind_random``."""
    return "seatkind_" + spec.replace(":", "_")
