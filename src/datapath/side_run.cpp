#include "datapath/side_run.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <optional>

#include "cq/busy_poller.h"
#include "cq/channel_watch.h"
#include "cq/poll_steps.h"
#include "datapath/landed_write_lane.h"
#include "datapath/open_loop_client.h"
#include "datapath/open_loop_server.h"
#include "datapath/thread_team.h"

namespace rdmabench {

bool side_sends(const TestSpec& spec, Side side) {
  return side == Side::kClient || spec.bidir;
}

bool side_receives(const TestSpec& spec, Side side) {
  return spec.server_receives() && (side == Side::kServer || spec.bidir);
}

namespace {

// A bw lane's result as its thread's outcome (a lane that sends nothing has no window).
ThreadOutcome outcome_of_lane(const LaneResult& r, const LanePlan& plan) {
  ThreadOutcome out;
  out.used = r.used;
  out.window_ns = plan.sends ? r.window_ns : 0;
  out.first_read_ns = r.first_read_ns;
  out.streams = r.streams;
  out.verify = r.verify;
  return out;
}

ThreadOutcome run_bw_thread(const Lane& lane, TransportPattern& pattern, const LanePlan& plan,
                            std::chrono::milliseconds timeout) {
  std::vector<PollTarget> targets;
  targets.reserve(lane.groups.size());  // the pollers keep references: no reallocation
  for (size_t g = 0; g < lane.groups.size(); ++g) {
    // A CQ's target takes the strategy and limits of the first stream on it.
    size_t first = 0;
    while (lane.group_of_stream[first] != g) ++first;
    targets.push_back(lane.streams[first]->poll_target(timeout));
  }
  std::optional<ChannelWatch> watch;  // this thread's blocking waits, bounded, on any of its CQs
  watch_blocking_waits(watch, targets);
  return with_poller(targets[0], [&](auto& first_poller) {
    using Poller = std::remove_reference_t<decltype(first_poller)>;
    std::deque<Poller> pollers;  // one per CQ (pollers may not be copied or moved)
    for (PollTarget& t : targets) pollers.emplace_back(t);
    return outcome_of_lane(run_bw_lane(lane, pollers, plan, pattern), plan);
  });
}

ThreadOutcome run_lat_thread(QpStream& s, TransportPattern& pattern, Side side,
                             const SideRunOptions& o, std::span<uint64_t> samples) {
  ThreadOutcome out;
  const ResourceUsage before = ResourceUsage::now();
  if (side == Side::kClient) {
    out.lat = pattern.run_client(s, o.length, samples, o.timeout);
    out.verify = out.lat.verify;
  } else {
    const auto c = pattern.run_server(s, o.length, o.timeout);
    out.echoed = c.round_trips;
    out.verify = c.verify;
  }
  out.used = ResourceUsage::now() - before;
  return out;
}

// What an open-loop side polls: the lane's one CQ, or with --cq-per-qp each of its CQs in turn
// (`queues` holds them), which share one channel (Endpoint::build) that a wait blocks on.
PollTarget open_loop_target(const Lane& lane, std::vector<CompletionQueue*>& queues,
                            std::chrono::milliseconds timeout) {
  PollTarget target = lane.streams.front()->poll_target(timeout);
  if (lane.groups.size() == 1) return target;
  for (CompletionGroup* g : lane.groups) {
    if (g->channel != &target.channel)
      throw Error(ExitCode::kRuntime, "the CQs of an open-loop lane are not on one channel");
    queues.push_back(g->cq.get());
  }
  target.cqs = queues;
  target.qps_on_cq = static_cast<uint32_t>(lane.streams.size());
  return target;
}

// Open loop (TestSpec::open_loop), the client: the lane's connections at their rates, their
// replies polled from the lane's CQs (busy: validation holds the client to it).
ThreadOutcome run_open_loop_client(const Lane& lane, const SideRunOptions& o,
                                   std::span<uint64_t> samples, const RunAbort& abort,
                                   const std::string& benchmark) {
  ThreadOutcome out;
  const ResourceUsage before = ResourceUsage::now();
  std::vector<CompletionQueue*> queues;
  PollTarget target = open_loop_target(lane, queues, o.timeout);
  BusyPoller poller(target);
  const OpenLoopPlan plan{o.length, lane.streams.front()->spec().threads, o.timeout, &abort.raised,
                          &benchmark};
  OpenLoopClient client(lane.streams, poller, plan, lane.streams.front()->sample_clock());
  out.lat = client.run(samples);
  out.used = ResourceUsage::now() - before;
  for (const ConnectionTally& c : out.lat.connections)
    out.streams.push_back({.counted = c.counted, .sent = c.started});
  return out;
}

// Open loop, the server: every request of the lane's connections answered, harvested from the
// lane's CQs under the server's strategy.
ThreadOutcome run_open_loop_server(const Lane& lane, const SideRunOptions& o) {
  ThreadOutcome out;
  const ResourceUsage before = ResourceUsage::now();
  std::vector<CompletionQueue*> queues;
  PollTarget target = open_loop_target(lane, queues, o.timeout);
  std::optional<ChannelWatch> watch;
  watch_blocking_waits(watch, std::span(&target, 1));
  with_poller(target, [&](auto& poller) {
    using Poller = std::remove_reference_t<decltype(poller)>;
    OpenLoopEcho<QpStream, Poller> echo(lane.streams, poller, o.length,
                                        lane.streams.front()->spec().threads);
    for (uint64_t n : echo.run()) out.streams.push_back({.counted = n, .sent = n});
  });
  out.used = ResourceUsage::now() - before;
  return out;
}

}  // namespace

std::vector<ThreadOutcome> run_side(Endpoint& ep, TransportPattern& pattern, Side side,
                                    const SideRunOptions& options, std::span<uint64_t> samples,
                                    const RunAbort& abort) {
  const TestSpec& spec = ep.spec();
  const uint32_t threads = spec.threads;
  std::vector<ThreadOutcome> out(threads);
  std::vector<Lane> lanes;
  for (uint32_t t = 0; t < threads; ++t) lanes.push_back(ep.lane(t));
  for (auto& s : ep.streams()) s->use_clock(options.clock);
  LanePlan plan{options.length, side_sends(spec, side), side_receives(spec, side),
                side_receives(spec, side == Side::kClient ? Side::kServer : Side::kClient),
                threads};
  plan.lossy = !spec.transport->reliable;
  plan.shared_receives = spec.srq;
  const bool bw = spec.mode == Mode::kBandwidth;
  plan.rate = bw ? spec.rate : 0;
  plan.sleep_between = strategy_info(spec.cq.of(side)).blocks;
  plan.abort = &abort.raised;
  plan.timeout_ns = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(options.timeout).count());
  // A passive target has nothing to run, but for --validate's write bw target, which checks
  // the writes landing on its streams.
  const bool open_loop = spec.open_loop();
  const bool passive = (bw && !plan.sends && !plan.receives) ||
                       (open_loop && side == Side::kServer && !spec.server_receives());
  const bool checks = passive && spec.checks_landed_writes();
  if (passive && !checks) return out;
  const size_t per_thread = samples.size() / threads;
  std::vector<LanePlan> plans(threads, plan);  // each thread's, with its own live slot
  if (options.live != nullptr)
    for (uint32_t t = 0; t < threads; ++t) plans[t].live = &options.live->slot(t);
  run_team(threads, options.cpus, abort, [&](uint32_t t) {
    if (checks)
      out[t] = outcome_of_lane(check_landed_writes(lanes[t], plans[t], options.timeout), plans[t]);
    else if (bw)
      out[t] = run_bw_thread(lanes[t], pattern, plans[t], options.timeout);
    else if (open_loop && side == Side::kClient)
      out[t] = run_open_loop_client(lanes[t], options, samples.subspan(t * per_thread, per_thread),
                                    abort, ep.name());
    else if (open_loop)
      out[t] = run_open_loop_server(lanes[t], options);
    else
      out[t] = run_lat_thread(*lanes[t].streams.front(), pattern, side, options,
                              samples.subspan(t * per_thread, per_thread));
  });
  for (uint32_t t = 0; t < threads; ++t) out[t].counts = ep.poll_counts_of_lane(t);
  return out;
}

}  // namespace rdmabench

