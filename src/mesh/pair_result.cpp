#include "mesh/pair_result.h"

namespace rdmabench {

JudgedFigure judged_figure(const std::string& mode) {
  if (mode == "lat") return {"lat_p50_us", false};
  return {"bytes_per_second", true};
}

}  // namespace rdmabench
