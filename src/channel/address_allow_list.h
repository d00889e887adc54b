// `serve --allow CIDR[,CIDR...]`: the client addresses a server answers. IPv4 (10.0.0.0/8,
// 192.168.1.7) and IPv6 (fd00::/8, ::1) networks; an address without a prefix length is one
// host. A client that reaches the port from elsewhere is refused before it is heard.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace rdmabench {

struct AddressNetwork {
  bool v6 = false;
  std::array<uint8_t, 16> bytes{};  // IPv4 in the first four
  int prefix = 0;
  std::string text;  // as given
  bool contains(const std::string& address) const;
};

// Throws Error(kUsage) naming the item that is not a network.
AddressNetwork parse_network(const std::string& text);

class AddressAllowList {
 public:
  AddressAllowList() = default;  // allows every address
  // "10.0.0.0/8,192.168.1.7": throws Error(kUsage) for a bad item or an empty list.
  static AddressAllowList parse(const std::string& text);
  // An address as TcpSocket::peer_address gives it ("10.0.0.5", "fd00::5"); an IPv4 client of
  // a dual-stack socket is given as IPv4.
  bool allows(const std::string& address) const;
  bool restricts() const noexcept { return !networks_.empty(); }
  std::string text() const;  // "10.0.0.0/8, 192.168.1.7"
  // What a refused client is told (not the list: that is the operator's).
  static std::string refusal(const std::string& address);

 private:
  std::vector<AddressNetwork> networks_;
};

}  // namespace rdmabench
