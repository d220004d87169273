#!/usr/bin/env python3
"""Counts the documented public symbols of modules from their symbol graphs.

Usage: documentation-coverage.py SYMBOLGRAPH_DIR MODULE[:REQUIRED%] ...

Prints each module's share of public and open symbols with a documentation comment (a
symbol that implements a protocol requirement inherits the requirement's comment, as in
DocC), lists the undocumented ones, and exits with 1 when a module is below the share
required of it.
"""
import glob
import json
import os
import sys


def coverage(folder, module):
    seen, undocumented, inherited = set(), [], []
    for path in sorted(glob.glob(os.path.join(folder, "*.symbols.json"))):
        # `Module.symbols.json` and `Module@Other.symbols.json` (extensions of other
        # modules' types) are the module's own.
        if os.path.basename(path).split("@")[0].split(".")[0] != module:
            continue
        with open(path, encoding="utf-8") as file:
            graph = json.load(file)
        for symbol in graph["symbols"]:
            identifier = symbol["identifier"]["precise"]
            if symbol["accessLevel"] not in ("public", "open") or identifier in seen:
                continue
            if "::SYNTHESIZED::" in identifier:
                continue  # made by the compiler (Equatable's ==, Codable's init), never written
            if symbol["kind"]["identifier"] == "swift.extension":
                continue  # an extension block of another module's type: its members count
            seen.add(identifier)
            comment = symbol.get("docComment") or {}
            name = ".".join(symbol["pathComponents"]) + " (" + symbol["kind"]["displayName"] + ")"
            if not any(line["text"].strip() for line in comment.get("lines", [])):
                undocumented.append(name)
            elif comment.get("module") not in (None, module):
                inherited.append(name)  # the comment of a requirement in another module
    return len(seen), sorted(undocumented), sorted(inherited)


def main():
    folder, failed = sys.argv[1], False
    for argument in sys.argv[2:]:
        module, _, required = argument.partition(":")
        total, undocumented, inherited = coverage(folder, module)
        if total == 0:
            print(f"{module}: no public symbols found in {folder}")
            failed = True
            continue
        share = 100.0 * (total - len(undocumented)) / total
        print(f"{module}: {total - len(undocumented)} of {total} public symbols documented ({share:.1f}%)"
              + (f", {len(inherited)} of them by the comment of a requirement they implement" if inherited else ""))
        for name in undocumented:
            print(f"    undocumented: {name}")
        if required and share < float(required):
            print(f"{module}: below the {required}% required")
            failed = True
    sys.exit(1 if failed else 0)


main()
