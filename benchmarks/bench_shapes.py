"""Benchmark kawuxing.shapes against the PyPI ``mahjong`` library (2.x), in the same run.

    python benchmarks/bench_shapes.py [--seed N] [--hands N] [--repeat N]

Inputs are seeded and drawn from the real 84-tile set of the default game (1-9 筒, 1-9 条,
白 发 中, four copies each):

* win check: winning 14-tile hands, built as four random sets + a pair, and seven pairs of
  seven different kinds (``mahjong`` refuses seven pairs with a four of a kind, R7.1 allows it);
  and random 14-tile hands from the wall (hardly any of them wins: what the engine checks most,
  for both opponents on every discard);
* waits: ready 13-tile hands (a winning hand less one tile), without the hands that a four of a
  kind in seven pairs would complete; the reference is ``Agari.is_agari`` over the 21 kinds,
  skipping a kind the hand holds four of;
* shanten: random 13-tile hands; ours ``shapes.shanten`` vs ``Shanten.calculate_shanten``
  (seven pairs on, kokushi off).

``mahjong`` uses 34 kinds: our 筒 (kinds 9-17) are its pin 9-17, our 条 (18-26) its sou
18-26, and 白 发 中 (27-29) its haku hatsu chun (31-33).

Every input is also checked: the win check and the waits must agree exactly; shanten
disagreements are counted and shown (seven pairs with a four of a kind, which ``mahjong`` does
not count as two pairs, and rarely a standard hand that ``mahjong`` marks down for a four of a
kind).

Timing: CPU time of this process (``time.process_time``, so that other work on a shared
machine counts less) around a loop over all inputs, the median of ``--repeat`` passes, ours and
theirs alternating; figures are per call. kawuxing.shapes answers shanten and waits from
precomputed tables (no caches), so there is no cold/warm difference to show.

The import of ``kawuxing.shapes`` (its tables are built then) is measured in fresh
subprocesses: wall time of the import statement (``kawuxing``, ``kawuxing.tiles`` and the
standard modules they pull in included), and memory as the growth of the resident set
(``/proc/self/statm``) and the tracemalloc peak; ``import_mib`` is the larger. Bytecode is cached
(in a temporary ``PYTHONPYCACHEPREFIX``) and warmed first, so compiling the source is not
counted; the figure with compiling is printed as well.

The win check is timed two ways on the same hands (``mahjong`` gets its 34-count list in
both): ``win*`` times ``shapes.is_win`` on a 30-count list (it reads the dragons from the list,
then builds the packed key: most of its time); ``win_key*`` times ``shapes.is_win_key`` on the
hand's packed key (one byte a kind) made beforehand. The engine calls the latter: each seat keeps
its key up to date (``SeatState.key``/``add``: a draw, discard, claim or kong adds to it), so its
self-draw, discard and robbing-kong checks are ``is_win_key(key)`` or ``is_win_key(key +
UNITS[tile])`` — the ``win_key*`` figures plus a list comparison (the key is used only while the
counts equal the copy it was made from) — and ``is_win`` is left to a seat with face-down groups
(R8.6, R8.11) and to other callers (bots, tools). The goals are on ``win*``.

The last line printed is one JSON object:
``{"win_ratio", "win_random_ratio", "waits_ratio", "shanten_ratio", "win_us", ...,
"win_key_ratio", "win_key_random_ratio", ..., "import_ms", "import_mib"}``, ratios being
reference time ÷ ours (higher is better for us) and ``*_us`` / ``*_ref_us`` the per-call CPU
microseconds of ours and ``mahjong``'s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence

from mahjong.agari import Agari
from mahjong.shanten import Shanten

from kawuxing import shapes
from kawuxing.tiles import DRAGON_BASE, NUM_KINDS, format_counts, kinds_for_suits

KINDS = kinds_for_suits(("p", "s"))                    # our 21 kinds
WALL = [k for k in KINDS for _ in range(4)]             # the 84 tiles
TO34 = {k: k for k in range(9, 27)} | {27: 31, 28: 32, 29: 33}  # 白发中 -> haku hatsu chun
KINDS34 = [TO34[k] for k in KINDS]
SETS = ([[k] * 3 for k in KINDS]
        + [[k, k + 1, k + 2] for k in KINDS if k < DRAGON_BASE and k % 9 <= 6])
GOALS = {"win_ratio": 8.0, "win_random_ratio": 2.0, "waits_ratio": 20.0, "shanten_ratio": 12.0}
IMPORT_GOALS = {"import_ms": 50.0, "import_mib": 20.0}


# --- inputs --------------------------------------------------------------------------------------

def counts_of(tiles: Sequence[int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for k in tiles:
        counts[k] += 1
    return counts


def to34(counts: Sequence[int]) -> list[int]:
    out = [0] * 34
    for k in KINDS:
        out[TO34[k]] = counts[k]
    return out


def standard_winner(rng: random.Random) -> list[int]:
    while True:
        tiles = [k for _ in range(4) for k in rng.choice(SETS)] + [rng.choice(KINDS)] * 2
        counts = counts_of(tiles)
        if max(counts) <= 4:
            return counts


def seven_pairs_winner(rng: random.Random) -> list[int]:
    return counts_of([k for k in rng.sample(KINDS, 7) for _ in range(2)])


def winning_hands(rng: random.Random, n: int) -> list[list[int]]:
    """n winning hands, one in six seven pairs (of seven different kinds)."""
    return [seven_pairs_winner(rng) if i % 6 == 5 else standard_winner(rng) for i in range(n)]


def quad_seven_pairs_ready(counts: Sequence[int]) -> bool:
    """A 13-tile hand one tile from seven pairs where the pairs would include a four of a kind:
    a kind 卡五星 completes and ``mahjong`` does not."""
    return sum(c // 2 for c in counts) == 6 and max(counts) >= 3


def ready_hands(rng: random.Random, n: int) -> tuple[list[list[int]], int]:
    """n 13-tile hands, each a winning hand less one tile; and how many were left out."""
    out, skipped = [], 0
    while len(out) < n:
        counts = seven_pairs_winner(rng) if rng.random() < 1 / 6 else standard_winner(rng)
        counts[rng.choice([k for k in KINDS if counts[k]])] -= 1
        if quad_seven_pairs_ready(counts):
            skipped += 1
            continue
        out.append(counts)
    return out, skipped


def random_hands(rng: random.Random, n: int) -> list[list[int]]:
    return [counts_of(rng.sample(WALL, 13)) for _ in range(n)]


# --- the reference functions (mahjong) and ours --------------------------------------------------

def ref_waits(tiles34: list[int]) -> list[int]:
    out = []
    for k in KINDS34:
        if tiles34[k] >= 4:
            continue
        tiles34[k] += 1
        if Agari.is_agari(tiles34):
            out.append(k)
        tiles34[k] -= 1
    return out


def ref_shanten(tiles34: list[int]) -> int:
    return Shanten.calculate_shanten(tiles34, use_kokushi=False)


def compare(ours: Callable, our_inputs: list, theirs: Callable, their_inputs: list,
            repeat: int) -> tuple[float, float]:
    """CPU seconds per call, ours and theirs, each the median of ``repeat`` passes; passes of
    ours and theirs alternate so that a slow spell of the machine hits both alike."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for out, fn, inputs in ((times[0], ours, our_inputs), (times[1], theirs, their_inputs)):
            start = time.process_time()
            for x in inputs:
                fn(x)
            out.append((time.process_time() - start) / len(inputs))
    return statistics.median(times[0]), statistics.median(times[1])


