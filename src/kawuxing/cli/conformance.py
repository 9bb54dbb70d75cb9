"""``kawuxing cases``: run conformance cases (format: ``docs/CASES.md``) from a .jsonl file."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..conformance import run_case
from .common import fail


def cases(file: Annotated[Path, typer.Argument(help="a conformance cases .jsonl file")]) -> None:
    """Run conformance cases (format in docs/CASES.md): one JSON outcome line per input line."""
    try:
        lines = file.read_text(encoding="utf-8-sig").splitlines()
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror}")
    except UnicodeDecodeError as exc:
        fail(f"{file} is not UTF-8 text (byte {exc.start}): one JSON object a line is expected")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            case = json.loads(line)
        except (ValueError, RecursionError) as exc:
            # keep the case's id when it can still be read from the broken line (CASES.md)
            found = re.search(r'"id"\s*:\s*("(?:[^"\\]|\\.)*")', line)
            try:
                case_id = json.loads(found.group(1)) if found else f"line {number}"
            except ValueError:
                case_id = f"line {number}"
            print(json.dumps({"id": case_id, "error": f"bad JSON on line {number}: {exc}"},
                             ensure_ascii=False))
            continue
        outcome = run_case(case)
        if outcome.get("id") is None and not isinstance(case, dict):
            outcome["id"] = f"line {number}"
        print(json.dumps(outcome, ensure_ascii=False), flush=False)
    sys.stdout.flush()
