"""The fair deal in a real browser (Playwright driving Debian's Chromium, as in
test_web_browser.py): the settlement's mark is computed by the page with the Web Crypto API.

- a room made in the lobby: the page sends its entropy with the join that deals the first
  hand, plays it by clicking, and the settlement shows the commitment received before the deal
  and "已验证 ✓", matching the stored record (its seed, and the page's entropy in it);
- fairness.js gives the same commitments and walls as kawuxing.fairness for many inputs, and
  its checks catch a changed seed, commitment, entropy or tile;
- the replay page checks a stored record the same way and links it for ``kawuxing verify``;
- over plain http on a name that is not this machine's (not a secure context: no
  crypto.subtle) the settlement honestly says it cannot verify here.
"""

from __future__ import annotations

import json
import random

import pytest

from kawuxing import fairness
from kawuxing.server.testing import auto_played_match, http, stored_record
from kawuxing.tiles import tile_str
from web_harness import (WebServerThread, page_player, play_until_settlement, shot,
                         web_config)

INSECURE_HOST = "kwx-fair.test"  # mapped to 127.0.0.1 by the browser: http there is not secure
BROWSER_ARGS = [f"--host-resolver-rules=MAP {INSECURE_HOST} 127.0.0.1"]  # (conftest's browser)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("fairdb") / "fair.db"
    with WebServerThread(web_config(f"sqlite+aiosqlite:///{db}")) as srv:
        yield srv


def create_in_lobby(page, base: str, nickname: str = "阿公") -> str:
    """A room from the lobby; the nickname becomes this browser's player (names are unique per
    server, so another origin, which keeps another player, needs another name)."""
    page.goto(base + "/")
    page.wait_for_selector(".lobby .create-form")
    page.fill("input[name=nickname]", nickname)
    page.select_option("select[name=hands]", "1")
    page.select_option("select[name=seat1]", "heuristic:1")
    page.select_option("select[name=seat2]", "random")
    page.click(".create-btn")
    page.wait_for_selector(".board")
    return page.evaluate("() => window.__kwx.game.code")


def fairness_box(page) -> dict:
    page.wait_for_function("() => { const b = document.querySelector('#modal .settlement .fairness');"
                           " return b && b.dataset.status !== 'checking'; }", timeout=15000)
    return page.evaluate("""() => {
        const b = document.querySelector('#modal .settlement .fairness');
        const code = b.querySelector('code.commit');
        return {status: b.dataset.status, mark: b.querySelector('.mark').textContent,
                short: code ? code.textContent : null, full: code ? code.dataset.full : null,
                text: b.innerText};
    }""")


def test_settlement_shows_the_browsers_own_verified_mark(server, desktop):
    page, _ = desktop
    code = create_in_lobby(page, server.url)
    # before any tile was dealt the lobby had the room's commitment and sent entropy with it
    before = page.evaluate("() => window.__kwx.game.fair[0]")
    assert before["accepted"] is True and len(before["mine"]) == 32
    assert len(before["commitment"]) == 64
    play_until_settlement(page, pung=True)
    box = fairness_box(page)
    assert box["status"] == "verified", box
    assert box["mark"] == "已验证 ✓"
    assert box["full"] == before["commitment"] and box["short"] == before["commitment"][:16] + "…"
    info = http("GET", f"{server.url}/api/rooms/{code}")[1]
    mine = page.evaluate("() => JSON.parse(localStorage.getItem('kwx.player')).token")
    status, record = http("GET", f"{server.url}/api/hands/{info['match_id']}/0", None, mine)
    assert status == 200  # the player's own record (R13: only the match's players get it)
    f = record["fairness"]
    assert f["commitment"] == before["commitment"] and f["entropy"][0] == before["mine"]
    assert f["entropy"][1:] == ["", ""]  # bots add nothing
    assert fairness.verify_record(record) == []
    shot(page, "settlement-fair", full_page=True)
    page.click("#btn-lang")
    page.wait_for_selector("#modal .settlement .fairness >> text=verified ✓")
    assert "commitment before the deal" in page.locator("#modal .settlement .fairness").inner_text()


