// A side's report (datapath/side_figures.h) as the fields of the server's "done" message
// (control_messages.h builds it), and read back by the client, every field checked (any
// program may speak the protocol).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "datapath/side_figures.h"

namespace rdmabench {

// The fields of a "done" message, and back: Error naming a missing or malformed field, or
// arrays that do not match the spec's threads and QPs. "device_counters" is there when the
// report has some; a counter name that is not plain (core/counter_name.h), a value that is not
// an unsigned integer, or more than kMaxDeviceCounters of them, is refused; so are
// "device_events" that are not at most kMaxDeviceEvents printable strings.
void add_to_message(nlohmann::json& message, const SideReport& report);
SideReport side_report_from(const nlohmann::json& message, uint32_t threads, uint32_t qps);

}  // namespace rdmabench
