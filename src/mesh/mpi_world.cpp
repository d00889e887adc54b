#include "mesh/mpi_world.h"

#include <mpi.h>
#include <time.h>

#include <cstdlib>

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

std::string MpiWorld::broadcast(const std::string& text, int root) const {
  unsigned long long length = text.size();
  check(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, root, MPI_COMM_WORLD), "MPI_Bcast");
  std::string out = rank_ == root ? text : std::string(length, '\0');
  check(MPI_Bcast(out.data(), static_cast<int>(length), MPI_CHAR, root, MPI_COMM_WORLD),
        "MPI_Bcast");
  return out;
}

void MpiWorld::abort(int code) const {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

void MpiWorld::sum(std::span<uint64_t> values) const {
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_UINT64_T,
                      MPI_SUM, MPI_COMM_WORLD),
        "MPI_Allreduce");
}

namespace {
constexpr int kAskTag = 7101, kBytesTag = 7102;

void ask(int rank) {
  check(MPI_Send(nullptr, 0, MPI_CHAR, rank, kAskTag, MPI_COMM_WORLD), "MPI_Send");
}

// The next message of `rank`'s, no longer than `max_bytes` (checked before it is received).
std::string receive_from(int rank, size_t max_bytes) {
  MPI_Status status;
  check(MPI_Probe(rank, kBytesTag, MPI_COMM_WORLD, &status), "MPI_Probe");
  int length = 0;
  check(MPI_Get_count(&status, MPI_CHAR, &length), "MPI_Get_count");
  if (length < 0 || static_cast<size_t>(length) > max_bytes) {
    char discard = 0;  // taken off the wire as nothing: its length is the error
    MPI_Recv(&discard, 0, MPI_CHAR, rank, kBytesTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    throw Error(ExitCode::kConnection, "mesh: rank " + std::to_string(rank) + " sent " +
                                           std::to_string(length) + " bytes, more than " +
                                           std::to_string(max_bytes));
  }
  std::string bytes(static_cast<size_t>(length), '\0');
  check(
      MPI_Recv(bytes.data(), length, MPI_CHAR, rank, kBytesTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
      "MPI_Recv");
  return bytes;
}
}  // namespace

void MpiWorld::stream_to_root(const std::function<std::string()>& produce,
                              const std::function<void(int, std::string_view)>& consume,
                              size_t max_bytes, int root) const {
  if (rank_ != root) {
    check(MPI_Recv(nullptr, 0, MPI_CHAR, root, kAskTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
          "MPI_Recv");
    const std::string bytes = produce();
    check(MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_CHAR, root, kBytesTag,
                   MPI_COMM_WORLD),
          "MPI_Send");
    return;
  }
  int asked = 0;
  const auto ask_ahead = [&](int upto) {
    for (; asked < size_ && asked <= upto; ++asked)
      if (asked != root) ask(asked);
  };
  ask_ahead(kStreamWindow);
  for (int r = 0; r < size_; ++r) {
    ask_ahead(r + kStreamWindow);
    consume(r, r == root ? produce() : receive_from(r, max_bytes));
  }
}

}  // namespace rdmabench
