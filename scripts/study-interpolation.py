#!/usr/bin/env python3
"""How well fast mode's windows integrate the per-step curve (docs/fast-mode.md,
"11. Integrating the curve").

Takes the steps.csv of a dense fast-mode run (many uniform windows; every
window one run of consecutive "simulated" rows) as the truth, then keeps only
the head, the tail and n of its interior windows, spaced uniformly and shifted
together across the run (one subsample per shift), and integrates the curve
through them with each of fast mode's rules (sim/fast/step_curve.cpp, the same
nodes as sim/fast/fast_run.cpp). Prints, per n and rule, the mean and rms of the
subsamples' Rmax error against the dense run.

Usage: scripts/study-interpolation.py DENSE/steps.csv [--shifts 40]
The dense run of the table in docs/fast-mode.md (1,020 ranks, 1,000 windows, ~40 min on
one core):
  build/sim/hplsim run scenarios/aurora-hpl-sc24.textproto --nodes 170 --P 30 \
    --Q 34 --N 3903360 --set options.fast.fold=ON \
    --set options.fast.initial_windows=999 --set options.fast.max_windows=1001 \
    --set options.fast.workers=1 --out DENSE
"""
import argparse
import bisect
import csv
import math


def load(path):
    step_s, simulated = {}, set()
    with open(path) as f:
        for row in csv.DictReader(f):
            k = int(row["step"])
            step_s[k] = float(row["step_s"])
            if row["how"] == "simulated":
                simulated.add(k)
    return step_s, simulated


def windows(simulated):
    runs = []
    for k in sorted(simulated):
        if runs and k == runs[-1][-1] + 1:
            runs[-1].append(k)
        else:
            runs.append([k])
    return runs


def monotone_slopes(x, y):
    n = len(x)
    h = [x[i + 1] - x[i] for i in range(n - 1)]
    d = [(y[i + 1] - y[i]) / h[i] for i in range(n - 1)]
    if n == 2:
        return [d[0], d[0]]
    m = [0.0] * n
    for i in range(1, n - 1):
        if d[i - 1] * d[i] > 0:
            w1, w2 = 2 * h[i] + h[i - 1], h[i] + 2 * h[i - 1]
            m[i] = (w1 + w2) / (w1 / d[i - 1] + w2 / d[i])

    def end(h0, h1, d0, d1):
        s = ((2 * h0 + h1) * d0 - h0 * d1) / (h0 + h1)
        if s * d0 <= 0:
            return 0.0
        if d0 * d1 <= 0 and abs(s) > abs(3 * d0):
            return 3 * d0
        return s

    m[0] = end(h[0], h[1], d[0], d[1])
    m[-1] = end(h[-1], h[-2], d[-1], d[-2])
    return m


def parabolic_slopes(x, y):
    n = len(x)
    sec = [(y[i + 1] - y[i]) / (x[i + 1] - x[i]) for i in range(n - 1)]
    if n == 2:
        return [sec[0], sec[0]]
    m = [0.0] * n
    for i in range(1, n - 1):
        h0, h1 = x[i] - x[i - 1], x[i + 1] - x[i]
        m[i] = (h1 * sec[i - 1] + h0 * sec[i]) / (h0 + h1)
    h0, h1 = x[1] - x[0], x[2] - x[1]
    m[0] = sec[0] - (sec[1] - sec[0]) * h0 / (h0 + h1)
    h0, h1 = x[-2] - x[-3], x[-1] - x[-2]
    m[-1] = sec[-1] + (sec[-1] - sec[-2]) * h1 / (h0 + h1)
    return m


