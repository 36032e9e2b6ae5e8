#!/usr/bin/env python3
"""Checks figures quoted in the docs against the run each describes.

Each entry of CHECKS names a document, the exact text it quotes, the hplsim
command whose run it describes, the summary.json key and the tolerance of the
quoted rounding. The script runs each command once (in a scratch directory),
then checks that every quoted text is still in its document and that the run's
value rounds to it. A document that no longer quotes the text, or a run that
no longer gives the figure, fails with the document, the text and both values.

  --list   print what it checks, run nothing
  --quick  run nothing: check each quoted figure of a scenario header against
           the "# expect:" line of the same header (which
           tests/sim/cli/scenario_expect_test.cpp checks against the run), so
           prose and checked figure cannot drift apart (the ctest test
           Docs.FiguresMatchTheirExpectLines; well under a second)

Without --quick every run is made (the template's takes about a minute). the full-scale runs (Aurora,
Frontier, El Capitan, JUPITER) state theirs in docs pointing to the file the
run writes, and are re-checked with their own scripts (docs/benchmarks.md).

Usage: scripts/check-doc-figures.py [--build-dir DIR] [--list] [--quick]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (document, quoted text, run, summary.json key, value in the key's unit, relative tolerance)
# The tolerance is the quoted figure's rounding (half its last digit).
RUNS = {
    "template": (["run", "scenarios/template.textproto"], False),  # about a minute
    "workstation": (["run", "scenarios/workstation-cpu.textproto"], True),
    "small-dragonfly": (["run", "scenarios/small-dragonfly.textproto"], True),
}
CHECKS = [
    ("docs/your-machine.md", "Rmax 2.195 PF/s", "template", "rmax_flops_per_s", 2.195e15, 0.0005e15 / 2.195e15),
    ("docs/your-machine.md", "121.75", "template", "time_s", 121.75, 0.005 / 121.75),
    ("scenarios/template.textproto", "Rmax 2.19 PF/s", "template", "rmax_flops_per_s", 2.19e15, 0.005e15 / 2.19e15),
    ("scenarios/template.textproto", "121.8 s of simulated time", "template", "time_s", 121.8, 0.05 / 121.8),
    ("scenarios/workstation-cpu.textproto", "69.8 Gflop/s", "workstation", "rmax_flops_per_s", 69.8e9,
     0.05e9 / 69.8e9),
    ("scenarios/small-dragonfly.textproto", "Rmax 5.89 TF/s", "small-dragonfly", "rmax_flops_per_s", 5.89e12,
     0.005e12 / 5.89e12),
    ("scenarios/small-dragonfly.textproto", "0.21 s of simulated", "small-dragonfly", "time_s", 0.21,
     0.005 / 0.21),
]


# summary.json key -> (the "# expect:" key, its unit in the key's unit)
EXPECT_KEYS = {"rmax_flops_per_s": ("rmax_tflops", 1e12), "time_s": ("time_s", 1.0)}


def quick(checks, failures):
    """Quoted figures of scenario headers against their "# expect:" lines."""
    checked = 0
    for doc, text, _run, key, value, tol in checks:
        if not doc.startswith("scenarios/"):
            continue
        with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
            header = f.read()
        if text not in header:
            failures.append(f"{doc}: no longer quotes \"{text}\": update or remove its entry here")
            continue
        expect_key, unit = EXPECT_KEYS[key]
        found = re.search(r"#\s*expect:.*?\b" + re.escape(expect_key) + r"\s+([0-9.eE+-]+)", header)
        if not found:
            failures.append(f"{doc}: quotes \"{text}\" but has no \"# expect: {expect_key}\" to check it")
            continue
        expected = float(found.group(1)) * unit
        checked += 1
        if abs(expected - value) > tol * abs(value):
            failures.append(f"{doc}: \"{text}\" says {value:g}, its # expect: line {expected:g}")
    for f in failures:
        print("check-doc-figures: " + f, file=sys.stderr)
    print(f"check-doc-figures: {checked - len(failures)} of {checked} quoted header figures match their # expect: lines")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    checks = [c for c in CHECKS if not args.quick or RUNS[c[2]][1]]
    if args.list:
        for doc, text, run, key, value, tol in checks:
            print(f"{doc}: \"{text}\" = {key} {value:g} +-{100 * tol:.2g}% of `hplsim {' '.join(RUNS[run][0])}`")
        return 0
    failures = []
    if args.quick:
        return quick(checks, failures)
    for doc, text, *_ in checks:
        with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
            if text not in f.read():
                failures.append(f"{doc}: no longer quotes \"{text}\": update or remove its entry here")
    hplsim = os.path.join(args.build_dir, "sim", "hplsim")
    summaries = {}
    with tempfile.TemporaryDirectory(prefix="hplsim-doc-figures-") as scratch:
        for run in sorted({c[2] for c in checks}):
            out = os.path.join(scratch, run)
            cmd = [hplsim] + RUNS[run][0] + ["--out", out]
            done = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if done.returncode != 0:
                failures.append(f"`{' '.join(cmd)}` exited {done.returncode}: {done.stderr.strip()}")
                continue
            with open(os.path.join(out, "summary.json"), encoding="utf-8") as f:
                summaries[run] = json.load(f)
    for doc, text, run, key, value, tol in checks:
        if run not in summaries:
            continue
        got = summaries[run].get(key)
        if not isinstance(got, (int, float)) or abs(got - value) > tol * abs(value):
            failures.append(f"{doc}: \"{text}\" says {key} {value:g}, the run gives {got}")
    for f in failures:
        print("check-doc-figures: " + f, file=sys.stderr)
    print(f"check-doc-figures: {len(checks) - len(failures)} of {len(checks)} figures match their runs")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
