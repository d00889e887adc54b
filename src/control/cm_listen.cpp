#include "control/cm_listen.h"

#include "control/message_fields.h"

namespace rdmabench {

nlohmann::json cm_listen_message(const CmListen& listen) {
  return {{"type", "cm_listen"}, {"port", listen.port}, {"token", listen.token}};
}

CmListen read_cm_listen(const nlohmann::json& message) {
  const MessageContext ctx{"cm_listen"};
  CmListen listen{unsigned_as<uint16_t>(message, ctx, "port", 1),
                  string_field(message, ctx, "token")};
  if (listen.token.size() != kCmTokenLength ||
      listen.token.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw_bad_field(ctx, "token", "must be " + std::to_string(kCmTokenLength) + " hex digits");
  return listen;
}

}  // namespace rdmabench
