// --key, --cert, --cert-key and --ca: how serve, run, search and mesh secure the control
// channel (TLS 1.3: channel/tls_context.h). One declaration for each side's help and one parse,
// so that the four commands take them alike.
#pragma once

#include <cxxopts.hpp>
#include <string>

#include "channel/tls_context.h"

namespace rdmabench {

// Whose view the options' help takes: a server asks clients for them, a client proves them to a
// server and checks the server's, a mesh rank does both.
enum class ChannelSide { kServer, kClient, kMeshRank };

void add_channel_security(cxxopts::Options& options, const std::string& group, ChannelSide side);

// The files given, read and checked: --key alone, or --cert, --cert-key and --ca together.
// Throws Error(kUsage) naming what is missing, mixed, or cannot be read.
ChannelCredentials channel_security_of(const cxxopts::ParseResult& args);

}  // namespace rdmabench
