"""The training run's strength chart, drawn as a PNG by this module (NumPy and zlib only).

Why not a plotting library: none is a dependency, and the tournament's charts
(:mod:`oriflamme.tournament.charts`) are drawn the same way, by hand, for the same reason. The
chart is a small raster: lines and error bars on a pixel array, text in a built-in 5x7 pixel
font (capitals, digits and a few signs; other letters are drawn as capitals), written with
the PNG format's own compression (zlib). One line per opponent: the network's share of victory
at each evaluation, with its 95% interval as a bar, over the hours of training; a dashed line
marks the fair share (1 / players).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Pixels = npt.NDArray[np.uint8]
Colour = tuple[int, int, int]

WHITE: Colour = (255, 255, 255)
INK: Colour = (34, 34, 34)
MUTED: Colour = (119, 119, 119)
GRID: Colour = (228, 228, 228)
#: Line colours, one per opponent (the tournament charts' blue and red first).
COLOURS: tuple[Colour, ...] = ((31, 119, 180), (214, 39, 40), (44, 160, 44), (148, 103, 189),
                               (255, 127, 14), (140, 86, 75))
WIDTH, HEIGHT = 760, 440
LEFT, RIGHT, TOP, BOTTOM = 70, 24, 64, 56
SCALE = 2  # font pixels per glyph pixel

# 5x7 glyphs: seven rows of five bits (the high bit at the left), in hex.
_GLYPH_ROWS: dict[str, str] = {
    '0': "0e11131519110e", '1': "040c040404040e", '2': "0e11010204081f", '3': "1f02040201110e",
    '4': "02060a121f0202", '5': "1f101e0101110e", '6': "0608101e11110e", '7': "1f010204080808",
    '8': "0e11110e11110e", '9': "0e11110f01020c", 'A': "0e11111f111111", 'B': "1e11111e11111e",
    'C': "0e11101010110e", 'D': "1c12111111121c", 'E': "1f10101e10101f", 'F': "1f10101e101010",
    'G': "0e11101711110f", 'H': "1111111f111111", 'I': "0e04040404040e", 'J': "0702020202120c",
    'K': "11121418141211", 'L': "1010101010101f", 'M': "111b1515111111", 'N': "11111915131111",
    'O': "0e11111111110e", 'P': "1e11111e101010", 'Q': "0e11111115120d", 'R': "1e11111e141211",
    'S': "0f10100e01011e", 'T': "1f040404040404", 'U': "1111111111110e", 'V': "11111111110a04",
    'W': "1111111515150a", 'X': "11110a040a1111", 'Y': "1111110a040404", 'Z': "1f01020408101f",
    ' ': "00000000000000", '.': "00000000000c0c", ',': "000000000c0408", '%': "18190204081303",
    '-': "0000001f000000", ':': "000c0c000c0c00", '(': "02040808080402", ')': "08040202020408",
    '/': "00010204081000", '=': "00001f001f0000", '+': "0004041f040400", '_': "0000000000001f",
    '<': "02040810080402", '>': "08040201020408", "'": "0c0c0408000000",
}
_GLYPHS: dict[str, bytes] = {k: bytes.fromhex(v) for k, v in _GLYPH_ROWS.items()}
_UNKNOWN = bytes.fromhex("1f11111111111f")  # a box for any other character


@dataclass(frozen=True, slots=True)
class Series:
    """One line: its name and its points ``(x, share, low, high)``."""

    name: str
    points: Sequence[tuple[float, float, float, float]]


def text_width(text: str) -> int:
    return len(text) * 6 * SCALE


class Canvas:
    """A white RGB image to draw on."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.pixels: Pixels = np.full((height, width, 3), 255, dtype=np.uint8)

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour: Colour) -> None:
        """Fill the rectangle from (x0, y0) to (x1, y1), both included, clipped."""
        a, b = sorted((round(x0), round(x1)))
        c, d = sorted((round(y0), round(y1)))
        a, c = max(a, 0), max(c, 0)
        b, d = min(b, self.width - 1), min(d, self.height - 1)
        if a <= b and c <= d:
            self.pixels[c:d + 1, a:b + 1] = colour

    def line(self, x0: float, y0: float, x1: float, y1: float, colour: Colour,
             thick: int = 2, dash: int = 0) -> None:
        """A straight line ``thick`` pixels wide (``dash``: on and off every that many)."""
        steps = max(1, int(2 * max(abs(x1 - x0), abs(y1 - y0))))
        half = thick // 2
        for i in range(steps + 1):
            if dash and (i // (2 * dash)) % 2:
                continue
            x = x0 + (x1 - x0) * i / steps
            y = y0 + (y1 - y0) * i / steps
            self.rect(x - half, y - half, x - half + thick - 1, y - half + thick - 1, colour)

    def text(self, x: float, y: float, text: str, colour: Colour = INK) -> None:
        """``text`` with its top left corner at (x, y)."""
        for k, char in enumerate(text):
            glyph = _GLYPHS.get(char.upper(), _UNKNOWN)
            left = x + k * 6 * SCALE
            for row, bits in enumerate(glyph):
                for column in range(5):
                    if bits >> (4 - column) & 1:
                        self.rect(left + column * SCALE, y + row * SCALE,
                                  left + column * SCALE + SCALE - 1,
                                  y + row * SCALE + SCALE - 1, colour)

    def png(self) -> bytes:
        return png_bytes(self.pixels)


def png_bytes(pixels: Pixels) -> bytes:
    """An RGB image (height x width x 3, uint8) as a PNG file."""
    height, width, _ = pixels.shape
    rows = b"".join(b"\x00" + pixels[y].tobytes() for y in range(height))  # filter: none

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + tag + data
                + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def _ticks(high: float, count: int = 5) -> list[float]:
    """Round ticks from 0 to at least ``high``."""
    if high <= 0:
        return [0.0, 1.0]
    raw = high / count
    power = 10 ** np.floor(np.log10(raw))
    step = min((m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw), default=raw)
    ticks = [0.0]
    while ticks[-1] < high - 1e-12:
        ticks.append(round(ticks[-1] + float(step), 10))
    return ticks


def _label(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if value % 1 else f"{value:.0f}"


def strength_chart(series: Sequence[Series], fair: float, title: str,
                   x_label: str = "hours of training") -> bytes:
    """The PNG of the network's share of victory against each opponent over training."""
    canvas = Canvas(WIDTH, HEIGHT)
    left, right, top, bottom = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM
    xs = [p[0] for s in series for p in s.points]
    if max(xs, default=1.0) < 2 and x_label.startswith("hours"):  # a short run: in minutes
        series = [Series(s.name, [(60 * x, y, low, high) for x, y, low, high in s.points])
                  for s in series]
        xs = [60 * x for x in xs]
        x_label = "minutes" + x_label[len("hours"):]
    x_ticks = _ticks(max(xs, default=1.0))
    x_high = x_ticks[-1]
    y_ticks = [i / 5 for i in range(6)]

    def px(x: float) -> float:
        return left + (right - left) * x / x_high

    def py(y: float) -> float:
        return bottom - (bottom - top) * y

    for tick in y_ticks:
        canvas.line(left, py(tick), right, py(tick), GRID, thick=1)
        label = f"{round(tick * 100)}%"
        canvas.text(left - 8 - text_width(label), py(tick) - 7, label, MUTED)
    for tick in x_ticks:
        canvas.line(px(tick), bottom, px(tick), bottom + 5, MUTED, thick=1)
        label = _label(tick)
        canvas.text(px(tick) - text_width(label) / 2, bottom + 10, label, MUTED)
    canvas.line(left, bottom, right, bottom, INK, thick=1)
    canvas.line(left, top, left, bottom, INK, thick=1)
    canvas.line(left, py(fair), right, py(fair), MUTED, thick=1, dash=4)
    canvas.text(right - text_width("fair share"), py(fair) - 18, "fair share", MUTED)
    canvas.text(left, 12, title[:52], INK)
    canvas.text((left + right - text_width(x_label)) / 2, HEIGHT - 22, x_label, MUTED)
    legend_x = left
    for k, s in enumerate(series):
        colour = COLOURS[k % len(COLOURS)]
        canvas.rect(legend_x, 38, legend_x + 11, 49, colour)
        name = f"vs {s.name}"[:24]
        canvas.text(legend_x + 18, 37, name, INK)
        legend_x += 18 + text_width(name) + 24
        previous = None
        for x, share, low, high in s.points:
            canvas.line(px(x), py(low), px(x), py(high), colour, thick=1)
            canvas.rect(px(x) - 2, py(share) - 2, px(x) + 2, py(share) + 2, colour)
            if previous is not None:
                canvas.line(previous[0], previous[1], px(x), py(share), colour)
            previous = (px(x), py(share))
    return canvas.png()
