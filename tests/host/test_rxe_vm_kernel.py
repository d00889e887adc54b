"""tools/rxe-vm's default guest kernel: the one Debian's linux-image-amd64 stands for, even when
a newer kernel with rdma_rxe (a 6.12 from bookworm-security, for --kernel) is installed beside it."""
import importlib.machinery
import importlib.util
import subprocess

from conftest import ROOT


def rxe_vm():
    loader = importlib.machinery.SourceFileLoader("rxe_vm", str(ROOT / "tools" / "rxe-vm"))
    spec = importlib.util.spec_from_loader("rxe_vm", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_the_default_guest_kernel_is_debians_release_kernel_not_the_newest():
    vm = rxe_vm()
    depends = subprocess.run(["dpkg-query", "-W", "-f=${Depends}", "linux-image-amd64"],
                             capture_output=True, text=True, check=True).stdout
    release = vm.release_kernel()
    assert release and f"linux-image-{release}" in depends, (release, depends)
    assert vm.pick_kernel(None) == release
