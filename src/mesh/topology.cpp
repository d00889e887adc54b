#include "mesh/topology.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "core/error.h"
#include "core/printable_text.h"

namespace rdmabench {

namespace {

constexpr size_t kMaxLine = 1024;  // Slurm's own limit

[[noreturn]] void bad(const std::string& source, size_t line, const std::string& what) {
  throw Error(ExitCode::kUsage, "--topology: " + peer_excerpt(source, 200) + ":" +
                                    std::to_string(line) + ": " + what);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// "[a-b,c]"'s ranges appended to `out` as prefix + number + suffix.
void expand_ranges(const std::string& prefix, const std::string& ranges, const std::string& suffix,
                   size_t most, std::vector<std::string>& out) {
  std::istringstream in(ranges);
  for (std::string range; std::getline(in, range, ',');) {
    const size_t dash = range.find('-');
    const std::string first = range.substr(0, dash);
    const std::string last = dash == std::string::npos ? first : range.substr(dash + 1);
    const auto digits = [](const std::string& s) {
      return !s.empty() && s.size() <= 9 &&
             std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
    };
    if (!digits(first) || !digits(last))
      throw Error(ExitCode::kUsage, "not a range of numbers: '" + peer_excerpt(range) + "'");
    const long a = std::stol(first), b = std::stol(last);
    if (b < a) throw Error(ExitCode::kUsage, "a range backwards: '" + peer_excerpt(range) + "'");
    if (static_cast<size_t>(b - a) + out.size() >= most)
      throw Error(ExitCode::kUsage, "more than " + std::to_string(most) + " hosts");
    for (long n = a; n <= b; ++n) {
      std::string number = std::to_string(n);
      if (first.size() > 1 && first[0] == '0' && number.size() < first.size())
        number.insert(0, first.size() - number.size(), '0');
      out.push_back(prefix + number + suffix);
    }
  }
}

}  // namespace

std::vector<std::string> expand_hostlist(const std::string& text, size_t most) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = at;
    while (end < text.size() && text[end] != ',' && text[end] != '[') ++end;
    if (end < text.size() && text[end] == '[') {
      const size_t close = text.find(']', end);
      if (close == std::string::npos)
        throw Error(ExitCode::kUsage, "a bracket left open in '" + peer_excerpt(text) + "'");
      size_t after = close + 1;
      while (after < text.size() && text[after] != ',') ++after;
      expand_ranges(text.substr(at, end - at), text.substr(end + 1, close - end - 1),
                    text.substr(close + 1, after - close - 1), most, out);
      at = after + 1;
      continue;
    }
    if (end > at) out.push_back(text.substr(at, end - at));
    if (out.size() > most)
      throw Error(ExitCode::kUsage, "more than " + std::to_string(most) + " hosts");
    at = end + 1;
  }
  return out;
}

namespace {

void place(Topology& t, const std::string& host, const std::string& group,
           const std::string& source, size_t line) {
  const auto [it, added] = t.group_of.emplace(host, group);
  if (!added && it->second != group)
    bad(source, line,
        "host '" + peer_excerpt(host) + "' is in '" + peer_excerpt(it->second) + "' and in '" +
            peer_excerpt(group) + "'");
  if (t.group_of.size() > kTopologyMaxHosts)
    bad(source, line, "more than " + std::to_string(kTopologyMaxHosts) + " hosts");
}

// A topology.conf line: SwitchName=S with Nodes=LIST (its group), or Switches= only (a level
// above the groups, left out).
void slurm_line(Topology& t, const std::string& text, const std::string& source, size_t line) {
  std::istringstream fields(text);
  std::string switch_name, nodes;
  for (std::string field; fields >> field;) {
    const size_t eq = field.find('=');
    if (eq == std::string::npos)
      bad(source, line, "expected KEY=VALUE, not '" + peer_excerpt(field) + "'");
    const std::string key = lower(field.substr(0, eq));
    if (key == "switchname") switch_name = field.substr(eq + 1);
    if (key == "nodes") nodes = field.substr(eq + 1);
  }
  if (switch_name.empty()) bad(source, line, "a line without SwitchName=NAME");
  std::vector<std::string> hosts;
  try {
    hosts = expand_hostlist(nodes);
  } catch (const Error& e) {  // named with its file and line
    bad(source, line, e.what());
  }
  for (const std::string& host : hosts) place(t, host, switch_name, source, line);
}

}  // namespace

Topology parse_topology(std::istream& in, const std::string& source) {
  Topology t;
  std::string text;
  size_t bytes = 0;
  for (size_t line = 1; std::getline(in, text); ++line) {
    bytes += text.size() + 1;
    if (bytes > kTopologyMaxBytes)
      bad(source, line, "longer than " + std::to_string(kTopologyMaxBytes) + " bytes");
    if (text.size() > kMaxLine)
      bad(source, line, "a line longer than " + std::to_string(kMaxLine) + " characters");
    text = text.substr(0, text.find('#'));
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    if (lower(text).find("switchname=") != std::string::npos) {
      slurm_line(t, text, source, line);
      continue;
    }
    std::istringstream fields(text);
    std::string host, group, rest;
    if (!(fields >> host >> group) || (fields >> rest))
      bad(source, line, "expected HOST GROUP, or Slurm's SwitchName=... Nodes=...");
    place(t, host, group, source, line);
  }
  if (t.group_of.empty()) bad(source, 0, "no host is placed in a group");
  return t;
}

const std::string* group_of_rank(const Topology& topology, const std::vector<std::string>& names) {
  for (const std::string& name : names)
    for (const std::string& key : {name, name.substr(0, name.find('.'))})
      if (const auto it = topology.group_of.find(key);
          !key.empty() && it != topology.group_of.end())
        return &it->second;
  return nullptr;
}

std::pair<std::vector<int>, std::vector<std::string>> rank_groups(
    const Topology& topology, const std::vector<std::vector<std::string>>& names_of_rank) {
  std::map<std::string, int> index;
  std::pair<std::vector<int>, std::vector<std::string>> out;
  for (size_t rank = 0; rank < names_of_rank.size(); ++rank) {
    const std::string* group = group_of_rank(topology, names_of_rank[rank]);
    if (group == nullptr)
      throw Error(ExitCode::kUsage,
                  "--topology places no host of rank " + std::to_string(rank) + " (" +
                      peer_excerpt(names_of_rank[rank].empty() ? "" : names_of_rank[rank][0]) +
                      ") in a group: add it (HOST GROUP, or to its switch's Nodes=); a rank "
                      "goes by its host name, or by its address");
    const auto [it, added] = index.emplace(*group, static_cast<int>(index.size()));
    if (added) out.second.push_back(*group);
    out.first.push_back(it->second);
  }
  return out;
}

}  // namespace rdmabench
