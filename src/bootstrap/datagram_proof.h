// Before a datagram QP sends to the address its peer named in the out-of-band exchange, a
// datagram from that address must have come: no peer can aim this side's sends (a server's
// replies, a client's whole run) at a third party by naming its QP number and GID. The client
// asks with one datagram per stream (the least a client must send to be answered), again
// every kAskAgain while unanswered, since a datagram may be lost; the server answers each
// datagram that came from where the client said it would, ignores and counts any other, until
// the client says on the control channel that every answer came ("proved"). Neither side sends
// a run's datagram before its peer's came.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "datapath/endpoint.h"
#include "messages/control_channel.h"
#include "verbs/address_handle.h"
#include "verbs/queue_pair.h"

namespace rdmabench {

// How long a client waits for a stream's answer before it asks again.
inline constexpr std::chrono::milliseconds kAskAgain{200};

// Whether a datagram from `sender` came from the address `named`: its QP number, and its GID
// where it carried a GRH (else its LID).
bool came_from(const DatagramSender& sender, const QpAddress& named) noexcept;

// "QP 0x000011 at GID fe80::1" (or "at LID 4" without a GRH): for messages.
std::string describe_sender(const DatagramSender& sender);

// The error when a stream's proof did not come within `waited`: which address was waited for,
// and what came from elsewhere (`strays`, the first of them `first_stray`). `named_by`: "the
// client" or "the server".
Error unproven_peer(const QpAddress& named, const char* named_by, uint32_t stream,
                    std::chrono::milliseconds waited, uint64_t strays,
                    const std::optional<DatagramSender>& first_stray);

// This side's half of the proof, once every stream of `ep` (a datagram transport's, out of
// band) is at RTS and its datagrams go to `named[i]`, the address the peer named for stream i.
// The client asks and waits for the answers, then says "proved"; the server answers until
// then. Within `timeout` and the channel's bounds (a server's session:
// ControlChannel::within_bounds); any other message from the peer meanwhile (its error) is
// raised, as is a client's "proved" before each of its streams proved its address.
void prove_datagram_peers(ControlChannel& control, Endpoint& ep, Side side,
                          const std::vector<QpAddress>& named, std::chrono::milliseconds timeout);

}  // namespace rdmabench
