#!/usr/bin/env python3
"""Runs a command and measures the physical memory its process tree holds:
every INTERVAL it sums the Pss of the command's process and all its
descendants (/proc/<pid>/smaps_rollup; Pss splits a page shared by k processes
into k parts, so the sum over the tree is the memory the tree holds, the pages
it shares with processes outside the tree counted in part) and prints the
largest sum it saw. Sampling can miss a peak shorter than the interval, so the
figure is the most the tree was seen to hold.

With --stats FILE (an hplsim run's stats.json, written by the command) it also
prints the run's own bound, peak_rss_bound_bytes, and exits 1 when the bound is
below the measured maximum (docs/fast-mode.md, "What a run costs").

With --record CSV --name NAME (and --stats) it writes the row NAME of CSV
(docs/bench/memory-bound.csv, whose figures the docs quote): the command, the
bound, the whole RSS peaks summed as the bound adds the private ones (the main
process's and the window_processes largest windows'), the measured maximum,
the date and the commit.

Usage: scripts/measure-tree-memory.py [--interval-ms MS] [--stats FILE]
           [--record CSV --name NAME] -- COMMAND...
Example:
  scripts/measure-tree-memory.py --stats /tmp/x/stats.json -- \\
      build/sim/hplsim run scenarios/aurora-hpl-sc24.textproto --out /tmp/x
"""
import argparse
import csv
import datetime
import json
import os
import subprocess
import sys
import time


def children_of():
    """Parent pid -> child pids, of every process /proc lists."""
    kids = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue  # ended meanwhile
        # The command name (field 2) is in parentheses and may hold spaces.
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        kids.setdefault(ppid, []).append(int(name))
    return kids


def tree(root):
    kids = children_of()
    pids, todo = [], [root]
    while todo:
        pid = todo.pop()
        pids.append(pid)
        todo.extend(kids.get(pid, []))
    return pids


def pss_bytes(pid):
    """Pss of a process in bytes; 0 when it ended (or became a zombie) meanwhile."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--interval-ms", type=float, default=25.0, help="sampling interval (default 25 ms)")
    parser.add_argument("--stats", help="the run's stats.json, to compare its peak_rss_bound_bytes")
    parser.add_argument("--record", help="a CSV to write the measured row into (needs --name and --stats)")
    parser.add_argument("--name", help="the row's name in --record's CSV")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given (put it after --)")
    if args.record and not (args.name and args.stats):
        parser.error("--record needs --name and --stats")
    if not os.path.exists("/proc/self/smaps_rollup"):
        sys.exit("measure-tree-memory: /proc/self/smaps_rollup is not readable here (Linux 4.14 or later needed)")

    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    best = best_processes = samples = 0
    started = time.monotonic()
    while process.poll() is None:
        pids = tree(process.pid)
        total = sum(pss_bytes(pid) for pid in pids)
        samples += 1
        if total > best:
            best, best_processes = total, len(pids)
        time.sleep(args.interval_ms / 1000.0)
    wall_s = time.monotonic() - started
    if process.returncode != 0:
        sys.exit(f"measure-tree-memory: the command exited with status {process.returncode}")
    print(f"max sum of Pss over the process tree: {best} bytes ({best / 1048576:.1f} MiB), "
          f"{best_processes} processes then; {samples} samples over {wall_s:.1f} s")
    if args.stats:
        with open(args.stats) as f:
            stats = json.load(f)
        bound = stats.get("peak_rss_bound_bytes", stats.get("peak_rss_bytes"))
        print(f"the run's bound (stats.json): {bound:.0f} bytes ({bound / 1048576:.1f} MiB)")
        if args.record:
            record(args.record, args.name, command, rss_peaks_bytes(stats), bound, best)
        if bound < best:
            print("the bound is BELOW the measured maximum", file=sys.stderr)
            return 1
    return 0


FIELDS = ["name", "command", "rss_peaks_mib", "bound_mib", "pss_max_mib", "measured"]
HEADER = ("# scripts/measure-tree-memory.py --record: a run's memory bound (stats.json's peak_rss_bound_bytes),\n"
          "# the whole RSS peaks summed instead (the main process's and the window_processes largest windows':\n"
          "# the pages the windows share with the main process once per process) and the most its process\n"
          "# tree was seen to hold (the sum of Pss, sampled every 25 ms); the build's commit and the date.\n")


def rss_peaks_bytes(stats):
    """The main process's RSS peak plus the window_processes largest window RSS peaks."""
    peaks = sorted((w["peak_rss_bytes"] for w in stats.get("windows", [])), reverse=True)
    return stats["peak_rss_bytes"] + sum(peaks[:stats.get("window_processes", 0)])


def record(path, name, command, rss_bytes, bound_bytes, pss_bytes):
    rows = []
    if os.path.exists(path):
        with open(path) as f:
            rows = [r for r in csv.DictReader(line for line in f if not line.startswith("#")) if r["name"] != name]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    rows.append({"name": name, "command": " ".join(command),
                 "rss_peaks_mib": f"{rss_bytes / 1048576:.1f}",
                 "bound_mib": f"{bound_bytes / 1048576:.1f}", "pss_max_mib": f"{pss_bytes / 1048576:.1f}",
                 "measured": f"{commit}, {datetime.date.today().isoformat()}"})
    with open(path, "w", newline="") as f:
        f.write(HEADER)
        out = csv.DictWriter(f, FIELDS, lineterminator="\n")
        out.writeheader()
        out.writerows(rows)


if __name__ == "__main__":
    sys.exit(main())
