"""The tournament report's charts, written as standalone SVG by this module.

Why not a plotting library: matplotlib took 0.45 s to import and about 0.7 s to draw the four
charts, more than a 3000-game tournament of random bots spends playing (issue #13). The report
needs three kinds of chart only (bars with intervals, points with error bars, horizontal bars),
and SVG is text, so a few string templates draw them in milliseconds. There are no font metrics
here: text widths are estimated generously (:func:`text_width`) and the layout leaves room.

Every data mark carries a ``class`` (``bar``, ``error``, ``point``, ``ordinal``, ``reference``)
and a ``<title>`` child holding its exact value: a browser shows it as a tooltip, and tests read
the drawing back with an XML parser. All text goes through :func:`escape` (bot names come from
the user).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

BLUE = "#1f77b4"
RED = "#d62728"
INK = "#222222"
MUTED = "#777777"
GRID = "#e4e4e4"
ZERO_LINE = "#b0b0b0"  # the grid line at zero, inside an axis that spans negative values
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
SIZE = 12
TITLE_SIZE = 14
LINE = 15  # line height of SIZE text
PLOT_TOP = 60  # below the title and the legend row
PLOT_HEIGHT = 260
LONGEST = 40  # characters of a label drawn; the tooltip keeps the whole name

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_BREAKS = re.compile(r"[^\s:,=]*[:,=]?\s*")
_NARROW = frozenset("ijlt.,:;!|'()[]{} 1f")
_WIDE = frozenset("mwMW@%&—")


def escape(text: str) -> str:
    """``text`` made safe inside an element or a double-quoted attribute; characters XML cannot
    hold at all (control characters) become U+FFFD, so the file always parses.

    >>> escape('<b> & "c"\\x01')
    '&lt;b&gt; &amp; &quot;c&quot;\ufffd'
    """
    text = _NOT_XML.sub("\ufffd", text)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;")


def text_width(text: str, size: float = SIZE) -> float:
    """An estimate of ``text``'s width in pixels: no font metrics, so err wide (DejaVu Sans, a
    common default sans-serif, is among the widest)."""
    return size * sum(
        0.36 if c in _NARROW else 0.92 if c in _WIDE else 0.72 if c.isupper() else 0.63
        for c in text
    )


def nice_ticks(low: float, high: float, count: int = 6) -> list[float]:
    """About ``count`` round steps (1, 2, 2.5 or 5 times a power of ten) from at or below
    ``low`` to at or above ``high``: the ticks of an axis, its ends being the first and last.

    >>> nice_ticks(0, 1)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    >>> nice_ticks(1.27, 58.1)
    [0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0]
    >>> nice_ticks(-3.2, 12)
    [-5.0, 0.0, 5.0, 10.0, 15.0]
    >>> nice_ticks(0.1, 6.18)
    [0.0, 2.0, 4.0, 6.0, 8.0]
    >>> nice_ticks(25, 25)  # one value: an axis around it
    [22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0]
    >>> nice_ticks(0, 0), nice_ticks(-0.4, -0.1)
    ([0.0, 0.2, 0.4, 0.6, 0.8, 1.0], [-0.4, -0.35, -0.3, -0.25, -0.2, -0.15, -0.1])
    """
    if not (math.isfinite(low) and math.isfinite(high)):
        low, high = 0.0, 1.0
    low, high = min(low, high), max(low, high)
    if high - low <= max(1e-9 * max(abs(low), abs(high)), 1e-12):
        pad = abs(low) / 10
        low, high = (low - pad, high + pad) if pad > 1e-12 else (0.0, 1.0)
    raw = (high - low) / count
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw * (1 - 1e-9))
    first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
    digits = _decimals(step) + 1
    return [round(k * step, digits) + 0.0 for k in range(first, last + 1)]


def _decimals(step: float) -> int:
    """Decimals that print every multiple of ``step`` exactly: 0 for 5, 1 for 2.5, 2 for 0.05."""
    for d in range(15):
        scaled = step * 10**d
        if scaled > 0.999 and abs(scaled - round(scaled)) < 1e-6 * scaled:
            return d
    return 15


def _tick_text(value: float, step: float, percent: bool) -> str:
    """A tick's label, with as many decimals as the step needs and a true minus sign."""
    if percent:
        return f"{100 * value:.{_decimals(100 * step)}f}%".replace("-", "−")
    return f"{value:.{_decimals(step)}f}".replace("-", "−")


