// rdmabench's error: a message plus what the failure means to the user, which is also the
// process exit code (one table: core/exit_codes.h).
#pragma once

#include <stdexcept>
#include <string>

namespace rdmabench {

// What a failure means to the user; doubles as the process exit code (core/exit_codes.h).
enum class ExitCode : int {
  kOk = 0,
  kInternal = 1,      // a bug or an unexpected failure
  kUsage = 2,         // bad options or input, request larger than the device allows
  kNoDevice = 3,      // no RDMA device, or device/resource setup failed
  kConnection = 4,    // server unreachable, control channel failure, version mismatch, CM failure
  kRuntime = 5,       // a work completion with an error or none; a timed window that counted none
  kVerification = 6,  // --verify found corrupted payload
  kOutliers = 7,      // mesh: a pair or a host is far slower than the rest
  kLimitMissed = 8,   // run --min-bw/--max-lat: a figure missed the limit it was given
  kDeviceEvent = 9,   // a fatal asynchronous event: port down, QP or CQ in error, device dead
  kDoctorWarn = 10,   // doctor: the worst finding is a warning
  kDoctorFail = 11,   // doctor: at least one finding failed
  kRegression = 12,   // a tool's verdict: tools/compare, tools/gate found a regression
  kInvalidFile = 13,  // a tool's verdict: a file does not follow its schema
};

// Base of every error rdmabench reports: a message plus the exit code it maps to.
class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode exit_code() const noexcept { return code_; }

 private:
  ExitCode code_;
};

}  // namespace rdmabench
