#!/usr/bin/env python3
"""A trials study (`hplsim run SCENARIO --trials K [--strategies ...]`), two
binaries side by side: each runs its own source tree's copy of the scenario,
alternating, REPEATS times. Prints per run and as medians the wall time, the
CPU time of the whole process tree (user + system), the peak of the summed
PSS of its processes (sampled every 0.2 s), and whether the two sides wrote
the same trials.csv, trial-faults.csv and outcome.json. Appends to
bench-results/trials.csv.

  git worktree add /tmp/old <commit> && (cd /tmp/old && bash scripts/build.sh)
  scripts/bench-trials.py /tmp/old/build/sim/hplsim /tmp/old build/sim/hplsim . \\
      --repeats 1 -- scenarios/aurora-hpl-sc24-flaps.textproto --trials 10 --strategies P2P,HYBRID,COLLECTIVE
"""
import argparse
import datetime
import filecmp
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUTS = ("trials.csv", "trial-faults.csv", "outcome.json")


def pss_kib_of_tree(root_pid):
    """The summed PSS of a process and its descendants (walked through
    /proc/PID/task/TID/children: cheaper than scanning every process)."""
    total, todo = 0, [root_pid]
    while todo:
        pid = todo.pop()
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                todo += [int(c) for c in open(f"/proc/{pid}/task/{tid}/children").read().split()]
            for line in open(f"/proc/{pid}/smaps_rollup"):
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except (OSError, ValueError):
            pass
    return total


def run_one(binary, src, args, out):
    peak = [0]
    stop = threading.Event()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    with open(out + ".log", "w") as log:
        proc = subprocess.Popen([binary, "run", *args, "--out", out], cwd=src, stdout=log,
                                stderr=subprocess.STDOUT)

        def watch():
            while not stop.is_set():
                peak[0] = max(peak[0], pss_kib_of_tree(proc.pid))
                time.sleep(0.2)

        watcher = threading.Thread(target=watch)
        watcher.start()
        rc = proc.wait()
    wall_s = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    stop.set()
    watcher.join()
    if rc != 0:  # the log goes with the temporary directory: show its end
        tail = open(out + ".log").read().splitlines()[-20:]
        sys.exit(f"bench-trials: {binary} exited with {rc}; the end of its output:\n" + "\n".join(tail))
    cpu_s = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall_s, cpu_s, peak[0] / 1024


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("old")
    p.add_argument("old_src")
    p.add_argument("new")
    p.add_argument("new_src")
    p.add_argument("--repeats", type=int, default=1)
    p.add_argument("args", nargs="*", help="-- then the run's arguments, the scenario first")
    # Everything after the first -- is the run's (argparse's REMAINDER would
    # also take a --repeats given after the binaries).
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    a = p.parse_args(argv[:cut])
    args = argv[cut + 1:]
    if a.args or not args:
        p.error("give the run's arguments after --")
    os.makedirs(os.path.join(ROOT, "bench-results"), exist_ok=True)
    csv = os.path.join(ROOT, "bench-results", "trials.csv")
    if not os.path.exists(csv):
        open(csv, "w").write("date,binary,arguments,run,wall_s,cpu_s,pss_peak_mib,same_outputs\n")
    sides = {"old": (os.path.realpath(a.old), os.path.realpath(a.old_src)),
             "new": (os.path.realpath(a.new), os.path.realpath(a.new_src))}
    results = {"old": [], "new": []}
    with tempfile.TemporaryDirectory() as work:
        for i in range(1, a.repeats + 1):
            for label in ("old", "new"):
                out = os.path.join(work, f"{label}-{i}")
                wall_s, cpu_s, pss_mib = run_one(*sides[label], args, out)
                results[label].append((wall_s, cpu_s, pss_mib))
                same = ""
                if label == "new":
                    same = "yes" if all(filecmp.cmp(os.path.join(work, f"old-{i}", f), os.path.join(out, f),
                                                    shallow=False) for f in OUTPUTS) else "no"
                row = [datetime.date.today().isoformat(), label, " ".join(args), str(i), f"{wall_s:.1f}",
                       f"{cpu_s:.1f}", f"{pss_mib:.0f}", same]
                open(csv, "a").write(",".join(f'"{c}"' if " " in c else c for c in row) + "\n")
                print(f"{label} run {i}: wall {wall_s:.1f} s, CPU {cpu_s:.1f} s ({100 * cpu_s / wall_s:.0f}% of "
                      f"one core), PSS peak {pss_mib:.0f} MiB" + (f", outputs the same as old's: {same}" if same else ""),
                      flush=True)
    for label in ("old", "new"):
        med = [statistics.median(r[k] for r in results[label]) for k in range(3)]
        print(f"{label} median of {a.repeats}: wall {med[0]:.1f} s, CPU {med[1]:.1f} s, PSS peak {med[2]:.0f} MiB")
    ratio = statistics.median(r[0] for r in results["new"]) / statistics.median(r[0] for r in results["old"])
    print(f"new / old wall: x {ratio:.3f}")


if __name__ == "__main__":
    main()
