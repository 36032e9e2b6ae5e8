#!/usr/bin/env python3
"""Runs the full-scale and one-node scenarios whose figures the docs quote and
writes docs/bench/results.csv, one row per run: the summary.json figures the
docs quote (Rmax, time, sampling error, crossover), the run's own activity
count, wall time and peak RSS (stats.json), the command, the date and the
commit. scripts/check-doc-figures.py checks every quoted figure against this
file, so a figure in README.md, docs/results.md or a machine page changes by
re-running this script, never by hand.

The 43 runs take about an hour on 2 cores, one at a time (their sum of wall_s
on 2026-12-07, beside other builds and tests). A row's wall time and peak RSS
are one measurement on a shared machine: compare them only side by side.

Usage: scripts/bench-results.py [--build-dir DIR] [--only NAME[,NAME...]] [--out CSV] [--merge CSV]
  --only re-runs the named rows and keeps the others as they are.
  --merge CSV takes the rows of CSV, written by this script with --out (a run of other rows beside
  this one, on the other core), into the output, and runs nothing unless --only names rows.
"""
import argparse
import csv
import datetime
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NO_AMX = ["--set", "machine.node.amx=false", "--set",
          "machine.kernels_file=../models/calibrations/aurora-node-noamx.textproto"]
# ALCF's production GPU setting (1.5 GHz, one FP64 pipeline): docs/at-scale.md
GPU1500 = ["--set", "machine.kernels_file=../models/calibrations/aurora-node-gpu1500.textproto"]
# MPICH 3.2's collective selection table (docs/collectives.md, "The flagships with MPICH's table")
MPICH32 = ["--set", "machine.mpi_file=../models/calibrations/mpich-3.2-collectives.textproto"]
# the flap scenario's runs without flaps (docs/faults.md, "The three strategies under flaps")
NO_FLAPS = [a for i in range(3) for a in ("--set", f"faults.flap_process.classes[{i}].rate_per_link_per_hour=0")]
# the per-call kernel jitter in place of the fitted per-node factor (docs/at-scale.md, "An alternative fitted
# parameter, not shipped")
JITTER = ["--set", "machine.variability.node_gpu_step_cv=0", "--set", "machine.variability.kernel_jitter_cv=0.1468"]
# one CORE-scope Poisson source of 1 ms detours at the rate fitted to SC24 HPL (docs/at-scale.md, "System noise")
NOISE = ["--set", "machine.variability.noise.sources[0].scope=CORE", "--set",
         "machine.variability.noise.sources[0].poisson.rate_per_s=0.75", "--set",
         "machine.variability.noise.sources[0].poisson.length_s=1e-3"]
SLICE_MXP_256 = ["--nodes", "128", "--P", "16", "--Q", "16", "--N", "599040"]
SLICE_1K = ["--nodes", "170", "--P", "30", "--Q", "34", "--N", "3903360"]
FOUR_WINDOWS = ["--set", "options.fast.initial_windows=4", "--set", "options.fast.max_windows=4"]

