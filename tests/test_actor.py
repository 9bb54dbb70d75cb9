"""The command queue of a room (``kawuxing.server.actor``): once stopped it takes nothing more
and leaves no caller waiting (issue 17: a socket that reached a room just as its process
handed it over waited forever for an attach nobody served)."""

from __future__ import annotations

import asyncio

import pytest

from test_server_hardening import make_config
from test_server_room import Sink

from kawuxing.server.actor import Actor, Stopped
from kawuxing.server.clock import ManualClock
from kawuxing.server.db import Store
from kawuxing.server.errors import RoomError, RoomMoved
from kawuxing.server.manager import RoomManager


def test_commands_run_in_order_and_return_their_results():
    async def main():
        actor = Actor("a")
        actor.start()
        ran = []

        async def slow(x):
            await asyncio.sleep(0.01)
            ran.append(x)
            return x * 2

        first, second = actor.post(slow, 1), actor.post(ran.append, 2)
        assert await first == 2 and await second is None
        assert ran == [1, 2]
        await actor.stop_serving(1.0)

    asyncio.run(main())


def test_a_stopped_actor_refuses_at_once_and_drops_what_has_no_caller():
    async def main():
        actor = Actor("a")
        actor.start()
        await actor.stop_serving(1.0)
        ran = []
        with pytest.raises(Stopped, match="a is stopped"):
            await asyncio.wait_for(actor.post(ran.append, 1), 1.0)
        actor.post_nowait(ran.append, 2)
        assert actor.queue.empty() and ran == []
        await actor.stop_serving(1.0)  # a second stop does nothing

    asyncio.run(main())


def test_commands_queued_behind_one_that_overran_the_stop_fail_rather_than_hang():
    async def main():
        actor = Actor("a")
        actor.start()
        stuck = actor.post(asyncio.sleep, 30)
        queued = actor.post(lambda: "never")
        await asyncio.sleep(0)
        await actor.stop_serving(0.05)  # the sleep is cancelled after 0.05 s
        with pytest.raises(Stopped):
            await asyncio.wait_for(queued, 1.0)
        assert actor.task.cancelled() or actor.task.done()
        stuck.cancel()

    asyncio.run(main())


def test_a_room_handed_over_refuses_a_late_attach_with_503_and_closes_nothing(tmp_path):
    """A room dropped by its process (a takeover elsewhere): an attach that comes after is
    refused with 503 ``owner_unavailable`` at once (the socket then closes with 1012 and its
    client reconnects) instead of waiting on a queue nobody serves."""
    async def main():
        config = make_config(tmp_path)
        store = await Store.open(config.db_url)
        manager = RoomManager(store, config, ManualClock())
        try:
            made = await manager.create_room(seats=["human", "random", "random"], nickname="ann")
            room = manager.get(made["code"])
            await manager.drop(made["code"])
            assert manager.get(made["code"]) is None
            sink = Sink()
            with pytest.raises(RoomMoved) as caught:
                await asyncio.wait_for(room.post(room.attach, sink, made["token"], None, None),
                                       1.0)
            assert (caught.value.status, caught.value.code) == (503, "owner_unavailable")
            assert caught.value.message.startswith(f"room {made['code']} is no longer served")
            assert isinstance(caught.value, RoomError)
            assert sink.messages == [] and room.seats[0].conn is None
        finally:
            await manager.shutdown()
            await store.close()

    asyncio.run(main())
