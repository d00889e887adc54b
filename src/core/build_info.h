// What this binary was built from and how: the version control revision (git describe, with
// "-dirty" for uncommitted changes; "unknown" outside a git checkout), Meson's build type and
// the C++ compiler that made it.
// Generated at build time from build_info.cpp.in (meson.build: vcs_tag).
#pragma once

namespace rdmabench {

const char* build_revision();
const char* build_type();      // release, debug, debugoptimized, ...
const char* build_compiler();  // Meson's compiler id and version: "gcc 12.2.0", "clang 14.0.6"

}  // namespace rdmabench
