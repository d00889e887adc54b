"""Printing for tools whose output may go to a reader that leaves early
(`tools/compare a.json b.json | head`)."""
import os
import sys


def emit(text=""):
    """print(text) to standard output. Once the reader has closed the pipe, output ends
    quietly: standard output then goes to /dev/null, so neither this call nor Python's flush at
    exit raises BrokenPipeError, and the tool goes on to finish its work and its exit status."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