def test_browser_and_python_derive_the_same_walls_and_catch_tampering(server, desktop):
    page, _ = desktop
    page.goto(server.url + "/")
    rng = random.Random(11)
    cases = []
    for i in range(12):
        seed = bytes(rng.getrandbits(8) for _ in range(32))
        suits = rng.choice([["p", "s"], ["m", "p"], ["s", "m"]])
        hand_id = f"{rng.getrandbits(64):016x}/{i}"
        entropy = [rng.choice(["", "a", "x y~", "0" * 64]) for _ in range(3)]
        cases.append({"seed": seed.hex(), "suits": suits, "hand_id": hand_id,
                      "entropy": entropy,
                      "commitment": fairness.commitment(seed, hand_id),
                      "wall": [tile_str(t) for t in
                               fairness.derive_wall(suits, seed, hand_id, entropy)]})
    got = page.evaluate("""async (cases) => {
        const f = await import('/static/js/fairness.js');
        const s = await import('/static/js/notation.js');
        const out = [];
        for (const c of cases) {
            const seed = f.fromHex(c.seed);
            out.push({commitment: await f.commitment(seed, c.hand_id),
                      wall: (await f.deriveWall(c.suits, seed, c.hand_id, c.entropy)).map(s.codeOf)});
        }
        return out;
    }""", cases)
    for case, js in zip(cases, got):
        assert js == {"commitment": case["commitment"], "wall": case["wall"]}
    # a record checked in the page: honest, then each kind of tampering
    status, made = http("POST", f"{server.url}/api/rooms",
                        {"seats": ["random", "random", "random"], "hands": 1})
    assert status == 201
    match_id = made["room"]["match_id"]
    for _ in range(300):
        record = stored_record(server, match_id, 0)  # bots only: the oracle reads the store
        if record is not None:
            break
        page.wait_for_timeout(50)
    assert record is not None
    verdicts = page.evaluate("""async (record) => {
        const f = await import('/static/js/fairness.js');
        const copy = () => JSON.parse(JSON.stringify(record));
        const seed = copy(); seed.fairness.seed = '00' + seed.fairness.seed.slice(2);
        const commit = copy(); commit.fairness.commitment = 'ab'.repeat(32);
        const entropy = copy(); entropy.fairness.entropy[2] = 'mallory';
        const tile = copy(); tile.draws = (tile.draws.startsWith('1') ? '2' : '1') + tile.draws.slice(1);
        const out = {};
        for (const [name, r] of Object.entries({honest: record, seed, commit, entropy, tile})) {
            out[name] = (await f.verifyRecord(r)).status;
        }
        // the seat's own check: the commitment kept from before the deal must be the one revealed
        const ev = [{n: 0, type: 'deal', hand: record.hands[0]}];
        const args = {fairness: record.fairness, seat: 0, suits: record.rules.suits, dealer: record.dealer, events: ev};
        out.own = (await f.verifyHand({...args, before: {commitment: record.fairness.commitment}})).status;
        out.swapped = (await f.verifyHand({...args, before: {commitment: 'cd'.repeat(32)}})).status;
        out.dropped = (await f.verifyHand({...args, before: {commitment: record.fairness.commitment, mine: 'mine', accepted: true}})).status;
        out.late = (await f.verifyHand({...args, before: null})).status;
        out.other_hand = (await f.verifyHand({...args, events: [{n: 0, type: 'deal', hand: record.hands[1]}], before: {commitment: record.fairness.commitment}})).status;
        out.nowhere = (await f.verifyHand({...args, before: null}, null)).status;
        return out;
    }""", record)
    assert verdicts == {"honest": "verified", "seed": "mismatch", "commit": "mismatch",
                        "entropy": "mismatch", "tile": "mismatch", "own": "verified",
                        "swapped": "mismatch", "dropped": "mismatch", "late": "late",
                        "other_hand": "mismatch", "nowhere": "unavailable"}


