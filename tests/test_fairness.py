"""The provably fair deal (R3.1, R13; docs/fairness.md): kawuxing-wall-v1 with known answers,
tampering detected, an unbiased shuffle, ``kawuxing verify`` and ``selfplay`` on the command
line, records that carry the fairness data, and the server: the commitment reaches every seat
before the deal, the entropy of the seats goes into the wall, the seed only after the hand,
and a restart keeps it.

The known answers were computed by an independent implementation of docs/fairness.md (Node's
``crypto`` module, not this code), and agree with the browser's fairness.js
(tests/test_web_fairness.py).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import random
import time
from collections import Counter

import pytest
from typer.testing import CliRunner

from kawuxing import fairness
from kawuxing.cli import app
from kawuxing.engine import Hand
from kawuxing.fairness import FairnessError
from kawuxing.records import hand_record, replay
from kawuxing.rules import RuleSet
from kawuxing.server.clock import ManualClock
from kawuxing.server.config import ServerConfig
from kawuxing.server.db import Store
from kawuxing.server.manager import RoomManager
from kawuxing.server.room import Room
from kawuxing.server.testing import Player, ServerThread, choose, http, stored_record
from kawuxing.tiles import COPIES, kinds_for_suits, parse_tiles, tile_str

SEED = bytes(range(32))
# docs/fairness.md, test vectors 1 and 2 (suits p s)
KAT1 = ("test/0", ["", "", ""],
        "a84cb54c0c13b3b3622dedd807000451ddf277927f9ce12196bd1889eb55a02f",
        "5z 7z 5p 7z 8p 5p 7p 8s 1s 3s 4s 1p 4s 9p 9p 6z 7p 6z 5p 6s 5s 6p 9s 8s 6s 5s 8p 9s "
        "3s 6s 7p 1p 3p 7s 7s 9s 6p 6p 7s 8p 4p 8p 4p 6z 3s 5z 6z 7p 3p 2s 4p 2p 4s 1s 9p 5p "
        "2p 2s 2p 3p 6s 1s 5s 5z 2s 3s 5s 8s 7s 8s 5z 1s 1p 4p 2p 9s 3p 4s 1p 6p 2s 7z 7z 9p")
KAT2 = ("0123456789abcdef/3", ["alice", "", "x y~"],
        "9671ed287bd2565793f750eb3fa20ce4684d9a379335b26e0665d5ca115415e1",
        "4s 6p 9p 6p 2s 4s 6z 1p 3p 7z 6p 4s 9s 9p 8s 8p 3p 1s 6s 9s 1p 7s 4p 7s 4p 2p 8s 1p "
        "9p 5s 3p 9s 8s 9s 7s 1s 8p 4p 3s 6z 7z 2p 2s 3s 6s 1p 5z 6z 6z 8p 8s 8p 2s 1s 6s 5z "
        "5s 7p 5z 5p 6p 7s 5s 2p 2s 2p 4s 5p 7z 7p 3p 5p 1s 5s 9p 7z 7p 4p 7p 6s 3s 3s 5z 5p")


def wall_text(wall) -> str:
    return " ".join(tile_str(t) for t in wall)


# --- the algorithm ------------------------------------------------------------------------------

@pytest.mark.parametrize("vector", [KAT1, KAT2], ids=["plain", "entropy"])
def test_known_answers(vector):
    """A fixed seed, hand id and entropy give a fixed commitment and wall (R3.1)."""
    hand_id, entropy, commit, wall = vector
    assert fairness.commitment(SEED, hand_id) == commit
    assert wall_text(fairness.derive_wall(("p", "s"), SEED, hand_id, entropy)) == wall
    assert wall_text(fairness.derive_wall(RuleSet.preset(), SEED, hand_id, entropy)) == wall


def test_the_spec_step_by_step():
    """docs/fairness.md written out once more with hashlib/hmac only: the length prefixes,
    the key, the counter stream, rejection sampling and the swap order."""
    hand_id, entropy = KAT2[0], KAT2[1]

    def lp(b: bytes) -> bytes:
        return len(b).to_bytes(4, "big") + b

    commit = hashlib.sha256(lp(b"kawuxing-wall-v1/commitment") + lp(hand_id.encode())
                            + lp(SEED)).hexdigest()
    assert commit == fairness.commitment(SEED, hand_id) == KAT2[2]
    key = hmac.new(SEED, lp(b"kawuxing-wall-v1/wall") + lp(hand_id.encode())
                   + b"".join(lp(e.encode()) for e in entropy), hashlib.sha256).digest()
    assert key == fairness.wall_key(SEED, hand_id, entropy)
    words = []
    for i in range(20):
        block = hmac.new(key, i.to_bytes(8, "big"), hashlib.sha256).digest()
        words += [int.from_bytes(block[j:j + 4], "big") for j in range(0, 32, 4)]
    deck = sorted(kinds_for_suits(("p", "s")) * COPIES)
    assert deck == fairness.starting_deck(("s", "p"))  # the order of the option does not matter
    at = 0
    for i in range(83, 0, -1):
        while words[at] >= 2**32 - 2**32 % (i + 1):
            at += 1
        j = words[at] % (i + 1)
        at += 1
        deck[i], deck[j] = deck[j], deck[i]
    assert wall_text(deck) == KAT2[3]


def test_rejection_sampling_skips_the_biased_top():
    """uniform(n): a word at or above 2^32 - (2^32 mod n) is skipped, not folded (no modulo
    bias); the first word below the limit decides."""
    n = 84
    limit = 2**32 - 2**32 % n
    words = iter([2**32 - 1, limit, limit - 1, 5])
    assert fairness.uniform(n, words) == (limit - 1) % n
    assert next(words) == 5
    assert fairness.uniform(1, iter([123])) == 0
    with pytest.raises(ValueError):
        fairness.uniform(0, iter([1]))


def test_every_input_changes_the_wall_and_the_deal_is_the_engines():
    rules = RuleSet.preset()
    base = fairness.derive_wall(rules, SEED, "m/0", ["a", "b", "c"])
    assert sorted(base) == fairness.starting_deck(rules)
    others = [fairness.derive_wall(rules, bytes(31) + b"\x01", "m/0", ["a", "b", "c"]),
              fairness.derive_wall(rules, SEED, "m/1", ["a", "b", "c"]),
              fairness.derive_wall(rules, SEED, "m/0", ["a", "b", "d"]),
              fairness.derive_wall(rules, SEED, "m/0", ["b", "a", "c"]),  # seat order counts
              fairness.derive_wall(rules, SEED, "m/0", ["ab", "", "c"])]  # length prefixes
    assert all(o != base for o in others)
    for dealer in range(3):
        hand = Hand.deal(rules, dealer, wall=base)
        hands, draws = fairness.deal(base, dealer)
        assert hand.initial_hands == hands and hand.draws == draws
        assert len(draws) == 84 - 39 and draws[0] in hand.seats[dealer].concealed_tiles()


def test_shuffle_is_uniform_enough():
    """Over 10,500 seeds every tile kind lands at every one of the 84 positions about 1/21
    of the time (expected 500 per cell: within ±30%, more than six standard deviations), and
    no position favours the deck's starting order."""
    rules = RuleSet.preset()
    n = 10_500
    counts = [Counter() for _ in range(84)]
    unmoved = 0
    deck = fairness.starting_deck(rules)
    for i in range(n):
        seed = hashlib.sha256(i.to_bytes(4, "big")).digest()
        wall = fairness.derive_wall(rules, seed, f"u/{i}", ["", "", ""])
        for pos, kind in enumerate(wall):
            counts[pos][kind] += 1
        unmoved += sum(a == b for a, b in zip(wall, deck))
    expected = n / 21
    worst = max(abs(c[k] - expected) for c in counts for k in kinds_for_suits(rules.suits))
    assert worst < 0.3 * expected, worst
    assert all(len(c) == 21 for c in counts)
    # a tile keeps its deck kind at a position with probability 4/84 either way
    assert abs(unmoved / (n * 84) - 4 / 84) < 0.005


