"""Small multiples: one small panel per series (a chip family at one scale, a benchmark on a chip
page), rounds across, time to train up a log axis, so that no panel holds more than one line.
Drawn here like scale_svg.py: the only text in a drawing is numbers and round names, so one
drawing serves every language; the panel's name is HTML above it. Panels of one figure share
their axes (`shared`) where their times compare (one benchmark at one scale); a point carried
over from an earlier round is hollow, and a line never joins rounds of benchmark versions that
MLCommons keeps apart."""

from __future__ import annotations

import math
from html import escape

from sitegen.render.charts.scale_svg import DIGIT, INK, _f, log_domain, shape_path, y_ticks

WIDTH, HEIGHT, FONT, RADIUS = 170, 120, 11, 3.0


def label(value: float) -> str:
    """A tick's number: whole from 10 up (1,000), else up to three significant digits (1.5, 0.25)."""
    return f"{value:,.0f}" if value >= 10 else f"{value:.3g}"


def y_domain(values: list[float]) -> tuple[float, float]:
    return log_domain(values, 1.25)


def panel_svg(
    points: list[dict], rounds: list[str], domain: tuple[float, float], look: dict | None = None
) -> str:
    """One panel: `points` ({"x": index into `rounds`, "t": minutes, "hollow": bool, "apart":
    a version break before it}), x across every round of the figure; its line and points in the
    chip family's look ({"colour", "shape"}, data/chip_looks.yaml; the text's colour without one)."""
    colour = (look or {}).get("colour") or INK
    shape = (look or {}).get("shape") or "circle"
    ys = y_ticks(*domain, 3)
    left = max((len(label(v)) * DIGIT * FONT for v in ys), default=0) + 8
    last = len(rounds[-1]) * DIGIT * FONT / 2 if rounds else 0  # the last round's label, centred
    right, top, bottom = WIDTH - max(8.0, last + 2), 6, HEIGHT - FONT - 8
    step = (right - left) / max(len(rounds) - 1, 1)
    low, high = (math.log(v) for v in domain)

    def x(i: float) -> float:
        return left + (i * step if len(rounds) > 1 else (right - left) / 2)

    def y(t: float) -> float:
        return top + (high - math.log(t)) / (high - low) * (bottom - top)

    every = (
        max(1, math.ceil(len(rounds) * (len(rounds[0]) + 1) * DIGIT * FONT / (right - left))) if rounds else 1
    )
    grid = "".join(f"M{_f(left)},{_f(y(v))}H{_f(right)}" for v in ys)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart-svg multiple-svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-size="{FONT}" focusable="false" aria-hidden="true">',
        f'<path d="{grid}" stroke="{INK}" stroke-opacity="0.2" fill="none"/>',
        f'<path d="M{_f(left)},{_f(top)}V{_f(bottom)}H{_f(right)}" stroke="{INK}" fill="none"/>',
        f'<g fill="{INK}" text-anchor="end">'
        + "".join(
            f'<text x="{_f(left - 4)}" y="{_f(y(v) + FONT * 0.35)}">{escape(label(v))}</text>' for v in ys
        )
        + "</g>",
        f'<g fill="{INK}" text-anchor="middle">'
        + "".join(
            f'<text x="{_f(x(i))}" y="{_f(bottom + FONT + 3)}">{escape(r)}</text>'
            for i, r in enumerate(rounds)
            if i % every == 0 or i == len(rounds) - 1 and i % every > every / 2
        )
        + "</g>",
    ]
    line = ""
    for i, p in enumerate(points):
        line += ("M" if i == 0 or p["apart"] else "L") + f"{_f(x(p['x']))},{_f(y(p['t']))}"
    if line:
        parts.append(
            f'<path class="multiple-line" d="{line}" stroke="{colour}" stroke-width="2" fill="none"/>'
        )
    hollow = {True: ' fill="#fff" data-hollow="1"', False: f' fill="{colour}"'}
    mark = shape_path(shape, RADIUS + 0.5)
    parts += [
        f'<path class="multiple-point" data-shape="{shape}" d="{mark}" '
        f'transform="translate({_f(x(p["x"]))},{_f(y(p["t"]))})" stroke="{colour}" '
        f'stroke-width="1.5"{hollow[bool(p["hollow"])]}/>'
        for p in points
    ]
    parts.append("</svg>")
    return "".join(parts)


def figure(panels: list[dict], rounds: list[str], caption: str, chart_id: str, shared: bool = True) -> str:
    """The figure: `panels` ({"title": text, "key": the series' id, "points": as panel_svg
    takes them, "look": the chip family's, optional}), each drawn over every round of
    `rounds`; axes shared when `shared`."""
    if not panels:
        return ""
    every = [p["t"] for panel in panels for p in panel["points"]]
    items = []
    for panel in panels:
        domain = y_domain(every if shared else [p["t"] for p in panel["points"]])
        items.append(
            f'<div class="multiple" data-series="{escape(panel["key"])}">'
            f'<span class="multiple-title">{escape(panel["title"])}</span>'
            f"{panel_svg(panel['points'], rounds, domain, panel.get('look'))}</div>"
        )
    return (
        f'<figure class="chart chart-static chart-multiples" id="{chart_id}" data-kind="multiples">'
        f'<div class="multiples" role="img" aria-label="{escape(caption)}">{"".join(items)}</div>'
        f'<figcaption><span class="chart-caption">{escape(caption)}</span></figcaption></figure>'
    )
