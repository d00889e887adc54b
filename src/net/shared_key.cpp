#include "net/shared_key.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "core/error.h"

namespace rdmabench {

namespace {

constexpr size_t kShortestKey = 16;
constexpr size_t kLongestKey = 4096;
constexpr const char* kMakeOne =
    "make one with `head -c 32 /dev/urandom | base64 > FILE && chmod 600 FILE` and give "
    "the same file to both sides";

std::string hex(const unsigned char* data, size_t length) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  for (size_t i = 0; i < length; ++i) {
    text += kDigits[data[i] >> 4];
    text += kDigits[data[i] & 15];
  }
  return text;
}

}  // namespace

SharedKey SharedKey::from_file(const std::string& path) {
  auto bad = [&](const std::string& why) {
    return Error(ExitCode::kUsage, "--key " + path + ": " + why + "; " + kMakeOne);
  };
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) throw bad("cannot read it");
  if (!S_ISREG(st.st_mode)) throw bad("not a regular file");
  if ((st.st_mode & 077) != 0) throw bad("readable or writable by others (chmod 600 it)");
  if (st.st_size > static_cast<off_t>(kLongestKey + 1)) throw bad("longer than 4096 bytes");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw bad("cannot read it");
  std::string bytes = text.str();
  if (!bytes.empty() && bytes.back() == '\n') bytes.pop_back();
  if (bytes.size() < kShortestKey) throw bad("shorter than 16 bytes");
  return SharedKey(std::move(bytes));
}

SharedKey SharedKey::from_bytes(std::string bytes) {
  return SharedKey(std::move(bytes));
}

std::string SharedKey::respond(const std::string& challenge) const {
  const std::string message = "rdmabench-auth-1:" + challenge;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), bytes_.data(), static_cast<int>(bytes_.size()),
           reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest,
           &length) == nullptr)
    throw Error(ExitCode::kInternal, "HMAC-SHA256 (libcrypto) failed");
  return hex(digest, length);
}

bool SharedKey::accepts(const std::string& challenge, const std::string& response) const {
  const std::string expected = respond(challenge);
  return response.size() == expected.size() &&
         CRYPTO_memcmp(expected.data(), response.data(), expected.size()) == 0;
}

std::string new_challenge() {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1)
    throw Error(ExitCode::kInternal, "RAND_bytes (libcrypto) failed: no challenge for the client");
  return hex(bytes, sizeof(bytes));
}

}  // namespace rdmabench
