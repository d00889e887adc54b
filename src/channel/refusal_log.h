// The server's log of the connections it refuses (--allow), summarized so that a peer in a
// connect loop cannot fill the disk: an address's first refusal in a window (a minute) is
// logged as it comes, its others in that window counted and told in one line when the window
// ends or the server stops. At most kMostRefusingAddresses addresses are told apart in a window;
// the connections of any others are one count.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>

namespace rdmabench {

inline constexpr size_t kMostRefusingAddresses = 64;

class RefusalLog {
 public:
  using Clock = std::chrono::steady_clock;

  // `why`: what the log says of each refusal ("not in --allow 10.0.0.0/8").
  RefusalLog(std::ostream& log, std::string why, Clock::duration window = std::chrono::minutes(1));
  ~RefusalLog();  // tells what is still counted
  RefusalLog(const RefusalLog&) = delete;
  RefusalLog& operator=(const RefusalLog&) = delete;

  // `peer` (printable: a numeric address) refused at `now`; `detail`, when given, is what the
  // first line of the window says instead of `why` (this refusal's own reason).
  void refused(const std::string& peer, Clock::time_point now, const std::string& detail = {});
  // Tells the counts of a window that has ended by `now` (call it now and then).
  void tick(Clock::time_point now);
  // When the window open now ends (tick then tells its counts); nullopt when none is open.
  std::optional<Clock::time_point> window_end() const;
  // Tells every count still held.
  void finish();

 private:
  std::ostream& log_;
  std::string why_;
  Clock::duration window_;
  std::optional<Clock::time_point> started_;  // the window's first refusal
  std::map<std::string, uint64_t> more_;      // refusals after the first, by address
  uint64_t others_ = 0;                       // from addresses beyond kMostRefusingAddresses
};

}  // namespace rdmabench
