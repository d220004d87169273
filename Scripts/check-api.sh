#!/usr/bin/env bash
# Compares the framework's public API with the last release and fails on a break that
# CHANGELOG.md does not list under the unreleased version ("- API breakage: ..." lines,
# worded as the tool words them).
#
#   bash Scripts/check-api.sh            # against the newest release in CHANGELOG.md
#   bash Scripts/check-api.sh 0.1.0      # against another tag or commit
set -euo pipefail
cd "$(dirname "$0")/.."

products=(Signals SignalsTesting Networking Persistence Mediator)

# The newest release heading that is not "(unreleased)": "## 0.2.0 (2026-11-26, commit fa29433)".
release=$(grep -E '^## [0-9]+\.[0-9]+\.[0-9]+ \([0-9]' CHANGELOG.md | head -n 1 || true)
if [ -z "$release" ]; then
    echo "check-api: CHANGELOG.md names no release to compare with" >&2
    exit 1
fi
version=$(echo "$release" | awk '{print $2}')
commit=$(echo "$release" | sed -n 's/.*commit \([0-9a-f]*\)).*/\1/p')

# The tag if this clone has it, else the commit the changelog records for it.
baseline=${1:-}
if [ -z "$baseline" ]; then
    if git rev-parse -q --verify "refs/tags/$version" >/dev/null; then
        baseline=$version
    elif [ -n "$commit" ] && git cat-file -e "$commit^{commit}" 2>/dev/null; then
        baseline=$commit
    else
        echo "check-api: neither tag $version nor its commit ${commit:-(none recorded)} is in this clone" >&2
        exit 1
    fi
fi

# The breaks the unreleased section announces.
allowlist=$(mktemp)
trap 'rm -f "$allowlist"' EXIT
awk '/^## /{ section = ($0 ~ /\(unreleased\)/) } section && /^- API breakage: /{ sub(/^- /, ""); print }' \
    CHANGELOG.md >"$allowlist"

echo "check-api: public API of ${products[*]} against $version ($baseline)," \
    "$(wc -l <"$allowlist" | tr -d ' ') break(s) announced"
if ! swift package diagnose-api-breaking-changes "$baseline" --products "${products[@]}" \
    --breakage-allowlist-path "$allowlist"; then
    echo "check-api: the public API breaks against $version in a way CHANGELOG.md does not announce;" \
        "list each break under the unreleased version's Breaking heading" >&2
    exit 1
fi
