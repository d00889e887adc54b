"""The counters part of docs/results.schema.json, made from the engine's counter catalogue
(`rdmabench version --json`: counters): a pattern per counter with its description, unit and
direction, none negative, and the counts integers on every iteration row. update_docs.py
writes it into the schema; a host test holds the schema to the build."""
import re

NAME_CHAR = r"[a-z0-9_]"  # what a device counter's name is made of
NAME = NAME_CHAR + "{1,64}"


def pattern_of(name, catalogue):
    """The regular expression of counter `name`: {qp} and {thread} a decimal index, {name} a
    device counter's name that no longer entry of the catalogue spells out (client_dev_{name}
    is not client_dev_{name}_per_msg)."""
    head, _, rest = name.partition("{")
    if not rest:
        return f"^{re.escape(name)}$"
    placeholder, _, tail = rest.partition("}")
    if placeholder != "name":
        return f"^{re.escape(head)}[0-9]+{re.escape(tail)}$"
    longer = [e["name"] for e in catalogue if e["name"] != name
              and e["name"].startswith(head + "{name}" + tail)]
    exclude = "".join(f"(?!{NAME_CHAR}*{re.escape(other.split('{name}', 1)[1])}$)" for other in longer)
    return f"^{re.escape(head)}{exclude}{NAME}{re.escape(tail)}$"


def counter_properties(catalogue):
    """(patternProperties of every row, patternProperties of an iteration row's counts)."""
    every, counts = {}, {}
    for entry in catalogue:
        pattern = pattern_of(entry["name"], catalogue)
        better = {"higher": "higher is better", "lower": "lower is better"}.get(entry["better"], "")
        unit = entry["unit"] + (f" per {entry['per']}" if entry["per"] else "")
        every[pattern] = {"type": ["number", "null"], "minimum": 0,
                          "description": f"{entry['description']} [{unit}{'; ' + better if better else ''}]"}
        if entry["integer"]:
            counts[pattern] = {"type": "integer"}
    return every, counts


def with_counters(schema, catalogue):
    """`schema` (docs/results.schema.json as a dict) with its row counters made from `catalogue`."""
    every, counts = counter_properties(catalogue)
    row = schema["$defs"]["row"]
    row["patternProperties"] = every
    row["additionalProperties"] = False
    rules = [r for r in row.get("allOf", []) if r.get("description") != ITERATION_RULE]
    rules.append({"description": ITERATION_RULE,
                  "if": {"properties": {"run_type": {"const": "iteration"}}},
                  "then": {"patternProperties": counts}})
    row["allOf"] = rules
    return schema


ITERATION_RULE = "on an iteration row every count is an integer (an aggregate row's statistic of it need not be)"
