"""The ``kawuxing`` command line (typer + rich): :data:`app` is the ``kawuxing`` entry point.

One module per command group; bad input is one clear line on stderr and exit status 2
(:func:`kawuxing.cli.common.fail`):

- :mod:`kawuxing.cli.scoring`     ``score``: score a finished hand (R7-R9)
- :mod:`kawuxing.cli.conformance` ``cases``: run the conformance cases of ``docs/CASES.md``
- :mod:`kawuxing.cli.records`     ``replay`` and ``selfplay``: game records
- :mod:`kawuxing.cli.verify`      ``verify``: check a record's provably fair deal (R3.1)
- :mod:`kawuxing.cli.bots`        ``hint`` and ``simulate``: the bots
- :mod:`kawuxing.cli.arena`       ``arena``: duplicate-format bot matches
- :mod:`kawuxing.cli.train`       ``train``: the learned bot's training run
- :mod:`kawuxing.cli.review`      ``review``: the AI review (复盘) of a seat's play in a record
- :mod:`kawuxing.cli.connect`     ``connect``: a bot program plays a seat of a server room
- :mod:`kawuxing.cli.serve`       ``serve``: the game server
- :mod:`kawuxing.cli.common`      what they share: consoles, the one-line error, rule options

``python -m kawuxing.cli COMMAND ...`` runs the same commands (``__main__``).
"""

from __future__ import annotations

import typer

from . import (arena, bots, conformance, connect, records, review, scoring, serve, train,
               verify)
from .common import OneLineErrors

app = typer.Typer(cls=OneLineErrors, add_completion=False, no_args_is_help=True,
                  help="卡五星 (Ka Wu Xing), the three-player mahjong of Hubei.")

app.command()(scoring.score)
app.command()(conformance.cases)
app.command()(records.replay)
app.command()(records.selfplay)
app.command()(verify.verify)
app.command()(bots.hint)
app.command()(bots.simulate)
app.command()(arena.arena)
app.command()(train.train)
app.command()(review.review)
app.command()(connect.connect)
app.command()(serve.serve)

__all__ = ["app"]
