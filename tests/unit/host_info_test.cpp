#include "host/host_info.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace rdmabench;

namespace {

// Three stanzas as /var/lib/dpkg/status holds them: a wrapped field, a package removed with
// its configuration kept, and the one asked for.
constexpr const char* kStatus =
    "Package: rdma-core-extra\n"
    "Status: install ok installed\n"
    "Version: 1.0\n"
    "Description: not this one\n"
    " Package: rdma-core\n"
    " Version: 9.9\n"
    "\n"
    "Package: librdmacm1\n"
    "Status: deinstall ok config-files\n"
    "Version: 43.0-1\n"
    "\n"
    "Package: rdma-core\n"
    "Status: install ok installed\n"
    "Priority: optional\n"
    "Version: 44.0-2\n"
    "\n";

std::string version_of(const std::string& status, std::string_view package) {
  std::istringstream in(status);
  return installed_package_version(in, package);
}

}  // namespace

TEST(HostInfo, ThePackagesOwnStanzaGivesItsVersion) {
  EXPECT_EQ(version_of(kStatus, "rdma-core"), "44.0-2");
  EXPECT_EQ(version_of(kStatus, "rdma-core-extra"), "1.0");
}

TEST(HostInfo, APackageNotInstalledHasNoVersion) {
  EXPECT_EQ(version_of(kStatus, "librdmacm1"), "");  // only its configuration is left
  EXPECT_EQ(version_of(kStatus, "perftest"), "");
  EXPECT_EQ(version_of("", "rdma-core"), "");
}

TEST(HostInfo, AStanzaWithoutABlankLineAtTheEndStillCounts) {
  EXPECT_EQ(version_of("Version: 2\nPackage: rdma-core\nStatus: install ok installed", "rdma-core"),
            "2");
}

TEST(HostInfo, GarbageIsNoVersion) {
  EXPECT_EQ(version_of("Package rdma-core\nVersion 44\n\n\n:::\n", "rdma-core"), "");
  EXPECT_EQ(version_of(std::string(100000, 'x'), "rdma-core"), "");
}

TEST(RdmaCoreDescription, TheSystemsLibraryIsThePackagesVersion) {
  EXPECT_EQ(rdma_core_description("44.0-2", "/usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.44.0"),
            "44.0-2");
  EXPECT_EQ(rdma_core_description("44.0-2", "/lib/x86_64-linux-gnu/libibverbs.so.1"), "44.0-2");
  EXPECT_EQ(rdma_core_description("44.0-2", ""), "44.0-2");  // the loader could not say
}

TEST(RdmaCoreDescription, ABuildTreeIsNamedWithTheInstalledVersionBeside) {
  EXPECT_EQ(rdma_core_description("44.0-2", "/src/rdma-core/build/lib/libibverbs.so.1.14.44.0"),
            "build in /src/rdma-core/build/lib (installed: 44.0-2)");
  EXPECT_EQ(rdma_core_description("unknown", "/usr/local/lib/libibverbs.so.1"),
            "build in /usr/local/lib (installed: unknown)");
}
