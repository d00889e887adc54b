#include "measure/empty_window.h"

#include <cstdint>
#include <string>

#include "core/byte_units.h"
#include "core/error.h"
#include "core/time_text.h"
#include "measure/run_counters.h"

namespace rdmabench {

namespace {

std::string seconds_text(uint64_t ns) {
  return estimate_time_text(static_cast<double>(ns) * 1e-9);
}

// "the 500 ms timed window (100 ms to 600 ms into the run)"
std::string window_text(const RunLength& length) {
  return "the " + seconds_text(length.duration_ns) + " timed window (" +
         seconds_text(length.margin_ns) + " to " +
         seconds_text(length.margin_ns + length.duration_ns) + " into the run)";
}

// Whether the client watched the window: it read a completion of its sends before the window
// began, so it was polling when the window opened. A window it watched in which none
// completed is a stall it measured (a flow starved on a slow link: its rate was 0); one it
// first polled after, or never, it did not measure.
bool watched(const RunLength& length, const SideReport& client) {
  return client.first_read_ns && *client.first_read_ns < length.margin_ns;
}

// Why the client's sends counted none: the first completion it read came after the window
// had closed, behind what it had posted before its first poll.
std::string why_no_send(const TestSpec& spec, const RunLength& length, const SideReport& client) {
  if (!client.first_read_ns) return "; the client read no completion of its sends";
  const uint32_t per_thread = (spec.qps + spec.threads - 1) / spec.threads;
  const uint64_t first_fill = uint64_t{spec.tx_depth} * per_thread * spec.size;
  const std::string who = spec.threads == 1 ? "the client" : "a client thread";
  return ": " + who + " first read a completion " + seconds_text(*client.first_read_ns) +
         " into the run, after the window had closed, behind up to " +
         std::to_string(spec.tx_depth) + " messages it posted on each of its " +
         std::to_string(per_thread) + " QP" + (per_thread == 1 ? "" : "s") + " (" +
         estimate_size_text(first_fill) + ") before its first poll; give a --duration above " +
         seconds_text(*client.first_read_ns - length.margin_ns) +
         ", or post less at once (--tx-depth, --qps)";
}

std::string nothing_counted(const TestSpec& spec, const std::string& what) {
  return spec.name() + ": nothing measured: " + what;
}

}  // namespace

void require_counted(const TestSpec& spec, const RunLength& length, const RunResult& r) {
  if (!length.timed_window()) return;
  if (spec.mode == Mode::kLatency) {
    if (total(r.client.counted) > 0) return;
    throw Error(
        ExitCode::kRuntime,
        nothing_counted(spec, "no round trip both started and ended inside " + window_text(length) +
                                  " (the run made " + std::to_string(total(r.client.sent)) +
                                  ", margins included); give a longer --duration"));
  }
  if (total(r.client.counted) == 0 && !watched(length, r.client))
    throw Error(ExitCode::kRuntime,
                nothing_counted(spec, "no message completed inside " + window_text(length) +
                                          why_no_send(spec, length, r.client)));
  if (spec.bidir && total(r.server.counted) == 0)
    throw Error(ExitCode::kRuntime,
                nothing_counted(spec, "none of the server's sends (--bidir) completed inside " +
                                          window_text(length) + " (it completed " +
                                          std::to_string(total(r.server.sent)) +
                                          " in the whole run, margins included)"));
}

}  // namespace rdmabench
