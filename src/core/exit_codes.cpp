#include "core/exit_codes.h"

#include <array>
#include <cstdio>

namespace rdmabench {

namespace {

constexpr std::array kTable = {
    ExitCodeInfo{ExitCode::kOk, "ok", "ok: nothing failed"},
    ExitCodeInfo{ExitCode::kInternal, "internal", "internal error: a bug (please report it)"},
    ExitCodeInfo{ExitCode::kUsage, "usage",
                 "usage: a bad option or input file, or a request the device or server refuses"},
    ExitCodeInfo{ExitCode::kNoDevice, "no_device", "no RDMA device, or device setup failed"},
    ExitCodeInfo{ExitCode::kConnection, "connection",
                 "connection: no server, busy beyond --wait, refused, rdma_cm, protocol version"},
    ExitCodeInfo{
        ExitCode::kRuntime, "runtime",
        "runtime: a work completion with an error or none, a timed window that counted none"},
    ExitCodeInfo{ExitCode::kVerification, "verification",
                 "--verify or --validate found corrupted payload"},
    ExitCodeInfo{ExitCode::kOutliers, "outliers", "mesh: slow or resending pairs or hosts"},
    ExitCodeInfo{ExitCode::kLimitMissed, "limit_missed", "a run missed --min-bw or --max-lat"},
    ExitCodeInfo{ExitCode::kDeviceEvent, "device_event",
                 "a fatal device event: port down, QP or CQ in error, device dead"},
    ExitCodeInfo{ExitCode::kDoctorWarn, "doctor_warn", "doctor: the worst finding is a warning"},
    ExitCodeInfo{ExitCode::kDoctorFail, "doctor_fail", "doctor: a check failed"},
    ExitCodeInfo{ExitCode::kRegression, "regression",
                 "tools/compare, tools/gate: a regression, or a benchmark missing or failed"},
    ExitCodeInfo{ExitCode::kInvalidFile, "invalid_file",
                 "a results, mesh, doctor or search file does not follow its schema"},
};

}  // namespace

std::span<const ExitCodeInfo> exit_code_table() {
  return kTable;
}

bool is_exit_code(long long code) {
  for (const ExitCodeInfo& info : kTable)
    if (static_cast<long long>(info.code) == code) return true;
  return false;
}

std::string exit_status_help() {
  std::string text = "Exit status (the same for every rdmabench command and tool):\n";
  for (const ExitCodeInfo& e : kTable) {
    char line[160];
    std::snprintf(line, sizeof line, "  %2d  %s\n", static_cast<int>(e.code), e.meaning);
    text += line;
  }
  text += "run: when several benchmarks fail, the highest of their codes.\n";
  return text;
}

}  // namespace rdmabench
