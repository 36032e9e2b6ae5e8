#!/usr/bin/env python3
"""Sets an hplsim sweep's ranking beside real HPL runs' (docs/real-hpl-comparison.md).

Reads the sweep's sweep.csv (hplsim sweep, with NB and P x Q among its
columns: `--hpl-dat` or `--vary NB=... --vary PxQ=...`) and the CSV(s) of
scripts/real-hpl/run_real_hpl.sh, keeps the best real run of each
configuration (HPL practice), and prints one row per configuration: the real
Gflop/s and rank, the simulated ones, the error; then Spearman's rank
correlation and the share of the pairs of configurations both put in the same
order.

Usage: scripts/real-hpl/rank_compare.py SWEEP_CSV REAL_CSV [REAL_CSV...] [--markdown]
"""
import csv
import sys


def best_real(paths):
    best = {}
    for path in paths:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if row.get("residual_passed") != "true":
                    continue
                key = (int(row["n"]), int(row["nb"]), f'{row["p"]}x{row["q"]}')
                g = float(row["gflops"])
                if key not in best or g > best[key][0]:
                    best[key] = (g, row["idle_percent"])
    return best


def simulated(path):
    out = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (int(row["n"]), int(row["nb"]), f'{row["p"]}x{row["q"]}')
            out[key] = float(row["rmax_flops_per_s"]) / 1e9
    return out


def ranks(values):
    order = sorted(values, key=lambda k: -values[k])
    return {k: i + 1 for i, k in enumerate(order)}


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    markdown = "--markdown" in argv
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    sim = simulated(args[0])
    real = best_real(args[1:])
    keys = [k for k in sim if k in real]
    if len(keys) < 2:
        print("rank_compare: fewer than two configurations in both files", file=sys.stderr)
        return 1
    r_sim = ranks({k: sim[k] for k in keys})
    r_real = ranks({k: real[k][0] for k in keys})
    n = len(keys)
    rho = 1 - 6 * sum((r_sim[k] - r_real[k]) ** 2 for k in keys) / (n * (n * n - 1))
    pairs = [(a, b) for i, a in enumerate(keys) for b in keys[i + 1:]]
    same = sum(1 for a, b in pairs if (sim[a] - sim[b]) * (real[a][0] - real[b][0]) > 0)
    rows = sorted(keys, key=lambda k: r_real[k])
    if markdown:
        print("| N | NB | P x Q | real Gflop/s (best) | real rank | hplsim Gflop/s | hplsim rank | error |")
        print("|---:|---:|---|---:|---:|---:|---:|---:|")
    else:
        print(f"{'N':>6} {'NB':>4} {'PxQ':>5} {'real':>9} {'rank':>4} {'hplsim':>9} {'rank':>4} {'error':>8}")
    for k in rows:
        err = 100 * (sim[k] - real[k][0]) / real[k][0]
        if markdown:
            print(f"| {k[0]} | {k[1]} | {k[2]} | {real[k][0]:.1f} | {r_real[k]} | {sim[k]:.1f} | {r_sim[k]} | {err:+.0f} % |")
        else:
            print(f"{k[0]:>6} {k[1]:>4} {k[2]:>5} {real[k][0]:9.1f} {r_real[k]:>4} {sim[k]:9.1f} {r_sim[k]:>4} {err:+7.0f}%")
    print(f"\nSpearman's rank correlation: {rho:+.3f} over {n} configurations; "
          f"{same} of {len(pairs)} pairs in the same order")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
