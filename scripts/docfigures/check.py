"""The check: every registered figure is still quoted where the registry says,
and its source's value rounds to the quoted number; the coverage scan; the
self-test."""
import json
import os
import re
import subprocess
import tempfile

from . import sources

NUMBER = re.compile(r"[-+]?[0-9][0-9,]*(?:\.[0-9]+)?(?:[eE][-+][0-9]+)?")
# A unit right after a number -> its factor to SI (flop/s, s, a fraction).
UNITS = [("EF/s", 1e18), ("PF/s", 1e15), ("TF/s", 1e12), ("GF/s", 1e9), ("Gflop/s", 1e9), ("%", 1e-2),
         ("min", 60.0), ("h", 3600.0), ("s", 1.0), ("us", 1e-6), ("ms", 1e-3)]
# What the coverage scan takes for a run's figure: a flop rate, or a wall time.
SCAN = re.compile(r"(?<![\w.])[0-9][0-9,]*(?:\.[0-9]+)?\s?(?:[EPTG]F/s|[EPTG]flop/s|[EPTG]FLOP/s)(?!\w)"
                  r"|(?<![\w.])[0-9][0-9,]*(?:\.[0-9]+)?\s?s (?:of )?wall|wall (?:time )?(?:of )?[0-9][0-9,.]* s\b")
# A published figure's mark: [P] or [M] (or "[P, source]", "P-2nd") after it in the same clause, or
# in a cell of its table row.
PUBLISHED_MARK = re.compile(r"\[(?:P|M)[],]|\bP-2nd\b")


def marked_published(text, start, end):
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line = text[line_start:line_end if line_end >= 0 else len(text)]
    if line.startswith("|") and any(PUBLISHED_MARK.match(c.strip()) for c in line.strip("|").split("|")):
        return True
    clause = re.split(r"[.;]\s|\|", text[end:end + 80])[0]
    return bool(PUBLISHED_MARK.search(clause))


class Figure:
    """One quoted figure: the document, the exact text that quotes it (for a table cell: a text that
    starts its row, and the cell's index), the source of its value, and the tolerance.

    The quoted number is the `number`-th number of the text (or cell); its unit, the one written right
    after it unless `scale` says; the tolerance, half its last digit plus `tol` (SI units) or `rel` (a
    fraction of the value)."""

    def __init__(self, doc, text, source, number=0, cell=None, scale=None, tol=0.0, rel=0.0):
        self.doc, self.text, self.source = doc, text, source
        self.number, self.cell, self.scale, self.tol, self.rel = number, cell, scale, tol, rel

    def quoted(self, ctx):
        """(value in SI units, tolerance, absolute start of the number in the document) or an error string."""
        doc = ctx.text(self.doc)
        at = doc.find(self.text)
        if at < 0:
            return f"no longer quotes \"{self.text}\": update or remove its entry (scripts/docfigures/registry.py)"
        if self.cell is None:
            where, offset = self.text, at
        else:
            line_start = doc.rfind("\n", 0, at) + 1
            line_end = doc.find("\n", at)
            line = doc[line_start:line_end if line_end >= 0 else len(doc)]
            bars = [i for i, c in enumerate(line) if c == "|"]
            if self.cell + 2 > len(bars):
                return f"\"{self.text}\": its row has no cell {self.cell}"
            where = line[bars[self.cell] + 1:bars[self.cell + 1]]
            offset = line_start + bars[self.cell] + 1
        numbers = list(NUMBER.finditer(where))
        if len(numbers) <= self.number:
            return f"\"{where.strip()}\": no number {self.number}"
        found = numbers[self.number]
        digits = found.group(0).replace(",", "")
        scale = self.scale
        if scale is None:
            after = where[found.end():].lstrip()
            scale = next((f for u, f in UNITS if re.match(re.escape(u) + r"(?![A-Za-z])", after)), 1.0)
        mantissa, _, exponent = digits.lower().partition("e")
        decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
        value = float(digits) * scale
        tol = 0.5 * 10.0 ** (int(exponent or 0) - decimals) * scale + self.tol + self.rel * abs(value)
        return value, tol, offset + found.start(), offset + found.end()

    def label(self):
        return f"{self.doc}: \"{self.text}\"" + (f" cell {self.cell}" if self.cell is not None else "") + (
            f" number {self.number}" if self.number else "")


