"""The registry: every figure of a hplsim run the docs quote, and where its
value comes from; and the published figures beside them (not checked: each
carries its source).

How to add a figure: quote it in the document, then add a Figure here with
the exact text that quotes it (unique enough to find; for a table cell, the
text that starts its row and the cell's index), and its source:
  - a cheap run (< ~1 min): a name in RUNS and Run(name, summary.json key), or
    "stats.KEY" for stats.json; when the run is a plain `run SCENARIO` whose
    "# expect:" line states the key, --quick checks it against that line
    (tests/sim/cli/scenario_expect_test.cpp re-runs it);
  - an expensive run: a row of docs/bench/results.csv (scripts/bench-results.py
    writes it: add the run there and re-run it with --only NAME), or of
    another file a script writes into docs/bench/: Bench(file, row, field);
  - arithmetic on them: rel() for a difference in percent, ratio(), max_abs().
The quoted number's rounding is the tolerance (half its last digit); `tol` or
`rel` widen it where the text says "about".
"""
from .check import Figure
from .published import PUBLISHED  # noqa: F401 (the published figures beside the checked ones)
from .sources import Bench, Fn, Run, RunTable, max_abs, ratio, rel

FRONTIER_1NODE = ["run", "scenarios/frontier-hpl.textproto", "--nodes", "1", "--N", "232960", "--P", "2", "--Q", "4",
                  "--mode", "reference"]

# Cheap runs the full mode re-runs: name -> hplsim arguments.
RUNS = {
    "template": ["run", "scenarios/template.textproto"],  # ~10 s
    "template-gpu-aware": ["run", "scenarios/template.textproto", "--set", "machine.placement.gpu_aware_mpi=true"],
    "workstation": ["run", "scenarios/workstation-cpu.textproto"],
    "small-dragonfly": ["run", "scenarios/small-dragonfly.textproto"],
    "frontier-1node": FRONTIER_1NODE,
    "frontier-1node-threads8": FRONTIER_1NODE + ["--set", "workload.panel_threads=8", "--set",
                                                 "machine.variability.noise.os_cores_per_node=0"],
    "frontier-1node-nb384": FRONTIER_1NODE + ["--NB", "384"],
    "frontier-1node-nb256": FRONTIER_1NODE + ["--NB", "256"],
    "frontier-1node-staged": FRONTIER_1NODE + ["--set", "machine.placement.gpu_aware_mpi=false"],
    "frontier-1node-nbmin32": FRONTIER_1NODE + ["--set", "workload.hpl.nbmin=32"],
    "noise-bench": ["noise-bench", "scenarios/marenostrum4-osu.textproto", "--busy-cores", "48,47,46"],
    "small-dragonfly-failures": ["run", "scenarios/faults/small-dragonfly-failures.textproto"],
    "aurora-hpl-1node": ["run", "scenarios/aurora-hpl-1node.textproto"],
    "mi250x-node-rochpl7": ["run", "scenarios/validation/mi250x-node-rochpl7.textproto"],
    "mi300a-node-rochpl7": ["run", "scenarios/validation/mi300a-node-rochpl7.textproto"],
    "mi250x-node-rochpl7-n192000": ["run", "scenarios/validation/mi250x-node-rochpl7.textproto", "--set",
                                    "workload.n=192000"],
    "mi300a-node-rochpl7-n192000": ["run", "scenarios/validation/mi300a-node-rochpl7.textproto", "--set",
                                    "workload.n=192000"],
}

# Published (or derived from published) reference figures.
AURORA_HPL = 1.012e18  # TOP500 November 2024; Aurora paper (arXiv 2604.09517)
AURORA_MXP = 11.64e18  # HPL-MxP list SC24; Aurora paper
AURORA_1NODE = 139e12  # derived: 1.012 EF/s / (9,234 nodes x 0.788), Aurora paper's scaling efficiency
MI250X_NODE = 155e12  # CSCS rocHPL reference (rochpl.py), N 218,880
MI300A_NODE = 162e12  # CSCS rocHPL reference (rochpl.py), N 218,880


def R(name, field="rmax_flops_per_s"):
    """A figure of docs/bench/results.csv (scripts/bench-results.py)."""
    return Bench("results.csv", name, field)


def V(scenario, column, scale=1.0, part=0):
    """A cell of docs/bench/validation.md (scripts/validate-fast.sh)."""
    return Bench("validation.md", scenario, column, scale=scale, part=part)


def neg(source):
    return Fn("-({0})", lambda x: -x, source)


FAST_ERRORS = [V(s, "error", 1e-2) for s in ("df-504-d0", "df-1008-d0", "bench-1020", "df-1056-nb512")]

