#!/usr/bin/env bash
# Builds hplsim with AddressSanitizer + UndefinedBehaviorSanitizer into
# ./build-asan (-O1 -g1, option HPLSIM_SANITIZE) and runs the whole ctest suite
# under it. Extra arguments go to ctest (e.g. -R sim_tests, -L fuzz).
# The sanitizer options are exported, so they reach the forked children and the
# hplsim binary that some tests run.
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DHPLSIM_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$JOBS"

# Leaks are checked (at the exit of every process, forked children included);
# the only leaks tolerated are SimGrid's own, listed and justified in
# tests/sanitizer/lsan.supp.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=0"
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitizer/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

# Left out here, run once in the normal suite (SANITIZE_EXCLUDE= runs all):
#   HplGenerator.GeneratesA30x34StepQuickly: a CPU-time bar of the optimized
#     build, not a bar for instrumented code.
#   Docs.*: the README's examples and the link check; they run the hplsim
#     binary through the same paths as the CLI tests, for minutes.
#   ScenarioExpect.*: each shipped scenario's stated figures, whole runs of the
#     paths the engine and CLI tests cover on smaller inputs.
#   Sensitivity.ScaleOneIsTheTrialsStudyAndRateZeroDrawsNoFlap: a trials
#     study and a sensitivity study of the same scenario, compared row by row
#     (7.5 min instrumented); the trials paths run instrumented in Trials.*,
#     the sensitivity command's in Sensitivity.BadInputIsRefused and the
#     statistics' in the unit tests.
#   Modes/FlapTwice.*, Trials.TrialIIsTheSameWhateverKAndTheJobs,
#   Trials.StrategiesSideBySideGiveEachStrategysOwnRows,
#   CliRun.SameScenarioTwiceGivesByteIdenticalOutputs: the same run twice,
#     compared byte for byte (7 min instrumented); what they run is run
#     instrumented once by Flap.*, FlapReach.*, Trials.* and CliRun.*, and
#     byte identity is a property of the optimized build.
#   Two whole runs compared for agreement (fast against reference mode, a
#     folded window or roll against the unfolded one, hplsim against SimGrid's
#     own times, one job against two, three strategies on the same draws):
#     Flap.TheFoldedWindowCostsWhatTheUnfoldedOneDoes,
#     Flap.FastModeMatchesReferenceModeOnASmallRun, CliPrivateResources.*,
#     CliModes.CrossBandFoldFollowsTheUnfoldedMxpRun,
#     CliModes.FastAgreesWithReferenceOnSmallDragonfly, CliRollCollective.*,
#     CliRun.FoldedRunWithCollectivePivotsGivesByteIdenticalOutputsTwice,
#     Trials.ReferenceModeTrialsAreTheSameWithOneOrTwoJobs,
#     Trials.StrategiesAreComparedOnTheSameDraws,
#     CliRun.CollectiveGpuPanelTimesThePanelAsItsOpsDo,
#     CliRun.CollectivePanelFactorizationTimesThePanelAsItsOpsDo,
#     Sensitivity.TheRecoveryAxisRunsEveryCellOnTheSameDraws (about 16 min
#     instrumented on 2 cores): agreement is a property of the model in the
#     optimized build, and each side's code runs instrumented in the
#     single-run tests of the same paths (Flap.*, FlapReach.*, CliModes.*,
#     CliRun.*, Trials.*, Sensitivity.*, RecoveryParting.*).
#   ReportKinds.EveryKindsPageFitsA1280PxWindow: Chromium's layout of the
#     pages; the pages' writer runs instrumented in ReportKinds.* and ReportCli.*.
#   FailureModel.*MonteCarlo, CpuMeasure.FitOnEvenShapesPredictsOddShapes,
#   Trials.ExponentialFailuresAgreeWithTheClosedForms: statistical checks that
#     loop one small function millions of times (or time real kernels, or run
#     4,000 analytic trials); their code is covered by the other tests of the
#     suite (the analytic trials by Mpi.TrialsUnderTwoRanksWriteTheSameFilesAsOneProcess
#     and Plan.*).
EXCLUDE=${SANITIZE_EXCLUDE-'^(HplGenerator\.GeneratesA30x34StepQuickly|Docs\..*|ScenarioExpect\..*|Sensitivity\.ScaleOneIsTheTrialsStudyAndRateZeroDrawsNoFlap|Modes/FlapTwice\..*|Trials\.TrialIIsTheSameWhateverKAndTheJobs|Trials\.StrategiesSideBySideGiveEachStrategysOwnRows|CliRun\.SameScenarioTwiceGivesByteIdenticalOutputs|FailureModel\..*MonteCarlo.*|CpuMeasure\.FitOnEvenShapesPredictsOddShapes|Trials\.ExponentialFailuresAgreeWithTheClosedForms|Flap\.TheFoldedWindowCostsWhatTheUnfoldedOneDoes|Flap\.FastModeMatchesReferenceModeOnASmallRun|CliPrivateResources\..*|CliModes\.CrossBandFoldFollowsTheUnfoldedMxpRun|CliModes\.FastAgreesWithReferenceOnSmallDragonfly|CliRollCollective\..*|CliRun\.FoldedRunWithCollectivePivotsGivesByteIdenticalOutputsTwice|Trials\.ReferenceModeTrialsAreTheSameWithOneOrTwoJobs|Trials\.StrategiesAreComparedOnTheSameDraws|ReportKinds\.EveryKindsPageFitsA1280PxWindow|CliRun\.CollectiveGpuPanelTimesThePanelAsItsOpsDo|CliRun\.CollectivePanelFactorizationTimesThePanelAsItsOpsDo|Sensitivity\.TheRecoveryAxisRunsEveryCellOnTheSameDraws)$'}

start=$(date +%s)
status=0
ctest --test-dir build-asan -j"$JOBS" --output-on-failure ${EXCLUDE:+-E "$EXCLUDE"} "$@" || status=$?
echo "sanitizer suite: $(( $(date +%s) - start )) s wall, ctest exit $status"
exit "$status"
