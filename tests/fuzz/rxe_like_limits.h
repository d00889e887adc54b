// A device's limits as rxe reports them, for what validates a spec against a device without
// one: the control fuzzer's host (control_fuzzer.cpp) and the validation's unit tests
// (tests/unit/spec_validation_test.cpp).
#pragma once

#include <string>
#include <utility>

#include "spec/spec_validation.h"

namespace rdmabench {

inline DeviceLimits rxe_like(std::string device = "rxe0") {
  DeviceLimits limits;
  limits.device = std::move(device);
  limits.max_msg_sz = 1ull << 31;
  limits.max_qp_wr = 16384;
  limits.max_cqe = 32767;
  limits.gid_table_len = 1024;
  return limits;
}

}  // namespace rdmabench
