"""Where a quoted figure's value comes from: a cheap run's summary.json, a
scenario's "# expect:" line, a file in docs/bench/ that a script writes, or
arithmetic on those. Every source gives a value in SI units (flop/s, s, a
fraction), and says in words where it comes from (--list)."""
import csv
import os
import re

# "# expect:" keys that are not in SI units: key -> factor to SI.
EXPECT_SCALE = {"rmax_tflops": 1e12}


class Context:
    """What the sources read: the repository root, the runs' summaries (full mode) or none (quick mode)."""

    def __init__(self, root, runs, summaries=None):
        self.root = root
        self.runs = runs  # name -> hplsim arguments
        self.summaries = summaries  # name -> {"summary": ..., "stats": ...}; None: no run made
        self._files = {}

    def text(self, path):
        if path not in self._files:
            with open(os.path.join(self.root, path), encoding="utf-8") as f:
                self._files[path] = f.read()
        return self._files[path]


class Unavailable(Exception):
    """The source has no value in this mode (a run in quick mode): not a failure."""


class SourceError(Exception):
    """The source itself is broken (a missing file, row or key): a failure."""


def expect_value(ctx, scenario, key):
    found = re.search(r"^#\s*expect:.*?\b" + re.escape(key) + r"\s+([-+0-9.eE]+)", ctx.text(scenario), re.M)
    if not found:
        raise SourceError(f"{scenario} has no \"# expect: {key}\" line")
    return float(found.group(1)) * EXPECT_SCALE.get(key, 1.0)


class Run:
    """A key of summary.json (or "stats.KEY" of stats.json) of a registered cheap run."""

    def __init__(self, run, key):
        self.run, self.key = run, key

    def runs(self):
        return {self.run}

    def _expect(self, ctx):
        """The run's "# expect:" figure for the key, when the run is a plain `run SCENARIO` that states one."""
        args = ctx.runs[self.run]
        if len(args) != 2 or args[0] != "run":
            return None
        key = {"rmax_flops_per_s": "rmax_tflops"}.get(self.key, self.key)
        if not re.search(r"^#\s*expect:.*\b" + re.escape(key) + r"\s", ctx.text(args[1]), re.M):
            return None
        return args[1], key

    def value(self, ctx):
        if ctx.summaries is None:
            found = self._expect(ctx)
            if found is None:
                raise Unavailable()
            return expect_value(ctx, *found)
        if self.run not in ctx.summaries:
            raise Unavailable()
        doc = ctx.summaries[self.run]
        key = self.key
        where = doc["summary"]
        if key.startswith("stats."):
            where, key = doc["stats"], key[len("stats."):]
        got = where
        for part in key.split("."):  # a dotted path: phase_totals_s.swap
            got = got.get(part) if isinstance(got, dict) else None
        if not isinstance(got, (int, float)) or isinstance(got, bool):
            raise SourceError(f"run {self.run}: {self.key} is {got!r}")
        return float(got)

    def describe(self, ctx):
        how = f"{self.key} of `hplsim {' '.join(ctx.runs[self.run])}`"
        found = self._expect(ctx)
        if found:
            how += f" (quick: its # expect: {found[1]})"
        return how


class RunTable:
    """A column of a table row the registered run prints on stdout (whitespace-separated, the row named
    by its first field), times `scale`: for commands that write no summary.json (noise-bench)."""

    def __init__(self, run, row, column, scale=1.0):
        self.run, self.row, self.column, self.scale = run, row, column, scale

    def runs(self):
        return {self.run}

    def value(self, ctx):
        if ctx.summaries is None or self.run not in ctx.summaries:
            raise Unavailable()
        for line in ctx.summaries[self.run]["stdout"].splitlines():
            fields = line.split()
            if fields and fields[0] == self.row and len(fields) > self.column:
                return float(fields[self.column].replace(",", "")) * self.scale
        raise SourceError(f"run {self.run}: no stdout row {self.row} with a column {self.column}")

    def describe(self, ctx):
        return f"stdout row {self.row}, column {self.column} of `hplsim {' '.join(ctx.runs[self.run])}`"


