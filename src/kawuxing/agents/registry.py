"""The registry of bots: one table of every bot a seat, the simulator or the CLI may name.

A bot is named by a *spec*: its name, or ``name:LEVEL`` for a bot with levels
(``random``, ``heuristic`` = ``heuristic:3``, ``heuristic:1`` … ``heuristic:3``), or
``policy:PATH`` for a trained network in a policy file (:mod:`kawuxing.agents.policy`; not in
a server room, which takes only the bots it lists). Other packages add bots through the entry
point group ``kawuxing.bots``: each entry point names a callable ``build(seed) -> Agent``
(its docstring's first line describes it), registered under the entry point's name after the
project's own bots.
:func:`make_agent` builds one, :func:`check_bot` validates a spec, :func:`bots_schema` serves
the table (``GET /api/bots``) so that no client keeps a list of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Callable

from .base import Agent
from .expert import ExpertAgent
from .heuristic import HeuristicAgent
from .policy import PolicyAgent, PolicyNet
from .random_agent import RandomAgent

ENTRY_POINT_GROUP = "kawuxing.bots"
LEARNED_WEIGHTS = Path(__file__).parent / "weights" / "learned.npz"


@dataclass(frozen=True)
class Bot:
    """One bot of the registry.

    ``name``: what a spec starts with; ``description``: one English line; ``levels``: the
    levels a spec may add after ``:`` (empty: none); ``default_level``: the level of the bare
    name; ``build(level, seed)``: a fresh agent (``level`` None for a bot without levels, the
    file's path for a bot that ``takes_path``: ``policy:PATH``); ``check()``: raises
    ``ValueError`` when the bot cannot be built here (its weights missing), called by
    :func:`parse_bot` so that an arena refuses it before its first deal.
    """

    name: str
    description: str
    build: Callable[[int | str | None, int | str | None], Agent]
    levels: tuple[int, ...] = ()
    default_level: int | None = None
    takes_path: bool = False
    check: Callable[[], object] | None = None

    def specs(self) -> list[str]:
        """Every spec that names a distinct player of this bot, strongest first
        (``["heuristic:3", "heuristic:2", "heuristic:1"]``, ``["random"]``)."""
        if self.takes_path:
            return []  # policy:PATH names a file, not a player the registry lists
        if not self.levels:
            return [self.name]
        return [f"{self.name}:{level}" for level in sorted(self.levels, reverse=True)]


# In order of strength, weakest first (learned: level with heuristic:3 and below expert in the
# arena, docs/bots.md; against levels 1-2 not measured yet).
BOTS: tuple[Bot, ...] = (
    Bot("random", "a uniformly random legal action (a baseline)",
        lambda level, seed: RandomAgent(seed)),
    Bot("learned", "a network trained on the project's own env by imitation of the expert's "
        "self-play over the towns (docs/bots.md); numpy only",
        lambda level, seed: PolicyAgent(load_policy(str(LEARNED_WEIGHTS)), seed, "learned"),
        check=lambda: load_policy(str(LEARNED_WEIGHTS))),
    Bot("heuristic", "shanten, effective tiles and live waits; level 2 adds the value of the "
        "waits, 亮倒 by expected value (R8) and concealed kongs; level 3 adds defence (declared "
        "waits, late folds, 杠上炮), the end-of-wall rules and 漂 with a good hand",
        lambda level, seed: HeuristicAgent(level, seed), levels=(1, 2, 3), default_level=3),
    Bot("expert", "expected base units for every decision: hand value, kong money, 包胡 both "
        "ways, 荒庄 compensation, the race against the wall, the danger of each discard",
        lambda level, seed: ExpertAgent(seed)),
    Bot("policy", "a trained network from a policy file: policy:PATH (docs/research.md)",
        lambda path, seed: PolicyAgent(load_policy(str(path)), seed), takes_path=True),
)


@lru_cache(maxsize=16)
def _load_policy(path: str, stamp: tuple[int, int]) -> PolicyNet:
    return PolicyNet.load(path)


def load_policy(path: str) -> PolicyNet:
    """The :class:`PolicyNet` of the file at ``path``, read once while the file is unchanged
    (an arena builds an agent a seat and a deal). Raises
    :class:`~kawuxing.agents.policy.PolicyError` (a ``ValueError``)."""
    try:
        st = Path(path).stat()
    except OSError:
        return PolicyNet.load(path)  # the clear error of a missing file
    return _load_policy(path, (st.st_mtime_ns, st.st_size))


def _plugin_bots() -> tuple[Bot, ...]:
    """The bots other packages register (entry point group ``kawuxing.bots``), by name; a
    name the project uses is skipped."""
    out = []
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        def build(level, seed, ep=ep):
            return ep.load()(seed)
        out.append(Bot(ep.name, f"{ep.value} (a bot of another package)", build))
    return tuple(out)


BOTS = BOTS + tuple(b for b in _plugin_bots() if b.name not in {x.name for x in BOTS})
BY_NAME: dict[str, Bot] = {bot.name: bot for bot in BOTS}
AGENT_NAMES: tuple[str, ...] = tuple(BY_NAME)

DEFAULT_BOT = "heuristic"  # a bot seat, 托管 and a left seat when no bot is named
SUGGESTED_BOT = "heuristic:2"  # what a room form preselects for a bot seat (declares 亮倒)


def bot_help() -> str:
    """The specs in one line for messages: ``random, heuristic, heuristic:1-3``."""
    parts = []
    for bot in BOTS:
        parts.append(f"{bot.name}:PATH" if bot.takes_path else bot.name)
        if bot.levels:
            parts.append(f"{bot.name}:{min(bot.levels)}-{max(bot.levels)}")
    return ", ".join(parts)


def parse_bot(spec: object) -> tuple[Bot, int | str | None]:
    """The bot and level a spec names (surrounding spaces ignored; the bare name of a bot
    with levels is its ``default_level``; for ``policy:PATH`` the path, its file read and
    checked). Raises ``ValueError`` for anything else, a non-string included, and
    :class:`~kawuxing.agents.policy.PolicyError` (a ``ValueError``) for a policy file that
    cannot be played."""
    if not isinstance(spec, str):
        raise ValueError(f"unknown bot {spec!r}; bots: {bot_help()}")
    name, _, level = spec.strip().partition(":")
    bot = BY_NAME.get(name)
    if bot is not None and bot.takes_path:
        if not level.strip():
            raise ValueError(f"bot {spec!r}: name the policy file, {name}:PATH")
        load_policy(level.strip())  # PolicyError (a ValueError) for a file it cannot play
        return bot, level.strip()
    if bot is None or (level and not bot.levels):
        raise ValueError(f"unknown bot {spec!r}; bots: {bot_help()}")
    if bot.check is not None:
        bot.check()
    if not bot.levels:
        return bot, None
    if not level:
        return bot, bot.default_level
    if level not in {str(v) for v in bot.levels}:
        levels = [str(v) for v in bot.levels]
        raise ValueError(f"bot {spec!r}: {name} levels are {', '.join(levels[:-1])} and "
                         f"{levels[-1]}")
    return bot, int(level)


def check_bot(spec: object, paths: bool = True) -> str:
    """``spec`` stripped, if it names a bot (:func:`parse_bot`); raises ``ValueError``.
    ``paths=False`` (a server room) also refuses ``policy:PATH``: a room plays only the bots
    the registry lists, never a file named by a player."""
    name = spec.strip().partition(":")[0] if isinstance(spec, str) else None
    if not paths and name in BY_NAME and BY_NAME[name].takes_path:  # (no file is read)
        raise ValueError(f"bot {spec!r}: a room seats the listed bots only; bots: "
                         f"{', '.join(b.name for b in BOTS if not b.takes_path)}")
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
                  "specs": bot.specs()} for bot in BOTS if not bot.takes_path],
        "choices": [{"spec": s, "label": spec_label_key(s)}
                    for bot in reversed(BOTS) for s in bot.specs()],
        "default": DEFAULT_BOT,
        "suggested": SUGGESTED_BOT,
    }


def spec_label_key(spec: str) -> str:
    """The i18n key naming a seat of this spec: ``seatkind_heuristic_2``, ``seatkind_random``."""
    return "seatkind_" + spec.replace(":", "_")
