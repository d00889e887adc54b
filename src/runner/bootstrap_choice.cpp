#include "runner/bootstrap_choice.h"

#include "core/error.h"
#include "spec/transport.h"
#include "verbs/cm_id.h"
#include "verbs/device_list.h"

namespace rdmabench {

namespace {
bool is_loopback(const std::string& host) {
  return host.rfind("127.", 0) == 0 || host == "localhost" || host == "::1";
}

BootstrapChoice choose_on_any_fabric(const BootstrapQuestion& q);

}  // namespace

BootstrapChoice settle_for_fabric(BootstrapChoice choice, bool iwarp,
                                  std::optional<Bootstrap> requested, Transport transport) {
  if (!iwarp) return choice;
  if (!transport->reliable || !transport->connected)
    throw Error(ExitCode::kUsage, "--transport " + transport.name() + ": " + choice.device +
                                      " is an iWARP device, which carries reliable connected "
                                      "QPs only (rc)");
  if (choice.method == Bootstrap::kRdmaCm) {
    if (!requested) choice.reason += " (iWARP: rdma_cm is its only bootstrap)";
    return choice;
  }
  const std::string device = choice.device +
                             " is an iWARP device, which connects through "
                             "rdma_cm only (MPA over a TCP connection)";
  if (requested == Bootstrap::kOob)
    throw Error(ExitCode::kUsage, "--cm oob: " + device + ": use --cm rdmacm or auto");
  throw Error(ExitCode::kUsage, "--cm auto cannot use rdma_cm here (" + choice.reason + "), and " +
                                    device + ": give the server's address on the iWARP network");
}

BootstrapChoice choose_bootstrap(const BootstrapQuestion& question) {
  BootstrapChoice choice = choose_on_any_fabric(question);
  const bool iwarp = DeviceList().open(choice.device).is_iwarp();
  return settle_for_fabric(std::move(choice), iwarp, question.requested, question.transport);
}

namespace {

// --cm auto: rdma_cm when the server's address resolves to an RDMA device and a route.
BootstrapChoice choose_on_any_fabric(const BootstrapQuestion& q) {
  const std::optional<Bootstrap>& requested = q.requested;
  const std::string& device = q.device;
  const std::string& oob_only = q.oob_only;
  const Transport& transport = q.transport;
  auto first_device = [&] { return device.empty() ? DeviceList().open().device_name() : device; };
  if (requested == Bootstrap::kOob) return {Bootstrap::kOob, "requested", first_device()};
  if (!requested && !oob_only.empty()) return {Bootstrap::kOob, oob_only, first_device()};
  if (!requested && is_loopback(q.server.host))
    return {Bootstrap::kOob, "loopback address (rdma_cm cannot route 127.0.0.1 on rxe)",
            first_device()};
  try {
    CmEventChannel channel;
    CmId probe(channel, default_transport()->cm_port_space);  // any: only the route
    probe.resolve(q.server.host, q.server.port, q.timeout);
    const std::string name = ibv_get_device_name(probe.verbs()->device);
    // A transport rdma_cm cannot connect goes out of band, from the device the route takes.
    if (!transport->rdmacm_refusal.empty())
      return {Bootstrap::kOob,
              "--transport " + transport.name() + ": " + std::string(transport->rdmacm_refusal) +
                  "; the address maps to " + name,
              device.empty() ? name : device};
    return {Bootstrap::kRdmaCm, !requested ? "address maps to " + name : "requested", name};
  } catch (const Error& e) {
    if (requested == Bootstrap::kRdmaCm)
      throw Error(ExitCode::kConnection, std::string("--cm rdmacm: ") + e.what());
    return {Bootstrap::kOob, std::string("rdma_cm could not resolve the server: ") + e.what(),
            first_device()};
  }
}

}  // namespace

}  // namespace rdmabench
