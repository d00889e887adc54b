// set_nonblocking: O_NONBLOCK added, the other flags kept, and a failed fcntl an error (the
// rdma_cm event channel ignored one).
#include "core/nonblocking.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "core/system_error.h"

namespace rdmabench {
namespace {

TEST(Nonblocking, AddsTheFlagAndKeepsTheOthers) {
  int fds[2];
  ASSERT_EQ(pipe2(fds, O_CLOEXEC), 0);
  const int before = fcntl(fds[0], F_GETFL);
  ASSERT_EQ(fcntl(fds[0], F_SETFL, before | O_APPEND), 0);
  set_nonblocking(fds[0], "a pipe");
  const int after = fcntl(fds[0], F_GETFL);
  EXPECT_TRUE(after & O_NONBLOCK);
  EXPECT_TRUE(after & O_APPEND);
  close(fds[0]);
  close(fds[1]);
}

TEST(Nonblocking, AFailedFcntlIsAnErrorNamingWhat) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  close(fds[0]);
  close(fds[1]);
  try {
    set_nonblocking(fds[0], "the closed pipe");
    FAIL() << "no error for a closed descriptor";
  } catch (const SystemError& e) {
    EXPECT_EQ(e.error_number(), EBADF);
    EXPECT_EQ(e.exit_code(), ExitCode::kRuntime);
    EXPECT_NE(std::string(e.what()).find("fcntl(F_GETFL) on the closed pipe"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace rdmabench
