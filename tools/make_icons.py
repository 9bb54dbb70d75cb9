"""Draw the web app's icons (the home-screen icon of the installed table, issue 35): a 红中
tile on the table's green, as PNG files in src/kawuxing/web/static/icons/:

- ``icon-192.png``, ``icon-512.png``: the tile on a rounded green square (``purpose: any``);
- ``maskable-512.png``: the green to the edges, the tile inside the middle 80 % (``purpose:
  maskable``: a phone may cut the icon to a circle or a squircle).

Needs Pillow (``pip install -e '.[chart]'`` brings it with matplotlib) and a CJK font
(Debian's fonts-wqy-microhei). Run from the project root: ``python tools/make_icons.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).resolve().parents[1] / "src" / "kawuxing" / "web" / "static" / "icons"
FONT = Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
FELT, FELT_DARK, IVORY, EDGE, RED = "#13704a", "#0a432e", "#fbf7ea", "#d9cda8", "#c42b23"


def tile(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    """A 红中 tile filling ``box`` (left, top, right, bottom): its edge, face and character."""
    left, top, right, bottom = box
    w, h = right - left, bottom - top
    r = w * 0.14
    draw.rounded_rectangle((left, top + h * 0.05, right, bottom), r, fill=EDGE)  # the edge
    draw.rounded_rectangle((left, top, right, bottom - h * 0.05), r, fill=IVORY)
    font = ImageFont.truetype(str(FONT), int(w * 0.78))
    draw.text(((left + right) / 2, top + (h * 0.95) / 2), "中", font=font, fill=RED,
              anchor="mm", stroke_width=max(1, round(w * 0.035)), stroke_fill=RED)  # bold


def icon(size: int, maskable: bool) -> Image.Image:
    """The icon, ``size`` pixels square."""
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        draw.rectangle((0, 0, size, size), fill=FELT)
        inner = size * 0.8  # the safe zone: a circle of 80 % of the size
        th = inner * 0.7
    else:
        draw.rounded_rectangle((0, 0, size - 1, size - 1), size * 0.22, fill=FELT,
                               outline=FELT_DARK, width=max(2, size // 64))
        th = size * 0.74
    tw = th * 0.74
    tile(draw, ((size - tw) / 2, (size - th) / 2, (size + tw) / 2, (size + th) / 2))
    return image


def main() -> int:
    if not FONT.exists():
        print(f"error: no font at {FONT} (apt-get install fonts-wqy-microhei)", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in (("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                 ("maskable-512.png", 512, True)):
        icon(size, maskable).save(OUT / name, optimize=True)
        print(OUT / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
