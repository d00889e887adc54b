"""The shapes of a check that cannot fail, or fails for a reason outside the code (issue 49),
found in every Python test of tests/ so that they do not come back:

- a loop (or all()) whose assertions pass when it runs zero times, over results no earlier
  assertion counted or named (assert the expected rows first: `assert sorted(rows) == ...`);
- a clock read in a guest suite (tests/rxe): the guests are emulated machines whose speed is the
  host's load; a wait goes through conftest.wait_for, a claim through what the code decided;
- an assertion its own test makes true: `x >= 0` on a count, `x != x`, a constant, or a name
  compared with the very literal the test just gave it.

Each finder is shown catching its shape on a crafted test below (a check that can fail)."""
import ast
import textwrap

import pytest

from conftest import ROOT

CLOCKS = {"time", "time_ns", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns",
          "process_time", "process_time_ns", "clock_gettime"}
UNWRAP_CALLS = {"sorted", "enumerate", "reversed", "list", "set", "tuple", "zip"}
UNWRAP_METHODS = {"items", "values", "keys", "splitlines", "split"}


def own_nodes(node):
    """The nodes under `node`, not descending into functions, lambdas or classes defined in it
    (they are judged on their own)."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        n = stack.pop()
        yield n
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(n))


def functions(tree):
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def iterated(expr):
    """What a loop walks, under the wrappers that keep its length: sorted(rows), rows.items(),
    enumerate(...). zip gives each of its arguments."""
    if isinstance(expr, ast.Call):
        f = expr.func
        if isinstance(f, ast.Name) and f.id in UNWRAP_CALLS and expr.args:
            return [base for arg in (expr.args if f.id == "zip" else expr.args[:1])
                    for base in iterated(arg)]
        if isinstance(f, ast.Attribute) and f.attr in UNWRAP_METHODS:
            return iterated(f.value)
    return [expr]


def parametrized(fn):
    """The argument names a test's parametrize decorators give (fixed by the test itself)."""
    names = set()
    for d in fn.decorator_list:
        if isinstance(d, ast.Call) and ast.unparse(d.func).endswith("parametrize") and d.args \
                and isinstance(d.args[0], ast.Constant) and isinstance(d.args[0].value, str):
            names |= {n.strip() for n in d.args[0].value.split(",")}
    return names