class Published:
    """A published figure (paper, TOP500, vendor specification): not checked, it carries its source."""

    def __init__(self, doc, text, source):
        self.doc, self.text, self.source = doc, text, source


def check(figures, ctx):
    """Failures (strings), checked count, skipped count (sources with no value in this mode)."""
    failures, checked, skipped = [], 0, 0
    for fig in figures:
        got = fig.quoted(ctx)
        if isinstance(got, str):
            failures.append(f"{fig.doc}: {got}")
            continue
        value, tol, _, _ = got
        try:
            truth = fig.source.value(ctx)
        except sources.Unavailable:
            skipped += 1
            continue
        except (sources.SourceError, OSError) as e:
            failures.append(f"{fig.label()}: {e}")
            continue
        checked += 1
        if abs(truth - value) > tol * (1 + 1e-9):
            failures.append(f"{fig.label()} says {value:.6g}, {fig.source.describe(ctx)} gives {truth:.6g} "
                            f"(tolerance {tol:.3g})")
    return failures, checked, skipped


def make_runs(ctx, figures, hplsim):
    """Makes every registered run the figures name; failures as strings."""
    failures = []
    ctx.summaries = {}
    wanted = sorted(set().union(*(f.source.runs() for f in figures)))
    with tempfile.TemporaryDirectory(prefix="hplsim-doc-figures-") as scratch:
        for run in wanted:
            out = os.path.join(scratch, run)
            cmd = [hplsim] + ctx.runs[run] + ["--out", out]
            done = subprocess.run(cmd, cwd=ctx.root, capture_output=True, text=True)
            if done.returncode != 0:
                failures.append(f"`{' '.join(cmd)}` exited {done.returncode}: {done.stderr.strip()[-500:]}")
                continue
            loaded = {"stdout": done.stdout, "summary": {}, "stats": {}}
            for name in ("summary", "stats"):
                path = os.path.join(out, name + ".json")
                if os.path.exists(path):  # noise-bench writes neither
                    with open(path, encoding="utf-8") as f:
                        loaded[name] = json.load(f)
            ctx.summaries[run] = loaded
    return failures


def documents(root):
    """Every document the coverage scan reads: README.md, docs/**/*.md but the files scripts write into
    docs/bench/ (the sources), scenarios/**/*.textproto."""
    out = ["README.md"] if os.path.exists(os.path.join(root, "README.md")) else []
    for top, ext in (("docs", ".md"), ("scenarios", ".textproto")):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            if os.path.relpath(dirpath, root).startswith(os.path.join("docs", "bench")):
                continue
            out += [os.path.relpath(os.path.join(dirpath, n), root) for n in sorted(names) if n.endswith(ext)]
    return sorted(out)


def unchecked(ctx, figures, published):
    """Figures of runs the scan finds that no registry entry covers: (document, line number, text)."""
    covered = {}
    for fig in figures:
        got = fig.quoted(ctx)
        if not isinstance(got, str):
            covered.setdefault(fig.doc, []).append((got[2], got[3]))
    for pub in published:
        text = ctx.text(pub.doc)
        at = text.find(pub.text)
        while at >= 0:
            covered.setdefault(pub.doc, []).append((at, at + len(pub.text)))
            at = text.find(pub.text, at + 1)
    out = []
    for doc in documents(ctx.root):
        text = ctx.text(doc)
        spans = covered.get(doc, [])
        for m in SCAN.finditer(text):
            number = NUMBER.search(m.group(0))
            start = m.start() + number.start()
            end = m.start() + number.end()
            if any(a <= start and end <= b for a, b in spans):
                continue
            if marked_published(text, m.start(), m.end()):
                continue  # marked [P] / [M] where it stands
            if doc.endswith(".textproto"):
                line_start = text.rfind("\n", 0, m.start()) + 1
                if not text[line_start:m.start()].lstrip().startswith("#"):
                    continue  # a field, not prose
            out.append((doc, text.count("\n", 0, m.start()) + 1, m.group(0)))
    return out


