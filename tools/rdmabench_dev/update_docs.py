"""Writes the documentation that is made from the code: docs/cli.md (every command's --help),
README's exit status table, docs/layout.md's layer map (meson.build's layers), the counters of docs/results.schema.json and docs/json.md's tables
(the results schema and the counter catalogue). Run it after changing an option, an exit code, the schema or a counter; a host
test fails until it has been run.

Usage: tools/lib/run-module rdmabench_dev.update_docs [RDMABENCH]   (default: build/rdmabench)
Exit status: 0, 2 when the program does not answer or a page lacks a section (the table of
`rdmabench --help`)."""
import json
import subprocess
import sys
from pathlib import Path

from rdmabench_dev import cli_reference
from rdmabench_dev import json_reference
from rdmabench_dev import layer_map
from rdmabench_dev import schema_counters
from rdmabench_dev.doc_sections import MissingSection, render
from rdmabench_tools.exit_codes import USAGE

ROOT = Path(__file__).resolve().parents[2]


def expected_pages(program):
    """{path: text} of every generated page as this build says it should read."""
    doc = cli_reference.registry(program)
    readme, json_page = ROOT / "README.md", ROOT / "docs" / "json.md"
    layout = ROOT / "docs" / "layout.md"
    schema_path = ROOT / "docs" / "results.schema.json"
    schema = schema_counters.with_counters(json.loads(schema_path.read_text()), doc["counters"])
    return {
        schema_path: json.dumps(schema, indent=1) + "\n",
        ROOT / "docs" / "cli.md": cli_reference.markdown(program),
        readme: render(readme.read_text(), {"exit-codes": cli_reference.exit_code_table(doc)},
                       "README.md"),
        json_page: json_reference.expected_page(doc, json_page.read_text()),
        layout: render(layout.read_text(),
                       {"layers": layer_map.markdown((ROOT / "meson.build").read_text())},
                       "docs/layout.md"),
    }


def main(argv):
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print(__doc__, file=sys.stderr)
        return USAGE
    program = argv[0] if argv else str(ROOT / "build" / "rdmabench")
    try:
        pages = expected_pages(program)
    except (OSError, ValueError, MissingSection, cli_reference.ProgramError,
            subprocess.TimeoutExpired) as e:
        print(f"update_docs: {e}", file=sys.stderr)
        return USAGE
    for path, text in pages.items():
        changed = not path.exists() or path.read_text() != text
        path.write_text(text)
        print(f"{path.relative_to(ROOT)}: {'updated' if changed else 'unchanged'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
