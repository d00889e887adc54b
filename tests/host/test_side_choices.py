"""Issue 64: what each side chooses for itself stays its own. The client's --gid-index was also
the server's (the setup message carried it and the server's out-of-band bootstrap used it),
`serve` had no --gid-index at all (`serve -x 3`: "unknown option '-x'", no hint), and with
--cm rdmacm a client's --gid-index was silently ignored."""
from conftest import run_rdmabench as rdmabench


def test_serve_takes_a_gid_index_of_its_own():
    text = " ".join(rdmabench("serve", "--help").stdout.split())
    assert "--gid-index N This server's GID index for --cm oob clients" in text, text
    assert "a client's --gid-index is the client's own" in text, text
    proc = rdmabench("serve", "--gid-index", "x")
    assert proc.returncode == 2 and "--gid-index 'x'" in proc.stderr, proc.stderr


def test_perftests_x_is_told_serves_gid_index():
    proc = rdmabench("serve", "-x", "3")
    assert proc.returncode == 2, proc.stderr
    assert "unknown option '-x'; did you mean --gid-index N?" in proc.stderr, proc.stderr


def test_a_gid_index_over_rdma_cm_is_refused_not_ignored():
    proc = rdmabench("run", "10.255.255.1", "--cm", "rdmacm", "--gid-index", "1")
    assert proc.returncode == 2, proc.stderr
    assert "--gid-index is for the out-of-band bootstrap: rdma_cm picks the GID from the " \
           "address (give --cm oob, or drop --gid-index)" in proc.stderr, proc.stderr


def test_a_gid_index_with_cm_auto_goes_out_of_band():
    """Taken, and on to the device, which this host lacks (exit 3)."""
    proc = rdmabench("run", "10.255.255.1", "--gid-index", "1", "--timeout", "1")
    assert proc.returncode == 3, proc.stderr


def test_mesh_over_rdma_cm_refuses_a_gid_index_it_would_ignore():
    """mesh --cm rdmacm --gid-index 1 was taken, and rdma_cm used the GID of the rank's address:
    the index was recorded in the context as if it had been used."""
    proc = rdmabench("mesh", "--cm", "rdmacm", "--gid-index", "1", "--dry-run", "--ranks", "2")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "--gid-index is set over rdma_cm, which takes the GID of the address it resolves" in \
        proc.stderr, proc.stderr
    proc = rdmabench("mesh", "--cm", "oob", "--gid-index", "1", "--dry-run", "--ranks", "2")
    assert proc.returncode == 0, proc.stderr


def test_mtu_over_rdma_cm_is_refused_not_ignored():
    """run --cm rdmacm --mtu 1024 ran at the path MTU rdma_cm chose, with a note: --mtu is set by
    the out-of-band bootstrap alone, so it is refused over rdma_cm, and --cm auto takes oob."""
    proc = rdmabench("run", "10.255.255.1", "--cm", "rdmacm", "--mtu", "1024", "--dry-run")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "--mtu is for the out-of-band bootstrap: rdma_cm takes the path MTU" in proc.stderr, \
        proc.stderr
