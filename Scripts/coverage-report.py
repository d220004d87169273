#!/usr/bin/env python3
"""Line coverage per module, from the llvm-cov export SwiftPM writes for the test binary.

Usage: coverage-report.py CODECOV_JSON PACKAGE_JSON MARKDOWN_FILE [LLVM_COV TEST_BINARY PROFDATA]

PACKAGE_JSON is `swift package describe --type json`: it maps every source file to its
module (a feature's folder holds several). Prints a table of every module under
`Sources/` (lines run by the tests, of lines with code) and writes it into MARKDOWN_FILE
between the `<!-- coverage -->` markers. Given llvm-cov, the test binary and the profile,
it also writes the lines of the framework modules that no test runs between the
`<!-- unrun -->` markers, so that list cannot drift from the code. Exits with 1 when a
framework module runs less than 90% of its lines, or the markers are missing.
"""
import collections
import json
import os
import subprocess
import sys

FRAMEWORK = ["Signals", "SignalsTesting", "Networking", "Persistence", "Mediator"]
GOAL = 90.0


def modules_by_file(package):
    """Every source file's path, relative to the package root, and its module."""
    owner = {}
    for target in package["targets"]:
        for source in target.get("sources", []):
            owner[os.path.normpath(os.path.join(target["path"], source))] = target["name"]
    return owner


def replace_between(text, name, body):
    start, end = f"<!-- {name} -->", f"<!-- /{name} -->"
    if start not in text or end not in text:
        raise SystemExit(f"coverage: the markers {start} {end} are missing")
    before, rest = text.split(start, 1)
    return before + start + "\n" + body + "\n" + end + rest.split(end, 1)[1]


def unrun_lines(llvm_cov, binary, profile, path):
    """The line numbers of `path` that have code and a count of 0, as ranges."""
    shown = subprocess.run([llvm_cov, "show", binary, f"-instr-profile={profile}", path],
                           capture_output=True, text=True, check=True).stdout
    lines = []
    for row in shown.splitlines():
        parts = row.split("|", 2)
        if len(parts) == 3 and parts[1].strip() == "0" and parts[0].strip().isdigit():
            lines.append(int(parts[0]))
    ranges, start = [], None
    for index, line in enumerate(lines):
        if start is None:
            start = line
        if index + 1 == len(lines) or lines[index + 1] != line + 1:
            ranges.append(str(start) if start == line else f"{start}-{line}")
            start = None
    return ranges


def main():
    source, package_json, markdown = sys.argv[1:4]
    root = os.getcwd()
    with open(source, encoding="utf-8") as file:
        export = json.load(file)
    with open(package_json, encoding="utf-8") as file:
        owner = modules_by_file(json.load(file))

    lines = collections.defaultdict(lambda: [0, 0])
    files = collections.defaultdict(list)
    for entry in export["data"][0]["files"]:
        relative = os.path.normpath(os.path.relpath(entry["filename"], root))
        module = owner.get(relative)
        if module is None or not relative.startswith("Sources" + os.sep):
            continue
        summary = entry["summary"]["lines"]
        lines[module][0] += summary["covered"]
        lines[module][1] += summary["count"]
        if summary["covered"] < summary["count"]:
            files[module].append(relative)

    rows, failed = [], False
    for module in FRAMEWORK + sorted(set(lines) - set(FRAMEWORK)):
        covered, count = lines.get(module, (0, 0))
        share = 100.0 * covered / count if count else 0.0
        mark = ""
        if module in FRAMEWORK and share < GOAL:
            mark, failed = " (below 90%)", True
        group = "framework" if module in FRAMEWORK else "demo"
        rows.append(f"| `{module}` | {group} | {covered:,} of {count:,} | {share:.1f}%{mark} |")
    table = "\n".join(["| module | group | lines run | share |", "|---|---|---:|---:|"] + rows)
    print(table)

    with open(markdown, encoding="utf-8") as file:
        text = replace_between(file.read(), "coverage", table)
    if len(sys.argv) == 7:
        llvm_cov, binary, profile = sys.argv[4:7]
        unrun = []
        for module in FRAMEWORK:
            for path in sorted(files[module]):
                ranges = unrun_lines(llvm_cov, binary, profile, os.path.join(root, path))
                if ranges:
                    unrun.append(f"- `{path}`: {', '.join(ranges)}")
        text = replace_between(text, "unrun", "\n".join(unrun) or "(none)")
    with open(markdown, "w", encoding="utf-8") as file:
        file.write(text)
    if failed:
        print(f"coverage: a framework module runs less than {GOAL:.0f}% of its lines")
    sys.exit(1 if failed else 0)


main()
