"""The guest kernel this machine's guests boot, beside the one each committed deterministic
baseline was recorded on: printed at the start of ./tools/test and ./tools/demo, so that a run
on a newer kernel (Debian moves it) says at once that the committed baselines will be reported
"not judged", and how to refresh them.

Usage: tools/lib/run-module rdmabench_gate.baseline_stack GUEST_KERNEL
Exit status: 0 (it only tells); 2 when a baseline cannot be read."""
import sys

from rdmabench_gate.gate_machine import ROOT
from rdmabench_tools import rdmabench_results as rr
from rdmabench_tools.printable_text import excerpt

FABRICS = ("rxe", "siw")


def lines(guest_kernel):
    """One line for the guest, then one a committed deterministic baseline."""
    out = [f"guest kernel: {excerpt(guest_kernel)} (tools/rxe-vm's default guest)"]
    for fabric in FABRICS:
        path = ROOT / "results" / f"{fabric}-baseline-deterministic.json"
        recorded = rr.load(path).stack["guest kernel"]
        refresh = f"tools/gate refresh --deterministic{'' if fabric == 'rxe' else ' --fabric siw'}"
        verdict = "this guest's: judged" if recorded == guest_kernel else (
            f"not this guest's: its verdicts are reported \"not judged\" (refresh with {refresh})")
        out.append(f"  {path.relative_to(ROOT)} was recorded on "
                   f"{excerpt(recorded or 'a kernel it does not name')}, {verdict}")
    return out


def main(argv):
    if len(argv) != 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        print("\n".join(lines(argv[0])))
    except rr.ResultsError as e:
        print(f"baseline_stack: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
