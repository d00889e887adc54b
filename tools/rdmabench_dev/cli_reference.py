"""The command-line reference, made from the program itself: `rdmabench --help`, each
command's `--help` and the exit codes of `rdmabench version --json`, as Markdown (docs/cli.md
and README's exit status, written by tools/rdmabench_dev/update_docs.py; a host test holds them to the
build) or as the man page rdmabench(1) (built by Meson, installed by `meson install`).

Usage: tools/lib/run-module rdmabench_dev.cli_reference markdown|man RDMABENCH [OUT]   (OUT: a file; standard output without)
Exit status: 0, 2 on bad usage or a program that does not answer (the table of
`rdmabench --help`)."""
import json
import re
import subprocess
import sys
import textwrap
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


# A literal block's widest line: man's 80 columns less the section's indent of 7.
LITERAL_WIDTH = 72

# What a perftest or iperf3 user types first, each with what it is like.
EXAMPLES = [
    ("rdmabench serve", "on the server host: serves every test, one client at a time (perftest's "
     "ib_write_bw with no host, iperf3 -s)"),
    ("rdmabench run hostA", "the quick profile: write bw and lat with a busy CQ at 2 B, 4 KiB and "
     "64 KiB"),
    ("rdmabench run hostA --pattern write --mode bw --sizes 2:8M", "ib_write_bw -a hostA"),
    ("rdmabench run hostA --pattern send --mode lat --sizes 64 --iters 10000",
     "ib_send_lat -s 64 -n 10000 hostA"),
    ("rdmabench run hostA --pattern read --mode bw --sizes 64K --duration 10s",
     "ib_read_bw -s 65536 -D 10 hostA (iperf3 -t 10)"),
    ("rdmabench run hostA --bidir --qps 4", "ib_write_bw -b -q 4 hostA (iperf3 --bidir -P 4)"),
    ("rdmabench run hostA --output bandwidth", "one number per row for scripts (perftest "
     "--output=bandwidth)"),
    ("rdmabench run hostA --out results.json", "Google Benchmark JSON for tools/compare and "
     "tools/plot (iperf3 -J)"),
    ("rdmabench serve --key /etc/rdmabench.key", "TLS 1.3 with a pre-shared key; the client "
     "gives the same --key"),
    ("rdmabench devices; rdmabench doctor", "the NICs, ports and GIDs; a pre-flight check"),
    ("mpirun -np 8 --map-by node rdmabench mesh", "all pairs of 8 hosts; names the slow ones"),
]

FILES = [
    ("--key FILE", "the control channel's pre-shared key: at least 32 bytes, mode 600, owned by "
     "the user who runs rdmabench, never read through a symbolic link"),
    ("--out FILE", "results as Google Benchmark JSON, following results.schema.json (in the "
     "package's documentation); never written through a dangling link"),
    ("/sys/class/infiniband", "the devices, ports, GIDs and counters that devices, doctor and "
     "the port readings of a run read"),
]


# The least indent of a line that goes on an option's description (the help's option lines
# start at 2 to 6 columns, their descriptions at 20 and more).
DESCRIPTION_INDENT = 8


def indent_of(line):
    return len(line) - len(line.lstrip())


def hung(text, hang, width):
    """`text` in lines of at most `width` columns, each after `hang` spaces."""
    return textwrap.wrap(" " * hang + text, width=width, subsequent_indent=" " * hang,
                         break_long_words=False, break_on_hyphens=False)


def reflowed(lines, width=LITERAL_WIDTH):
    """The lines of a --help within `width` columns: what a line has past the width goes to the
    front of the next line where that goes on the same description (as deep or less, never an
    option's line), else onto lines of its own under the line's hang (an option's description
    column, or the line's indent)."""
    out, carry, hang = [], [], 0
    for line in lines:
        if carry:
            goes_on = (line.strip() and not line.lstrip().startswith("-")
                       and DESCRIPTION_INDENT <= indent_of(line) <= hang)
            if goes_on:
                line = " " * indent_of(line) + " ".join(carry + [line.strip()])
            else:
                out += hung(" ".join(carry), hang, width)
            carry = []
        if len(line) <= width:
            out.append(line)
            continue
        # An option's line, or a two-column list's (the commands): its description's column.
        option = re.match(r"^(\s*-\S.*?\s{2,}|\s+\w+\s{3,})\S", line)
        hang = len(option.group(1)) if option else indent_of(line)
        pieces = hung(line.lstrip(), indent_of(line), width)
        out.append(pieces[0])
        carry = " ".join(p.strip() for p in pieces[1:]).split()
    if carry:
        out += hung(" ".join(carry), hang, width)
    return out


def roff_text(text):
    """Plain text for roff: backslashes and leading dots escaped (roff fills it)."""
    lines = []
    for line in text.rstrip().splitlines():
        line = line.replace("\\", "\\e")
        lines.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(lines)


def roff_literal(text):
    """Plain text as the lines of a roff literal block (.nf), each within LITERAL_WIDTH."""
    return roff_text("\n".join(reflowed(text.rstrip().splitlines())))


def roff_paragraphs(items):
    """(tag, text) pairs as tagged paragraphs, the tag in bold."""
    out = []
    for tag, text in items:
        out += [".TP", f".B {roff_text(tag)}", roff_text(text)]
    return out


def man(program):
    doc, top, helps = facts(program)
    out = [f'.TH RDMABENCH 1 "" "rdmabench {doc["version"]}" "User Commands"',
           ".nh", ".SH NAME", "rdmabench \\- RDMA verbs bandwidth and latency benchmarks",
           ".SH SYNOPSIS", ".B rdmabench", ".I command", "[\\fIoptions\\fR]",
           ".SH DESCRIPTION",
           "rdmabench measures RDMA verbs bandwidth and latency between hosts, as perftest does, "
           "with one long-lived server for every test, JSON for scripts, health-check limits, a "
           "study of completion-queue polling strategies and an all-pairs check of a cluster.",
           ".PP", ".nf", roff_literal(top), ".fi"]
    for name, text in helps.items():
        out += [f".SH RDMABENCH {name.upper()}", ".nf", roff_literal(text), ".fi"]
    out += [".SH EXIT STATUS"]
    for code, _, meaning in exit_code_rows(doc):
        out += [".TP", f".B {code}", roff_text(meaning)]
    out += [".PP", roff_text(SEVERAL_FAIL)]
    out += [".SH EXAMPLES"] + roff_paragraphs(EXAMPLES)
    out += [".SH FILES"] + roff_paragraphs(FILES)
    out += [".SH SEE ALSO", ".BR ib_write_bw (1),", ".BR ib_send_lat (1),", ".BR iperf3 (1),",
            ".BR ibv_devices (1),", ".BR rdma (8),", ".BR mpirun (1)", ""]
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
