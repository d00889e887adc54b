// An ibv_qp_ex without a device: its ibv_wr_* entry points rebuild every request of a post as
// the ibv_send_wr the classic path would have handed to ibv_post_send, so a test can hold the
// extended path (verbs/extended_post.h) to the classic one field by field.
#pragma once

#include <infiniband/verbs.h>

#include <deque>
#include <functional>
#include <vector>

namespace rdmabench::testing {

class FakeExtendedQp {
 public:
  FakeExtendedQp() {
    qp_.qp_base.qp_context = this;
    qp_.wr_start = [](ibv_qp_ex* q) { of(q).start(); };
    qp_.wr_complete = [](ibv_qp_ex* q) { return of(q).complete(); };
    qp_.wr_abort = [](ibv_qp_ex* q) { of(q).abort(); };
    qp_.wr_send = [](ibv_qp_ex* q) { of(q).begin(IBV_WR_SEND); };
    qp_.wr_send_imm = [](ibv_qp_ex* q, __be32 imm) {
      of(q).begin(IBV_WR_SEND_WITH_IMM).imm_data = imm;
    };
    qp_.wr_rdma_write = [](ibv_qp_ex* q, uint32_t rkey, uint64_t addr) {
      of(q).remote(IBV_WR_RDMA_WRITE, rkey, addr);
    };
    qp_.wr_rdma_write_imm = [](ibv_qp_ex* q, uint32_t rkey, uint64_t addr, __be32 imm) {
      of(q).remote(IBV_WR_RDMA_WRITE_WITH_IMM, rkey, addr).imm_data = imm;
    };
    qp_.wr_rdma_read = [](ibv_qp_ex* q, uint32_t rkey, uint64_t addr) {
      of(q).remote(IBV_WR_RDMA_READ, rkey, addr);
    };
    qp_.wr_atomic_fetch_add = [](ibv_qp_ex* q, uint32_t rkey, uint64_t addr, uint64_t add) {
      of(q).atomic(IBV_WR_ATOMIC_FETCH_AND_ADD, rkey, addr, add, 0);
    };
    qp_.wr_atomic_cmp_swp = [](ibv_qp_ex* q, uint32_t rkey, uint64_t addr, uint64_t compare,
                               uint64_t swap) {
      of(q).atomic(IBV_WR_ATOMIC_CMP_AND_SWP, rkey, addr, compare, swap);
    };
    qp_.wr_set_sge = [](ibv_qp_ex* q, uint32_t lkey, uint64_t addr, uint32_t length) {
      of(q).data(ibv_sge{addr, length, lkey});
    };
    qp_.wr_set_sge_list = [](ibv_qp_ex* q, size_t n, const ibv_sge* list) {
      if (n == 0) return of(q).no_data();
      for (size_t i = 0; i < n; ++i) of(q).data(list[i]);
    };
    qp_.wr_set_inline_data = [](ibv_qp_ex* q, void* addr, size_t length) {
      of(q).inline_data(reinterpret_cast<uint64_t>(addr), static_cast<uint32_t>(length));
    };
    qp_.wr_set_ud_addr = [](ibv_qp_ex* q, ibv_ah* ah, uint32_t qpn, uint32_t qkey) {
      of(q).destination(ah, qpn, qkey);
    };
  }
  FakeExtendedQp(const FakeExtendedQp&) = delete;
  FakeExtendedQp& operator=(const FakeExtendedQp&) = delete;

  ibv_qp_ex& native() noexcept { return qp_; }

  // The requests of every completed post so far, in order (each sg_list points at its own
  // entry, null without one), and what the calls said besides.
  std::deque<ibv_send_wr> posted;
  std::vector<bool> posted_inline;  // per posted request: its data came by set_inline_data
  int starts = 0, completes = 0, aborts = 0;
  int refuse_with = 0;               // what wr_complete returns (0: it posts)
  std::function<void()> on_request;  // called as each request's operation is said (if set)

 private:
  static FakeExtendedQp& of(ibv_qp_ex* q) {
    return *static_cast<FakeExtendedQp*>(q->qp_base.qp_context);
  }
  void start() {
    ++starts;
    pending_.clear();
  }
  int complete() {
    ++completes;
    if (refuse_with != 0) return refuse_with;
    for (Pending& p : pending_) {
      posted.push_back(p.wr);
      posted_inline.push_back(p.inline_data);
      posted.back().sg_list = p.wr.num_sge > 0 ? &sges_.emplace_back(p.sge) : nullptr;
    }
    pending_.clear();
    return 0;
  }
  void abort() {
    ++aborts;
    pending_.clear();
  }
  ibv_send_wr& begin(ibv_wr_opcode opcode) {
    if (on_request) on_request();
    Pending& p = pending_.emplace_back();
    p.wr.wr_id = qp_.wr_id;
    p.wr.send_flags = qp_.wr_flags;
    p.wr.opcode = opcode;
    return p.wr;
  }
  ibv_send_wr& remote(ibv_wr_opcode opcode, uint32_t rkey, uint64_t addr) {
    ibv_send_wr& wr = begin(opcode);
    wr.wr.rdma.rkey = rkey;
    wr.wr.rdma.remote_addr = addr;
    return wr;
  }
  void atomic(ibv_wr_opcode opcode, uint32_t rkey, uint64_t addr, uint64_t compare_add,
              uint64_t swap) {
    ibv_send_wr& wr = begin(opcode);
    wr.wr.atomic.rkey = rkey;
    wr.wr.atomic.remote_addr = addr;
    wr.wr.atomic.compare_add = compare_add;
    wr.wr.atomic.swap = swap;
  }
  void data(const ibv_sge& sge) {
    pending_.back().sge = sge;
    pending_.back().wr.num_sge += 1;
  }
  void no_data() { pending_.back().wr.num_sge = 0; }
  void inline_data(uint64_t addr, uint32_t length) {
    data(ibv_sge{addr, length, 0});
    pending_.back().inline_data = true;
  }
  void destination(ibv_ah* ah, uint32_t qpn, uint32_t qkey) {
    ibv_send_wr& wr = pending_.back().wr;
    wr.wr.ud.ah = ah;
    wr.wr.ud.remote_qpn = qpn;
    wr.wr.ud.remote_qkey = qkey;
  }

  struct Pending {
    ibv_send_wr wr{};
    ibv_sge sge{};
    bool inline_data = false;
  };
  ibv_qp_ex qp_{};
  std::vector<Pending> pending_;
  std::deque<ibv_sge> sges_;  // the posted requests' entries (a deque keeps them in place)
};

}  // namespace rdmabench::testing