def test_bad_inputs_are_refused_clearly():
    with pytest.raises(FairnessError, match="32 bytes"):
        fairness.commitment(b"short", "m/0")
    with pytest.raises(FairnessError, match="hand_id"):
        fairness.commitment(SEED, "")
    with pytest.raises(FairnessError, match="three texts"):
        fairness.derive_wall(("p", "s"), SEED, "m/0", ["", ""])
    with pytest.raises(FairnessError, match="printable ASCII"):
        fairness.derive_wall(("p", "s"), SEED, "m/0", ["é", "", ""])
    with pytest.raises(FairnessError, match="0-64"):
        fairness.check_entropy("x" * 65)
    with pytest.raises(FairnessError, match="1-64"):
        fairness.check_entropy("", allow_empty=False)
    with pytest.raises(FairnessError, match="two of m, p, s"):
        fairness.starting_deck(("p", "p"))
    assert fairness.check_entropy("~ !") == "~ !"


# --- records and verification -------------------------------------------------------------------

def fair_record(seed: bytes = SEED, hand_id: str = "0123456789abcdef/0",
                entropy=("alice", "", "bob"), play: bool = True) -> dict:
    rules = RuleSet.preset()
    wall = fairness.derive_wall(rules, seed, hand_id, list(entropy))
    hand = Hand.deal(rules, 1, wall=wall)
    rng = random.Random(7)
    while play and not hand.ended:
        seat = hand.to_act()[0]
        hand.apply(rng.choice(hand.legal_actions(seat)))
    return json.loads(json.dumps(hand_record(hand, fairness=fairness.reveal(seed, hand_id,
                                                                            list(entropy)))))