# name -> hplsim arguments (run from the repository root)
RUNS = {
    "aurora-hpl-1node": ["run", "scenarios/aurora-hpl-1node.textproto"],
    "aurora-hpl-1node-sourced": ["run", "scenarios/aurora-hpl-1node.textproto", "--sourced-only"],
    "aurora-hpl-sc24": ["run", "scenarios/aurora-hpl-sc24.textproto"],
    "aurora-hpl-sc24-sourced": ["run", "scenarios/aurora-hpl-sc24.textproto", "--sourced-only"],
    "aurora-mxp-sc24": ["run", "scenarios/aurora-mxp-sc24.textproto"],
    "aurora-mxp-sc24-sourced": ["run", "scenarios/aurora-mxp-sc24.textproto", "--sourced-only"],
    "aurora-mxp-sc24-noamx": ["run", "scenarios/aurora-mxp-sc24.textproto"] + NO_AMX,
    "aurora-mxp-sc24-noamx-sourced": ["run", "scenarios/aurora-mxp-sc24.textproto", "--sourced-only"] + NO_AMX,
    "aurora-hpl-1node-gpu1500-sourced": ["run", "scenarios/aurora-hpl-1node.textproto", "--sourced-only"] + GPU1500,
    "aurora-hpl-sc24-gpu1500-sourced": ["run", "scenarios/aurora-hpl-sc24.textproto", "--sourced-only"] + GPU1500,
    "aurora-mxp-sc24-gpu1500-sourced": ["run", "scenarios/aurora-mxp-sc24.textproto", "--sourced-only"] + GPU1500,
    "aurora-hpl-1node-jitter": ["run", "scenarios/aurora-hpl-1node.textproto"] + JITTER,
    "aurora-hpl-sc24-jitter": ["run", "scenarios/aurora-hpl-sc24.textproto"] + JITTER,
    "aurora-mxp-sc24-jitter": ["run", "scenarios/aurora-mxp-sc24.textproto"] + JITTER,
    "aurora-mxp-sc24-noamx-jitter": ["run", "scenarios/aurora-mxp-sc24.textproto"] + NO_AMX + JITTER,
    "aurora-hpl-1node-sourced-noise": ["run", "scenarios/aurora-hpl-1node.textproto", "--sourced-only"] + NOISE,
    "aurora-hpl-sc24-sourced-noise": ["run", "scenarios/aurora-hpl-sc24.textproto", "--sourced-only"] + NOISE,
    "aurora-mxp-sc24-sourced-noise": ["run", "scenarios/aurora-mxp-sc24.textproto", "--sourced-only"] + NOISE,
    # ROW_BAND folding at full scale (docs/benchmarks.md: cheap and optimistic)
    "aurora-hpl-sc24-sourced-rowband": ["run", "scenarios/aurora-hpl-sc24.textproto", "--sourced-only", "--set",
                                        "options.fast.band=ROW_BAND"],
    "aurora-hpl-sc24-mpich32": ["run", "scenarios/aurora-hpl-sc24.textproto"] + MPICH32,
    "aurora-mxp-sc24-mpich32": ["run", "scenarios/aurora-mxp-sc24.textproto"] + MPICH32,
    "frontier-hpl-4w": ["run", "scenarios/frontier-hpl.textproto"] + FOUR_WINDOWS,
    "el-capitan-hpl": ["run", "scenarios/el-capitan-hpl.textproto"],
    "jupiter-hpl": ["run", "scenarios/jupiter-hpl.textproto"],
    # one dragonfly group of each (docs/el-capitan.md, docs/jupiter.md, "The run")
    "el-capitan-hpl-128": ["run", "scenarios/el-capitan-hpl.textproto", "--nodes", "128"],
    "jupiter-hpl-240": ["run", "scenarios/jupiter-hpl.textproto", "--nodes", "240"],
    # the 1,020-rank Aurora slice (scripts/bench-scaling.sh's first row), sourced only: docs/aurora.md, docs/fast-mode.md
    "aurora-1k-sourced-unfolded": ["run", "scenarios/aurora-hpl-sc24.textproto", "--sourced-only", "--set",
                                   "options.fast.fold=OFF"] + SLICE_1K,
    "aurora-1k-sourced-unfolded-cv0": ["run", "scenarios/aurora-hpl-sc24.textproto", "--sourced-only", "--set",
                                       "options.fast.fold=OFF", "--set", "machine.variability.gpu_rate_cv=0"] + SLICE_1K,
    "aurora-1k-sourced-unfolded-minimal": ["run", "scenarios/aurora-hpl-sc24.textproto", "--sourced-only", "--set",
                                           "options.fast.fold=OFF", "--set", "machine.topology.routing=MINIMAL"] + SLICE_1K,
    "aurora-1k-sourced-unfolded-minimal-fast-fabric": [
        "run", "scenarios/aurora-hpl-sc24.textproto", "--sourced-only", "--set", "options.fast.fold=OFF", "--set",
        "machine.topology.routing=MINIMAL", "--set", "machine.topology.dragonfly.local_link_bandwidth_bytes_per_s=25e11",
        "--set", "machine.topology.dragonfly.global_link_bandwidth_bytes_per_s=25e11"] + SLICE_1K,
    "aurora-1k-sourced-fold": ["run", "scenarios/aurora-hpl-sc24.textproto", "--sourced-only", "--set",
                               "options.fast.fold=ON"] + SLICE_1K,
    "aurora-1k-sourced-crossband": ["run", "scenarios/aurora-hpl-sc24.textproto", "--sourced-only", "--set",
                                    "options.fast.fold=ON", "--set", "options.fast.band=CROSS_BAND"] + SLICE_1K,
    # the 256-rank HPL-MxP slice (docs/aurora.md, "The fold on HPL-MxP, measured")
    "aurora-mxp-256-reference": ["run", "scenarios/aurora-mxp-sc24.textproto", "--mode", "reference"] + SLICE_MXP_256,
    "aurora-mxp-256-unfolded": ["run", "scenarios/aurora-mxp-sc24.textproto", "--set",
                                "options.fast.fold=OFF"] + SLICE_MXP_256,
    "aurora-mxp-256-unfolded-chunked": ["run", "scenarios/aurora-mxp-sc24.textproto", "--set", "options.fast.fold=OFF",
                                        "--set", "options.fast.ring_aggregate=false"] + SLICE_MXP_256,
    "aurora-mxp-256-crossband": ["run", "scenarios/aurora-mxp-sc24.textproto", "--set", "options.fast.fold=ON", "--set",
                                 "options.fast.band=CROSS_BAND"] + SLICE_MXP_256,
    "aurora-mxp-256-columnband": ["run", "scenarios/aurora-mxp-sc24.textproto", "--set", "options.fast.fold=ON", "--set",
                                  "options.fast.band=COLUMN_BAND"] + SLICE_MXP_256,
    "aurora-mxp-256-rowband": ["run", "scenarios/aurora-mxp-sc24.textproto", "--set", "options.fast.fold=ON", "--set",
                               "options.fast.band=ROW_BAND"] + SLICE_MXP_256,
    "aurora-flaps-p2p-no-flaps": ["run", "scenarios/aurora-hpl-sc24-flaps.textproto", "--set",
                                  "workload.hpl.panel_exchange=P2P"] + NO_FLAPS,
    "aurora-flaps-hybrid-no-flaps": ["run", "scenarios/aurora-hpl-sc24-flaps.textproto"] + NO_FLAPS,
    "aurora-flaps-collective-no-flaps": ["run", "scenarios/aurora-hpl-sc24-flaps.textproto", "--set",
                                         "workload.hpl.panel_exchange=COLLECTIVE"] + NO_FLAPS,
    "mi250x-node-rochpl7": ["run", "scenarios/validation/mi250x-node-rochpl7.textproto"],
    "mi300a-node-rochpl7": ["run", "scenarios/validation/mi300a-node-rochpl7.textproto"],
}
SUMMARY = ["rmax_flops_per_s", "time_s", "rmax_sampling_error_fraction", "crossover_fraction", "rate_drop_fraction",
           "gemm_below_phase", "gemm_below_phase_fraction", "n", "nb", "p", "q", "nodes", "ranks", "steps", "mode",
           "refinement_s"]
