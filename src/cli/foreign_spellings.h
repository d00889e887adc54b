// perftest's flags (ib_write_bw and friends) and iperf3's, as rdmabench spells them: what an
// unknown option is told to write instead (with the name it was given, where it names one).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace rdmabench {

// What the flag takes after it: nothing, a value, or a name (in capitals there: "UD").
enum class Value { kNone, kAny, kName };

struct ForeignSpelling {
  std::string_view theirs;  // "-c"
  std::string_view ours;    // "--iters N": perftest's meaning, or iperf3's where only it has it
  Value value = Value::kNone;
  // iperf3's meaning of a letter perftest means another thing by ("-t": perftest's tx depth,
  // iperf3's time), as "iperf3's -t is ..." ends: both are said.
  std::string_view iperf3 = {};
};

// The spelling `flag` (without "=VALUE") has in rdmabench, or nothing: neither perftest nor
// iperf3 has it.
std::optional<ForeignSpelling> foreign_spelling(std::string_view flag);

// `ours` with a perftest name given for it in the value's place, lower-case ("-c UD":
// "--transport ud"; "-A FETCH_AND_ADD": "--pattern fetch_add"); else `ours` as it is. Only a
// name is put in place: cxxopts does not know an unknown option's arity, so the argument after
// one may be the HOST the user meant ("-s 64 hostA" leaves "-s" and "hostA" unmatched).
std::string with_value(const ForeignSpelling& spelling, std::string_view value);

}  // namespace rdmabench