def fixed(expr, fn, constants):
    """An expression whose length the test itself fixes: a literal, range(), a module
    constant (UPPER_CASE), a parametrized argument, or a name the function set to one."""
    if isinstance(expr, (ast.Tuple, ast.List, ast.Set, ast.Dict, ast.Constant)):
        return True
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "range":
        return True
    if isinstance(expr, (ast.Subscript, ast.Attribute)):
        return fixed(expr.value, fn, constants)
    if isinstance(expr, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
        return not any(g.ifs for g in expr.generators) and \
            all(fixed(g.iter, fn, constants) for g in expr.generators)
    if isinstance(expr, ast.Name):
        return expr.id.isupper() or expr.id in parametrized(fn) or expr.id in constants
    return False


def constant_names(fn):
    """Names the function binds once (literal_settings) to a literal, range() or a module
    constant."""
    return {name for name, assigned in literal_settings(fn).items()
            if len(assigned) == 1 and fixed(assigned[0][1], fn, set())}


def mentions(node, expr):
    text = ast.unparse(expr)
    return any(ast.unparse(n) == text for n in ast.walk(node) if isinstance(n, ast.expr))


def guards_only(test, expr):
    """An assertion that names `expr` without counting it: `assert rows` (not empty), `assert
    rows and ...`, or a subset `{...} <= set(rows)` / `rows >= {...}` (issue 63: a run of one
    row of ten, or of a few of the rows asked, passes them)."""
    text = ast.unparse(expr)
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    counting = [part for part in parts if mentions(part, expr)]
    def guard(part):
        if ast.unparse(part) == text or (isinstance(part, ast.Subscript) and ast.unparse(part.value) == text):
            return True
        return isinstance(part, ast.Compare) and len(part.ops) == 1 \
            and isinstance(part.ops[0], (ast.LtE, ast.GtE, ast.Lt, ast.Gt)) \
            and any(isinstance(side, (ast.Set, ast.SetComp)) or
                    (isinstance(side, ast.Call) and ast.unparse(side.func) == "set")
                    for side in (part.left, part.comparators[0]))
    return bool(counting) and all(guard(part) for part in counting)


def counted(expr, fn, before, constants):
    """Whether an assertion of `fn` before line `before` counts `expr` (names it, beyond a
    non-empty or subset guard), or the test fixes it."""
    if fixed(expr, fn, constants):
        return True
    return any(isinstance(n, ast.Assert) and n.lineno < before and mentions(n.test, expr)
               and not guards_only(n.test, expr) for n in own_nodes(fn))


def empty_loops(tree):
    """(line, what): loops and all() calls whose assertions pass when they run zero times."""
    found = []
    for fn in functions(tree):
        constants = constant_names(fn)
        for n in own_nodes(fn):
            if isinstance(n, ast.For) and any(isinstance(a, ast.Assert)
                                              for s in n.body for a in [s, *own_nodes(s)]):
                if any(not counted(b, fn, n.lineno, constants) for b in iterated(n.iter)):
                    found.append((n.lineno, f"for ... in {ast.unparse(n.iter)}"))
            if isinstance(n, ast.Assert):
                found += [(n.lineno, f"all(... in {ast.unparse(base)})")
                          for base in vacuous_alls(n, fn, constants)]
    return found


def vacuous_alls(assertion, fn, constants):
    """The iterables of all(...) calls in an assertion that nothing counts: not fixed, not named
    by an earlier assertion nor elsewhere in this one (`len(qps) == 4 and all(...)`)."""
    out = []
    for call in ast.walk(assertion.test):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                and call.func.id == "all" and call.args
                and isinstance(call.args[0], (ast.GeneratorExp, ast.ListComp))):
            continue
        for base in iterated(call.args[0].generators[0].iter):
            if counted(base, fn, assertion.lineno, constants):
                continue
            elsewhere = [n for n in ast.walk(assertion.test) if n is not call]
            inside = set(map(id, ast.walk(call)))
            if not any(id(n) not in inside and isinstance(n, ast.expr)
                       and ast.unparse(n) == ast.unparse(base) for n in elsewhere):
                out.append(base)
    return out


def clock_reads(tree):
    """Lines that read a clock: time.monotonic(), time.time(), ... or import one from time."""
    found = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in CLOCKS \
                and isinstance(n.func.value, ast.Name) and n.func.value.id == "time":
            found.append((n.lineno, ast.unparse(n)))
        if isinstance(n, ast.ImportFrom) and n.module == "time" and \
                any(a.name in CLOCKS for a in n.names):
            found.append((n.lineno, f"from time import {', '.join(a.name for a in n.names)}"))
    return found


def literal_settings(fn):
    """{name: [(line, value node)]} of the function's plain assignments."""
    out = {}
    for n in own_nodes(fn):
        if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    out.setdefault(t.id, []).append((n.lineno, n.value))
    return out


def made_true(assertion, settings):
    """Why an assertion is true whatever the code does, or None."""
    test = assertion.test
    if isinstance(test, ast.Constant):
        return "asserts a constant"
    for c in (n for n in ast.walk(test) if isinstance(n, ast.Compare)):
        left, op, right = c.left, c.ops[0], c.comparators[0]
        if len(c.ops) == 1 and ast.unparse(left) == ast.unparse(right):
            return f"compares {ast.unparse(left)} with itself"
        zero = [isinstance(x, ast.Constant) and x.value == 0 and not isinstance(x.value, bool)
                for x in (left, right)]
        if len(c.ops) == 1 and ((isinstance(op, ast.GtE) and zero[1])
                                or (isinstance(op, ast.LtE) and zero[0])):
            return f"{ast.unparse(c)}: no count, time or size is below 0"
        if len(c.ops) == 1 and isinstance(op, ast.Eq) and isinstance(left, ast.Name) \
                and isinstance(right, ast.Constant):
            before = [v for line, v in settings.get(left.id, []) if line < assertion.lineno]
            if before and isinstance(before[-1], ast.Constant) and before[-1].value == right.value:
                return f"{left.id} was just set to {ast.unparse(right)} by the test"
    return None


