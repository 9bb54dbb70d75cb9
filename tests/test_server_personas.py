"""Named bots (server/personas.py) and the bots' thinking time (Pacer.bot_pause).

- Each bot seat has a persona (老张 / Lao Zhang …) sent as ``{"id", "key"}`` in the seat
  info: two bots at one table never share one, none takes a player's nickname, the same room
  always gets the same ones (also rebuilt from its stored seats), and the stored match players
  carry them to the end of the match; the web client has both languages of every persona.
- A bot waits ``bot_delay`` times 1 ± ``bot_jitter``; with the same draws, a seat with no
  option sees the same message times whether or not the bot could claim (R13.2).
"""

from __future__ import annotations

import asyncio
import math
import random
import re

from kawuxing.server.config import ServerConfig
from kawuxing.server.pacing import Pacer
from kawuxing.server.personas import BY_ID, PERSONAS, POOLS, choose, fold, pool_of
from kawuxing.server.seats import Seats
from kawuxing.web import STATIC_DIR

from test_server_room import SEAT0 as DEALER_SEAT0
from test_server_room import act, humans, msg, server, settle
from test_server_window import STEP, trace, wall

CODES = [f"K{n:05d}" for n in range(40)]


def bot(spec: str, nickname: str | None = None, vacated: bool = False) -> dict:
    return {"kind": "bot", "bot": spec, "nickname": nickname or f"{spec} bot",
            "vacated": vacated}


def human(nickname: str) -> dict:
    return {"kind": "human", "bot": None, "nickname": nickname, "vacated": False}


def test_the_persona_table():
    """24 personas, 4 per level; every id, Chinese name and English name is used once."""
    assert len(PERSONAS) == 24 and {len(p) for p in POOLS.values()} == {4}
    assert len({p.id for p in PERSONAS}) == len({p.zh for p in PERSONAS}) == 24
    assert len({fold(p.en) for p in PERSONAS}) == 24
    assert BY_ID["lao_zhang"].zh == "老张" and BY_ID["lao_zhang"].en == "Lao Zhang"
    assert BY_ID["lao_zhang"].public() == {"id": "lao_zhang", "key": "persona_lao_zhang"}
    assert pool_of("heuristic") == pool_of("heuristic:3") == POOLS[("heuristic", 3)]
    assert pool_of("random") == POOLS[("random", None)]
    assert pool_of("expert") == POOLS[("expert", None)]
    assert pool_of("learned") == POOLS[("learned", None)]
    assert pool_of("no-such-bot") == PERSONAS


def test_bots_at_one_table_differ_from_each_other_and_from_the_players():
    """Three bots of one level take three personas of its pool; a player called 老张 (or
    'lao zhang') never sits with a bot 老张; for 40 room codes."""
    level3 = {p.id for p in POOLS[("heuristic", 3)]}
    for code in CODES:
        three = choose(code, [bot("heuristic:3")] * 3)
        assert len({p.id for p in three}) == 3 and {p.id for p in three} <= level3
        for nick in ("老张", "lao zhang", "LaoZhang"):
            got = choose(code, [human(nick), bot("heuristic:3"), bot("heuristic:3")])
            assert got[0] is None and "lao_zhang" not in {p.id for p in got[1:]}
            assert got[1].id != got[2].id


def test_personas_follow_the_level_and_the_room_code():
    """Mixed levels draw from their own pools; the choice is the same on every call for a
    room and differs between rooms (more than one persona over 40 codes)."""
    seats = [human("小明"), bot("heuristic:1"), bot("random")]
    firsts = set()
    for code in CODES:
        got = choose(code, seats)
        assert got == choose(code, seats)
        assert got[1] in POOLS[("heuristic", 1)] and got[2] in POOLS[("random", None)]
        firsts.add(got[1].id)
    assert len(firsts) > 1


def test_a_vacated_seat_keeps_the_players_nickname_and_no_bot_takes_it():
    """A seat a player called 老张 left to a bot: no persona there, and the other bot is not
    老张 either."""
    for code in CODES:
        got = choose(code, [human("p0"), bot("heuristic", "老张", vacated=True), bot("heuristic")])
        assert got[1] is None and got[2].id != "lao_zhang"


def test_seats_send_personas_and_keep_them_when_restored():
    """Seats.public() and Seats.players() carry the persona; seats rebuilt from their rows
    (a restart) have the same ones."""
    seats = Seats("ABC234")
    seats.set_bot(1, "heuristic:2")
    seats.set_bot(2, "heuristic:2")
    public = seats.public()
    assert public[0]["persona"] is None and public[0]["kind"] == "open"
    ids = [p["persona"]["id"] for p in public[1:]]
    assert ids[0] != ids[1] and all(BY_ID[i] in POOLS[("heuristic", 2)] for i in ids)
    assert [p["persona"] for p in seats.players()] == [p["persona"] for p in public]
    again = Seats("ABC234")
    again.restore(seats.rows())
    assert again.public() == public