FIGURES = [
    # ---- README.md
    Figure("README.md", "Rmax of about **1.013 EF/s**", R("aurora-hpl-sc24")),
    Figure("README.md", "| one node (`aurora-hpl-1node`) |", R("aurora-hpl-1node"), cell=2),
    Figure("README.md", "| one node (`aurora-hpl-1node`) |", rel(R("aurora-hpl-1node"), AURORA_1NODE), cell=2,
           number=1),
    Figure("README.md", "| one node (`aurora-hpl-1node`) |", R("aurora-hpl-1node-sourced"), cell=3),
    Figure("README.md", "| one node (`aurora-hpl-1node`) |", rel(R("aurora-hpl-1node-sourced"), AURORA_1NODE),
           cell=3, number=1),
    Figure("README.md", "| HPL, full scale (`aurora-hpl-sc24`) |", R("aurora-hpl-sc24"), cell=2),
    Figure("README.md", "| HPL, full scale (`aurora-hpl-sc24`) |", R("aurora-hpl-sc24-sourced"), cell=3),
    Figure("README.md", "| HPL, full scale (`aurora-hpl-sc24`) |", rel(R("aurora-hpl-sc24-sourced"), AURORA_HPL),
           cell=3, number=1, rel=0.01),  # "+38%": whole percent
    Figure("README.md", "| HPL-MxP, full scale (`aurora-mxp-sc24`) |", R("aurora-mxp-sc24"), cell=2),
    Figure("README.md", "| HPL-MxP, full scale (`aurora-mxp-sc24`) |", rel(R("aurora-mxp-sc24"), AURORA_MXP),
           cell=2, number=1),
    Figure("README.md", "| HPL-MxP, full scale (`aurora-mxp-sc24`) |", R("aurora-mxp-sc24-sourced"), cell=3),
    Figure("README.md", "| HPL-MxP, full scale (`aurora-mxp-sc24`) |", rel(R("aurora-mxp-sc24-sourced"), AURORA_MXP),
           cell=3, number=1),
    Figure("README.md", "leave Aurora's scale loss unexplained (+38%)", rel(R("aurora-hpl-sc24-sourced"), AURORA_HPL)),
    Figure("README.md", "GEMM falls below it at 0.79 of N", R("aurora-hpl-sc24", "gemm_below_phase_fraction")),
    Figure("README.md", "where the rate drops at 0.37", R("aurora-hpl-sc24", "rate_drop_fraction")),
    Figure("README.md", "AMX on / off, 1.275 where", ratio(R("aurora-mxp-sc24"), R("aurora-mxp-sc24-noamx"))),
    Figure("README.md", "# 4.2 s: Rmax 5.89 TF/s", Run("small-dragonfly", "rmax_flops_per_s"), number=1),
    Figure("README.md", "done: fast within 0.13% Rmax of reference", max_abs(*FAST_ERRORS)),
    Figure("README.md", "| Aurora SC24 HPL-MxP, 9,500 nodes |", R("aurora-mxp-sc24"), cell=2),
    Figure("README.md", "| Aurora SC24 HPL-MxP, 9,500 nodes |", rel(R("aurora-mxp-sc24"), AURORA_MXP), cell=2, number=1),
    Figure("README.md", "| Aurora, one node |", R("aurora-hpl-1node"), cell=2),
    Figure("README.md", "| Aurora, one node |", rel(R("aurora-hpl-1node"), AURORA_1NODE), cell=2, number=1),
    Figure("README.md", "1.013 EF/s (fitted to the published 1.012)", R("aurora-hpl-sc24")),
    # ---- docs/results.md
    Figure("docs/results.md", "reference | 5.89 TF/s, 48 steps", Run("small-dragonfly", "rmax_flops_per_s")),
    Figure("docs/results.md", "reference | 5.89 TF/s, 48 steps", Run("small-dragonfly", "steps"), number=1),
    Figure("docs/results.md", "reference | 229.50 TF/s", V("bench-1020", "Rmax ref TF/s", 1e12)),
    Figure("docs/results.md", "| 138.4 TF/s (-0.4%, a prediction)", R("aurora-hpl-1node")),
    Figure("docs/results.md", "| 138.4 TF/s (-0.4%, a prediction)", rel(R("aurora-hpl-1node"), AURORA_1NODE), number=1),
    Figure("docs/results.md", "sourced only 139.6 (+0.4%)", R("aurora-hpl-1node-sourced"), scale=1e12),
    Figure("docs/results.md", "sourced only 139.6 (+0.4%)", rel(R("aurora-hpl-1node-sourced"), AURORA_1NODE),
           number=1),
    Figure("docs/results.md", "| 1.0134 EF/s: the fit's target", R("aurora-hpl-sc24")),
    Figure("docs/results.md", "sourced only 1.397 (+38%, sampling error 0.8%)", R("aurora-hpl-sc24-sourced"),
           scale=1e18),
    Figure("docs/results.md", "sourced only 1.397 (+38%, sampling error 0.8%)",
           rel(R("aurora-hpl-sc24-sourced"), AURORA_HPL), number=1, rel=0.01),
    Figure("docs/results.md", "sourced only 1.397 (+38%, sampling error 0.8%)",
           R("aurora-hpl-sc24-sourced", "rmax_sampling_error_fraction"), number=2),
    Figure("docs/results.md", "| 12.13 EF/s (+4.2%, a prediction)", R("aurora-mxp-sc24")),
    Figure("docs/results.md", "| 12.13 EF/s (+4.2%, a prediction)", rel(R("aurora-mxp-sc24"), AURORA_MXP), number=1),
    Figure("docs/results.md", "sourced only 13.07 (+12.2%)", R("aurora-mxp-sc24-sourced"), scale=1e18),
    Figure("docs/results.md", "sourced only 13.07 (+12.2%)", rel(R("aurora-mxp-sc24-sourced"), AURORA_MXP), number=1),
    Figure("docs/results.md", "full scale **1.041 EF/s**", R("frontier-hpl-4w")),
    Figure("docs/results.md", "max_windows=4`, sampling error 1.6%); rocHPL 7",
           R("frontier-hpl-4w", "rmax_sampling_error_fraction"), number=1),
    Figure("docs/results.md", "one-node check 176.8 TF/s against the measured 155",
           Run("mi250x-node-rochpl7", "rmax_flops_per_s")),
    Figure("docs/results.md", "full scale **1.849 EF/s**", R("el-capitan-hpl")),
    Figure("docs/results.md", "(sampling error 0.4%), 2.55 M activities",
           R("el-capitan-hpl", "rmax_sampling_error_fraction")),
    Figure("docs/results.md", "(sampling error 0.4%), 2.55 M activities", R("el-capitan-hpl", "activities"),
           number=1, scale=1e6),
    Figure("docs/results.md", "one-node check 196.1 TF/s against the measured 162",
           Run("mi300a-node-rochpl7", "rmax_flops_per_s")),
    Figure("docs/results.md", "full scale **904.5 PF/s** (sampling error 0.5%)", R("jupiter-hpl")),
    Figure("docs/results.md", "full scale **904.5 PF/s** (sampling error 0.5%)",
           R("jupiter-hpl", "rmax_sampling_error_fraction"), number=1),
    Figure("docs/results.md", "reads ~1.6% higher than the flagship's 10 of 6: 1.420 against 1.397 EF/s",
           Bench("plan-aurora-failures.csv", "9234", "fault_free_rmax_flops_per_s"), number=3, scale=1e18),
    Figure("docs/results.md", "reads ~1.6% higher than the flagship's 10 of 6: 1.420 against 1.397 EF/s",
           R("aurora-hpl-sc24-sourced"), number=4),
    Figure("docs/results.md", "after 8 hours\n(1.35 EF/s",
           Bench("plan-aurora-failures.csv", "9234", "rmax_in_window_flops_per_s"), number=1),
    Figure("docs/results.md", "gives a first result soonest (2.99 h)",
           Bench("plan-aurora-failures.csv", "6000", "expected_time_to_result_s")),
    # ---- docs/aurora.md
    Figure("docs/aurora.md", "| `aurora-hpl-1node` | 139 TF/s [D] |", R("aurora-hpl-1node"), cell=2),
    Figure("docs/aurora.md", "| `aurora-hpl-1node` | 139 TF/s [D] |", rel(R("aurora-hpl-1node"), AURORA_1NODE),
           cell=2, number=1),
    Figure("docs/aurora.md", "| `aurora-hpl-1node` | 139 TF/s [D] |", R("aurora-hpl-1node-sourced"), cell=3),
    Figure("docs/aurora.md", "| `aurora-hpl-1node` | 139 TF/s [D] |",
           rel(R("aurora-hpl-1node-sourced"), AURORA_1NODE), cell=3, number=1),
    Figure("docs/aurora.md", "| `aurora-hpl-sc24` | 1.012 EF/s [P] |", R("aurora-hpl-sc24"), cell=2),
    Figure("docs/aurora.md", "| `aurora-hpl-sc24` | 1.012 EF/s [P] |", R("aurora-hpl-sc24-sourced"), cell=3),
    Figure("docs/aurora.md", "| `aurora-hpl-sc24` | 1.012 EF/s [P] |", rel(R("aurora-hpl-sc24-sourced"), AURORA_HPL),
           cell=3, number=1, rel=0.01),
    Figure("docs/aurora.md", "| `aurora-mxp-sc24` | 11.64 EF/s [P] |", R("aurora-mxp-sc24"), cell=2),
    Figure("docs/aurora.md", "| `aurora-mxp-sc24` | 11.64 EF/s [P] |", rel(R("aurora-mxp-sc24"), AURORA_MXP),
           cell=2, number=1),
    Figure("docs/aurora.md", "| `aurora-mxp-sc24` | 11.64 EF/s [P] |", R("aurora-mxp-sc24-sourced"), cell=3),
    Figure("docs/aurora.md", "| `aurora-mxp-sc24` | 11.64 EF/s [P] |", rel(R("aurora-mxp-sc24-sourced"), AURORA_MXP),
           cell=3, number=1),
    Figure("docs/aurora.md", "predicts **139.58 TF/s** sourced only", R("aurora-hpl-1node-sourced")),
    Figure("docs/aurora.md", "(1.012 EF/s / (9,234 x 0.788)): +0.4%", rel(R("aurora-hpl-1node-sourced"), AURORA_1NODE),
           number=3),
    Figure("docs/aurora.md", "with the shipped at-scale file, 138.4 TF/s (-0.4%)", R("aurora-hpl-1node")),
    Figure("docs/aurora.md", "with the shipped at-scale file, 138.4 TF/s (-0.4%)",
           rel(R("aurora-hpl-1node"), AURORA_1NODE), number=1),
    Figure("docs/aurora.md", "**1.397 EF/s sourced only, +38%.**", R("aurora-hpl-sc24-sourced")),
    Figure("docs/aurora.md", "**1.397 EF/s sourced only, +38%.**", rel(R("aurora-hpl-sc24-sourced"), AURORA_HPL),
           number=1, rel=0.01),
    Figure("docs/aurora.md", "**1.3973 EF/s** against the published", R("aurora-hpl-sc24-sourced")),
    Figure("docs/aurora.md", "3.4 M activities, 1.1 GiB over its processes", R("aurora-hpl-sc24-sourced", "activities"),
           scale=1e6),
    Figure("docs/aurora.md", "crossover at step 21,787 of 74,932 (0.291 of N; the sustained rate drops\nat 0.290",
           R("aurora-hpl-sc24-sourced", "steps"), number=1),
    Figure("docs/aurora.md", "crossover at step 21,787 of 74,932 (0.291 of N; the sustained rate drops\nat 0.290",
           R("aurora-hpl-sc24-sourced", "crossover_fraction"), number=2),
    Figure("docs/aurora.md", "crossover at step 21,787 of 74,932 (0.291 of N; the sustained rate drops\nat 0.290",
           R("aurora-hpl-sc24-sourced", "rate_drop_fraction"), number=3),
    Figure("docs/aurora.md", "with a sampling error of 0.8%", R("aurora-hpl-sc24-sourced", "rmax_sampling_error_fraction")),
    Figure("docs/aurora.md", "gives 1.0134 EF/s by construction", R("aurora-hpl-sc24")),
    Figure("docs/aurora.md", "gives **13.07 EF/s** against the", R("aurora-mxp-sc24-sourced")),
    Figure("docs/aurora.md", "published 11.64 EF/s [P]: **+12.2%**, sourced only. The run takes 9,799 s",
           rel(R("aurora-mxp-sc24-sourced"), AURORA_MXP), number=1),
    Figure("docs/aurora.md", "published 11.64 EF/s [P]: **+12.2%**, sourced only. The run takes 9,799 s",
           R("aurora-mxp-sc24-sourced", "time_s"), number=2),
    Figure("docs/aurora.md", "the prediction is **12.13 EF/s (+4.2%)**, in 10,557 s", R("aurora-mxp-sc24")),
    Figure("docs/aurora.md", "the prediction is **12.13 EF/s (+4.2%)**, in 10,557 s",
           rel(R("aurora-mxp-sc24"), AURORA_MXP), number=1),
    Figure("docs/aurora.md", "the prediction is **12.13 EF/s (+4.2%)**, in 10,557 s", R("aurora-mxp-sc24", "time_s"),
           number=2),
    Figure("docs/aurora.md", "12.13 / 9.51 EF/s, so AMX is worth 1.275x", R("aurora-mxp-sc24"), scale=1e18),
    Figure("docs/aurora.md", "12.13 / 9.51 EF/s, so AMX is worth 1.275x", R("aurora-mxp-sc24-noamx"), number=1),
    Figure("docs/aurora.md", "12.13 / 9.51 EF/s, so AMX is worth 1.275x",
           ratio(R("aurora-mxp-sc24"), R("aurora-mxp-sc24-noamx")), number=2),
    # ---- docs/at-scale.md: the model's table
    Figure("docs/at-scale.md", "| sourced only (`--sourced-only`) |", R("aurora-hpl-sc24-sourced"), cell=1),
    Figure("docs/at-scale.md", "| sourced only (`--sourced-only`) |", R("aurora-mxp-sc24-sourced"), cell=2),
    Figure("docs/at-scale.md", "| sourced only (`--sourced-only`) |", R("aurora-hpl-1node-sourced"), cell=3),
    Figure("docs/at-scale.md", "| ALCF's production GPU setting, nothing fitted |",
           R("aurora-hpl-sc24-gpu1500-sourced"), cell=1),
    Figure("docs/at-scale.md", "| ALCF's production GPU setting, nothing fitted |",
           R("aurora-mxp-sc24-gpu1500-sourced"), cell=2),
    Figure("docs/at-scale.md", "| ALCF's production GPU setting, nothing fitted |",
           R("aurora-hpl-1node-gpu1500-sourced"), cell=3),
    Figure("docs/at-scale.md", "| **as shipped**: a per-node, per-step GPU factor", R("aurora-hpl-sc24"), cell=1),
    Figure("docs/at-scale.md", "| **as shipped**: a per-node, per-step GPU factor", R("aurora-mxp-sc24"), cell=2),
    Figure("docs/at-scale.md", "| **as shipped**: a per-node, per-step GPU factor", R("aurora-hpl-1node"), cell=3),
    Figure("docs/at-scale.md", "so the 1.0134 EF/s\nagrees", R("aurora-hpl-sc24")),
    Figure("docs/at-scale.md", "| 0 (sourced only) | 1.397 EF/s |", R("aurora-hpl-sc24-sourced"), cell=1),
    Figure("docs/at-scale.md", "| 0 (sourced only) | 1.397 EF/s |", R("aurora-hpl-sc24-sourced", "crossover_fraction"),
           cell=2),
    Figure("docs/at-scale.md", "| 0 (sourced only) | 1.397 EF/s |", R("aurora-hpl-sc24-sourced", "rate_drop_fraction"),
           cell=2, number=1),
    Figure("docs/at-scale.md", "| `aurora-hpl-1node` | 139 TF/s +-5% |", R("aurora-hpl-1node"), cell=2),
    Figure("docs/at-scale.md", "| `aurora-hpl-1node` | 139 TF/s +-5% |", rel(R("aurora-hpl-1node"), AURORA_1NODE),
           cell=2, number=1),
    Figure("docs/at-scale.md", "| `aurora-hpl-1node` | 139 TF/s +-5% |", R("aurora-hpl-1node-sourced"), cell=3,
           scale=1e12),
    Figure("docs/at-scale.md", "| `aurora-hpl-1node` | 139 TF/s +-5% |",
           rel(R("aurora-hpl-1node-sourced"), AURORA_1NODE), cell=3, number=1),
    Figure("docs/at-scale.md", "| `aurora-hpl-sc24` | 1.012 EF/s +-3% |", R("aurora-hpl-sc24"), cell=2, scale=1e18),
    Figure("docs/at-scale.md", "| `aurora-hpl-sc24` | 1.012 EF/s +-3% |", rel(R("aurora-hpl-sc24"), AURORA_HPL),
           cell=2, number=1),
    Figure("docs/at-scale.md", "| `aurora-hpl-sc24` | 1.012 EF/s +-3% |", R("aurora-hpl-sc24-sourced"), cell=3,
           scale=1e18),
    Figure("docs/at-scale.md", "| `aurora-hpl-sc24` | 1.012 EF/s +-3% |", rel(R("aurora-hpl-sc24-sourced"), AURORA_HPL),
           cell=3, number=1),
    Figure("docs/at-scale.md", "| `aurora-mxp-sc24` | 11.64 EF/s +-5% |", R("aurora-mxp-sc24"), cell=2, scale=1e18),
    Figure("docs/at-scale.md", "| `aurora-mxp-sc24` | 11.64 EF/s +-5% |", rel(R("aurora-mxp-sc24"), AURORA_MXP),
           cell=2, number=1),
    Figure("docs/at-scale.md", "| `aurora-mxp-sc24` | 11.64 EF/s +-5% |", R("aurora-mxp-sc24-sourced"), cell=3,
           scale=1e18),
    Figure("docs/at-scale.md", "| `aurora-mxp-sc24` | 11.64 EF/s +-5% |", rel(R("aurora-mxp-sc24-sourced"), AURORA_MXP),
           cell=3, number=1),
    Figure("docs/at-scale.md", "| 0.1406 (shipped) | 0 |", R("aurora-hpl-sc24"), cell=2),
    Figure("docs/at-scale.md", "| 0.1406 (shipped) | 0 |", R("aurora-hpl-sc24", "crossover_fraction"), cell=3),
    Figure("docs/at-scale.md", "| 0.1406 (shipped) | 0 |", R("aurora-hpl-sc24", "rate_drop_fraction"), cell=3, number=1),
    Figure("docs/at-scale.md", "| 0.1406 (shipped) | 0 |", R("aurora-mxp-sc24"), cell=4),
    Figure("docs/at-scale.md", "| 0.1406 (shipped) | 0 |", rel(R("aurora-mxp-sc24"), AURORA_MXP), cell=4, number=1),
    Figure("docs/at-scale.md", "| 0.1406 (shipped) | 0 |", R("aurora-hpl-1node"), cell=5),
    Figure("docs/aurora.md", "(139.6 TF/s on 1 node;", R("aurora-hpl-1node-sourced")),
    Figure("docs/noise.md", "| none (quiet) | 0 | 1.397 EF/s |", R("aurora-hpl-sc24-sourced"), cell=2),
    Figure("docs/noise.md", "| none (quiet) | 0 | 1.397 EF/s |", R("aurora-hpl-sc24-sourced", "crossover_fraction"),
           cell=3),
    Figure("docs/noise.md", "| none (quiet) | 0 | 1.397 EF/s |", R("aurora-hpl-sc24-sourced", "rate_drop_fraction"),
           cell=3, number=1),
    # ---- docs/benchmarks.md, docs/replay.md, docs/collectives.md: the Rmax beside a cost
    Figure("docs/benchmarks.md", "| 74f2789 | 51.8 / 48.3 / 43.5 |", R("aurora-hpl-sc24-sourced"), cell=5),
    Figure("docs/benchmarks.md", "| 74f2789 | 51.8 / 48.3 / 43.5 |",
           R("aurora-hpl-sc24-sourced", "rmax_sampling_error_fraction"), cell=6),
    Figure("docs/benchmarks.md", "| 4fc6eb0 | 24.9 / 23.6 / 22.9 |", R("aurora-hpl-sc24-sourced"), cell=5),
    Figure("docs/benchmarks.md", "| 4fc6eb0 | 24.9 / 23.6 / 22.9 |",
           R("aurora-hpl-sc24-sourced", "rmax_sampling_error_fraction"), cell=6),
    Figure("docs/benchmarks.md", "(1,397,335.43 TF/s)", R("aurora-hpl-sc24-sourced")),
    Figure("docs/benchmarks.md", "| 74f2789 | 159.5 s |", R("aurora-mxp-sc24-sourced"), cell=4),
    Figure("docs/benchmarks.md", "| 74f2789 | 159.5 s |", R("aurora-mxp-sc24-sourced", "rmax_sampling_error_fraction"),
           cell=5),
    Figure("docs/benchmarks.md", "| main | **62.4 s** (x 0.39) |", R("aurora-mxp-sc24-sourced"), cell=4),
    Figure("docs/benchmarks.md", "| main | **62.4 s** (x 0.39) |",
           R("aurora-mxp-sc24-sourced", "rmax_sampling_error_fraction"), cell=5),
    Figure("docs/benchmarks.md", "Rmax reads 12.064 against 12.127 EF/s", R("aurora-mxp-sc24"), number=1),
    Figure("docs/benchmarks.md", "| quiet | 32.8 / 30.4 / 31.9 |", R("aurora-hpl-sc24-sourced"), cell=4),
    Figure("docs/replay.md", "(1,397,335.43 against 1,397,335.43 TF/s, `--sourced-only`)", R("aurora-hpl-sc24-sourced"),
           number=1),
    Figure("docs/collectives.md", "| `hplsim run scenarios/aurora-hpl-sc24.textproto` |", R("aurora-hpl-sc24"), cell=1),
    Figure("docs/collectives.md", "| `hplsim run scenarios/aurora-hpl-sc24.textproto` |", R("aurora-hpl-sc24", "time_s"),
           cell=1, number=1),
    Figure("docs/collectives.md", "| `hplsim run scenarios/aurora-mxp-sc24.textproto` |", R("aurora-mxp-sc24"), cell=1),
    Figure("docs/collectives.md", "| `hplsim run scenarios/aurora-mxp-sc24.textproto` |", R("aurora-mxp-sc24", "time_s"),
           cell=1, number=1),
    Figure("docs/aurora.md", "Sourced only, 13.07 / 9.51 EF/s (1.374x)", R("aurora-mxp-sc24-sourced"), scale=1e18),
    Figure("docs/aurora.md", "Sourced only, 13.07 / 9.51 EF/s (1.374x)", R("aurora-mxp-sc24-noamx-sourced"), number=1),
    Figure("docs/aurora.md", "Sourced only, 13.07 / 9.51 EF/s (1.374x)",
           ratio(R("aurora-mxp-sc24-sourced"), R("aurora-mxp-sc24-noamx-sourced")), number=2),
    Figure("docs/collectives.md", "| `hplsim run scenarios/aurora-hpl-sc24.textproto` |", R("aurora-hpl-sc24-mpich32"),
           cell=2),
    Figure("docs/collectives.md", "| `hplsim run scenarios/aurora-hpl-sc24.textproto` |",
           R("aurora-hpl-sc24-mpich32", "time_s"), cell=2, number=1),
    Figure("docs/collectives.md", "| `hplsim run scenarios/aurora-mxp-sc24.textproto` |", R("aurora-mxp-sc24-mpich32"),
           cell=2),
    Figure("docs/collectives.md", "| `hplsim run scenarios/aurora-mxp-sc24.textproto` |",
           R("aurora-mxp-sc24-mpich32", "time_s"), cell=2, number=1),
    Figure("docs/collectives.md", "| `hplsim run scenarios/aurora-mxp-sc24.textproto` |",
           Fn("{0} - {1}", lambda a, b: a - b, R("aurora-mxp-sc24", "time_s"), R("aurora-mxp-sc24-mpich32", "time_s")),
           cell=2, number=2),
    Figure("docs/collectives.md", "dominate: 0.004 s of the run",
           Fn("{0} - {1}", lambda a, b: a - b, R("aurora-mxp-sc24", "time_s"), R("aurora-mxp-sc24-mpich32", "time_s"))),
    # ---- machine pages: the headline prediction and one-node checks
    Figure("docs/frontier.md", "- **Prediction: 1.041 EF/s**", R("frontier-hpl-4w")),
    Figure("docs/frontier.md", "scenario's 10, sampling error 1.6%", R("frontier-hpl-4w", "rmax_sampling_error_fraction"),
           number=1),
    Figure("docs/frontier.md", "gives 176.8 TF/s against the measured 155 (+14%)", Run("mi250x-node-rochpl7",
                                                                                        "rmax_flops_per_s")),
    Figure("docs/frontier.md", "gives 176.8 TF/s against the measured 155 (+14%)",
           rel(Run("mi250x-node-rochpl7", "rmax_flops_per_s"), MI250X_NODE), number=2),
    Figure("docs/el-capitan.md", "- **Prediction: 1.849 EF/s**", R("el-capitan-hpl")),
    Figure("docs/el-capitan.md", "the model gives 196.1 TF/s", Run("mi300a-node-rochpl7", "rmax_flops_per_s")),
    Figure("docs/frontier.md", "simulated 2.06 h, 2026-12-06; 13.8 TF/s per GCD", R("frontier-hpl-4w", "time_s")),
    Figure("docs/frontier.md", "simulated 2.06 h, 2026-12-06; 13.8 TF/s per GCD",
           Fn("{0} / 75,264 GCDs", lambda r: r / 75264, R("frontier-hpl-4w")), number=4),
    Figure("docs/el-capitan.md", "(41.5 TF/s per APU;", Fn("{0} / 44,544 APUs", lambda r: r / 44544,
                                                            R("el-capitan-hpl"))),
    Figure("docs/el-capitan.md", "simulated 1.493 h, sampling error 0.4%", R("el-capitan-hpl", "time_s")),
    Figure("docs/el-capitan.md", "simulated 1.493 h, sampling error 0.4%",
           R("el-capitan-hpl", "rmax_sampling_error_fraction"), number=1),
    Figure("docs/el-capitan.md", "2.55 M\n  activities, 23 s wall and 511 MiB peak", R("el-capitan-hpl", "activities"),
           scale=1e6),
    Figure("docs/el-capitan.md", "2.55 M\n  activities, 23 s wall and 511 MiB peak", R("el-capitan-hpl", "wall_s"),
           number=1),
    Figure("docs/el-capitan.md", "2.55 M\n  activities, 23 s wall and 511 MiB peak",
           R("el-capitan-hpl", "peak_rss_mib"), number=2),
    Figure("docs/el-capitan.md", "the model's 41.5 TF/s per APU at full scale (the prediction above) is 4.3% and 3.2%",
           Fn("{0} / 44,544 APUs", lambda r: r / 44544, R("el-capitan-hpl"))),
    Figure("docs/el-capitan.md", "the model's 41.5 TF/s per APU at full scale (the prediction above) is 4.3% and 3.2%",
           rel(Fn("{0} / 44,544 APUs", lambda r: r / 44544, R("el-capitan-hpl")), 39.8e12), number=1),
    Figure("docs/el-capitan.md", "the model's 41.5 TF/s per APU at full scale (the prediction above) is 4.3% and 3.2%",
           rel(Fn("{0} / 44,544 APUs", lambda r: r / 44544, R("el-capitan-hpl")), 40.2e12), number=2),
    Figure("docs/jupiter.md", "the model's 150.8 TF/s per node at full scale (the prediction above) is 12% low",
           Fn("{0} / 6,000 nodes", lambda r: r / 6000, R("jupiter-hpl"))),
    Figure("docs/jupiter.md", "the model's 150.8 TF/s per node at full scale (the prediction above) is 12% low",
           neg(rel(Fn("{0} / 6,000 nodes", lambda r: r / 6000, R("jupiter-hpl")), 170.6e12)), number=1),
    Figure("docs/jupiter.md", "- **Prediction: 904.5 PF/s**", R("jupiter-hpl")),
    Figure("docs/jupiter.md", "simulated 47.05 min, 2026-12-07; 37.7 TF/s per GPU", R("jupiter-hpl", "time_s")),
    Figure("docs/jupiter.md", "simulated 47.05 min, 2026-12-07; 37.7 TF/s per GPU",
           Fn("{0} / 24,000 GPUs", lambda r: r / 24000, R("jupiter-hpl")), number=4),
    # The cost estimate's table: the memory bounds measured (docs/bench/fast-cost.csv).
    *[Figure("docs/fast-mode.md", f"| {name} |", Bench("fast-cost.csv", name, "bound_mib"), cell=4)
      for name in ("flagship", "mxp", "one-node", "el-capitan", "el-capitan-1000-folded-rolls", "aurora-1k-every-rank",
                   "aurora-4k-folded", "aurora-16k-folded-rolls")],
    # The memory bound against what the processes held (scripts/measure-tree-memory.py --record).
    *[Figure("docs/fast-mode.md", row, Bench("memory-bound.csv", name, field), cell=cell)
      for row, name in (("| flagship (`aurora-hpl-sc24`) |", "flagship"), ("| mxp (`aurora-mxp-sc24`) |", "mxp"),
                        ("| one-node (`aurora-hpl-1node --mode fast`) |", "one-node"))
      for cell, field in ((1, "rss_peaks_mib"), (2, "bound_mib"), (3, "pss_max_mib"))],
    Figure("docs/jupiter.md", "2.0 M activities,\n  21 s wall and 313 MiB peak", R("jupiter-hpl", "activities"),
           scale=1e6),
    Figure("docs/jupiter.md", "2.0 M activities,\n  21 s wall and 313 MiB peak", R("jupiter-hpl", "wall_s"),
           number=1),
    Figure("docs/jupiter.md", "2.0 M activities,\n  21 s wall and 313 MiB peak", R("jupiter-hpl", "peak_rss_mib"),
           number=2),
    Figure("docs/jupiter.md", "sampling error 0.5%, simulated 47.05 min", R("jupiter-hpl", "rmax_sampling_error_fraction")),
    Figure("docs/codes/intel-gpu.md", "138.4 TF/s: `build/sim/hplsim run scenarios/aurora-hpl-1node.textproto`",
           Run("aurora-hpl-1node", "rmax_flops_per_s")),
    # ---- docs/your-machine.md (the template's run)
    Figure("docs/your-machine.md", "Rmax 2.194 PF/s, simulated time 2.030 min", Run("template", "rmax_flops_per_s")),
    Figure("docs/your-machine.md", "Rmax 2.194 PF/s, simulated time 2.030 min", Run("template", "time_s"), number=1),
    Figure("docs/your-machine.md", "121.78             2.1939e+06", Run("template", "time_s")),
    Figure("docs/your-machine.md", "121.78             2.1939e+06", Run("template", "rmax_flops_per_s"), number=1,
           scale=1e9),
    Figure("docs/your-machine.md", "Sampling error of Rmax: 0.7 %", Run("template", "rmax_sampling_error_fraction")),
    Figure("docs/your-machine.md", "step 321 of 1440, 0.223 of N; sustained", Run("template", "crossover_step")),
    Figure("docs/your-machine.md", "step 321 of 1440, 0.223 of N; sustained", Run("template", "crossover_fraction"),
           number=2),
    Figure("docs/your-machine.md", "Simulator: wall ... s, 507478 activities", Run("template", "stats.activities")),
    Figure("docs/your-machine.md", "Rmax 2.19 PF/s is 51% [D]", Run("template", "rmax_flops_per_s")),
    Figure("docs/your-machine.md", "Rmax 2.19 PF/s is 51% [D]",
           Fn("{0} / 4.29e15", lambda r: r / 4.29e15, Run("template", "rmax_flops_per_s")), number=1),
    Figure("docs/your-machine.md", "112.82             2.3681e+06", Run("template-gpu-aware", "time_s")),
    Figure("docs/your-machine.md", "112.82             2.3681e+06", Run("template-gpu-aware", "rmax_flops_per_s"),
           number=1, scale=1e9),
    Figure("docs/your-machine.md", "Rmax 2.368 PF/s, simulated time 1.880 min", Run("template-gpu-aware",
                                                                                  "rmax_flops_per_s")),
    Figure("docs/your-machine.md", "Rmax 2.368 PF/s, simulated time 1.880 min", Run("template-gpu-aware", "time_s"),
           number=1),
    Figure("docs/your-machine.md", "Sampling error of Rmax: 0.8 %", Run("template-gpu-aware",
                                                                       "rmax_sampling_error_fraction")),
    Figure("docs/your-machine.md", "Rmax +7.9% [D] (2.368 against 2.194 PF/s)",
           rel(Run("template-gpu-aware", "rmax_flops_per_s"), Run("template", "rmax_flops_per_s"))),
    Figure("docs/your-machine.md", "Rmax +7.9% [D] (2.368 against 2.194 PF/s)",
           Run("template-gpu-aware", "rmax_flops_per_s"), number=1, scale=1e15),
    Figure("docs/your-machine.md", "Rmax +7.9% [D] (2.368 against 2.194 PF/s)", Run("template", "rmax_flops_per_s"),
           number=2),
    Figure("docs/your-machine.md", "swap time 32.2 s to 20.7 s", Run("template", "phase_totals_s.swap")),
    Figure("docs/your-machine.md", "swap time 32.2 s to 20.7 s", Run("template-gpu-aware", "phase_totals_s.swap"),
           number=1),
    # ---- scenario headers
    Figure("scenarios/template.textproto", "Rmax 2.19 PF/s", Run("template", "rmax_flops_per_s")),
    Figure("scenarios/template.textproto", "121.8 s of simulated time", Run("template", "time_s")),
    Figure("scenarios/template.textproto", "Rmax 2.19 PF/s, 51% of\n# the 64 GPUs' 4.29 PF/s",
           Fn("{0} / 4.29e15", lambda r: r / 4.29e15, Run("template", "rmax_flops_per_s")), number=1),
    Figure("scenarios/workstation-cpu.textproto", "69.8 Gflop/s", Run("workstation", "rmax_flops_per_s")),
    Figure("scenarios/small-dragonfly.textproto", "Rmax 5.89 TF/s", Run("small-dragonfly", "rmax_flops_per_s")),
    Figure("scenarios/small-dragonfly.textproto", "0.21 s of simulated", Run("small-dragonfly", "time_s")),
    Figure("scenarios/faults/small-dragonfly-failures.textproto", "(seed 1) shows: 166.7 s, Rmax 7.42 PF/s",
           Run("small-dragonfly-failures", "time_s"), number=1),
    Figure("scenarios/faults/small-dragonfly-failures.textproto", "(seed 1) shows: 166.7 s, Rmax 7.42 PF/s",
           Run("small-dragonfly-failures", "rmax_flops_per_s"), number=2),
    Figure("scenarios/aurora-hpl-1node.textproto", "Rmax 138.4 TF/s (-0.4%)", Run("aurora-hpl-1node", "rmax_flops_per_s")),
    Figure("scenarios/aurora-hpl-1node.textproto", "Rmax 138.4 TF/s (-0.4%)",
           rel(Run("aurora-hpl-1node", "rmax_flops_per_s"), AURORA_1NODE), number=1),
    Figure("scenarios/aurora-hpl-1node.textproto", "129.4 s of simulated", Run("aurora-hpl-1node", "time_s")),
    Figure("scenarios/aurora-hpl-1node.textproto", "(crossover 0.14 of N)", Run("aurora-hpl-1node", "crossover_fraction")),
    Figure("scenarios/aurora-hpl-1node.textproto", "With --sourced-only: 139.6 TF/s (+0.4%)",
           R("aurora-hpl-1node-sourced")),
    Figure("scenarios/aurora-hpl-1node.textproto", "With --sourced-only: 139.6 TF/s (+0.4%)",
           rel(R("aurora-hpl-1node-sourced"), AURORA_1NODE), number=1),
    Figure("scenarios/aurora-hpl-sc24.textproto", "so its 1.013 EF/s agrees", R("aurora-hpl-sc24")),
    Figure("scenarios/aurora-hpl-sc24.textproto", "falls below it at 0.79 of N", R("aurora-hpl-sc24",
                                                                                 "gemm_below_phase_fraction")),
    Figure("scenarios/aurora-hpl-sc24.textproto", "where the rate drops (0.37)", R("aurora-hpl-sc24",
                                                                                "rate_drop_fraction")),
    Figure("scenarios/aurora-hpl-sc24.textproto", "# 1.397 EF/s (+38%", R("aurora-hpl-sc24-sourced")),
    Figure("scenarios/aurora-hpl-sc24.textproto", "# 0.995 EF/s; which setting", R("aurora-hpl-sc24-gpu1500-sourced")),
    Figure("scenarios/aurora-hpl-sc24.textproto", "# 1.397 EF/s (+38%", rel(R("aurora-hpl-sc24-sourced"), AURORA_HPL),
           number=1, rel=0.01),
    Figure("scenarios/aurora-mxp-sc24.textproto", "Aurora\"; a full-scale run takes minutes): 12.13 EF/s (+4.2%)",
           R("aurora-mxp-sc24"), number=0),
    Figure("scenarios/aurora-mxp-sc24.textproto", "12.13 EF/s (+4.2%) with", rel(R("aurora-mxp-sc24"), AURORA_MXP),
           number=1),
    Figure("scenarios/aurora-mxp-sc24.textproto", "# 13.07 EF/s (+12.2%) in 9,799 s", R("aurora-mxp-sc24-sourced")),
    Figure("scenarios/aurora-mxp-sc24.textproto", "# 13.07 EF/s (+12.2%) in 9,799 s",
           rel(R("aurora-mxp-sc24-sourced"), AURORA_MXP), number=1),
    Figure("scenarios/aurora-mxp-sc24.textproto", "# 13.07 EF/s (+12.2%) in 9,799 s", R("aurora-mxp-sc24-sourced",
                                                                                        "time_s"), number=2),
    Figure("scenarios/validation/mi250x-node-rochpl7.textproto", "The model gives 176.8 TF/s (+14% against",
           Run("mi250x-node-rochpl7", "rmax_flops_per_s")),
    Figure("scenarios/validation/mi250x-node-rochpl7.textproto", "The model gives 176.8 TF/s (+14% against",
           rel(Run("mi250x-node-rochpl7", "rmax_flops_per_s"), MI250X_NODE), number=1),
    Figure("scenarios/validation/mi300a-node-rochpl7.textproto", "The model gives 196.1 TF/s (+21% against",
           Run("mi300a-node-rochpl7", "rmax_flops_per_s")),
    Figure("scenarios/validation/mi300a-node-rochpl7.textproto", "The model gives 196.1 TF/s (+21% against",
           rel(Run("mi300a-node-rochpl7", "rmax_flops_per_s"), MI300A_NODE), number=1),
    Figure("scenarios/bench-1020.textproto", "Rmax 229.5 TF/s in reference mode", V("bench-1020", "Rmax ref TF/s", 1e12)),
    Figure("scenarios/bench-1020.textproto", "fast mode\n# +0.09%;", V("bench-1020", "error", 1e-2)),
    Figure("scenarios/bench-1020.textproto", "# 144 s of simulator wall time", V("bench-1020", "wall ref s")),
]

