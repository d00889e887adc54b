// MpiWorld in a build without MPI (meson found no MPI library): `rdmabench mesh` says how to
// get one instead of failing to build.
#include <cstdlib>

#include "core/error.h"
#include "mesh/mpi_world.h"

namespace rdmabench {

MpiWorld::MpiWorld(int&, char**&) {
  throw Error(ExitCode::kUsage,
              "this rdmabench was built without MPI, which mesh needs: install libopenmpi-dev "
              "(tools/setup-deps does) and rebuild (meson setup --reconfigure build)");
}
MpiWorld::~MpiWorld() = default;
std::string MpiWorld::library() const {
  return "";
}
std::vector<std::string> MpiWorld::all_gather(const std::string& mine) const {
  return {mine};
}
void MpiWorld::barrier() const {}
int MpiWorld::broadcast(int value, int) const {
  return value;
}
std::string MpiWorld::broadcast(const std::string& text, int) const {
  return text;
}
void MpiWorld::abort(int code) const {
  std::_Exit(code);
}
void MpiWorld::sum(std::span<uint64_t>) const {}
void MpiWorld::stream_to_root(const std::function<std::string()>& produce,
                              const std::function<void(int, std::string_view)>& consume, size_t,
                              int) const {
  consume(0, produce());
}

}  // namespace rdmabench
