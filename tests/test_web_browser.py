"""The browser table in a real browser (Playwright driving the system's Chromium) against the
real server on 127.0.0.1 (uvicorn in a thread, a temporary SQLite database), the client
mounted with kawuxing.web.mount_web.

- the lobby: create a room with two bots, play a hand to its settlement by clicking, and check
  the settlement shows the patterns, multipliers and transfers the engine reported (from the
  stored record), then the end of the match with its chart;
- a dealt hand (test wall) where a bot declares 亮倒: its hand and waits on the table, the 亮倒
  panel of the player, a win by keyboard, the settlement (清一色 ×4, 卡五星 ×2), the language
  switch, the next hand, a reload mid-hand that resumes the table, a dropped connection that
  comes back by itself, a refused action explained;
- a phone-sized screen with touch: nothing wider than the screen, tap to raise then tap to
  discard, 亮倒 from the panel, the settlement;
- replays: the list, stepping forward and back, every hand face up or one seat's view; the
  page draws the engine's frames (GET /api/hands/{match}/{n}/frames) step by step.

Screenshots go to artifacts/; with KAWUXING_UPDATE_DOCS=1 one of each is copied to docs/. Skipped when Playwright or
/usr/bin/chromium is missing.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from kawuxing.engine.views import seat_view, table_view
from kawuxing.records import replay
from kawuxing.server.testing import auto_played_match, build_wall, http, stored_record
from kawuxing.tiles import parse_tiles, tile_str
from web_harness import (ARTIFACTS, DECLARE_WALL, Watch, WebServerThread, declare_room,
                         page_player, play_until_settlement, seat_page, shot, state, web_config)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("webdb") / "web.db"
    with WebServerThread(web_config(f"sqlite+aiosqlite:///{db}")) as srv:
        yield srv


def settlement_on_page(page) -> dict:
    return page.evaluate("""() => {
        const box = document.querySelector('#modal .settlement');
        const winners = {};
        box.querySelectorAll('.winner').forEach((w) => {
            winners[w.dataset.seat] = {
                patterns: [...w.querySelectorAll('tr.pattern')].map((r) => [r.dataset.name, Number(r.dataset.multiplier)]),
                multiplier: w.querySelector('.wmult').textContent,
            };
        });
        const transfers = [...box.querySelectorAll('tr.transfer')].map((r) =>
            [Number(r.dataset.payer), Number(r.dataset.payee), Number(r.dataset.amount)]);
        const kinds = [...box.querySelectorAll('tr.transfer')].map((r) => r.dataset.kind);
        const reasons = [...box.querySelectorAll('tr.transfer td.reason > span:first-child')].map((s) => s.textContent);
        const deltas = [...box.querySelectorAll('table.scores tr.deltas td')].map((td) => td.textContent);
        return {result: box.dataset.result, winners, transfers, kinds, reasons, deltas, text: box.innerText};
    }""")


def check_settlement_matches_record(page, result: dict) -> None:
    shown = settlement_on_page(page)
    assert shown["result"] == result["result"]
    assert set(shown["winners"]) == {str(w) for w in result["winners"]}
    for w, value in result["values"].items():
        want = [[p["name"], p["multiplier"]] for p in value["patterns"]]  # 屁胡 is a row (R9.1)
        assert want and shown["winners"][w]["patterns"] == want
        assert shown["winners"][w]["multiplier"] == f"×{value['multiplier']}"
    assert Counter(map(tuple, shown["transfers"])) == Counter(
        (t["payer"], t["payee"], t["amount"]) for t in result["transfers"])
    # each transfer is told by its kind (i18n.js transfer_<kind>), never as a missing key
    assert shown["kinds"] == [t["kind"] for t in result["transfers"]]
    assert all(r and "transfer_" not in r and "undefined" not in r and "{" not in r
               for r in shown["reasons"]), shown["reasons"]
    assert shown["deltas"] == [("+" if d > 0 else "") + str(d) for d in result["deltas"]]


def match_of(server, code: str) -> str:
    status, info = http("GET", f"{server.url}/api/rooms/{code}")
    assert status == 200
    return info["match_id"]


# --- the lobby, a hand played by clicking, the end of the match ------------------------------

def test_lobby_create_room_play_a_hand_by_clicking(server, desktop):
    page, _ = desktop
    page.goto(server.url + "/")
    page.wait_for_selector(".lobby .create-form")
    assert page.locator("h1").inner_text() == "卡五星"
    # the form is built from GET /api/rules and /api/bots: every served option a room form
    # offers is a select with the served values, every bot choice a seat choice
    _, schema = http("GET", f"{server.url}/api/rules")
    _, bots = http("GET", f"{server.url}/api/bots")
    options = [o for o in schema["options"] if o["offered"] and o["name"] != "hands_per_match"]
    for option in options:
        values = page.eval_on_selector_all(f"select[name=opt_{option['name']}] option",
                                           "(os) => os.map((o) => o.value)")
        assert values == [""] + [json.dumps(o["value"], separators=(",", ":"))
                                 for o in option["offered"]], option["name"]
    assert page.eval_on_selector_all("select[name=seat1] option", "(os) => os.map((o) => o.value)") \
        == [c["spec"] for c in bots["choices"]] + ["human"]
    assert page.locator("select[name=seat1]").input_value() == bots["suggested"]
    assert page.eval_on_selector_all("select[name=preset] option",
                                     "(os) => os.map((o) => o.value)") == list(schema["presets"])
    assert page.locator("select[name=opt_cap] option").nth(1).text_content() == "不封顶"
    shot(page, "lobby")  # the first screen, as seen: 创建并入座 in sight
    page.select_option("select[name=preset]", "capped")
    assert "×16" in page.locator(".preset-help").inner_text()
    page.select_option("select[name=preset]", "app")
    # creating without a nickname is refused with a message
    page.click(".create-btn")
    page.wait_for_selector(".toast.warn")
    page.fill("input[name=nickname]", "阿明")
    page.select_option("select[name=hands]", "1")
    page.select_option("select[name=seat1]", "heuristic:3")
    page.select_option("select[name=seat2]", "heuristic:2")
    # every option once: the common ones (cap, base, 漂, 买马) shown, the rest in collapsed
    # groups by rule chapter inside 更多规则选项
    assert page.locator(".create-form .field.opt").count() == len(options)
    assert [page.locator(".common-opts .field.opt").nth(i).get_attribute("data-option")
            for i in range(4)] == schema["common"]
    assert not page.locator("select[name=opt_shu_kan]").is_visible()
    page.locator("details.advanced > summary").click()
    page.locator("details.optgroup[data-group=optgroup_extras] > summary").click()
    assert page.locator("select[name=opt_shu_kan]").is_visible()
    page.select_option("select[name=opt_cap]", "16")
    shot(page, "lobby-options", full_page=True)
    page.click(".create-btn")
    page.wait_for_selector(".board")
    code = page.evaluate("() => window.__kwx.game.code")
    assert page.locator(".room-code strong").inner_text() == code
    status, info = http("GET", f"{server.url}/api/rooms/{code}")
    assert info["rules"]["cap"] == 16 and info["hands_per_match"] == 1
    assert info["preset"] == "app" and info["rules"]["piao_choices"] == [0, 1, 2, 5]
    # the app preset starts each hand with choosing a 漂 (R11.1)
    page.wait_for_selector(".actions button.act-piao")
    assert page.locator(".actions button.act-piao").count() == 4
    page.locator(".actions button.act-piao").nth(1).click()  # 漂 1
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot"]
    assert [s["bot"] for s in info["seats"]][1:] == ["heuristic:3", "heuristic:2"]
    # the table: three seats, the wall, my hand of 13 or 14
    assert page.locator(".seat.opp").count() == 2 and page.locator(".seat.me").count() == 1
    tiles = page.locator(".hand .tile").count()
    assert tiles in (13, 14)
    s = play_until_settlement(page, pung=True)
    record = stored_record(server, match_of(server, code), 0)
    assert record is not None
    assert s["result"] == record["result"]
    check_settlement_matches_record(page, record["result"])
    # one hand in the match: the end of the match with its chart
    page.wait_for_selector("#modal .match-end svg.chart")
    assert page.locator("#modal .match-end svg.chart polyline").count() == 3
    assert page.locator("#modal .standings li").count() == 3
    shot(page, "match-end", full_page=True)


# --- a 亮倒 bot, keyboard, the settlement, language, next hand, reload, reconnect ----------------

def test_declared_bot_settlement_language_reload_and_reconnect(server, desktop):
    page, _ = desktop
    room = declare_room(server)
    seat_page(page, server, room["code"], room["seat"], room["token"])
    # my first turn: 5z drawn, the hand ready after discarding it, so 亮倒 is offered
    page.wait_for_selector('.hand .tile.drawn[data-code="5z"]')
    page.wait_for_selector(".actions button.act-declare")
    assert page.locator(".hand .tile").count() == 14
    assert page.locator(".compass .wall .n").inner_text() == "44"  # 84 - 3×13 - 1
    page.keyboard.press("l")
    panel = page.locator(".declare-panel")
    panel.wait_for()
    option = panel.locator('.option[data-tile="5z"]')
    assert sorted(option.locator(".waits .tile").evaluate_all(
        "els => els.map((e) => e.dataset.code)")) == ["5p", "6p", "9p"]
    # with the copies unseen from this seat (view.unseen): 5p none held, one 6p and one 9p held
    codes = option.locator(".waits .tile").evaluate_all("els => els.map((e) => e.dataset.code)")
    lefts = option.locator(".waits .left").all_inner_texts()
    assert dict(zip(codes, lefts)) == {"5p": "×4", "6p": "×3", "9p": "×3"}
    # the panel offers exactly the server's 亮倒 discards, and only those tiles can be picked
    legal = {a[2] for a in state(page)["legal"] if a[1] == "discard" and "declare" in a}
    offered = set(panel.locator(".option").evaluate_all("els => els.map((e) => e.dataset.tile)"))
    assert offered == legal and "5z" in legal
    can = page.locator(".hand .tile.can").evaluate_all("els => els.map((e) => e.dataset.code)")
    assert set(can) == legal
    page.mouse.move(0, 0)
    shot(page, "declare-panel")
    page.keyboard.press("Escape")
    assert page.locator(".declare-panel").count() == 0
    # keyboard: select the last tile (the drawn 5z) with the arrows, discard with Enter
    page.keyboard.press("ArrowLeft")
    assert page.locator('.hand .tile.selected[data-code="5z"]').count() == 1
    page.keyboard.press("Enter")
    # seat 1 declares: its hand face up and its waits on the table
    declared = page.locator('.seat.opp[data-seat="1"].is-declared')
    declared.wait_for()
    waits = declared.locator(".waits .tile").evaluate_all("els => els.map((e) => e.dataset.code)")
    assert waits == ["6p", "9p"]
    assert declared.locator(".revealed .tile:not(.back)").count() == 13
    assert declared.locator(".head .badge.declared").count() == 1
    # my turn again (9s), then the win on 5p: take the table screenshot before winning
    page.wait_for_selector('.hand .tile.drawn.can[data-code="9s"]')
    page.click('.hand .tile.drawn[data-code="9s"]')
    page.wait_for_selector(".actions button.act-win")
    assert page.locator(".actions button.act-win").inner_text().startswith("自摸")
    page.wait_for_timeout(1700)  # let the callouts fade
    shot(page, "table-declared")  # the README's table pictures: test_web_table.py
    page.keyboard.press("h")
    # the win banner over the table (issue 35): 自摸, the winner, the patterns of the result
    banner = page.wait_for_selector(".board .win-banner")
    assert banner.query_selector(".big").inner_text() == "自摸"
    assert [w.inner_text().split("\n") for w in banner.query_selector_all(".who")] == [
        ["小明", "清一色 · 卡五星", "×8"]]
    assert page.locator("#modal .settlement").count() == 0  # the win stays on the table first
    shot(page, "win-banner", "screenshot-win.png")
    page.wait_for_selector("#modal .settlement")
    record = stored_record(server, match_of(server, room["code"]), 0)
    result = record["result"]
    assert result["winners"] == [0]
    assert [(p["name"], p["multiplier"]) for p in result["values"]["0"]["patterns"]] == [
        ("清一色", 4), ("卡五星", 2)]
    check_settlement_matches_record(page, result)
    shown = settlement_on_page(page)
    assert "清一色" in shown["text"] and "卡五星" in shown["text"] and "付款明细" in shown["text"]
    assert sorted(shown["transfers"]) == [[1, 0, 8], [2, 0, 8]]
    assert shown["kinds"] == ["hand_value", "hand_value"]  # R7.2: each other player pays ×8
    assert shown["reasons"] == ["胡牌 清一色+卡五星 ×8"] * 2
    assert page.locator('#modal .settlement tr.pattern[data-name="清一色"]').get_attribute(
        "title").startswith("清一色 — full flush")
    shot(page, "settlement", "screenshot-settlement.png", full_page=True)
    # English, and back
    page.click("#btn-lang")
    page.wait_for_selector("#modal .settlement >> text=Payments")
    text = page.locator("#modal .settlement").inner_text()
    assert "full flush" in text and "closed wait on the five" in text and "self-draw" in text
    assert settlement_on_page(page)["reasons"] == ["hand value 清一色+卡五星 ×8"] * 2
    shot(page, "settlement-en", full_page=True)
    page.click("#btn-lang")
    page.wait_for_selector("#modal .settlement >> text=付款明细")
    # the next hand
    page.click("#modal button.next-hand")
    page.wait_for_function("() => window.__kwx.game.hand === 1 && window.__kwx.game.view.legal.length >= 0")
    page.wait_for_selector("#modal", state="hidden")
    assert "2/2" in page.locator(".room-bar .hand-no").inner_text()
    # play a few turns, then reload in the middle of the hand
    for _ in range(3):
        page.wait_for_function("() => { const g = window.__kwx.game; return g.view.phase === 'ended'"
                               " || (g.view.legal.some((a) => a[1] !== 'pass') && !g.ui.busy); }",
                               timeout=30000)
        s = state(page)
        if s["phase"] == "ended":  # a bot may win first (the loaded machine lets no timing count)
            break
        verbs = {a[1] for a in s["legal"]}
        if "pass" in verbs:
            page.click(".actions button.act-pass")
        elif "win" in verbs:
            break
        else:
            page.locator(".hand .tile.can").first.click()
        page.wait_for_function("() => window.__kwx.game.ui.busy === false")
    before = page.evaluate("() => { const g = window.__kwx.game; return {hand: g.hand, mine: g.view.seats[0].discards, wall: g.view.wall}; }")
    page.reload()
    page.wait_for_selector(".board")
    page.wait_for_function("() => window.__kwx.game && window.__kwx.game.view")
    after = page.evaluate("() => { const g = window.__kwx.game; return {hand: g.hand, mine: g.view.seats[0].discards, wall: g.view.wall}; }")
    assert after["hand"] == before["hand"] == 1
    assert after["mine"][:len(before["mine"])] == before["mine"]
    assert after["wall"] <= before["wall"]
    assert page.locator(".river[data-seat='0'] .tile").count() == len(after["mine"])
    # the connection drops: it comes back by itself and resumes
    page.evaluate("() => window.__kwx.game.conn.drop()")
    page.wait_for_selector("#conn-status[data-status='waiting']")
    page.wait_for_selector(".seat.me .head .dot.off", state="attached")  # my own dot says so
    page.wait_for_selector("#conn-status[data-status='open']", timeout=10000)
    page.wait_for_selector(".seat.me .head .dot.on", state="attached")
    # a refused action is explained (an old version: stale)
    page.evaluate("() => window.__kwx.game.conn.send({type: 'action', id: 'test-stale', version: 0, action: [0, 'pass']})")
    page.wait_for_selector(".toast.error >> text=操作未执行")
    # in the page's words only (issue 35 bug 2): a refusal, or a message the server turned
    # down (malformed, unknown type), never the server's English
    page.evaluate("() => { const c = window.__kwx.game.conn;"
                  " c.send({type: 'action', id: 'test-bad', version: 'x', action: [0, 'pass']});"
                  " c.send({type: 'no_such_type'}); }")
    page.wait_for_selector(".toast >> text=格式不对")
    page.wait_for_selector(".toast >> text=不认识这条消息")
    texts = page.locator(".toast").all_inner_texts()
    assert "操作未执行: 牌局已变化，已刷新" in texts, texts
    assert not [text for text in texts if re.search(r"[A-Za-z]{3,}", text)], texts
    # finish the match: the chart of the two hands
    play_until_settlement(page, hand=1)
    page.wait_for_selector("#modal .match-end svg.chart")
    assert page.locator("#modal .match-end svg.chart circle").count() == 6  # 3 seats × 2 hands


# --- the hint (提示): the expert's ranking of the player's own choices -----------------------

def test_hint_button_shows_the_ranked_choices_beside_the_action_keys(server, desktop):
    page, _ = desktop
    room = declare_room(server, hands=1)
    seat_page(page, server, room["code"], room["seat"], room["token"])
    page.wait_for_selector('.hand .tile.drawn[data-code="5z"]')  # 9 kinds to discard, 亮倒 too
    button = page.locator(".actions button.act-hint")
    assert button.get_attribute("aria-label") == "提示：高手机器人怎么排你现在的选择"
    button.click()
    lines = page.locator(".hint-panel .hint-choice")
    lines.first.wait_for()
    assert lines.count() == 3  # the best three of the legal actions
    assert page.locator(".hint-panel .of").inner_text() == f"前 3 种，共 {len(state(page)['legal'])} 种选择"
    evs = lines.locator(".ev").all_inner_texts()
    assert all(re.fullmatch(r"[+-]\d+\.\d\d 底分", v) for v in evs), evs
    # ready on 5p 6p 9p whichever way 白 goes: 亮倒 first, then the plain discard (brain.py)
    assert lines.nth(0).locator(".words").inner_text() == "亮倒 · 打白"
    assert lines.nth(1).locator(".words").inner_text() == "打白"
    assert lines.nth(1).locator(".reasons").inner_text().startswith("听 五筒 剩")
    # beside the action keys, not over them
    panel = page.locator(".hint-panel").bounding_box()
    for key in page.locator(".actions button").all():
        box = key.bounding_box()
        assert (box["x"] + box["width"] <= panel["x"] or box["y"] + box["height"] <= panel["y"]
                or box["y"] >= panel["y"] + panel["height"]), (box, panel)
    shot(page, "hint-desktop")
    for tile in page.locator(".hand .tile").all():  # nor over my tiles at 1280 px (the drawn one)
        box = tile.bounding_box()
        assert box["x"] + box["width"] <= panel["x"] + 1, (box, panel)
    page.keyboard.press("Escape")
    page.wait_for_selector(".hint-panel", state="detached")
    page.keyboard.press("t")  # the key asks again
    lines.first.wait_for()
    lines.nth(1).locator("button.what").click()  # a plain discard: its tile is raised
    page.wait_for_selector('.hand .tile.selected[data-code="5z"]')
    page.keyboard.press("Enter")  # and discarded: a new view closes the hint
    page.wait_for_function("() => window.__kwx.game.view.seats[0].discards.length === 1")
    assert page.locator(".hint-panel").count() == 0


# --- a phone -------------------------------------------------------------------------------

def test_phone_layout_tap_to_discard_and_declare(server, browser):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True, device_scale_factor=2, locale="zh-CN")
    page = ctx.new_page()
    page.set_default_timeout(15000)
    watch = Watch(page)
    try:
        page.goto(server.url + "/")
        page.wait_for_selector(".lobby")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        shot(page, "phone-lobby", full_page=True)
        room = declare_room(server, hands=1)
        seat_page(page, server, room["code"], room["seat"], room["token"])
        page.wait_for_selector('.hand .tile.drawn[data-code="5z"]')
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        boxes = page.locator(".hand .tile").evaluate_all(
            "els => els.map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.right, r.width])")
        assert len(boxes) == 14 and min(b[0] for b in boxes) >= 0 and max(b[1] for b in boxes) <= 390
        assert min(b[2] for b in boxes) >= 20  # legible, tappable
        # the menu of the top bar folds away
        assert not page.locator(".bar-actions").is_visible()
        page.tap(".bar-more")
        assert page.locator(".bar-actions .auto").is_visible()
        page.tap(".bar-more")
        # 亮倒 from the panel: tap 亮倒, then the 5z option
        page.tap(".actions button.act-declare")
        page.tap('.declare-panel .option[data-tile="5z"] button.pick')
        page.wait_for_selector('.seat.me .badge.declared')
        # after 亮倒 the drawn tile must be discarded: one tap raises it, a second discards
        page.wait_for_selector('.hand .tile.drawn.can[data-code="9s"]')
        tile = page.locator('.hand .tile.drawn[data-code="9s"]')
        assert page.locator(".hand .tile.can").count() == 1
        tile.tap()
        page.wait_for_selector('.hand .tile.selected[data-code="9s"]')
        assert page.evaluate("() => window.__kwx.game.view.seats[0].discards") == ["5z"]
        tile.tap()
        page.wait_for_function("() => window.__kwx.game.view.seats[0].discards.length === 2")
        page.wait_for_selector(".actions button.act-win")
        page.wait_for_selector('.seat.opp[data-seat="1"].is-declared')
        page.wait_for_timeout(1700)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        shot(page, "phone-table")
        page.tap(".actions button.act-win")
        page.wait_for_selector("#modal .settlement")
        shown = settlement_on_page(page)
        names = [p[0] for p in shown["winners"]["0"]["patterns"]]
        assert names == ["清一色", "亮倒", "卡五星"]
        assert shown["winners"]["0"]["multiplier"] == "×16"
        assert sorted(shown["transfers"]) == [[1, 0, 16], [2, 0, 16]]
        assert shown["reasons"] == ["胡牌 清一色+亮倒+卡五星 ×16"] * 2
        page.wait_for_selector("#modal .match-end svg.chart")
        assert page.evaluate("() => document.querySelector('#modal .panel').getBoundingClientRect().right") <= 390
        shot(page, "phone-settlement", full_page=True)
    finally:
        ctx.close()
    assert not watch.errors, watch.errors


# --- replays ---------------------------------------------------------------------------------

def test_replays_list_and_step_through(server, desktop):
    page, _ = desktop
    # a finished hand of the page's player, 托管 playing its seat (it plays at once): the
    # player sees it in "my games" and may see every perspective (R13, issue 16)
    token = page_player(page, server, "回放者")
    made = auto_played_match(server, {
        "seats": ["human", "heuristic:2", "heuristic:1"], "hands": 1,
        "options": {"first_dealer": "seat0"}, "walls": [DECLARE_WALL]}, token)
    match_id = made["room"]["match_id"]
    status, record = http("GET", f"{server.url}/api/hands/{match_id}/0", None, token)
    assert status == 200
    page.goto(server.url + "/#/replays")
    page.wait_for_selector(f'.my-games tr.replay-row[data-match="{match_id}"]')
    page.click(f'.my-games tr.replay-row[data-match="{match_id}"] a')
    page.wait_for_selector(".replay .board")
    steps = len(record["actions"])
    assert page.locator(".replay-controls .counter").inner_text() == f"0/{steps}"
    assert page.locator(".caption").inner_text() in ("发牌", "the deal")
    # all hands face up at the start: the dealer's 14, the others' 13
    assert page.locator(".hand .tile").count() == 14
    assert page.locator(".seat.opp .revealed .tile").count() == 26
    # a replay has no "you": whose turn it is, by name (issue 12)
    turn = page.locator(".compass .who").inner_text()
    assert "你" not in turn and turn.endswith("出牌"), turn
    page.click(".replay-controls .next")
    page.keyboard.press("ArrowRight")
    assert page.locator(".replay-controls .counter").inner_text() == f"2/{steps}"
    page.keyboard.press("ArrowLeft")
    assert page.locator(".replay-controls .counter").inner_text() == f"1/{steps}"
    # a language switch builds the whole page anew in English, at the same step (issue 12)
    zh_all = page.locator(".perspective option[value=all]").inner_text()
    page.click("#btn-lang")
    page.wait_for_function("(t) => document.querySelector('.perspective option[value=all]')"
                           " && document.querySelector('.perspective option[value=all]')"
                           ".textContent !== t", arg=zh_all)
    assert page.locator(".replay-controls .counter").inner_text() == f"1/{steps}"
    assert page.locator(".caption").inner_text() != "" and "你" not in page.locator(
        ".compass .who").inner_text()
    page.click("#btn-lang")  # back to Chinese for the rest
    page.wait_for_function("(t) => document.querySelector('.perspective option[value=all]')"
                           "?.textContent === t", arg=zh_all)
    assert page.locator(".replay-controls .counter").inner_text() == f"1/{steps}"
    # as seat 1 at the deal: the others' hands are hidden (until a 亮倒 shows one)
    page.keyboard.press("Home")
    page.select_option(".perspective", "1")
    page.wait_for_function("() => window.__kwxReplay.state.bottom === '1'")  # its frames came
    assert page.locator(".seat.opp .revealed").count() == 0
    assert page.locator(".seat.opp .backs .tile").count() == 27  # the dealer's 14 and 13
    assert page.locator(".hand .tile").count() == 13
    page.click(".replay-controls .last")
    assert page.locator(".replay-controls .counter").inner_text() == f"{steps}/{steps}"
    page.wait_for_selector(".replay-settle .settlement")
    winners = record["result"]["winners"]
    for w in winners:
        assert page.locator(f'.replay-settle .winner[data-seat="{w}"]').count() == 1
    # the end of the replay shows the record's final scores
    page.select_option(".perspective", "all")
    scores = page.locator(".seat .head .score").all_inner_texts()
    deltas = record["result"]["deltas"]
    assert sorted(scores) == sorted(("+" if d > 0 else "") + str(d) for d in deltas)
    page.click(".replay-controls .first")
    page.click(".replay-controls .next")
    page.click(".replay-controls .next")
    page.wait_for_timeout(200)
    shot(page, "replay", "screenshot-replay.png")


# seat 1 (heuristic:2) is dealt four 8s: it kongs them concealed on its first draw (R6.1)
KONG_WALL = build_wall(["123456789p 123s 5z", "8888s 19p 234s 67p 56z",
                        "11p 99p 77s 66z 77z 4s 6s 9s"])


def test_replay_page_draws_the_engine_frames(server, desktop):
    """The replay page draws the frames the server builds (records.replay_frames: GET
    /api/hands/{match}/{n}/frames), and computes nothing: at every step, for the whole table
    and for a seat, the wall, each river, each hand shown and each meld on the page are those
    of the frame's view; the frames are the engine's replay (records.replay + seat_view)."""
    page, _ = desktop
    token = page_player(page, server, "画者")  # seat 0 is the page's player's, 托管 plays it
    made = auto_played_match(server, {
        "seats": ["human", "heuristic:2", "random"], "hands": 1, "walls": [KONG_WALL],
        "options": {"first_dealer": "seat0", "declare_hide_triplets": True}}, token)
    match_id = made["room"]["match_id"]
    status, record = http("GET", f"{server.url}/api/hands/{match_id}/0", None, token)
    assert status == 200
    frames = {}
    for seat in (None, 2):
        query = "" if seat is None else f"?seat={seat}"
        status, got = http("GET", f"{server.url}/api/hands/{match_id}/0/frames{query}", None,
                           token)
        assert status == 200
        frames[seat] = got["frames"]
        assert len(frames[seat]) == len(record["actions"]) + 1
        for k in (0, len(record["actions"]) // 2, len(record["actions"])):
            hand = replay(record, k)
            want = table_view(hand) if seat is None else seat_view(hand, seat)
            assert frames[seat][k]["view"] == want
    # seat 1 made a concealed kong of 8s (KONG_WALL): seat 2 sees no tile of it until the hand
    # ends, and then its tile (R6.1, R13.1): the page draws what the frame gives
    kongs = [[m["tile"] for m in f["view"]["seats"][1]["melds"] if m["kind"] == "concealed_kong"]
             for f in frames[2]]
    assert [None] in kongs and kongs[-1] == ["8s"]
    assert all(k in ([], [None]) or f["view"]["phase"] == "ended" for f, k in zip(frames[2], kongs))
    page.goto(f"{server.url}/#/replay/{match_id}/0")
    page.wait_for_selector(".replay .board")

    def drawn_on_page():
        return page.evaluate("""() => {
            const codes = (root, sel) => [...root.querySelectorAll(sel)].map((e) => e.dataset.code || null);
            const seats = {};
            for (const box of document.querySelectorAll('.replay .board .seat')) {
                seats[box.dataset.seat] = {
                    hand: codes(box, '.hand .tile, .revealed .tile, .backs .tile'),
                    melds: codes(box, '.melds .tile').filter(Boolean),
                };
            }
            for (const river of document.querySelectorAll('.replay .board .river')) {
                seats[river.dataset.seat].river = codes(river, '.tile');
            }
            return {wall: document.querySelector('.compass .wall .n').textContent, seats};
        }""")

    def expected(view, all_hands):
        out = {}
        for entry in view["seats"]:
            i = entry["seat"]
            shown = entry["revealed"] if all_hands or "revealed" in entry else None
            if i == view["seat"] and not all_hands:
                shown = view["hand"]
            codes = parse_codes(shown) if shown is not None else None
            if all_hands and entry["drawn"]:  # the tile just drawn is drawn apart, last
                codes.remove(entry["drawn"])
                codes.append(entry["drawn"])
            if codes is None:  # face down: backs only
                codes = [None] * entry["concealed_count"]
            elif i != view["seat"] and not all_hands and view["turn"] == i and entry["declared"] \
                    and view["phase"] == "turn":
                codes = codes + [None]  # a declared player's tile just drawn: a back
            if not all_hands and i != view["seat"] and entry.get("hidden_tiles"):
                codes = codes + [None] * entry["hidden_tiles"]
            faces = {"pung": 3, "concealed_kong": 2}  # a concealed kong: two faces, two backs
            out[str(i)] = {"hand": codes, "river": entry["discards"],
                           "melds": [m["tile"] for m in entry["melds"] if m["tile"]
                                     for _ in range(faces.get(m["kind"], 4))]}
        return out

    def check(step, seat):
        try:
            compare(step, seat)
        except AssertionError:  # an intermittent CI failure: keep what the page drew and why
            ARTIFACTS.mkdir(exist_ok=True)
            board = page.evaluate("() => document.querySelector('.replay .board').outerHTML")
            (ARTIFACTS / "replay-frames-failure.json").write_text(json.dumps(
                {"step": step, "seat": seat, "record": record, "frame": frames[seat][step],
                 "drawn": drawn_on_page(), "board": board}, ensure_ascii=False))
            raise

    def compare(step, seat):
        view = frames[seat][step]["view"]
        if seat is None:  # drawn with seat 0 at the bottom
            view = dict(view, seat=0, hand=view["seats"][0]["revealed"],
                        drawn=view["seats"][0]["drawn"])
        got = drawn_on_page()
        assert got["wall"] == str(view["wall"]), step
        want = expected(view, seat is None)
        for i in range(3):
            have = got["seats"][str(i)]
            if i == view["seat"]:  # own hand: sorted, the tile just drawn apart at the end
                codes = parse_codes(view["hand"])
                if view["drawn"]:
                    codes.remove(view["drawn"])
                    codes.append(view["drawn"])
                assert have["hand"] == codes, (step, i)
            else:
                assert sorted(have["hand"], key=str) == sorted(want[str(i)]["hand"], key=str), (step, i)
            assert have["river"] == want[str(i)]["river"], (step, i)
            assert sorted(have["melds"]) == sorted(want[str(i)]["melds"]), (step, i)

    last = len(record["actions"])
    for step in sorted({0, 1, 2, last // 3, last // 2, 2 * last // 3, last - 1, last}):
        page.evaluate("(k) => window.__kwxReplay.go(k)", step)
        check(step, None)
    page.select_option(".perspective", "2")
    page.wait_for_function("() => window.__kwxReplay.state.bottom === '2'")
    for step in sorted({0, last // 2, last - 1, last}):
        page.evaluate("(k) => window.__kwxReplay.go(k)", step)
        check(step, 2)
    page.wait_for_selector(".replay-settle .settlement")
    # anyone else (no player of this match here): the public perspective only, no record,
    # and no face-up tile but what the public frame shows (亮倒 hands, all at the end: R13)
    page.evaluate("() => localStorage.removeItem('kwx.player')")
    page.reload()  # the same address, built anew without a player
    page.wait_for_selector(".replay-public-note")
    page.wait_for_selector(".replay .board .seat")
    assert page.locator(".replay-fair").count() == 0
    assert page.locator(".perspective option").evaluate_all("(os) => os.map((o) => o.value)") \
        == ["public"]
    status, public = http("GET", f"{server.url}/api/hands/{match_id}/0/frames")
    assert status == 200 and public["perspective"] == "public"
    shown = public["frames"]
    assert len(shown) < last + 1  # the passes that showed nothing have no frame (R13.2)
    for i in sorted({0, 1, len(shown) // 2, len(shown) - 2, len(shown) - 1}):
        page.evaluate("(k) => window.__kwxReplay.go(k)", i)
        assert page.locator(".replay-controls .counter").inner_text() == f"{i}/{len(shown) - 1}"
        faces = page.evaluate("""() => [...document.querySelectorAll(
            '.replay .board .seat .hand .tile, .replay .board .seat .revealed .tile')]
            .map((e) => e.dataset.code).filter(Boolean)""")
        want = [c for entry in shown[i]["view"]["seats"] if "revealed" in entry
                for c in parse_codes(entry["revealed"])]
        assert sorted(faces) == sorted(want), i
        assert page.locator(".compass .wall .n").inner_text() == str(shown[i]["view"]["wall"])


def parse_codes(text: str) -> list[str]:
    """The MPSZ codes of a view's tile string, in order."""
    return [tile_str(k) for k in parse_tiles(text)]


