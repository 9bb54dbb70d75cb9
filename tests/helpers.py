"""Helpers shared by the test files: the engine's (walls, rule sets, views) and a scratch
database on either backend."""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from hypothesis import strategies as st

from kawuxing.engine import ROB, Hand
from kawuxing.face_down import without
from kawuxing.melds import MELD_CONCEALED_KONG
from kawuxing.rules import PRESETS, RuleSet, option_specs
from kawuxing.tiles import COPIES, NUM_KINDS, kinds_for_suits, parse_tiles, tile_str

KIND = {tile_str(k): k for k in range(NUM_KINDS)}  # "5p" -> its kind


@cache
def _pg_url() -> str | None:
    """The test PostgreSQL's URL (:func:`kawuxing.server.testing.pg_test_url`), asked once."""
    from kawuxing.server.testing import pg_test_url

    return pg_test_url()


@contextmanager
def scratch_database(backend: str, folder: Path, name: str = "games.db",
                     sqlite_driver: str = "sqlite+aiosqlite") -> Iterator[tuple[str, str | None]]:
    """``(url, schema)`` of a fresh database: with ``backend`` ``"sqlite"`` the file ``name`` in
    ``folder`` (``sqlite_driver``: the URL's scheme; ``"sqlite"`` for ``kawuxing serve --db``),
    with ``"postgresql"`` a new schema on the test server (``KAWUXING_TEST_PG``), dropped
    after — the test is skipped where no PostgreSQL answers."""
    import pytest

    from kawuxing.server.testing import drop_database, new_schema_name

    if backend == "sqlite":
        yield f"{sqlite_driver}:///{folder / name}", None
        return
    url = _pg_url()
    if url is None:
        pytest.skip("no PostgreSQL at KAWUXING_TEST_PG / 127.0.0.1:5432")
    schema = new_schema_name()
    try:
        yield url, schema
    finally:  # in a thread of its own: the caller's may run an event loop (Playwright's)
        dropper = threading.Thread(target=drop_database, args=(url, schema))
        dropper.start()
        dropper.join(60)


def make_wall(rules: RuleSet, seed: int, clumpy: bool) -> list[int]:
    """84 tiles: shuffled, or runs of 1-4 equal/adjacent tiles shuffled as blocks (clumpy), so
    that kongs, 亮倒 and seven pairs come often."""
    rng = random.Random(seed)
    tiles = sorted(kinds_for_suits(rules.suits) * COPIES)
    if not clumpy:
        rng.shuffle(tiles)
        return tiles
    blocks, i = [], 0
    while i < len(tiles):
        n = rng.randint(1, 4)
        blocks.append(tiles[i:i + n])
        i += n
    rng.shuffle(blocks)
    return [t for b in blocks for t in b]


def tiles_in_view(view: dict) -> Counter:
    """The tiles a seat view (``views.seat_view``) names: own hand, the river (not taken), melds, revealed hands."""
    named: Counter = Counter(parse_tiles(view.get("hand", "")))  # a spectator's: no hand
    for entry in view["seats"]:
        named.update(KIND[t] for t, taken in zip(entry["discards"], entry["claimed"])
                     if not taken)
        for m in entry["melds"]:
            if m["tile"] is not None:
                named[KIND[m["tile"]]] += 3 if m["kind"] == "pung" else 4
        if entry["seat"] != view["seat"] and "revealed" in entry:
            named.update(parse_tiles(entry["revealed"]))
    return named


def visible_tiles(hand: Hand, seat: int | None) -> Counter:
    """R13.1, computed from the state and independent of ``engine/views.py``: the tiles
    ``seat`` (None: a spectator, public tiles only) may see now (the tile of a kong being added counted once; a declared konger's
    tile already in its revealed hand). The test oracle of test_views and test_server_leak."""
    ended = hand.ended
    seen: Counter = Counter()
    for i, s in enumerate(hand.seats):
        seen.update(t for t, taken in zip(s.discards, s.claimed) if not taken)
        for m in s.melds:
            if (m.kind != MELD_CONCEALED_KONG or i == seat or ended
                    or hand.rules.concealed_kong_visible):
                seen[m.tile] += m.size
        counts = list(s.concealed)
        if i != seat and not ended:
            if not s.declared:
                continue
            counts = without(counts, s.hidden)  # R8.6/R8.11 face-down groups
            if s.drawn is not None and hand.current == i:  # a drawn tile is seen when discarded
                counts[s.drawn] -= 1
        seen.update({k: c for k, c in enumerate(counts) if c > 0})
    pending = hand.pending
    if (hand.phase == ROB and pending.seat != seat and not ended
            and not hand.seats[pending.seat].declared):
        seen[pending.tile] += 1  # R6.2/R7.4: the tile being added is shown on the table
    return +seen


def auto_pass(hand: Hand) -> None:
    """R13.2: the seats whose only answer to the tile on the table is ``pass`` (no option)
    are passed for, as the server does once the window's minimum is over."""
    hand.pass_idle()


# --- rule options: the one oracle of which values each option takes (the RuleSet schema) ------

def option_values(*names: str) -> dict[str, list]:
    """Option name -> every value the RuleSet schema lists for it (``kawuxing.rules.Option``:
    its choices, else the values a room form offers), for the options ``names`` (in that order).
    Raises ``KeyError`` for an option that is not a RuleSet field, ``ValueError`` for one that
    lists no values (an open option such as ``base``)."""
    specs = option_specs()
    out = {}
    for name in names:
        spec = specs[name]
        values = list(spec.choices or spec.offered or ())
        if not values:
            raise ValueError(f"option {name} lists no values (an open option)")
        out[name] = values
    return out


def options_strategy(*names: str) -> st.SearchStrategy[dict]:
    """Hypothesis: a dict of some of the options ``names`` (each missing or one of its
    :func:`option_values`)."""
    return st.fixed_dictionaries({}, optional={k: st.sampled_from(v)
                                               for k, v in option_values(*names).items()})


def rule_sets(*names: str, presets: tuple[str, ...] = PRESETS) -> st.SearchStrategy[RuleSet]:
    """Hypothesis: a preset of ``presets`` with some of the options ``names`` overridden."""
    return st.builds(lambda preset, options: RuleSet.preset(preset, **options),
                     st.sampled_from(presets), options_strategy(*names))
