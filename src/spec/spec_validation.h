// One validation of a test spec, used by the client on its options and by the server on what a
// client sends: ranges against the device's limits and the relations between values. Each
// refusal names the field, the value and the limit: returned (spec_refusal), or thrown as
// Error(kUsage) (validate_spec).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/fabric.h"
#include "core/local_device.h"
#include "spec/test_spec.h"

namespace rdmabench {

// The limits of one device port that a spec must respect (plain data: testable without one).
struct DeviceLimits {
  std::string device;
  uint64_t max_msg_sz = 0;
  uint32_t max_qp_wr = 0;
  uint32_t max_cqe = 0;
  uint32_t gid_table_len = 0;
  uint32_t max_qp_rd_atom = 0;       // reads and atomics a QP takes in flight as their target
  uint32_t active_mtu = 0;           // the port's active MTU, bytes (a datagram's largest payload)
  uint32_t max_srq_wr = 0;           // receives a shared receive queue holds
  uint32_t max_qp_init_rd_atom = 0;  // reads and atomics a QP starts and keeps in flight
  bool atomics = true;               // atomic_cap is not IBV_ATOMIC_NONE
  Fabric fabric = Fabric::kRoceV2;   // what the port speaks (iWARP: rc over rdma_cm only)
  std::string driver;                // the provider's kernel driver, for the reasons given
  bool immediate_data = true;        // the provider carries immediate data (siw's does not)
  std::string no_immediate_why;      // why not, when it does not
  // Reads and atomics in flight per QP, each way: within both attributes.
  uint32_t max_rd_atomic() const { return std::min(max_qp_rd_atom, max_qp_init_rd_atom); }
};

// A run's length (spec/run_length.h): more messages than any run could send in a day at a
// billion per second; the longest timed window (--duration) and margin, a day and an hour.
inline constexpr uint64_t kMaxIterations = 1ull << 46;
inline constexpr uint64_t kMaxDurationMs = 86'400'000;
inline constexpr uint64_t kMaxMarginMs = 3'600'000;

// The largest MTU any device has: a datagram transport's largest message on any device.
inline constexpr uint32_t kLargestMtu = 4096;

// The path MTU a spec's messages get on a device: --mtu where it is below the port's active
// MTU, else the active MTU (a one-packet transport's largest message).
inline uint32_t path_mtu_limit(const TestSpec& spec, const DeviceLimits& limits) {
  return spec.mtu != 0 ? std::min(spec.mtu, limits.active_mtu) : limits.active_mtu;
}

// The most reads and atomics in flight a QP may ask for (--outs): the attribute is 8 bits.
inline constexpr uint32_t kMaxOuts = 255;
// The most inline bytes a QP is asked for (--inline; a device may grant less and refuse).
inline constexpr uint32_t kMaxInline = 4096;
// The longest chain of sends one ibv_post_send takes (--post-list; perftest -l).
inline constexpr uint32_t kMaxPostList = 1024;

// The most completions one ibv_poll_cq may ask for (--poll-batch).
inline constexpr uint32_t kMaxPollBatch = 64;

// The highest --rate (round trips per second): one per microsecond.
inline constexpr uint64_t kMaxRate = 1'000'000;

// The highest local ACK timeout exponent (--qp-timeout): the QP attribute has 5 bits.
inline constexpr uint32_t kMaxQpTimeout = 31;

// The highest traffic class (--tclass, one byte) and service level (--sl, four bits).
inline constexpr uint32_t kMaxTclass = 255;
inline constexpr uint32_t kMaxSl = 15;

// The most QPs (--qps) and threads (--threads) one benchmark may ask for.
inline constexpr uint32_t kMaxQps = 1024;
inline constexpr uint32_t kMaxThreads = 64;

// Why a spec is refused, its first reason in the order of the checks; "" when it is accepted.
// Relations that hold on any device: sizes and depths of at least 1, signal_every within the
// send queue, a path MTU RDMA knows (or 0 for the active one), ...
std::string spec_refusal(const TestSpec& spec);
// The same, and the device's limits.
std::string spec_refusal(const TestSpec& spec, const DeviceLimits& limits);

// spec_refusal's reason, as Error(kUsage).
void validate_spec(const TestSpec& spec);
void validate_spec(const TestSpec& spec, const DeviceLimits& limits);

// What one side chose for itself (never sent to the other), checked against how the QPs connect
// and, given its limits, its device: a GID index is the out-of-band bootstrap's alone (rdma_cm
// takes the GID of the address it resolves) and below the port's GID table length. Throws
// Error(kUsage).
void validate_local_device(const LocalDevice& local, Bootstrap method);
void validate_local_device(const LocalDevice& local, Bootstrap method, const DeviceLimits& limits);

}  // namespace rdmabench
