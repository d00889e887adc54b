#include "datapath/completion_check.h"

#include <cstdio>
#include <string>

#include "core/error.h"

namespace rdmabench {

namespace {
std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}
}  // namespace

// ibv_poll_cq(3): with a status other than success only wr_id, status, qp_num and vendor_err
// are valid, so the opcode (a provider's leftover) is not named.
void throw_completion_error(const ibv_wc& wc, const TestSpec& spec) {
  throw Error(ExitCode::kRuntime,
              std::string("work completion error: ") + ibv_wc_status_str(wc.status) + " (status " +
                  std::to_string(wc.status) + ", vendor_err " + hex(wc.vendor_err) + "), wr_id " +
                  hex(wc.wr_id) + ", QP " + hex(wc.qp_num) + ", pattern " + spec.name());
}

}  // namespace rdmabench
