"""The page's PNG icons (192 and 512 px), drawn from the shapes of icon.svg with the standard
library only (zlib for PNG), so the build needs no image tool.

    python3 scripts/icons.py OUT_DIR      # writes icon-192.png and icon-512.png

The shapes are rounded rectangles on a 512-unit square, as in icon.svg; each pixel is covered
4 x 4 times so edges are smooth.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

BACKGROUND = (0x1D, 0x4F, 0x73)
BARS = (255, 255, 255)
# (x, y, width, height, corner radius, colour), in icon.svg's 512 units, painted in order
SHAPES = ((0, 0, 512, 512, 96, BACKGROUND),
          (112, 136, 288, 56, 28, BARS), (112, 228, 216, 56, 28, BARS), (112, 320, 144, 56, 28, BARS))
SAMPLES = 4


def _inside(px: float, py: float, x: float, y: float, w: float, h: float, r: float) -> bool:
    if not (x <= px <= x + w and y <= py <= y + h):
        return False
    cx = min(max(px, x + r), x + w - r)
    cy = min(max(py, y + r), y + h - r)
    return (px - cx) ** 2 + (py - cy) ** 2 <= r * r


def _row_spans(size: int, shape, row: int) -> list[tuple[int, float, float]]:
    """``(column, x0, x1)``: for each sub-row of pixel row ``row``, the covered x range."""
    x, y, w, h, r, _ = shape
    scale = 512 / size
    spans = []
    for s in range(SAMPLES):
        py = (row + (s + 0.5) / SAMPLES) * scale
        if not (y <= py <= y + h):
            continue
        dy = max(y + r - py, py - (y + h - r), 0)
        inset = r - math.sqrt(max(r * r - dy * dy, 0)) if dy else 0
        spans.append((s, (x + inset) / scale, (x + w - inset) / scale))
    return spans


def draw(size: int) -> bytes:
    """RGBA pixels, row by row (transparent outside the rounded square)."""
    rows = []
    for row in range(size):
        pixels = [[0.0, 0.0, 0.0, 0.0] for _ in range(size)]  # premultiplied r, g, b, alpha
        for shape in SHAPES:
            colour = shape[5]
            cover = [0.0] * size
            for _, x0, x1 in _row_spans(size, shape, row):
                for column in range(max(0, int(x0)), min(size, math.ceil(x1))):
                    # the share of this sub-row's pixel inside [x0, x1]
                    cover[column] += (min(column + 1, x1) - max(column, x0)) / SAMPLES
            for column, c in enumerate(cover):
                if c <= 0:
                    continue
                c = min(c, 1.0)
                p = pixels[column]
                for i in range(3):
                    p[i] = colour[i] * c + p[i] * (1 - c)
                p[3] = c + p[3] * (1 - c)
        line = bytearray([0])  # PNG filter type 0
        for r, g, b, a in pixels:
            if a:
                line += bytes((round(r / a), round(g / a), round(b / a), round(a * 255)))
            else:
                line += b"\0\0\0\0"
        rows.append(bytes(line))
    return b"".join(rows)


def png(size: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(draw(size), 9))
            + chunk(b"IEND", b""))


def write_icons(out: Path) -> list[str]:
    names = []
    for size in (192, 512):
        name = f"icon-{size}.png"
        (out / name).write_bytes(png(size))
        names.append(name)
    return names


if __name__ == "__main__":
    print(write_icons(Path(sys.argv[1] if len(sys.argv) > 1 else ".")))
