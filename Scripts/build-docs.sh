#!/usr/bin/env bash
# Builds the framework's documentation with the toolchain's DocC: one static site per
# product under .build/docs/ (open .build/docs/index.html through a web server, see the
# README), from the symbol graphs of a debug build and each module's `.docc` catalog.
# Fails on any DocC warning (an unresolved link, an unknown topic) and when Signals or
# SignalsTesting has a public symbol without documentation; prints every module's share.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(Signals SignalsTesting Networking Persistence Mediator)
output=.build/docs
command -v python3 >/dev/null || { echo "build-docs: python3 is needed to count documented symbols" >&2; exit 1; }
# The toolchain's docc: on PATH, beside the swift driver, or through Xcode.
docc=$(command -v docc || true)
[ -n "$docc" ] || docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
[ -x "$docc" ] || docc=$(xcrun --find docc 2>/dev/null || true)
[ -x "$docc" ] || { echo "build-docs: docc was not found (it ships with the Swift toolchain)" >&2; exit 1; }

# Public symbol graphs of every module (SwiftPM's own command, no plugin), with extension
# blocks: without them docc drops what a module adds to another's types (SignalsTesting's
# `record()` and waits on `Signal` and `Property`), which it shows under Extended Modules.
log=$(mktemp)
if ! swift package dump-symbol-graph --minimum-access-level public --emit-extension-block-symbols >"$log" 2>&1; then
    cat "$log"
    echo "build-docs: the symbol graphs could not be made" >&2
    exit 1
fi
graphs=$(sed -n 's/^Files written to //p' "$log")
if [ -z "$graphs" ] || [ ! -d "$graphs" ] || grep -q "error:" "$log"; then
    cat "$log"
    echo "build-docs: the symbol graphs could not be made" >&2
    exit 1
fi

rm -rf "$output"
mkdir -p "$output"
status=0
for module in "${modules[@]}"; do
    # Each site sees its own module's graphs only (its extensions of others included).
    module_graphs=$(mktemp -d)
    if ! cp "$graphs/$module.symbols.json" "$module_graphs/"; then
        echo "build-docs: no symbol graph for $module" >&2
        exit 1
    fi
    cp "$graphs/$module"@*.symbols.json "$module_graphs/" 2>/dev/null || true
    lowercased=$(echo "$module" | tr '[:upper:]' '[:lower:]')
    echo "== $module"
    if ! "$docc" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$module_graphs" \
        --fallback-display-name "$module" --fallback-bundle-identifier "homes.$lowercased" \
        --transform-for-static-hosting --hosting-base-path "$module" \
        --warnings-as-errors --output-path "$output/$module" >"$log" 2>&1; then
        status=1
    fi
    grep -v "^Finished\|^Generated\|^$" "$log" || true
    rm -rf "$module_graphs"
done

# A landing page linking the five sites.
{
    echo '<!doctype html><html><head><meta charset="utf-8"><title>Homes framework documentation</title></head><body>'
    echo '<h1>Homes framework documentation</h1><ul>'
    for module in "${modules[@]}"; do
        lowercased=$(echo "$module" | tr '[:upper:]' '[:lower:]')
        echo "<li><a href=\"/$module/documentation/$lowercased/\">$module</a></li>"
    done
    echo '</ul></body></html>'
} > "$output/index.html"

echo "== documented public symbols"
python3 Scripts/documentation-coverage.py "$graphs" Signals:100 SignalsTesting:100 Networking Persistence Mediator \
    || status=1

if [ "$status" != "0" ]; then
    echo "build-docs: the documentation has problems (above)" >&2
    exit 1
fi
echo "build-docs: $output/index.html (serve with: python3 -m http.server --directory $output 8000)"
