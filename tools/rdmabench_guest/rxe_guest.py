"""What a program learns of the rxe guest it runs in (tools/rxe-vm): whether its time counts
instructions (the deterministic guest, whose kernel command line says rdmabench.timing=icount);
and what a program that runs siw there must do first."""
import resource


def deterministic_guest(cmdline="/proc/cmdline"):
    """Whether the kernel command line's last `rdmabench.timing=` word says icount: a word said
    twice is taken as the kernel and rdmabench take it (host/kernel_cmdline.h)."""
    try:
        with open(cmdline, encoding="utf-8", errors="replace") as f:
            words = f.read(65536).split()  # the kernel's is at most a page or two
    except OSError:
        return False
    said = [w.partition("=")[2] for w in words if w.startswith("rdmabench.timing=")]
    return bool(said) and said[-1] == "icount"


def lift_memlock():
    """siw counts registered memory against RLIMIT_MEMLOCK even for root: a run at 8 MiB, or
    --verify's receive ring, registers more than the guest's default 8 MiB (docs/soft-roce.md).
    Lifted for this process and every one it starts, as the guide tells a host running siw to."""
    resource.setrlimit(resource.RLIMIT_MEMLOCK, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
