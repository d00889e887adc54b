// A timed window that counted nothing measured nothing: the run is an error that says why
// (exit 5), never a row of zeros with exit 0.
#pragma once

#include "session/run_source.h"
#include "spec/run_length.h"
#include "spec/test_spec.h"

namespace rdmabench {

// Throws Error(kRuntime) naming the benchmark and why, when a timed window counted no message:
// bw, no send of the client's completed inside it and the client first polled one after it
// (a window it watched, having read completions before it, and in which none completed is a
// stall it measured: a flow starved on a slow link, rate 0), or none of the server's (--bidir);
// lat, no round trip both started and ended inside it. By iterations every message counts: nothing
// to check. Over a transport that may lose messages, sends counted whose messages were all lost are
// a measured loss, not this.
void require_counted(const TestSpec& spec, const RunLength& length, const RunResult& r);

}  // namespace rdmabench
