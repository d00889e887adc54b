// How a QP's send work requests are posted: through the extended API (ibv_wr_start, ibv_wr_*,
// ibv_wr_complete on an ibv_qp_ex, as perftest posts by default) or the classic ibv_post_send
// (perftest --use_old_post_send). Auto: extended where the device creates such a QP, else
// classic; what a QP really uses is reported with its path.
#pragma once

#include <optional>
#include <string>

namespace rdmabench {

enum class PostApi { kAuto, kExtended, kClassic };

std::string to_string(PostApi api);  // "auto", "ex", "classic"
std::optional<PostApi> parse_post_api(const std::string& text);

}  // namespace rdmabench
