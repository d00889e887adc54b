// `--key FILE` on both sides: a shared secret each side proves it holds to the other, over the
// control channel, without sending it (HMAC-SHA256 from OpenSSL's libcrypto). Each side brings
// a fresh random nonce; each proves the key over both nonces, and both derive from them a
// session key that authenticates every control message after (control/message_auth.h). The file's
// bytes go through PBKDF2 first, so one captured exchange does not make guessing a weak key
// cheap.
#pragma once

#include <initializer_list>
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

  // HMAC-SHA256 under the derived key of `parts` (each length-prefixed, so no two lists of
  // parts give the same input), as lowercase hex.
  std::string proof(std::initializer_list<std::string_view> parts) const;
  // Whether `hex` is proof(parts), compared in constant time.
  bool verifies(std::string_view hex, std::initializer_list<std::string_view> parts) const;
  // The raw 32-byte HMAC of `parts`: a session key.
  std::string derive(std::initializer_list<std::string_view> parts) const;

 private:
  explicit SharedKey(std::string derived) : derived_(std::move(derived)) {}
  std::string derived_;  // PBKDF2-HMAC-SHA256 of the file's bytes: 32 bytes
};

// The raw HMAC-SHA256 of `parts` (each length-prefixed) under `key`.
std::string hmac_sha256(std::string_view key, std::initializer_list<std::string_view> parts);
// `bytes` as lowercase hex.
std::string hex_text(std::string_view bytes);
// Whether two texts are equal, in time that depends on their length alone.
bool equal_in_constant_time(std::string_view a, std::string_view b);

// 32 random bytes from the system's generator, as hex: each side's nonce.
std::string new_challenge();

}  // namespace rdmabench
