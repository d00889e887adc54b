// What a server left running refuses: addresses outside --allow, a key file anyone can read,
// and specs over the operator's caps, each with an error that names what refused it.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "channel/address_allow_list.h"
#include "channel/shared_key.h"
#include "core/error.h"
#include "datapath/endpoint.h"
#include "session/server_caps.h"
#include "spec_fixture.h"

using namespace rdmabench;

namespace {

std::string error_text(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return std::to_string(static_cast<int>(e.exit_code())) + " " + e.what();
  }
  return "no error";
}

}  // namespace

TEST(AddressAllowList, NetworksOfBothFamilies) {
  const AddressAllowList list = AddressAllowList::parse("10.0.0.0/8, 192.168.1.7,fd00::/8");
  EXPECT_TRUE(list.allows("10.200.3.4"));
  EXPECT_TRUE(list.allows("192.168.1.7"));
  EXPECT_FALSE(list.allows("192.168.1.8"));
  EXPECT_TRUE(list.allows("fd12::5"));
  EXPECT_FALSE(list.allows("fe80::1"));
  EXPECT_FALSE(list.allows("127.0.0.1"));
  EXPECT_FALSE(list.allows("garbage"));
  EXPECT_TRUE(AddressAllowList::parse("10.1.2.3/31").allows("10.1.2.2"));
  EXPECT_FALSE(AddressAllowList::parse("10.1.2.3/31").allows("10.1.2.4"));
  EXPECT_TRUE(AddressAllowList::parse("0.0.0.0/0").allows("8.8.8.8"));
  EXPECT_TRUE(AddressAllowList().allows("8.8.8.8"));  // no --allow: everyone
  EXPECT_EQ(list.text(), "10.0.0.0/8, 192.168.1.7, fd00::/8");
}

TEST(AddressAllowList, BadItemsAreUsageErrorsNamingThem) {
  EXPECT_EQ(error_text([] { AddressAllowList::parse("10.0.0.0/33"); }),
            "2 --allow '10.0.0.0/33': the prefix length must be 0 to 32 (examples: 10.0.0.0/8, "
            "192.168.1.7, fd00::/8)");
  EXPECT_NE(error_text([] { AddressAllowList::parse("host.example"); }).find("not an IPv4"),
            std::string::npos);
  EXPECT_NE(error_text([] { AddressAllowList::parse(","); }), "no error");
  EXPECT_NE(error_text([] { AddressAllowList::parse("10.0.0.0/"); }), "no error");
}

TEST(SharedKey, TheTlsSecretIsPbkdf2OfTheFilesBytes) {
  const SharedKey key = SharedKey::from_bytes("0123456789abcdef0123456789abcdef");
  EXPECT_EQ(key.tls_secret().size(), 32u);
  EXPECT_NE(SharedKey::from_bytes("0123456789abcdef0123456789abcdeF").tls_secret(),
            key.tls_secret());
  // The secret, fixed (what `openssl s_client -psk` takes, in hex). Python:
  // hashlib.pbkdf2_hmac("sha256", KEY, b"rdmabench key file, version 3", 200000).hex()
  EXPECT_EQ(hex_text(key.tls_secret()),
            "b02cd338546e9d62632bcea76ed65dd086c2b506428c527ebe9d8acf54835009");
  const std::string token = new_challenge();
  EXPECT_EQ(token.size(), 64u);
  EXPECT_NE(new_challenge(), token);
}

TEST(SharedKey, TheFileMustBeLongEnoughAndPrivate) {
  const auto path =
      std::filesystem::temp_directory_path() / ("rdmabench-key-" + std::to_string(getpid()));
  std::ofstream(path) << "short\n";
  chmod(path.c_str(), 0600);
  EXPECT_NE(error_text([&] { SharedKey::from_file(path); }).find("shorter than 32 bytes"),
            std::string::npos);
  std::ofstream(path) << "a long enough secret for the test, 32+\n";
  chmod(path.c_str(), 0644);
  EXPECT_NE(error_text([&] { SharedKey::from_file(path); }).find("chmod 600"), std::string::npos);
  chmod(path.c_str(), 0600);
  EXPECT_EQ(SharedKey::from_file(path).tls_secret(),
            SharedKey::from_bytes("a long enough secret for the test, 32+").tls_secret());
  std::filesystem::remove(path);
  EXPECT_NE(error_text([&] { SharedKey::from_file(path); }).find("cannot read it"),
            std::string::npos);
}

