"""kawuxing — 卡五星 (Ka Wu Xing), the three-player mahjong of Hubei.

Layers, each importing only from those above it (``../shared/DESIGN.md``); everything from
``tiles`` to ``engine`` does no I/O and reads no clock and no OS randomness:

- :mod:`kawuxing.tiles`       tile kinds, notation (MPSZ, Chinese, Unicode), counts vectors (R1)
- :mod:`kawuxing.patterns`    the 番 patterns of R9.1 as data, 屁胡 a row like the others
- :mod:`kawuxing.rules`       ``RuleSet``: the RULES.md options, their schema, the presets
- :mod:`kawuxing.melds`       declared melds (pung and the three kongs, R6)
- :mod:`kawuxing.shapes`      win check, readings, waits, shanten — table-driven, no rules (R7.1)
- :mod:`kawuxing.scoring`     the value wing: a finished hand's patterns, best reading and cap
                              (R7-R9); in it ``transfers`` (payments as data: a ``kind`` and its
                              parameters), ``payments`` (who pays a winner what, R8.4, R11, R18.3),
                              ``extras`` (horses, 坎, 跑恰摸八, R14-R16), ``cha_jiao`` (查叫, R10.3-R10.6)
                              and ``pattern_table`` (the patterns page of a rule set)
- :mod:`kawuxing.fairness`    the provably fair deal: commitment, entropy, wall derivation (R3.1)
- :mod:`kawuxing.engine`      a hand and a match: legal actions, apply, events, seat views (R2-R13)
- :mod:`kawuxing.records`     JSON game records, replay to any step, replay frames per seat
- :mod:`kawuxing.conformance` the conformance cases of ``shared/CASES.md`` (hand and game cases)
- :mod:`kawuxing.agents`      the ``Agent`` protocol, the bot registry, the bots, discard hints
- :mod:`kawuxing.sim`         bot-vs-bot simulation on all cores, with statistics
- :mod:`kawuxing.arena`       duplicate-format bot matches: pair differences, rates, ratings
- :mod:`kawuxing.server`      the game server: rooms, WebSocket protocol, pacing, store (FastAPI)
- :mod:`kawuxing.web`         the browser client (plain ES modules), composed onto the server's app
- :mod:`kawuxing.cli`         the ``kawuxing`` command, one module per command group

This module imports nothing, so ``import kawuxing`` stays cheap.
"""

__version__ = "0.1.0"
