// The violations a search has seen, each once (by rule and points), in the order found.
#pragma once

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "search/expectation_rules.h"

namespace rdmabench {

class ViolationSet {
 public:
  // False when it was seen before.
  bool add(const Violation& v) {
    if (!keys_.insert(v.key()).second) return false;
    list_.push_back(v);
    return true;
  }
  // A violation a finer one took the place of (the coarse line's two points, once the values
  // between them were measured): it stays seen, and leaves the list.
  void supersede(const Violation& v) {
    std::erase_if(list_, [&](const Violation& x) { return x.key() == v.key(); });
  }
  const std::vector<Violation>& list() const noexcept { return list_; }
  // Still listed (not superseded).
  bool holds(const Violation& v) const {
    const std::string key = v.key();
    return std::any_of(list_.begin(), list_.end(),
                       [&](const Violation& x) { return x.key() == key; });
  }
  size_t size() const noexcept { return list_.size(); }

 private:
  std::set<std::string> keys_;
  std::vector<Violation> list_;
};

}  // namespace rdmabench