def test_honest_record_verifies_and_replays():
    record = fair_record()
    assert record["version"] == 2 and record["fairness"]["algorithm"] == "kawuxing-wall-v1"
    assert record["fairness"]["seed"] == SEED.hex()
    assert fairness.verify_record(record) == []
    assert replay(record).deltas == record["result"]["deltas"]


def _swap_first_tile(text: str) -> str:
    tiles = parse_tiles(text)
    other = next(t for t in kinds_for_suits(("p", "s")) if t != tiles[0])
    return " ".join(tile_str(t) for t in [other] + tiles[1:])


@pytest.mark.parametrize("change, expect", [
    (lambda r: r["hands"].__setitem__(0, _swap_first_tile(r["hands"][0])), "seat 0's dealt hand"),
    (lambda r: r.__setitem__("draws", _swap_first_tile(r["draws"])), "draws: from draw 1"),
    (lambda r: r.__setitem__("dealer", (r["dealer"] + 1) % 3), "dealt hand"),
    (lambda r: r["fairness"].__setitem__("seed", "ff" + r["fairness"]["seed"][2:]), "commitment"),
    (lambda r: r["fairness"].__setitem__("commitment", "0" * 64), "commitment: the record says"),
    (lambda r: r["fairness"]["entropy"].__setitem__(1, "mallory"), "dealt hand"),
    (lambda r: r["fairness"].__setitem__("hand_id", "0123456789abcdef/1"), "commitment"),
], ids=["hand-tile", "draw-tile", "dealer", "seed", "commitment", "entropy", "hand-id"])
def test_tampering_is_detected(change, expect):
    record = fair_record()
    change(record)
    problems = fairness.verify_record(record)
    assert problems and any(expect in p for p in problems), problems