for _name, _rmax, _error in (("df-504-d0", "79.33", "+0.04%"), ("df-1008-d0", "78.87", "-0.07%"),
                             ("df-1056-nb512", "224.95", "+0.13%")):
    _text = f"Rmax {_rmax} TF/s in reference mode, fast mode {_error}"
    FIGURES += [
        Figure(f"scenarios/validation/{_name}.textproto", _text, V(_name, "Rmax ref TF/s", 1e12)),
        Figure(f"scenarios/validation/{_name}.textproto", _text, V(_name, "error", 1e-2), number=1),
    ]

# the Aurora fault scenarios' headers: the base run, sourced only
for _doc in ("aurora-hpl-sc24-flaps", "faults/aurora-hpl-sc24-failures", "faults/aurora-hpl-sc24-swap-nic-flaps"):
    FIGURES += [
        Figure(f"scenarios/{_doc}.textproto", "predicts 1.397 EF/s for the base run (+38%",
               R("aurora-hpl-sc24-sourced")),
        Figure(f"scenarios/{_doc}.textproto", "predicts 1.397 EF/s for the base run (+38%",
               rel(R("aurora-hpl-sc24-sourced"), AURORA_HPL), number=1, rel=0.01),
    ]

# docs/your-machine.md: the phase lines of the template's output and of its GPU-aware run
for _run, _lines in (("template", ("pfact                                 54.97 s  17.0 %        6.875 s",
                                   "bcast                                 148.1 s  45.8 %        76.86 s",
                                   "swap                                  32.22 s  10.0 %        26.17 s",
                                   "trsm                                 0.9415 s   0.3 %       0.8176 s",
                                   "gemm                                  87.49 s  27.0 %        84.61 s",
                                   "solve                               0.01784 s   0.0 %      0.01780 s")),
                     ("template-gpu-aware", ("pfact                                 54.96 s  17.6 %        6.875 s",
                                             "bcast                                 148.9 s  47.6 %        77.16 s",
                                             "swap                                  20.70 s   6.6 %        11.65 s",
                                             "gemm                                  87.55 s  28.0 %        84.65 s"))):
    for _line in _lines:
        _phase = _line.split()[0]
        FIGURES += [
            Figure("docs/your-machine.md", _line, Run(_run, f"phase_totals_s.{_phase}")),
            Figure("docs/your-machine.md", _line, Run(_run, f"phase_mean_totals_s.{_phase}"), number=2),
        ]

