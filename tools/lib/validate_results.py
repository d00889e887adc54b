#!/usr/bin/env python3
"""Check rdmabench results files (`rdmabench run --out FILE`, `--json`) against the committed
schema, docs/results.schema.json. Prints one line per file; exit 0 when all are valid, 1 when one
is not (with the first problem and where), 2 when a file cannot be read.

Usage: tools/lib/validate_results.py FILE...   (- reads standard input)"""
import json
import sys
from pathlib import Path

import jsonschema

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "results.schema.json"


def validator():
    return jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text()))


def problems(doc, check=None):
    """Every way `doc` breaks the schema, as "where: what" lines (empty when valid)."""
    check = check or validator()
    return [f"{e.json_path}: {e.message[:300]}" for e in
            sorted(check.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))]


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    check, worst = validator(), 0
    for name in argv:
        try:
            text = sys.stdin.read() if name == "-" else Path(name).read_text()
            doc = json.loads(text)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            print(f"{name}: cannot read as JSON: {e}", file=sys.stderr)
            worst = max(worst, 2)
            continue
        found = problems(doc, check)
        if found:
            print(f"{name}: does not match {SCHEMA_PATH.name} ({len(found)} problems; first: {found[0]})",
                  file=sys.stderr)
            worst = max(worst, 1)
        else:
            print(f"{name}: matches {SCHEMA_PATH.name}")
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
