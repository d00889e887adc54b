#include "verbs/address_handle.h"

#include <cstring>

namespace rdmabench {

ibv_ah_attr address_vector(const QpAddress& remote, const QpPath& path) {
  ibv_ah_attr av{};
  av.dlid = remote.lid;
  av.sl = path.service_level;
  av.src_path_bits = 0;
  av.port_num = path.port;
  if (path.use_grh) {
    av.is_global = 1;
    std::memcpy(av.grh.dgid.raw, remote.gid.data(), remote.gid.size());
    av.grh.sgid_index = static_cast<uint8_t>(path.sgid_index);
    av.grh.hop_limit = 64;
    av.grh.traffic_class = path.traffic_class;
  }
  return av;
}

DatagramSender datagram_sender(const Context& context, uint8_t port, const ibv_wc& wc,
                               const uint8_t* grh) {
  ibv_wc completion = wc;
  ibv_grh header{};
  std::memcpy(&header, grh, sizeof header);
  ibv_ah_attr from{};
  check_call(ibv_init_ah_from_wc(context.native(), port, &completion, &header, &from),
             "ibv_init_ah_from_wc", {}, ExitCode::kRuntime);
  DatagramSender sender{.qp_number = wc.src_qp, .lid = from.dlid, .global = from.is_global != 0};
  if (sender.global) std::memcpy(sender.gid.data(), from.grh.dgid.raw, sender.gid.size());
  return sender;
}

AddressHandle::AddressHandle(const ProtectionDomain& pd, const QpAddress& remote,
                             const QpPath& path) {
  ibv_ah_attr av = address_vector(remote, path);
  ah_ = check_ptr(ibv_create_ah(pd.native(), &av), "ibv_create_ah");
}

}  // namespace rdmabench
