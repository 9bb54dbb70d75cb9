"""What every ``kawuxing`` subcommand shares: the consoles, the one-line error, rule options."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

import typer
from rich.console import Console
from rich.markup import escape

from ..rules import RuleSet, parse_option

out = Console(soft_wrap=True)  # plain lines stay whole lines (grep-able); tables fit the width
err = Console(stderr=True)


def fail(message: str) -> None:
    """One line on stderr (never wrapped, markup in the message shown as is), exit status 2."""
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(2)


def rules_from(preset: str, options: list[str] | None) -> RuleSet:
    """A RuleSet from ``--rules PRESET`` and ``--option name=value`` strings (RulesError)."""
    return RuleSet.preset(preset, **dict(parse_option(o) for o in options or []))


def open_output(path: Path) -> TextIO:
    """Open ``path`` for writing (UTF-8) before any long work, or fail with one line."""
    try:
        return path.open("w", encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror}")