def test_named_bots_in_a_played_match(tmp_path):
    """A player and two heuristic:2 bots; the player hands its seat to a bot (托管) and the
    one-hand match is played out. The welcome, the room state and the stored match name two
    different bots (and the player by its nickname, with no persona)."""
    async def main():
        async with server(tmp_path) as (manager, clock):
            room, sinks, _ = await humans(manager, clock, ("human", "heuristic:2", "heuristic:2"),
                                          hands=1)
            welcome = sinks[0].of("welcome")[-1]
            first = [p["persona"] for p in welcome["players"]]
            assert first[0] is None and first[1]["id"] != first[2]["id"]
            assert {first[1]["key"], first[2]["key"]} <= {p.key for p in POOLS[("heuristic", 2)]}
            await room.post(room.client_message, sinks[0], msg("auto", on=True))
            await settle(room, clock)
            assert room.finished and sinks[0].of("match_end")
            end = room.public_info()["seats"]
            assert [p["persona"] for p in end] == first and end[0]["nickname"] == "p0"
            stored = (await manager.store.list_matches())[0]["players"]
            assert [p["persona"] for p in stored] == first
    asyncio.run(main())


def test_every_persona_has_its_names_in_both_languages_of_the_page():
    """zh.js and en.js hold persona_<id> for every persona, with the names of personas.py."""
    tables = {}
    for lang in ("zh", "en"):
        text = (STATIC_DIR / "js" / "i18n" / f"{lang}.js").read_text("utf-8")
        tables[lang] = dict(re.findall(r"^  (persona_\w+): '([^']*)',$", text, re.M))
    assert tables["zh"] == {p.key: p.zh for p in PERSONAS}
    assert tables["en"] == {p.key: p.en for p in PERSONAS}


# --- thinking time -----------------------------------------------------------------------

class _Room:
    def __init__(self, **config) -> None:
        self.config = ServerConfig(db_url="sqlite+aiosqlite:///unused.db", **config)


def pauses(n: int = 400, **config) -> list[float]:
    pacer, room = Pacer(), _Room(**config)
    pacer.rng = random.Random(3)
    return [pacer.bot_pause(room) for _ in range(n)]


def test_bot_pause_is_the_delay_with_jitter():
    """0.6 s ± 40 %: every pause in 0.36-0.84 s, spread over it (below 0.45 and above
    0.75 both occur); jitter 0: exactly 0.6; delay 0: 0; a jitter over 1 counts as 1."""
    got = pauses(bot_delay=0.6, bot_jitter=0.4)
    assert all(0.36 <= p <= 0.84 for p in got)
    assert min(got) < 0.45 and max(got) > 0.75
    assert set(pauses(bot_delay=0.6, bot_jitter=0)) == {0.6}
    assert set(pauses(bot_delay=0, bot_jitter=0.4)) == {0.0}
    assert all(0.0 <= p <= 1.2 for p in pauses(bot_delay=0.6, bot_jitter=5))


def test_bot_jitter_from_the_environment():
    assert ServerConfig().bot_jitter == 0.4
    assert ServerConfig.from_env("sqlite:///x.db", {"KAWUXING_BOT_JITTER": "0.25"}).bot_jitter \
        == 0.25


async def _watch(tmp_path, name: str) -> list[tuple]:
    """test_server_window's twin rooms with seat 1 a bot and a jittered pause whose draws
    are the same in both rooms: seat 2's trace over 2 s after seat 0 discards 5p."""
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    async with server(folder, claim_window=0.6, bot_delay=0.6, bot_jitter=0.4,
                      decision_seconds=20) as (manager, clock):
        room, sinks, _ = await humans(manager, clock, ("human", "heuristic", "human"),
                                      walls=[wall(name)], options=DEALER_SEAT0)
        room.pacer.rng = random.Random(2)  # first pause 0.819 s
        await act(room, sinks[0], [0, "discard", "5p"], action_id="d")
        await settle(room, clock)
        seen = len(sinks[2].messages)
        got, now = [], 0.0
        while now < 2.0:
            clock.advance(STEP)
            now += STEP
            await settle(room, clock)
            got += trace(sinks[2], seen, now)
            seen = len(sinks[2].messages)
        return got


def test_jitter_does_not_tell_a_bots_claim_option(tmp_path):
    """The bot answers at the window's end (0.6 s) with or without an option on 5p, then
    (pung or draw) discards after one jittered pause: seat 2 gets its messages at the same
    times in both rooms, the discard 0.6 + 0.6 × (1 + u) s after, u the first draw."""
    with_option = asyncio.run(_watch(tmp_path, "option"))
    without = asyncio.run(_watch(tmp_path, "none"))
    times = [[t for t, *_ in got] for got in (with_option, without)]
    assert times[0] == times[1]
    pause = 0.6 * (1 + random.Random(2).uniform(-0.4, 0.4))
    due = round(math.ceil((0.6 + pause) / STEP - 1e-6) * STEP, 2)
    assert times[0][:2] == [0.6, due] and due == 1.45  # not the unjittered 1.2
    assert [e for e in with_option[1][5] if e[0] == "discard"] == [("discard", 1)]