def check(ok: bool, what: str) -> None:
    if not ok:
        raise SystemExit(f"kawuxing and mahjong disagree: {what}")


# --- import cost ---------------------------------------------------------------------------------

_IMPORT_PROBE = """
import json, resource, sys, time, tracemalloc
trace = sys.argv[1] == "trace"
def rss_kib():  # resident set size now (Linux), else the peak
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * resource.getpagesize() // 1024
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
rss0 = rss_kib()
if trace:
    tracemalloc.start()
t0 = time.perf_counter()
import kawuxing.shapes
dt = time.perf_counter() - t0
peak = tracemalloc.get_traced_memory()[1] if trace else 0
rss1 = rss_kib()
print(json.dumps({"ms": dt * 1000, "rss_kib": rss1 - rss0, "peak": peak}))
"""


def measure_import(runs: int = 7) -> dict[str, float]:
    """Import of kawuxing.shapes in fresh interpreters: median ms, max rss growth (MiB),
    tracemalloc peak (MiB); with and without cached bytecode."""
    def probe(env: dict[str, str], mode: str) -> dict:
        out = subprocess.run([sys.executable, "-c", _IMPORT_PROBE, mode], env=env, check=True,
                             capture_output=True, text=True).stdout
        return json.loads(out.strip().splitlines()[-1])

    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=cache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        probe(env, "plain")                                    # writes the bytecode
        cached = [probe(env, "plain") for _ in range(runs)]
        traced = probe(env, "trace")
    nocache_env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1",
                       PYTHONPYCACHEPREFIX=tempfile.gettempdir() + "/kawuxing-bench-none")
    compiled = [probe(nocache_env, "plain") for _ in range(3)]
    return {
        "ms": statistics.median(r["ms"] for r in cached),
        "ms_min": min(r["ms"] for r in cached),
        "mib_rss": max(r["rss_kib"] for r in cached) / 1024,
        "mib_peak": traced["peak"] / 2**20,
        "ms_compiling": statistics.median(r["ms"] for r in compiled),
    }


