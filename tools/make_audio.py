"""Regenerate the table's spoken call-outs (web/static/audio/*.wav) with Debian's espeak-ng.

Each call-out (碰 杠 胡 亮倒 自摸 过, the words js/audio.js plays) and each tile's name (一万 …
九条, 白板 发财 红中: ``tile-5p.wav``, said for every discard, issue 35) is spoken by the Mandarin voice
(``espeak-ng -v cmn``), its leading and trailing silence cut, resampled to 16 kHz mono 16-bit
and faded out over 20 ms, so that each file stays small (about 10-25 KB). The files are
committed; run this only to change them:

    apt-get install espeak-ng
    python tools/make_audio.py            # writes src/kawuxing/web/static/audio/
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "src" / "kawuxing" / "web" / "static" / "audio"
# file name (as js/audio.js CALLOUT_FILES names it) -> the words spoken
CALLOUTS = {"peng.wav": "碰", "gang.wav": "杠", "hu.wav": "胡", "liangdao.wav": "亮倒", "zimo.wav": "自摸",
            "guo.wav": "过"}
NUMERALS = "一二三四五六七八九"
SUITS = {"m": "万", "p": "筒", "s": "条"}
# every tile kind of any rule set (R1.1: two of the three suits, and the dragons), MPSZ-named
TILES = {f"tile-{n + 1}{suit}.wav": NUMERALS[n] + word for suit, word in SUITS.items()
         for n in range(9)}
TILES.update({"tile-5z.wav": "白板", "tile-6z.wav": "发财", "tile-7z.wav": "红中"})
RATE = 16000        # Hz, mono, 16-bit
SILENCE = 300       # an absolute sample value below this counts as silence
FADE = 0.02         # s of fade-out at the end
SPEED = 165         # espeak-ng words per minute
PITCH = 45          # espeak-ng pitch, 0-99


def speak(text: str, path: Path) -> None:
    """Write ``text`` spoken by espeak-ng's Mandarin voice to the WAV file ``path``."""
    subprocess.run(["espeak-ng", "-v", "cmn", "-s", str(SPEED), "-p", str(PITCH), "-w", str(path), text],
                   check=True)


def trimmed(samples: np.ndarray) -> np.ndarray:
    """``samples`` (int16, mono) less the silence at both ends (empty if all silent)."""
    loud = np.flatnonzero(np.abs(samples.astype(np.int32)) >= SILENCE)
    return samples[loud[0]:loud[-1] + 1] if loud.size else samples[:0]


def resampled(samples: np.ndarray, rate: int) -> np.ndarray:
    """``samples`` at ``rate`` Hz brought to RATE by linear interpolation (float)."""
    n = max(1, round(len(samples) * RATE / rate))
    return np.interp(np.arange(n) * rate / RATE, np.arange(len(samples)), samples.astype(np.float64))


def faded(samples: np.ndarray) -> np.ndarray:
    """``samples`` (at RATE) with their last FADE seconds ramped down to silence."""
    k = min(len(samples), int(FADE * RATE))
    out = samples.copy()
    if k:
        out[-k:] *= np.linspace(1.0, 0.0, k)
    return out


def convert(src: Path, dst: Path) -> int:
    """Trim, resample to RATE and fade ``src`` into ``dst``; returns the size of ``dst`` in bytes.
    Raises ValueError if ``src`` is not 16-bit mono."""
    with wave.open(str(src)) as w:
        if w.getsampwidth() != 2 or w.getnchannels() != 1:
            raise ValueError(f"{src}: expected 16-bit mono, got {w.getsampwidth() * 8}-bit x{w.getnchannels()}")
        rate = w.getframerate()
        samples = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    out = faded(resampled(trimmed(samples), rate))
    with wave.open(str(dst), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(np.clip(np.round(out), -32768, 32767).astype("<i2").tobytes())
    return dst.stat().st_size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder of the WAV files")
    args = parser.parse_args(argv)
    if not shutil.which("espeak-ng"):
        print("espeak-ng is not installed (apt-get install espeak-ng)", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in {**CALLOUTS, **TILES}.items():
            raw = Path(tmp) / name
            speak(text, raw)
            size = convert(raw, args.out / name)
            print(f"{name}: {text} ({size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
