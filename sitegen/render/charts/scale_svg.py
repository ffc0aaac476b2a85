"""The scale chart's SVG, drawn here rather than by vl-convert: a log-log scatter whose only
text is numbers (tick labels), so one drawing serves every language, at about a millisecond a
drawing. vl-convert took 45-100 ms of CPU a drawing on the whole record (252 drawings, wide
and narrow, for 126 charts: about 14 s, drawn twice over by the two language processes that
run at once) and 250 bytes a point; here a point is one <use> of a shape in <defs>.

Shapes are paths in a unit square (-1..1), like Vega's custom symbols; the page's legend draws
the same paths. Text is measured with a wide digit width (Verdana's 0.64 em) so that labels
fit in any reader's font."""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

INK = "currentColor"  # axes, labels, the ideal line: the page's text colour
DIGIT = 0.64  # width of a digit (or separator) in ems, generous


# The shapes of the chip families' looks (content/chip_looks.py: SHAPES; a family's colour
# and shape go together, so the chart reads without colour): corners in a unit square (-1..1),
# y down; "circle" is drawn as one. The Vega charts draw the same paths (vega_shape).
SHAPES = {
    "circle": (),
    "square": ((-0.8, -0.8), (0.8, -0.8), (0.8, 0.8), (-0.8, 0.8)),
    "triangle-up": ((0, -1), (1, 0.8), (-1, 0.8)),
    "diamond": ((0, -1.1), (1, 0), (0, 1.1), (-1, 0)),
    "triangle-down": ((0, 1), (1, -0.8), (-1, -0.8)),
    "plus": (
        (-0.35, -1.1),
        (0.35, -1.1),
        (0.35, -0.35),
        (1.1, -0.35),
        (1.1, 0.35),
        (0.35, 0.35),
        (0.35, 1.1),
        (-0.35, 1.1),
        (-0.35, 0.35),
        (-1.1, 0.35),
        (-1.1, -0.35),
        (-0.35, -0.35),
    ),
    "cross": (
        (0.53, -1.03),
        (1.03, -0.53),
        (0.49, 0.0),
        (1.03, 0.53),
        (0.53, 1.03),
        (0.0, 0.49),
        (-0.53, 1.03),
        (-1.03, 0.53),
        (-0.49, 0.0),
        (-1.03, -0.53),
        (-0.53, -1.03),
        (0.0, -0.49),
    ),  # the plus turned 45°
    "triangle-right": ((1, 0), (-0.8, 1), (-0.8, -1)),
}


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    font: int  # px; the narrow layout is shown unscaled, so this is its size on a phone
    radius: float  # of a point's shape
    x_ticks: int  # at most
    y_ticks: int


WIDE = Layout(width=620, height=340, font=13, radius=4.6, x_ticks=9, y_ticks=7)
NARROW = Layout(width=288, height=260, font=12, radius=4.0, x_ticks=5, y_ticks=5)


def log_domain(values: list[float], pad: float) -> tuple[float, float]:
    """The values' range widened by the factor `pad` each way (a single value: ×/÷ 2)."""
    low, high = min(values), max(values)
    if low == high:
        return low / 2, high * 2
    return low / pad, high * pad


def x_ticks(low: float, high: float, most: int) -> list[int]:
    """Powers of two within the domain, from the first one in it, every k-th with the smallest
    k that gives at most `most` (8, 16, 32, … or 8, 32, 128, … or 1, 8, 64, …)."""
    first, last = math.ceil(math.log2(low)), math.floor(math.log2(high))
    for step in range(1, 16):
        ticks = [2**e for e in range(first, last + 1, step)]
        if len(ticks) <= most:
            return ticks
    return []


def y_ticks(low: float, high: float, most: int) -> list[float]:
    """Round numbers within the domain, at most `most`: 1-2-5 per decade, else 1-3, else the
    powers of ten (every other one when those are too many); a domain within one decade gets
    1-1.5-2-3-5-7 when 1-2-5 gives fewer than two."""
    decades = range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1)

    def within(steps):
        return [float(f"{s * 10.0**d:.6g}") for d in decades for s in steps if low <= s * 10.0**d <= high]

    ticks = within((1, 2, 5))
    if len(ticks) < 2:
        finer = within((1, 1.5, 2, 3, 5, 7))
        return finer if len(finer) <= most else ticks
    for steps in ((1, 2, 5), (1, 3), (1,)):
        ticks = within(steps)
        if len(ticks) <= most:
            return ticks
    return ticks[:: math.ceil(len(ticks) / most)]


def label(value: float) -> str:
    """A tick's number: thousands with a comma, no trailing zeros (the same in every language,
    like the site's other charts)."""
    return f"{value:,.0f}" if value >= 1 else f"{value:.6g}"


def _text_width(text: str, font: int) -> float:
    return len(text) * DIGIT * font


