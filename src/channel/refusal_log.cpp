#include "channel/refusal_log.h"

#include <utility>

namespace rdmabench {

RefusalLog::RefusalLog(std::ostream& log, std::string why, Clock::duration window)
    : log_(log), why_(std::move(why)), window_(window) {}

RefusalLog::~RefusalLog() {
  finish();
}

void RefusalLog::refused(const std::string& peer, Clock::time_point now,
                         const std::string& detail) {
  tick(now);
  if (!started_) started_ = now;
  if (const auto it = more_.find(peer); it != more_.end()) {
    ++it->second;
    return;
  }
  if (more_.size() >= kMostRefusingAddresses) {
    ++others_;
    return;
  }
  more_.emplace(peer, 0);
  log_ << "client " << peer << ": refused, " << (detail.empty() ? why_ : detail)
       << " (its further refusals are counted, told each minute)\n"
       << std::flush;
}

void RefusalLog::tick(Clock::time_point now) {
  if (started_ && now - *started_ >= window_) finish();
}

std::optional<RefusalLog::Clock::time_point> RefusalLog::window_end() const {
  if (!started_) return std::nullopt;
  return *started_ + window_;
}

void RefusalLog::finish() {
  if (!started_) return;
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(window_).count();
  for (const auto& [peer, more] : more_)
    if (more > 0)
      log_ << "client " << peer << ": refused " << more << " more times within " << seconds
           << " s, " << why_ << "\n";
  if (others_ > 0)
    log_ << "refused " << others_ << " connections from addresses beyond the first "
         << kMostRefusingAddresses << " within " << seconds << " s, " << why_ << "\n";
  log_ << std::flush;
  more_.clear();
  others_ = 0;
  started_.reset();
}

}  // namespace rdmabench