# --- the waiting room: a bot takes the open seat ---------------------------------------------------

def test_waiting_room_fills_an_open_seat_with_the_chosen_bot(server, desktop):
    """Issue 12: a friend who never comes does not hold the table: the open seat's bot is
    chosen from the server's list and the match starts once no seat is open."""
    page, _ = desktop

    def waiting_room(*friends):  # a one-hand room from the lobby, these seats left open
        page.goto(server.url + "/")
        nick = page.locator("input[name=nickname]")
        if nick.is_editable():  # the first time: this browser's player is made (issue 16)
            nick.fill("甲方")  # (a player's name is hers alone)
        for seat in friends:
            page.select_option(f"select[name={seat}]", "human")
        page.select_option("select[name=hands]", "1")
        page.click(".create-btn")

    waiting_room("seat1")
    page.wait_for_selector(".waiting .seat-list li.open select.fill-bot option[value=expert]",
                           state="attached")
    assert page.locator(".waiting .start-now").is_visible()
    page.select_option(".seat-list li.open select.fill-bot", "expert")
    shot(page, "waiting-fill")
    page.click(".seat-list li.open button.fill")
    page.wait_for_selector(".board")
    code = page.evaluate("() => window.__kwx.game.code")
    status, info = http("GET", f"{server.url}/api/rooms/{code}")
    assert info["status"] == "playing"
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot"]
    assert info["seats"][1]["bot"] == "expert"
    # 现在开局 with two open seats: each takes the bot chosen in its own menu
    waiting_room("seat1", "seat2")
    page.wait_for_selector('.seat-list li[data-seat="2"] select.fill-bot option[value=random]',
                           state="attached")
    page.select_option('.seat-list li[data-seat="1"] select.fill-bot', "random")
    page.select_option('.seat-list li[data-seat="2"] select.fill-bot', "heuristic:1")
    page.click(".waiting .start-now")
    page.wait_for_selector(".board")
    code = page.evaluate("() => window.__kwx.game.code")
    _, info = http("GET", f"{server.url}/api/rooms/{code}")
    assert [s.get("bot") for s in info["seats"]][1:] == ["random", "heuristic:1"]


