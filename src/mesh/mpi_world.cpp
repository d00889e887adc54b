#include "mesh/mpi_world.h"

#include <mpi.h>
#include <time.h>

#include "core/error.h"

namespace rdmabench {

namespace {
void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(rc, text, &length);
  throw Error(ExitCode::kConnection, std::string(call) + " failed: " + std::string(text, length));
}

std::vector<int> offsets_of(const std::vector<int>& lengths) {
  std::vector<int> offsets(lengths.size(), 0);
  for (size_t i = 1; i < lengths.size(); ++i) offsets[i] = offsets[i - 1] + lengths[i - 1];
  return offsets;
}

std::vector<std::string> split(const std::string& all, const std::vector<int>& lengths) {
  std::vector<std::string> out;
  size_t at = 0;
  for (int length : lengths) {
    out.push_back(all.substr(at, static_cast<size_t>(length)));
    at += static_cast<size_t>(length);
  }
  return out;
}
}  // namespace

MpiWorld::MpiWorld(int& argc, char**& argv) {
  int provided = 0;
  check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm local;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local),
        "MPI_Comm_split_type");
  MPI_Comm_rank(local, &local_rank_);
  MPI_Comm_size(local, &local_size_);
  MPI_Comm_free(&local);
}

MpiWorld::~MpiWorld() {
  MPI_Finalize();
}

std::string MpiWorld::library() const {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  const std::string all(text, static_cast<size_t>(length));
  return all.substr(0, all.find_first_of(",\n"));
}

std::vector<std::string> MpiWorld::all_gather(const std::string& mine) const {
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<size_t>(size_));
  check(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD),
        "MPI_Allgather");
  const auto offsets = offsets_of(lengths);
  std::string all(static_cast<size_t>(offsets.back() + lengths.back()), '\0');
  check(MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(),
                       MPI_CHAR, MPI_COMM_WORLD),
        "MPI_Allgatherv");
  return split(all, lengths);
}

std::vector<std::string> MpiWorld::gather(const std::string& mine, int root) const {
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<size_t>(size_));
  check(MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, root, MPI_COMM_WORLD),
        "MPI_Gather");
  const auto offsets = offsets_of(lengths);
  std::string all(rank_ == root ? static_cast<size_t>(offsets.back() + lengths.back()) : 0, '\0');
  check(MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(),
                    MPI_CHAR, root, MPI_COMM_WORLD),
        "MPI_Gatherv");
  return rank_ == root ? split(all, lengths) : std::vector<std::string>{};
}

void MpiWorld::barrier() const {
  MPI_Request request;
  check(MPI_Ibarrier(MPI_COMM_WORLD, &request), "MPI_Ibarrier");
  for (int done = 0;;) {
    check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done) return;
    const timespec millisecond{0, 1'000'000};
    nanosleep(&millisecond, nullptr);
  }
}

int MpiWorld::broadcast(int value, int root) const {
  check(MPI_Bcast(&value, 1, MPI_INT, root, MPI_COMM_WORLD), "MPI_Bcast");
  return value;
}

}  // namespace rdmabench
