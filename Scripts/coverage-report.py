#!/usr/bin/env python3
"""Line coverage per module, from the llvm-cov export SwiftPM writes for the test binary.

Usage: coverage-report.py CODECOV_JSON MARKDOWN_FILE

Prints a table of every module under Sources/ (lines run by the tests, of lines with
code), writes it into MARKDOWN_FILE between the `<!-- coverage -->` markers (the text
around them is kept), and exits with 1 when a framework module is below 90%.
"""
import collections
import json
import sys

FRAMEWORK = ["Signals", "SignalsTesting", "Networking", "Persistence", "Mediator"]
GOAL = 90.0


def main():
    source, markdown = sys.argv[1], sys.argv[2]
    with open(source, encoding="utf-8") as file:
        export = json.load(file)
    lines = collections.defaultdict(lambda: [0, 0])
    for entry in export["data"][0]["files"]:
        name = entry["filename"]
        if "/Sources/" not in name:
            continue
        module = name.split("/Sources/", 1)[1].split("/", 1)[0]
        summary = entry["summary"]["lines"]
        lines[module][0] += summary["covered"]
        lines[module][1] += summary["count"]

    rows, failed = [], False
    for module in FRAMEWORK + sorted(set(lines) - set(FRAMEWORK)):
        covered, count = lines.get(module, (0, 0))
        share = 100.0 * covered / count if count else 0.0
        group = "framework" if module in FRAMEWORK else "demo"
        mark = ""
        if module in FRAMEWORK and share < GOAL:
            mark, failed = " (below 90%)", True
        rows.append(f"| `{module}` | {group} | {covered:,} of {count:,} | {share:.1f}%{mark} |")
    table = "\n".join(["| module | group | lines run | share |", "|---|---|---:|---:|"] + rows)
    print(table)

    with open(markdown, encoding="utf-8") as file:
        text = file.read()
    start, end = "<!-- coverage -->", "<!-- /coverage -->"
    if start in text and end in text:
        before, rest = text.split(start, 1)
        after = rest.split(end, 1)[1]
        with open(markdown, "w", encoding="utf-8") as file:
            file.write(before + start + "\n" + table + "\n" + end + after)
    if failed:
        print(f"a framework module is below {GOAL:.0f}% of its lines run")
    sys.exit(1 if failed else 0)


main()
