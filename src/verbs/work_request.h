// Work requests built once, before any timing, each holding its own scatter entry: a copy or a
// move points its sg_list at its own entry, never at the one it came from, so a request can
// live in a vector or be returned by value. One builder per kind of request: each fills only
// the part of the union its opcode reads.
#pragma once

#include <infiniband/verbs.h>

#include <cstdint>

namespace rdmabench {

// The peer's memory an RDMA or atomic request targets.
struct RemoteMemory {
  uint64_t address = 0;
  uint32_t rkey = 0;
};

// A datagram's destination: its address handle, QP number and Q_Key.
struct DatagramDestination {
  ibv_ah* address_handle = nullptr;
  uint32_t qp_number = 0;
  uint32_t qkey = 0;
};

namespace work_request_detail {

// A work request of type Wr with its own scatter entry: copying or assigning one points the
// copy's sg_list at the copy's entry (none when it has no entry).
template <typename Wr>
class OwnScatterEntry {
 public:
  OwnScatterEntry(const OwnScatterEntry& other) : sge_(other.sge_), wr_(other.wr_) { own(); }
  OwnScatterEntry& operator=(const OwnScatterEntry& other) {
    sge_ = other.sge_;
    wr_ = other.wr_;
    own();
    return *this;
  }

  Wr& native() noexcept { return wr_; }
  const Wr& native() const noexcept { return wr_; }
  const ibv_sge& sge() const noexcept { return sge_; }

 protected:
  OwnScatterEntry() = default;
  explicit OwnScatterEntry(const ibv_sge& local) : sge_(local) {
    wr_.num_sge = 1;
    own();
  }
  void own() noexcept { wr_.sg_list = wr_.num_sge > 0 ? &sge_ : nullptr; }

  ibv_sge sge_{};
  Wr wr_{};
};

}  // namespace work_request_detail

class SendWorkRequest : public work_request_detail::OwnScatterEntry<ibv_send_wr> {
 public:
  // SEND or SEND_WITH_IMM of `local`.
  static SendWorkRequest send(ibv_wr_opcode opcode, const ibv_sge& local) {
    return SendWorkRequest(opcode, local);
  }
  // RDMA_WRITE, RDMA_WRITE_WITH_IMM (from `local`) or RDMA_READ (into `local`) at `remote`.
  static SendWorkRequest rdma(ibv_wr_opcode opcode, const ibv_sge& local, RemoteMemory remote) {
    SendWorkRequest r(opcode, local);
    r.wr_.wr.rdma.remote_addr = remote.address;
    r.wr_.wr.rdma.rkey = remote.rkey;
    return r;
  }
  // ATOMIC_FETCH_AND_ADD of `add` at `remote` (8 bytes), the old value into `local`.
  static SendWorkRequest fetch_add(const ibv_sge& local, RemoteMemory remote, uint64_t add) {
    SendWorkRequest r(IBV_WR_ATOMIC_FETCH_AND_ADD, local);
    r.set_atomic(remote, add, 0);
    return r;
  }
  // ATOMIC_CMP_AND_SWP at `remote`: `swap` where it holds `compare`, the old value into `local`.
  static SendWorkRequest compare_swap(const ibv_sge& local, RemoteMemory remote, uint64_t compare,
                                      uint64_t swap) {
    SendWorkRequest r(IBV_WR_ATOMIC_CMP_AND_SWP, local);
    r.set_atomic(remote, compare, swap);
    return r;
  }
  // SEND or SEND_WITH_IMM of `local` to a datagram destination.
  static SendWorkRequest datagram(ibv_wr_opcode opcode, const ibv_sge& local,
                                  DatagramDestination to) {
    SendWorkRequest r(opcode, local);
    r.wr_.wr.ud.ah = to.address_handle;
    r.wr_.wr.ud.remote_qpn = to.qp_number;
    r.wr_.wr.ud.remote_qkey = to.qkey;
    return r;
  }

 private:
  SendWorkRequest(ibv_wr_opcode opcode, const ibv_sge& local) : OwnScatterEntry(local) {
    wr_.opcode = opcode;
  }
  void set_atomic(RemoteMemory remote, uint64_t compare_add, uint64_t swap) {
    wr_.wr.atomic.remote_addr = remote.address;
    wr_.wr.atomic.rkey = remote.rkey;
    wr_.wr.atomic.compare_add = compare_add;
    wr_.wr.atomic.swap = swap;
  }
};

// A receive: into `local`, or (no scatter entry) one that takes only an immediate.
class ReceiveWorkRequest : public work_request_detail::OwnScatterEntry<ibv_recv_wr> {
 public:
  ReceiveWorkRequest(uint64_t id, const ibv_sge& local) : OwnScatterEntry(local) { wr_.wr_id = id; }
  static ReceiveWorkRequest without_data(uint64_t id) {
    ReceiveWorkRequest r;
    r.wr_.wr_id = id;
    return r;
  }

 private:
  ReceiveWorkRequest() = default;
};

}  // namespace rdmabench
