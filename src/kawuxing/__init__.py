"""kawuxing — 卡五星 (Ka Wu Xing), the three-player mahjong of Hubei.

Layers, each importing only from those above it:

- :mod:`kawuxing.tiles`    tile kinds, notation (MPSZ, Chinese, Unicode), counts vectors (R1)
- :mod:`kawuxing.shapes`   win check, readings, waits, shanten — table-driven, no rules (R7.1)
- :mod:`kawuxing.patterns` the 番 patterns of R9.1 as data
- :mod:`kawuxing.rules`    :class:`~kawuxing.rules.RuleSet`: every RULES.md option, presets
- :mod:`kawuxing.melds`    declared melds (pung and the three kongs, R6)
- :mod:`kawuxing.transfers` payments as data: each with a ``kind`` and its parameters, and
  the one function that puts them in words (R6, R7.2, R8.4, R10.2, R11.1)
- :mod:`kawuxing.scoring`  patterns of a finished hand, best reading, cap, payments (R7-R11)
- :mod:`kawuxing.cli`      the ``kawuxing`` command

This module imports nothing, so ``import kawuxing`` stays cheap.
"""

__version__ = "0.1.0"
