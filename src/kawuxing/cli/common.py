"""What every ``kawuxing`` subcommand shares: the consoles, the one-line error, rule options."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

from ..rules import RuleSet, parse_option

out = Console(soft_wrap=True)  # plain lines stay whole lines (grep-able); tables fit the width
err = Console(stderr=True)


def fail(message: str) -> None:
    """One line on stderr (never wrapped, markup in the message shown as is), exit status 2."""
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(2)


class OneLineErrors(TyperGroup):
    """The ``kawuxing`` command group: a usage error (an unknown option, a missing argument, a
    value of the wrong type) is one ``error:`` line naming it and exit status 2, like every
    other bad input, instead of click's usage box."""

    def main(self, *args: Any, **kwargs: Any) -> None:
        kwargs["standalone_mode"] = False
        try:
            code = super().main(*args, **kwargs)
        except typer.TyperException as exc:
            if type(exc).__name__ == "NoArgsIsHelpError" or not hasattr(exc, "format_message"):
                exc.show()  # ``kawuxing`` alone: the help
                sys.exit(getattr(exc, "exit_code", 2))
            ctx = getattr(exc, "ctx", None)
            where = (f" (kawuxing {ctx.info_name} --help)" if ctx is not None
                     and ctx.parent is not None else " (kawuxing --help)")
            message = " ".join(exc.format_message().split())
            err.print(f"[bold red]error:[/] {escape(message)}{escape(where)}", highlight=False,
                      soft_wrap=True)
            sys.exit(2)
        except typer.Abort:
            err.print("[bold red]error:[/] aborted", highlight=False)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


class ToolParser(argparse.ArgumentParser):
    """The argument parser of the scripts in ``tools/``: a bad argument is one ``error:`` line
    on stderr naming it (and ``--help``), exit status 2, nothing on stdout — as in
    ``kawuxing`` — instead of argparse's usage block."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"error: {' '.join(message.split())} ({self.prog} --help)\n")
        sys.exit(2)

    def check_output(self, path: str | None, option: str) -> None:
        """Refuse (:meth:`error`) an output file ``path`` given for ``option`` that is empty
        or cannot be written, before any long work; None (not given) passes. Leaves the file
        empty."""
        if path is None:
            return
        if not path.strip():
            self.error(f"{option}: an empty file name")
        try:
            open(path, "w").close()
        except OSError as exc:
            self.error(f"{option}: {exc.strerror}: {path!r}")


def rules_from(preset: str, options: list[str] | None) -> RuleSet:
    """A RuleSet from ``--rules PRESET`` and ``--option name=value`` strings (RulesError)."""
    return RuleSet.preset(preset, **dict(parse_option(o) for o in options or []))


def open_output(path: Path) -> TextIO:
    """Open ``path`` for writing (UTF-8) before any long work, or fail with one line."""
    try:
        return path.open("w", encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror}")
