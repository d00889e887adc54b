// The path's options that run and mesh take alike, declared and read in one place: --qp-timeout,
// --tclass and --sl (the spec's validation checks their ranges; --sl is out of band only).
#pragma once

#include <string>

#include <cxxopts.hpp>

#include "spec/test_spec.h"

namespace rdmabench {

// Adds them to `group` of `options`.
void add_path_options(cxxopts::Options& options, const std::string& group);

// Sets those given on `spec`; leaves the others unset (each one's default is the bootstrap's).
void read_path_options(const cxxopts::ParseResult& args, TestSpec& spec);

}  // namespace rdmabench
