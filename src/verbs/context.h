// An open RDMA device (ibv_context) and the queries made on it.
#pragma once

#include <infiniband/verbs.h>

#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/gid.h"

namespace rdmabench {

class Context {
 public:
  // kBorrowed: the context belongs to rdma_cm (cm_id->verbs) and must not be closed here.
  enum class Ownership { kOwned, kBorrowed };

  Context(ibv_context* context, Ownership ownership);
  ~Context();
  Context(Context&& other) noexcept;
  Context& operator=(Context&&) = delete;
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  std::string device_name() const;
  ibv_device_attr query_device() const;
  ibv_port_attr query_port(uint8_t port) const;
  // CQ moderation limits (ibv_query_device_ex); both 0 where the device has none (rxe).
  ibv_cq_moderation_caps cq_moderation_caps() const;
  // How many completion vectors (interrupt sources) a CQ may be given: 0 to this less one.
  int completion_vectors() const noexcept { return context_->num_comp_vectors; }
  // Every valid GID of every port (ibv_query_gid_table: no walk over empty sysfs slots).
  std::vector<GidEntry> query_gids() const;
  // The same, of one port only.
  std::vector<GidEntry> query_gids(uint8_t port) const;
  GidEntry query_gid(uint8_t port, uint32_t index) const;
  // The device's transport is iWARP (IBV_TRANSPORT_IWARP: irdma and cxgb4 in iWARP mode, siw).
  bool is_iwarp() const noexcept;
  // The fabric `port` speaks, from the device's transport, the port's link layer and GIDs.
  Fabric fabric(uint8_t port) const;

  // For the other verbs wrappers in src/verbs only.
  ibv_context* native() const noexcept { return context_; }

 private:
  ibv_context* context_;
  Ownership ownership_;
};

}  // namespace rdmabench
