"""The browser client as files (no browser needed): mount_web serves it on the server's app,
every module it imports exists, no file reaches outside the server (no CDN), and the i18n
table has every text the code asks for, in Chinese and English, including the names of
presets, rule options, refusal codes and meld kinds the server and engine use."""

from __future__ import annotations

import dataclasses
import re

import pytest
from fastapi.testclient import TestClient

from kawuxing.agents import AGENT_NAMES, bots_schema
from kawuxing.melds import MELD_KINDS
from kawuxing.rules import ALL_PRESETS, RuleSet, option_specs, rules_schema
from kawuxing.scoring.transfers import KINDS, PARAMS
from kawuxing.server.app import create_app
from kawuxing.server.config import ServerConfig
from kawuxing.web import STATIC_DIR, mount_web

JS = STATIC_DIR / "js"


def js_files() -> dict[str, str]:
    return {p.name: p.read_text("utf-8") for p in sorted(JS.glob("*.js"))}


@pytest.fixture()
def client(tmp_path):
    app = create_app(ServerConfig(db_url=f"sqlite+aiosqlite:///{tmp_path / 'web.db'}"))
    mount_web(app)
    mount_web(app)  # twice is harmless
    with TestClient(app) as c:
        yield c


def test_index_replaces_the_placeholder(client):
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "browser table is coming" not in page.text
    assert '<script type="module" src="/static/js/main.js">' in page.text
    assert 'href="/static/css/app.css"' in page.text
    assert page.headers["cache-control"] == "no-cache"
    assert client.head("/").status_code == client.head("/sw.js").status_code == 200


