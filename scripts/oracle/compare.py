#!/usr/bin/env python3
"""One SMPI oracle comparison (docs/smpi-oracle.md): netlib HPL under SMPI,
with hplsim's platform and kernel prices, beside hplsim's reference mode, for
one machine scenario and one HPL.dat (its first run).

    scripts/oracle/compare.py MACHINE.textproto HPL.dat OUT_DIR [--xhpl X] [--build B]

Needs the oracle's xhpl (scripts/oracle/build-hpl.sh with HPLSIM_ORACLE_LIB)
and hplsim's build (libhplsim_oracle.so, hplsim_oracle_reference). Writes
OUT_DIR/{smpi/, reference.json, comparison.json} and prints a summary.
Exit status: 0 when both ran, 1 on a failed run, 2 on bad input; with
--tolerance T also 1 when the times differ by more than T (a fraction).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

# hplsim's network configuration (sim/engine/engine_setup.cpp, create_engine),
# and SMPI settings that keep SMPI's own costs out of the comparison
# (docs/smpi-oracle.md, section 2).
SMPI_CFG = [
    "network/model:CM02", "network/crosstraffic:0", "network/TCP-gamma:0",
    "smpi/simulate-computation:no",  # only the hooks' charges cost time
    "smpi/wtime:0",                  # MPI_Wtime costs nothing
    "smpi/grow-injected-times:no",
    # hplsim's sends complete when the receiver has the data (sim/engine/replay.cpp,
    # send()); SMPI detaches sends below 64 KiB by default.
    "smpi/send-is-detached-thresh:0",
]

PHASES = ["pfact", "bcast", "swap", "trsm", "gemm", "solve"]


def hpl_dat_grid(path):
    """P, Q and DEPTH of the HPL.dat's first run (lines 11, 12 and 25)."""
    with open(path) as f:
        lines = f.read().splitlines()
    if len(lines) < 31:
        sys.exit(f"error: {path}: {len(lines)} lines, an HPL.dat has 31")
    try:
        return int(lines[10].split()[0]), int(lines[11].split()[0]), int(lines[24].split()[0])
    except (ValueError, IndexError):
        sys.exit(f"error: {path}:11-12,25: Ps/Qs/DEPTHs: not integers")


def run(cmd, cwd, env, log):
    with open(log, "w") as out:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    with open(log) as f:
        text = f.read()
    if p.returncode != 0:
        sys.stderr.write(text[-3000:])
        sys.exit(f"error: {' '.join(cmd[:3])} ... exited {p.returncode} (log: {log})")
    return text


