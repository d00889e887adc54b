// A spec on the wire and in the results: JSON both ways. It lives above the patterns because
// reading one finds its pattern by name in the registry.
#pragma once

#include <nlohmann/json.hpp>

#include "spec/test_spec.h"

namespace rdmabench {

nlohmann::json to_json(const TestSpec& spec);
// Throws Error(kUsage) naming the field on a malformed or invalid spec (validate_spec).
TestSpec spec_from_json(const nlohmann::json& j);

}  // namespace rdmabench
