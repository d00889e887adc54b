#include "bootstrap/bootstrap.h"

#include "bootstrap/oob_bootstrap.h"
#include "bootstrap/rdmacm_bootstrap.h"

namespace rdmabench {

std::unique_ptr<Endpoint> client_bootstrap(ControlChannel& control, const TestSpec& spec,
                                           const BootstrapOptions& options) {
  return spec.bootstrap == Bootstrap::kOob ? oob_client(control, spec, options)
                                           : rdmacm_client(control, spec, options);
}

std::unique_ptr<Endpoint> server_bootstrap(ControlChannel& control, const TestSpec& spec,
                                           const BootstrapOptions& options) {
  return spec.bootstrap == Bootstrap::kOob ? oob_server(control, spec, options)
                                           : rdmacm_server(control, spec, options);
}

ibv_mtu mtu_from_bytes(uint32_t bytes) {
  switch (bytes) {
    case 256:
      return IBV_MTU_256;
    case 512:
      return IBV_MTU_512;
    case 1024:
      return IBV_MTU_1024;
    case 2048:
      return IBV_MTU_2048;
    case 4096:
      return IBV_MTU_4096;
    default:
      throw Error(ExitCode::kUsage,
                  "--mtu must be 256, 512, 1024, 2048 or 4096, not " + std::to_string(bytes));
  }
}

}  // namespace rdmabench
