#include "cli/channel_security_options.h"

#include "cli/option_checks.h"
#include "core/error.h"

namespace rdmabench {

namespace {

const char* key_help(ChannelSide side) {
  switch (side) {
    case ChannelSide::kServer:
      return "A shared secret file (at least 32 bytes, mode 600) clients must hold a copy of: the "
             "control channel runs TLS 1.3 with it as a pre-shared key, both sides proving it, "
             "every message encrypted (docs/security.md)";
    case ChannelSide::kClient:
      return "A copy of the server's --key file: TLS 1.3 with it as a pre-shared key (a server "
             "that does not hold it, or asks for none, is refused)";
    case ChannelSide::kMeshRank:
      break;
  }
  return "A key file (at least 32 bytes, mode 600) every rank holds: every pair's control "
         "channel runs TLS 1.3 with it (see serve --key)";
}

const char* cert_help(ChannelSide side) {
  return side == ChannelSide::kClient
             ? "This client's certificate chain (PEM) for a server that asks for one (serve "
               "--cert); with --cert-key and --ca"
             : "This side's certificate chain (PEM): TLS 1.3 with certificates instead of a key; "
               "with --cert-key and --ca, and the peer must present one --ca signed";
}

}  // namespace

void add_channel_security(cxxopts::Options& options, const std::string& group, ChannelSide side) {
  options.add_options(group)("key", key_help(side), cxxopts::value<std::string>(), "FILE")(
      "cert", cert_help(side), cxxopts::value<std::string>(), "FILE")(
      "cert-key", "The private key (PEM) of --cert", cxxopts::value<std::string>(), "FILE")(
      "ca",
      side == ChannelSide::kClient
          ? "The CA certificates (PEM) that signed the server's certificate, which must name "
            "HOST (its DNS name or address)"
          : "The CA certificates (PEM) that sign the peers' certificates",
      cxxopts::value<std::string>(), "FILE");
}

ChannelCredentials channel_security_of(const cxxopts::ParseResult& args) {
  ChannelCredentials c;
  const bool any_cert = args.count("cert") || args.count("cert-key") || args.count("ca");
  if (args.count("key") && any_cert)
    throw Error(ExitCode::kUsage,
                "give --key FILE or --cert, --cert-key and --ca, not both: a key and "
                "certificates are two ways to secure the same channel");
  if (args.count("key")) {
    c.key_file = text_option(args, "key");
    c.key = SharedKey::from_file(c.key_file);
  }
  if (!any_cert) return c;
  for (const char* name : {"cert", "cert-key", "ca"})
    if (!args.count(name))
      throw Error(ExitCode::kUsage, std::string("--") + name +
                                        " is missing: certificates take --cert FILE, --cert-key "
                                        "FILE and --ca FILE together");
  c.certificates = CertificateFiles{text_option(args, "cert"), text_option(args, "cert-key"),
                                    text_option(args, "ca")};
  c.context(TlsContext::Role::kServer);  // a file that cannot be read fails here, not later
  return c;
}

}  // namespace rdmabench