def percent(x: float) -> str:
    """A share as a percentage with one decimal, as the report's tables print it."""
    return f"{100 * x:.1f}%"


def _n(x: float) -> str:
    """A coordinate: two decimals at most, trailing zeros dropped."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def _short(label: str) -> str:
    return label if len(label) <= LONGEST else label[: LONGEST - 1] + "…"


class _Drawing:
    """The elements of one SVG document, in drawing order (later ones on top)."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(
        self, tag: str, content: str = "", tip: str | None = None, **attrs: str | float
    ) -> None:
        """One element; ``class_`` and ``stroke_width`` become ``class`` and ``stroke-width``;
        ``content`` must already be escaped, ``tip`` (the tooltip) is escaped here."""
        attributes = "".join(
            f' {name.rstrip("_").replace("_", "-")}="'
            f'{_n(value) if isinstance(value, float | int) else escape(value)}"'
            for name, value in attrs.items()
        )
        inner = (f"<title>{escape(tip)}</title>" if tip is not None else "") + content
        self.parts.append(
            f"<{tag}{attributes}>{inner}</{tag}>" if inner else f"<{tag}{attributes}/>"
        )

    def text(self, x: float, y: float, text: str, **attrs: str | float) -> None:
        self.add("text", escape(text), None, x=x, y=y, **attrs)

    def line(self, x1: float, y1: float, x2: float, y2: float, **attrs: str | float) -> None:
        self.add("line", "", None, x1=x1, y1=y1, x2=x2, y2=y2, **attrs)

    def title(self, text: str, width: float) -> None:
        self.text(
            width / 2, 24, text, text_anchor="middle", font_size=TITLE_SIZE, font_weight="bold"
        )

    def legend(self, right: float, entries: Sequence[tuple[str, str]]) -> None:
        """Entries (a sample mark as SVG, its text), right-aligned to ``right`` in the row
        between the title and the plot, where they cannot hide any data. A sample is drawn in a
        24-pixel box whose vertical middle is at y = 0."""
        y = PLOT_TOP - 16
        x = right - sum(34 + text_width(text) + 16 for _, text in entries) + 16
        for sample, text in entries:
            move = f"translate({_n(x)} {_n(y)})"
            self.parts.append(f'<g class="legend" transform="{move}">{sample}</g>')
            self.text(x + 30, y + 4, text)
            x += 34 + text_width(text) + 16

    def svg(self, width: float, height: float, title: str) -> str:
        """The standalone document: SVG 1.1 with its size, on a white background (legible in a
        dark-themed viewer too)."""
        w, h = math.ceil(width), math.ceil(height)
        return "\n".join(
            [
                '<?xml version="1.0" encoding="UTF-8"?>',
                f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}"'
                f' viewBox="0 0 {w} {h}" font-family="{FONT}" font-size="{SIZE}" fill="{INK}">',
                f"<title>{escape(title)}</title>",
                '<rect class="background" width="100%" height="100%" fill="#ffffff"/>',
                *self.parts,
                "</svg>",
                "",
            ]
        )


