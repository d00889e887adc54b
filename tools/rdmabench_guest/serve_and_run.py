"""Run one rdmabench server/client pair on this machine (host or rxe guest):
  tools/lib/run-module rdmabench_guest.serve_and_run SERVER_LOG SERVER_ADDR [rdmabench serve options...] -- [rdmabench run options...]
(RDMABENCH_CLIENT="study polling": the client runs `rdmabench study polling` instead.)

Pages the binary in first (`rdmabench devices`: in the deterministic guest a first page-in over
9p warps guest time past timeouts), starts `rdmabench serve` through the tools' server harness
(server_harness.py: it waits up to a minute until the control port listens), runs
`rdmabench run SERVER_ADDR OPTIONS...`, then stops the server with SIGTERM and checks that it
exited cleanly. Exit status: the client's; 2 on a bad command line; 4 when the server never
listened; 5 when the client succeeded but the server did not exit cleanly."""
import os
import subprocess
import sys
from pathlib import Path

from rdmabench_guest import server_harness

ROOT = Path(__file__).resolve().parents[2]


def main(argv):
    if len(argv) < 2 or argv[0].startswith("-"):
        print("usage: tools/lib/run-module rdmabench_guest.serve_and_run SERVER_LOG SERVER_ADDR [serve options...] -- [run options...]",
              file=sys.stderr)
        return 2
    log, addr, rest = argv[0], argv[1], argv[2:]
    split = rest.index("--") if "--" in rest else len(rest)
    serve_options, client_options = rest[:split], rest[split + 1:]
    exe = Path(os.environ.get("RDMABENCH_BUILD", ROOT / "build")) / "rdmabench"
    port = os.environ.get("RDMABENCH_PORT", "18515")
    subprocess.run([exe, "devices"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        server = server_harness.Server([exe, "serve", "--port", port, *serve_options], int(port), log,
                                       ready_line="serving on")
    except server_harness.ServerError as e:
        print(f"serve-and-run: {e}", file=sys.stderr)
        return 4
    client = os.environ.get("RDMABENCH_CLIENT", "run").split()
    rc = subprocess.run([exe, *client, addr, "--port", port, *client_options]).returncode
    try:
        server_rc = server.stop(timeout=60)
    except server_harness.ServerError as e:
        print(f"serve-and-run: {e}", file=sys.stderr)
        server_rc = None
    if server_rc != 0:
        if server_rc is not None:
            tail = "\n".join(server.text().splitlines()[-20:])
            print(f"serve-and-run: rdmabench serve exited {server_rc}; its log ({log}):\n{tail}",
                  file=sys.stderr)
        rc = rc or 5
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
