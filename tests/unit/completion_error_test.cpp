// A failed completion's message says what ibv_poll_cq(3) defines for it: the status, the vendor
// error, the work request's id and the QP; not the opcode, which is undefined unless the status
// is success.
#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "datapath/completion_check.h"
#include "spec_fixture.h"

namespace rdmabench {
namespace {

std::string message_of(const ibv_wc& wc, const TestSpec& spec) {
  try {
    throw_completion_error(wc, spec);
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kRuntime);
    return e.what();
  }
  return "";
}

ibv_wc failed_completion() {
  ibv_wc wc{};
  wc.status = IBV_WC_RETRY_EXC_ERR;
  wc.vendor_err = 0x81;
  wc.wr_id = 0x300000007;        // stream 3's seventh send (QpStream::send_id)
  wc.qp_num = 0x11;              // valid with any status
  wc.opcode = IBV_WC_RDMA_READ;  // stale: what the provider left there
  return wc;
}

TEST(CompletionError, NamesStatusVendorErrorWorkRequestAndQp) {
  const std::string text = message_of(failed_completion(), a_spec("send"));
  EXPECT_NE(text.find(ibv_wc_status_str(IBV_WC_RETRY_EXC_ERR)), std::string::npos) << text;
  EXPECT_NE(text.find("vendor_err 0x81"), std::string::npos) << text;
  EXPECT_NE(text.find("wr_id 0x300000007"), std::string::npos) << text;
  EXPECT_NE(text.find("QP 0x11"), std::string::npos) << text;
  EXPECT_NE(text.find("pattern send"), std::string::npos) << text;
}

TEST(CompletionError, LeavesOutTheOpcodeAnErrorLeavesUndefined) {
  const std::string text = message_of(failed_completion(), a_spec("send"));
  EXPECT_EQ(text.find("opcode"), std::string::npos) << text;
  EXPECT_EQ(text.find("RDMA_READ"), std::string::npos) << text;
}

}  // namespace
}  // namespace rdmabench