def _f(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


@dataclass(frozen=True)
class Frame:
    """The plot's box in the drawing and its two log scales."""

    left: float
    top: float
    right: float
    bottom: float
    x_domain: tuple[float, float]
    y_domain: tuple[float, float]

    def x(self, n: float) -> float:
        low, high = (math.log(v) for v in self.x_domain)
        return self.left + (math.log(n) - low) / (high - low) * (self.right - self.left)

    def y(self, t: float) -> float:
        low, high = (math.log(v) for v in self.y_domain)
        return self.top + (high - math.log(t)) / (high - low) * (self.bottom - self.top)


def ideal_segment(work: float, x_domain, y_domain) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The ends of the line t = work / n inside the plot's domains (None when it misses)."""
    start = max(x_domain[0], work / y_domain[1])
    end = min(x_domain[1], work / y_domain[0])
    if start >= end:
        return None
    return (start, work / start), (end, work / end)


def draw(points: list[dict], work: float, shapes: list[tuple[str, str]], layout: Layout, ident: str) -> str:
    """The SVG of `points` ({"n": accelerators, "t": minutes, "g": index into `shapes`, "h":
    1 when drawn hollow}), the ideal line of `work` accelerator-minutes (dashed), at `layout`.
    `shapes` are (shape name, colour) per group; `ident` prefixes the drawing's ids (unique in the
    page)."""
    x_domain = log_domain([p["n"] for p in points], 1.6)
    y_domain = log_domain([p["t"] for p in points], 1.4)
    xs = x_ticks(*x_domain, layout.x_ticks)
    ys = y_ticks(*y_domain, layout.y_ticks)
    font = layout.font
    gap = font * 0.5
    left = max((_text_width(label(v), font) for v in ys), default=0) + gap + 4
    last = _text_width(label(xs[-1]), font) / 2 if xs else 0
    frame = Frame(
        left, font * 0.7, layout.width - max(8.0, last), layout.height - font - gap - 6, x_domain, y_domain
    )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart-svg scale-svg" width="{layout.width}" '
        f'height="{layout.height}" viewBox="0 0 {layout.width} {layout.height}" '
        f'font-size="{font}" focusable="false" aria-hidden="true">',
        "<defs>"
        + "".join(
            f'<path id="{ident}-s{i}" d="{shape_path(shape, layout.radius)}" stroke-width="1.5"/>'
            for i, (shape, _) in enumerate(shapes)
        )
        + "</defs>",
        _grid(frame, xs, ys),
        _axes(frame, xs, ys, font, gap),
    ]
    segment = ideal_segment(work, x_domain, y_domain)
    if segment:
        (n1, t1), (n2, t2) = segment
        parts.append(
            f'<path class="scale-ideal" d="M{_f(frame.x(n1))},{_f(frame.y(t1))}L{_f(frame.x(n2))},'
            f'{_f(frame.y(t2))}" stroke="{INK}" stroke-width="1.5" stroke-dasharray="6 4" fill="none"/>'
        )
    # one group per legend entry, filled points first and hollow (carried-over) ones on top:
    # their outline stays visible over a filled point at the same place
    for hollow in (0, 1):
        for group, (_, colour) in enumerate(shapes):
            marks = [p for p in points if p["g"] == group and p["h"] == hollow]
            if not marks:
                continue
            uses = "".join(
                f'<use href="#{ident}-s{group}" x="{_f(frame.x(p["n"]))}" y="{_f(frame.y(p["t"]))}"/>'
                for p in marks
            )
            fill, mark = ("none", ' data-hollow="1"') if hollow else (colour, "")
            parts.append(
                f'<g class="scale-points" data-g="{group}"{mark} fill="{fill}" stroke="{colour}">{uses}</g>'
            )
    parts.append("</svg>")
    return "".join(parts)


def shape_path(shape: str, radius: float) -> str:
    """The SVG path of a shape (a name of SHAPES) at `radius`, centred on 0,0."""
    if shape == "circle":
        r = _f(radius)
        return f"M{r},0A{r},{r},0,1,1,-{r},0A{r},{r},0,1,1,{r},0Z"
    return "M" + "L".join(f"{_f(x * radius)},{_f(y * radius)}" for x, y in SHAPES[shape]) + "Z"


def vega_shape(shape: str) -> str:
    """A shape as a Vega-Lite point's `shape`: the same path in Vega's unit square."""
    if shape == "circle":
        return "circle"
    return "M" + "L".join(f"{x:g},{y:g}" for x, y in SHAPES[shape]) + "Z"


def _grid(frame: Frame, xs, ys) -> str:
    lines = [f"M{_f(frame.x(v))},{_f(frame.top)}V{_f(frame.bottom)}" for v in xs]
    lines += [f"M{_f(frame.left)},{_f(frame.y(v))}H{_f(frame.right)}" for v in ys]
    return f'<path class="scale-grid" d="{"".join(lines)}" stroke="{INK}" stroke-opacity="0.2" fill="none"/>'


def _axes(frame: Frame, xs, ys, font: int, gap: float) -> str:
    domain = (
        f'<path class="scale-domain" d="M{_f(frame.left)},{_f(frame.top)}V{_f(frame.bottom)}'
        f'H{_f(frame.right)}" stroke="{INK}" fill="none"/>'
    )
    x_labels = "".join(
        f'<text x="{_f(frame.x(v))}" y="{_f(frame.bottom + gap + font * 0.8)}">{escape(label(v))}</text>'
        for v in xs
    )
    y_labels = "".join(
        f'<text x="{_f(frame.left - gap)}" y="{_f(frame.y(v) + font * 0.35)}">{escape(label(v))}</text>'
        for v in ys
    )
    return (
        f'{domain}<g class="scale-x-axis" fill="{INK}" text-anchor="middle">{x_labels}</g>'
        f'<g class="scale-y-axis" fill="{INK}" text-anchor="end">{y_labels}</g>'
    )
