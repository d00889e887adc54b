// A side's figures: how they are made from a thread's resource use and poll counts, summed over
// threads, and carried in the server's "done" message (the JSON round trip the client reads
// the server's CPU, wakeups and counts from).
#include "messages/side_report_fields.h"

#include <gtest/gtest.h>

#include "core/error.h"

namespace rdmabench {
namespace {

SideReport two_threads_three_qps() {
  SideReport r;
  r.threads = {SideFigures::of({1000, 2, 3, 6}, {40, 5}), SideFigures::of({500, 1, 0, 1}, {0, 7})};
  for (const SideFigures& f : r.threads) r.total += f;
  r.window_ns = 123456789012;
  r.counted = {10, 20, 30};
  r.sent = {11, 21, 31};
  r.received = {9, 0, 31};
  r.verify = {4, BadMessage{2, 77}};
  r.device_counters = {{"hw_sent_pkts", 64}, {"netdev_tx_bytes", 1ull << 40}};
  return r;
}

TEST(SideFigures, AThreadsFiguresComeFromItsResourceUseAndPollCounts) {
  const SideFigures f = SideFigures::of({1000, 2, 3, 6}, {40, 5});
  EXPECT_EQ(f.cpu_ns, 1000u);
  EXPECT_EQ(f.voluntary_switches, 2u);
  EXPECT_EQ(f.involuntary_switches, 3u);
  EXPECT_EQ(f.page_faults, 6u);
  EXPECT_EQ(f.empty_polls, 40u);
  EXPECT_EQ(f.wakeups, 5u);
}

TEST(SideFigures, TheTotalIsTheSumOverThreads) {
  const SideReport r = two_threads_three_qps();
  EXPECT_EQ(r.total.cpu_ns, 1500u);
  EXPECT_EQ(r.total.voluntary_switches, 3u);
  EXPECT_EQ(r.total.involuntary_switches, 3u);
  EXPECT_EQ(r.total.page_faults, 7u);
  EXPECT_EQ(r.total.empty_polls, 40u);
  EXPECT_EQ(r.total.wakeups, 12u);
}

TEST(SideFigures, TheDoneMessageCarriesEveryFigureAndCount) {
  const SideReport sent = two_threads_three_qps();
  nlohmann::json done = {{"type", "done"}};
  add_to_message(done, sent);
  const SideReport got = side_report_from(nlohmann::json::parse(done.dump()), 2, 3);
  for (size_t t = 0; t <= sent.threads.size(); ++t) {
    const SideFigures& a = t < sent.threads.size() ? sent.threads[t] : sent.total;
    const SideFigures& b = t < got.threads.size() ? got.threads[t] : got.total;
    EXPECT_EQ(a.cpu_ns, b.cpu_ns) << t;
    EXPECT_EQ(a.voluntary_switches, b.voluntary_switches) << t;
    EXPECT_EQ(a.involuntary_switches, b.involuntary_switches) << t;
    EXPECT_EQ(a.page_faults, b.page_faults) << t;
    EXPECT_EQ(a.wakeups, b.wakeups) << t;
    EXPECT_EQ(a.empty_polls, b.empty_polls) << t;
  }
  EXPECT_EQ(got.window_ns, sent.window_ns);
  EXPECT_EQ(got.counted, sent.counted);
  EXPECT_EQ(got.sent, sent.sent);
  EXPECT_EQ(got.received, sent.received);
  EXPECT_EQ(got.verify.errors, sent.verify.errors);
  EXPECT_EQ(got.verify.first, sent.verify.first);
  EXPECT_EQ(got.device_counters, sent.device_counters);
  // When each stream finished is the client's own (its per-QP finish times): not sent.
  EXPECT_FALSE(done.contains("finish_ns"));
}

// The first bad message names one of the spec's QPs and a message from 1; anything else is
// refused, naming the field.
TEST(SideFigures, AFirstBadMessageOutsideTheSpecIsRefused) {
  nlohmann::json done;
  add_to_message(done, two_threads_three_qps());
  auto refusal = [&](const nlohmann::json& bad) {
    nlohmann::json m = done;
    m["first_bad"] = bad;
    try {
      side_report_from(m, 2, 3);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(refusal({{"stream", 2}, {"message", 1}}), "");
  EXPECT_NE(refusal({{"stream", 3}, {"message", 1}}).find("first_bad.stream"), std::string::npos);
  EXPECT_NE(refusal({{"stream", 0}, {"message", 0}}).find("first_bad.message"), std::string::npos);
  EXPECT_NE(refusal({{"stream", 0}}).find("message"), std::string::npos);
  EXPECT_NE(refusal(nlohmann::json::array({1, 2})).find("first_bad"), std::string::npos);
  EXPECT_NE(refusal(-1).find("first_bad"), std::string::npos);
  nlohmann::json without = done;
  without.erase("first_bad");
  EXPECT_FALSE(side_report_from(without, 2, 3).verify.first.has_value());
}

TEST(SideFigures, ADoneMessageThatDoesNotMatchTheSpecIsRefusedNamingTheField) {
  nlohmann::json done;
  add_to_message(done, two_threads_three_qps());
  auto refusal = [](const nlohmann::json& m, uint32_t threads, uint32_t qps) {
    try {
      side_report_from(m, threads, qps);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(refusal(done, 3, 3).find("threads"), std::string::npos);  // 2 threads sent
  EXPECT_NE(refusal(done, 2, 4).find("counted"), std::string::npos);  // 3 QPs sent
  nlohmann::json negative = done;
  negative["sent"][1] = -1;
  EXPECT_NE(refusal(negative, 2, 3).find("sent"), std::string::npos);
  nlohmann::json short_received = done;
  short_received["received"].erase(2);
  EXPECT_NE(refusal(short_received, 2, 3).find("received"), std::string::npos);
  nlohmann::json missing = done;
  missing["figures"].erase("wakeups");
  EXPECT_NE(refusal(missing, 2, 3).find("wakeups"), std::string::npos);
}

TEST(SideFigures, DeviceCountersAreOptionalAndOnlyPlainNamesWithCountsAreTaken) {
  SideReport without = two_threads_three_qps();
  without.device_counters.clear();
  nlohmann::json done;
  add_to_message(done, without);
  EXPECT_FALSE(done.contains("device_counters"));
  EXPECT_TRUE(side_report_from(done, 2, 3).device_counters.empty());
  auto refused = [&](nlohmann::json counters) {
    nlohmann::json m = done;
    m["device_counters"] = std::move(counters);
    try {
      side_report_from(m, 2, 3);
    } catch (const Error& e) {
      return std::string(e.what()).find("device_counters") != std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(refused(nlohmann::json::array({1, 2})));
  EXPECT_TRUE(refused({{"hw_sent_pkts", -1}}));
  EXPECT_TRUE(refused({{"hw_sent_pkts", "5"}}));
  EXPECT_TRUE(refused({{"hw_Sent", 5}}));
  EXPECT_TRUE(refused({{"../x", 5}}));
  nlohmann::json many = nlohmann::json::object();
  for (size_t i = 0; i <= kMaxDeviceCounters; ++i) many["c" + std::to_string(i)] = i;
  EXPECT_TRUE(refused(many));
  EXPECT_FALSE(refused({{"hw_sent_pkts", 5u}}));  // as a parsed message holds it: unsigned
}

}  // namespace
}  // namespace rdmabench

namespace rdmabench {
namespace {

TEST(SideFigures, DeviceEventsTravelAndOnlyAFewPrintableTextsAreTaken) {
  SideReport with = two_threads_three_qps();
  with.device_events = {"IBV_EVENT_GID_CHANGE (port 1)"};
  nlohmann::json done;
  add_to_message(done, with);
  EXPECT_EQ(side_report_from(done, 2, 3).device_events, with.device_events);
  with.device_events.clear();
  nlohmann::json quiet;
  add_to_message(quiet, with);
  EXPECT_FALSE(quiet.contains("device_events"));
  auto refused = [&](nlohmann::json events) {
    nlohmann::json m = done;
    m["device_events"] = std::move(events);
    try {
      side_report_from(m, 2, 3);
    } catch (const Error& e) {
      return std::string(e.what()).find("device_events") != std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(refused("IBV_EVENT_GID_CHANGE"));                // not an array
  EXPECT_TRUE(refused(nlohmann::json::array({7})));            // not text
  EXPECT_TRUE(refused(nlohmann::json::array({"a\x1b[2Jb"})));  // a terminal escape
  EXPECT_TRUE(refused(nlohmann::json::array({std::string(kMaxDeviceEventText + 1, 'x')})));
  EXPECT_TRUE(refused(nlohmann::json(std::vector<std::string>(kMaxDeviceEvents + 1, "e"))));
}

}  // namespace
}  // namespace rdmabench
