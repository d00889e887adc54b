#include "core/post_api.h"

namespace rdmabench {

std::string to_string(PostApi api) {
  switch (api) {
    case PostApi::kExtended:
      return "ex";
    case PostApi::kClassic:
      return "classic";
    case PostApi::kAuto:
      break;
  }
  return "auto";
}

std::optional<PostApi> parse_post_api(const std::string& text) {
  for (const PostApi api : {PostApi::kAuto, PostApi::kExtended, PostApi::kClassic})
    if (text == to_string(api)) return api;
  return std::nullopt;
}

}  // namespace rdmabench
