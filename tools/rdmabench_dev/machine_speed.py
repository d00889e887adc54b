"""How fast the machine ran while ./tools/test ran: a probe that times one fixed piece of work
(the same Python loop every time) on its own CPU clock every half second, and the median of what
it measured over a phase. The phase budget scales a phase's limit by how much slower the probe
ran than in the run the budget was measured from (tests/phase-budget.json, "probe_ms"): the
machines this project's tests run on are virtual, and the same tree's test command took 1548 s
on one and 2313 s on another, every phase 1.3-1.7x slower (its build 193 s against 117 s), with
no other work on either. Slower, not busier: the probe's own CPU time grows with what the
hypervisor and the other vCPU take from its core (a busy loop on the other vCPU made it 1.7x
slower here), which the phase's wall time pays too; a wait does not.

Usage: tools/lib/run-module rdmabench_dev.machine_speed probe FILE [--interval S] [--lifetime S]
           appends "EPOCH_SECONDS PROBE_MS" per probe to FILE until its parent process ends
           (or --lifetime passes: 4 hours by default)
       tools/lib/run-module rdmabench_dev.machine_speed median FILE FROM TO
           prints the median PROBE_MS of the probes that ended between the epoch seconds FROM and
           TO, or "-" when none did

exit status: 0, 2 bad input.
"""
import os
import statistics
import sys
import time

from rdmabench_tools import exit_codes

# The fixed work: about 5 ms of one core here. Never change it without measuring every
# phase's probe_ms again (tests/phase-budget.json): the budget's figures are in its units.
PROBE_ITERATIONS = 60_000
# A probe file of a 4-hour run holds 29,000 lines of about 25 bytes; a larger one is not ours.
MAX_PROBE_FILE_BYTES = 4 << 20


def probe_once():
    """Milliseconds of this thread's CPU time the fixed work took."""
    start, x = time.thread_time(), 0
    for i in range(PROBE_ITERATIONS):
        x = (x * 1103515245 + i) & 0xFFFFFFFF
    return (time.thread_time() - start) * 1000


def probe(path, interval, lifetime):
    """Appends a line per probe to `path` while the process that started this one lives."""
    parent, deadline = os.getppid(), time.monotonic() + lifetime
    with open(path, "a", encoding="ascii") as out:
        while os.getppid() == parent and time.monotonic() < deadline:
            ms = probe_once()
            out.write(f"{time.time():.3f} {ms:.3f}\n")
            out.flush()
            time.sleep(interval)


class ProbeFileError(Exception):
    pass


def read_probes(path):
    """[(epoch seconds, probe ms)] of a probe file; a line that is not two finite figures is
    refused (a probe killed mid-line leaves its last line short: that one is skipped)."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_PROBE_FILE_BYTES + 1)
    except OSError as e:
        raise ProbeFileError(f"{path}: {e.strerror}") from e
    if len(data) > MAX_PROBE_FILE_BYTES:
        raise ProbeFileError(f"{path}: over {MAX_PROBE_FILE_BYTES} bytes, not a probe file")
    lines = data.split(b"\n")
    probes = []
    for n, line in enumerate(lines, 1):
        if not line or (n == len(lines) and not data.endswith(b"\n")):
            continue
        try:
            when, ms = (float(x) for x in line.split())
            if not (0 < ms < 1e6 and when == when and abs(when) < 1e12):
                raise ValueError
        except ValueError:
            raise ProbeFileError(f"{path}, line {n}: not 'EPOCH_SECONDS PROBE_MS'") from None
        probes.append((when, ms))
    return probes


def median_between(probes, start, end):
    """The median probe time of those that ended in [start, end], or None when none did."""
    inside = [ms for when, ms in probes if start <= when <= end]
    return statistics.median(inside) if inside else None


def number(text):
    value = float(text)
    if value != value or abs(value) > 1e12:
        raise ValueError(text)
    return value


def main(argv):
    usage = "usage: machine_speed probe FILE [--interval S] [--lifetime S] | median FILE FROM TO"
    try:
        if argv[:1] == ["probe"] and len(argv) in (2, 4, 6):
            options = dict(zip(argv[2::2], (number(x) for x in argv[3::2])))
            if not set(options) <= {"--interval", "--lifetime"}:
                raise ValueError(options)
            probe(argv[1], options.get("--interval", 0.5), options.get("--lifetime", 4 * 3600))
            return exit_codes.OK
        if argv[:1] == ["median"] and len(argv) == 4:
            start, end = number(argv[2]), number(argv[3])
            found = median_between(read_probes(argv[1]), start, end)
            print("-" if found is None else f"{found:.3f}")
            return exit_codes.OK
    except ValueError:
        pass
    except ProbeFileError as e:
        print(f"machine_speed: {e}", file=sys.stderr)
        return exit_codes.USAGE
    print(f"machine_speed: {usage}", file=sys.stderr)
    return exit_codes.USAGE


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
