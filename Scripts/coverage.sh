#!/usr/bin/env bash
# Line coverage per module: runs every test with coverage (`swift test
# --enable-code-coverage`), reads the llvm-cov export SwiftPM writes for the test binary,
# prints each module's share of lines run, writes the table and the framework's unrun
# lines into Docs/Coverage.md, and fails when a framework module runs less than 90% of
# its lines.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v python3 >/dev/null || { echo "coverage: python3 is needed to read the coverage export" >&2; exit 1; }

log=$(mktemp)
if ! swift test --enable-code-coverage >"$log" 2>&1; then
    tail -80 "$log"
    echo "coverage: the tests failed" >&2
    exit 1
fi
grep "Test run with\|Executed .* tests" "$log" | tail -2 || true

export_json=$(swift test --show-codecov-path)
[ -f "$export_json" ] || { echo "coverage: no coverage export at '$export_json'" >&2; exit 1; }
profile="$(dirname "$export_json")/default.profdata"
binary="$(swift build --show-bin-path)/HomesPackageTests.xctest"
llvm_cov="$(dirname "$(readlink -f "$(command -v swift)")")/llvm-cov"
[ -x "$llvm_cov" ] || llvm_cov=$(command -v llvm-cov)
package=$(mktemp)
swift package describe --type json >"$package"
python3 Scripts/coverage-report.py "$export_json" "$package" Docs/Coverage.md "$llvm_cov" "$binary" "$profile"