def test_records_without_fairness_or_malformed_cannot_be_verified():
    old = fair_record(play=False)
    old["version"], old["fairness"] = 1, None
    del old["fairness"]
    with pytest.raises(FairnessError, match="old record"):
        fairness.verify_record(old)
    assert replay(old).dealer == 1  # version 1 records still replay
    seeded = json.loads(json.dumps(hand_record(Hand.deal(RuleSet.preset(), 0, seed=3), 3)))
    assert seeded["fairness"] is None
    with pytest.raises(FairnessError, match="no fairness data"):
        fairness.verify_record(seeded)
    for breaks, message in [(lambda r: r["fairness"].__setitem__("seed", "xyz"), "seed"),
                            (lambda r: r["fairness"].__setitem__("algorithm", "v0"), "algorithm"),
                            (lambda r: r["fairness"].pop("entropy"), "entropy"),
                            (lambda r: r.__setitem__("hands", "1p"), "hands"),
                            (lambda r: r.__setitem__("draws", "1x"), "tiles"),
                            (lambda r: r.__setitem__("dealer", "0"), "dealer")]:
        record = fair_record(play=False)
        breaks(record)
        with pytest.raises(FairnessError, match=message):
            fairness.verify_record(record)
    for value in ([], "text", None, {"format": "other"}):
        with pytest.raises(FairnessError, match="not a kawuxing-hand record"):
            fairness.verify_record(value)


# --- the command line -----------------------------------------------------------------------------

@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})
    return invoke


def write(tmp_path, name, record) -> str:
    path = tmp_path / name
    path.write_text(record if isinstance(record, str) else json.dumps(record), encoding="utf-8")
    return str(path)


def one_error_line(result, *words):
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stderr
    for w in words:
        assert w in lines[0], lines[0]


def test_cli_verify_honest_and_tampered(run, tmp_path):
    record = fair_record()
    honest = run("verify", write(tmp_path, "honest.json", record))
    assert honest.exit_code == 0 and honest.stdout.strip() == "verified", honest.output
    detailed = run("verify", "-v", write(tmp_path, "honest.json", record))
    assert detailed.stdout.startswith("verified\n") and record["fairness"]["commitment"] in \
        detailed.stdout
    for name, change in [("wall", lambda r: r.__setitem__("draws", _swap_first_tile(r["draws"]))),
                         ("seed", lambda r: r["fairness"].__setitem__("seed", "00" * 32)),
                         ("commitment", lambda r: r["fairness"].__setitem__("commitment",
                                                                            "ab" * 32))]:
        bad = json.loads(json.dumps(record))
        change(bad)
        result = run("verify", write(tmp_path, f"{name}.json", bad))
        assert result.exit_code == 1, result.output
        assert "verified" not in result.stdout
        assert all(line.startswith("mismatch: ") for line in result.stdout.strip().splitlines())
        assert ("commitment" if name != "wall" else "draws") in result.stdout
    # an honest deal with a changed result: the actions replay to other scores
    changed = json.loads(json.dumps(record))
    changed["result"]["deltas"] = [d + 1 if i == 0 else d - (i == 1) for i, d in
                                   enumerate(changed["result"]["deltas"])]
    result = run("verify", write(tmp_path, "result.json", changed))
    assert result.exit_code == 1 and "mismatch: result" in result.stdout


def test_cli_verify_bad_input(run, tmp_path):
    old = fair_record(play=False)
    old["version"] = 1
    del old["fairness"]
    one_error_line(run("verify", write(tmp_path, "old.json", old)), "no fairness data", "old")
    one_error_line(run("verify", write(tmp_path, "text.json", "this is not JSON")), "not JSON")
    one_error_line(run("verify", write(tmp_path, "list.json", "[1, 2]")), "not a kawuxing-hand")
    malformed = fair_record(play=False)
    malformed["fairness"]["seed"] = "not hex"
    one_error_line(run("verify", write(tmp_path, "malformed.json", malformed)), "seed")
    no_hands = fair_record(play=False)
    no_hands["hands"] = None
    one_error_line(run("verify", write(tmp_path, "nohands.json", no_hands)), "hands")
    bad_action = fair_record()
    bad_action["actions"][0] = [0, "juggle"]
    one_error_line(run("verify", write(tmp_path, "action.json", bad_action)), "malformed record")
    one_error_line(run("verify", str(tmp_path / "missing.json")), "cannot read")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    one_error_line(run("verify", str(tmp_path / "bin.json")), "UTF-8")


