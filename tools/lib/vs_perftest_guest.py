#!/usr/bin/python3
"""Runs inside the rxe guest (see tools/vs-perftest): perftest and rdmabench on the same
device with matching sizes, iterations and tx depth; prints ours/perftest ratios."""
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BUILD = Path(sys.argv[1])
ITERS_BW, ITERS_LAT = int(sys.argv[2]), int(sys.argv[3])
TX_DEPTH = 128
HOST = "127.0.0.1"

CASES = [  # (label, perftest tool, our pattern, mode, size, iterations)
    ("write bw 64K", "ib_write_bw", "write", "bw", 65536, ITERS_BW),
    ("read bw 64K", "ib_read_bw", "read", "bw", 65536, ITERS_BW),
    ("send bw 4K", "ib_send_bw", "send", "bw", 4096, ITERS_BW),
    ("send lat 2B", "ib_send_lat", "send", "lat", 2, ITERS_LAT),
    ("write lat 2B", "ib_write_lat", "write", "lat", 2, ITERS_LAT),
]


def perftest(tool, size, iters, mode):
    args = [tool, "-d", "rxe0", "-x", "1", "-s", str(size), "-n", str(iters), "-F"]
    if mode == "bw":
        args += ["-t", str(TX_DEPTH)]
    server = subprocess.Popen(["timeout", "120", "stdbuf", "-oL", *args], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    out = subprocess.run(["timeout", "120", "stdbuf", "-oL", *args, HOST], capture_output=True, text=True).stdout
    server.wait()
    lines = [l.split() for l in out.splitlines() if re.match(r"^\s*\d+\s+\d+\s+[\d.]+", l)]
    if not lines:
        raise RuntimeError(f"{tool}: no result line in:\n{out}")
    row = lines[-1]
    if mode == "bw":
        return float(row[3])  # BW average [MB/sec]
    return float(row[4])      # t_typical [usec] (median)


def ours(pattern, mode, size, iters, port):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        subprocess.run([str(BUILD / "rdmabench"), "run", HOST, "--port", str(port), "--cm", "oob",
                        "--pattern", pattern, "--mode", mode, "--cq", "busy", "--sizes", str(size),
                        "--iters", str(iters), "--tx-depth", str(TX_DEPTH), "--out", f.name],
                       check=True, capture_output=True)
        row = json.load(open(f.name))["benchmarks"][0]
    if mode == "bw":
        return row["bytes_per_second"] / 1e6  # MB/s, as perftest's MB/sec (10^6)
    return row["lat_p50_us"]


def main():
    port = 18700
    server = subprocess.Popen([str(BUILD / "rdmabench"), "serve", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    print(f"{'test':<14} {'metric':<16} {'perftest':>10} {'rdmabench':>10} {'ratio':>7}  better")
    try:
        for label, tool, pattern, mode, size, iters in CASES:
            theirs = perftest(tool, size, iters, mode)
            mine = ours(pattern, mode, size, iters, port)
            if mode == "bw":
                ratio, metric = mine / theirs, "BW avg MB/s"
            else:
                ratio, metric = theirs / mine, "median lat us"
            print(f"{label:<14} {metric:<16} {theirs:>10.2f} {mine:>10.2f} {ratio:>7.2f}  "
                  f"{'ours' if ratio >= 1 else 'perftest'}", flush=True)
    finally:
        server.terminate()
        server.wait()
    print("ratio > 1 means rdmabench is faster (bw: ours/perftest; lat: perftest/ours). "
          "Guest figures are emulated and vary by about 30%.")


if __name__ == "__main__":
    main()