def parse_oracle_lines(text):
    m = re.search(r"^HPLSIM_ORACLE N=(\d+) NB=(\d+) P=(\d+) Q=(\d+) time=(\S+) gflops=(\S+) failure=(\d+)",
                  text, re.M)
    t = re.search(r"^HPLSIM_ORACLE_TIMERS (.*)$", text, re.M)
    if not m or not t:
        sys.exit("error: xhpl printed no HPLSIM_ORACLE lines (is it the oracle's build of hpcc's HPL 2.0?)")
    timers = {k: float(v) for k, v in (kv.split("=") for kv in t.group(1).split())}
    names = ["pdgesv", "rfact", "pfact", "mxswp", "update", "laswp", "uptrsv"]
    ranks = {}
    for line in re.finditer(r"^HPLSIM_ORACLE_RANK (\d+) (.*)$", text, re.M):
        ranks[int(line.group(1))] = dict(zip(names, map(float, line.group(2).split())))
    return {"n": int(m.group(1)), "nb": int(m.group(2)), "p": int(m.group(3)), "q": int(m.group(4)),
            "time_s": float(m.group(5)), "gflops": float(m.group(6)), "residual_failed": int(m.group(7)),
            "timers_s": timers, "rank_timers_s": ranks}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("machine")
    ap.add_argument("hpl_dat")
    ap.add_argument("out")
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    ap.add_argument("--build", default=os.path.join(root, "build"), help="hplsim's build directory")
    ap.add_argument("--xhpl", default=None, help="the oracle's xhpl (default BUILD/oracle/xhpl-build/xhpl)")
    ap.add_argument("--iprobe", default="1e-7",
                    help="smpi/iprobe: simulated seconds a failed MPI_Iprobe costs (HPL polls the broadcast)")
    ap.add_argument("--no-compute", action="store_true",
                    help="skip the floating-point work (HPLSIM_ORACLE_COMPUTE=0): pivots from the untouched matrix")
    ap.add_argument("--tolerance", type=float, default=None, help="fail when |time difference| exceeds it")
    ap.add_argument("--reuse-smpi", action="store_true",
                    help="keep OUT_DIR/smpi's run (smpirun.log, kernels.json) and re-run only hplsim's side")
    a = ap.parse_args()

    for f in (a.machine, a.hpl_dat):
        if not os.path.isfile(f):
            sys.exit(f"error: {f}: no such file")
    xhpl = a.xhpl or os.path.join(a.build, "oracle", "xhpl-build", "xhpl")
    lib = os.path.join(a.build, "sim", "libhplsim_oracle.so")
    ref_tool = os.path.join(a.build, "sim", "hplsim_oracle_reference")
    for f, what in ((xhpl, "scripts/oracle/build-hpl.sh"), (lib, "cmake --build"), (ref_tool, "cmake --build")):
        if not os.path.isfile(f):
            sys.exit(f"error: {f} is missing (build it: {what})")
    p, q, depth = hpl_dat_grid(a.hpl_dat)
    out = os.path.abspath(a.out)
    smpi_dir = os.path.join(out, "smpi")
    os.makedirs(smpi_dir, exist_ok=True)
    dat = os.path.join(smpi_dir, "HPL.dat")
    shutil.copyfile(a.hpl_dat, dat)
    shutil.copyfile(a.hpl_dat, os.path.join(smpi_dir, "hpccinf.txt"))  # hpcc's HPL 2.0 reads this name
    for stale in ("hpccoutf.txt",):  # hpcc's HPL appends to it
        if not a.reuse_smpi and os.path.exists(os.path.join(smpi_dir, stale)):
            os.remove(os.path.join(smpi_dir, stale))
    # SMPI places rank i on the i-th hostfile line; hplsim's rank i runs on host r<i>.
    with open(os.path.join(smpi_dir, "hosts"), "w") as f:
        f.writelines(f"r{i}\n" for i in range(p * q))

    env = dict(os.environ)
    env.update({"HPLSIM_ORACLE_MACHINE": os.path.abspath(a.machine), "HPLSIM_ORACLE_HPL_DAT": dat,
                "HPLSIM_ORACLE_REPORT": os.path.join(smpi_dir, "kernels.json"), "OPENBLAS_NUM_THREADS": "1"})
    if a.no_compute:
        env["HPLSIM_ORACLE_COMPUTE"] = "0"

    ref_json = os.path.join(out, "reference.json")
    run([ref_tool, ref_json], out, env, os.path.join(out, "reference.log"))
    cmd = ["smpirun", "-np", str(p * q), "-platform", lib, "-hostfile", "hosts"]
    cmd += [f"--cfg={c}" for c in SMPI_CFG + [f"smpi/iprobe:{a.iprobe}"]]
    cmd += ["--log=root.thresh:warning", xhpl]
    log = os.path.join(smpi_dir, "smpirun.log")
    if a.reuse_smpi and os.path.isfile(log):
        with open(log) as f:
            text = f.read()
    else:
        text = run(cmd, smpi_dir, env, log)
    smpi = parse_oracle_lines(text)
    with open(ref_json) as f:
        ref = json.load(f)
    with open(os.path.join(smpi_dir, "kernels.json")) as f:
        charged = json.load(f)["kernel_seconds"]

    # The kernel check: both sides ran the same kernels (per rank and phase).
    worst = {}
    for rank in ref["ranks"]:
        r = rank["rank"]
        got = charged[r] if r < len(charged) else {}
        for ph in PHASES:
            want = rank[f"{ph}_kernel_s"]
            have = got.get(ph.upper(), [0, 0.0])[1]
            rel = abs(have - want) / want if want > 0 else abs(have)
            worst[ph] = max(worst.get(ph, 0.0), rel)

    diff = ref["time_s"] / smpi["time_s"] - 1.0
    timers = smpi["timers_s"]
    mx = ref["max_rank_phase_s"]
    # HPL's update timer covers HPL_pdupdate*: the swap, DTRSM, DGEMM and, with
    # look-ahead (HPL_pdgesvK2: depth 1 and Q > 1), the broadcast work its
    # probes do (the root's send, a receiver's receive and forward); the
    # first panel's broadcast, outside any update, is a small part of that.
    with_bcast = depth >= 1 and q > 1
    update = max(r["swap_s"] + r["trsm_s"] + r["gemm_s"] + (r["bcast_s"] if with_bcast else 0.0)
                 for r in ref["ranks"])
    phases = {
        # HPL timer: (its value, hplsim's counterpart, what the counterpart is)
        "rfact": (timers["rfact"], mx["pfact"], "pfact (factorization and its pivot exchanges)"),
        # HPL_pdmxswp's time: the factorization's phase less its kernels (a CPU rank runs them in turn).
        "mxswp": (timers["mxswp"], max(r["pfact_s"] - r["pfact_kernel_s"] for r in ref["ranks"]),
                  "pfact less its kernels, largest rank"),
        "update": (timers["update"], update,
                   "swap + trsm + gemm" + (" + bcast" if with_bcast else "") + ", largest rank sum"),
        # HPL's laswp timer spans HPL_pdlaswp*, whose probes receive and forward the panel.
        "laswp": (timers["laswp"], max(r["swap_s"] + r["bcast_in_swap_s"] for r in ref["ranks"]),
                  "swap + the bcast its probes did, largest rank sum"),
        "uptrsv": (timers["uptrsv"], mx["solve"], "solve"),
    }
    result = {
        "machine": a.machine, "hpl_dat": a.hpl_dat, "p": p, "q": q, "n": smpi["n"], "nb": smpi["nb"],
        "smpi_time_s": smpi["time_s"], "hplsim_time_s": ref["time_s"], "difference": diff,
        "residual_check": "failed" if smpi["residual_failed"] else "passed",
        "computed": not a.no_compute, "iprobe_s": float(a.iprobe),
        "kernel_check_worst_relative": worst,
        "hpl_timers_s": timers, "hplsim_max_rank_phase_s": mx,
        "phases": {k: {"hpl_s": v[0], "hplsim_s": v[1], "hplsim_phase": v[2],
                       "difference": (v[1] / v[0] - 1.0) if v[0] > 0 else None} for k, v in phases.items()},
    }
    # Per rank (when xhpl printed its ranks' timers): HPL's own time and update
    # timer beside hplsim's, the ranks that differ most first.
    per_rank = []
    for rank in ref["ranks"]:
        h = smpi["rank_timers_s"].get(rank["rank"])
        if h is None:
            continue
        upd = rank["swap_s"] + rank["trsm_s"] + rank["gemm_s"] + (rank["bcast_s"] if with_bcast else 0.0)
        per_rank.append({"rank": rank["rank"], "hpl_update_s": h["update"], "hplsim_update_s": upd,
                         "hpl_laswp_s": h["laswp"], "hplsim_laswp_s": rank["swap_s"] + rank["bcast_in_swap_s"],
                         "hpl_rfact_s": h["rfact"], "hplsim_pfact_s": rank["pfact_s"]})
    per_rank.sort(key=lambda x: -abs(x["hplsim_update_s"] - x["hpl_update_s"]))
    result["ranks"] = per_rank
    with open(os.path.join(out, "comparison.json"), "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    print(f"{os.path.basename(a.hpl_dat)} on {os.path.basename(a.machine)}: {p} x {q}, N {smpi['n']}, NB {smpi['nb']}")
    print(f"  time      SMPI+HPL {smpi['time_s']:.6f} s   hplsim {ref['time_s']:.6f} s   {100 * diff:+.2f}%")
    for k, v in result["phases"].items():
        d = v["difference"]
        print(f"  {k:<9} SMPI+HPL {v['hpl_s']:.6f} s   hplsim {v['hplsim_s']:.6f} s   "
              + (f"{100 * d:+.2f}%" if d is not None else "n/a") + f"   ({v['hplsim_phase']})")
    print("  kernels   largest per-rank difference: " +
          ", ".join(f"{ph} {100 * w:.3f}%" for ph, w in worst.items()))
    print(f"  residual check {result['residual_check']}; outputs in {out}")
    if a.tolerance is None:
        return 0
    failed = False
    if abs(diff) > a.tolerance:
        print(f"FAIL: time |{100 * diff:.2f}%| > {100 * a.tolerance:.2f}%")
        failed = True
    # The panel factorization and the solve are priced call for call alike on
    # both sides (scripts/oracle/hpl_hooks.c); the swap's packs follow the
    # pivots, and the update's chunks the moment the panel comes.
    for ph in ("pfact", "solve"):
        if worst[ph] > 1e-6:
            print(f"FAIL: {ph} kernels differ by {100 * worst[ph]:.4f}% on some rank (the hooks and the schedule disagree)")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
