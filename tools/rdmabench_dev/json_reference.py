"""The generated parts of docs/json.md: every field the results schema describes
(docs/results.schema.json) and every counter and port-counter alarm the engine reports
(`rdmabench version --json`), each in a generated section of the page (doc_sections.py).
tools/rdmabench_dev/update_docs.py writes them."""
import json
from pathlib import Path

from rdmabench_dev.doc_sections import render

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "json.md"
SCHEMA = ROOT / "docs" / "results.schema.json"


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def type_text(node):
    if "oneOf" in node:
        return " or ".join(type_text(n) for n in node["oneOf"])
    if node.get("type") == "array" and isinstance(node.get("items"), dict):
        return f"array of {type_text(node['items'])}"
    if "enum" in node:
        return " or ".join(f"`{json.dumps(v)}`" for v in node["enum"])
    if "const" in node:
        return f"`{json.dumps(node['const'])}`"
    if "$ref" in node:
        return node["$ref"].rsplit("/", 1)[-1]
    kind = node.get("type", "")
    kind = " or ".join(kind) if isinstance(kind, list) else kind
    if "pattern" in node:
        kind += f" like `{node['pattern']}`"
    if "minimum" in node:
        kind += f", at least {node['minimum']}"
    return kind


def field_table(properties, prefix=""):
    rows = ["| field | type | what it is |", "|---|---|---|"]
    for name, node in properties.items():
        rows.append(f"| `{prefix}{name}` | {cell(type_text(node))} | {cell(node.get('description', ''))} |")
    return "\n".join(rows)


def sections(schema, registry):
    context = schema["properties"]["context"]["properties"]
    counters = ["| counter | unit | per | better | what it is |", "|---|---|---|---|---|"]
    counters += [f"| `{c['name']}` | {cell(c['unit'])} | {cell(c['per'])} | {c['better']} | "
                 f"{cell(c['description'])} |" for c in registry["counters"]]
    alarms = ["| port counter | means | flags the row | one per resend |", "|---|---|---|---|"]
    alarms += [f"| `{a['counter']}` | {a['means']} | {'yes' if a['flags_row'] else 'no'} | "
               f"{'yes' if a['resend_episode'] else 'no'} |" for a in registry["device_alarms"]]
    return {
        "context": field_table(context, "context."),
        "side": field_table(schema["$defs"]["side"]["properties"], "context.client."),
        "params": field_table(context["rdmabench_params"].get("properties", {}),
                              "context.rdmabench_params."),
        "row": field_table(schema["$defs"]["row"]["properties"]),
        "spec": field_table(schema["$defs"]["spec"]["properties"], "rdmabench_spec."),
        "counters": "\n".join(counters),
        "alarms": "\n".join(alarms),
    }


def expected_page(registry, page):
    """docs/json.md's text `page` with its tables as `registry` (version --json) and the schema say."""
    return render(page, sections(json.loads(SCHEMA.read_text()), registry), "docs/json.md")
