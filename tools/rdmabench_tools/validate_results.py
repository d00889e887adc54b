"""Check rdmabench's JSON files against the committed schemas: results (`rdmabench run --out FILE`,
`--json`: docs/results.schema.json) and mesh reports (`rdmabench mesh --out FILE`:
docs/mesh.schema.json, chosen by the file's context.schema). Prints one line per file; exit 0
when all are valid, 13 when one is not (with the first problem and where), 2 when a file cannot
be read (the table of `rdmabench --help`).

Usage: tools/lib/run-module rdmabench_tools.validate_results FILE...   (- reads standard input)"""
import functools
import json
import re
import sys
from pathlib import Path

import jsonschema

from rdmabench_tools import json_input
from rdmabench_tools.printable_text import excerpt
from rdmabench_tools.exit_codes import INVALID_FILE, USAGE

DOCS = Path(__file__).resolve().parents[2] / "docs"
SCHEMA_PATH = DOCS / "results.schema.json"
CURRENT = json.loads(SCHEMA_PATH.read_text())["properties"]["context"]["properties"]["rdmabench_schema"]["const"]
MESH_SCHEMA_PATH = DOCS / "mesh.schema.json"
SEARCH_SCHEMA_PATH = DOCS / "search.schema.json"


def schema_path(doc):
    """The schema a document claims: a mesh report says so in context.schema."""
    context = doc.get("context") if isinstance(doc, dict) else None
    mesh = isinstance(context, dict) and str(context.get("schema", "")).startswith("rdmabench-mesh/")
    return MESH_SCHEMA_PATH if mesh else SCHEMA_PATH


_LITERAL = re.compile(r"\^([A-Za-z0-9_]+)\$")


def _literal_patterns_as_properties(node):
    """The schema with each patternProperties key that names one property (^name$) moved to
    properties: the same constraints (a property is checked against its properties entry and
    every pattern it matches; additionalProperties sees both), without a regular expression
    searched per property and pattern (a results file's rows: 1.4 million searches, 0.55 s)."""
    if isinstance(node, list):
        return [_literal_patterns_as_properties(n) for n in node]
    if not isinstance(node, dict):
        return node
    node = {k: _literal_patterns_as_properties(v) for k, v in node.items()}
    patterns = node.get("patternProperties")
    if isinstance(patterns, dict):
        literal = {m.group(1): v for k, v in patterns.items() if (m := _LITERAL.fullmatch(k))}
        if literal.keys() & node.get("properties", {}).keys():
            return node  # both would apply: keep them as they are
        node["properties"] = {**node.get("properties", {}), **literal}
        node["patternProperties"] = {k: v for k, v in patterns.items() if not _LITERAL.fullmatch(k)}
    return node


@functools.cache
def validator(path=SCHEMA_PATH):
    """The validator of the schema at `path`, made once a process."""
    return jsonschema.Draft202012Validator(_literal_patterns_as_properties(json.loads(path.read_text())))


def errors(doc, check=None):
    """Every way `doc` breaks its schema (the one it claims, unless `check` is given), as
    jsonschema's errors in the order of their place in the document."""
    check = check or validator(schema_path(doc))
    return sorted(check.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))


def problems(doc, check=None):
    """Every way `doc` breaks its schema, as "where: what" lines (empty when valid)."""
    return [f"{excerpt(e.json_path, 200)}: {excerpt(e.message, 300)}" for e in errors(doc, check)]


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    worst = 0
    for name in argv:
        try:
            doc = json_input.read_json(name)
        except json_input.JsonInputError as e:
            print(f"cannot read as JSON: {e}", file=sys.stderr)
            worst = max(worst, USAGE)
            continue
        found, schema = problems(doc), schema_path(doc).name
        version = doc.get("context", {}).get("rdmabench_schema") if isinstance(doc, dict) else None
        if schema == SCHEMA_PATH.name and isinstance(version, int) and version != CURRENT:
            print(f"{name}: rdmabench results schema {version}; {schema} describes schema {CURRENT} "
                  f"(tools/lib/run-module rdmabench_tools.upgrade_results {name} rewrites it in {CURRENT})", file=sys.stderr)
            worst = max(worst, INVALID_FILE)
        elif found:
            print(f"{name}: does not match {schema} ({len(found)} problems; first: {found[0]})",
                  file=sys.stderr)
            worst = max(worst, INVALID_FILE)
        else:
            print(f"{name}: matches {schema}")
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
