"""What a program learns of the rxe guest it runs in (tools/rxe-vm): whether its time counts
instructions (the deterministic guest, whose kernel command line says rdmabench.timing=icount);
and what a program that runs siw there must do first."""
import resource
from pathlib import Path


def deterministic_guest(cmdline="/proc/cmdline"):
    try:
        return "rdmabench.timing=icount" in Path(cmdline).read_text().split()
    except OSError:
        return False


def lift_memlock():
    """siw counts registered memory against RLIMIT_MEMLOCK even for root: a run at 64 KiB
    registers more than the guest's default 8 MiB (docs/soft-roce.md). Lifted for this process
    and every one it starts, as the guide tells a host running siw to."""
    resource.setrlimit(resource.RLIMIT_MEMLOCK, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
