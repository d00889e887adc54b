// `--key FILE` on both sides: a shared secret that proves a client may use a server, by
// challenge and response over the control channel (HMAC-SHA256 from OpenSSL's libcrypto);
// the secret never crosses the wire. The server's hello carries a fresh random challenge; the
// client answers HMAC(key, "rdmabench-auth-1:" + challenge) before anything else.
#pragma once

#include <string>

namespace rdmabench {

class SharedKey {
 public:
  // Reads the key file: at least 16 bytes (a trailing newline is not part of the key), at
  // most 4096, readable by its owner alone (like ssh's keys). Throws Error(kUsage) saying
  // what is wrong and how to make one (`head -c 32 /dev/urandom | base64 > FILE; chmod 600`).
  static SharedKey from_file(const std::string& path);
  static SharedKey from_bytes(std::string bytes);  // tests

  // The response to `challenge`, as lowercase hex.
  std::string respond(const std::string& challenge) const;
  // Whether `response` is the right one, compared in constant time.
  bool accepts(const std::string& challenge, const std::string& response) const;

 private:
  explicit SharedKey(std::string bytes) : bytes_(std::move(bytes)) {}
  std::string bytes_;
};

// 32 random bytes from the system's generator, as hex: each client's challenge.
std::string new_challenge();

}  // namespace rdmabench
