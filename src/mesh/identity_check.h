// A rank's identity as another rank sent it (host_identity.h) is peer input: before the job
// reads a field of it, every field it reads is checked for its type and range and every string
// it prints or connects to for printable ASCII, so that a forged identity ends the job with a
// clear error (Error(kConnection)) rather than a JSON exception, a port beyond 65535 or a
// terminal's escape sequence in a log line.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>

namespace rdmabench {

// Throws Error(kConnection) naming the rank and the field when the identity at `position` (its
// rank) is not {rank, hostname, address, port, device[, ib_port, slot_stride, fabric, doctor]}
// as host_identity() and mesh_job.cpp write it, or a failed rank's {rank, error, exit_code}.
void check_identity(const nlohmann::json& identity, size_t position);

}  // namespace rdmabench
