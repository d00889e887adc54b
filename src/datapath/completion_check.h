// What the hot loops do with each completion they take, whatever the strategy that harvested
// it (the strategies themselves live in src/cq/).
#pragma once

#include <infiniband/verbs.h>

#include "spec/test_spec.h"

namespace rdmabench {

[[noreturn]] void throw_completion_error(const ibv_wc& wc, const TestSpec& spec);

inline void check_completion(const ibv_wc& wc, const TestSpec& spec) {
  if (wc.status != IBV_WC_SUCCESS) [[unlikely]]
    throw_completion_error(wc, spec);
}

}  // namespace rdmabench
