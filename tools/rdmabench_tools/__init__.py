"""Reading, checking and drawing rdmabench's results: the package installed with rdmabench-plot
and rdmabench-compare (meson.build's tool_modules), so it imports nothing of the tools' other
packages (tests/host/test_install_list.py).

Modules only: the commands are the scripts in tools/ (which find this package beside them), and
the modules that have a command line of their own run as `tools/lib/run-module
rdmabench_tools.NAME ARGS...`. Tests import it through tests/pytest.ini's pythonpath."""
