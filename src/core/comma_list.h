// The one splitter of every comma-separated option value (--pattern, --mode, --qps, --rate,
// --sizes, --cpus, mesh's --mode, --device, --address): the items as written, in order.
#pragma once

#include <string>
#include <vector>

namespace rdmabench {

// "a,b,,c" -> {"a", "b", "", "c"}: an empty item stays, for the caller to refuse in its own
// words; a trailing comma adds none, and "" gives no item.
std::vector<std::string> split_comma_list(const std::string& text);

}  // namespace rdmabench