# docs/codes/rochpl-7.md: the one-node checks against CSCS's rocHPL runs (measured: published)
for _start, _run, _measured in (("| MI300A, 4 APUs, 2 x 2 | 218,880 |", "mi300a-node-rochpl7", 162e12),
                                ("| MI300A | 192,000 |", "mi300a-node-rochpl7-n192000", 157e12),
                                ("| MI250X, 8 GCDs, 2 x 4 | 218,880 |", "mi250x-node-rochpl7", 155e12),
                                ("| MI250X | 192,000 |", "mi250x-node-rochpl7-n192000", 149e12)):
    FIGURES += [
        Figure("docs/codes/rochpl-7.md", _start, Run(_run, "rmax_flops_per_s"), cell=3, scale=1e12),
        Figure("docs/codes/rochpl-7.md", _start, rel(Run(_run, "rmax_flops_per_s"), _measured), cell=4),
        Figure("docs/codes/rochpl-7.md", _start, Run(_run, "time_s"), cell=5),
    ]

# docs/fast-mode.md: the validation table, a copy of docs/bench/validation.md (scripts/validate-fast.sh)
for _name in ("df-504-d0", "df-1008-d0", "bench-1020", "df-1056-nb512"):
    _start = f"| {_name} | "
    FIGURES += [
        Figure("docs/fast-mode.md", _start, V(_name, "Rmax ref TF/s"), cell=6),
        Figure("docs/fast-mode.md", _start, V(_name, "Rmax fast TF/s"), cell=7),
        Figure("docs/fast-mode.md", _start, V(_name, "error", 1e-2), cell=8),
        Figure("docs/fast-mode.md", _start, V(_name, "wall ref s"), cell=10),
        Figure("docs/fast-mode.md", _start, V(_name, "wall fast s"), cell=10, number=1),
    ]

# README.md, "A short tour": the noise benchmark's table (its stdout: median, p99, max, iterations over 1.1 x)
for _busy in ("48", "47", "46"):
    _start = f"| {_busy} | {48 - int(_busy)} | "
    FIGURES += [Figure("README.md", _start, RunTable("noise-bench", _busy, _column, 1e-6), cell=_cell)
                for _cell, _column in ((2, 4), (3, 5), (4, 6))]
    FIGURES.append(Figure("README.md", _start, RunTable("noise-bench", _busy, 7), cell=5))

# README.md, "A short tour": each command's CPU time (docs/bench/readme-examples.csv,
# scripts/check-readme-examples.py --record)
for _command, _quoted, _number in (
        ("./build/sim/hplsim run scenarios/small-dragonfly.textproto", "# 4.2 s: Rmax", 0),
        ("./build/sim/hplsim sweep scenarios/small-dragonfly.textproto --vary NB=128,256 --grids auto:0.3-1 --mode fast",
         "--mode fast   # 17 s, 4 points", 0),
        ("./build/sim/hplsim run --hpl-dat scenarios/hpl-dat/workstation-n12000.dat --machine "
         "scenarios/workstation-cpu.textproto", "workstation-cpu.textproto   # 1 s", 0),
        ("./build/sim/hplsim plan scenarios/faults/small-dragonfly-failures.textproto --nodes 12,24,48 --trials 200 "
         "--window-hours 0.08 --mode fast", "--mode fast   # 29 s", 0),
        ("./build/sim/hplsim run scenarios/small-dragonfly.textproto --mode analytic --out "
         "hplsim-out/small-dragonfly-analytic", "small-dragonfly-analytic   # 0.1 s", 0),
        ("./build/sim/hplsim noise-bench scenarios/marenostrum4-osu.textproto --busy-cores 48,47,46",
         "--busy-cores 48,47,46   # 8 s", 1),
        ("./build/sim/hplsim osu allreduce scenarios/marenostrum4-osu.textproto --nodes 16 --ppn 48",
         "--nodes 16 --ppn 48   # 42 s", 2)):
    FIGURES.append(Figure("README.md", _quoted, Bench("readme-examples.csv", {"command": _command}, "cpu_s"),
                          number=_number))