class Expect:
    """A figure of a scenario's "# expect:" line (tests/sim/cli/scenario_expect_test.cpp re-runs it)."""

    def __init__(self, scenario, key):
        self.scenario, self.key = scenario, key

    def runs(self):
        return set()

    def value(self, ctx):
        return expect_value(ctx, self.scenario, self.key)

    def describe(self, ctx):
        return f"# expect: {self.key} of {self.scenario}"


def tables(text):
    """The markdown tables of a text: each a (header cells, body rows of cells) pair."""
    out, current = [], None
    for line in text.splitlines():
        if not line.startswith("|"):
            current = None
            continue
        if re.match(r"^\|[-:| ]+\|$", line.strip()):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if current is None:
            current = (cells, [])
            out.append(current)
        else:
            current[1].append(cells)
    return out


class Bench:
    """A value of a file a script writes into docs/bench/.

    CSV: the row whose columns equal `row` (a dict, or a string matched against the first column), the
    column `field`. Markdown (.md): the table row whose first cell is `row`, the cell under the header
    `field` (the first number of the cell; `part` picks the n-th). OSU output (.txt): the latency of the
    message size `row`. The file's value times `scale` is the value in SI units."""

    def __init__(self, path, row, field=None, scale=1.0, part=0):
        self.path, self.row, self.field, self.scale, self.part = path, row, field, scale, part

    def runs(self):
        return set()

    def value(self, ctx):
        path = os.path.join("docs", "bench", self.path)
        try:
            text = ctx.text(path)
        except OSError as e:
            raise SourceError(f"{path}: {e.strerror}") from e
        if path.endswith(".csv"):
            rows = list(csv.DictReader(line for line in text.splitlines() if not line.startswith("#")))
            want = self.row if isinstance(self.row, dict) else None
            for r in rows:
                if (want and all(r.get(k) == v for k, v in want.items())) or (
                        not want and r[next(iter(r))] == self.row):
                    if self.field not in r or r[self.field] in ("", None):
                        raise SourceError(f"{path}: row {self.row}: no {self.field}")
                    return float(r[self.field]) * self.scale
            raise SourceError(f"{path}: no row {self.row}")
        if path.endswith(".md"):
            for header, body in tables(text):
                if self.field not in header:
                    continue
                for cells in body:
                    if cells[0] == self.row:
                        cell = cells[header.index(self.field)]
                        numbers = re.findall(r"[-+]?[0-9][0-9,]*(?:\.[0-9]+)?", cell)
                        if len(numbers) <= self.part:
                            raise SourceError(f"{path}: row {self.row}, {self.field}: {cell!r}")
                        return float(numbers[self.part].replace(",", "")) * self.scale
            raise SourceError(f"{path}: no table row {self.row} with a column {self.field}")
        for line in text.splitlines():  # OSU: "SIZE LATENCY"
            cells = line.split()
            if len(cells) >= 2 and cells[0] == str(self.row):
                return float(cells[1]) * self.scale
        raise SourceError(f"{path}: no size {self.row}")

    def describe(self, ctx):
        where = self.row if isinstance(self.row, str) else ",".join(f"{k}={v}" for k, v in self.row.items())
        field = f" {self.field}" if self.field else ""
        scale = f" x {self.scale:g}" if self.scale != 1.0 else ""
        return f"docs/bench/{self.path} [{where}]{field}{scale}"


class Fn:
    """Arithmetic on other sources (a difference in percent, a ratio, a maximum)."""

    def __init__(self, describe, f, *parts):
        self.words, self.f, self.parts = describe, f, parts

    def runs(self):
        return set().union(*(p.runs() for p in self.parts if hasattr(p, "runs")))

    def value(self, ctx):
        return self.f(*(p.value(ctx) if hasattr(p, "value") else p for p in self.parts))

    def describe(self, ctx):
        parts = [p.describe(ctx) if hasattr(p, "describe") else f"{p:g}" for p in self.parts]
        return self.words.format(*parts)


def rel(source, reference):
    """source / reference - 1 (a fraction; quoted as a signed percentage)."""
    return Fn("{0} against {1}", lambda a, b: a / b - 1.0, source, reference)


def ratio(a, b):
    return Fn("{0} / {1}", lambda x, y: x / y, a, b)


def max_abs(*sources):
    return Fn("largest |.| of " + ", ".join("{%d}" % i for i in range(len(sources))),
              lambda *v: max(abs(x) for x in v), *sources)
