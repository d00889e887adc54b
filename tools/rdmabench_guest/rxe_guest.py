"""What a program learns of the rxe guest it runs in (tools/rxe-vm): whether its time counts
instructions (the deterministic guest, whose kernel command line says rdmabench.timing=icount)."""
from pathlib import Path


def deterministic_guest(cmdline="/proc/cmdline"):
    try:
        return "rdmabench.timing=icount" in Path(cmdline).read_text().split()
    except OSError:
        return False
