// The MPI job the mesh runs in, used for the rendezvous only: who is who, exchanging small
// strings, and waiting for each other. Every measurement runs over verbs, not MPI.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rdmabench {

class MpiWorld {
 public:
  // MPI_Init_thread (the mesh's server threads make no MPI call: FUNNELED is enough).
  MpiWorld(int& argc, char**& argv);
  ~MpiWorld();  // MPI_Finalize
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  // This rank's index among the ranks on its own host (0 on a one-rank-per-host job).
  int local_rank() const noexcept { return local_rank_; }
  // How many ranks run on this rank's host.
  int local_size() const noexcept { return local_size_; }
  // The MPI library's own description (MPI_Get_library_version), first line.
  std::string library() const;

  // Every rank's string, by rank.
  std::vector<std::string> all_gather(const std::string& mine) const;
  // A barrier that sleeps while it waits (MPI_Ibarrier, tested every millisecond), so that
  // ranks waiting for a round to end leave the CPU to the pairs still measuring.
  void barrier() const;
  int broadcast(int value, int root) const;
  std::string broadcast(const std::string& text, int root) const;
  // On every rank, `values` summed element by element over every rank (MPI_Allreduce).
  void sum(std::span<uint64_t> values) const;
  // At `root`: every rank's `produce()`d bytes, `consume`d in rank order, a few ranks' at a
  // time: a rank sends when root asks for its bytes, so that root never holds more than
  // kStreamWindow ranks' (a rank's bytes over `max_bytes`: Error(kConnection) at root). The
  // other ranks produce and send only.
  void stream_to_root(const std::function<std::string()>& produce,
                      const std::function<void(int rank, std::string_view bytes)>& consume,
                      size_t max_bytes, int root) const;
  static constexpr int kStreamWindow = 8;
  // Ends every rank of the job with `code` (MPI_Abort): for a rank that cannot go on while
  // the others wait for it in a collective call.
  [[noreturn]] void abort(int code) const;

 private:
  int rank_ = 0;
  int size_ = 1;
  int local_rank_ = 0;
  int local_size_ = 1;
};

}  // namespace rdmabench