@dataclass(frozen=True)
class _Categories:
    """An x axis with one slot per category: how wide a slot must be, each label's lines (or
    the label alone when labels are rotated), and the room the labels take."""

    slot: float
    lines: list[list[str]]
    rotated: bool
    depth: float  # below the axis
    reach: list[float]  # how far left of its slot's middle each label goes

    ANGLE = 40.0

    @classmethod
    def layout(cls, labels: Sequence[str]) -> _Categories:
        """Labels side by side when they fit in a slot of at most 132 pixels, wrapped on two
        or three lines (after ``:``, ``,``, ``=`` or at a space: bot specs) when that makes them
        fit, else rotated."""
        shown = [_short(label) for label in labels]
        wrapped = [_wrap(label, 116) for label in shown]
        if all(lines is not None for lines in wrapped):
            lines = [w for w in wrapped if w is not None]
            widest = max((text_width(line) for w in lines for line in w), default=0.0)
            tallest = max((len(w) for w in lines), default=1)
            slot = max(64.0, widest + 16)
            reach = [max(text_width(line) for line in w) / 2 for w in lines]
            return cls(slot, lines, False, 10 + LINE * tallest, reach)
        widths = [text_width(label) for label in shown]
        angle = math.radians(cls.ANGLE)
        return cls(56.0, [[label] for label in shown], True,
                   max(widths) * math.sin(angle) + 24, [w * math.cos(angle) for w in widths])

    def margin(self, slot: float) -> float:
        """The room the labels need left of the plot, slots being ``slot`` wide."""
        return max((r - (i + 0.5) * slot for i, r in enumerate(self.reach)), default=0.0) + 8

    def draw(self, drawing: _Drawing, left: float, slot: float, top: float) -> None:
        """The labels under slots ``slot`` wide (at least ``self.slot``), the first starting at
        ``left``; ``top`` is the axis."""
        for i, lines in enumerate(self.lines):
            x = left + (i + 0.5) * slot
            if self.rotated:
                y = top + 14
                drawing.text(x, y, lines[0], text_anchor="end", class_="category",
                             transform=f"rotate(-{self.ANGLE:g} {_n(x)} {_n(y)})")
                continue
            spans = "".join(
                f'<tspan x="{_n(x)}" dy="{0 if k == 0 else LINE}">{escape(line)}</tspan>'
                for k, line in enumerate(lines)
            )
            drawing.add("text", spans, x=x, y=top + 18, text_anchor="middle", class_="category")


def _wrap(label: str, width: float) -> list[str] | None:
    """``label`` on lines no wider than ``width``, greedily; None when a piece alone is too
    wide or it needs more than three lines."""
    lines: list[str] = []
    line = ""
    for piece in (p for p in _BREAKS.findall(label) if p):
        if line and text_width((line + piece).rstrip()) > width:
            lines.append(line.rstrip())
            line = piece
        else:
            line += piece
    lines.append(line.rstrip())
    if len(lines) > 3 or any(text_width(line) > width for line in lines):
        return None
    return lines


def _y_axis(
    drawing: _Drawing, ticks: Sequence[float], left: float, right: float, label: str, percent: bool
) -> None:
    """Grid lines and labelled ticks of a vertical axis spanning the plot's height, a darker
    line at zero when zero is inside, and the axis label turned upright along it."""
    step = ticks[1] - ticks[0]
    for t in ticks:
        y = _scale(t, ticks[0], ticks[-1], PLOT_TOP + PLOT_HEIGHT, PLOT_TOP)
        drawing.line(left, y, right, y, stroke=_grid_colour(t, ticks), stroke_width=1,
                     class_="grid")
        drawing.text(left - 6, y + 4, _tick_text(t, step, percent), text_anchor="end",
                     class_="tick")
    middle = PLOT_TOP + PLOT_HEIGHT / 2
    label_x = left - _tick_room(ticks, percent) - 20
    drawing.text(label_x, middle, label, text_anchor="middle",
                 transform=f"rotate(-90 {_n(label_x)} {_n(middle)})")


def _scale(value: float, low: float, high: float, start: float, end: float) -> float:
    """``value`` of the axis ``low``..``high`` as a coordinate between ``start`` and ``end``."""
    return start + (end - start) * (value - low) / (high - low)


def _tick_room(ticks: Sequence[float], percent: bool) -> float:
    step = ticks[1] - ticks[0]
    return max(text_width(_tick_text(t, step, percent)) for t in ticks)


def _frame(left: float, right: float, top: float, bottom: float) -> str:
    """The plot's left and bottom axis lines as one path."""
    return (f'<path class="axis" d="M{_n(left)} {_n(top)}V{_n(bottom)}H{_n(right)}"'
            f' fill="none" stroke="{INK}" stroke-width="1"/>')


def _cap_path(x: float, y1: float, y2: float, cap: float) -> str:
    """A vertical error bar from ``y1`` to ``y2`` with caps ``cap`` pixels wide."""
    h = cap / 2
    return (f"M{_n(x)} {_n(y1)}V{_n(y2)}M{_n(x - h)} {_n(y1)}h{_n(cap)}"
            f"M{_n(x - h)} {_n(y2)}h{_n(cap)}")