def replay_of_my_match(page, server, name: str, seats: list[str]) -> tuple[str, dict]:
    """A one-hand match of ``seats`` played by 托管 for the page's player ``name``, its
    replay page opened: ``(match id, the record of hand 0 as its player gets it)``."""
    token = page_player(page, server, name)
    made = auto_played_match(server, {"seats": seats, "hands": 1}, token)
    match_id = made["room"]["match_id"]
    status, record = http("GET", f"{server.url}/api/hands/{match_id}/0", None, token)
    assert status == 200
    page.goto(f"{server.url}/#/replay/{match_id}/0")
    return match_id, record


def test_replay_page_checks_the_record_and_offers_it_for_download(server, desktop):
    """A player of the match (the page's player token) gets the record: the replay checks
    its fair deal in the page and offers the record as fetched for download (a link to the
    API would send no token: R13)."""
    page, _ = desktop
    match_id, record = replay_of_my_match(page, server, "验证者", ["human", "random", "heuristic"])
    page.wait_for_selector('.replay-fair[data-status="verified"]')
    line = page.locator(".replay-fair")
    assert "已验证 ✓" in line.inner_text()
    assert line.locator("code").get_attribute("title") == record["fairness"]["commitment"]
    link = line.locator("a.download")
    assert link.get_attribute("href").startswith("blob:")
    assert link.get_attribute("download") == f"kawuxing-{match_id}-0.json"
    with page.expect_download() as got:
        link.click()
    downloaded = json.loads(open(got.value.path(), encoding="utf-8").read())
    assert downloaded == record and fairness.verify_record(downloaded) == []
    shot(page, "replay-fair")


def test_replay_page_opens_the_ai_review_of_a_seat(server, desktop):
    """Issue 32: a player of the match asks the 复盘 of a seat on the replay page: the summary
    and the costliest decisions are the server's review, and a decision's step opens that
    moment of the hand from that seat."""
    from kawuxing.review import review

    page, _ = desktop
    match_id, record = replay_of_my_match(page, server, "复盘者", ["human", "expert", "heuristic:2"])
    want = review(record, 1)
    page.wait_for_selector(".review-go")
    page.select_option(".review-seat", "1")
    page.click(".review-go")
    page.wait_for_selector(".review-panel")
    summary = page.locator(".rv-summary").inner_text()
    assert f"共 {len(want['decisions'])} 个决定" in summary
    assert f"共损失 {want['total_loss']:.2f} 底分" in summary
    steps = page.locator(".review-panel > .rv-list .rv-step").all_inner_texts()
    assert steps == [f"第 {s + 1} 步" for s in want["costliest"]]
    if want["costliest"]:
        page.locator(".review-panel > .rv-list .rv-step").first.click()
        page.wait_for_function("s => window.__kwxReplay.state.bottom === '1'"
                               " && window.__kwxReplay.frames['1'][window.__kwxReplay.state.step]"
                               ".step <= s", arg=want["costliest"][0])
    shot(page, "replay-review")


def test_no_web_crypto_outside_a_secure_context_says_so(server, desktop):
    page, _ = desktop
    base = server.url.replace("127.0.0.1", INSECURE_HOST)
    page.goto(base + "/")
    assert page.evaluate("() => window.isSecureContext") is False
    assert page.evaluate("() => Boolean(window.crypto && window.crypto.subtle)") is False
    create_in_lobby(page, base, "阿婆")  # this origin keeps no player yet: 阿公 is taken
    assert page.evaluate("() => window.__kwx.game.fair[0].accepted") is True  # entropy still sent
    play_until_settlement(page, pung=True)
    box = fairness_box(page)
    assert box["status"] == "unavailable" and box["mark"] == "此处无法验证"
    assert box["full"] is not None and "kawuxing verify" in box["text"]
    assert json.dumps(box)
