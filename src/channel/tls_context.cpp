#include "channel/tls_context.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <cstring>

#include "core/error.h"
#include "core/printable_text.h"

namespace rdmabench {

namespace {

// TLS_AES_128_GCM_SHA256: the suite every TLS 1.3 implementation has, and the one `openssl
// s_client -psk` offers its key with.
constexpr unsigned char kPskSuite[] = {0x13, 0x01};

const std::string* psk_of(SSL* ssl) {
  return static_cast<const std::string*>(SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl)));
}

// A session that resumes nothing: the key, for TLS 1.3 with the PSK suite.
SSL_SESSION* psk_session(SSL* ssl) {
  const std::string* psk = psk_of(ssl);
  const SSL_CIPHER* suite = SSL_CIPHER_find(ssl, kPskSuite);
  if (psk == nullptr || suite == nullptr) return nullptr;
  SSL_SESSION* session = SSL_SESSION_new();
  if (session == nullptr ||
      SSL_SESSION_set1_master_key(session, reinterpret_cast<const unsigned char*>(psk->data()),
                                  psk->size()) != 1 ||
      SSL_SESSION_set_cipher(session, suite) != 1 ||
      SSL_SESSION_set_protocol_version(session, TLS1_3_VERSION) != 1) {
    SSL_SESSION_free(session);
    return nullptr;
  }
  return session;
}

int find_psk(SSL* ssl, const unsigned char* identity, size_t length, SSL_SESSION** session) {
  *session = nullptr;
  if (length != std::strlen(kPskIdentity) || std::memcmp(identity, kPskIdentity, length) != 0)
    return 1;  // not ours: no PSK, and without a certificate the handshake fails
  *session = psk_session(ssl);
  return *session != nullptr ? 1 : 0;
}

int use_psk(SSL* ssl, const EVP_MD* digest, const unsigned char** identity, size_t* length,
            SSL_SESSION** session) {
  *session = psk_session(ssl);
  if (*session == nullptr) return 0;
  if (digest != nullptr && SSL_CIPHER_get_handshake_digest(SSL_SESSION_get0_cipher(*session)) !=
                               digest) {  // the server chose a suite of another hash
    SSL_SESSION_free(*session);
    *session = nullptr;
    return 1;
  }
  *identity = reinterpret_cast<const unsigned char*>(kPskIdentity);
  *length = std::strlen(kPskIdentity);
  return 1;
}

std::shared_ptr<ssl_ctx_st> new_context(TlsContext::Role role) {
  std::shared_ptr<ssl_ctx_st> ctx(
      SSL_CTX_new(role == TlsContext::Role::kClient ? TLS_client_method() : TLS_server_method()),
      SSL_CTX_free);
  if (!ctx) throw Error(ExitCode::kInternal, tls_error_text("SSL_CTX_new (libssl) failed"));
  if (SSL_CTX_set_min_proto_version(ctx.get(), TLS1_3_VERSION) != 1 ||
      SSL_CTX_set_num_tickets(ctx.get(), 0) != 1)  // one session per connection, none resumed
    throw Error(ExitCode::kInternal, tls_error_text("SSL_CTX (libssl): no TLS 1.3"));
  SSL_CTX_set_options(ctx.get(), SSL_OP_NO_TICKET | SSL_OP_NO_RENEGOTIATION);
  return ctx;
}

void load(bool loaded, const std::string& what, const std::string& path) {
  if (!loaded)
    throw Error(ExitCode::kUsage,
                tls_error_text("cannot use " + what + " '" + peer_excerpt(path, 200) + "'") +
                    " (a PEM file this user can read?)");
}

}  // namespace

std::string tls_error_text(const std::string& fallback) {
  std::string text;
  while (const unsigned long code = ERR_get_error()) {
    char line[256];
    ERR_error_string_n(code, line, sizeof(line));
    if (text.empty()) text = line;  // the first is the cause; the rest say where it surfaced
  }
  return text.empty() ? fallback : fallback + ": " + text;
}

TlsContext TlsContext::with_key(Role role, const SharedKey& key) {
  auto made = new_context(role);
  auto psk = std::make_shared<const std::string>(key.tls_secret());
  SSL_CTX_set_app_data(made.get(), const_cast<std::string*>(psk.get()));
  if (role == Role::kServer)
    SSL_CTX_set_psk_find_session_callback(made.get(), find_psk);
  else
    SSL_CTX_set_psk_use_session_callback(made.get(), use_psk);
  if (SSL_CTX_set_ciphersuites(made.get(), "TLS_AES_128_GCM_SHA256") != 1)
    throw Error(ExitCode::kInternal, tls_error_text("SSL_CTX_set_ciphersuites failed"));
  return TlsContext(role, std::move(made), std::move(psk));
}

TlsContext TlsContext::with_certificates(Role role, const CertificateFiles& files) {
  auto made = new_context(role);
  SSL_CTX* ctx = made.get();
  load(SSL_CTX_use_certificate_chain_file(ctx, files.cert.c_str()) == 1, "--cert", files.cert);
  load(SSL_CTX_use_PrivateKey_file(ctx, files.cert_key.c_str(), SSL_FILETYPE_PEM) == 1,
       "--cert-key", files.cert_key);
  load(SSL_CTX_check_private_key(ctx) == 1, "--cert-key (not the key of --cert)", files.cert_key);
  load(SSL_CTX_load_verify_locations(ctx, files.ca.c_str(), nullptr) == 1, "--ca", files.ca);
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
  return TlsContext(role, std::move(made), nullptr);
}

std::optional<TlsContext> ChannelCredentials::context(TlsContext::Role role) const {
  if (key) return TlsContext::with_key(role, *key);
  if (certificates) return TlsContext::with_certificates(role, *certificates);
  return std::nullopt;
}

std::vector<std::string> ChannelCredentials::arguments() const {
  if (key) return {"--key", key_file};
  if (certificates)
    return {"--cert", certificates->cert, "--cert-key", certificates->cert_key,
            "--ca",   certificates->ca};
  return {};
}

}  // namespace rdmabench
