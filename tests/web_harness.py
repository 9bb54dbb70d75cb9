"""What the browser tests share (they drive Debian's chromium through Playwright): the game
server with the browser client mounted (:class:`WebServerThread`: a
:class:`kawuxing.server.testing.ServerThread` serving :func:`kawuxing.web.create_app`, as
``kawuxing serve`` runs it) and its test configuration (:func:`web_config`), a page's error
watch, screenshots (artifacts/, and docs/ with ``KAWUXING_UPDATE_DOCS=1``), and the steps of a
player: a seat opened from its token, a page's player, a hand played to its settlement by
clicking. The ``browser`` and ``desktop`` fixtures are in conftest.py.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from kawuxing.server.config import ServerConfig
from kawuxing.server.testing import ServerThread, build_wall, http
from kawuxing.web import create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


class WebServerThread(ServerThread):
    """A :class:`ServerThread` serving the browser client too (``url`` is its address)."""

    def __init__(self, config, clock=None, port: int | None = None) -> None:
        super().__init__(config, clock, port, app=create_app(config, clock))


def web_config(db_url: str, **options) -> ServerConfig:
    """The browser tests' server: quick bots and claim windows (0.05 s), a minute to decide and
    between hands, test walls allowed; ``options`` override."""
    settings = dict(db_url=db_url, bot_delay=0.05, claim_window=0.05, hand_pause=60,
                    decision_seconds=60, allow_test_walls=True, unload_after=600)
    return ServerConfig(**(settings | options))


ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"
DOCS = ROOT / "docs"

# Seat 0 (the player, dealer) holds 46p 123p 789p 11p 234p: ready on 5p (卡五星) 6p 9p, all 筒
# (清一色). Seat 1 (a heuristic:2 bot) draws 8p, discards 7z and declares 亮倒 waiting 6p/9p
# (six copies live: declaring pays even after the player's 亮倒).
# Seat 2 (heuristic:1) holds nothing anybody can claim. The player draws 5z, 9s, then 5p:
# 自摸 清一色 ×4 × 卡五星 ×2 = ×8 from each other player.
DECLARE_HANDS = ["46p 123p 789p 11p 234p", "123s 456s 789s 66z 7p 7z",
                 "2s 3s 5s 8s 1s 7s 3s 7p 4s 5z 6z 7z 8p"]
DECLARE_WALL = build_wall(DECLARE_HANDS, "5z 8p 4s 9s 8s 6s 5p")


class Watch:
    """A page's JavaScript errors (uncaught or console.error)."""

    def __init__(self, page):
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        # the browser itself logs dropped sockets and refused requests (tested on purpose)
        page.on("console", lambda m: m.type == "error" and "WebSocket" not in m.text
                and "Failed to load resource" not in m.text
                and self.errors.append(f"console: {m.text}"))


def shot(page, name: str, docs_name: str | None = None, full_page: bool = False) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    if full_page and page.locator("#modal:not([hidden])").count():
        # let a long dialog lengthen the page, so that the whole of it is in the picture
        page.add_style_tag(content=".modal { position: absolute !important; bottom: auto !important;"
                                   " min-height: 100%; overflow: visible !important; }")
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    if docs_name and os.environ.get("KAWUXING_UPDATE_DOCS"):  # refresh the README's pictures
        DOCS.mkdir(exist_ok=True)
        shutil.copyfile(path, DOCS / docs_name)


def seat_page(page, server, code: str, seat: int, token: str, nick: str = "小明",
              until: str = ".board") -> None:
    """Open the room with the seat token stored as the lobby would have stored it, and wait
    for ``until`` (the table; ``.screen.waiting`` for a room still waiting for players)."""
    page.goto(server.url + "/")
    page.evaluate("([c, s, t, n]) => localStorage.setItem('kwx.seats', JSON.stringify("
                  "{[c]: {seat: s, token: t, nick: n, at: Date.now()}}))", [code, seat, token, nick])
    page.goto(f"{server.url}/#/room/{code}")
    page.wait_for_selector(until)


def declare_room(server, hands: int = 2, seats=("human", "heuristic:2", "heuristic:1")) -> dict:
    status, room = http("POST", f"{server.url}/api/rooms", {
        "seats": list(seats), "options": {"first_dealer": "seat0"}, "walls": [DECLARE_WALL],
        "nickname": "小明", "hands": hands})
    assert status == 201, room
    return room


def state(page) -> dict:
    """What the page's game holds now (read only; the test acts through the page)."""
    return page.evaluate("""() => {
        const g = window.__kwx && window.__kwx.game;
        if (!g || !g.view) return {ready: false};
        return {ready: true, hand: g.hand, legal: g.view.legal, phase: g.view.phase,
                busy: g.ui.busy, drawn: g.view.drawn, result: g.view.result || null,
                settle: !!document.querySelector('#modal:not([hidden]) .settlement'),
                matchEnd: !!g.matchEnd, status: g.connStatus};
    }""")


def play_until_settlement(page, hand: int | None = None, pung: bool = False, tap: bool = False,
                          timeout: float = 90.0, before_win=None) -> dict:
    """Play by clicking (or tapping): win when offered, pung when asked to, else pass; in the
    turn discard the tile just drawn (else the first one allowed). Stops at the settlement."""
    deadline = time.monotonic() + timeout
    acted = 0
    while time.monotonic() < deadline:
        s = state(page)
        if s["ready"] and s["settle"] and (hand is None or s["hand"] == hand):
            return s
        verbs = {a[1] for a in s["legal"] or []}
        if (not s["ready"] or s["busy"] or verbs <= {"pass"}  # a lone pass: passed for (R13.2)
                or (hand is not None and s["hand"] != hand)):
            page.wait_for_timeout(60)
            continue
        if "win" in verbs:
            if before_win:
                before_win(page)
            page.click(".actions button.act-win")
        elif pung and "pung" in verbs:
            page.click(".actions button.act-pung")
        elif "pass" in verbs:
            try:  # the claim window may close (a win settles it) while the button is sought
                page.click(".actions button.act-pass", timeout=3000)
            except PlaywrightTimeout:
                continue
        elif "discard" in verbs:
            drawn = page.locator('.hand .tile.can[data-drawn="1"]')
            tile = drawn if drawn.count() else page.locator(".hand .tile.can").first
            if tap:
                tile.tap()
                page.wait_for_timeout(30)
                tile.tap()
            else:
                tile.click()
        elif "piao" in verbs:
            page.locator(".actions button.act-piao").first.click()
        acted += 1
        page.wait_for_function("() => window.__kwx.game.ui.busy === false", timeout=10000)
    raise AssertionError(f"no settlement after {acted} actions: {state(page)}")


def page_player(page, server, name: str) -> str:
    """This page's player (issue 16): a new one kept in its localStorage as the lobby keeps
    it. Returns its token."""
    status, player = http("POST", f"{server.url}/api/players", {"name": name})
    assert status == 201, player
    page.goto(server.url + "/")
    page.evaluate("(p) => localStorage.setItem('kwx.player', JSON.stringify({...p, "
                  "has_password: false}))", player)
    return player["token"]
