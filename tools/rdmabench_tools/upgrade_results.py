"""Rewrites rdmabench results files of schemas 2 to 4 in schema 5 (results_upgrade.py): the
context's sides grouped under client and server, typed parameters, integer counts, each lat
row's round trips. The figures are not touched. A file of schema 5 is left as it is.

Usage: tools/lib/run-module rdmabench_tools.upgrade_results FILE...   (each rewritten in place)
Exit status: 0, 2 on a file that is not a readable rdmabench results file (the table of
`rdmabench --help`)."""
import json
import sys
from pathlib import Path

from rdmabench_tools import json_input, rdmabench_results as rr
from rdmabench_tools import results_upgrade
from rdmabench_tools.exit_codes import USAGE


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__, file=sys.stderr if not argv else sys.stdout)
        return USAGE if not argv else 0
    for name in argv:
        try:
            rr.load(name)  # a results file the tools read, or ResultsError
        except rr.ResultsError as e:
            print(f"upgrade_results: {e}", file=sys.stderr)
            return USAGE
        doc = json_input.read_json(name)
        schema = doc["context"]["rdmabench_schema"]
        if schema == results_upgrade.SCHEMA:
            print(f"{name}: schema {schema} already")
            continue
        Path(name).write_text(json.dumps(results_upgrade.upgrade(doc, rr.catalogue_entry), indent=2) + "\n")
        print(f"{name}: schema {schema} -> {results_upgrade.SCHEMA}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