def test_cli_selfplay_without_seed_is_verifiable_with_seed_replayable(run, tmp_path):
    fresh = tmp_path / "fresh.json"
    result = run("selfplay", "--out", str(fresh))
    assert result.exit_code == 0, result.output
    record = json.loads(fresh.read_text())
    assert record["seed"] is None and len(record["fairness"]["seed"]) == 64
    assert run("verify", str(fresh)).stdout.strip() == "verified"
    again = tmp_path / "again.json"
    run("selfplay", "--out", str(again))
    assert json.loads(again.read_text())["fairness"]["seed"] != record["fairness"]["seed"]
    # with --seed: today's reproducible hand, no fairness data
    seeded = [tmp_path / "s1.json", tmp_path / "s2.json"]
    for path in seeded:
        assert run("selfplay", "--seed", "4", "--out", str(path)).exit_code == 0
    assert seeded[0].read_text() == seeded[1].read_text()
    assert json.loads(seeded[0].read_text())["fairness"] is None
    one_error_line(run("verify", str(seeded[0])), "no fairness data")


# --- the server ------------------------------------------------------------------------------------

def make_config(url: str, **overrides) -> ServerConfig:
    values = dict(db_url=url, bot_delay=0, claim_window=0, hand_pause=30,
                  min_decision_seconds=0.05, allow_test_walls=True, rate=1000, burst=1000)
    values.update(overrides)
    return ServerConfig(**values)


def secret_seeds(server, code: str) -> dict:
    """hand number -> seed hex of every hand the server knows, dealt or committed."""
    async def read():
        room = server.manager.get(code)
        found = {}
        if room.match is None:
            found[0] = room.opening.seed.hex()
            return found
        for i, s in enumerate(room.match.fair):
            if s is not None:
                found[i] = s.seed.hex()
        if room.match.pending is not None:
            found[room.match.pending.number] = room.match.pending.seed.hex()
        return found

    return server.call(read())


