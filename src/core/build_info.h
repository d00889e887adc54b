// What this binary was built from and how: the version control revision (git describe, with
// "-dirty" for uncommitted changes; "unknown" outside a git checkout) and Meson's build type.
// Generated at build time from build_info.cpp.in (meson.build: vcs_tag).
#pragma once

namespace rdmabench {

const char* build_revision();
const char* build_type();  // release, debug, debugoptimized, ...

}  // namespace rdmabench
