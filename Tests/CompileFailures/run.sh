#!/usr/bin/env bash
# Negative compile tests for the Signals module: each snippet here must FAIL to compile in
# Swift 6 mode with the diagnostic named on its first line (`// expect: <text>`), except
# snippets that expect `compiles`, which must compile with no warning at all. A
# `// mode: sil` line compiles through SIL (`-emit-sil`), where region-based (`sending`)
# diagnostics are reported; other snippets are only type-checked.
#
# Usage: Tests/CompileFailures/run.sh [build dir]   (default: .build/debug)
# Build the module first: swift build --target Signals
set -u
cd "$(dirname "$0")/../.."

build="${1:-.build/debug}"
if [ ! -d "$build" ] && [ "$#" -eq 0 ]; then
    # `.build/debug` is a link SwiftPM makes on full builds; a target build may only
    # have made `.build/<triple>/debug`.
    for candidate in .build/*/debug; do
        if [ -d "$candidate" ]; then build="$candidate"; break; fi
    done
fi
modules=""
for candidate in "$build/Modules" "$build"; do
    if [ -d "$candidate/Signals.swiftmodule" ] || [ -f "$candidate/Signals.swiftmodule" ]; then
        modules="$candidate"
        break
    fi
done
if [ -z "$modules" ]; then
    found=$(find -L "$build" -maxdepth 3 -name Signals.swiftmodule 2>/dev/null | head -n 1)
    if [ -n "$found" ]; then modules=$(dirname "$found"); fi
fi
if [ -z "$modules" ]; then
    echo "no Signals.swiftmodule under $build: run 'swift build --target Signals' first" >&2
    exit 2
fi

swiftc="${SWIFTC:-swiftc}"
failures=0
cases=0
for snippet in Tests/CompileFailures/*.swift; do
    cases=$((cases + 1))
    name=$(basename "$snippet")
    expected=$(sed -n '1s|^// expect: ||p' "$snippet")
    if [ -z "$expected" ]; then
        echo "FAIL $name: its first line must be '// expect: <diagnostic>' or '// expect: compiles'"
        failures=$((failures + 1))
        continue
    fi
    if grep -q '^// mode: sil$' "$snippet"; then
        stage=(-emit-sil -o /dev/null)
    else
        stage=(-typecheck)
    fi
    if [ "$expected" = "compiles" ]; then
        if output=$("$swiftc" -swift-version 6 -warnings-as-errors -I "$modules" "${stage[@]}" "$snippet" 2>&1); then
            echo "PASS $name: compiles with no warning"
        else
            echo "FAIL $name: expected to compile, but:"
            printf '%s\n' "$output" | grep -E '^[^ ]+:[0-9]+:[0-9]+: (error|warning):' | sed 's/^/    /'
            failures=$((failures + 1))
        fi
        continue
    fi
    if output=$("$swiftc" -swift-version 6 -I "$modules" "${stage[@]}" "$snippet" 2>&1); then
        echo "FAIL $name: compiled, but must fail with \"$expected\""
        failures=$((failures + 1))
    elif printf '%s\n' "$output" | grep -qF "error: $expected"; then
        echo "PASS $name: fails with \"$expected\""
    else
        echo "FAIL $name: failed, but not with \"$expected\":"
        printf '%s\n' "$output" | grep -E '^[^ ]+:[0-9]+:[0-9]+: error:' | sort -u | sed 's/^/    /'
        failures=$((failures + 1))
    fi
done

echo "$((cases - failures)) of $cases compile checks passed (module: $modules)"
[ "$failures" -eq 0 ]
