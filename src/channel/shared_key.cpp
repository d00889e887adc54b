#include "channel/shared_key.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "core/bounded_read.h"
#include "core/error.h"
#include "core/printable_text.h"

namespace rdmabench {

namespace {

constexpr size_t kShortestKey = 32;
constexpr size_t kLongestKey = 4096;
// PBKDF2's cost: about 0.1 s once per process on a 2020s core; a fixed salt (the key file is
// already the per-deployment secret; the salt only keeps precomputed tables of other
// protocols out).
constexpr int kKdfIterations = 200'000;
constexpr std::string_view kKdfSalt = "rdmabench key file, version 3";
constexpr const char* kMakeOne =
    "make one with `head -c 32 /dev/urandom | base64 > FILE && chmod 600 FILE` and give "
    "the same file to both sides";

std::string derived_key(std::string_view secret) {
  unsigned char out[32];
  if (PKCS5_PBKDF2_HMAC(secret.data(), static_cast<int>(secret.size()),
                        reinterpret_cast<const unsigned char*>(kKdfSalt.data()),
                        static_cast<int>(kKdfSalt.size()), kKdfIterations, EVP_sha256(),
                        sizeof(out), out) != 1)
    throw Error(ExitCode::kInternal, "PKCS5_PBKDF2_HMAC (libcrypto) failed");
  return std::string(reinterpret_cast<const char*>(out), sizeof(out));
}

}  // namespace

std::string hex_text(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string text;
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    text += kDigits[b >> 4];
    text += kDigits[b & 15];
  }
  return text;
}

namespace {

// The key file's descriptor, opened once and never through a link; closed on every way out.
class KeyFileDescriptor {
 public:
  explicit KeyFileDescriptor(const std::string& path)
      : fd_(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)) {}
  ~KeyFileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  KeyFileDescriptor(const KeyFileDescriptor&) = delete;
  KeyFileDescriptor& operator=(const KeyFileDescriptor&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

SharedKey SharedKey::from_file(const std::string& path) {
  auto bad = [&](const std::string& why) {
    return Error(ExitCode::kUsage, "--key " + printable(path) + ": " + why + "; " + kMakeOne);
  };
  const KeyFileDescriptor file(path);
  if (file.fd() < 0 && errno == ELOOP) throw bad("a symbolic link (name the file itself)");
  if (file.fd() < 0) throw bad(std::string("cannot read it: ") + std::strerror(errno));
  struct stat st {};
  if (fstat(file.fd(), &st) != 0) throw bad("cannot read it");
  if (!S_ISREG(st.st_mode)) throw bad("not a regular file");
  if (st.st_uid != geteuid())
    throw bad("owned by user " + std::to_string(st.st_uid) + ", not by this user (" +
              std::to_string(geteuid()) + "): chown it");
  if ((st.st_mode & 077) != 0) throw bad("readable or writable by others (chmod 600 it)");
  // A key and its line's end at most: one byte more tells a longer file.
  std::optional<std::string> read = read_up_to(file.fd(), kLongestKey + 2);
  if (!read) throw bad(std::string("cannot read it: ") + std::strerror(errno));
  std::string bytes = std::move(*read);
  if (bytes.size() > kLongestKey + 1) throw bad("longer than 4096 bytes");
  if (!bytes.empty() && bytes.back() == '\n') bytes.pop_back();
  if (bytes.size() < kShortestKey) throw bad("shorter than 32 bytes");
  return SharedKey(derived_key(bytes));
}

SharedKey SharedKey::from_bytes(std::string_view secret) {
  return SharedKey(derived_key(secret));
}

std::string new_challenge() {
  unsigned char bytes[32];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1)
    throw Error(ExitCode::kInternal, "RAND_bytes (libcrypto) failed: no random bytes for a token");
  return hex_text(std::string_view(reinterpret_cast<const char*>(bytes), sizeof(bytes)));
}

}  // namespace rdmabench
