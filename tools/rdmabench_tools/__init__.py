"""The Python modules the tools share: reading results, figures, reports, the guests' helpers.

Modules only: the commands are the scripts in tools/ (which find this package beside them), and
the modules that have a command line of their own run as `tools/lib/run-module NAME ARGS...`
(python3 -m rdmabench_tools.NAME with this package on the path). Tests import it through
tests/pytest.ini's pythonpath."""