# docs/frontier.md: one node's sensitivities
for _start, _runs in (("| the scenario (NB 512, 7 panel threads", ("frontier-1node",)),
                      ("| 8 panel threads (no core reserved", ("frontier-1node-threads8",)),
                      ("| NB 384 / NB 256 (", ("frontier-1node-nb384", "frontier-1node-nb256")),
                      ("| host-staged messages (", ("frontier-1node-staged",)),
                      ("| NBMIN 32 (", ("frontier-1node-nbmin32",))):
    FIGURES += [Figure("docs/frontier.md", _start, Run(_run, "rmax_flops_per_s"), cell=1, number=_i, scale=1e12)
                for _i, _run in enumerate(_runs)]

# docs/at-scale.md: the sourced mechanisms alone and together (docs/bench/at-scale-mechanisms.md, the table
# scripts/at-scale-mechanisms.sh prints)
for _start, _set in (("| none | pre-production GPU setting", "none"), ("| GPU spread |", "spread"),
                     ("| temporal jitter |", "jitter"), ("| production GPU setting |", "gpu"), ("| all three |", "all")):
    for _cell, (_scenario, _scale, _published) in enumerate((("aurora-hpl-1node", 1e12, AURORA_1NODE),
                                                              ("aurora-hpl-sc24", 1e18, AURORA_HPL),
                                                              ("aurora-mxp-sc24", 1e18, AURORA_MXP)), start=2):
        _mech = Bench("at-scale-mechanisms.md", _set, _scenario, scale=_scale)
        FIGURES += [
            Figure("docs/at-scale.md", _start, _mech, cell=_cell, scale=_scale),
            Figure("docs/at-scale.md", _start, Bench("at-scale-mechanisms.md", _set, _scenario, scale=1e-2, part=1),
                   cell=_cell, number=1),
        ]

_M = lambda _set, _scenario, _scale: Bench("at-scale-mechanisms.md", _set, _scenario, scale=_scale)
FIGURES += [
    Figure("docs/at-scale.md", "GPU spread costs 2.2% at full scale (0.7% on one",
           neg(rel(_M("spread", "aurora-hpl-sc24", 1e18), _M("none", "aurora-hpl-sc24", 1e18)))),
    Figure("docs/at-scale.md", "GPU spread costs 2.2% at full scale (0.7% on one",
           neg(rel(_M("spread", "aurora-hpl-1node", 1e12), _M("none", "aurora-hpl-1node", 1e12))), number=1),
    Figure("docs/at-scale.md", "Temporal jitter at Cornebize's 3% costs 5.0% at full",
           neg(rel(_M("jitter", "aurora-hpl-sc24", 1e18), _M("none", "aurora-hpl-sc24", 1e18))), number=1),
    Figure("docs/at-scale.md", "puts one node at 104 TF/s, not 139", _M("gpu", "aurora-hpl-1node", 1e12), rel=0.0),
    Figure("docs/at-scale.md", "108.7 against\n  104.0 TF/s per node",
           Fn("{0} / 9,234 nodes", lambda r: r / 9234, _M("gpu", "aurora-hpl-sc24", 1e18)), tol=0.05e12, scale=1e12),
    Figure("docs/at-scale.md", "108.7 against\n  104.0 TF/s per node", _M("gpu", "aurora-hpl-1node", 1e12), number=1),
]

# docs/results.md: the NB x P x Q sweep at full Aurora scale (docs/bench/sweep-aurora-nb-grids.csv)
for _rank, _nb, _grid in ((1, 384, "162 x 342"), (2, 512, "171 x 324"), (3, 512, "162 x 342"), (4, 384, "171 x 324"),
                          (5, 256, "162 x 342"), (6, 256, "171 x 324"), (7, 384, "228 x 243"), (8, 512, "228 x 243"),
                          (9, 256, "228 x 243")):
    _row = {"NB": str(_nb), "PxQ": _grid.replace(" ", "")}
    _start = f"| {_rank} | **{_nb}** |" if _rank == 1 else f"| {_rank} | {_nb} | {_grid} |"
    FIGURES += [
        Figure("docs/results.md", _start, Bench("sweep-aurora-nb-grids.csv", _row, "rmax_flops_per_s"), cell=3,
               scale=1e18),
        Figure("docs/results.md", _start, Bench("sweep-aurora-nb-grids.csv", _row, "rmax_sampling_error_fraction"),
               cell=4),
    ]
    if _rank > 1:
        FIGURES.append(Figure("docs/results.md", _start,
                              neg(Bench("sweep-aurora-nb-grids.csv", _row, "below_best_fraction")), cell=5))

# docs/results.md: the plan at a machine MTBF of 6 h (docs/bench/plan-aurora-failures.csv)
for _nodes in (6000, 7000, 8000, 9234):
    _start = f"| {_nodes:,} | "
    _plan = lambda field, _n=_nodes: Bench("plan-aurora-failures.csv", str(_n), field)
    FIGURES += [
        Figure("docs/results.md", _start, _plan("n"), cell=2),
        Figure("docs/results.md", _start, _plan("fault_free_time_s"), cell=3, scale=3600.0),
        Figure("docs/results.md", _start, _plan("fault_free_rmax_flops_per_s"), cell=4, scale=1e18),
        Figure("docs/results.md", _start, _plan("rmax_sampling_error_fraction"), cell=5),
        Figure("docs/results.md", _start, _plan("p_complete"), cell=6),
        Figure("docs/results.md", _start, _plan("p_complete_low"), cell=6, number=1),
        Figure("docs/results.md", _start, _plan("p_complete_high"), cell=6, number=2),
        Figure("docs/results.md", _start, _plan("expected_time_to_result_s"), cell=7, scale=3600.0),
        Figure("docs/results.md", _start, _plan("expected_time_to_result_low_s"), cell=7, number=1, scale=3600.0),
        Figure("docs/results.md", _start, _plan("expected_time_to_result_high_s"), cell=7, number=2, scale=3600.0),
        Figure("docs/results.md", _start, _plan("rmax_in_window_flops_per_s"), cell=8, scale=1e18),
        Figure("docs/results.md", _start, _plan("rmax_in_window_low"), cell=8, number=1, scale=1e18),
        Figure("docs/results.md", _start, _plan("rmax_in_window_high"), cell=8, number=2, scale=1e18),
    ]

# README.md, "A short tour": MareNostrum 4's OSU latencies (docs/bench/osu-collectives/, scripts/osu-collectives.sh)
for _coll in ("allreduce", "bcast", "allgather", "alltoall"):
    for _n in (4, 16, 32):
        for _cell, _size in enumerate((8, 1024, 8192, 65536, 262144, 1048576), start=2):
            if _n > 4 and _size == 1048576 and _coll in ("allgather", "alltoall"):
                continue  # "-": OSU does not run that size at that count
            FIGURES.append(Figure("README.md", f"| {_coll} | {_n} x 48 |",
                                  Bench(f"osu-collectives/mn4-{_coll}-{_n}n.txt", str(_size), scale=1e-6),
                                  cell=_cell, scale=1e-6))

# docs/el-capitan.md and docs/jupiter.md: the smaller runs and the 16-node sensitivities ("The run", "What
# the model says"); the full scale and one group from docs/bench/results.csv
_EL16 = ["run", "scenarios/el-capitan-hpl.textproto", "--nodes", "16", "--mode", "fast"]
_JU16 = ["run", "scenarios/jupiter-hpl.textproto", "--nodes", "16", "--mode", "fast"]
for _run, _extra in (("el-capitan-16", []), ("el-capitan-16-rochpl6", ["--set", "workload.hpl.code=ROCHPL_6"]),
                     ("el-capitan-16-nb512", ["--NB", "512"]), ("el-capitan-16-nb256", ["--NB", "256"]),
                     ("el-capitan-16-staged", ["--set", "machine.placement.gpu_aware_mpi=false"]),
                     ("el-capitan-16-colmajor", ["--set", "workload.column_major=true"])):
    RUNS[_run] = _EL16 + _extra
for _run, _extra in (("jupiter-16", []), ("jupiter-16-nb512", ["--NB", "512"]), ("jupiter-16-nb256", ["--NB", "256"]),
                     ("jupiter-16-nvlink50", ["--set", "machine.node.gpu_link_bandwidth_bytes_per_s=50e9"]),
                     ("jupiter-16-nvlink600", ["--set", "machine.node.gpu_link_bandwidth_bytes_per_s=600e9"]),
                     ("jupiter-16-shm150", ["--set", "machine.node.shm_bandwidth_bytes_per_s=150e9"]),
                     ("jupiter-16-colmajor", ["--set", "workload.column_major=true"]),
                     ("jupiter-16-staged", ["--set", "machine.placement.gpu_aware_mpi=false"])):
    RUNS[_run] = _JU16 + _extra


def _rmax(run):
    return Run(run, "rmax_flops_per_s")


def _per(source, count, what):
    return Fn(f"{{0}} / {count:,} {what}", lambda r, c=count: r / c, source)


def _sampling(runs, pick):
    return Fn(f"{pick.__name__} sampling error of " + ", ".join(runs), lambda *v: pick(v),
              *(Run(r, "rmax_sampling_error_fraction") for r in runs))


for _doc, _full, _group, _unit, _units, _texts, _base, _rows in (
        ("docs/el-capitan.md", "el-capitan-hpl", "el-capitan-hpl-128", "APUs", (4, 64, 512, 44544),
         ("64,096 panel steps", "early level\nat 0.205 of N", "the sustained rate at 0.203",
          "the largest other phase, at 0.706", "the sampling errors are 0.2 to 0.7%"), "el-capitan-16",
         (("| rocHPL 6, the CPU panel", ("el-capitan-16-rochpl6",)),
          ("| NB 512 / NB 256 (`--NB`", ("el-capitan-16-nb512", "el-capitan-16-nb256")),
          ("| host-staged messages (`--set", ("el-capitan-16-staged",)),
          ("| column-major process map (`--set", ("el-capitan-16-colmajor",)))),
        ("docs/jupiter.md", "jupiter-hpl", "jupiter-hpl-240", "GPUs", (None, 64, 960, 24000),
         ("15,279 panel steps", "early level at 0.199 of N", "the sustained rate at 0.176",
          "the largest other phase, at 0.624", "the sampling errors are 0.2 to 0.4%"), "jupiter-16",
         (("| NB 512 / NB 256 (`--NB`", ("jupiter-16-nb512", "jupiter-16-nb256")),
          ("| NVLink (`gpu_link`) 50e9 / 600e9", ("jupiter-16-nvlink50", "jupiter-16-nvlink600")),
          ("| `shm` 150e9 instead of 50e9 |", ("jupiter-16-shm150",)),
          ("| column-major process map (`--set", ("jupiter-16-colmajor",)),
          ("| host-staged messages (`--set", ("jupiter-16-staged",))))):
    FIGURES += [
        Figure(_doc, _texts[0], R(_full, "steps")),
        Figure(_doc, _texts[1], R(_full, "crossover_fraction")),
        Figure(_doc, _texts[2], R(_full, "rate_drop_fraction")),
        Figure(_doc, _texts[3], R(_full, "gemm_below_phase_fraction")),
        Figure(_doc, "| the scenario | ", _rmax(_base), cell=1, scale=1e15),
    ]
    _smaller = [("| `--nodes 16 --mode fast` |", _rmax(_base), _units[1]),
                ("| one group, `--nodes ", R(_group), _units[2]), ("| full scale | ", R(_full), _units[3])]
    if _units[0]:
        _smaller.insert(0, ("| one node: CSCS's test", _rmax("mi300a-node-rochpl7"), _units[0]))
    for _start, _source, _count in _smaller:
        FIGURES += [Figure(_doc, _start, _source, cell=2),
                    Figure(_doc, _start, _per(_source, _count, _unit), cell=3)]
    _all = [_base]
    for _start, _runs in _rows:
        for _i, _run in enumerate(_runs):
            _all.append(_run)
            FIGURES += [Figure(_doc, _start, _rmax(_run), cell=1, number=2 * _i, scale=1e15)]
            if not _start.startswith("| `shm`"):
                FIGURES.append(Figure(_doc, _start, rel(_rmax(_run), _rmax(_base)), cell=1, number=2 * _i + 1))
    FIGURES += [
        Figure(_doc, _texts[4], _sampling(_all, min), scale=1e-2),
        Figure(_doc, _texts[4], _sampling(_all, max), number=1, scale=1e-2),
    ]

