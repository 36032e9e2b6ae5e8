#!/usr/bin/env python3
"""Check the repository's documentation links.

Usage: python3 scripts/check-links.py [ROOT]   (ROOT defaults to the repository root)

Two checks, each failure printed as file:line: message, exit status 1 if any:

1. every relative link in a Markdown file ([text](target), ![alt](target)) resolves: the file or
   folder exists, and a #fragment names a heading of the target Markdown file (GitHub's anchors:
   lower case, punctuation dropped, spaces to hyphens, -1, -2... for repeats);
2. no file of the repository (text files under git, or all files outside .git and build*/ when git
   is not available) cites a project document that is not in the repository: DESIGN.md,
   SIMGRID-NOTES.md, REFERENCE.md, MEASURED.md (also as "REFERENCE: ..." or "SIMGRID-NOTES").
   What the code needs from them is in docs/ (sources.md, simgrid-measurements.md, departures.md).

3. every repository path a file names (sim/..., models/..., docs/..., tests/..., with a source,
   proto, script, scenario or Markdown ending) exists.

Links with a scheme (https:, mailto:) and links inside fenced or inline code are not checked.
"""
import os
import re
import subprocess
import sys

# The files by name, and the bare forms comments used for them ("SIMGRID-NOTES", "REFERENCE: ...",
# "REFERENCE notes", "REFERENCE (..."), but not the enum value REFERENCE (reference mode).
MISSING_DOCS = re.compile(r"\b(?:DESIGN|SIMGRID-NOTES|REFERENCE|MEASURED)\.md\b|\bSIMGRID-NOTES\b"
                          r"|\bREFERENCE(?=: | notes\b| \()|/work/shared\b")
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"`[^`]*`")


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", s)  # a link in a heading keeps its text
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found, seen, fenced = set(), {}, False
        with open(path, encoding="utf-8") as f:
            for line in f:
                if FENCE.match(line):
                    fenced = not fenced
                    continue
                m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
                if m and not fenced:
                    base = slug(m.group(1))
                    n = seen.get(base, 0)
                    seen[base] = n + 1
                    found.add(base if n == 0 else f"{base}-{n}")
        cache[path] = found
    return cache[path]


def repo_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard"],
                             capture_output=True, text=True, check=True).stdout
        return [p for p in out.splitlines() if os.path.isfile(os.path.join(root, p))]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if x != ".git" and not x.startswith("build")]
            files += [os.path.relpath(os.path.join(d, n), root) for n in names]
        return files


def check_links(root, rel, errors):
    path = os.path.join(root, rel)
    fenced = False
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if fenced:
                continue
            for m in LINK.finditer(INLINE_CODE.sub("", line)):
                target = m.group(1)
                if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                    continue
                file_part, _, frag = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                if not os.path.exists(dest):
                    errors.append(f"{rel}:{no}: link to {target}: {file_part} does not exist")
                elif frag and dest.endswith(".md") and frag not in anchors(dest):
                    errors.append(f"{rel}:{no}: link to {target}: no heading #{frag} in {os.path.relpath(dest, root)}")


# A path into the repository's own folders, as comments and documents name files.
REPO_PATH = re.compile(r"\b(?:sim|models|traces|topologies|scripts|docs|tests|scenarios)/[A-Za-z0-9_/.-]+"
                       r"\.(?:cpp|hpp|proto|md|sh|py|textproto)\b")
# Files that name made-up paths on purpose (the layering test plants a tree),
# and the made-up scenario names of error-message examples and test inputs.
PLANTED = {"tests/sim/layering_test.cpp", "tests/sim/scenario/scenario_paths_test.cpp"}
EXAMPLE_NAMES = ("/x.textproto", "/fuzz-input.textproto", "/my-node.textproto")


def check_paths(root, rel, lines, errors):
    if rel in PLANTED:
        return
    for no, line in enumerate(lines, 1):
        for m in REPO_PATH.finditer(line):
            path = m.group(0)
            if path.endswith(EXAMPLE_NAMES):
                continue
            if m.start() > 0 and line[m.start() - 1] == "/":
                continue  # inside a URL or another repository's path: not one of ours
            if not os.path.exists(os.path.join(root, path)):
                errors.append(f"{rel}:{no}: names {path}, which is not in the repository")


def check_mentions(root, rel, errors):
    try:
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            lines = f.readlines()
    except (UnicodeDecodeError, OSError):
        return
    for no, line in enumerate(lines, 1):
        for m in MISSING_DOCS.finditer(line):
            errors.append(f"{rel}:{no}: cites {m.group(0)!r}, a document that is not in the repository")
    check_paths(root, rel, lines, errors)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    root = os.path.abspath(root)
    this = os.path.relpath(os.path.abspath(__file__), root)
    errors = []
    for rel in sorted(repo_files(root)):
        if rel.endswith(".md"):
            check_links(root, rel, errors)
        if rel != this:
            check_mentions(root, rel, errors)
    for e in errors:
        print(e)
    if errors:
        print(f"{len(errors)} problem(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
