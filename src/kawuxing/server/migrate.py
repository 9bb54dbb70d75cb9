"""Upgrading a database written by an older schema version in place (``kwx_schema_version``).

:func:`upgrade` runs, in the transaction that opens the store and after ``create_all`` has
made every missing table, the steps from the stored version to :data:`~.schema.SCHEMA_VERSION`
and records each version reached. A step only adds (tables, nullable columns): what an older
server stored — rooms, seats, matches, hands, actions — is kept as it was and still replays.

- 1 → 2 (issue 16, players): ``kwx_players``, ``kwx_player_tokens`` and
  ``kwx_match_players`` (made by ``create_all``), and the columns ``kwx_seats.player_id``
  (None: a seat taken with a nickname only, as every seat of version 1) and
  ``kwx_matches.rating`` (None: not rated; a version 1 match is never rated).
"""

from __future__ import annotations

import time

from sqlalchemy import insert, text
from sqlalchemy.ext.asyncio import AsyncConnection

from .schema import SCHEMA_VERSION, schema_version

# the statements of each step, by the version they start from (the same SQL for SQLite and
# PostgreSQL)
STEPS: dict[int, tuple[str, ...]] = {
    1: ("ALTER TABLE kwx_seats ADD COLUMN player_id VARCHAR(32)",
        "ALTER TABLE kwx_matches ADD COLUMN rating TEXT"),
}


async def upgrade(conn: AsyncConnection, found: int) -> list[int]:
    """Bring a database of schema version ``found`` to :data:`SCHEMA_VERSION` on ``conn``
    (inside its transaction: a failed step leaves the database as it was). Returns the
    versions reached, in order (``[]`` when it is current). Raises ``RuntimeError`` for a
    version newer than this server's, or one with no step."""
    reached: list[int] = []
    version = found
    if version > SCHEMA_VERSION:
        raise RuntimeError(f"database schema version {found}; this server knows version "
                           f"{SCHEMA_VERSION} and has no migration for it")
    while version < SCHEMA_VERSION:
        if version not in STEPS:
            raise RuntimeError(f"database schema version {found}; this server knows version "
                               f"{SCHEMA_VERSION} and has no migration for it")
        for statement in STEPS[version]:
            await conn.execute(text(statement))
        version += 1
        await conn.execute(insert(schema_version).values(version=version,
                                                         applied_at=time.time()))
        reached.append(version)
    return reached
