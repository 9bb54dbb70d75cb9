"""Precomputed per-component tables for :mod:`kawuxing.shapes` (R7.1): shanten and waits with
no search.

A component (one suit of nine ranks, or the three dragons) is indexed by its *base-5 index*:
its rank counts (0-4 each) read as a base-5 number, the lowest rank the most significant digit,
so that ``int(digits, 5)`` turns the ASCII digits of the counts into the index. 5**9 = 1,953,125
suit indexes, 125 dragon indexes.

The tables (built by :func:`build` from the search code of :mod:`kawuxing.shapes`, shipped
zlib-compressed as the package file ``shapes_tables.bin`` (:func:`encode`) and rebuilt by
``python -m kawuxing.shapes_tables``). Loading them decompresses about 6 MB, most of the import
time of :mod:`kawuxing.shapes`, so :func:`load` keeps the decompressed buffer in the user's
cache directory (``$KAWUXING_CACHE_DIR``, else ``$XDG_CACHE_HOME/kawuxing`` or
``~/.cache/kawuxing``; a file named by the package file's CRC-32 and size) and maps it next
time (``mmap``: nothing to decompress or copy, pages shared by every process; issue 14). Where
the directory cannot be written, it decompresses every time, as before.

* ``suit_vec`` / ``dragon_vec`` (``bytes``): index -> id of the component's shanten value vector
  in ``vectors`` (54 distinct over every suit of at most 14 tiles); 255 for a suit of more than
  14 tiles (the caller falls back to the search);
* ``merge`` (``bytes``, ``n × n``): ids of two value vectors -> id of the vector of both parts
  together, over the closure of ``vectors`` under merging;
* ``shanten`` (``bytes``, ``n × 5``): vector id, declared melds (0-4) -> standard shanten + 1;
* ``suit_wait`` / ``dragon_wait`` (16-bit): index -> id into ``wait_infos``, each
  ``(state, mask0, mask1)``: state 0 not sets (+ a pair), 1 sets, 2 sets + one pair; maskN the
  ranks whose one more copy makes the component sets (N=0) or sets + a pair (N=1).
"""

from __future__ import annotations

import json
import mmap
import os
import sys
import zlib
from array import array
from importlib import resources
from itertools import product

SUIT_SIZE = 5**9
DRAGON_SIZE = 5**3
NO_VECTOR = 255
DATA_FILE = "shapes_tables.bin"
LOAD_ERRORS = (OSError, ValueError, KeyError, zlib.error)  # a missing or unreadable file


def _index_keys(size: int, max_tiles: int):
    """(base-5 index, byte-packed key) of every component of ``size`` ranks, ≤ ``max_tiles``."""
    for digits in product(range(5), repeat=size):
        if sum(digits) <= max_tiles:
            yield int("".join(map(str, digits)), 5), int.from_bytes(bytes(digits), "little")


def build(shapes=None) -> dict:
    """Every table, from the search code of :mod:`kawuxing.shapes` (about 7 s of CPU);
    ``shapes`` is that module (default: imported here)."""
    if shapes is None:
        from . import shapes

    vectors: list[tuple[int, ...]] = []
    ids: dict[tuple[int, ...], int] = {}

    def vid(v: tuple[int, ...]) -> int:
        if v not in ids:
            ids[v] = len(vectors)
            vectors.append(v)
        return ids[v]

    vid(shapes._EMPTY)
    suit_vec = bytearray([NO_VECTOR]) * SUIT_SIZE
    dragon_vec = bytearray([NO_VECTOR]) * DRAGON_SIZE
    for table, size, chows in ((suit_vec, 9, True), (dragon_vec, 3, False)):
        for index, key in _index_keys(size, 14):
            table[index] = vid(shapes._component_values.__wrapped__(key, size, chows))
    # the closure under merging (a hand has four components)
    merged: dict[tuple[int, int], int] = {}
    done = 0
    while done < len(vectors):
        n = len(vectors)
        for a in range(n):
            for b in range(n):
                if (a, b) not in merged:
                    merged[a, b] = vid(shapes._merge.__wrapped__(vectors[a], vectors[b]))
        done = n
    n = len(vectors)
    merge = bytes(merged[a, b] for a in range(n) for b in range(n))
    shanten = bytes(2 * (4 - m) - v[5 + 4 - m] + 1 for v in vectors for m in range(5))

    infos: list[tuple[int, int, int]] = []
    info_ids: dict[tuple[int, int, int], int] = {}
    waits_tables = []
    for comp, size, total in ((0, 9, SUIT_SIZE), (3, 3, DRAGON_SIZE)):
        table = array("H", [0]) * total
        look = shapes._TABLES[comp]
        for index, key in _index_keys(size, 13):
            value = look.get(key)
            state = 0 if value is None else 1 + value // shapes._PAIR
            masks = []
            for pair in (0, 1):
                kinds = shapes._completions.__wrapped__(key, comp, pair)
                start = shapes._COMPONENTS[comp][0]
                masks.append(sum(1 << (k - start) for k in kinds))
            info = (state, masks[0], masks[1])
            if info not in info_ids:
                info_ids[info] = len(infos)
                infos.append(info)
            table[index] = info_ids[info]
        if sys.byteorder != "little":
            table.byteswap()  # stored little-endian
        waits_tables.append(table)
    return {"vectors": vectors, "suit_vec": bytes(suit_vec), "dragon_vec": bytes(dragon_vec),
            "merge": merge, "shanten": shanten, "wait_infos": infos,
            "suit_wait": waits_tables[0].tobytes(), "dragon_wait": waits_tables[1].tobytes()}


