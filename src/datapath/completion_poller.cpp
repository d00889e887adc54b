#include "datapath/completion_poller.h"

#include <string>

#include "core/error.h"

namespace rdmabench {

namespace {
const char* opcode_name(ibv_wc_opcode op) {
  switch (op) {
    case IBV_WC_SEND:
      return "SEND";
    case IBV_WC_RDMA_WRITE:
      return "RDMA_WRITE";
    case IBV_WC_RDMA_READ:
      return "RDMA_READ";
    case IBV_WC_RECV:
      return "RECV";
    case IBV_WC_RECV_RDMA_WITH_IMM:
      return "RECV_RDMA_WITH_IMM";
    default:
      return "OTHER";
  }
}
}  // namespace

void throw_completion_error(const ibv_wc& wc, const TestSpec& spec) {
  throw Error(ExitCode::kRuntime,
              std::string("work completion error: ") + ibv_wc_status_str(wc.status) + " (status " +
                  std::to_string(wc.status) + ", vendor_err " + std::to_string(wc.vendor_err) +
                  "), opcode " + opcode_name(wc.opcode) + ", pattern " + spec.name());
}

}  // namespace rdmabench
