"""The regression gate (tools/gate, tools/ci/gate-change): which rows its suites run, the
spread between boots, merging a suite's runs, sizing the slowdown that proves the gate can
fail, and the check of what the CI recipe leaves. Develops and tests rdmabench; not installed."""
