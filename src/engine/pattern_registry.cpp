#include "engine/pattern.h"

namespace rdmabench {

std::unique_ptr<TransportPattern> make_pattern(Pattern pattern) {
  switch (pattern) {
    case Pattern::kSend:
      return make_send_pattern();
    case Pattern::kWrite:
      return make_write_pattern();
    case Pattern::kWriteImm:
      return make_write_imm_pattern();
    case Pattern::kRead:
      return make_read_pattern();
  }
  throw Error(ExitCode::kUsage, "unknown pattern");
}

}  // namespace rdmabench
