"""Which kind of file rdmabench wrote a path holds, as tools/plot tells them apart before it
reads one: a mesh report (`rdmabench mesh --out`), a search report (`rdmabench search --out`),
or else run results."""
from rdmabench_tools import json_input
from rdmabench_tools import mesh_figures as mf
from rdmabench_tools import search_figures as sef


def report_kind(path):
    """'mesh', 'search' or 'run' for a file that parses as JSON; raises MeshError for what
    cannot be read."""
    if mf.is_mesh_report(path):
        return "mesh"
    return "search" if sef.is_search_report(json_input.read_json(path)) else "run"