def test_town_preset_room_and_its_rules_page(server, desktop):
    """Issue 18: the towns are presets of their own group; 孝感 (VARIANTS.md Presets) shows its
    description, offers its alternatives first (starred) and names its values as "as preset";
    the room's rules page (waiting room button, then the R key at the table) lists the options
    that differ from standard first, with their values, the standard ones and rule numbers."""
    page, _ = desktop
    page.goto(server.url + "/")
    page.wait_for_selector(".lobby .create-form")
    groups = page.eval_on_selector_all(
        "select[name=preset] optgroup",
        "(gs) => gs.map((g) => [g.label, [...g.querySelectorAll('option')].map((o) => o.value)])")
    assert groups == [["通用", ["standard", "capped", "flat8", "strict", "app", "server_common"]],
                      ["地方玩法", ["xiangyang", "xiaogan", "suizhou", "shiyan", "yicheng",
                                "yingcheng", "yunmeng", "zaoyang"]]]
    assert not page.locator(".town-opts").is_visible()  # standard: no town
    page.select_option("select[name=preset]", "xiaogan")
    assert page.locator(".preset-help").inner_text().startswith("孝感：数坎，查叫，不包胡，见四乘二")
    assert page.locator(".town-opts h3").inner_text() == "孝感也常玩"
    town_rows = page.eval_on_selector_all(".town-opts .field.opt", "(fs) => fs.map((f) => f.dataset.option)")
    assert town_rows == ["liang_dao_doubling", "declare_requires_concealed", "ka_wu_xing_value",
                         "peng_peng_value", "kong_win_value", "cha_jiao_declared_pays",
                         "cha_jiao_doubling"]
    texts = page.eval_on_selector_all("select[name=opt_ka_wu_xing_value] option",
                                      "(os) => os.map((o) => o.textContent)")
    assert texts == ["按预设：×4", "×2 ★", "×4"]  # xiaogan: ×4, ×2 also played there (R9.10)
    assert page.locator("select[name=opt_cap] option").first.text_content() == "按预设：×16"
    page.select_option("select[name=opt_liang_dao_doubling]", '"each"')
    shot(page, "lobby-town", full_page=True)
    page.fill("input[name=nickname]", "阿亮")
    page.select_option("select[name=seat1]", "human")
    page.select_option("select[name=hands]", "1")
    page.click(".create-btn")
    page.wait_for_selector(".waiting .rules-btn")
    code = page.evaluate("() => window.__kwx.game.code")
    _, info = http("GET", f"{server.url}/api/rooms/{code}")
    assert info["preset"] == "xiaogan" and info["rules"]["liang_dao_doubling"] == "each"
    page.click(".waiting .rules-btn")
    page.wait_for_selector("#modal .rules-page")
    assert page.locator(".rules-preset strong").inner_text() == "预设：孝感"
    # server_common's 9 + 孝感's 9 (VARIANTS.md Presets) + the number of hands (1, not 8)
    assert page.locator(".rules-page > h3").first.inner_text() == "与标准规则不同（19 项）"
    diff = page.eval_on_selector_all(
        ".rules-diff tbody tr",
        "(rs) => rs.map((r) => [r.dataset.option, ...[...r.cells].map((c) => c.textContent)])")
    rows = {r[0]: r[1:] for r in diff}
    assert len(diff) == 19 and "robbing_kong" not in rows
    assert rows["shu_kan"] == ["数坎", "数坎", "不数坎", "R15.1"]
    assert rows["ka_wu_xing_value"] == ["卡五星番数", "×4", "×2", "R9.10"]
    assert rows["cap"] == ["封顶", "×16", "不封顶", "R9.5"]
    assert rows["draw_compensation"][1:] == ["查叫（按听牌者最大番赔）", "每个亮倒者赔每个未亮者 1",
                                             "R10.2"]
    # the creator's own change is marked; the preset's values are not
    assert rows["liang_dao_doubling"] == ["亮倒翻倍", "对亮对番（每方亮各 ×2）房主改",
                                          "只算胡牌者亮倒", "R8.8"]
    assert page.locator(".rules-diff tr.room-set").count() == 2  # liang_dao_doubling, hands
    assert [r[0] for r in diff][:3] == ["added_kong_on_declared_wait",
                                        "min_multiplier_counts_discarder_declared",
                                        "declare_hide_triplets"]  # rule order
    shot(page, "rules-page")
    page.keyboard.press("Escape")
    page.wait_for_selector("#modal .rules-page", state="detached")
    page.click(".seat-list li.open button.fill")
    page.wait_for_selector(".board")
    page.keyboard.press("r")  # the rules from the table
    page.wait_for_selector("#modal .rules-page")
    page.locator(".rules-same > summary").click()
    same = page.locator('.rules-same tr[data-option="robbing_kong"] td')
    assert [same.nth(i).inner_text() for i in range(same.count())] == ["抢杠胡", "可以", "R7.4"]


