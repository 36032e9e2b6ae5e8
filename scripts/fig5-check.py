#!/usr/bin/env python3
"""The Aurora paper's Fig. 5 description (arXiv 2604.09517) checked on a run's steps.csv.

The paper: GEMM dominates early, SWAP becomes dominant as the trailing matrix
shrinks, and the transition is where GEMM falls below SWAP, which aligns with
the drop in sustained performance. Measured here on the slowest-rank phase
columns (what HPL's own timers count per phase: docs/replay.md):

  early    GEMM is the largest phase summed over the steps in the first fifth of N
  late     SWAP is the largest phase summed over the last third of the steps
  aligned  the first matrix fraction from which GEMM stays below SWAP lies
           within 0.05 of the first from which the per-step rate stays 2% below
           its plateau (the median rate over the first quarter of the steps);
           "stays" as hplsim's crossover measures it: most steps within 0.5% of
           the steps of each one, to the end

Usage: scripts/fig5-check.py OUT_DIR_OR_STEPS_CSV [--quiet]
Exit status 0 when all three hold, 1 otherwise.
"""
import csv
import math
import os
import statistics
import sys

PHASES = ["pfact", "bcast", "swap", "trsm", "gemm"]


def load(path):
    if os.path.isdir(path):
        path = os.path.join(path, "steps.csv")
    rows = [r for r in csv.DictReader(open(path))]
    # The final solve (a step of its own) is not a panel step.
    return [r for r in rows if float(r["step_s"]) > 0 and float(r["solve_s"]) == 0.0]


def first_from_which(rows, holds):
    """Matrix fraction of the first step from which `holds` is true to the end (None if never).

    As hplsim's own crossover and rate-drop measures (sim/report/crossover.cpp,
    docs/replay.md): a step counts when `holds` is true for most of the steps
    within h = 0.5% of the steps of it, so a single step's dip or spike neither
    starts nor ends the suffix.
    """
    n = len(rows)
    below = [0]
    for r in rows:
        below.append(below[-1] + (1 if holds(r) else 0))
    h = max(2, math.ceil(0.005 * n))
    first = None
    for i in range(n - 1, -1, -1):
        lo, hi = max(0, i - h), min(n, i + h + 1)
        if 2 * (below[hi] - below[lo]) <= hi - lo:
            break
        first = float(rows[i]["matrix_fraction"])
    return first


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = load(sys.argv[1])
    n = len(rows)
    early = [r for r in rows if float(r["matrix_fraction"]) < 0.2]
    late = rows[n - n // 3:]
    sums = lambda rs: {p: sum(float(r[p + "_s"]) for r in rs) for p in PHASES}
    early_s, late_s = sums(early), sums(late)
    early_top = max(early_s, key=early_s.get)
    late_top = max(late_s, key=late_s.get)
    plateau = statistics.median(float(r["rate_tflops"]) for r in rows[: n // 4])
    rate_drop = first_from_which(rows, lambda r: float(r["rate_tflops"]) < 0.98 * plateau)
    gemm_below = first_from_which(rows, lambda r: float(r["gemm_s"]) < float(r["swap_s"]))
    ok_early = early_top == "gemm"
    ok_late = late_top == "swap"
    ok_aligned = rate_drop is not None and gemm_below is not None and abs(gemm_below - rate_drop) <= 0.05
    fmt = lambda d: ", ".join(f"{p} {d[p]:.0f} s" for p in sorted(d, key=d.get, reverse=True))
    print(f"early (first fifth of N): largest {early_top}  [{fmt(early_s)}]  {'ok' if ok_early else 'FAILS'}")
    print(f"late (last third of the steps): largest {late_top}  [{fmt(late_s)}]  {'ok' if ok_late else 'FAILS'}")
    show = lambda x: "never" if x is None else f"{x:.3f}"
    print(f"GEMM stays below SWAP from {show(gemm_below)} of N; rate stays 2% below its plateau "
          f"({plateau:.4g} TF/s) from {show(rate_drop)}  {'ok' if ok_aligned else 'FAILS'}")
    sys.exit(0 if ok_early and ok_late and ok_aligned else 1)


if __name__ == "__main__":
    main()