def self_made_truths(tree):
    found = []
    for fn in functions(tree):
        settings = literal_settings(fn)
        found += [(n.lineno, why) for n in own_nodes(fn)
                  if isinstance(n, ast.Assert) and (why := made_true(n, settings))]
    return found


def suite_files():
    tests = ROOT / "tests"
    return sorted([*tests.glob("*/test_*.py"), *tests.glob("*/conftest.py")])


def report(finder, files):
    lines = []
    for path in files:
        tree = ast.parse(path.read_text(), str(path))
        lines += [f"{path.relative_to(ROOT)}:{line}: {what}" for line, what in finder(tree)]
    return lines


def test_no_loop_asserts_over_results_it_did_not_count():
    assert suite_files(), "no test files found"
    found = report(empty_loops, suite_files())
    assert not found, "assert the expected rows before the loop:\n" + "\n".join(found)


def test_no_guest_test_reads_a_clock():
    guest = [p for p in suite_files() if p.parent.name == "rxe" and p.name != "conftest.py"]
    assert len(guest) > 10, guest
    found = report(clock_reads, guest)
    assert not found, ("the guests' clocks are the load's; wait with conftest.wait_for, assert "
                       "what the code decided:\n" + "\n".join(found))


def test_no_assertion_is_true_by_its_own_test():
    found = report(self_made_truths, suite_files())
    assert not found, "\n".join(found)


CRAFTED = {
    empty_loops: [
        ("def test_f(rows):\n    for r in rows:\n        assert r > 1\n", 2),
        ("def test_f(doc):\n    for n, r in sorted(doc['rows'].items()):\n        if r:\n"
         "            assert r\n", 2),
        ("def test_f(qps):\n    assert all(q > 0 for q in qps)\n", 2),
        ("def test_f(rows):\n    assert len(rows) == 3\n    for r in rows:\n        assert r\n", None),
        ("def test_f():\n    for p in ('a', 'b'):\n        assert p\n", None),
        ("def test_f(qps):\n    assert len(qps) == 4 and all(q > 0 for q in qps)\n", None),
        ("SIZES = (1, 2)\ndef test_f():\n    for s in SIZES:\n        assert s\n", None),
        # a non-empty or a subset guard counts nothing (issue 63)
        ("def test_f(doc):\n    assert doc['rows'], doc\n    for r in doc['rows']:\n        assert r\n", 3),
        ("def test_f(rows):\n    assert rows and rows[0]\n    for r in rows:\n        assert r\n", 3),
        ("def test_f(c):\n    assert {'a'} <= {x['n'] for x in c}\n    for x in c:\n        assert x\n", 3),
        ("def test_f(c):\n    assert set(c) >= {'a'}\n    for x in c:\n        assert x\n", 3),
        ("def test_f(rows):\n    assert rows and len(rows) == 2\n    for r in rows:\n        assert r\n", None),
        ("def test_f(c):\n    assert {'a'} == {x['n'] for x in c}\n    for x in c:\n        assert x\n", None),
    ],
    clock_reads: [
        ("import time\ndef test_f():\n    t = time.monotonic()\n    assert t\n", 3),
        ("from time import perf_counter\n", 1),
        ("import time\ndef test_f():\n    time.sleep(1)\n", None),
    ],
    self_made_truths: [
        ("def test_f(row):\n    assert row['cpu'] >= 0\n", 2),
        ("def test_f(x):\n    assert 0 <= x\n", 2),
        ("def test_f(x):\n    assert x != x\n", 2),
        ("def test_f():\n    assert True\n", 2),
        ("def test_f():\n    message = ''\n    assert message == ''\n", 3),
        ("def test_f(x):\n    assert 0 <= x <= 1 and x > 0\n", None),
        ("def test_f(message):\n    assert message == ''\n", None),
    ],
}


@pytest.mark.parametrize("finder, text, line", [(f, t, l) for f, cases in CRAFTED.items()
                                                for t, l in cases])
def test_each_finder_catches_its_shape(finder, text, line):
    found = finder(ast.parse(textwrap.dedent(text)))
    assert [f[0] for f in found] == ([line] if line else []), found