namespace rdmabench {

SideReport summarize_side(const std::vector<ThreadOutcome>& threads, const TestSpec& spec,
                          Side side) {
  SideReport r;
  r.counted.assign(spec.qps, 0);
  r.sent.assign(spec.qps, 0);
  r.finish_ns.assign(spec.qps, 0);
  r.received.assign(spec.qps, 0);
  const bool bw = spec.mode == Mode::kBandwidth;
  VerifyTally verify;  // over the threads
  for (uint32_t t = 0; t < threads.size(); ++t) {
    const ThreadOutcome& o = threads[t];
    const SideFigures f = SideFigures::of(o.used, o.counts);
    r.threads.push_back(f);
    r.total += f;
    r.window_ns = std::max(r.window_ns, o.window_ns);
    if (o.first_read_ns > 0)
      r.first_read_ns = std::min(r.first_read_ns.value_or(o.first_read_ns), o.first_read_ns);
    verify += o.verify;
    if (!bw && !spec.open_loop()) {  // lat: thread t drives stream t alone
      r.counted[t] = side == Side::kClient ? o.lat.round_trips : o.echoed;
      r.sent[t] = side == Side::kClient ? o.lat.all_round_trips : o.echoed;
      continue;
    }
    for (size_t i = 0; i < o.streams.size(); ++i) {
      r.counted[t + i * spec.threads] = o.streams[i].counted;
      r.sent[t + i * spec.threads] = o.streams[i].sent;
      r.finish_ns[t + i * spec.threads] = o.streams[i].finish_ns;
      r.received[t + i * spec.threads] = o.streams[i].received;
    }
  }
  r.verify = verify;
  return r;
}

}  // namespace rdmabench