# Seat 0 (the dealer) holds 46p 111s 456s 789s 55z and self-draws 5p at once: 卡五星, ×4 in
# 孝感 (R9.10), 数坎 on (R15.1) with one 坎 (111s); with 买马 on self-draw (R14.1, 独马) the next
# tile, 8s, is the horse, worth 8. Each other seat pays 4 + 8 + 1 = 13 (base 1).
TOWN_WALL = build_wall(["46p 111s 456s 789s 55z", "123p 789p 22s 33s 67s 6z",
                        "1p 2p 3p 7p 8p 9p 2s 3s 6s 7s 8s 7z 7z"], "5p 8s")


def test_town_settlement_words_for_horses_and_kan(server, desktop):
    """Issue 18: the settlement of a 孝感 hand with 买马 tells each town payment by its kind
    and parameters: the hand value ×4, the horse tile and its value, the 坎 count (R14, R15)."""
    page, _ = desktop
    status, room = http("POST", f"{server.url}/api/rooms", {
        "preset": "xiaogan", "options": {"first_dealer": "seat0", "horse_buy": "self_draw"},
        "seats": ["human", "heuristic:1", "heuristic:1"], "walls": [TOWN_WALL],
        "nickname": "小明", "hands": 1})
    assert status == 201, room
    seat_page(page, server, room["code"], room["seat"], room["token"])
    page.wait_for_selector(".actions button.act-win")
    page.keyboard.press("h")
    page.wait_for_selector("#modal .settlement")
    record = stored_record(server, match_of(server, room["code"]), 0)
    check_settlement_matches_record(page, record["result"])
    shown = settlement_on_page(page)
    assert shown["kinds"] == ["hand_value", "horse", "kan"] * 2
    assert shown["transfers"] == [[1, 0, 4], [1, 0, 8], [1, 0, 1], [2, 0, 4], [2, 0, 8], [2, 0, 1]]
    assert shown["reasons"][:3] == ["胡牌 卡五星 ×4", "买马 八条：马值 8", "数坎：1 坎"]
    assert shown["deltas"] == ["+26", "-13", "-13"]
    horses = page.locator('#modal .winner[data-seat="0"] .horses')  # shown to all (R14.1)
    assert horses.locator(".label").inner_text() == "买马（马值 8）"
    assert horses.locator(".tile").evaluate_all("els => els.map((e) => e.dataset.code)") == ["8s"]
    shot(page, "settlement-town", full_page=True)


