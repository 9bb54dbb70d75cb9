"""Social play in a real browser (issue 12): quick phrases and emotes between two players with a
remembered mute and the server's rate limit, a spectator (旁观) who watches live and receives no
hidden tile, and the countdown / ready step between hands in the settlement.

The server and the browser as in test_web_browser (tests/web_harness.py and the fixtures of
conftest.py: uvicorn in a thread on 127.0.0.1, Debian's Chromium through Playwright, a test wall). Screenshots of the
chat and of the spectator view go to artifacts/ (docs/ with KAWUXING_UPDATE_DOCS=1).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from kawuxing.server.testing import build_wall, http
from kawuxing.tiles import format_tiles, parse_tiles
from web_harness import (DECLARE_HANDS, Watch, WebServerThread, declare_room,
                         play_until_settlement, seat_page, shot, state, web_config)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("socialdb") / "social.db"
    with WebServerThread(web_config(f"sqlite+aiosqlite:///{db}")) as srv:
        yield srv


def two_players(server, browser):
    """A room of 甲 and 乙 (two pages) and a bot; returns (room, other, contexts, pages)."""
    status, room = http("POST", f"{server.url}/api/rooms", {
        "seats": ["human", "human", "heuristic"], "nickname": "甲", "hands": 1,
        "decision_seconds": 120})
    assert status == 201, room
    _, other = http("POST", f"{server.url}/api/rooms/{room['code']}/join", {"nickname": "乙"})
    contexts = [browser.new_context(viewport={"width": 1366, "height": 768}, locale="zh-CN")
                for _ in range(2)]
    pages = [c.new_page() for c in contexts]
    watches = [Watch(p) for p in pages]
    seat_page(pages[0], server, room["code"], room["seat"], room["token"], "甲")
    seat_page(pages[1], server, room["code"], other["seat"], other["token"], "乙")
    return room, other, contexts, pages, watches


def test_quick_phrases_and_emotes_with_a_remembered_mute(server, browser):
    """甲 says a phrase and an emote from the chat panel: 乙 sees them over 甲's seat in its
    words; over the rate (3 at once) 甲 is told to wait; 乙 mutes 甲 — no bubble any more,
    also after a reload (kept in localStorage)."""
    room, other, contexts, (a, b), watches = two_players(server, browser)
    try:
        me = room["seat"]
        a.click(".chat-dock .chat-btn")
        a.click('.chat-panel button.phrase[data-say="hurry"]')
        bubble = b.locator(f'.chat-bubble[data-seat="{me}"]')
        bubble.wait_for()
        assert bubble.inner_text() == "快点吧，等得花儿都谢了"
        assert "甲：快点吧，等得花儿都谢了" in b.locator(".announcer").inner_text()  # aria-live
        assert "at-" in bubble.get_attribute("class")
        a.locator(f'.chat-bubble[data-seat="{me}"]').wait_for()  # the speaker sees it too
        a.click(".chat-dock .chat-btn")
        a.click('.chat-panel button.emote-btn[data-say="thumbs"]')
        b.locator('.chat-bubble.is-emote[data-say="thumbs"] svg').wait_for()
        b.click(".chat-dock .chat-btn")  # 乙 opens its panel: the picture of the chat
        b.locator(".chat-panel").wait_for()
        shot(b, "chat", "screenshot-chat.png")
        b.keyboard.press("Escape")  # the panel closes, the focus back on its button
        assert b.locator(".chat-panel").count() == 0
        assert b.evaluate("document.activeElement.classList.contains('chat-btn')")
        # five more in one go: over the limit (3 at once, then one each 2 s, however long the
        # steps above took) — 甲 is told, and the last one never reaches 乙
        a.evaluate("(ids) => ids.forEach((id) => window.__kwx.game.say(id))",
                   ["nice", "oops", "again", "bye", "hello"])
        a.wait_for_selector(".toast >> text=说得太快了")
        b.wait_for_timeout(500)
        assert b.locator('.chat-bubble[data-say="hello"]').count() == 0
        # 乙 mutes 甲
        b.click(".chat-dock .chat-btn")
        b.click(f'.chat-panel button.mute[data-seat="{me}"]')
        mute = b.locator(f'.chat-panel button.mute[data-seat="{me}"]')
        assert mute.get_attribute("aria-pressed") == "true"
        assert b.locator(".chat-bubble").count() == 0
        a.wait_for_timeout(2100)  # one phrase back (0.5 a second)
        a.click(".chat-dock .chat-btn")
        a.click('.chat-panel button.phrase[data-say="thanks"]')
        a.locator('.chat-bubble[data-say="thanks"]').wait_for()
        b.wait_for_timeout(500)
        assert b.locator(".chat-bubble").count() == 0
        b.reload()
        b.wait_for_selector(".board")
        assert json.loads(b.evaluate("localStorage.getItem('kwx.muted')")) == ["nick:甲"]
        a.wait_for_timeout(2100)
        a.click(".chat-dock .chat-btn")
        a.click('.chat-panel button.phrase[data-say="bye"]')
        a.locator('.chat-bubble[data-say="bye"]').wait_for()
        b.wait_for_timeout(500)
        assert b.locator(".chat-bubble").count() == 0
        b.click(".chat-dock .chat-btn")
        b.click(f'.chat-panel button.mute[data-seat="{me}"]')  # unmuted again
        assert json.loads(b.evaluate("localStorage.getItem('kwx.muted')")) == []
        for w in watches:
            assert not w.errors, w.errors
    finally:
        for c in contexts:
            c.close()


def frames_of(page) -> list:
    """Every WebSocket frame the page receives from now (parsed), in a list filled live."""
    got: list = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: got.append(json.loads(f))))
    return got


def test_a_spectator_watches_live_and_receives_no_hidden_tile(server, browser, desktop):
    """The 旁观 link of a room: the spectator's page draws the table read-only with the bottom
    seat face down; every message it gets holds no seat's own hand, options or clock, no deal
    hand and no drawn tile (R13); the player sees 旁观 1; at the end the spectator sees the
    settlement and the countdown; a spectator cannot act."""
    page, _ = desktop
    room = declare_room(server, hands=2)
    seat_page(page, server, room["code"], room["seat"], room["token"])
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="zh-CN")
    spectator = ctx.new_page()
    watch = Watch(spectator)
    frames = frames_of(spectator)
    try:
        spectator.goto(f"{server.url}/#/watch/{room['code']}")
        spectator.wait_for_selector(".watch-table .board")
        page.wait_for_selector("#room-bar .watchers >> text=旁观 1")
        mine = spectator.locator(".watch-table .seat.me .hand .tile")
        backs = spectator.locator(".watch-table .seat.me .hand .tile.back")
        assert mine.count() == 14 and backs.count() == 14
        assert spectator.locator(".watch-table .actions button").count() == 0
        assert spectator.locator(".chat-dock").count() == 0  # spectators do not chat
        # a spectator is nobody's 我: the bottom seat is named by its number and name (zh)
        name = spectator.locator(".watch-table .seat.me .head .name").inner_text()
        assert spectator.locator(".watch-table .seat.me").get_attribute("aria-label") == f"座位 1 {name}"
        assert spectator.locator(".watch-table .seat.me .hand").get_attribute("aria-label") == f"座位 1 {name}的手牌"
        assert "我" not in spectator.locator(".watch-table .my-river .river").get_attribute("aria-label")
        shot(spectator, "spectator", "screenshot-spectator.png")  # mid-hand: hands face down
        # the player plays the hand to its end (seat 1 declares 亮倒 on the way)
        play_until_settlement(page, hand=0)
        spectator.locator(".watch-below .settlement").wait_for()
        spectator.locator(".watch-below .between .countdown").wait_for()
        # the declared seat's hand was shown to the spectator face up, as to the player
        declared = spectator.locator('.watch-table .seat[data-seat="1"] .tiles.revealed .tile')
        declared.first.wait_for()
        shot(spectator, "spectator-end")
        assert not watch.errors, watch.errors
    finally:
        ctx.close()
    dealt = [format_tiles(sorted(parse_tiles(h))) for h in DECLARE_HANDS]  # the server's spelling
    seen_views = 0
    for f in frames:
        assert f["type"] not in ("refused", "hint", "auto")
        if f.get("view") and f["view"]["phase"] != "ended":
            text = json.dumps(f, ensure_ascii=False)
            assert not any(h in text for h in dealt)  # no dealt hand while the hand is played
        for e in f.get("events", []):
            assert not (e["type"] == "deal" and ("hand" in e or "hands" in e))
            assert not (e["type"] == "draw" and "tile" in e)
        if "view" in f:
            v = f["view"]
            assert v["seat"] is None and f["clock"] is None
            assert not {"hand", "drawn", "legal", "declare_waits", "ready_waits"} & set(v)
            for entry in v["seats"]:
                if v["phase"] != "ended" and not entry["declared"]:
                    assert "revealed" not in entry  # a hand shown only by 亮倒 or the end
            seen_views += 1
    assert seen_views >= 5


def test_countdown_and_ready_between_hands(server, desktop):
    """After a hand the settlement counts down to the next one (the server's hand_pause, 60 s
    here) and marks who is ready: the two bots at once, the player once 准备 is pressed — then
    the next hand is dealt at once."""
    page, _ = desktop
    room = declare_room(server, hands=2)
    seat_page(page, server, room["code"], room["seat"], room["token"])
    play_until_settlement(page, hand=0)
    line = page.locator("#modal .settlement-between .countdown")
    line.wait_for()
    first = int(line.get_attribute("data-seconds"))
    assert 50 <= first <= 60
    marks = page.locator("#modal .settlement-between .ready-marks li")
    assert [marks.nth(i).get_attribute("class") for i in range(3)] == ["off", "on", "on"]
    assert "未准备" in marks.nth(0).inner_text() and "已准备" in marks.nth(1).inner_text()
    page.wait_for_function("(first) => Number(document.querySelector("
                           "'#modal .settlement-between .countdown').dataset.seconds) < first",
                           arg=first, timeout=5000)
    shot(page, "settlement-countdown")
    # the toasts a lost pung brings (my pung refused after another seat's win, a stale claim),
    # told as game.js tells them: at the foot of the window, none over the countdown and 准备
    page.evaluate("() => { const g = window.__kwx.game;"
                  " g.onRefused({refused: {code: 'out_of_turn', reason: 'another seat won on that tile'}});"
                  " g.onRefused({refused: {code: 'stale'}}); }")
    page.wait_for_selector(".toast.error >> nth=1")
    bar = page.locator("#modal .ready-row").bounding_box()
    for toast in page.locator(".toast").all():
        box = toast.bounding_box()
        assert box["y"] >= bar["y"] + bar["height"] or box["y"] + box["height"] <= bar["y"], (box, bar)
    page.evaluate("() => document.getElementById('toasts').replaceChildren()")
    button = page.locator("#modal button.next-hand")
    assert button.inner_text() == "准备"
    started = time.monotonic()
    button.click()
    page.wait_for_function("() => window.__kwx.game.hand === 1", timeout=10000)
    assert time.monotonic() - started < 5  # dealt when everyone was ready, not after 60 s
    assert state(page)["hand"] == 1


# --- a dropped friend: 托管 by itself after the grace (issue 12 item 3) -------------------------

# 甲 (the dealer) draws 9s, which nobody can claim (one 9s in each other hand, nobody ready), so
# the turn after 甲's discard is 乙's: 乙's seat draws 4p and must discard.
GRACE_WALL = build_wall(["1p 2p 4p 7p 9p 1s 3s 6s 8s 5z 6z 7z 2s",
                         "1p 3p 5p 6p 8p 2s 4s 5s 7s 9s 5z 6z 7z",
                         "2p 3p 4p 6p 8p 9p 1s 3s 5s 7s 8s 9s 5z"], "9s 4p")


def test_a_dropped_friend_is_played_by_toguan_within_the_grace(browser, tmp_path):
    """乙's browser closes: 甲 sees 离线 at once, and once the server's grace (``drop_grace``,
    here 1.5 s) is over, 托管 — without anybody's click — and 乙's turn is played by the bot:
    甲 discards, 乙's seat draws and discards. The wall is given: with a
    random one, seat 2 could pung 甲's discard and pass the turn back to 甲 before 乙's."""
    with WebServerThread(web_config(f"sqlite+aiosqlite:///{tmp_path / 'grace.db'}",
                                    drop_grace=1.5)) as srv:
        status, room = http("POST", f"{srv.url}/api/rooms", {
            "seats": ["human", "human", "heuristic:1"], "nickname": "甲", "hands": 1,
            "options": {"first_dealer": "seat0"}, "walls": [GRACE_WALL]})
        assert status == 201, room
        _, other = http("POST", f"{srv.url}/api/rooms/{room['code']}/join", {"nickname": "乙"})
        assert (room["seat"], other["seat"]) == (0, 1)
        contexts = [browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
                    for _ in range(2)]
        a, b = (c.new_page() for c in contexts)
        watch = Watch(a)
        try:
            seat_page(a, srv, room["code"], 0, room["token"], "甲")
            seat_page(b, srv, room["code"], 1, other["token"], "乙")
            friend = a.locator('.seat.opp[data-seat="1"] .head')
            friend.locator(".dot.on").wait_for()
            a.wait_for_selector(".hand .tile.can")  # 甲 deals: 甲's turn
            contexts[1].close()  # 乙's browser closes
            friend.locator(".badge.offline").wait_for(timeout=5000)
            dropped = time.monotonic()
            friend.locator(".badge.bot").wait_for(timeout=8000)  # 托管 after the grace, no click
            took = time.monotonic() - dropped
            assert friend.locator(".badge.bot").inner_text() == "托管"
            assert took < 8.0
            seat1 = a.evaluate("() => window.__kwx.game.view.seats[1].discards.length")
            assert seat1 == 0
            assert a.evaluate("() => window.__kwx.game.view.drawn") == "9s"
            a.locator('.hand .tile.can[data-drawn="1"]').click()  # 甲 discards 9s
            # 乙's seat draws 4p and discards (seat 2 may claim that tile: then it is in a meld)
            a.wait_for_function("() => window.__kwx.game.view.seats[1].discards.length > 0"
                                " || window.__kwx.game.view.seats[2].melds.length > 0",
                                timeout=15000)
        finally:
            for c in contexts:
                c.close()
    assert not watch.errors, watch.errors


# --- the language switch on every page ------------------------------------------------------------

def test_the_language_switch_redraws_every_page(server, desktop):
    """Issue 12 item 6: the lobby, the replays list, the leaderboard, the sign-in page, a
    player's profile and a spectator's table are drawn again in English, and back in Chinese
    (the table, the replay page and the rules page: test_web_browser, test_web_table)."""
    static = Path(__file__).resolve().parents[1] / "src" / "kawuxing" / "web" / "static" / "js"

    def strings(lang):
        text = (static / "i18n" / f"{lang}.js").read_text("utf-8")
        return dict(re.findall(r"^  (\w+): '((?:[^'\\]|\\.)*)',?$", text, re.M))

    zh, en = strings("zh"), strings("en")
    page, _ = desktop
    status, player = http("POST", f"{server.url}/api/players", {"name": "语言测试"})
    assert status in (200, 201), player
    room = declare_room(server, hands=1, seats=("human", "heuristic:1", "heuristic:1"))
    pages = [("#/", ".lobby .create-card h2", "create_title"),
             ("#/replays", "#app h2", None),
             ("#/leaderboard", "#app h2", "leaderboard"),
             ("#/login", "#app h2", "sign_in"),
             (f"#/player/{player['player_id']}", "#app", None),
             (f"#/watch/{room['code']}", "#app", None)]
    for where, selector, key in pages:
        page.goto(f"{server.url}/{where}")
        page.wait_for_selector(selector)
        page.wait_for_timeout(400)  # drawn from the server's answer
        assert page.evaluate("() => document.documentElement.lang") == "zh-CN", where
        before = page.locator("#app").inner_text()
        if key:
            assert page.locator(selector).first.inner_text() == zh[key], where
        page.click("#btn-lang")
        page.wait_for_function("() => document.documentElement.lang === 'en'")
        page.wait_for_timeout(400)
        after = page.locator("#app").inner_text()
        if key:
            assert page.locator(selector).first.inner_text() == en[key], where
        assert after != before, where
        # nothing of the page's own Chinese words stays (names and 麻将 terms may)
        left = [w for k, w in zh.items() if len(w) >= 4 and w in after and w != en[k]]
        assert not left, (where, left[:5])
        page.click("#btn-lang")  # back to Chinese for the next page
        page.wait_for_function("() => document.documentElement.lang === 'zh-CN'")


def test_an_external_seat_shows_its_link_like_a_player(server, desktop):
    """An outside bot program's seat (kind ``external``, docs/bot-protocol.md) has a link of its
    own: its dot says whether the program is connected (it showed none, as for a bot)."""
    page, _ = desktop
    status, room = http("POST", f"{server.url}/api/rooms", {
        "seats": ["human", "external", "heuristic:1"], "nickname": "小明", "hands": 1})
    assert status == 201, room
    assert [e["seat"] for e in room["external"]] == [1]
    page.goto(server.url + "/")
    page.evaluate("([c, s, t]) => localStorage.setItem('kwx.seats', JSON.stringify("
                  "{[c]: {seat: s, token: t, nick: '小明', at: Date.now()}}))",
                  [room["code"], room["seat"], room["token"]])
    page.goto(f"{server.url}/#/room/{room['code']}")
    dot = page.locator('.seat-list li[data-seat="1"] .dot, .seat.opp[data-seat="1"] .head .dot')
    dot.first.wait_for()
    # the program has not connected yet: its seat says joining (for drop_grace, then offline)
    assert dot.first.get_attribute("class").split() == ["dot", "wait"]
    assert page.locator('.seat-list li[data-seat="2"] .dot, .seat.opp[data-seat="2"] .head .dot').count() == 0


@pytest.mark.parametrize("size", [(390, 844), (844, 390), (1366, 768)])
def test_a_spectator_reaches_the_rooms_rules_page(server, browser, size):
    """Issue 35 (B): a spectator's top bar offers the room's own rules page (its preset, here
    孝感), on a phone through the ⋯ menu; the top nav's 玩法 goes to that preset's page; no ⋯
    menu is ever drawn without buttons."""
    status, room = http("POST", f"{server.url}/api/rooms", {
        "seats": ["human", "heuristic:1", "heuristic:1"], "preset": "xiaogan",
        "nickname": "小明", "hands": 1})
    assert status == 201, room
    width, height = size
    phone = width < 1000
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="zh-CN",
                              has_touch=phone, is_mobile=phone)
    page = ctx.new_page()
    watch = Watch(page)
    try:
        page.goto(f"{server.url}/#/watch/{room['code']}")
        page.wait_for_selector("#room-bar .rules-btn", state="attached")
        assert page.get_attribute("#nav-rules", "href") == "#/rules/xiaogan"
        if phone:
            more = page.locator("#room-bar .bar-more")
            assert more.is_visible()
            more.click()
        page.click("#room-bar .rules-btn")
        page.wait_for_selector("#modal .rules-page .rules-preset")
        assert "孝感" in page.locator("#modal .rules-preset").inner_text()
        page.wait_for_selector("#modal .rules-patterns")  # scored under the room's rules
        shot(page, f"watch-rules-{width}x{height}")
        # a room bar without buttons has no ⋯ menu (it was an empty 15 × 15 box)
        empty = page.evaluate("""async () => {
            const ui = await import('/static/js/ui.js');
            ui.setRoomBar({code: 'ABCDEF', buttons: []});
            return document.querySelectorAll('#room-bar .bar-more, #room-bar .bar-actions').length;
        }""")
        assert empty == 0
        assert not watch.errors, watch.errors
    finally:
        ctx.close()


def test_the_phone_menu_stays_open_while_the_table_updates(browser, tmp_path):
    """Review 35b (1): on a phone (390 × 844, touch, zh) the top bar's ⋯ menu holds every
    room control; while the table updates (my seat under 托管, bots playing; a spectator of
    that room) it stays open until the user picks an item — its 规则 works on the first tap —
    or taps elsewhere. The bots wait 0.5 s, so that the hand goes on through the test."""
    db = tmp_path / "menu.db"
    with WebServerThread(web_config(f"sqlite+aiosqlite:///{db}", bot_delay=0.5)) as srv:
        status, room = http("POST", f"{srv.url}/api/rooms", {
            "seats": ["human", "heuristic:1", "heuristic:1"], "nickname": "小明", "hands": 1})
        assert status == 201, room
        contexts = [browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN",
                                        has_touch=True, is_mobile=True) for _ in range(2)]
        player, spectator = pages = [c.new_page() for c in contexts]
        watches = [Watch(p) for p in pages]
        frames = [frames_of(p) for p in pages]
        try:
            seat_page(player, srv, room["code"], room["seat"], room["token"])
            player.locator("#room-bar .bar-more").tap()
            player.locator("#room-bar .bar-btn.auto").tap()  # 托管 on: the bots play my seat
            player.wait_for_selector(".auto-banner")
            assert not player.locator("#room-bar .bar-actions").is_visible()  # picked: closed
            spectator.goto(f"{srv.url}/#/watch/{room['code']}")
            spectator.wait_for_selector(".watch-table .board")
            for page, got in zip(pages, frames):
                before = len(got)
                page.locator("#room-bar .bar-more").tap()
                started = time.monotonic()
                while time.monotonic() - started < 3.0:
                    assert page.locator("#room-bar .bar-actions").is_visible(), \
                        f"the menu closed after {time.monotonic() - started:.2f} s"
                    assert page.get_attribute("#room-bar .bar-more", "aria-expanded") == "true"
                    page.wait_for_timeout(100)
                assert len(got) - before >= 3, "no updates arrived while the menu was open"
                page.locator("#room-bar .rules-btn").tap()  # the first tap opens the rules
                page.wait_for_selector("#modal .rules-page", timeout=2000)
                assert not page.locator("#room-bar .bar-actions").is_visible()
                page.locator("#modal .close-x").tap()
                # a tap elsewhere closes the menu
                page.locator("#room-bar .bar-more").tap()
                assert page.locator("#room-bar .bar-actions").is_visible()
                page.locator(".compass").tap()
                page.wait_for_selector("#room-bar .bar-actions", state="hidden", timeout=2000)
                assert page.get_attribute("#room-bar .bar-more", "aria-expanded") == "false"
            player.locator("#room-bar .bar-more").tap()
            shot(player, "menu-open-toguan-zh-390x844")
            for w in watches:
                assert not w.errors, w.errors
        finally:
            for c in contexts:
                c.close()
