"""The guided first hand (kawuxing.tutorial, GET /api/tutorial; issue 35): the script is legal
play of the engine, every lesson's action is one of its frame's legal actions, the hand ends in
a self-drawn 卡五星 with 亮倒 (R9.1: ×2 × ×2), and what the page is sent is seat 0's view only
(R13): no record, no wall, no other seat's concealed tiles before the end."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from kawuxing.server.app import create_app
from kawuxing.server.config import ServerConfig
from kawuxing.tiles import parse_tiles
from kawuxing.tutorial import HANDS, LESSONS, SCRIPT, guided_hand


def test_the_script_is_legal_and_every_lesson_is_offered_in_its_frame():
    guided = guided_hand()
    frames = guided["frames"]
    assert len(frames) == len(SCRIPT) + 1 and [f["step"] for f in frames] == list(range(8))
    assert [(x["step"], x["lesson"]) for x in guided["lessons"]] == [
        (0, "discard"), (2, "pung"), (3, "declare"), (6, "win")] == sorted(LESSONS.items())
    for lesson in guided["lessons"]:
        view = frames[lesson["step"]]["view"]
        assert lesson["action"] in view["legal"], lesson
        assert lesson["action"][0] == view["seat"] == 0
    # between the lessons the scripted seats play: seat 0 has nothing to decide there
    asked = {x["step"] for x in guided["lessons"]}
    for f in frames[:-1]:
        assert bool(f["view"]["legal"]) == (f["step"] in asked), f["step"]


def test_the_hand_ends_in_a_self_drawn_ka_wu_xing_declared():
    result = guided_hand()["frames"][-1]["view"]["result"]
    assert result["winners"] == [0] and result["deltas"] == [8, -4, -4]
    value = result["values"]["0"]
    assert value["by"] == "self_draw"
    assert [(p["name"], p["multiplier"], p["rule"]) for p in value["patterns"]] == [
        ("亮倒", 2, "R9.1 R8.4"), ("卡五星", 2, "R9.1")]
    assert value["multiplier"] == 4
    assert [(t["payer"], t["payee"], t["amount"]) for t in result["transfers"]] == [
        (1, 0, 4), (2, 0, 4)]


def test_the_api_sends_seat_zeros_frames_only(tmp_path):
    app = create_app(ServerConfig(db_url=f"sqlite+aiosqlite:///{tmp_path / 't.db'}"))
    with TestClient(app) as client:
        reply = client.get("/api/tutorial")
    assert reply.status_code == 200
    body = reply.json()
    assert set(body) == {"rules", "frames", "lessons"}
    text = json.dumps(body)
    assert '"draws"' not in text and '"record"' not in text
    for f in body["frames"][:-1]:  # before the end: the others' hands face down (R13)
        view = f["view"]
        assert view["seat"] == 0 and view["hand"]
        assert all(view["seats"][s].get("revealed") is None for s in (1, 2)), f["step"]
        assert all(e.get("hand") is None or e["type"] == "deal" for e in f["events"])
    deal = body["frames"][0]["events"][0]
    assert deal["type"] == "deal" and sorted(parse_tiles(deal["hand"])) == sorted(
        parse_tiles(HANDS[0]))