_EL_APU = _per(R("el-capitan-hpl"), 44544, "APUs")
_JU_GPU = _per(R("jupiter-hpl"), 24000, "GPUs")
FIGURES += [
    Figure("docs/el-capitan.md", "runs at 0.91 of the 53.9 TF/s DGEMM ceiling",
           Fn("{0} / 4 APUs / 53.9 TF/s", lambda r: r / 4 / 53.9e12, _rmax("mi300a-node-rochpl7"))),
    Figure("docs/el-capitan.md", "and 0.77 at full scale", Fn("{0} / 53.9 TF/s", lambda r: r / 53.9e12, _EL_APU)),
    Figure("docs/el-capitan.md", "which rocHPL uses (10%)", neg(rel(_rmax("el-capitan-16-staged"),
                                                                   _rmax("el-capitan-16")))),
    Figure("docs/el-capitan.md", "the process map (4%)", rel(_rmax("el-capitan-16-colmajor"), _rmax("el-capitan-16"))),
    Figure("docs/jupiter.md", "runs at 0.79 of the 51.7 TF/s DGEMM ceiling",
           Fn("{0} / 64 GPUs / 51.7 TF/s", lambda r: r / 64 / 51.7e12, _rmax("jupiter-16"))),
    Figure("docs/jupiter.md", "at 16 nodes and 0.73 at full scale", Fn("{0} / 51.7 TF/s", lambda r: r / 51.7e12,
                                                                     _JU_GPU), number=1),
    Figure("docs/jupiter.md", "GEMM the largest\nphase until 0.624 of N", R("jupiter-hpl", "gemm_below_phase_fraction")),
    Figure("docs/jupiter.md", "GPU-aware messages (4 and 5%)", rel(_rmax("jupiter-16-colmajor"), _rmax("jupiter-16")),
           scale=1e-2),
    Figure("docs/jupiter.md", "GPU-aware messages (4 and 5%)", neg(rel(_rmax("jupiter-16-staged"),
                                                                       _rmax("jupiter-16"))), number=1),
    Figure("docs/jupiter.md", "turning it off costs 4.6% at 16 nodes", neg(rel(_rmax("jupiter-16-staged"),
                                                                             _rmax("jupiter-16")))),
]

# docs/codes/rochpl-7.md: the MI300A check with slower APU-to-APU links
for _gbs in ("50", "93"):
    RUNS[f"mi300a-node-rochpl7-link{_gbs}"] = RUNS["mi300a-node-rochpl7"] + [
        "--set", f"machine.node.gpu_link_bandwidth_bytes_per_s={_gbs}e9",
        "--set", f"machine.node.upi_bandwidth_bytes_per_s={_gbs}e9"]
_LINKS = "moves from 196.1 to only 190.7 TF/s (at 93 GB/s: 194.8"
FIGURES += [
    Figure("docs/codes/rochpl-7.md", _LINKS, _rmax("mi300a-node-rochpl7"), scale=1e12),
    Figure("docs/codes/rochpl-7.md", _LINKS, _rmax("mi300a-node-rochpl7-link50"), number=1),
    Figure("docs/codes/rochpl-7.md", _LINKS, _rmax("mi300a-node-rochpl7-link93"), number=3, scale=1e12),
]

# docs/faults.md: the Sync's price without faults, small-dragonfly in reference mode
for _s in ("HYBRID", "COLLECTIVE"):
    RUNS[f"small-dragonfly-{_s.lower()}"] = RUNS["small-dragonfly"] + ["--set", f"workload.hpl.panel_exchange={_s}"]
_SYNC = "reference mode, P2P 5.892 TF/s, HYBRID and\nCOLLECTIVE 5.847 TF/s (-0.8%)"
FIGURES += [
    Figure("docs/faults.md", _SYNC, _rmax("small-dragonfly"), number=1),  # number 0: the 2 of "P2P"
    Figure("docs/faults.md", _SYNC, _rmax("small-dragonfly-hybrid"), number=2),
    Figure("docs/faults.md", _SYNC, _rmax("small-dragonfly-collective"), number=2),
    Figure("docs/faults.md", _SYNC, rel(_rmax("small-dragonfly-hybrid"), _rmax("small-dragonfly")), number=3),
]

# docs/noise.md: Frontier's reserved cores on a 64-node slice, with and without NODE-scope daemons
_F64 = ["run", "scenarios/frontier-hpl.textproto", "--nodes", "64", "--P", "16", "--Q", "32", "--N", "1866240"]
_DAEMONS = ["--set", "machine.variability.noise.sources[0].scope=NODE", "--set",
            "machine.variability.noise.sources[0].poisson.rate_per_s=20", "--set",
            "machine.variability.noise.sources[0].poisson.length_s=1e-3"]
_UNRESERVED = ["--set", "machine.variability.noise.os_cores_per_node=0", "--set", "workload.panel_threads=8"]
RUNS.update({"frontier-64": _F64, "frontier-64-daemons": _F64 + _DAEMONS, "frontier-64-unreserved": _F64 + _UNRESERVED,
             "frontier-64-unreserved-daemons": _F64 + _UNRESERVED + _DAEMONS})
FIGURES += [
    Figure("docs/noise.md", "| 8 reserved, 7 panel threads", _rmax("frontier-64"), cell=1),
    Figure("docs/noise.md", "| 8 reserved, 7 panel threads", _rmax("frontier-64-daemons"), cell=2),
    Figure("docs/noise.md", "| none reserved, 8 panel threads", _rmax("frontier-64-unreserved"), cell=1),
    Figure("docs/noise.md", "| none reserved, 8 panel threads", _rmax("frontier-64-unreserved-daemons"), cell=2),
    Figure("docs/noise.md", "| none reserved, 8 panel threads",
           rel(_rmax("frontier-64-unreserved-daemons"), _rmax("frontier-64-unreserved")), cell=2, number=1),
    Figure("docs/noise.md", "the eighth panel thread is worth more (+6%)",
           rel(_rmax("frontier-64-unreserved"), _rmax("frontier-64"))),
    Figure("docs/noise.md", "the reservation\nsaves (2.1%)",
           neg(rel(_rmax("frontier-64-unreserved-daemons"), _rmax("frontier-64-unreserved")))),
]

# docs/faults.md, "The three strategies under flaps": each strategy's run without flaps (docs/bench/results.csv)
for _s in ("P2P", "HYBRID", "COLLECTIVE"):
    _row = f"aurora-flaps-{_s.lower()}-no-flaps"
    FIGURES += [Figure("docs/faults.md", f"| {_s} | 11,18", R(_row, "time_s"), cell=1),
                Figure("docs/faults.md", f"| {_s} | 11,18", R(_row), cell=1, number=1)]
_FF = lambda s: R(f"aurora-flaps-{s}-no-flaps", "time_s")
FIGURES += [
    Figure("docs/faults.md", "1.74 s of its 1.78 s", Fn("{0} - {1}", lambda a, b: a - b, _FF("hybrid"), _FF("p2p"))),
    Figure("docs/faults.md", "the fault-free one (4.3 ms)",
           Fn("{0} - {1}", lambda a, b: a - b, _FF("collective"), _FF("hybrid")), scale=1e-3),
]

# docs/fast-mode.md: the cheap runs beside the design (small-dragonfly's fast variants, CSCS's MI300A check in
# both modes and with the panel op by op, a 32-node El Capitan slice, the 64-rank HPL-MxP slice)
_SD_FAST = RUNS["small-dragonfly"] + ["--mode", "fast"]
_MXP64 = ["run", "scenarios/aurora-mxp-sc24.textproto", "--mode", "fast", "--nodes", "32", "--P", "8", "--Q", "8",
          "--N", "147456"]
_JITTER = ["--set", "machine.variability.node_gpu_step_cv=0", "--set", "machine.variability.kernel_jitter_cv=0.1468"]
RUNS.update({
    "small-dragonfly-fast": _SD_FAST,
    "small-dragonfly-fast-g8": _SD_FAST + ["--set", "options.fast.pivot_group=8"],
    "small-dragonfly-fast-g32": _SD_FAST + ["--set", "options.fast.pivot_group=32"],
    "small-dragonfly-fold": _SD_FAST + ["--set", "options.fast.fold=ON"],
    "small-dragonfly-rowband": _SD_FAST + ["--set", "options.fast.fold=ON", "--set", "options.fast.band=ROW_BAND"],
    "small-dragonfly-fast-2windows": _SD_FAST + ["--set", "options.fast.initial_windows=2"],
    "mi300a-node-rochpl7-reference": RUNS["mi300a-node-rochpl7"] + ["--mode", "reference"],
    "mi300a-node-rochpl7-panel-ops": RUNS["mi300a-node-rochpl7"] + ["--set", "options.fast.panel_collective=false"],
    "mi300a-node-rochpl7-panel-collective": RUNS["mi300a-node-rochpl7"] + ["--set", "options.fast.panel_collective=true"],
    "el-capitan-32": ["run", "scenarios/el-capitan-hpl.textproto", "--nodes", "32", "--set",
                      "options.fast.panel_collective=true"],
    "el-capitan-32-panel-ops": ["run", "scenarios/el-capitan-hpl.textproto", "--nodes", "32", "--set",
                                "options.fast.panel_collective=false"],
    "mxp64-unfolded": _MXP64 + ["--set", "options.fast.fold=OFF"],
    "mxp64-crossband": _MXP64 + ["--set", "options.fast.fold=ON", "--set", "options.fast.band=CROSS_BAND"],
    "mxp64-columnband": _MXP64 + ["--set", "options.fast.fold=ON", "--set", "options.fast.band=COLUMN_BAND"],
    "mxp64-unfolded-jitter": _MXP64 + ["--set", "options.fast.fold=OFF"] + _JITTER,
    "mxp64-crossband-jitter": _MXP64 + ["--set", "options.fast.fold=ON", "--set", "options.fast.band=CROSS_BAND"] + _JITTER,
})
_SD_REF = _rmax("small-dragonfly")
_G = "| Rmax (TF/s, error) / activities |"
FIGURES += [
    Figure("docs/fast-mode.md", "against reference on `small-dragonfly` (5.892 TF/s", _SD_REF),
    Figure("docs/fast-mode.md", "Measured on `small-dragonfly` (reference 5.892 TF/s)", _SD_REF),
    Figure("docs/fast-mode.md", "`COLUMN_BAND` 6.008 TF/s (+2.0%), `ROW_BAND` 6.819 TF/s (+15.7%)", _rmax("small-dragonfly-fold")),
    Figure("docs/fast-mode.md", "`COLUMN_BAND` 6.008 TF/s (+2.0%), `ROW_BAND` 6.819 TF/s (+15.7%)",
           rel(_rmax("small-dragonfly-fold"), _SD_REF), number=1),
    Figure("docs/fast-mode.md", "`COLUMN_BAND` 6.008 TF/s (+2.0%), `ROW_BAND` 6.819 TF/s (+15.7%)",
           _rmax("small-dragonfly-rowband"), number=2),
    Figure("docs/fast-mode.md", "`COLUMN_BAND` 6.008 TF/s (+2.0%), `ROW_BAND` 6.819 TF/s (+15.7%)",
           rel(_rmax("small-dragonfly-rowband"), _SD_REF), number=3),
    Figure("docs/fast-mode.md", "6.071 TF/s against the reference's 5.892 (+3%)", _rmax("small-dragonfly-fast-2windows")),
    Figure("docs/fast-mode.md", "6.071 TF/s against the reference's 5.892 (+3%)", _SD_REF, number=1, scale=1e12),
    Figure("docs/fast-mode.md", "6.071 TF/s against the reference's 5.892 (+3%)",
           rel(_rmax("small-dragonfly-fast-2windows"), _SD_REF), number=2),
    Figure("docs/fast-mode.md", "agrees (196.1 against 195.9 TF/s)", _rmax("mi300a-node-rochpl7"), scale=1e12),
    Figure("docs/fast-mode.md", "agrees (196.1 against 195.9 TF/s)", _rmax("mi300a-node-rochpl7-reference"), number=1),
    Figure("docs/fast-mode.md", "3.08 s in fast mode\nagainst 24.88 s in reference mode",
           Run("mi300a-node-rochpl7", "phase_totals_s.bcast")),
    Figure("docs/fast-mode.md", "3.08 s in fast mode\nagainst 24.88 s in reference mode",
           Run("mi300a-node-rochpl7-reference", "phase_totals_s.bcast"), number=1),
    Figure("docs/fast-mode.md", "Rmax 196.0 against 196.1 TF/s,", _rmax("mi300a-node-rochpl7-panel-collective"),
           scale=1e12),
    Figure("docs/fast-mode.md", "Rmax 196.0 against 196.1 TF/s,", _rmax("mi300a-node-rochpl7-panel-ops"), number=1),
    Figure("docs/fast-mode.md", "8.3 k against 356 k activities", Run("mi300a-node-rochpl7-panel-collective",
                                                                      "stats.activities"),
           scale=1e3),
    Figure("docs/fast-mode.md", "8.3 k against 356 k activities", Run("mi300a-node-rochpl7-panel-ops", "stats.activities"),
           number=1, scale=1e3),
    Figure("docs/fast-mode.md", "options.fast.panel_collective=true|false`) 5.812\nagainst 5.813 PF/s",
           _rmax("el-capitan-32"), scale=1e15),
    Figure("docs/fast-mode.md", "options.fast.panel_collective=true|false`) 5.812\nagainst 5.813 PF/s",
           _rmax("el-capitan-32-panel-ops"), number=1),
    Figure("docs/fast-mode.md", "0.35 M against 2.64 M activities", Run("el-capitan-32", "stats.activities"), scale=1e6),
    Figure("docs/fast-mode.md", "0.35 M against 2.64 M activities", Run("el-capitan-32-panel-ops", "stats.activities"),
           number=1, scale=1e6),
    Figure("docs/fast-mode.md", "Full-scale El Capitan: 2.55 M activities", R("el-capitan-hpl", "activities"), scale=1e6),
    Figure("docs/fast-mode.md", "GPU panel op by op), Rmax 1.849 EF/s", R("el-capitan-hpl")),
]
for _cell, _run in ((1, "small-dragonfly-fast"), (2, "small-dragonfly-fast-g8"), (3, "small-dragonfly-fast-g32")):
    FIGURES += [
        Figure("docs/fast-mode.md", _G, rel(_rmax(_run), _SD_REF), cell=_cell, number=1, scale=1e-2),
        Figure("docs/fast-mode.md", _G, Run(_run, "stats.activities"), cell=_cell, number=2, scale=1e6),
    ]
    FIGURES.append(Figure("docs/fast-mode.md", _G, _rmax(_run), cell=_cell, scale=1e12))

