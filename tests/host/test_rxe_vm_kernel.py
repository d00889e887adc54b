"""tools/rxe-vm's default guest kernel: the one Debian's linux-image-amd64 stands for, even when
a newer kernel with rdma_rxe (a 6.12 from bookworm-security, for --kernel) is installed beside it."""
import subprocess

from conftest import tool_module


def rxe_vm():
    return tool_module("rxe-vm")


def test_the_default_guest_kernel_is_debians_release_kernel_not_the_newest():
    vm = rxe_vm()
    depends = subprocess.run(["dpkg-query", "-W", "-f=${Depends}", "linux-image-amd64"],
                             capture_output=True, text=True, check=True).stdout
    release = vm.release_kernel()
    assert release and f"linux-image-{release}" in depends, (release, depends)
    assert vm.pick_kernel(None) == release