def test_server_commits_before_the_deal_and_reveals_after_the_hand(tmp_path, run):
    url = f"sqlite+aiosqlite:///{tmp_path / 'fair.db'}"
    with ServerThread(make_config(url)) as server:
        status, made = http("POST", f"{server.url}/api/rooms",
                            {"seats": ["human", "human", "heuristic"], "hands": 2})
        assert status == 201 and made["room"]["status"] == "waiting"
        code = made["code"]
        commit = made["room"]["commit"]
        seeds = secret_seeds(server, code)
        assert commit["hand"] == 0 and commit["algorithm"] == "kawuxing-wall-v1"
        assert commit["commitment"] == fairness.commitment(bytes.fromhex(seeds[0]),
                                                           commit["hand_id"])
        assert seeds[0] not in json.dumps(made)
        # seat 0 joins with entropy for that commitment; the room still waits
        status, j0 = http("POST", f"{server.url}/api/rooms/{code}/join",
                          {"nickname": "ann", "seat": 0, "entropy": "join-0",
                           "commitment": commit["commitment"]})
        assert status == 200 and j0["entropy"] is True
        status, refused = http("POST", f"{server.url}/api/rooms/{code}/join",
                               {"nickname": "x", "entropy": "bad\u00e9"})
        assert status == 422
        ann = Player(server.ws, code, j0["token"])
        welcome = ann.hello()
        assert welcome["commit"] == commit
        # entropy over the socket: refused when bad or for another hand, else the last counts
        ann.send({"type": "entropy", "hand": 0, "value": "x" * 65})
        assert ann.recv_type("refused")["code"] == "bad_entropy"
        ann.send({"type": "entropy", "hand": 0, "value": 17})
        assert ann.recv_type("refused")["code"] == "bad_entropy"
        ann.send({"type": "entropy", "hand": 1, "value": "early"})
        closed = ann.recv_type("refused")
        assert closed["code"] == "entropy_closed" and closed["rule"] == "R3.1"
        ann.send({"type": "entropy", "hand": 0, "value": "ann's own ~"})
        ok = ann.recv_type("entropy_ok")
        assert ok == {"type": "entropy_ok", "hand": 0, "value": "ann's own ~",
                      "commitment": commit["commitment"]}
        # seat 1's join fills the room and deals hand 0 with its entropy in
        status, j1 = http("POST", f"{server.url}/api/rooms/{code}/join",
                          {"nickname": "bob", "entropy": "bob!", "commitment": commit["commitment"]})
        assert status == 200 and j1["entropy"] is True
        bob = Player(server.ws, code, j1["token"])
        assert bob.hello()["commit"] is None  # dealt: nothing open
        players = [ann, bob]
        sync = ann.until(lambda m: m["type"] in ("update", "sync") and m["hand"] == 0)
        assert sync["fairness"] == {"algorithm": "kawuxing-wall-v1", "hand_id": commit["hand_id"],
                                    "commitment": commit["commitment"]}
        assert sync["commit"] is None
        assert sync["view"]["dealer"] == commit["dealer"]  # R2.1: announced with the commitment
        ann.send({"type": "entropy", "hand": 0, "value": "too late"})
        assert ann.recv_type("refused")["code"] == "entropy_closed"
        match_id = http("GET", f"{server.url}/api/rooms/{code}")[1]["match_id"]
        assert commit["hand_id"] == f"{match_id}/0"
        assert http("GET", f"{server.url}/api/hands/{match_id}/0")[0] == 409
        # both players let a bot play (托管); read everything until hand 0 ends
        for p in players:
            p.send({"type": "auto", "on": True})
        ended = {}
        deadline = time.monotonic() + 60
        while len(ended) < 2:
            assert time.monotonic() < deadline
            for i, p in enumerate(players):
                if i in ended:
                    continue
                try:
                    m = p.recv(timeout=0.2)
                except TimeoutError:
                    continue
                if m["type"] == "update" and m["view"].get("result") and m["hand"] == 0:
                    ended[i] = m
        seeds = secret_seeds(server, code)
        revealed = ended[0]["fairness"]
        assert revealed == ended[1]["fairness"]
        assert revealed["seed"] == seeds[0]
        assert revealed["entropy"] == ["ann's own ~", "bob!", ""]
        # before the end nothing carried the seed; the end carries the next commitment
        for p in players:
            end_at = next(i for i, m in enumerate(p.log) if m is ended[players.index(p)])
            before = json.dumps(p.log[:end_at])
            assert seeds[0] not in before and seeds[1] not in json.dumps(p.log)
        nxt = ended[0]["commit"]
        assert nxt == ended[1]["commit"] and nxt["hand"] == 1
        assert nxt["hand_id"] == f"{match_id}/1"
        assert nxt["dealer"] == ended[0]["view"]["result"]["next_dealer"]
        assert nxt["commitment"] == fairness.commitment(bytes.fromhex(seeds[1]), nxt["hand_id"])
        assert http("GET", f"{server.url}/api/rooms/{code}")[1]["commit"] == nxt
        # the record of hand 0: served now, with the fairness data; kawuxing verify accepts it
        status, record = http("GET", f"{server.url}/api/hands/{match_id}/0", None, j1["token"])
        assert status == 200 and record["fairness"] == revealed
        assert fairness.verify_record(record) == []
        path = tmp_path / "hand0.json"
        path.write_text(json.dumps(record))
        assert run("verify", str(path)).stdout.strip() == "verified"
        # entropy for hand 1 in the pause, then the deal
        bob.send({"type": "entropy", "hand": 1, "value": "bob 2"})
        assert bob.recv_type("entropy_ok")["hand"] == 1
        for p in players:
            p.send({"type": "ready"})
        first = bob.until(lambda m: m["type"] == "update" and m["hand"] == 1)
        assert first["fairness"]["commitment"] == nxt["commitment"] and "seed" not in first["fairness"]
        assert first["view"]["dealer"] == nxt["dealer"]

        async def hand1():
            room = server.manager.get(code)
            return room.match.fair[1].entropy

        assert server.call(hand1()) == ["", "bob 2", ""]
        for p in players:
            p.close()