# --- main ----------------------------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=20240531)
    parser.add_argument("--hands", type=int, default=4000, help="inputs per benchmark")
    parser.add_argument("--repeat", type=int, default=3, help="passes; the median counts")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    wins = winning_hands(rng, args.hands)
    ready, skipped = ready_hands(rng, args.hands)
    randoms = random_hands(rng, args.hands)
    random14 = [counts_of(rng.sample(WALL, 14)) for _ in range(args.hands)]
    wins34, ready34, randoms34, random14_34 = ([to34(c) for c in hs]
                                               for hs in (wins, ready, randoms, random14))

    # --- agreement on every input ---
    for counts, t34 in zip(wins, wins34):
        check(shapes.is_win(counts) and Agari.is_agari(t34), f"win {format_counts(counts)}")
    # and on random 14-tile hands (hardly any wins), but for seven pairs with a four of a kind
    win_checked = len(wins)
    if hasattr(shapes, "is_win_key"):  # the packed-key check answers as the list check
        for counts in wins + random14:
            check(shapes.is_win_key(shapes.pack(counts)) == shapes.is_win(counts),
                  f"is_win_key {format_counts(counts)}")
    for counts in random14:
        if not (shapes.is_seven_pairs(counts) and max(counts) == 4):
            check(shapes.is_win(counts) == Agari.is_agari(to34(counts)),
                  f"win {format_counts(counts)}")
            win_checked += 1
    for counts, t34 in zip(ready, ready34):
        ours = [TO34[k] for k in shapes.waits(counts)]
        check(bool(ours), f"not ready {format_counts(counts)}")  # every input is ready
        check(ours == ref_waits(list(t34)), f"waits {format_counts(counts)}: {ours} "
              f"{ref_waits(list(t34))}")
    disagree = [(c, shapes.shanten(c), ref_shanten(t)) for c, t in zip(randoms, randoms34)
                if shapes.shanten(c) != ref_shanten(t)]
    with_quad = sum(1 for c, _, _ in disagree if max(c) == 4)
    # where from: seven pairs counting a four of a kind as two pairs (R7.1; mahjong does not),
    # or the standard shape (mahjong adds a step for some hands with a four of a kind)
    from_standard = sum(1 for c, _, _ in disagree if shapes.standard_shanten(c)
                        != Shanten.calculate_shanten_for_regular_hand(to34(c)))
    n_ready_shanten = sum(1 for c in randoms if shapes.shanten(c) == 0)

    # --- timing ---
    r = args.repeat
    timings = {
        "win": compare(shapes.is_win, wins, Agari.is_agari, wins34, r),
        "win_random": compare(shapes.is_win, random14, Agari.is_agari, random14_34, r),
        "waits": compare(shapes.waits, ready, ref_waits, ready34, r),
        "shanten": compare(shapes.shanten, randoms, ref_shanten, randoms34, r),
    }
    if hasattr(shapes, "is_win_key"):  # (an older kawuxing, measured for comparison, has none)
        timings["win_key"] = compare(shapes.is_win_key, list(map(shapes.pack, wins)),
                                     Agari.is_agari, wins34, r)
        timings["win_key_random"] = compare(shapes.is_win_key, list(map(shapes.pack, random14)),
                                            Agari.is_agari, random14_34, r)
    imp = measure_import()

    # --- report ---
    import mahjong  # noqa: E402 (for its version only)
    version = getattr(mahjong, "__version__", None)
    if version is None:
        from importlib.metadata import version as dist_version
        version = dist_version("mahjong")
    n_standard = sum(1 for c in wins if shapes.is_standard_win(c))
    print(f"kawuxing.shapes vs mahjong {version}; seed {args.seed}; {args.hands} inputs per "
          f"benchmark; CPU time, median of {r} passes; Python {sys.version.split()[0]}")
    print(f"inputs: {len(wins)} winning hands ({n_standard} standard, "
          f"{len(wins) - n_standard} seven pairs); {len(ready)} ready 13-tile hands "
          f"({skipped} with a four-of-a-kind seven-pairs wait left out); {len(randoms)} random "
          f"13-tile hands ({n_ready_shanten} of them ready); {len(random14)} random 14-tile "
          f"hands ({sum(map(shapes.is_win, random14))} of them wins)")
    print(f"agreement: win check {win_checked}/{win_checked} (winning and random 14-tile "
          f"hands); waits {len(ready)}/{len(ready)}; shanten {len(randoms) - len(disagree)}/"
          f"{len(randoms)} ({len(disagree)} disagreements, {with_quad} of them with a four "
          f"of a kind; {from_standard} in the standard shape, the rest in seven pairs)")
    for c, ours, theirs in disagree[:5]:
        print(f"  shanten differs: {format_counts(c)}: ours {ours}, mahjong {theirs}")
    print()
    print(f"{'per call (CPU)':<38}{'kawuxing':>12}{'mahjong':>12}{'ratio':>9}{'goal':>7}")
    labels = {"win": "win check, winning 14 tiles", "win_random": "win check, random 14 tiles",
              "waits": "waits (13 tiles, 21 kinds)", "shanten": "shanten (random 13 tiles)",
              "win_key": "  from packed keys, winning", "win_key_random": "  from packed keys, random"}
    ratios = {}
    for name, (ours, theirs) in timings.items():
        ratio = theirs / ours
        ratios[f"{name}_ratio"] = round(ratio, 2)
        ratios[f"{name}_us"] = round(ours * 1e6, 3)
        ratios[f"{name}_ref_us"] = round(theirs * 1e6, 3)
        goal = GOALS.get(f"{name}_ratio")
        mark = "" if goal is None else "ok" if ratio >= goal else "MISS"
        print(f"{labels[name]:<38}{ours * 1e6:>10.2f}µs{theirs * 1e6:>10.2f}µs{ratio:>8.1f}x"
              f"{'' if goal is None else '≥' + format(goal, 'g'):>5} {mark}")
    print("(win check: shapes.is_win of a 30-count list; packed keys: shapes.is_win_key of the "
          "hand's key, one byte a kind, made beforehand, as the engine calls it on each seat's "
          "key kept up to date; mahjong gets its 34-count list in both)")
    print()
    print(f"import kawuxing.shapes (fresh process, bytecode cached): {imp['ms']:.1f} ms median "
          f"(min {imp['ms_min']:.1f}; {imp['ms_compiling']:.1f} ms when compiling the source "
          f"too); memory: RSS +{imp['mib_rss']:.2f} MiB, tracemalloc peak "
          f"{imp['mib_peak']:.2f} MiB (goals ≤{IMPORT_GOALS['import_ms']:g} ms, "
          f"≤{IMPORT_GOALS['import_mib']:g} MiB)")
    result = ratios | {"import_ms": round(imp["ms"], 1),
                       "import_mib": round(max(imp["mib_rss"], imp["mib_peak"]), 2)}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
