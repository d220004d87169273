// The homes REPL lands with its own issue; until then the executable explains itself.
print("""
homes: a property-listing browser (work in progress)

usage: swift run homes

The interactive demo is not built yet. The Signals library it runs on is ready:
see README.md and Docs/Contract.md.
""")