def test_a_dropped_friend_shows_offline_at_once_and_can_be_handed_to_a_bot(server, browser):
    """Issue 12: when a friend's browser closes, the others see 离线 at once and may hand the
    seat to 托管 (the server does so itself after its grace)."""
    status, room = http("POST", f"{server.url}/api/rooms", {
        "seats": ["human", "human", "heuristic"], "nickname": "甲", "hands": 1})
    assert status == 201, room
    _, other = http("POST", f"{server.url}/api/rooms/{room['code']}/join", {"nickname": "乙"})
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
                for _ in range(2)]
    a, b = (c.new_page() for c in contexts)
    try:
        seat_page(a, server, room["code"], room["seat"], room["token"], "甲")
        seat_page(b, server, room["code"], other["seat"], other["token"], "乙")
        friend = a.locator(f'.seat.opp[data-seat="{other["seat"]}"] .head')
        friend.locator(".dot.on").wait_for()
        assert friend.locator(".badge.offline").count() == 0
        contexts[1].close()  # the friend's browser closes
        friend.locator(".badge.offline").wait_for()
        assert friend.locator(".badge.offline").inner_text() == "离线"
        friend.locator("button.to-bot").click()
        a.wait_for_selector(".toast >> text=由机器人代打")
        friend.locator(".badge.bot").wait_for()  # the seat now says 托管, and no button
        assert friend.locator("button.to-bot").count() == 0
    finally:
        for c in contexts:
            c.close()  # closing a closed context does nothing


