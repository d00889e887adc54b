// Which of a pair's counters a mesh report keeps as N x N matrices. Every counter (about 150 a
// pair once both sides' port counters are in) is 150 million numbers at 1024 ranks, gigabytes
// at rank 0 and in the file; the heatmaps' own few keep such a report under 100 MB. Each rank
// keeps only those of its pairs as they are measured, and the report makes matrices of no others.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace rdmabench {

enum class MatrixScope {
  kAll,       // every counter any pair reported
  kHeatmaps,  // what the verdicts and the heatmaps use (heatmap_counters), and the spread
};

// --matrices auto keeps every counter up to this many ranks, the heatmaps' beyond.
inline constexpr size_t kAllMatricesUpTo = 64;

// "auto", "all" or "heatmaps" for a mesh of `ranks`; Error(kUsage) for anything else.
MatrixScope parse_matrix_scope(const std::string& text, size_t ranks);
const char* to_string(MatrixScope scope);

// How often the wire made a pair resend, per message (wire_resend_episodes over msgs: its
// requesters' retry timeouts and sequence NAKs), as its own matrix.
inline constexpr const char* kResendsCounter = "wire_resends_per_msg";

// What a person looks at first, in this order: the judged figure, what the wire resent, the
// tail, and each side's CPU.
std::vector<std::string> heatmap_counters(const std::string& figure);

// A pair's counters as the report keeps them: with wire_resends_per_msg added where its drivers
// count resends; under kHeatmaps only heatmap_counters(figure) and judged_spread.
std::map<std::string, double> report_counters(std::map<std::string, double> counters,
                                              const std::string& figure, MatrixScope scope);

}  // namespace rdmabench
