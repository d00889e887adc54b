#include "cli/foreign_spellings.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/comma_list.h"

namespace rdmabench {

namespace {

constexpr std::array kSpellings = {
    // perftest
    ForeignSpelling{"-n", "--iters COUNT", Value::kAny,
                    "bytes to send: --iters COUNT messages of --sizes"},
    ForeignSpelling{"-s", "--sizes BYTES", Value::kAny, "the server: rdmabench serve"},
    ForeignSpelling{"--size", "--sizes BYTES", Value::kAny},
    ForeignSpelling{"-a", "--sizes 2:8M", Value::kNone},
    ForeignSpelling{"--all", "--sizes 2:8M", Value::kNone},
    ForeignSpelling{"-D", "--duration TIME", Value::kAny},
    ForeignSpelling{"-f", "--margin TIME", Value::kAny,
                    "its format: not needed, the table prints MiB/s and Gb/s"},
    ForeignSpelling{"-q", "--qps N", Value::kAny},
    ForeignSpelling{"--qp", "--qps N", Value::kAny},
    ForeignSpelling{"--ib-dev", "--device NAME", Value::kAny},
    ForeignSpelling{"-e", "--cq event", Value::kNone},
    ForeignSpelling{"--events", "--cq event", Value::kNone},
    ForeignSpelling{"--use_event", "--cq event", Value::kNone},
    ForeignSpelling{"-b", "--bidir", Value::kNone, "a bitrate: --rate 2.5gbps"},
    ForeignSpelling{"--bidirectional", "--bidir", Value::kNone},
    ForeignSpelling{"-t", "--tx-depth N", Value::kAny, "a time: --duration TIME"},
    ForeignSpelling{"-r", "--rx-depth N", Value::kAny},
    ForeignSpelling{"-x", "--gid-index N", Value::kAny},
    ForeignSpelling{"-m", "--mtu BYTES", Value::kAny},
    ForeignSpelling{"-u", "--qp-timeout N", Value::kAny, "UDP: --transport ud"},
    ForeignSpelling{"-S", "--sl N", Value::kAny, "a TOS: --tclass N"},
    ForeignSpelling{"-T", "--tclass N", Value::kAny},
    ForeignSpelling{"--tos", "--tclass N", Value::kAny},
    ForeignSpelling{"--use_hugepages", "--hugepages", Value::kNone},
    ForeignSpelling{"--rate_limit", "--rate N (bw: messages a QP per second) or --rate 2.5gbps",
                    Value::kAny},
    ForeignSpelling{"-o", "--outs N", Value::kAny},
    ForeignSpelling{"-Q", "--signal-every N", Value::kAny},
    ForeignSpelling{"--cq-mod", "--signal-every N", Value::kAny},
    ForeignSpelling{"-R", "--cm rdmacm", Value::kNone,
                    "reverse: --pattern read (the client reads the server's buffer)"},
    ForeignSpelling{"--rdma_cm", "--cm rdmacm", Value::kNone},
    ForeignSpelling{"-c", "--transport NAME", Value::kName,
                    "the server to reach: HOST alone (rdmabench run HOST)"},
    ForeignSpelling{"--connection", "--transport NAME", Value::kName},
    ForeignSpelling{"-A", "--pattern ATOMIC", Value::kName, "CPU affinity: --cpus LIST"},
    ForeignSpelling{"--atomic_type", "--pattern ATOMIC", Value::kName},
    ForeignSpelling{"--send_with_imm", "--pattern send_imm", Value::kNone},
    ForeignSpelling{"--write_with_imm", "--pattern write_imm", Value::kNone},
    ForeignSpelling{"-F", "not needed: rdmabench does not read the CPU frequency", Value::kNone},
    ForeignSpelling{"--CPU-freq", "not needed: rdmabench does not read the CPU frequency",
                    Value::kNone},
    ForeignSpelling{"--report_gbits", "not needed: the bandwidth table prints MiB/s and Gb/s",
                    Value::kNone},
    ForeignSpelling{"--run_infinitely", "--duration TIME --report-every TIME", Value::kNone},
    ForeignSpelling{"-i", "--ib-port N", Value::kAny, "an interval: --report-every TIME"},
    ForeignSpelling{"-w", "--min-bw GBPS", Value::kAny,
                    "a window: --tx-depth N (messages in flight)"},
    ForeignSpelling{"--limit_bw", "--min-bw GBPS", Value::kAny},
    ForeignSpelling{"-y", "--max-lat p99:US", Value::kAny},
    ForeignSpelling{"--limit_lat", "--max-lat p99:US", Value::kAny},
    ForeignSpelling{"-l", "--post-list N", Value::kAny, "a length: --sizes BYTES"},
    ForeignSpelling{"--post_list", "--post-list N", Value::kAny},
    ForeignSpelling{"-I", "--inline N", Value::kAny},
    ForeignSpelling{"--inline_size", "--inline N", Value::kAny},
    ForeignSpelling{"--use-srq", "--srq", Value::kNone},
    ForeignSpelling{"--use_srq", "--srq", Value::kNone},
    ForeignSpelling{"--use_old_post_send", "--post-api classic", Value::kNone},
    ForeignSpelling{"-p", "--port N", Value::kAny},
    // iperf3 alone
    ForeignSpelling{"--time", "--duration TIME", Value::kAny},
    ForeignSpelling{"-J", "--json", Value::kNone},
    ForeignSpelling{"-P", "--qps N", Value::kAny},
    ForeignSpelling{"--parallel", "--qps N", Value::kAny},
    ForeignSpelling{"--interval", "--report-every TIME", Value::kAny},
    ForeignSpelling{"--reverse", "--pattern read (the client reads the server's buffer)",
                    Value::kNone},
};

// perftest's names of the atomics (-A) that are not ours in capitals.
constexpr std::array<std::pair<std::string_view, std::string_view>, 2> kAtomicNames{{
    {"FETCH_AND_ADD", "fetch_add"},
    {"CMP_AND_SWAP", "compare_swap"},
}};

// The name ours is for perftest's `name`: its atomics by their own names, else lower-case.
std::string our_name(std::string_view name) {
  for (const auto& [theirs, ours] : kAtomicNames)
    if (name == theirs) return std::string(ours);
  return lower_case(name);
}

}  // namespace

std::optional<ForeignSpelling> foreign_spelling(std::string_view flag) {
  for (const ForeignSpelling& s : kSpellings)
    if (s.theirs == flag) return s;
  return std::nullopt;
}

std::string with_value(const ForeignSpelling& spelling, std::string_view value) {
  const bool a_name = !value.empty() && std::ranges::all_of(value, [](unsigned char c) {
    return std::isalpha(c) || c == '_';
  });
  if (spelling.value != Value::kName || !a_name) return std::string(spelling.ours);
  const std::string_view option = spelling.ours.substr(0, spelling.ours.find(' '));
  return std::string(option) + " " + our_name(value);
}

}  // namespace rdmabench
