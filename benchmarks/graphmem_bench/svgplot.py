"""A log–log line chart as a standalone SVG (no plotting library needed)."""

from __future__ import annotations

import math
from html import escape

COLOURS = ("#1f77b4", "#d62728", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b")
WIDTH, HEIGHT = 720, 440
LEFT, RIGHT, TOP, BOTTOM = 70, 230, 40, 60


def log_log_chart_svg(series: dict[str, list[tuple[float, float]]], title: str,
                      x_label: str, y_label: str, dashed: frozenset[str] = frozenset()) -> str:
    """One line per series (points ``(x, y)``, both > 0) on log axes with decade grid
    lines; the legend on the right. Series named in ``dashed`` are drawn dashed."""
    points = [p for values in series.values() for p in values if p[0] > 0 and p[1] > 0]
    if not points:
        raise ValueError("nothing to plot: no positive points")
    x_lo, x_hi = _decades(p[0] for p in points)
    y_lo, y_hi = _decades(p[1] for p in points)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def sx(x: float) -> float:
        return LEFT + (math.log10(x) - x_lo) / (x_hi - x_lo) * plot_w

    def sy(y: float) -> float:
        return TOP + plot_h - (math.log10(y) - y_lo) / (y_hi - y_lo) * plot_h

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{LEFT}" y="22" font-size="14">{escape(title)}</text>']
    for d in range(x_lo, x_hi + 1):
        x = sx(10 ** d)
        out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + plot_h}" '
                   'stroke="#ddd"/>')
        out.append(f'<text x="{x:.1f}" y="{TOP + plot_h + 18}" text-anchor="middle">'
                   f'{_label(10 ** d)}</text>')
    for d in range(y_lo, y_hi + 1):
        y = sy(10 ** d)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" '
                   'stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 8}" y="{y + 4:.1f}" text-anchor="end">'
                   f'{_label(10 ** d)}</text>')
    out.append(f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" '
               'stroke="#333"/>')
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 18}" text-anchor="middle">'
               f'{escape(x_label)}</text>')
    out.append(f'<text x="18" y="{TOP + plot_h / 2}" text-anchor="middle" '
               f'transform="rotate(-90 18 {TOP + plot_h / 2})">{escape(y_label)}</text>')
    for i, (name, values) in enumerate(series.items()):
        colour = COLOURS[i // 2 % len(COLOURS)] if dashed else COLOURS[i % len(COLOURS)]
        dash = ' stroke-dasharray="5 4"' if name in dashed else ""
        xy = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in sorted(values) if x > 0 and y > 0)
        out.append(f'<polyline points="{xy}" fill="none" stroke="{colour}" stroke-width="2"'
                   f'{dash}/>')
        for x, y in values:
            out.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="3" fill="{colour}"/>')
        ly = TOP + 10 + 18 * i
        out.append(f'<line x1="{LEFT + plot_w + 12}" y1="{ly}" x2="{LEFT + plot_w + 36}" '
                   f'y2="{ly}" stroke="{colour}" stroke-width="2"{dash}/>')
        out.append(f'<text x="{LEFT + plot_w + 42}" y="{ly + 4}">{escape(name)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _decades(values: object) -> tuple[int, int]:
    logs = [math.log10(v) for v in values]  # type: ignore[attr-defined]
    lo, hi = math.floor(min(logs)), math.ceil(max(logs))
    return lo, hi if hi > lo else lo + 1


def _label(value: float) -> str:
    if value >= 1_000_000:
        return f"{value / 1_000_000:g}M"
    if value >= 1_000:
        return f"{value / 1_000:g}k"
    return f"{value:g}"
