"""The command-line reference, made from the program itself: `rdmabench --help`, each
command's `--help` and the exit codes of `rdmabench version --json`, as Markdown (docs/cli.md
and README's exit status, written by tools/rdmabench_dev/update_docs.py; a host test holds them to the
build) or as the man page rdmabench(1) (built by Meson, installed by `meson install`).

Usage: tools/lib/run-module rdmabench_dev.cli_reference markdown|man RDMABENCH [OUT]   (OUT: a file; standard output without)
Exit status: 0, 2 on bad usage or a program that does not answer (the table of
`rdmabench --help`)."""
import json
import subprocess
import sys
from pathlib import Path

from rdmabench_tools.exit_codes import USAGE

MARKDOWN_HEAD = """# rdmabench command-line reference

Every command's own `--help`, as this build prints it, and the exit codes every command and
tool shares (each `--help` ends with their table; here it is shown once). This file is generated (`tools/lib/run-module rdmabench_dev.cli_reference markdown build/rdmabench
docs/cli.md`) and a host test fails when it differs from the build's `--help`, so it cannot
drift; the same text is the man page, `man rdmabench` after `meson install`. What the options
mean at length, with examples: [the user guide](guide.md).
"""


class ProgramError(Exception):
    pass


def ask(program, *args):
    proc = subprocess.run([program, *args], capture_output=True, text=True, timeout=30)
    if proc.returncode != 0:
        raise ProgramError(f"{program} {' '.join(args)} exited {proc.returncode}: "
                           f"{proc.stderr.strip()[:300]}")
    return proc.stdout


def registry(program):
    """`rdmabench version --json`."""
    return json.loads(ask(program, "version", "--json"))


EXIT_TABLE_START = "Exit status (the same for every rdmabench command and tool):"
SEVERAL_FAIL = "run: when several benchmarks fail, the highest of their codes."


def without_exit_table(text):
    """A --help without the exit table every help ends with: a reference shows it once."""
    return text[:text.index(EXIT_TABLE_START)] if EXIT_TABLE_START in text else text


def facts(program):
    """What the references say: the version document, the top-level help and each command's
    (the exit table each ends with left out: the reference has it once, from the document)."""
    doc = registry(program)
    helps = {c["name"]: without_exit_table(ask(program, "help", c["name"]))
             for c in doc["commands"]}
    return doc, without_exit_table(ask(program, "--help")), helps


def exit_code_rows(doc):
    return [(str(e["code"]), f"`{e['name']}`", e["meaning"]) for e in doc["exit_codes"]]


def exit_code_table(doc):
    rows = ["| code | name | meaning |", "|---|---|---|"]
    return "\n".join(rows + [f"| {c} | {n} | {m} |" for c, n, m in exit_code_rows(doc)])


def markdown(program):
    doc, top, helps = facts(program)
    parts = [MARKDOWN_HEAD, "## Commands\n", "| command | what it does |", "|---|---|"]
    parts += [f"| [`{c['name']}`](#rdmabench-{c['name']}) | {c['summary']} |" for c in doc["commands"]]
    parts += ["", "## Exit status\n", exit_code_table(doc), "", SEVERAL_FAIL]
    parts += ["", "## rdmabench\n", "```text", top.rstrip(), "```", ""]
    for name, text in helps.items():
        parts += [f"## rdmabench {name}\n", "```text", text.rstrip(), "```", ""]
    return "\n".join(parts)


def roff_text(text):
    """Plain text as a roff literal block: backslashes and leading dots escaped."""
    lines = []
    for line in text.rstrip().splitlines():
        line = line.replace("\\", "\\e")
        lines.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(lines)


def man(program):
    doc, top, helps = facts(program)
    out = [f'.TH RDMABENCH 1 "" "rdmabench {doc["version"]}" "User Commands"',
           ".SH NAME", "rdmabench \\- RDMA verbs bandwidth and latency benchmarks",
           ".SH SYNOPSIS", ".B rdmabench", ".I command", "[\\fIoptions\\fR]",
           ".SH DESCRIPTION",
           "rdmabench measures RDMA verbs bandwidth and latency between hosts, as perftest does, "
           "with one long-lived server for every test, JSON for scripts, health-check limits, a "
           "study of completion-queue polling strategies and an all-pairs check of a cluster.",
           ".PP", ".nf", roff_text(top), ".fi"]
    for name, text in helps.items():
        out += [f".SH RDMABENCH {name.upper()}", ".nf", roff_text(text), ".fi"]
    out += [".SH EXIT STATUS"]
    for code, _, meaning in exit_code_rows(doc):
        out += [".TP", f".B {code}", roff_text(meaning)]
    out += [".PP", roff_text(SEVERAL_FAIL)]
    out += [".SH SEE ALSO", "ib_write_bw(1), ib_send_lat(1), ibv_devices(1), rdma(8)", ""]
    return "\n".join(out)


def main(argv):
    if len(argv) not in (2, 3) or argv[0] not in ("markdown", "man"):
        print(__doc__, file=sys.stderr)
        return USAGE
    try:
        text = markdown(argv[1]) if argv[0] == "markdown" else man(argv[1])
    except (OSError, ProgramError, subprocess.TimeoutExpired, ValueError, KeyError) as e:
        print(f"cli_reference: {e}", file=sys.stderr)
        return USAGE
    if len(argv) == 3:
        Path(argv[2]).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
