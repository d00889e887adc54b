// The control channel's TLS 1.3 configuration (OpenSSL's libssl), one per process and role:
// with `--key FILE`, the key file as an external pre-shared key (TLS 1.3 PSK with (EC)DHE, so
// each session has its own keys); with `--cert`, `--cert-key` and `--ca`, X.509 certificates
// checked against the site's CA. Mutual either way: a server asks the client for the same key, or
// for a certificate its CA signed; a client checks the server's the same way.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "channel/shared_key.h"

struct ssl_ctx_st;

namespace rdmabench {

// `--cert FILE --cert-key FILE --ca FILE`: this side's certificate chain (PEM), its private key
// (PEM), and the certificates of the CA that signs the peers'.
struct CertificateFiles {
  std::string cert;
  std::string cert_key;
  std::string ca;
};

// The PSK identity both sides name (the key file is the secret; there is one per deployment).
inline constexpr const char* kPskIdentity = "rdmabench";

// Copies share one context (a server's, a client's suite and every mesh pair's).
class TlsContext {
 public:
  enum class Role { kClient, kServer };

  // Throws Error(kInternal) when libssl cannot make a context.
  static TlsContext with_key(Role role, const SharedKey& key);
  // Throws Error(kUsage) naming the file that cannot be read or does not match.
  static TlsContext with_certificates(Role role, const CertificateFiles& files);

  ssl_ctx_st* get() const noexcept { return ctx_.get(); }
  Role role() const noexcept { return role_; }
  // Whether peers prove themselves with certificates (a client then checks the server's name).
  bool uses_certificates() const noexcept { return psk_ == nullptr; }

 private:
  TlsContext(Role role, std::shared_ptr<ssl_ctx_st> ctx, std::shared_ptr<const std::string> psk)
      : role_(role), ctx_(std::move(ctx)), psk_(std::move(psk)) {}

  Role role_;
  std::shared_ptr<ssl_ctx_st> ctx_;         // shared by copies: sessions made from it share it too
  std::shared_ptr<const std::string> psk_;  // the key's TLS secret, where the callbacks find it
};

// What a command was given to secure its control channel: --key FILE, or --cert, --cert-key and
// --ca (cli/channel_security_options.h reads them, one parser for serve, run, search and mesh).
struct ChannelCredentials {
  std::optional<SharedKey> key;
  std::string key_file;  // as given
  std::optional<CertificateFiles> certificates;

  // The context for `role`; nullopt when neither was given (the channel stays in clear).
  std::optional<TlsContext> context(TlsContext::Role role) const;
  // The options that give these again (a command line printed for a user to rerun).
  std::vector<std::string> arguments() const;
};

// What libssl's error queue says, as one line (emptied on the way); `fallback` when it is empty.
std::string tls_error_text(const std::string& fallback);

}  // namespace rdmabench
