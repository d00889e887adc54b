// The mesh report as a person reads it at rank 0: each benchmark's figure as a matrix, the
// flagged pairs and hosts, and the verdict. The report itself is mesh_report.h.
#pragma once

#include <cstddef>
#include <iosfwd>

#include "mesh/mesh_report.h"

namespace rdmabench {

// A summary printed in full up to this many ranks: each benchmark's figure as a matrix, and
// every flagged pair. Beyond it the matrices are left to the report's file and each list of
// pairs stops after kPrintedPairs.
inline constexpr size_t kPrintedMatrixUpTo = 32;
inline constexpr size_t kPrintedPairs = 20;

// A person's summary of the report: each benchmark's figure as a matrix, then the verdict.
void print_mesh_report(const MeshReport& report, std::ostream& out);

}  // namespace rdmabench
