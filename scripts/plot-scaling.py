#!/usr/bin/env python3
"""Plots bench-results/scaling.csv (scripts/bench-scaling.sh) as an SVG: simulator
wall time and peak memory against the number of ranks, one series per mode, both
axes logarithmic. Standard library only (no matplotlib on the target machines).

Usage: scripts/plot-scaling.py [bench-results/scaling.csv] [bench-results/scaling.svg]
When a (mode, ranks) pair was measured more than once, the median of its newest
date's runs is plotted (the older rows are earlier code, kept as history)."""
import csv
import math
import statistics
import sys

src = sys.argv[1] if len(sys.argv) > 1 else "bench-results/scaling.csv"
dst = sys.argv[2] if len(sys.argv) > 2 else "bench-results/scaling.svg"

runs, newest = {}, {}
with open(src, newline="") as f:
    for row in csv.DictReader(f):
        key = (row["mode"], int(row["ranks"]))
        if row["date"] > newest.get(key, ""):
            newest[key] = row["date"]
            runs[key] = []
        if row["date"] == newest[key]:
            runs[key].append((float(row["wall_s"]), float(row["peak_rss_kib"]) / 1024.0))
if not runs:
    sys.exit(f"{src}: no rows")

series = {}
for (mode, ranks), vals in sorted(runs.items()):
    wall = statistics.median(v[0] for v in vals)
    rss = statistics.median(v[1] for v in vals)
    series.setdefault(mode, []).append((ranks, wall, rss))

W, H, M = 420, 300, 60  # one panel's size and margin (px)
colors = {"fast": "#1f77b4", "reference": "#d62728"}


def log_axis(lo, hi):
    a, b = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    return a, b if b > a else a + 1


def panel(x0, title, ylabel, pick):
    xs = [p[0] for pts in series.values() for p in pts]
    ys = [pick(p) for pts in series.values() for p in pts]
    xa, xb = log_axis(min(xs), max(xs))
    ya, yb = log_axis(min(ys), max(ys))
    px = lambda x: x0 + M + (math.log10(x) - xa) / (xb - xa) * (W - 2 * M)
    py = lambda y: H - M - (math.log10(y) - ya) / (yb - ya) * (H - 2 * M)
    out = [f'<text x="{x0 + W / 2}" y="20" text-anchor="middle" font-size="14">{title}</text>',
           f'<line x1="{x0 + M}" y1="{H - M}" x2="{x0 + W - M}" y2="{H - M}" stroke="black"/>',
           f'<line x1="{x0 + M}" y1="{M}" x2="{x0 + M}" y2="{H - M}" stroke="black"/>',
           f'<text x="{x0 + W / 2}" y="{H - 15}" text-anchor="middle" font-size="12">ranks</text>',
           f'<text x="{x0 + 15}" y="{H / 2}" text-anchor="middle" font-size="12" '
           f'transform="rotate(-90 {x0 + 15} {H / 2})">{ylabel}</text>']
    for e in range(xa, xb + 1):
        out.append(f'<text x="{px(10 ** e)}" y="{H - M + 15}" text-anchor="middle" font-size="10">1e{e}</text>')
    for e in range(ya, yb + 1):
        out.append(f'<text x="{x0 + M - 5}" y="{py(10 ** e) + 4}" text-anchor="end" font-size="10">1e{e}</text>')
        out.append(f'<line x1="{x0 + M}" y1="{py(10 ** e)}" x2="{x0 + W - M}" y2="{py(10 ** e)}" '
                   f'stroke="#ddd"/>')
    for i, (mode, pts) in enumerate(sorted(series.items())):
        c = colors.get(mode, "#2ca02c")
        path = " ".join(f"{px(p[0]):.1f},{py(pick(p)):.1f}" for p in pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{c}" stroke-width="2"/>')
        for p in pts:
            out.append(f'<circle cx="{px(p[0]):.1f}" cy="{py(pick(p)):.1f}" r="3" fill="{c}"/>')
        out.append(f'<text x="{x0 + W - M}" y="{M + 14 * i}" text-anchor="end" font-size="11" '
                   f'fill="{c}">{mode}</text>')
    return out


body = panel(0, "simulator wall time", "seconds", lambda p: p[1]) + \
    panel(W, "peak memory (fast: bound over its processes)", "MiB", lambda p: p[2])
with open(dst, "w") as f:
    f.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * W}" height="{H}" '
            f'font-family="sans-serif">\n<rect width="100%" height="100%" fill="white"/>\n')
    f.write("\n".join(body))
    f.write("\n</svg>\n")
print(dst)