def _title_room(title: str) -> float:
    """The width a bold title needs, with a margin on each side."""
    return 1.1 * text_width(title, TITLE_SIZE) + 24


class _CategoryPlot:
    """A chart with one slot per category along the bottom and a value axis up the side (the
    share and rating charts): the layout, the axis and the frame; the chart adds its marks to
    ``drawing``. The plot is at least 340 pixels wide, growing with the number of categories."""

    def __init__(
        self, labels: Sequence[str], ticks: Sequence[float], percent: bool, axis_label: str
    ) -> None:
        self.categories = _Categories.layout(labels)
        self.slot = max(len(labels) * self.categories.slot, 340.0) / max(len(labels), 1)
        self.left = max(36 + _tick_room(ticks, percent), self.categories.margin(self.slot))
        self.right = self.left + self.slot * max(len(labels), 1)
        self.bottom = PLOT_TOP + PLOT_HEIGHT
        self.drawing = _Drawing()
        _y_axis(self.drawing, ticks, self.left, self.right, axis_label, percent)

    def centre(self, i: int) -> float:
        """The x of category ``i``'s slot centre."""
        return self.left + (i + 0.5) * self.slot

    def finish(self, legend: Sequence[tuple[str, str]], title: str) -> str:
        """The SVG text: the marks added, then the frame, the category labels, the legend
        and the title."""
        drawing = self.drawing
        drawing.parts.append(_frame(self.left, self.right, PLOT_TOP, self.bottom))
        self.categories.draw(drawing, self.left, self.slot, self.bottom)
        drawing.legend(self.right, legend)
        width = max(self.right + 20, _title_room(title))
        drawing.title(title, width)
        return drawing.svg(width, self.bottom + self.categories.depth + 8, title)


def _grid_colour(tick: float, ticks: Sequence[float]) -> str:
    """A grid line's colour: darker at zero when zero is inside the axis."""
    return ZERO_LINE if tick == 0 and tick != ticks[0] else GRID


def share_chart(
    labels: Sequence[str], shares: Sequence[float], intervals: Sequence[Sequence[float]], *,
    title: str, axis_label: str, reference: float, reference_label: str, colour: str = BLUE,
) -> str:
    """Vertical bars of shares (axis 0 to 100%), each with its interval as an error bar, and a
    dashed reference line named in the legend (the even share)."""
    plot = _CategoryPlot(labels, nice_ticks(0.0, 1.0, 5), True, axis_label)
    drawing, bottom = plot.drawing, plot.bottom

    def y(v: float) -> float:
        return _scale(min(max(v, 0.0), 1.0), 0.0, 1.0, bottom, PLOT_TOP)

    bar = min(0.6 * plot.slot, 64.0)
    for i, (label, share, (low, high)) in enumerate(zip(labels, shares, intervals, strict=True)):
        x = plot.centre(i)
        tip = f"{label}: {percent(share)} ({percent(low)} – {percent(high)})"
        drawing.add("rect", tip=tip, class_="bar", x=x - bar / 2, y=y(share), width=bar,
                    height=bottom - y(share), fill=colour)
        drawing.add("path", tip=tip, class_="error", fill="none", stroke=INK, stroke_width=1.5,
                    d=_cap_path(x, y(min(low, share)), y(max(high, share)), min(12.0, bar / 2)))
    dash = f'stroke="{MUTED}" stroke-width="1.5" stroke-dasharray="6 4"'
    drawing.add("line", tip=reference_label, class_="reference", x1=plot.left,
                y1=y(reference), x2=plot.right, y2=y(reference), stroke=MUTED,
                stroke_width=1.5, stroke_dasharray="6 4")
    sample = f'<line x1="0" y1="0" x2="24" y2="0" {dash}/>'
    return plot.finish([(sample, reference_label)], title)


