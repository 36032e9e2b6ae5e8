#!/usr/bin/env python3
"""Runs every hplsim command of the README's ```sh blocks (a ctest test,
Docs.ReadmeExamplesRun; README, "A short tour").

Each command runs in order, in one scratch directory that links the
repository's top-level entries (so `./build/sim/hplsim`, `scenarios/...` and
the outputs under `hplsim-out/` resolve as they do for a user at the
repository's root), and must exit 0. `build` links the build directory given
(--build-dir, default: the repository's build/).

Commands on the full-scale Aurora scenarios (aurora-hpl-sc24*, aurora-mxp-sc24*)
take minutes to hours; they get --dry-run, which validates the scenario, the
flags and every point of a study without simulating (`hplsim topo` is run as it
is). The install and build steps of the README's first two commands are what
CI itself runs, so only their hplsim part is run here.

--record CSV writes each command's CPU time (user + system of the process and
its children) and wall time to CSV: docs/bench/readme-examples.csv is the file
the README's "# N s" comments quote (scripts/check-doc-figures.py checks them).

Usage: scripts/check-readme-examples.py [--build-dir DIR] [--list] [--record CSV]
"""
import argparse
import csv
import datetime
import resource
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FULL_SCALE = re.compile(r"aurora-(hpl|mxp)-sc24")
DRY_RUN_VERBS = {"run", "sweep", "plan", "sensitivity"}


def commands(readme_text):
    """The hplsim commands of the ```sh blocks, continuation lines joined, comments dropped."""
    out = []
    in_block = False
    pending = ""
    for line in readme_text.splitlines():
        if line.startswith("```"):
            in_block = line.strip() == "```sh" and not in_block
            pending = ""
            continue
        if not in_block or line.lstrip().startswith("#"):
            continue
        code = re.split(r"\s+#\s", line, maxsplit=1)[0].rstrip()
        if code.endswith("\\"):
            pending += code[:-1] + " "
            continue
        whole = pending + code
        pending = ""
        for part in whole.split("&&"):
            part = part.strip()
            if "hplsim" in part.split()[0] if part else False:
                out.append(part)
    return out


def prepared(command):
    """The command as the test runs it (full-scale studies and runs get --dry-run)."""
    args = shlex.split(command)
    verb = args[1] if len(args) > 1 else ""
    if FULL_SCALE.search(command) and verb in DRY_RUN_VERBS and "--dry-run" not in args:
        args.append("--dry-run")
    return args


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--list", action="store_true", help="print the commands as they would run, and stop")
    parser.add_argument("--record", metavar="CSV", help="write each command's CPU and wall time to CSV")
    options = parser.parse_args()
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        cmds = commands(f.read())
    if not cmds:
        print("check-readme-examples: no hplsim command found in README.md", file=sys.stderr)
        return 1
    if options.list:
        for c in cmds:
            print(" ".join(shlex.quote(a) for a in prepared(c)))
        return 0
    failures = 0
    records = []
    with tempfile.TemporaryDirectory(prefix="hplsim-readme-") as scratch:
        for entry in os.listdir(ROOT):
            if entry in ("build", "hplsim-out", ".git"):
                continue
            os.symlink(os.path.join(ROOT, entry), os.path.join(scratch, entry))
        os.symlink(os.path.abspath(options.build_dir), os.path.join(scratch, "build"))
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
        for c in cmds:
            args = prepared(c)
            start = time.monotonic()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            try:
                r = subprocess.run(args, cwd=scratch, env=env, capture_output=True, text=True, timeout=600)
                code, err = r.returncode, r.stderr
            except subprocess.TimeoutExpired:
                code, err = "timeout (600 s)", ""
            took = time.monotonic() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            records.append({"command": c, "ran": " ".join(args[1:]), "cpu_s": f"{cpu:.2f}", "wall_s": f"{took:.2f}"})
            status = "ok" if code == 0 else f"FAILED ({code})"
            print(f"{status:>10}  {took:6.1f} s  {' '.join(shlex.quote(a) for a in args)}")
            if code != 0:
                failures += 1
                print(err[-3000:], file=sys.stderr)
    print(f"{len(cmds) - failures} of {len(cmds)} README commands ran")
    if options.record and not failures:
        with open(options.record, "w", encoding="utf-8", newline="") as f:
            f.write(f"# Written by scripts/check-readme-examples.py --record on {datetime.date.today().isoformat()} "
                    "(2-core machine): each README command as written and as run (full-scale ones with --dry-run), "
                    "its CPU time (user + system, children included) and wall time.\n")
            writer = csv.DictWriter(f, fieldnames=["command", "ran", "cpu_s", "wall_s"], lineterminator="\n")
            writer.writeheader()
            writer.writerows(records)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
