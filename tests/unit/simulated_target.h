// A target for `rdmabench search` with no device: figures from a smooth model of an RDMA link
// (bandwidth rising with size to the link's rate, latency rising with it, CPU per message
// growing slowly, nothing resent; in lat mode busy polling costs CPU, events latency), each
// repetition off by up to 1 % (a fixed hash of the point, the repetition and the counter: the same
// every time), and the anomalies a test plants. Each repetition costs a simulated second, each
// point half a second more. It runs each point as the search asks (point_length.h): the same timed
// window at every point by default, and reports what each window counted (msgs, window_s).
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "search/point_length.h"
#include "search/search_space.h"
#include "search/search_target.h"

namespace rdmabench::testing {

// The space the simulated target answers (values as `rdmabench run` takes them).
SearchSpace simulated_space();

struct PlantedAnomalies {
  bool bandwidth_cliff = false;     // from 64K up, bw halves
  bool qp_drop = false;             // send with 8 QPs or more: bw falls by 40 %
  bool resends = false;             // --qp-timeout 1: 50 retransmissions a run
  bool cpu_step = false;            // event CQs: CPU per message triples from 16K up
  bool resends_everywhere = false;  // every run resends (as rxe under load): 20 a run
  // Reads only at 8 bytes (as run refuses an atomic at any other size): a refused point costs
  // nothing and measures nothing; and reads with 8 QPs or more lose 40 %.
  bool reads_only_at_8 = false;
  bool read_qp_drop = false;
  // CPU per message triples over 1K..32K in equal steps: a coarse line (1K, then 32K) sees a
  // step there, the values between show a smooth change, no step.
  bool cpu_ramp = false;
  // A run by messages spends the time of 8 more draining its send queue (its start-up and
  // end), so a run of n messages shows n / (n + 8) of the rate: 1,024 messages 0.8 % low, 64
  // (1 MiB, or 16 QPs at 64 KiB, under the 64 MiB cap) 11 %. A timed window's margins hold
  // the drain: the same rate at every point.
  bool run_length_artefact = false;
  // A one-off: the first measurement of a point with 16 QPs (all its repetitions) shows 60 %
  // of the bandwidth, as a neighbour's burst would; every later one, none.
  bool one_off_at_16_qps = false;
  // Two that need two unordered options away from the base together (the base is write, bw,
  // busy, no --bidir): in lat mode with event CQs, messages up to 1K wait 50 us more (as an
  // interrupt moderation would hold them), so latency falls from 1K to 2K; reads with --bidir
  // lose 40 % from 8 QPs up.
  bool lat_events_small_slow = false;
  bool read_bidir_qp_drop = false;
  // Off the polling front: in lat mode an event CQ costs busy polling's CPU and half as much
  // again (a wake-up that spins), and keeps its higher latency.
  bool events_spin_in_lat = false;
  // A slow link whose completions come a send queue at a time (as rxe completes a whole queue
  // after each resend, at about 40 MB/s in the deterministic guest): a timed window counts
  // whole bursts of what the point keeps in flight, how many fixed by the point (every
  // repetition alike, as in the deterministic guest), so a 0.5 s window holds two or three
  // bursts of 128 at 64 KiB, and none at four QPs. Its rate is the same at every point.
  bool slow_bursty_link = false;
};

class SimulatedTarget : public SearchTarget {
 public:
  explicit SimulatedTarget(PlantedAnomalies planted,
                           RunLength length = {0, kPointDurationNs, kPointMarginNs})
      : planted_(planted), length_(length) {}
  Observation measure(const Point& point, unsigned repetitions) override;
  double seconds_spent() const override { return seconds_; }
  bool accepts(const Point& point) const override;

 private:
  Counters model(const Point& point, unsigned repetition, bool first) const;
  // What the point's timed window counted (msgs, window_s); on a slow bursty link, whole
  // bursts, and the rates those make.
  void count_window(const Point& point, double size, Counters& counters) const;
  PlantedAnomalies planted_;
  std::map<std::string, int> measured_;  // point key -> times measured
  RunLength length_;
  double seconds_ = 0;
};

}  // namespace rdmabench::testing
