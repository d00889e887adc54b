// `--key FILE` on both sides: a shared secret that keys the control channel's TLS 1.3 as an
// external pre-shared key (channel/tls_context.h). The file's bytes go through PBKDF2 first, so
// a recorded handshake does not make guessing a weak key cheap: the TLS secret is
// PBKDF2-HMAC-SHA256(file, "rdmabench key file, version 3", 200000 rounds, 32 bytes), which is
// also what `openssl s_client -psk` takes, in hex.
#pragma once

#include <string>
#include <string_view>

namespace rdmabench {

class SharedKey {
 public:
  // Reads the key file: at least 32 bytes (a trailing newline is not part of the key), at
  // most 4096, readable by its owner alone (like ssh's keys). Throws Error(kUsage) saying
  // what is wrong and how to make one (`head -c 32 /dev/urandom | base64 > FILE; chmod 600`).
  static SharedKey from_file(const std::string& path);
  static SharedKey from_bytes(std::string_view secret);  // tests: derived as from_file's

  // The TLS pre-shared key: 32 bytes derived from the file.
  const std::string& tls_secret() const noexcept { return derived_; }

 private:
  explicit SharedKey(std::string derived) : derived_(std::move(derived)) {}
  std::string derived_;  // PBKDF2-HMAC-SHA256 of the file's bytes: 32 bytes
};

// `bytes` as lowercase hex.
std::string hex_text(std::string_view bytes);

// 32 random bytes from the system's generator, as hex (rdma_cm's connection token).
std::string new_challenge();

}  // namespace rdmabench
