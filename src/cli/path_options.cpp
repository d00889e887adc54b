#include "cli/path_options.h"

#include "cli/number_options.h"
#include "spec/spec_validation.h"

namespace rdmabench {

namespace {

constexpr const char* kQpTimeoutHelp =
    "Local ACK timeout of every QP: 4.096 us x 2^N before a retransmission (like perftest -u); "
    "0 turns the retransmission timer off (default: 14, 67 ms, out of band; rdma_cm's own "
    "choice with --cm rdmacm)";
constexpr const char* kTclassHelp =
    "GRH traffic class of every QP, both sides (like perftest --tclass, and -T over rdma_cm): "
    "on RoCE v2 the IP header's DSCP and ECN byte, e.g. 106 for DSCP 26 with ECN capable; a "
    "lossless fabric classifies on it (default: 0)";
constexpr const char* kSlHelp =
    "Service level of every QP, both sides (like perftest -S); out of band only: rdma_cm takes "
    "it from the path (default: 0)";

}  // namespace

void add_path_options(cxxopts::Options& options, const std::string& group) {
  options.add_options(group)("qp-timeout", kQpTimeoutHelp, cxxopts::value<std::string>(), "N")(
      "tclass", kTclassHelp, cxxopts::value<std::string>(), "N")(
      "sl", kSlHelp, cxxopts::value<std::string>(), "N");
}

void read_path_options(const cxxopts::ParseResult& args, TestSpec& spec) {
  if (args.count("qp-timeout"))
    spec.qp_timeout = number_option(args, "qp-timeout", 0, kMaxQpTimeout, "an exponent");
  if (args.count("tclass"))
    spec.tclass = number_option(args, "tclass", 0, kMaxTclass, "a traffic class");
  if (args.count("sl")) spec.sl = number_option(args, "sl", 0, kMaxSl, "a service level");
}

}  // namespace rdmabench