# docs/fast-mode.md "The bands on HPL-MxP": the 64-rank slice
_M64 = "Unfolded 1,519.4 TF/s, CROSS_BAND 1,568.4 (+3.2%), COLUMN_BAND 1,588.1 (+4.5%)"
_J64 = "1,501.3 and 1,548.9 (+3.2%)"
FIGURES += [
    Figure("docs/fast-mode.md", _M64, _rmax("mxp64-unfolded")),
    Figure("docs/fast-mode.md", _M64, _rmax("mxp64-crossband"), number=1, scale=1e12),
    Figure("docs/fast-mode.md", _M64, rel(_rmax("mxp64-crossband"), _rmax("mxp64-unfolded")), number=2),
    Figure("docs/fast-mode.md", _M64, _rmax("mxp64-columnband"), number=3, scale=1e12),
    Figure("docs/fast-mode.md", _M64, rel(_rmax("mxp64-columnband"), _rmax("mxp64-unfolded")), number=4),
    Figure("docs/fast-mode.md", _J64, _rmax("mxp64-unfolded-jitter"), scale=1e12),
    Figure("docs/fast-mode.md", _J64, _rmax("mxp64-crossband-jitter"), number=1, scale=1e12),
    Figure("docs/fast-mode.md", _J64, rel(_rmax("mxp64-crossband-jitter"), _rmax("mxp64-unfolded-jitter")), number=2),
]

# docs/fast-mode.md and docs/benchmarks.md: the scaling benchmark's last two rows (docs/bench/scaling.csv,
# scripts/bench-scaling.sh)
_SCALE = lambda nodes: Bench("scaling.csv", {"date": "2026-12-02", "nodes": nodes}, "rmax_tflops", scale=1e12)
_AURORA_NODE = Fn("{0} / 9,234 nodes", lambda r: r / 9234, _SCALE("9234"))
_LARGER_NODE = Fn("{0} / 20,000 nodes", lambda r: r / 20000, _SCALE("20000"))
FIGURES += [
    Figure("docs/fast-mode.md", "2.960 EF/s in 41.7 s of wall time, 148.0 TF/s per node against 149.5",
           _SCALE("20000")),
    Figure("docs/fast-mode.md", "2.960 EF/s in 41.7 s of wall time, 148.0 TF/s per node against 149.5",
           Bench("scaling.csv", {"date": "2026-12-02", "nodes": "20000"}, "wall_s"), number=1),
    Figure("docs/fast-mode.md", "2.960 EF/s in 41.7 s of wall time, 148.0 TF/s per node against 149.5", _LARGER_NODE,
           number=2),
    Figure("docs/fast-mode.md", "2.960 EF/s in 41.7 s of wall time, 148.0 TF/s per node against 149.5", _AURORA_NODE,
           number=3, scale=1e12),
    Figure("docs/benchmarks.md", "149.5 TF/s at Aurora's size and 148.0", _AURORA_NODE),
    Figure("docs/benchmarks.md", "149.5 TF/s at Aurora's size and 148.0", _LARGER_NODE, number=1, scale=1e12),
]

# docs/at-scale.md: the sourced-only HPL-MxP with and without AMX
_AMX = "prediction 13.07 EF/s (+12.2%; AMX off 9.51, on / off 1.374"
FIGURES += [
    Figure("docs/at-scale.md", _AMX, R("aurora-mxp-sc24-sourced")),
    Figure("docs/at-scale.md", _AMX, rel(R("aurora-mxp-sc24-sourced"), AURORA_MXP), number=1),
    Figure("docs/at-scale.md", _AMX, R("aurora-mxp-sc24-noamx-sourced"), number=2, scale=1e18),
    Figure("docs/at-scale.md", _AMX, ratio(R("aurora-mxp-sc24-sourced"), R("aurora-mxp-sc24-noamx-sourced")), number=3),
]

# docs/benchmarks.md: ROW_BAND folding at full scale
FIGURES += [
    Figure("docs/benchmarks.md", "`aurora-hpl-sc24-sourced-rowband` of [bench/results.csv](bench/results.csv): 1.24 M",
           R("aurora-hpl-sc24-sourced-rowband", "activities"), number=1, scale=1e6),
    Figure("docs/benchmarks.md", "optimistic (1.442 EF/s against 1.397)", R("aurora-hpl-sc24-sourced-rowband")),
    Figure("docs/benchmarks.md", "optimistic (1.442 EF/s against 1.397)", R("aurora-hpl-sc24-sourced"), number=1,
           scale=1e18),
]

# the 1,020-rank Aurora slice, sourced only (docs/bench/results.csv): docs/fast-mode.md, docs/aurora.md
_K = lambda s: R(f"aurora-1k-sourced-{s}")
_KFOLD = rel(_K("fold"), _K("unfolded"))
_KCV = rel(_K("unfolded"), _K("unfolded-cv0"))
FIGURES += [
    Figure("docs/fast-mode.md", "unfolded 23.57 PF/s, COLUMN_BAND 24.75 (+5.0%), CROSS_BAND", _K("unfolded")),
    Figure("docs/fast-mode.md", "unfolded 23.57 PF/s, COLUMN_BAND 24.75 (+5.0%), CROSS_BAND", _K("fold"), number=1,
           scale=1e15),
    Figure("docs/fast-mode.md", "unfolded 23.57 PF/s, COLUMN_BAND 24.75 (+5.0%), CROSS_BAND", _KFOLD, number=2),
    Figure("docs/fast-mode.md", "24.33 (+3.2%); the runs' own sampling errors", _K("crossband"), scale=1e15),
    Figure("docs/fast-mode.md", "24.33 (+3.2%); the runs' own sampling errors", rel(_K("crossband"), _K("unfolded")),
           number=1),
    Figure("docs/fast-mode.md", "the unfolded fast run gives 23.57 PF/s (-0.8% from 23.76", _K("unfolded")),
    Figure("docs/fast-mode.md", "the unfolded fast run gives 23.57 PF/s (-0.8% from 23.76", _KCV, number=1),
    Figure("docs/fast-mode.md", "the unfolded fast run gives 23.57 PF/s (-0.8% from 23.76", _K("unfolded-cv0"),
           number=2, scale=1e15),
    Figure("docs/fast-mode.md", "reads 24.75 PF/s against 23.57 with\nevery rank", _K("fold")),
    Figure("docs/fast-mode.md", "reads 24.75 PF/s against 23.57 with\nevery rank", _K("unfolded"), number=1, scale=1e15),
    Figure("docs/fast-mode.md", "`--set options.fast.fold=OFF`), +5.0%", _KFOLD, number=0),
    Figure("docs/fast-mode.md", "At 1,020 Aurora ranks the fold is +5.0%", _KFOLD, number=1),
    Figure("docs/aurora.md", "costs 0.8% at 1k ranks (unfolded, 23.76 -> 23.57 PF/s", neg(_KCV)),
    Figure("docs/aurora.md", "costs 0.8% at 1k ranks (unfolded, 23.76 -> 23.57 PF/s", _K("unfolded-cv0"), number=2,
           scale=1e15),
    Figure("docs/aurora.md", "costs 0.8% at 1k ranks (unfolded, 23.76 -> 23.57 PF/s", _K("unfolded"), number=3),
    Figure("docs/aurora.md", "the fold reads 5% above the unfolded simulation", _KFOLD),
    Figure("docs/fast-mode.md", "the runs' own sampling errors are 0.7 to 1.4%",
           Fn("min sampling error of the three", lambda *v: min(v), *(R(f"aurora-1k-sourced-{s}",
              "rmax_sampling_error_fraction") for s in ("unfolded", "fold", "crossband"))), scale=1e-2),
    Figure("docs/fast-mode.md", "the runs' own sampling errors are 0.7 to 1.4%",
           Fn("max sampling error of the three", lambda *v: max(v), *(R(f"aurora-1k-sourced-{s}",
              "rmax_sampling_error_fraction") for s in ("unfolded", "fold", "crossband"))), number=1, scale=1e-2),
]

# the 256-rank HPL-MxP slice (docs/bench/results.csv): docs/fast-mode.md points 2, 4 and 6
_S = lambda s, f="rmax_flops_per_s": R(f"aurora-mxp-256-{s}", f)
for _start, _row in (("| reference mode (every rank and message", "reference"), ("| fast, no fold |", "unfolded"),
                     ("| fast, no fold, rings chunk by chunk", "unfolded-chunked"),
                     ("| fast, CROSS_BAND (the Aurora MxP setting) |", "crossband"), ("| fast, COLUMN_BAND |", "columnband"),
                     ("| fast, ROW_BAND |", "rowband")):
    FIGURES += [Figure("docs/fast-mode.md", _start, _S(_row), cell=1, scale=1e15),
                Figure("docs/fast-mode.md", _start, _S(_row, "refinement_s"), cell=3)]
    if _row != "reference":
        FIGURES.append(Figure("docs/fast-mode.md", _start, rel(_S(_row), _S("reference")), cell=2))
_CHUNK = "gives 14.398 PF/s chunk by chunk (reference 14.402: 0.0%; 5.67 M activities) and 14.319"
_OWN = "takes 0.52 s against reference mode's 0.70 s, and Rmax\nreads 14.635 PF/s against 14.402 (+1.6%)"
FIGURES += [
    Figure("docs/fast-mode.md", _CHUNK, _S("unfolded-chunked")),
    Figure("docs/fast-mode.md", _CHUNK, _S("reference"), number=1, scale=1e15),
    Figure("docs/fast-mode.md", _CHUNK, rel(_S("unfolded-chunked"), _S("reference")), number=2),
    Figure("docs/fast-mode.md", _CHUNK, _S("unfolded-chunked", "activities"), number=3, scale=1e6),
    Figure("docs/fast-mode.md", _CHUNK, _S("unfolded"), number=4, scale=1e15),
    Figure("docs/fast-mode.md", "aggregated (-0.6%; 1.31 M activities", rel(_S("unfolded"), _S("reference"))),
    Figure("docs/fast-mode.md", "aggregated (-0.6%; 1.31 M activities", _S("unfolded", "activities"), number=1,
           scale=1e6),
    Figure("docs/fast-mode.md", _OWN, _S("crossband", "refinement_s")),
    Figure("docs/fast-mode.md", _OWN, _S("reference", "refinement_s"), number=1),
    Figure("docs/fast-mode.md", _OWN, _S("crossband"), number=2),
    Figure("docs/fast-mode.md", _OWN, _S("reference"), number=3, scale=1e15),
    Figure("docs/fast-mode.md", _OWN, rel(_S("crossband"), _S("reference")), number=4),
    Figure("docs/fast-mode.md", "CROSS_BAND's error is +3.2% on the 64-rank steps and +1.6% on the 256-rank run",
           rel(_rmax("mxp64-crossband"), _rmax("mxp64-unfolded"))),
    Figure("docs/fast-mode.md", "CROSS_BAND's error is +3.2% on the 64-rank steps and +1.6% on the 256-rank run",
           rel(_S("crossband"), _S("reference")), number=2),
    Figure("docs/fast-mode.md", "it shortens the refinement by 43%",
           Fn("1 - {0} / {1}", lambda a, b: 1 - a / b, _S("columnband", "refinement_s"), _S("reference", "refinement_s"))),
]