def curve(x, y, rule):
    slopes = {"LINEAR": None, "MONOTONE_CUBIC": monotone_slopes, "PARABOLIC": parabolic_slopes}[rule]
    m = slopes(x, y) if slopes else None

    def at(s):
        i = min(max(bisect.bisect_right(x, s) - 1, 0), len(x) - 2)
        h = x[i + 1] - x[i]
        t = (s - x[i]) / h
        if m is None:
            return y[i] + t * (y[i + 1] - y[i])
        return ((2 * t**3 - 3 * t**2 + 1) * y[i] + (t**3 - 2 * t**2 + t) * h * m[i] +
                (-2 * t**3 + 3 * t**2) * y[i + 1] + (t**3 - t**2) * h * m[i + 1])

    return at


def run_time(step_s, kept, last_step, rule):
    """The run's time from the kept windows: head first, tail last."""
    nodes = []
    for i, w in enumerate(kept):
        w = [k for k in w if k < last_step]  # the final solve is not on the curve
        if i == 0:
            nodes.append((w[-1], step_s[w[-1]]))
        elif i == len(kept) - 1:
            nodes.append((w[0], step_s[w[0]]))
        else:
            nodes.append((sum(w) / len(w), sum(step_s[k] for k in w) / len(w)))
    at = curve([n[0] for n in nodes], [n[1] for n in nodes], rule)
    simulated = {k for w in kept for k in w}
    return sum(step_s[k] if k in simulated else max(0.0, at(k)) for k in range(last_step + 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("steps_csv")
    ap.add_argument("--shifts", type=int, default=40)
    args = ap.parse_args()
    step_s, simulated = load(args.steps_csv)
    last_step = max(step_s)
    runs = windows(simulated)
    head, tail = runs[0], sorted(k for w in runs if w[0] >= last_step - 3 for k in w)
    inner = [w for w in runs[1:] if w[0] < last_step - 3]
    truth = run_time(step_s, [head] + inner + [tail], last_step, "LINEAR")
    rules = ["LINEAR", "MONOTONE_CUBIC", "PARABOLIC"]
    print(f"dense run: {len(inner)} interior windows, {truth:.3f} s")
    print("| interior windows | subsamples | " + " | ".join(f"{r} mean / rms" for r in rules) +
          " | jackknife median | error within 2 jackknives |")
    print("|---:|---:|" + "---:|" * (len(rules) + 2))
    for n in (1, 3, 4, 7, 9, 19, 39):
        stride = (len(inner) + 1) // (n + 1)
        if stride < 2:
            continue
        errors = {r: [] for r in rules}
        jackknives, covered = [], 0
        step = max(1, stride // args.shifts)
        for shift in range(-(stride // 2) + 1, stride // 2, step):
            picked = [inner[stride * i - 1 + shift] for i in range(1, n + 1)]
            kept = [head] + picked + [tail]
            for r in rules:
                errors[r].append(100.0 * (truth / run_time(step_s, kept, last_step, r) - 1.0))
            # The run's own estimate (sim/fast/fast_run.cpp, sampling_error_fraction):
            # the jackknife over its interior windows, with the default rule.
            if n >= 2:
                total = run_time(step_s, kept, last_step, "MONOTONE_CUBIC")
                loo = [run_time(step_s, [head] + picked[:i] + picked[i + 1:] + [tail], last_step, "MONOTONE_CUBIC")
                       for i in range(n)]
                mean = sum(loo) / n
                jk = 100.0 * math.sqrt((n - 1) / n * sum((t - mean) ** 2 for t in loo)) / total
                jackknives.append(jk)
                covered += abs(errors["MONOTONE_CUBIC"][-1]) <= 2 * jk
        cells = []
        for r in rules:
            e = errors[r]
            cells.append(f"{sum(e) / len(e):+.2f}% / {math.sqrt(sum(x * x for x in e) / len(e)):.2f}%")
        if jackknives:
            cells.append(f"{sorted(jackknives)[len(jackknives) // 2]:.2f}%")
            cells.append(f"{100 * covered // len(jackknives)}%")
        else:
            cells += ["-", "-"]
        print(f"| {n} | {len(errors[rules[0]])} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
