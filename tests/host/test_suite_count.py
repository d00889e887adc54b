"""Issue 49 item 1: tools/test knows how many tests each guest layout must run, from pytest's
own collection, and a guest that ran fewer, none or another layout's set fails the run
(tools/rdmabench_dev/suite_count.py)."""
import pytest

from rdmabench_dev import suite_count, suite_layouts
from conftest import ROOT


def junit(tmp_path, cases):
    path = tmp_path / "rxe-x.xml"
    body = "".join(f'<testcase classname="t" name="c{i}"/>' for i in range(cases))
    path.write_text(f'<testsuites><testsuite name="pytest" tests="{cases}">{body}'
                    f'</testsuite></testsuites>')
    return path


def test_pytests_collection_summary_is_read_whatever_it_deselected():
    assert suite_count.collected_count("17/179 tests collected (162 deselected) in 0.13s") == 17
    assert suite_count.collected_count("3 tests collected in 0.10s") == 3
    assert suite_count.collected_count("1 test collected in 0.10s") == 1
    assert suite_count.collected_count("no tests collected (179 deselected) in 0.1s") == 0
    assert suite_count.collected_count("ERROR: something else") is None


def test_a_suite_that_ran_fewer_none_or_another_layouts_tests_is_named(tmp_path):
    assert suite_count.verdict(junit(tmp_path, 13), 13, "mesh") == ""
    fewer = suite_count.verdict(junit(tmp_path, 3), 13, "mesh")
    assert "ran 3 of the 13 tests" in fewer and "(mesh)" in fewer
    assert "ran none of the 69 tests" in suite_count.verdict(junit(tmp_path, 0), 69, "veth")
    assert "ran 125 of the 69" in suite_count.verdict(junit(tmp_path, 125), 69, "veth")
    assert "no readable report" in suite_count.verdict(tmp_path / "missing.xml", 1, "lo")
    # A layout that collects nothing fails, even against a report of nothing.
    assert "collects no test" in suite_count.verdict(junit(tmp_path, 0), 0, "siw")
    assert suite_count.main(["check", str(junit(tmp_path, 2)), "2", "lo"]) == 0
    assert suite_count.main(["check", str(junit(tmp_path, 2)), "3", "lo"]) == 1


def test_each_layout_collects_its_own_tests_and_an_untold_one_is_an_error():
    (siw, siw_files), (lo, lo_files), (gate, gate_files) = (
        suite_count.expected(*layout, "tests/rxe")
        for layout in (("veth", "siw", False), ("lo", "rxe", False), ("veth", "rxe", True)))
    assert siw > 0 and lo > 0 and gate > 0 and len({siw, lo, gate}) == 3, (siw, lo, gate)
    # The files the guest is told: those that hold the layout's tests, named from the top.
    # siw's own, and the two hosts' wire (as every veth layout's)
    assert siw_files == ["tests/rxe/test_guest_network.py", "tests/rxe/test_siw.py"], siw_files
    # the gate, the paced rates measured where time is the guest's instructions, what the
    # deterministic guest keeps in memory, and the two hosts' wire
    assert gate_files == ["tests/rxe/test_bw_rate.py", "tests/rxe/test_deterministic_gate.py",
                          "tests/rxe/test_guest_memory.py", "tests/rxe/test_guest_network.py"], \
        gate_files
    assert "tests/rxe/test_engine.py" in lo_files and "tests/rxe/test_siw.py" not in lo_files
    assert all((ROOT / f).is_file() for f in lo_files), lo_files
    with pytest.raises(ValueError, match="collection"):  # siw has no lo layout: no suite for it
        suite_count.expected("lo", "siw", False, "tests/rxe")


def test_every_layout_collects_tests_and_every_test_runs_in_a_layout_it_names():
    """Issue 63: each layout's collection is non-empty, and a test marked with a layout no guest
    runs (a misspelt mark) fails the collection instead of being dropped by host and guest alike."""
    every = set()
    layouts = suite_layouts.LAYOUTS
    # the seven guests tools/test boots: lo, veth, veth-icount, mesh, siw, siw-icount, siw-mesh
    assert len(layouts) == len(suite_layouts.BY_NAME) == 7, layouts
    for layout in layouts:
        count, files = suite_count.expected(layout.mode, layout.fabric, layout.deterministic, "tests/rxe")
        assert count > 0 and files, layout
        every.update(files)
    assert every == {f"tests/rxe/{p.name}" for p in (ROOT / "tests" / "rxe").glob("test_*.py")}
    assert suite_layouts.marked((), "t") == ("veth",)
    assert suite_layouts.marked(("lo", "veth"), "t") == ("lo", "veth")
    with pytest.raises(ValueError, match="'vet', which no guest runs"):
        suite_layouts.marked(("lo", "vet"), "tests/rxe/test_x.py::test_y")


def test_tools_test_asks_a_layouts_count_by_its_name(tmp_path, capsys):
    """tools/test names the layout; its guest's options come from suite_layouts, not parsed back
    out of rxe-vm's command line."""
    files = tmp_path / "files"
    assert suite_count.main(["expected", "--layout", "siw", "--files", str(files)]) == 0
    count, want = suite_count.expected("veth", "siw", False, "tests/rxe")
    assert capsys.readouterr().out == f"{count}\n" and files.read_text().split() == want
    with pytest.raises(SystemExit) as refused:
        suite_count.main(["expected", "--layout", "siw-mesj"])
    assert refused.value.code == 2
