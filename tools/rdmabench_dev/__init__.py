"""Developing rdmabench: the build's layer check and map, the linters, the documentation made
from the code (docs/cli.md, docs/json.md, the man page, the schema's counters) and the test
command's accounts (phase budget, machine speed, suite counts, the summary line). Not
installed."""
