#include "channel/address_allow_list.h"

#include <arpa/inet.h>

#include <cstring>

#include "core/comma_list.h"
#include "core/error.h"

namespace rdmabench {

namespace {

// The address's bytes and family, or false when `text` is neither IPv4 nor IPv6.
bool address_bytes(const std::string& text, bool& v6, std::array<uint8_t, 16>& bytes) {
  bytes.fill(0);
  if (inet_pton(AF_INET, text.c_str(), bytes.data()) == 1) {
    v6 = false;
    return true;
  }
  if (inet_pton(AF_INET6, text.c_str(), bytes.data()) == 1) {
    v6 = true;
    return true;
  }
  return false;
}

bool same_prefix(const std::array<uint8_t, 16>& a, const std::array<uint8_t, 16>& b, int bits) {
  const int whole = bits / 8;
  if (std::memcmp(a.data(), b.data(), static_cast<size_t>(whole)) != 0) return false;
  if (bits % 8 == 0) return true;
  const auto mask = static_cast<uint8_t>(0xff << (8 - bits % 8));
  return (a[whole] & mask) == (b[whole] & mask);
}

}  // namespace

bool AddressNetwork::contains(const std::string& address) const {
  bool peer_v6 = false;
  std::array<uint8_t, 16> peer{};
  if (!address_bytes(address, peer_v6, peer) || peer_v6 != v6) return false;
  return same_prefix(bytes, peer, prefix);
}

AddressNetwork parse_network(const std::string& text) {
  auto bad = [&](const std::string& why) {
    return Error(ExitCode::kUsage, "--allow '" + text.substr(0, 60) + "': " + why +
                                       " (examples: 10.0.0.0/8, 192.168.1.7, fd00::/8)");
  };
  AddressNetwork net;
  net.text = text;
  const auto slash = text.find('/');
  if (!address_bytes(text.substr(0, slash), net.v6, net.bytes))
    throw bad("not an IPv4 or IPv6 address");
  const int most = net.v6 ? 128 : 32;
  net.prefix = most;
  if (slash != std::string::npos) {
    const std::string bits = text.substr(slash + 1);
    if (bits.empty() || bits.size() > 3 ||
        bits.find_first_not_of("0123456789") != std::string::npos || std::stoi(bits) > most)
      throw bad("the prefix length must be 0 to " + std::to_string(most));
    net.prefix = std::stoi(bits);
  }
  return net;
}

AddressAllowList AddressAllowList::parse(const std::string& text) {
  AddressAllowList list;
  for (const std::string& item : split_comma_list(text)) {  // items come without spaces
    if (item.empty())
      throw Error(ExitCode::kUsage, "--allow: an empty item in '" + text.substr(0, 60) + "'");
    list.networks_.push_back(parse_network(item));
  }
  if (list.networks_.empty()) throw Error(ExitCode::kUsage, "--allow: give at least one network");
  return list;
}

bool AddressAllowList::allows(const std::string& address) const {
  if (networks_.empty()) return true;
  for (const AddressNetwork& n : networks_)
    if (n.contains(address)) return true;
  return false;
}

std::string AddressAllowList::refusal(const std::string& address) {
  return "this server does not answer clients from " + address +
         " (its --allow list); ask its operator";
}

std::string AddressAllowList::text() const {
  return join_comma_list(networks_, [](const AddressNetwork& n) { return n.text; });
}

}  // namespace rdmabench