def rating_chart(
    labels: Sequence[str], mus: Sequence[float], sigmas: Sequence[float],
    ordinals: Sequence[float], *, title: str, axis_label: str = "rating", colour: str = BLUE,
) -> str:
    """Ratings: μ as a point with a ± σ error bar and the ordinal μ − 3σ as an x, per
    category, on an axis fitted to the data (ratings can be negative)."""
    values = [v for m, s, o in zip(mus, sigmas, ordinals, strict=True) for v in (m - s, m + s, o)]
    finite = [v for v in values if math.isfinite(v)]
    ticks = nice_ticks(min(finite, default=0.0), max(finite, default=1.0))
    plot = _CategoryPlot(labels, ticks, False, axis_label)
    drawing, bottom = plot.drawing, plot.bottom

    def y(v: float) -> float:
        return _scale(v, ticks[0], ticks[-1], bottom, PLOT_TOP)

    for i, (label, mu, sigma, ordinal) in enumerate(
        zip(labels, mus, sigmas, ordinals, strict=True)
    ):
        x = plot.centre(i)
        tip = f"{label}: μ ± σ = {mu:.2f} ± {sigma:.2f}"
        drawing.add("path", tip=tip, class_="error", fill="none", stroke=colour, stroke_width=1.5,
                    d=_cap_path(x, y(mu - sigma), y(mu + sigma), 12))
        drawing.add("circle", tip=tip, class_="point", cx=x, cy=y(mu), r=4.5, fill=colour)
        drawing.add("path", tip=f"{label}: ordinal μ − 3σ = {ordinal:.2f}", class_="ordinal",
                    fill="none", stroke=colour, stroke_width=2, d=_cross(x, y(ordinal), 4.5))
    stroke = f'fill="none" stroke="{colour}"'
    point = (f'<path d="{_cap_path(12, -8, 8, 10)}" {stroke} stroke-width="1.5"/>'
             f'<circle cx="12" cy="0" r="4.5" fill="{colour}"/>')
    cross = f'<path d="{_cross(12, 0, 4.5)}" {stroke} stroke-width="2"/>'
    return plot.finish([(point, "μ ± σ"), (cross, "ordinal μ − 3σ")], title)


def _cross(x: float, y: float, half: float) -> str:
    """An x mark centred on (``x``, ``y``)."""
    return (f"M{_n(x - half)} {_n(y - half)}l{_n(2 * half)} {_n(2 * half)}"
            f"M{_n(x + half)} {_n(y - half)}l{_n(-2 * half)} {_n(2 * half)}")


def bar_chart(
    labels: Sequence[str], values: Sequence[float], *, title: str, axis_label: str,
    colour: str = RED,
) -> str:
    """Horizontal bars from zero, the first value at the bottom (ascending values put the
    largest on top), on an axis fitted to the data and always holding zero."""
    shown = [_short(label) for label in labels]
    finite = [v for v in values if math.isfinite(v)]
    ticks = nice_ticks(min(0.0, *finite), max(0.0, *finite))
    step = ticks[1] - ticks[0]
    left = 16 + max((text_width(label) for label in shown), default=0.0) + 8
    right = left + 360
    top = PLOT_TOP - 20
    row = 26
    bottom = top + row * max(len(labels), 1)
    drawing = _Drawing()

    def x(v: float) -> float:
        return _scale(v, ticks[0], ticks[-1], left, right)

    for t in ticks:
        drawing.line(x(t), top, x(t), bottom, stroke=_grid_colour(t, ticks), stroke_width=1,
                     class_="grid")
        drawing.text(x(t), bottom + 18, _tick_text(t, step, False), text_anchor="middle",
                     class_="tick")
    for i, (label, text, value) in enumerate(zip(labels, shown, values, strict=True)):
        middle = bottom - (i + 0.5) * row
        drawing.add("rect", tip=f"{label}: {value:.2f}", class_="bar", x=min(x(0), x(value)),
                    y=middle - 8, width=abs(x(value) - x(0)), height=16, fill=colour)
        drawing.text(left - 8, middle + 4, text, text_anchor="end", class_="category")
    drawing.parts.append(_frame(left, right, top, bottom))
    drawing.text((left + right) / 2, bottom + 40, axis_label, text_anchor="middle")
    width = max(right + 24, _title_room(title))
    drawing.title(title, width)
    return drawing.svg(width, bottom + 52, title)