def test_a_friend_who_has_just_joined_shows_as_joining_not_offline(server, browser):
    """Issue 35, bug 1: between a friend's join (which deals the first hand) and their page's
    socket opening, the host saw 离线 with a 交给机器人 button; the seat now says 进入中 with
    no button (the server says ``arriving``), then online once the friend's page connects —
    two real browsers, the friend's page opened a moment after the join."""
    status, room = http("POST", f"{server.url}/api/rooms", {
        "seats": ["human", "human", "heuristic"], "nickname": "甲", "hands": 1})
    assert status == 201, room
    contexts = [browser.new_context(viewport={"width": 1366, "height": 768}, locale="zh-CN")
                for _ in range(2)]
    a, b = (c.new_page() for c in contexts)
    try:
        seat_page(a, server, room["code"], room["seat"], room["token"], "甲",
                  until=".screen.waiting")
        _, other = http("POST", f"{server.url}/api/rooms/{room['code']}/join", {"nickname": "乙"})
        friend = a.locator(f'.seat.opp[data-seat="{other["seat"]}"] .head')
        friend.locator(".badge.arriving").wait_for()  # the hand is dealt; 乙 is connecting
        for _ in range(5):  # and stays so while the page connects: never offline meanwhile
            assert friend.locator(".badge.arriving").inner_text() == "进入中"
            assert friend.locator(".badge.offline").count() == 0
            assert friend.locator("button.to-bot").count() == 0
            assert friend.locator(".dot.wait").count() == 1
            a.wait_for_timeout(200)
        shot(a, "friend-arriving-zh")
        status, refused = http("POST", f"{server.url}/api/rooms/{room['code']}/seats/"
                                       f"{other['seat']}/bot", {}, room["token"])
        assert (status, refused["detail"]["code"]) == (409, "seat_connected")
        seat_page(b, server, room["code"], other["seat"], other["token"], "乙")
        friend.locator(".dot.on").wait_for()
        assert friend.locator(".badge.arriving").count() == 0
        assert friend.locator(".badge.offline").count() == 0
    finally:
        for c in contexts:
            c.close()


