"""tools/rxe-vm's default guest kernel: the one Debian's linux-image-amd64 stands for, even when
a newer kernel with rdma_rxe (a 6.12 from bookworm-security, for --kernel) is installed beside it."""
import gzip
import lzma
import random
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, tool_module


def rxe_vm():
    return tool_module("rxe-vm")


def test_the_default_guest_kernel_is_debians_release_kernel_not_the_newest():
    vm = rxe_vm()
    depends = subprocess.run(["dpkg-query", "-W", "-f=${Depends}", "linux-image-amd64"],
                             capture_output=True, text=True, check=True).stdout
    release = vm.release_kernel()
    assert release and f"linux-image-{release}" in depends, (release, depends)
    assert vm.pick_kernel(None) == release



def test_print_kernel_names_the_guest_kernel_and_boots_nothing():
    """tools/test and the demo print the guest kernel beside the one the baselines name."""
    from conftest import ROOT

    proc = subprocess.run([str(ROOT / "tools" / "rxe-vm"), "--print-kernel"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout == rxe_vm().pick_kernel(None) + "\n", proc
    proc = subprocess.run([str(ROOT / "tools" / "rxe-vm"), "--print-kernel", "--kernel", "0.0-none"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 125 and "kernel 0.0-none not found" in proc.stderr, proc
    proc = subprocess.run([str(ROOT / "tools" / "rxe-vm"), "--print-kernel", "--", "true"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "takes no COMMAND" in proc.stderr, proc

# ------------------------------------------------------------ every Debian kernel image boots
# Debian's images compress the kernel with XZ (6.1), or zstd (6.12: CONFIG_KERNEL_ZSTD); a
# magic of another format can stand inside the compressed stream by chance (linux-image-
# 6.12.111+deb12-amd64's holds gzip's at byte 5,545,732, whose zlib.error ended rxe-vm in a
# traceback). Each image below is a stand-in bzImage: set-up bytes, then the compressed ELF.
FAKE_ELF = b"\x7fELF\x02\x01\x01" + bytes(range(256)) * 64


def _zstd(data):
    return subprocess.run(["zstd", "-q", "-c"], input=data, capture_output=True, check=True).stdout


def _noise(seed, n=4096):
    return random.Random(seed).randbytes(n)


def _image(tmp_path, *parts):
    path = tmp_path / "vmlinuz-fake"
    path.write_bytes(b"MZ" + b"\0" * 510 + b"".join(parts))
    return path


@pytest.mark.parametrize("compress", ["xz", "gzip", "zstd"])
def test_each_compression_debian_uses_is_unpacked(tmp_path, compress):
    packed = {"xz": lambda d: lzma.compress(d, format=lzma.FORMAT_XZ),
              "gzip": gzip.compress, "zstd": _zstd}[compress](FAKE_ELF)
    assert rxe_vm().extract_vmlinux(_image(tmp_path, _noise(1), packed)) == FAKE_ELF


# A chance magic, then bytes that are no valid stream of its format. gzip's has the rest of a
# plain header (no flags) after it, as 6.12.111's had, so that zlib itself meets the noise and
# raises zlib.error (a bare magic ends in EOFError, which was caught).
CHANCE_MAGICS = [b"\x1f\x8b\x08\x00" + bytes(6), b"\x1f\x8b\x08", b"\xfd7zXZ\x00", b"\x28\xb5\x2f\xfd"]


@pytest.mark.parametrize("chance_magic", CHANCE_MAGICS)
def test_a_magic_found_by_chance_before_the_kernel_is_skipped(tmp_path, chance_magic):
    """The chance magic sits in front of the real stream (each decompressor raises its own
    error on what follows it)."""
    image = _image(tmp_path, _noise(2, 64), chance_magic, _noise(3), _zstd(FAKE_ELF))
    assert rxe_vm().extract_vmlinux(image) == FAKE_ELF


def test_an_image_with_no_kernel_is_a_boot_failure_not_a_traceback(tmp_path):
    image = _image(tmp_path, CHANCE_MAGICS[0], _noise(4), b"\xfd7zXZ\x00", _noise(5))
    with pytest.raises(SystemExit) as ended:
        rxe_vm().extract_vmlinux(image)
    assert ended.value.code == rxe_vm().EXIT_BOOT_FAILURE


def test_every_installed_kernel_image_unpacks_to_an_elf():
    """Every /boot/vmlinuz-* with rdma_rxe this machine has (tools/setup-deps installs Debian's
    release kernel; a 6.12 for `tools/gate versus --kernel` may stand beside it)."""
    vm = rxe_vm()
    images = sorted(Path("/boot").glob("vmlinuz-*"))
    assert Path(f"/boot/vmlinuz-{vm.release_kernel()}") in images, \
        f"no image of Debian's release kernel in /boot ({images}): tools/setup-deps guest installs it"
    for image in images:
        assert vm.extract_vmlinux(image)[:4] == b"\x7fELF", image


def test_a_deterministic_guest_reads_what_a_test_runs_before_it_starts(tmp_path):
    """Issue 63: in the deterministic guest a wait for the host's 9p is idle time that the clock
    jumps over, so a build beside the suite became guest timeouts. rxe-vm lists what the guest
    reads into memory before COMMAND: the build's rdmabench (pinned: copied and bound over the
    uncached share) and the files its programs load, Open MPI's help texts among them."""
    import shutil

    build = tmp_path / "build"
    build.mkdir()
    shutil.copy("/bin/true", build / "rdmabench")
    files, pinned = rxe_vm().preload_lists({"RDMABENCH_BUILD": str(build)})
    assert pinned == [str(build / "rdmabench")], pinned
    assert str(build / "rdmabench") in files
    libc = subprocess.run(["ldd", "/bin/true"], capture_output=True, text=True).stdout
    assert any(f in libc for f in files if "libc.so" in f), files[:20]
    # Open MPI (tools/setup-deps test installs it): its launcher and the help texts an error prints
    assert shutil.which("mpirun") in files
    assert any(f.startswith("/usr/share/openmpi/help-") for f in files), files[:20]
    assert rxe_vm().preload_lists({"RDMABENCH_BUILD": str(tmp_path / "none")})[1] == []


def test_the_checkouts_folders_a_test_reads_go_into_the_guests_memory_where_a_share_holds_them(tmp_path):
    """Issue 63: the tests import tools/ and read tests/ and docs/ as they go, from the
    checkout's share, which has no cache: each read a wait the deterministic guest's clock
    jumps over. Shared (the checkout, or a folder above it), they are copied into its memory."""
    vm, root = rxe_vm(), ROOT.resolve()
    expected = [str(root / f) for f in ("tools", "tests", "docs")]
    assert vm.private_folders([str(root)]) == expected
    assert vm.private_folders([str(root.parent)]) == expected
    assert vm.private_folders([str(tmp_path)]) == []  # a share that does not hold the checkout
    assert vm.private_folders([]) == []


def test_the_test_reports_folder_is_kept_in_the_guests_memory_where_a_share_holds_it(tmp_path):
    """Issue 63: the siw gate's guest, beside an I/O load, ran 1357 s of guest time in 79 s and
    timed out at 900: its client wrote its log to build/test-reports on the share, and a write
    that waits for a busy host is idle time the deterministic clock jumps over. The build's
    test-reports folder (RDMABENCH_BUILD's and the checkout's) is kept in memory and what the
    guest writes there is carried back when COMMAND ends (stage2.sh)."""
    vm = rxe_vm()
    build = tmp_path / "build"
    (build / "test-reports").mkdir(parents=True)
    checkout_reports = [str(ROOT.resolve() / "build" / "test-reports")] \
        if (ROOT / "build" / "test-reports").is_dir() else []
    environ = {"RDMABENCH_BUILD": str(build)}
    assert vm.kept_folders([str(tmp_path)], environ) == [str(build / "test-reports")]
    assert vm.kept_folders([str(build / "test-reports")], environ) == [str(build / "test-reports")]
    assert vm.kept_folders([str(tmp_path / "elsewhere")], environ) == []  # not on a share
    assert vm.kept_folders([str(ROOT.resolve())], {"RDMABENCH_BUILD": str(tmp_path / "none")}) \
        == checkout_reports  # a build without a reports folder: the checkout's alone
    assert vm.kept_folders([], environ) == []
    stage2 = (ROOT / "tools/lib/rxe-vm-guest/stage2.sh").read_text()
    assert 'done < "$OUT/kept"' in stage2 and "carry_back" in stage2


def test_print_accel_says_what_would_run_the_guest_and_boots_nothing():
    """Issue 66: the demo draws its polling study where busy polling means something: under KVM
    in the ordinary guest, or in the deterministic guest without it. rxe-vm says which."""
    from conftest import ROOT

    def accel(*args):
        return subprocess.run([str(ROOT / "tools" / "rxe-vm"), "--print-accel", *args],
                              capture_output=True, text=True, timeout=60)
    assert accel("--deterministic").stdout == "tcg-icount\n"
    assert accel("--accel", "tcg").stdout == "tcg\n"
    assert accel("--accel", "kvm").stdout == "kvm\n"
    assert accel().stdout == ("kvm\n" if rxe_vm().kvm_really_works() else "tcg\n")
    proc = accel("--", "true")
    assert proc.returncode == 2 and "--print-accel takes no COMMAND" in proc.stderr, proc


def _fake_guest(tmp_path, *boots):
    """A stand-in for QEMU: boot k (from 1) runs the shell text boots[k-1] in the run share (the
    guest's $OUT), as the guest's stage2.sh would write there; the boots are counted."""
    import shlex
    import types
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    count = tmp_path / "boots"
    cases = "".join(f"  {k}) {text} ;;\n" for k, text in enumerate(boots, start=1))
    script = (f"n=$(( $(cat {count} 2>/dev/null || echo 0) + 1 )); echo $n > {count}\n"
              f"cd {shlex.quote(str(run_dir))}\ncase $n in\n{cases}esac\n")
    args = types.SimpleNamespace(timeout=60, verbose=False, mode="lo")
    return args, ["sh", "-c", script], run_dir, count


DIES_IN_SET_UP = ("echo 'stage2 1.0' > timing; echo 'Kernel panic - not syncing' > console.log; "
                  "exit 1")
RUNS_THE_COMMAND = ("echo 'stage2 1.0' > timing; echo 'command 2.0' >> timing; "
                    "echo hello > stdout; echo 0 > rc")
DIES_IN_THE_COMMAND = ("echo 'stage2 1.0' > timing; echo 'command 2.0' >> timing; "
                       "echo 'Kernel panic' > console.log; exit 1")


def test_a_guest_that_died_before_the_command_started_is_booted_once_more(tmp_path, capsys):
    """The CI recipe's guest once panicked loading a module at boot, before rdmabench ran, and
    the test waiting on its run failed: nothing of the command had run, so a second boot
    loses nothing."""
    import time
    args, cmd, run_dir, boots = _fake_guest(tmp_path, DIES_IN_SET_UP, RUNS_THE_COMMAND)
    assert rxe_vm().run_vm(args, cmd, run_dir, time.monotonic()) == 0
    out, err = capsys.readouterr()
    assert boots.read_text().strip() == "2"
    assert out == "hello\n"
    assert "died in its set-up, before the command started" in err
    assert "booting it once more" in err and "Kernel panic" in err


@pytest.mark.parametrize("boot_texts,boots_run,says", [
    ((DIES_IN_THE_COMMAND, RUNS_THE_COMMAND), "1", "died while running the command (QEMU exit 1)"),
    ((DIES_IN_SET_UP, DIES_IN_SET_UP, RUNS_THE_COMMAND), "2",
     "died in its set-up, before the command started on its second boot too"),
    (("exit 1", "exit 1", RUNS_THE_COMMAND), "2", "failed to boot on its second boot too"),
])
def test_a_guest_is_booted_again_only_once_and_never_after_its_command_started(
        tmp_path, capsys, boot_texts, boots_run, says):
    import time
    args, cmd, run_dir, boots = _fake_guest(tmp_path, *boot_texts)
    with pytest.raises(SystemExit) as exit_:
        rxe_vm().run_vm(args, cmd, run_dir, time.monotonic())
    assert exit_.value.code == rxe_vm().EXIT_BOOT_FAILURE
    assert boots.read_text().strip() == boots_run
    assert says in capsys.readouterr().err


def test_append_takes_plain_kernel_words_and_refuses_what_the_guest_sets_itself(capsys):
    """--append idle=poll showed siw's read lat gap to be the halted vCPU's wake-up (issue 67);
    the words reach the kernel's command line, one word each, never one the guest tool sets."""
    vm = rxe_vm()
    assert vm.kernel_words(["idle=poll", "nohz=off"]) == " idle=poll nohz=off"
    for bad in ["idle=poll quiet", "", "rdmabench.accel=kvm", "rxe_stage2=/x", "maxcpus=2",
                "console=tty0", "panic=0", "a;b", "x\x1b[2J"]:
        with pytest.raises(SystemExit) as exit_:
            vm.main(["--append", bad, "--", "true"])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert "--append" in err and "\x1b" not in err