def test_test_walls_have_no_fairness_and_later_hands_do(tmp_path):
    from kawuxing.server.testing import CLAIM_DRAWS, CLAIM_HANDS, build_wall

    url = f"sqlite+aiosqlite:///{tmp_path / 'walls.db'}"
    with ServerThread(make_config(url, hand_pause=0)) as server:
        status, made = http("POST", f"{server.url}/api/rooms", {
            "seats": ["heuristic"] * 3, "hands": 2, "options": {"first_dealer": "seat0"},
            "walls": [build_wall(CLAIM_HANDS, CLAIM_DRAWS)]})
        assert status == 201
        match_id = made["room"]["match_id"]
        deadline = time.monotonic() + 30
        while http("GET", f"{server.url}/api/rooms/{made['code']}")[1]["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        first, second = (stored_record(server, match_id, n) for n in (0, 1))  # bots only
        assert first["fairness"] is None
        assert second["fairness"]["hand_id"] == f"{match_id}/1"
        assert fairness.verify_record(second) == []


def test_restart_keeps_the_fairness_of_the_hand_in_play(tmp_path):
    """The hand row holds the whole fairness object (the database may hold the seed): a
    rebuilt room reveals the same seed at the end, and a hand that had ended gets a new
    commitment for the next deal."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'restart.db'}"

    async def main():
        config = ServerConfig(db_url=url, bot_delay=0, claim_window=0, hand_pause=0)
        store = await Store.open(url)
        manager = RoomManager(store, config, ManualClock())
        made = await manager.create_room(seats=["human", "heuristic", "heuristic"], hands=2)
        room = manager.get(made["code"])
        commit = room.public_info()["commit"]
        await room.post(room.join, "kim", 0, "kim's", commit["commitment"])
        before = room.match.fair[0].revealed()
        assert before["entropy"] == ["kim's", "", ""]
        await manager.shutdown()
        rows = await store.active_rooms()
        again = Room.restore(rows[0], store, config, ManualClock())
        assert again.match.fair[0].revealed() == before
        assert again.match.pending is None  # the hand is in play: nothing open
        assert "commit" in again.public_info() and again.public_info()["commit"] is None
        # end the hand in the rebuilt room: the next hand gets a fresh commitment
        hand = again.match.hand
        rng = random.Random(2)
        while not hand.ended:
            seat = hand.to_act()[0]
            hand.apply(choose_action(hand, seat, rng))
        opened = again.match.open_next()
        assert opened.number == 1 and opened.commitment != before["commitment"]
        assert again.public_info()["commit"]["commitment"] == opened.commitment
        await store.close()

    asyncio.run(main())


def choose_action(hand, seat, rng):
    return rng.choice(hand.legal_actions(seat))


def test_player_helper_choose_still_plays(tmp_path):
    """The fairness fields do not disturb a scripted client: a short match with one player
    acting from its views ends, and every hand's record verifies."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'play.db'}"
    rng = random.Random(4)
    with ServerThread(make_config(url, hand_pause=0)) as server:
        made = http("POST", f"{server.url}/api/rooms",
                    {"nickname": "lin", "hands": 2, "seats": ["human", "random", "random"]})[1]
        p = Player(server.ws, made["code"], made["token"])
        p.hello()
        pending = None
        deadline = time.monotonic() + 90
        while not p.ended:
            assert time.monotonic() < deadline
            if pending is None and p.view and p.view["legal"]:
                pending = p.act(choose(p.view, rng))
            m = p.recv(timeout=20)
            if m["type"] in ("refused", "error") or m.get("ack") == pending:
                pending = None
        match_id = made["room"]["match_id"]
        for n in range(2):
            record = http("GET", f"{server.url}/api/hands/{match_id}/{n}", None, made["token"])[1]
            assert fairness.verify_record(record) == []
        p.close()