_BLOBS = ("suit_vec", "dragon_vec", "suit_wait", "dragon_wait")  # stored raw, in this order


def encode(tables: dict) -> bytes:
    """The package file: the uncompressed length (4 bytes, little-endian), then zlib (level 9)
    of a JSON header line (the small tables, the blob
    lengths) followed by the blobs of ``_BLOBS`` (the 16-bit tables little-endian)."""
    head = {k: (list(v) if isinstance(v, bytes) else v) for k, v in tables.items()
            if k not in _BLOBS}
    head["lengths"] = [len(tables[k]) for k in _BLOBS]
    raw = json.dumps(head).encode() + b"\n" + b"".join(tables[k] for k in _BLOBS)
    return len(raw).to_bytes(4, "little") + zlib.compress(raw, 9)


def decode(data: bytes, raw=None) -> dict:
    """The tables of :func:`encode`'s ``data`` (``raw``: its decompressed buffer, ``bytes`` or
    a read-only ``mmap``, when the caller has it already): the blobs as ``memoryview``s of one buffer (no
    copies; the 16-bit ones cast to ``"H"``), ``merge`` and ``shanten`` as ``bytes``,
    ``vectors`` and ``wait_infos`` as lists of tuples."""
    raw = _raw(data) if raw is None else raw
    end = raw.find(b"\n")
    head = json.loads(raw[:end])
    if sys.byteorder != "little":  # the 16-bit tables are stored little-endian
        raw = bytearray(raw)
        pos = end + 1 + sum(head["lengths"][:2])
        swapped = array("H", raw[pos:pos + sum(head["lengths"][2:])])
        swapped.byteswap()
        raw[pos:pos + len(swapped) * 2] = swapped.tobytes()
    view = memoryview(raw)
    pos = end + 1
    tables = {"vectors": [tuple(v) for v in head["vectors"]],
              "wait_infos": [tuple(v) for v in head["wait_infos"]],
              "merge": bytes(head["merge"]), "shanten": bytes(head["shanten"])}
    for name, length in zip(_BLOBS, head["lengths"]):
        blob = view[pos:pos + length]
        tables[name] = blob.cast("H") if name.endswith("wait") else blob
        pos += length
    return tables


def load() -> dict:
    """The tables (:func:`decode`) from the package file.

    Raises one of :data:`LOAD_ERRORS` when the file is missing or unreadable (rebuild it with
    ``python -m kawuxing.shapes_tables``)."""
    data = resources.files(__package__).joinpath(DATA_FILE).read_bytes()
    return decode(data, _cached_raw(data))


def _raw(data: bytes) -> bytes:
    """The decompressed buffer of :func:`encode`'s ``data`` (``zlib.error`` if corrupt)."""
    return zlib.decompress(data[4:], bufsize=int.from_bytes(data[:4], "little"))


def cache_dir() -> str:
    """Where :func:`load` keeps the decompressed tables: ``$KAWUXING_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/kawuxing``, else ``~/.cache/kawuxing`` (no platformdirs: its import
    alone would cost what the cache saves)."""
    return (os.environ.get("KAWUXING_CACHE_DIR")
            or os.path.join(os.environ.get("XDG_CACHE_HOME")
                            or os.path.join(os.path.expanduser("~"), ".cache"), "kawuxing"))


def _cached_raw(data: bytes):
    """The decompressed buffer of ``data`` mapped from the cache file, which is written first
    (atomically: a temporary file renamed) when missing; a file of the wrong size is ignored.
    The buffer itself when the cache cannot be read or written (``OSError``)."""
    size = int.from_bytes(data[:4], "little")
    path = os.path.join(cache_dir(), f"shapes_tables-{zlib.crc32(data):08x}-{size}.raw")
    try:
        with open(path, "rb") as f:
            if os.fstat(f.fileno()).st_size == size:
                return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        pass
    raw = _raw(data)
    if len(raw) != size:
        raise ValueError(f"{DATA_FILE}: {len(raw)} bytes decompressed, {size} expected")
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        temporary = f"{path}.{os.getpid()}.tmp"
        with open(temporary, "wb") as f:
            f.write(raw)
        os.replace(temporary, path)
    except OSError:
        pass
    return raw


def write(path: str | None = None) -> str:
    """Build the tables and write them (:func:`encode`) to the package file."""
    target = path or str(resources.files(__package__).joinpath(DATA_FILE))
    data = encode(build())
    with open(target, "wb") as f:
        f.write(data)
    return target


if __name__ == "__main__":
    print(write())
