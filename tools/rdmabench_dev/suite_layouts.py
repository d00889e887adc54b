"""The guest suites' layouts, in one home: each name, the tools/rxe-vm guest that runs it, and
the order tools/test boots them in. tests/rxe/conftest.py reads a guest's layout from what
rxe-vm told it and keeps a test by its layout mark; tools/test boots one guest per layout, so a
test runs exactly once in each layout its mark names (unmarked: veth alone).

Usage: tools/lib/run-module rdmabench_dev.suite_layouts list          the names, in boot order
       tools/lib/run-module rdmabench_dev.suite_layouts vm NAME       its tools/rxe-vm options
Exit status 2: a name no layout has."""
import sys
from dataclasses import dataclass


@dataclass(frozen=True)
class Layout:
    name: str
    mode: str  # tools/rxe-vm -m
    fabric: str  # --fabric
    deterministic: bool  # --deterministic
    about: str

    def vm_options(self):
        return ["-m", self.mode, *(["--fabric", self.fabric] if self.fabric != "rxe" else []),
                *(["--deterministic"] if self.deterministic else [])]


# Boot order: the deterministic guests first (each on one host thread, beside the lane of host
# work), then the ordinary ones, which take both cores.
LAYOUTS = (
    Layout("mesh", "mesh:4", "rxe", True, "four rxe hosts on a bridge; mesh under mpirun"),
    Layout("veth-icount", "veth", "rxe", True, "two rxe hosts over veth, deterministic: the gate"),
    Layout("siw-icount", "veth", "siw", True, "two software iWARP hosts, deterministic: siw's gate"),
    Layout("siw-mesh", "mesh:4", "siw", True, "four software iWARP hosts: mesh's clean run"),
    Layout("lo", "lo", "rxe", False, "one rxe device on loopback, out of band"),
    Layout("veth", "veth", "rxe", False, "two rxe hosts over veth, rdma_cm (unmarked tests)"),
    Layout("siw", "veth", "siw", False, "two software iWARP hosts (siw.ko built once)"),
)
BY_NAME = {layout.name: layout for layout in LAYOUTS}
UNMARKED = "veth"  # where a test without a layout mark runs


def of_guest(mode, fabric, deterministic):
    """The layout of a guest rxe-vm started with these options; ValueError when none is."""
    for layout in LAYOUTS:
        if (layout.mode, layout.fabric, layout.deterministic) == (mode, fabric, deterministic):
            return layout.name
    raise ValueError(f"no suite layout for rxe-vm's -m {mode} --fabric {fabric}"
                     f"{' --deterministic' if deterministic else ''} (suites: "
                     f"{', '.join(sorted(BY_NAME))})")


def marked(names, test):
    """The layouts a test's mark names (none: the unmarked layout); ValueError for a name no
    guest runs, so a misspelt mark fails the collection instead of dropping the test everywhere."""
    if not names:
        return (UNMARKED,)
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        raise ValueError(f"{test} is marked with layout {', '.join(map(repr, unknown))}, which no "
                         f"guest runs (layouts: {', '.join(BY_NAME)})")
    return tuple(names)


def main(argv):
    if argv == ["list"]:
        print("\n".join(BY_NAME))
        return 0
    if len(argv) == 2 and argv[0] == "vm" and argv[1] in BY_NAME:
        print(" ".join(BY_NAME[argv[1]].vm_options()))
        return 0
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