def test_static_files_and_the_api_still_served(client, tmp_path):
    main = client.get("/static/js/main.js")
    assert main.status_code == 200
    assert "javascript" in main.headers["content-type"]
    assert main.headers["cache-control"] == "no-cache"
    css = client.get("/static/css/app.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    assert client.get("/static/js/nope.js").status_code == 404
    assert client.get("/static/../__init__.py").status_code == 404
    assert client.get("/api/health").json()["ok"] is True
    assert client.get("/docs").status_code == 404  # API docs off by default (issue 13)
    config = ServerConfig(db_url=f"sqlite+aiosqlite:///{tmp_path / 'docs.db'}", api_docs=True)
    with TestClient(mount_web(create_app(config))) as docs:
        assert "/" not in docs.get("/openapi.json").json()["paths"]


def test_installable_manifest_icons_and_service_worker(client):
    """Issue 35: a web app manifest (full screen, landscape, from /), its icons as the PNGs
    of the sizes it states, and the service worker at /sw.js (scope: the whole site), which
    keeps the client's files only: the game (/api, /ws) is never cached."""
    import json
    from pathlib import Path

    page = client.get("/").text
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in page
    reply = client.get("/static/manifest.webmanifest")
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(reply.text)
    assert (manifest["start_url"], manifest["scope"], manifest["display"],
            manifest["orientation"]) == ("/", "/", "fullscreen", "landscape")
    assert manifest["short_name"] == "卡五星"
    purposes = set()
    for icon in manifest["icons"]:
        png = client.get(icon["src"])
        assert png.status_code == 200 and png.headers["content-type"] == "image/png"
        assert png.content[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = (int.from_bytes(png.content[i:i + 4], "big") for i in (16, 20))
        assert icon["sizes"] == f"{width}x{height}"
        purposes.add((icon["purpose"], width))
    assert {("any", 192), ("any", 512), ("maskable", 512)} <= purposes
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and "javascript" in worker.headers["content-type"]
    assert worker.headers["cache-control"] == "no-cache"
    assert worker.text == (STATIC_DIR / "sw.js").read_text("utf-8")
    # only the page and /static/ are kept: nothing of /api or /ws
    assert "url.pathname === '/' || url.pathname.startsWith('/static/')" in worker.text
    shell = re.findall(r"'(/[^']*)'", worker.text.split("const SHELL = [")[1].split("];")[0])
    for path in shell:
        assert client.get(path).status_code == 200, path
    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text("utf-8")
    for pattern in ('"web/static/*.js"', '"web/static/*.webmanifest"', '"web/static/icons/*.png"'):
        assert pattern in pyproject  # shipped in the wheel


def test_every_import_exists_and_nothing_is_fetched_from_elsewhere():
    files = js_files()
    assert {"main.js", "i18n.js", "tiles.js", "table.js", "game.js", "conn.js", "settle.js",
            "replay.js", "notation.js", "lobby.js", "api.js", "store.js", "ui.js"} <= set(files)
    # one engine: no second win check, waits or replay in the client (the views carry them)
    assert not {"shapes.js", "replaysim.js"} & set(files)
    for name, text in files.items():
        assert not re.search(r"\b(isWin|isStandardWin|heldCounts|visibleCounts|stepView)\b",
                             text), name
    for name, text in files.items():
        for target in re.findall(r"""^import .*? from '(.+?)';""", text, re.M):
            assert target.startswith("./"), (name, target)
            assert (JS / target[2:]).is_file(), (name, target)
    for path in STATIC_DIR.rglob("*"):
        if path.suffix in (".js", ".css", ".html"):
            text = path.read_text("utf-8")
            text = text.replace("http://www.w3.org/2000/svg", "")  # an XML namespace, no fetch
            assert not re.search(r"https?://", text), f"{path.name} refers to another site"


def i18n_tables() -> tuple[dict[str, str], dict[str, str]]:
    tables = []
    for lang in ("zh", "en"):  # the strings of each language: js/i18n/<lang>.js
        text = (JS / "i18n" / f"{lang}.js").read_text("utf-8")
        block = re.search(rf"^export const {lang} = \{{\n(.*?)^\}};", text, re.S | re.M).group(1)
        keys = dict(re.findall(r"^  (\w+): (?:'((?:[^'\\]|\\.)*)'),?$", block, re.M))
        lines = [ln for ln in block.splitlines() if ln.strip() and not ln.strip().startswith("//")]
        assert len(keys) == len(lines), f"{lang}: a line of the table is not `key: 'text',`"
        tables.append(keys)
    return tables[0], tables[1]


def test_i18n_has_every_key_in_both_languages():
    zh, en = i18n_tables()
    assert set(zh) == set(en), sorted(set(zh) ^ set(en))
    used = set()
    for name, text in js_files().items():
        used |= {k for k in re.findall(r"\bt\('([a-z0-9_]+)'", text) if not k.endswith("_")}
        if name == "game-keys.js":  # KEYS_HELP: [key, text key]
            block = text[text.index("KEYS_HELP = ["):text.index("];", text.index("KEYS_HELP = ["))]
            used |= set(re.findall(r"\['[^']*', '([a-z_]+)'\]", block))
        used |= set(re.findall(r"mk\([^\n]*'(rp_\w+)'\);", text))  # replay buttons' titles
    missing = sorted(k for k in used if k not in zh)
    assert not missing, missing
    for key in list(zh):
        assert set(re.findall(r"\{(\w+)\}", zh[key])) == set(re.findall(r"\{(\w+)\}", en[key])), key


def test_i18n_covers_what_the_server_and_engine_name():
    zh, _ = i18n_tables()
    for preset in ALL_PRESETS:
        assert f"preset_{preset}" in zh and f"preset_help_{preset}" in zh
    for code in ("stale", "duplicate", "not_your_seat", "out_of_turn", "illegal", "bad_action",
                 "not_playing", "storage"):  # server/protocol.py refused()
        assert f"refused_{code}" in zh
    for reason in ("bad_token", "no_room", "replaced", "bad_hello", "closed"):
        assert f"fatal_{reason}" in zh
    for kind in MELD_KINDS:
        assert f"meld_{kind}" in zh
    for status in ("waiting", "playing", "finished", "gone"):
        assert f"status_{status}" in zh
    for level in ("1", "2", "3"):
        assert f"bot_level_{level}" in zh


def test_i18n_words_for_every_transfer_kind():
    """Every transfer kind of transfers.py (R6, R7.2, R8.4, R10, R11, R14-R16) has its words
    in Chinese and English, using only that kind's parameters; so has every 荒庄 mode
    (draw_compensation, R10.2-R10.3), every 查叫 class (R10.3) and every parameter a town
    option adds to a payment (VARIANTS.md R18.3)."""
    zh, en = i18n_tables()
    for kind in KINDS:
        key = f"transfer_{kind}"
        assert key in zh and key in en, key
        assert set(re.findall(r"\{(\w+)\}", zh[key])) <= set(PARAMS[kind]), key
    assert set(re.findall(r"\{(\w+)\}", zh["transfer_cha_jiao_wait"])) <= \
        set(PARAMS["cha_jiao"]) | {"wait"}
    modes = [m for m in option_specs()["draw_compensation"].choices if m != "none"]
    for key in [f"transfer_mode_{m}" for m in modes] + [
            f"cha_jiao_class_{c}" for c in ("declared", "ready", "not_ready")] + [
            f"transfer_{p}" for p in ("chain", "shares", "shares_n", "declared_doubling",
                                      "passed_wins", "dice", "base_factor", "third_piao")]:
        assert key in zh and key in en, key


def test_i18n_labels_every_served_option_preset_and_bot():
    """The label keys of GET /api/rules and GET /api/bots exist in Chinese and English: every
    option's name and help, every value a room form offers (the number of hands is shown with
    hands_n), every preset, every bot choice and the open seat."""
    zh, en = i18n_tables()
    schema, bots = rules_schema(), bots_schema()
    assert [o["name"] for o in schema["options"]] == [f.name for f in dataclasses.fields(RuleSet)]
    keys = {"seatkind_human", "hands_n"}
    for option in schema["options"]:
        keys |= {option["label"], option["help"]}
        if option["name"] != "hands_per_match":
            keys |= {o["label"] for o in option["offered"]}
    for preset in schema["presets"].values():
        keys |= {preset["label"], preset["help"]}
    keys |= {c["label"] for c in bots["choices"]}
    assert "opt_cap_null" in keys and "seatkind_heuristic_2" in keys and "preset_app" in keys
    assert sorted(keys - set(zh)) == [] and sorted(keys - set(en)) == []


def test_lobby_lists_no_option_preset_or_bot_of_its_own():
    """The lobby builds its form from the served schemas: no option (but the number of hands it
    asks for apart), preset or bot is named in lobby.js; nor in a room's rules page, nor in the
    grouping both use (by rule chapter, issue 18)."""
    names = [f.name for f in dataclasses.fields(RuleSet) if f.name != "hands_per_match"]
    names += list(ALL_PRESETS) + list(AGENT_NAMES)
    for file in ("lobby.js", "rulespage.js", "rulegroups.js"):
        text = (JS / file).read_text("utf-8")
        for name in names:
            assert not re.search(rf"['\"`]{name}\b", text), (file, name)
    lobby = (JS / "lobby.js").read_text("utf-8")
    assert "/api/rules" in (JS / "api.js").read_text("utf-8")
    assert "api.rules()" in lobby and "api.bots()" in lobby



def server_error_codes() -> set[str]:
    """The ``code`` of every coded HTTP error the server raises (``RoomError(status, message,
    code)`` and ``_coded(status, code, message)`` in src/kawuxing/server), literal or named."""
    from kawuxing.server import errors, protocol

    codes = set()
    for path in (STATIC_DIR.parent.parent / "server").rglob("*.py"):
        text = path.read_text("utf-8")
        for match in re.finditer(r"\b(RoomError|_coded)\(", text):
            depth, i = 1, match.end()
            while depth:
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
            args = text[match.end():i - 1]
            if match.group(1) == "_coded":
                found = re.match(r"\s*\d+,\s*(?:\"([a-z_]+)\"|([A-Z_]+))", args)
            else:
                found = re.search(r"(?:\"([a-z_]+)\"|([A-Z_]+))\s*\)?\s*(?:from None)?\s*$",
                                  args.strip())
            if found is None:
                continue
            literal, name = found.groups()
            if name:
                literal = getattr(protocol, name, None) or getattr(errors, name, None)
            if literal:
                codes.add(literal)
    return codes


def test_every_coded_http_error_reads_in_the_page_language():
    """Issue 35: a refusal shows the page's words for its code, never the server's English
    (the client's api.js explains ``err_<code>``)."""
    zh, _ = i18n_tables()
    codes = server_error_codes()
    assert {"seat_connected", "not_playing", "rate_limited", "no_room"} <= codes
    internal = {"bad_call"}  # between a cluster's processes, never shown
    assert sorted(c for c in codes - internal if f"err_{c}" not in zh) == []


def socket_codes() -> tuple[set[str], set[str]]:
    """The codes the server can send on a game socket: ``refused`` (the constants of
    protocol.py's refused block, and every code a refusal names in src/kawuxing/server) and
    ``error`` (every ``protocol.error(code, …)`` with a literal or named code, every
    ``ProtocolError(code, …)``, and the codes of the RoomError that Room.watch raises, which
    ws.py and the cluster's relay forward as they are)."""
    import inspect

    from kawuxing.server import chat, errors, protocol, spectators
    from kawuxing.server.room import Room

    modules = (protocol, errors, chat, spectators)

    def named(name: str) -> str:
        found = [getattr(m, name) for m in modules if isinstance(getattr(m, name, None), str)]
        assert found, name
        return found[0]

    source = inspect.getsource(protocol)
    block = source[source.index("# refused.code"):source.index("\n\n", source.index("# refused.code"))]
    refused = {named(n) for n in re.findall(r"^([A-Z_]+) = ", block, re.M)}
    server = STATIC_DIR.parent.parent / "server"
    errors_sent = set()
    for path in server.rglob("*.py"):
        text = path.read_text("utf-8")
        for literal, name in re.findall(r"\b(?:protocol\.error|ProtocolError)\(\s*(?:\"([a-z_]+)\"|"
                                        r"(?:protocol\.)?([A-Z_]+)\b)", text):
            errors_sent.add(literal or named(name))
        # a refusal: refuse(slot, id, CODE, …) or a problem tuple (protocol.CODE, "reason", rule)
        for name in re.findall(r"\(protocol\.([A-Z_]+), (?:f?\")", text):
            if not name.startswith("CLOSE_"):  # close(CODE, "reason") is no refusal
                refused.add(named(name))
    watch = inspect.getsource(Room.watch)
    for literal, name in re.findall(r"RoomError\([^)]*?(?:\"([a-z_]+)\"|\b([A-Z_]+))\)", watch):
        errors_sent.add(literal or named(name))
    return refused, errors_sent


def test_every_socket_refusal_and_error_reads_in_the_page_language():
    """Issue 35 (bug 2): a ``refused`` or ``error`` on the game socket is told in the page's
    words for its code (game.js: ``refused_<code>``; ``wserr_<code>``, else the HTTP code's
    ``err_<code>``), in both languages: never the server's English message."""
    zh, en = i18n_tables()
    refused, errors_sent = socket_codes()
    assert {"stale", "out_of_turn", "illegal", "bad_entropy", "entropy_closed"} <= refused
    assert {"malformed", "unknown_type", "too_large", "no_hello", "flood", "spectator",
            "chat_limited", "no_spectators", "room_expired", "storage"} <= errors_sent
    for table in (zh, en):
        assert sorted(c for c in refused if f"refused_{c}" not in table) == []
        assert sorted(c for c in errors_sent
                      if f"wserr_{c}" not in table and f"err_{c}" not in table) == []
        # the words of a message the parser turns down are the socket's own (err_bad_number
        # and err_too_large are the HTTP API's, about something else)
        assert {"bad_number", "too_large", "malformed", "unknown_type"} <= {
            k[len("wserr_"):] for k in table if k.startswith("wserr_")}
        assert "refused_unknown" in table and "{message}" not in table["server_error"]
