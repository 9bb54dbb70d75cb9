"""The table's hint (a seat asks, the server answers with the expert's ranking of that seat's
own choices, R13): what it contains, that it changes nothing, and the refusal when no hand is
being played."""

from __future__ import annotations

import asyncio

from test_server_room import CLAIM_WALL, SEAT0, humans, msg, server, state


def test_a_hint_ranks_the_seats_own_choices_and_changes_nothing(tmp_path):
    async def main():
        async with server(tmp_path) as (manager, clock):
            room, sinks, _ = await humans(manager, clock, walls=[CLAIM_WALL], options=SEAT0)
            before = state(room)
            await room.post(room.client_message, sinks[0], msg("hint"))
            for _ in range(100):  # the ranking runs in a worker thread
                if sinks[0].of("hint"):
                    break
                await asyncio.sleep(0.02)
            hint = sinks[0].of("hint")[-1]
            assert hint["hand"] == 0 and hint["version"] == room.version
            legal = room.match.hand.legal_actions(0)
            assert sorted(map(str, (c["action"] for c in hint["choices"]))) == \
                sorted(str(a.to_json()) for a in legal)
            evs = [c["ev"] for c in hint["choices"]]
            assert all(isinstance(v, float) for v in evs) and hint["choices"][0]["text"]
            assert {r["code"] for c in hint["choices"] for r in c["reasons"]} & {
                "shanten", "ready"}
            assert state(room) == before
            # seat 1 is not in turn and nothing is on the table: no choices
            await room.post(room.client_message, sinks[1], msg("hint"))
            for _ in range(100):
                if sinks[1].of("hint"):
                    break
                await asyncio.sleep(0.02)
            assert sinks[1].of("hint")[-1]["choices"] == []
            assert not sinks[2].of("hint")  # only the asking seat is answered
    asyncio.run(main())


def test_a_hint_before_the_start_is_refused(tmp_path):
    async def main():
        async with server(tmp_path) as (manager, clock):
            created = await manager.create_room(seats=["human", "human", "heuristic"])
            room = manager.get(created["code"])
            _, token = await room.post(room.join, "p0", 0)
            from test_server_room import Sink
            sink = Sink()
            await room.post(room.attach, sink, token, None, None)
            await room.post(room.client_message, sink, msg("hint"))
            assert sink.messages[-1]["type"] == "refused"
            assert sink.messages[-1]["code"] == "not_playing"
    asyncio.run(main())


def test_hints_are_worked_out_beside_the_room_once_per_question(tmp_path, monkeypatch):
    """Issue 34: while a hint is worked out (here a ranking that takes 0.4 s) the room goes on
    answering; the same question asked again is worked out once; at most one hint at a time
    per process (hints.HINT_THREADS)."""
    from kawuxing.server import hints

    calls, running, most = [], [0], [0]
    real = hints.agent_choices

    def slow(*args):
        running[0] += 1
        most[0] = max(most[0], running[0])
        try:
            import time
            time.sleep(0.4)
            calls.append(1)
            return real(*args)
        finally:
            running[0] -= 1

    monkeypatch.setattr(hints, "agent_choices", slow)

    async def main():
        async with server(tmp_path) as (manager, clock):
            room, sinks, _ = await humans(manager, clock, walls=[CLAIM_WALL], options=SEAT0)
            other, others, _ = await humans(manager, clock, walls=[CLAIM_WALL], options=SEAT0)
            loop = asyncio.get_running_loop()
            started = loop.time()
            for sink in (sinks[0], sinks[0], sinks[1]):  # seat 0 twice, seat 1 once
                await room.post(room.client_message, sink, msg("hint"))
            await other.post(other.client_message, others[0], msg("hint"))  # another room
            await room.post(room.client_message, sinks[2], msg("sync"))
            assert loop.time() - started < 0.3  # the room answered while the hints ran
            assert sinks[2].of("sync")
            for _ in range(200):
                if sinks[0].of("hint") and sinks[1].of("hint") and others[0].of("hint"):
                    break
                await asyncio.sleep(0.02)
            assert len(sinks[0].of("hint")) == 1 and len(sinks[1].of("hint")) == 1
            # asked again for the same version: answered at once from the last answer
            await room.post(room.client_message, sinks[0], msg("hint"))
            assert sinks[0].of("hint")[-1] == sinks[0].of("hint")[0]
    asyncio.run(main())
    # seat 1 has nothing to decide (no ranking); seat 0's question was worked out once, and
    # the two rooms' hints one after the other
    assert len(calls) == 2 and most[0] == 1
