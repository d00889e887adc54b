// The MPI job the mesh runs in, used for the rendezvous only: who is who, exchanging small
// strings, and waiting for each other. Every measurement runs over verbs, not MPI.
#pragma once

#include <string>
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
  // Every rank's string at `root`, by rank; empty elsewhere.
  std::vector<std::string> gather(const std::string& mine, int root) const;
  // A barrier that sleeps while it waits (MPI_Ibarrier, tested every millisecond), so that
  // ranks waiting for a round to end leave the CPU to the pairs still measuring.
  void barrier() const;
  int broadcast(int value, int root) const;

 private:
  int rank_ = 0;
  int size_ = 1;
  int local_rank_ = 0;
  int local_size_ = 1;
};

}  // namespace rdmabench
