// The registered patterns. Adding one: a header in bench/ with a class that derives from
// TransportPattern and describes itself in a static constexpr PatternInfo kInfo, and its name
// in the list below. Everything else (parsing, --help, the spec, the queue pairs' buffers and
// access, the tables, the JSON) follows its description.
#pragma once

#include <memory>

#include "bench/compare_swap.h"
#include "bench/fetch_add.h"
#include "bench/read.h"
#include "bench/send.h"
#include "bench/send_imm.h"
#include "bench/write.h"
#include "bench/write_imm.h"

namespace rdmabench {

template <typename... P>
struct PatternList {};

// One pattern a line (the last without a comma), in the order --pattern all runs them.
// clang-format off
using RegisteredPatterns = PatternList<
    SendPattern,
    WritePattern,
    WriteImmPattern,
    ReadPattern,
    SendImmPattern,
    FetchAddPattern,
    CompareSwapPattern>;
// clang-format on

}  // namespace rdmabench
