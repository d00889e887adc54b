// A kernel command line (the contents of /proc/cmdline) as the kernel splits it: words between
// white space, each `key` or `key=value`. The one splitter of the timing environment's words and
// the tuning words.
#pragma once

#include <string_view>
#include <vector>

namespace rdmabench {

// The words of `cmdline`, in its order, as views into it.
std::vector<std::string_view> kernel_cmdline_words(std::string_view cmdline);

// The value of the last `key=value` word of `cmdline`, as the kernel takes a parameter said
// twice ("" when none says `key=`).
std::string_view kernel_cmdline_value(std::string_view cmdline, std::string_view key);

}  // namespace rdmabench