# HPL-MxP's per-step profile (docs/aurora.md, "Per-step profile"; scripts/at-scale-check.sh's plateau): step 0's
# rate and the 1%-of-steps bins (flops / time of the bin) over the rest of the first quarter
PROFILE = ["step0_rate_flops_per_s", "q1_min_rate_flops_per_s", "q1_max_rate_flops_per_s", "q1_min_over_max",
           "q1_last_rate_flops_per_s"]
FIELDS = ["name", "args"] + SUMMARY + ["activities", "wall_s", "peak_rss_mib"] + PROFILE + ["date", "commit"]


def profile(out, steps):
    """The MxP profile of a run's steps.csv (the bins of scripts/at-scale-check.sh)."""
    with open(os.path.join(out, "steps.csv"), encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if float(r["flops"]) > 0 and int(r["step"]) < steps]
    n = len(rows)
    width = max(1, n // 100)
    rates = []
    for b in range(1, n // 4, width):
        chunk = rows[b:min(b + width, n // 4)]
        rates.append(sum(float(r["flops"]) for r in chunk) / sum(float(r["step_s"]) for r in chunk))
    return dict(zip(PROFILE, (float(rows[0]["flops"]) / float(rows[0]["step_s"]), min(rates), max(rates),
                              min(rates) / max(rates), rates[-1])))


def run(hplsim, name, scratch):
    out = os.path.join(scratch, name)
    timing = os.path.join(scratch, name + ".time")
    cmd = ["/usr/bin/time", "-f", "%e %M", "-o", timing, hplsim] + RUNS[name] + ["--out", out]
    done = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"bench-results: `{' '.join(cmd)}` exited {done.returncode}: {done.stderr.strip()[-2000:]}")
    with open(os.path.join(out, "summary.json"), encoding="utf-8") as f:
        summary = json.load(f)
    with open(os.path.join(out, "stats.json"), encoding="utf-8") as f:
        stats = json.load(f)
    with open(timing, encoding="utf-8") as f:
        wall_s, rss_kib = f.read().split()[-2:]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    row = {"name": name, "args": " ".join(RUNS[name])}
    row.update({k: summary.get(k) for k in SUMMARY})
    row.update(activities=stats["activities"], wall_s=wall_s, peak_rss_mib=f"{int(rss_kib) / 1024:.0f}",
               date=datetime.date.today().isoformat(), commit=commit)
    if summary.get("benchmark") == "hpl-mxp" or "mxp" in RUNS[name][1]:
        row.update(profile(out, summary["steps"]))
    print(f"bench-results: {name}: Rmax {row['rmax_flops_per_s']:.6g} flop/s, wall {wall_s} s", flush=True)
    return row


def read_rows(path):
    with open(path, encoding="utf-8") as f:
        return {r["name"]: r for r in csv.DictReader(line for line in f if not line.startswith("#"))}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--only", default="")
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "bench", "results.csv"))
    parser.add_argument("--merge", default="")
    args = parser.parse_args()
    only = [n for n in args.only.split(",") if n]
    for n in only:
        if n not in RUNS:
            sys.exit(f"bench-results: --only {n}: no such run (runs: {', '.join(RUNS)})")
    rows = {}
    if (only or args.merge) and os.path.exists(args.out):
        rows = read_rows(args.out)
    if args.merge:
        rows.update({name: row for name, row in read_rows(args.merge).items() if name in RUNS})
    hplsim = os.path.join(args.build_dir, "sim", "hplsim")
    with tempfile.TemporaryDirectory(prefix="hplsim-bench-results-") as scratch:
        for name in RUNS:
            if (not only and not args.merge) or name in only:
                rows[name] = run(hplsim, name, scratch)
    with open(args.out, "w", encoding="utf-8", newline="") as f:
        f.write("# Written by scripts/bench-results.py (one run each, one at a time, on the 2-core development "
                "machine); the docs' figures of these runs are checked against it by scripts/check-doc-figures.py.\n")
        writer = csv.DictWriter(f, fieldnames=FIELDS, lineterminator="\n")
        writer.writeheader()
        for name in RUNS:
            if name in rows:
                writer.writerow(rows[name])
    return 0


if __name__ == "__main__":
    sys.exit(main())