def self_test():
    """The check on planted documents: a figure within its rounding passes; one beyond it, a text no
    longer quoted, a missing bench row and an # expect: line that disagrees each fail. 0 if all hold."""
    problems = []
    DOC, HEADER = os.path.join("docs", "d.md"), os.path.join("scenarios", "s.textproto")  # planted, not the repo's
    with tempfile.TemporaryDirectory(prefix="hplsim-doc-figures-self-test-") as root:
        os.makedirs(os.path.join(root, "docs", "bench"))
        with open(os.path.join(root, "docs", "bench", "r.csv"), "w", encoding="utf-8") as f:
            f.write("# planted\nname,rmax_flops_per_s\nok,1.2345e12\n")
        with open(os.path.join(root, "docs", "d.md"), "w", encoding="utf-8") as f:
            f.write("Rmax **1.23 TF/s** (+2.9%).\n\n| case | Rmax |\n|---|---:|\n| ok | 1.24 TF/s |\n"
                    "took 12 s of wall time; Rpeak 9.9 EF/s (vendor) [P].\n\n| x | 7.7 TF/s | [M] |\n")
        os.makedirs(os.path.join(root, "scenarios"))
        header = os.path.join(root, "scenarios", "s.textproto")
        with open(header, "w", encoding="utf-8") as f:
            f.write("# Rmax 5.89 TF/s\n# expect: rmax_tflops 5.892 +-1%\nrmax: 5.89 TF/s\n")
        ctx = sources.Context(root, {"s": ["run", HEADER]})
        rmax = sources.Bench("r.csv", "ok", "rmax_flops_per_s")
        cases = [
            ("within rounding", Figure(DOC, "**1.23 TF/s**", rmax), True),
            ("a difference in percent", Figure(DOC, "(+2.9%)", sources.rel(rmax, 1.2e12)), True),
            ("beyond rounding", Figure(DOC, "| ok |", rmax, cell=1), False),
            ("text gone", Figure(DOC, "1.235 TF/s", rmax), False),
            ("no such row", Figure(DOC, "**1.23 TF/s**", sources.Bench("r.csv", "x", "rmax")), False),
            ("header against # expect:", Figure(HEADER, "5.89 TF/s", sources.Run("s", "rmax_flops_per_s")),
             True),
            ("an # expect: figure", Figure(HEADER, "5.89 TF/s",
                                           sources.Expect(HEADER, "rmax_tflops")), True),
        ]
        for name, fig, should_pass in cases:
            failures, checked, _ = check([fig], ctx)
            if (not failures) != should_pass or (should_pass and checked != 1):
                problems.append(f"{name}: expected {'pass' if should_pass else 'failure'}, got {failures or 'pass'}")
        with open(header, "w", encoding="utf-8") as f:
            f.write("# Rmax 5.89 TF/s\n# expect: rmax_tflops 5.95 +-1%\n")
        ctx = sources.Context(root, {"s": ["run", HEADER]})
        failures, _, _ = check([Figure(HEADER, "5.89 TF/s", sources.Run("s", "rmax_flops_per_s"))], ctx)
        if not failures:
            problems.append("header against a disagreeing # expect: passed")
        found = [u[2] for u in unchecked(ctx, [Figure(DOC, "**1.23 TF/s**", rmax)], [])]
        if found != ["1.24 TF/s", "12 s of wall", "5.89 TF/s"]:
            problems.append(f"coverage scan found {found}, expected the cell, the wall time and "
                            "the header's (not the two marked published)")
    for p in problems:
        print("check-doc-figures --self-test: " + p)
    print(f"check-doc-figures --self-test: {'FAILED' if problems else 'ok'} ({len(problems)} problems)")
    return 1 if problems else 0