// The key file is opened once, not through a link, and judged on what was opened: a link to a
// private key, a file owned by another user (a root-run server would take anyone's), a FIFO
// (which would block the server's start) are refused, each saying why.
TEST(SharedKey, TheFileIsOpenedOnceNotThroughALinkAndMustBeTheUsersOwn) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("rdmabench-keydir-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const auto key = dir / "key";
  std::ofstream(key) << "a long enough secret for the test, 32+\n";
  chmod(key.c_str(), 0600);
  const auto link = dir / "link";
  std::filesystem::create_symlink(key, link);
  EXPECT_NE(error_text([&] { SharedKey::from_file(link); }).find("a symbolic link"),
            std::string::npos)
      << error_text([&] { SharedKey::from_file(link); });
  const auto fifo = dir / "fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(error_text([&] { SharedKey::from_file(fifo); }).find("not a regular file"),
            std::string::npos);
  if (geteuid() == 0) {  // only root can give a file away
    ASSERT_EQ(chown(key.c_str(), 65534, 65534), 0);
    EXPECT_NE(error_text([&] { SharedKey::from_file(key); }).find("owned by user 65534"),
              std::string::npos)
        << error_text([&] { SharedKey::from_file(key); });
  } else {
    EXPECT_EQ(SharedKey::from_file(key).tls_secret(),
              SharedKey::from_bytes("a long enough secret for the test, 32+").tls_secret());
  }
  const auto escaped = dir / "k\x1b[2J";
  EXPECT_EQ(error_text([&] { SharedKey::from_file(escaped); }).find('\x1b'), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(ServerCaps, SpecsOverACapAreRefusedNamingIt) {
  ServerCaps caps;
  caps.max_qps = 4;
  caps.max_threads = 2;
  caps.max_memory_bytes = 64ull << 20;
  TestSpec spec = a_spec();
  EXPECT_EQ(error_text([&] { check_spec_within(caps, spec); }), "no error");
  spec.qps = 8;
  EXPECT_EQ(error_text([&] { check_spec_within(caps, spec); }),
            "2 write/bw/busy/65536/qps:8 asks 8 QPs, more than this server allows (--max-qps 4); "
            "ask for less, or ask its operator");
  spec.qps = 2;
  spec.threads = 3;
  EXPECT_NE(error_text([&] { check_spec_within(caps, spec); }).find("(--max-threads 2)"),
            std::string::npos);
  spec.threads = 1;
  spec.size = 8ull << 20;
  spec.pattern = *parse_pattern("send");
  spec.verify = true;  // the server receives into a ring of 64 MiB a side
  EXPECT_NE(error_text([&] { check_spec_within(caps, spec); }).find("(--max-memory 64 MiB)"),
            std::string::npos);
  spec.verify = false;  // into one slot of 8 MiB beside its send slot: within the cap
  EXPECT_EQ(error_text([&] { check_spec_within(caps, spec); }), "no error");
  EXPECT_EQ(caps.describe(), "--max-memory 64 MiB, --max-qps 4, --max-threads 2");
}

TEST(ServerCaps, MaxMemoryCountsWhatIsReallyPinned) {
  // Before: hugepage buffers were counted at their bytes, not the 2 MiB pages they take;
  // --srq's ring and the queues not at all; and a product of huge values wrapped around.
  ServerCaps caps;
  caps.max_memory_bytes = 4ull << 20;
  TestSpec spec = a_spec();  // write bw, 64 KiB
  spec.size = 4096;
  spec.qps = 4;
  spec.threads = 1;
  EXPECT_EQ(error_text([&] { check_spec_within(caps, spec); }), "no error");
  spec.hugepages = true;  // four buffers of one 2 MiB page each
  EXPECT_GE(registered_bytes(spec, Side::kServer), 8ull << 20);
  EXPECT_NE(error_text([&] { check_spec_within(caps, spec); }).find("(--max-memory 4 MiB)"),
            std::string::npos);
  spec.hugepages = false;
  spec.pattern = *parse_pattern("send");
  const uint64_t without = registered_bytes(spec, Side::kServer);
  spec.srq = true;  // the shared ring is registered beside the QPs' own buffers
  EXPECT_GT(registered_bytes(spec, Side::kServer), without);
  spec.srq = false;
  const uint64_t shallow = registered_bytes(spec, Side::kServer);
  spec.tx_depth = 8192;  // the queues' entries count too
  EXPECT_GE(registered_bytes(spec, Side::kServer), shallow + uint64_t{4} * 7000 * 64);
  spec.size = 1ull << 62;
  spec.qps = 1u << 20;
  EXPECT_EQ(registered_bytes(spec, Side::kServer), UINT64_MAX);  // saturates, never wraps
  // Before: one QP of 2^63-byte messages wrapped its buffer's count to a few bytes, under any cap.
  spec.qps = 1;
  for (const char* pattern : {"write", "send"})
    for (const bool srq : {false, true}) {
      spec.pattern = *parse_pattern(pattern);
      spec.srq = srq && spec.pattern.name() == "send";
      for (const uint64_t size : {uint64_t{1} << 63, UINT64_MAX - 10, (uint64_t{3} << 62)}) {
        spec.size = size;
        EXPECT_EQ(registered_bytes(spec, Side::kServer), UINT64_MAX) << pattern << " " << size;
        EXPECT_NE(error_text([&] { check_spec_within(caps, spec); }).find("(--max-memory 4 MiB)"),
                  std::string::npos);
      }
    }
}

// Without --max-memory a server pins at most this host's default for one client (half its
// memory, say), and takes at most half its reserved huge pages: each refusal says so and how
// to change it.
TEST(ServerCaps, TheHostsDefaultsCapWhatNoOperatorCapped) {
  ServerCaps caps;
  caps.max_memory_bytes = 32ull << 20;
  caps.max_memory_default = "half this host's memory (64 MiB)";
  caps.max_huge_page_bytes = 4ull << 20;
  caps.max_huge_page_default = "half this host's reserved huge pages (8 MiB)";
  TestSpec spec = a_spec();  // write bw, 64 KiB
  spec.qps = 1;
  EXPECT_EQ(error_text([&] { check_spec_within(caps, spec); }), "no error");
  spec.qps = 1024;  // 64 MiB of buffers
  EXPECT_NE(error_text([&] { check_spec_within(caps, spec); })
                .find("(--max-memory 32 MiB by default: half this host's memory (64 MiB); the "
                      "server's --max-memory sets it)"),
            std::string::npos)
      << error_text([&] { check_spec_within(caps, spec); });
  spec.qps = 4;  // four 2 MiB pages and the queues: over the huge pages' cap, not the memory's
  spec.hugepages = true;
  EXPECT_NE(error_text([&] { check_spec_within(caps, spec); })
                .find("of huge pages on the server, more than this server allows (huge pages "
                      "4 MiB by default"),
            std::string::npos)
      << error_text([&] { check_spec_within(caps, spec); });
  EXPECT_EQ(caps.describe(),
            "--max-memory 32 MiB (default: half this host's memory (64 MiB)), huge pages 4 MiB "
            "(default: half this host's reserved huge pages (8 MiB))");
}

TEST(ServerCaps, ARunMustFitWhatIsLeftOfTheSession) {
  ServerCaps caps;
  EXPECT_EQ(error_text([&] { check_run_within(caps, 1ull << 60, std::chrono::milliseconds(0)); }),
            "no error");  // no --max-duration
  caps.max_duration = std::chrono::seconds(10);
  EXPECT_EQ(error_text([&] { check_run_within(caps, 5'000'000'000, std::chrono::seconds(6)); }),
            "no error");
  EXPECT_NE(error_text([&] {
              check_run_within(caps, 8'000'000'000, std::chrono::seconds(6));
            }).find("a run of 8 s with 6 s of the session left"),
            std::string::npos);
  EXPECT_NE(error_text([&] {
              check_run_within(caps, 0, std::chrono::milliseconds(0));
            }).find("has used its time"),
            std::string::npos);
}