def test_the_browser_language_picks_the_first_language_until_one_is_chosen(server, browser):
    """Issue 12: with nothing chosen yet, an English browser gets the English page, a Chinese
    one the Chinese page; a choice made on the page is kept over the browser's."""
    for locale in ("en-US", "zh-CN"):
        ctx = browser.new_context(locale=locale)
        page = ctx.new_page()
        try:
            page.goto(server.url + "/")
            page.wait_for_selector(".lobby")
            lang = page.evaluate("() => document.documentElement.lang")
            assert lang.startswith(locale[:2]), (locale, lang)
            if locale == "en-US":
                page.click("#btn-lang")  # the player chooses Chinese: kept on reload
                page.reload()
                page.wait_for_selector(".lobby")
                assert page.evaluate("() => document.documentElement.lang").startswith("zh")
        finally:
            ctx.close()


# --- a friend joins by the shared link ----------------------------------------------------------

def test_friend_joins_by_link_full_room_and_second_tab(server, browser):
    contexts = [browser.new_context(viewport={"width": 1100, "height": 760}, locale="zh-CN")
                for _ in range(3)]
    pages = [c.new_page() for c in contexts]
    watches = [Watch(p) for p in pages]
    a, b, c = pages
    try:
        a.goto(server.url + "/")
        a.fill("input[name=nickname]", "甲")
        a.select_option("select[name=seat1]", "human")
        a.select_option("select[name=hands]", "1")
        a.click(".create-btn")
        a.wait_for_selector(".waiting")
        link = a.locator(".share input.link").input_value()
        code = a.locator(".share .code").inner_text()
        assert link.endswith(f"#/join/{code}")
        assert a.locator(".seat-list li.open").count() == 1
        shot(a, "waiting-room")
        # the friend opens the link: the join form comes first, with the code filled in
        b.goto(link)
        b.wait_for_selector(".join-card.highlight")
        assert b.locator(".join-card input.code").input_value() == code
        b.fill("input[name=nickname]", "乙")
        b.click(".join-card button.primary")
        b.wait_for_selector(".board")
        a.wait_for_selector(".board")
        assert a.locator('.seat.opp[data-seat="1"] .head .name').inner_text() == "乙"
        assert b.locator('.seat.opp[data-seat="0"] .head .name').inner_text() == "甲"
        # a third player: the room is full, and the page says so
        c.goto(link)
        c.fill("input[name=nickname]", "丙")
        c.click(".join-card button.primary")
        c.wait_for_selector(".toast.error")
        # in the page's language, from the error's code (room_full), not the server's English
        assert "无法加入" in c.locator(".toast.error").inner_text()
        assert "房间已满" in c.locator(".toast.error").inner_text()
        assert "full" not in c.locator(".toast.error").inner_text()
        # the same seat opened in a second tab: the first one says so and can take it back
        a2 = contexts[0].new_page()
        watches.append(Watch(a2))
        a2.goto(f"{server.url}/#/room/{code}")
        a2.wait_for_selector(".board")
        a.wait_for_selector('.fatal[data-reason="replaced"]')
        a.click(".fatal button.primary")
        a.wait_for_selector(".board")
        a2.wait_for_selector('.fatal[data-reason="replaced"]')
    finally:
        for ctx in contexts:
            ctx.close()
    for w in watches:
        assert not w.errors, w.errors
