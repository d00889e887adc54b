#include "runner/suite_options.h"

#include <sstream>

namespace rdmabench {

std::string OfferedRate::gbps_text() const {
  std::ostringstream text;
  text << gbps;
  return text.str();
}

}  // namespace rdmabench
