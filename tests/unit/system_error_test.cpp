// A failed call says why as errno says, and says so when it set none: siw's provider returned
// NULL from a QP create without setting errno, and the error then showed an earlier call's
// EOPNOTSUPP ("rdma_create_qp failed: Operation not supported") or a guessed ENOMEM.
#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "core/system_error.h"
#include "verbs/verbs_error.h"

using namespace rdmabench;

TEST(SystemError, ACallThatSetNoErrnoSaysSoInsteadOfSuccess) {
  EXPECT_STREQ(SystemError("rdma_create_qp", 0).what(),
               "rdma_create_qp failed, and set no errno to say why");
  EXPECT_STREQ(SystemError("ibv_create_qp", ENOMEM, "QP 53").what(),
               "ibv_create_qp failed: Cannot allocate memory (errno 12) [QP 53]");
}

TEST(SystemError, ANullFromAVerbWithoutErrnoIsNotTakenForOutOfMemory) {
  errno = 0;
  try {
    check_ptr(static_cast<int*>(nullptr), "ibv_create_qp");
    FAIL() << "a null pointer was taken";
  } catch (const VerbsError& e) {
    EXPECT_EQ(e.error_number(), 0);
    EXPECT_NE(std::string(e.what()).find("set no errno"), std::string::npos) << e.what();
  }
}
