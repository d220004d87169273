#!/usr/bin/env bash
# Line coverage per module: runs every test with coverage (`swift test
# --enable-code-coverage`), reads the llvm-cov export SwiftPM writes for the test binary,
# prints each module's share of lines run, writes the table into Docs/Coverage.md, and
# fails when a framework module runs less than 90% of its lines.
set -euo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
if ! swift test --enable-code-coverage >"$log" 2>&1; then
    tail -80 "$log"
    echo "coverage: the tests failed" >&2
    exit 1
fi
grep "Test run with\|Executed .* tests" "$log" | tail -2
python3 Scripts/coverage-report.py "$(swift test --show-codecov-path)" Docs/Coverage.md
