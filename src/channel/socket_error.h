// A failed socket call (socket, bind, listen, accept, send, recv, poll on a socket): a
// SystemError that means the connection, unless the caller says otherwise; and the timeout of a
// receive, which a caller may tell from the other failures.
#pragma once

#include <string>

#include "core/system_error.h"

namespace rdmabench {

class SocketError : public SystemError {
 public:
  SocketError(const std::string& call, int err, const std::string& detail = {},
              ExitCode code = ExitCode::kConnection)
      : SystemError(call, err, detail, code) {}
};

// No message came within the time a receive was given.
class ReceiveTimeout : public Error {
 public:
  using Error::Error;
};

}  // namespace rdmabench
