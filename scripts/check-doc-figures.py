#!/usr/bin/env python3
"""Checks every registered figure the docs quote against the run it describes.

The registry (scripts/docfigures/registry.py) names, per figure, the document,
the exact text that quotes it, where its value comes from and the rounding
tolerance. A value comes from a cheap run (re-run here), a scenario's
"# expect:" line (tests/sim/cli/scenario_expect_test.cpp re-runs it), or a file
a script writes into docs/bench/ (the full-scale runs: scripts/bench-results.py
writes docs/bench/results.csv). A document that no longer quotes the text, or
a source whose value does not round to the quoted number, fails with the
document, the text and both values.

  (no option)       re-run every registered cheap run (~3 min on 2 cores) and
                    check every figure
  --quick           run nothing: check every figure against docs/bench files and
                    "# expect:" lines (a second; the ctest test
                    Docs.FiguresMatchTheirSources)
  --list            print each figure and its source, run nothing
  --list-unchecked  the coverage scan: figures of runs (flop rates, wall times)
                    in README.md, docs/ and the scenario headers that no entry
                    covers, neither as a checked figure nor as a published one
  --self-test       the check on planted documents must catch a planted
                    mismatch (the ctest test Docs.FigureCheckCatchesAMismatch)

Usage: scripts/check-doc-figures.py [--build-dir DIR] [--quick | --list | --list-unchecked | --self-test]
"""
import argparse
import collections
import os
import sys

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from docfigures import check, registry, sources  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    mode = parser.add_mutually_exclusive_group()
    for flag in ("--quick", "--list", "--list-unchecked", "--self-test"):
        mode.add_argument(flag, action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return check.self_test()
    ctx = sources.Context(ROOT, registry.RUNS)
    figures = registry.FIGURES
    if args.list:
        for fig in figures:
            got = fig.quoted(ctx)
            quoted = got if isinstance(got, str) else f"{got[0]:.6g} +-{got[1]:.2g}"
            print(f"{fig.label()}: {quoted} = {fig.source.describe(ctx)}")
        for pub in registry.PUBLISHED:
            print(f"{pub.doc}: \"{pub.text}\" published: {pub.source}")
        print(f"{len(figures)} figures checked, {len(registry.PUBLISHED)} published texts", file=sys.stderr)
        return 0
    if args.list_unchecked:
        found = check.unchecked(ctx, figures, registry.PUBLISHED)
        for doc, line, text in found:
            print(f"{doc}:{line}: {text}")
        per_doc = collections.Counter(doc for doc, _, _ in found)
        print(f"{len(found)} unchecked in {len(per_doc)} documents: "
              + ", ".join(f"{d} {n}" for d, n in per_doc.most_common()), file=sys.stderr)
        return 0
    failures = []
    if not args.quick:
        failures += check.make_runs(ctx, figures, os.path.join(args.build_dir, "sim", "hplsim"))
    found, _, skipped = check.check(figures, ctx)
    failures += found
    for f in failures:
        print("check-doc-figures: " + f, file=sys.stderr)
    total = len(figures) - skipped
    print(f"check-doc-figures: {total - len(found)} of {total} figures match their sources"
          + (f" ({skipped} need a run: without --quick)" if skipped else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