# HPL-MxP's per-step profile (the profile columns of docs/bench/results.csv), the per-call jitter alternative
# and the fitted system noise at full scale: docs/aurora.md, docs/at-scale.md, docs/benchmarks.md
_P = lambda row, f: R(row, f)
_MS, _MSS, _MJ = "aurora-mxp-sc24", "aurora-mxp-sc24-sourced", "aurora-mxp-sc24-jitter"
_JIT_ROW = "| per-call kernel jitter as the fitted parameter (not shipped) |"
_JIT_BAR = lambda case: f"| `{case}` |" if case.startswith("aurora") else case
FIGURES += [
    Figure("docs/aurora.md", "**Step 0** runs at 19.4 EF/s", _P(_MS, "step0_rate_flops_per_s"), number=1),
    Figure("docs/aurora.md", "stays at 14.0-15.5 EF/s. The smallest bin is 0.903", _P(_MS, "q1_min_rate_flops_per_s"),
           scale=1e18),
    Figure("docs/aurora.md", "stays at 14.0-15.5 EF/s. The smallest bin is 0.903", neg(_P(_MS, "q1_max_rate_flops_per_s")),
           number=1),  # "-15.5": the range's dash read as a sign
    Figure("docs/aurora.md", "stays at 14.0-15.5 EF/s. The smallest bin is 0.903", _P(_MS, "q1_min_over_max"), number=2),
    Figure("docs/aurora.md", "alternative gives\n13.3-14.7 EF/s, 0.904", _P(_MJ, "q1_min_rate_flops_per_s"), scale=1e18),
    Figure("docs/aurora.md", "alternative gives\n13.3-14.7 EF/s, 0.904", neg(_P(_MJ, "q1_max_rate_flops_per_s")),
           number=1),
    Figure("docs/aurora.md", "alternative gives\n13.3-14.7 EF/s, 0.904", _P(_MJ, "q1_min_over_max"), number=2),
    Figure("docs/aurora.md", "The rate falls from 19.6 EF/s at the start to 14.9 at",
           _P(_MSS, "q1_max_rate_flops_per_s")),
    Figure("docs/aurora.md", "The rate falls from 19.6 EF/s at the start to 14.9 at",
           _P(_MSS, "q1_last_rate_flops_per_s"), number=1, scale=1e18),
    Figure("docs/aurora.md", "gives 11.77 EF/s (+1.1%) in 10,879 s", R(_MJ)),
    Figure("docs/aurora.md", "gives 11.77 EF/s (+1.1%) in 10,879 s", rel(R(_MJ), AURORA_MXP), number=1),
    Figure("docs/aurora.md", "gives 11.77 EF/s (+1.1%) in 10,879 s", R(_MJ, "time_s"), number=2),
    Figure("docs/aurora.md", "11.77 / 9.46 (1.244x)", R(_MJ), scale=1e18),
    Figure("docs/aurora.md", "11.77 / 9.46 (1.244x)", R("aurora-mxp-sc24-noamx-jitter"), number=1, scale=1e18),
    Figure("docs/aurora.md", "11.77 / 9.46 (1.244x)", ratio(R(_MJ), R("aurora-mxp-sc24-noamx-jitter")), number=2),
    # docs/at-scale.md: the table at the top
    Figure("docs/at-scale.md", _JIT_ROW, R("aurora-hpl-sc24-jitter"), cell=1),
    Figure("docs/at-scale.md", _JIT_ROW, R(_MJ), cell=2),
    Figure("docs/at-scale.md", _JIT_ROW, R("aurora-hpl-1node-jitter"), cell=3),
    # the bar with the fitted factor: HPL-MxP's first quarter
    Figure("docs/at-scale.md", "| >= 0.90 | 0.903 (14.0 - 15.5 EF/s) |", _P(_MS, "q1_min_over_max"), cell=2),
    Figure("docs/at-scale.md", "| >= 0.90 | 0.903 (14.0 - 15.5 EF/s) |", _P(_MS, "q1_min_rate_flops_per_s"), cell=2,
           number=1, scale=1e18),
    Figure("docs/at-scale.md", "| >= 0.90 | 0.903 (14.0 - 15.5 EF/s) |", _P(_MS, "q1_max_rate_flops_per_s"), cell=2,
           number=2),
    Figure("docs/at-scale.md", "| >= 0.90 | 0.903 (14.0 - 15.5 EF/s) |", _P(_MSS, "q1_min_over_max"), cell=3),
    Figure("docs/at-scale.md", "| >= 0.90 | 0.903 (14.0 - 15.5 EF/s) |", _P(_MSS, "q1_max_rate_flops_per_s"), cell=3,
           number=1, scale=1e18),
    Figure("docs/at-scale.md", "| >= 0.90 | 0.903 (14.0 - 15.5 EF/s) |", _P(_MSS, "q1_last_rate_flops_per_s"), cell=3,
           number=2),
    # the noise
    Figure("docs/at-scale.md", "One node also passes (138.5 TF/s). But HPL-MxP stays +11.6%",
           R("aurora-hpl-1node-sourced-noise")),
    Figure("docs/at-scale.md", "One node also passes (138.5 TF/s). But HPL-MxP stays +11.6%",
           rel(R("aurora-mxp-sc24-sourced-noise"), AURORA_MXP), number=1),
    Figure("docs/at-scale.md", "hardly see the noise (13.07 -> 12.98 EF/s)", R(_MSS), scale=1e18),
    Figure("docs/at-scale.md", "hardly see the noise (13.07 -> 12.98 EF/s)", R("aurora-mxp-sc24-sourced-noise"),
           number=1),
    Figure("docs/at-scale.md", "| 0 | 0.75 (0.7484 fitted) |", R("aurora-hpl-sc24-sourced-noise"), cell=2, scale=1e18),
    Figure("docs/at-scale.md", "| 0 | 0.75 (0.7484 fitted) |", R("aurora-hpl-sc24-sourced-noise", "crossover_fraction"),
           cell=3),
    Figure("docs/at-scale.md", "| 0 | 0.75 (0.7484 fitted) |", R("aurora-hpl-sc24-sourced-noise", "rate_drop_fraction"),
           cell=3, number=1),
    Figure("docs/at-scale.md", "| 0 | 0.75 (0.7484 fitted) |", R("aurora-mxp-sc24-sourced-noise"), cell=4, scale=1e18),
    Figure("docs/at-scale.md", "| 0 | 0.75 (0.7484 fitted) |", rel(R("aurora-mxp-sc24-sourced-noise"), AURORA_MXP),
           cell=4, number=1),
    Figure("docs/at-scale.md", "| 0 | 0.75 (0.7484 fitted) |", R("aurora-hpl-1node-sourced-noise"), cell=5, scale=1e12),
    Figure("docs/benchmarks.md", "| with noise | 35.0 / 35.5 / 35.8 |", R("aurora-hpl-sc24-sourced-noise"), cell=4),
    # the jitter alternative's section
    Figure("docs/at-scale.md", "0.1468 -> 1.0127 EF/s", R("aurora-hpl-sc24-jitter"), number=1),
    Figure("docs/at-scale.md", "| `aurora-hpl-1node` | 139 TF/s +-5% | 131.1", R("aurora-hpl-1node-jitter"), cell=2),
    Figure("docs/at-scale.md", "| `aurora-hpl-1node` | 139 TF/s +-5% | 131.1",
           rel(R("aurora-hpl-1node-jitter"), AURORA_1NODE), cell=2, number=1),
    Figure("docs/at-scale.md", "| `aurora-hpl-sc24` | 1.012 EF/s +-3% | 1.0127", R("aurora-hpl-sc24-jitter"), cell=2,
           scale=1e18),
    Figure("docs/at-scale.md", "| `aurora-mxp-sc24` | 11.64 EF/s +-5% | **11.77", R(_MJ), cell=2, scale=1e18),
    Figure("docs/at-scale.md", "| `aurora-mxp-sc24` | 11.64 EF/s +-5% | **11.77", rel(R(_MJ), AURORA_MXP), cell=2,
           number=1),
    Figure("docs/at-scale.md", "| MxP AMX on / off | 1.05 - 1.15 | 1.244", ratio(R(_MJ), R("aurora-mxp-sc24-noamx-jitter")),
           cell=2),
    Figure("docs/at-scale.md", "| >= 0.90 | 0.904 (13.3 - 14.7 EF/s) |", _P(_MJ, "q1_min_over_max"), cell=2),
    Figure("docs/at-scale.md", "| >= 0.90 | 0.904 (13.3 - 14.7 EF/s) |", _P(_MJ, "q1_min_rate_flops_per_s"), cell=2,
           number=1, scale=1e18),
    Figure("docs/at-scale.md", "| >= 0.90 | 0.904 (13.3 - 14.7 EF/s) |", _P(_MJ, "q1_max_rate_flops_per_s"), cell=2,
           number=2),
    Figure("docs/at-scale.md", "| >= 0.90 | 0.904 (13.3 - 14.7 EF/s) |", _P(_MSS, "q1_min_over_max"), cell=3),
    Figure("docs/at-scale.md", "| >= 0.90 | 0.904 (13.3 - 14.7 EF/s) |", _P(_MSS, "q1_max_rate_flops_per_s"), cell=3,
           number=1, scale=1e18),
    Figure("docs/at-scale.md", "| >= 0.90 | 0.904 (13.3 - 14.7 EF/s) |", _P(_MSS, "q1_last_rate_flops_per_s"), cell=3,
           number=2),
    Figure("docs/at-scale.md", "| within 0.05 of N | 0.593 against 0.209", R("aurora-hpl-sc24-jitter", "crossover_fraction"),
           cell=2),
    Figure("docs/at-scale.md", "| within 0.05 of N | 0.593 against 0.209", R("aurora-hpl-sc24-jitter", "rate_drop_fraction"),
           cell=2, number=1),
    Figure("docs/at-scale.md", "a plateau of 13.3-14.7 EF/s over the first quarter", _P(_MJ, "q1_min_rate_flops_per_s"),
           scale=1e18),
    Figure("docs/at-scale.md", "a plateau of 13.3-14.7 EF/s over the first quarter", neg(_P(_MJ, "q1_max_rate_flops_per_s")),
           number=1),  # "-14.7": the range's dash read as a sign
]

# docs/aurora.md, "The fold on HPL-MxP, measured": the 256-rank slice of docs/fast-mode.md's table
_FOLD_MXP = "fast mode without folding reads 0.6% below reference mode, and CROSS_BAND, the\nAurora MxP setting, 1.6% above"
FIGURES += [
    Figure("docs/aurora.md", _FOLD_MXP, neg(rel(_S("unfolded"), _S("reference")))),
    Figure("docs/aurora.md", _FOLD_MXP, rel(_S("crossband"), _S("reference")), number=1),
    Figure("docs/aurora.md", "(0.40 s against 0.70 s in reference mode, of a 10 s", _S("columnband", "refinement_s")),
    Figure("docs/aurora.md", "(0.40 s against 0.70 s in reference mode, of a 10 s", _S("reference", "refinement_s"),
           number=1),
    Figure("docs/aurora.md", "(0.40 s against 0.70 s in reference mode, of a 10 s", _S("reference", "time_s"), number=2),
]

# docs/network.md: routing on the unfolded 1,020-rank Aurora slice (docs/bench/results.csv)
for _start, _row in (("| MINIMAL |", "unfolded-minimal"), ("| ADAPTIVE (flows counted) |", "unfolded"),
                     ("| MINIMAL, fabric links 100x faster", "unfolded-minimal-fast-fabric")):
    FIGURES += [Figure("docs/network.md", _start, _K(_row), cell=1, scale=1e15),
                Figure("docs/network.md", _start, _per(_K(_row), 170, "nodes"), cell=2, scale=1e12)]

# README.md, "Resilience": each strategy's time without the flaps (docs/bench/results.csv)
for _start, _s in (("| P2P (netlib HPL) |", "p2p"), ("| HYBRID (Aurora's) |", "hybrid"), ("| COLLECTIVE | 11,", "collective")):
    FIGURES.append(Figure("README.md", _start, _FF(_s), cell=1))
FIGURES.append(Figure("README.md", "fault-free run (-1.74 s, no wait",
                      neg(Fn("{0} - {1}", lambda a, b: a - b, _FF("hybrid"), _FF("p2p")))))
