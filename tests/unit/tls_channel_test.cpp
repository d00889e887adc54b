// The control channel over TLS 1.3 (issue 65: a standard secure channel instead of the keyed
// handshake and sealing made by hand), against the real server loop on loopback: a key as an
// external PSK, certificates with a CA, each mutual; a client or server of the other kind
// refused with the reason, in clear; nothing of a message on the wire in clear; and `openssl
// s_client` completing the handshake with the key.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "core/version.h"
#include "listening_port.h"
#include "messages/control_channel.h"
#include "messages/protocol_version.h"
#include "server_thread.h"
#include "session/client_session.h"
#include "session/server.h"

namespace rdmabench {
namespace {

using namespace std::chrono_literals;
using testing::log_shows;
using testing::port_of;
using testing::ServerThread;
using testing::SharedLog;

const SharedKey& operators_key() {
  static const SharedKey key = SharedKey::from_bytes("the operator's key, 32 bytes or more");
  return key;
}

// What a client with `tls` (none: in clear) makes of a server with `server_tls`: "" when it is
// served (its hello read), else its error and exit code.
struct Outcome {
  std::string error;
  ExitCode code = ExitCode::kOk;
  std::string log;
};

Outcome session_with(const std::optional<TlsContext>& server_tls, const TlsContext* client_tls,
                     const std::string& host = "127.0.0.1") {
  TcpSocket listener = TcpSocket::listen(0);
  ServerOptions options;
  options.once = true;
  options.timeout = 5s;
  options.tls = server_tls;
  SharedLog log_buffer;
  std::ostream log(&log_buffer);
  Outcome outcome;
  {
    ServerThread server(listener, options, log);
    try {
      ClientSession session({host, port_of(listener)}, BootstrapOptions::client(host, {}, 5000ms),
                            client_tls);
      EXPECT_FALSE(session.server().hostname.empty());
    } catch (const Error& e) {
      outcome.error = e.what();
      outcome.code = e.exit_code();
    }
    const auto ended = [&] {  // done, dropped, or refused before it was in
      const std::string text = log_buffer.text();
      return text.find(" done [") != std::string::npos ||
             text.find(" dropped: ") != std::string::npos ||
             text.find(": refused, ") != std::string::npos;
    };
    for (int i = 0; i < 1000 && !ended(); ++i) std::this_thread::sleep_for(10ms);
  }
  outcome.log = log_buffer.text();
  return outcome;
}

TlsContext keyed(TlsContext::Role role, const SharedKey& key = operators_key()) {
  return TlsContext::with_key(role, key);
}

TEST(TlsChannel, AClientWithTheKeyIsServedOverTls) {
  const TlsContext client = keyed(TlsContext::Role::kClient);
  const Outcome o = session_with(keyed(TlsContext::Role::kServer), &client);
  EXPECT_EQ(o.error, "");
  EXPECT_NE(o.log.find("client 127.0.0.1 done"), std::string::npos) << o.log;
}

TEST(TlsChannel, AnotherKeyFailsTheHandshakeOnBothSidesSayingWhy) {
  const TlsContext client =
      keyed(TlsContext::Role::kClient, SharedKey::from_bytes("someone else's key, 32 bytes+"));
  const Outcome o = session_with(keyed(TlsContext::Role::kServer), &client);
  EXPECT_EQ(o.code, ExitCode::kConnection);
  EXPECT_NE(o.error.find("TLS handshake with 127.0.0.1 failed"), std::string::npos) << o.error;
  EXPECT_NE(o.error.find("a different --key file on each side"), std::string::npos) << o.error;
  EXPECT_NE(o.log.find("client 127.0.0.1: refused, control channel: TLS handshake with 127.0.0.1 "
                       "failed"),
            std::string::npos)
      << o.log;
}

TEST(TlsChannel, AClientInClearHearsThatTheServerAsksForAKey) {
  const Outcome o = session_with(keyed(TlsContext::Role::kServer), nullptr);
  EXPECT_EQ(o.code, ExitCode::kConnection);
  EXPECT_NE(o.error.find("asks for a key (serve --key): give --key FILE"), std::string::npos)
      << o.error;
}

TEST(TlsChannel, AClientWithAKeyRefusesAServerInClear) {
  const TlsContext client = keyed(TlsContext::Role::kClient);
  const Outcome o = session_with(std::nullopt, &client);
  EXPECT_EQ(o.code, ExitCode::kConnection);
  EXPECT_NE(o.error.find("asks for no key"), std::string::npos) << o.error;
}

// Relays one connection between a client and `port`, keeping every byte each way.
class RecordingRelay {
 public:
  explicit RecordingRelay(uint16_t port)
      : listener_(TcpSocket::listen(0)), thread_([this, port] { relay(port); }) {}
  ~RecordingRelay() { thread_.join(); }
  uint16_t port() const { return port_of(listener_); }
  std::string both_ways() {
    thread_.join();
    thread_ = std::thread([] {});
    return seen_;
  }

 private:
  void relay(uint16_t port) {
    std::optional<TcpSocket> client = listener_.accept(-1);
    if (!client) return;
    TcpSocket server = TcpSocket::connect("127.0.0.1", port, 5000ms);
    std::array<pollfd, 2> fds = {pollfd{client->fd(), POLLIN, 0}, pollfd{server.fd(), POLLIN, 0}};
    for (;;) {
      if (poll(fds.data(), fds.size(), 10000) <= 0) return;
      for (size_t i = 0; i < fds.size(); ++i) {
        if (!(fds[i].revents & (POLLIN | POLLHUP))) continue;
        char buf[4096];
        const ssize_t n = read(fds[i].fd, buf, sizeof(buf));
        if (n <= 0) return;
        seen_.append(buf, static_cast<size_t>(n));
        if (write(fds[1 - i].fd, buf, static_cast<size_t>(n)) != n) return;
      }
    }
  }

  TcpSocket listener_;
  std::string seen_;
  std::thread thread_;
};

TEST(TlsChannel, NothingOfAMessageCrossesTheWireInClear) {
  TcpSocket listener = TcpSocket::listen(0);
  ServerOptions options;
  options.once = true;
  options.tls = keyed(TlsContext::Role::kServer);
  SharedLog log_buffer;
  std::ostream log(&log_buffer);
  ServerThread server(listener, options, log);
  RecordingRelay relay(port_of(listener));
  const TlsContext client = keyed(TlsContext::Role::kClient);
  {
    ClientSession session({"127.0.0.1", relay.port()},
                          BootstrapOptions::client("127.0.0.1", {}, 5000ms), &client);
    EXPECT_EQ(session.server().version, kVersion);
  }
  const std::string wire = relay.both_ways();
  ASSERT_GT(wire.size(), 200u);
  EXPECT_EQ(static_cast<unsigned char>(wire[0]), 0x16);  // a TLS handshake record first
  // (none short enough to turn up by chance in a few kB of ciphertext)
  for (const char* clear : {"\"type\"", "hello", "protocol", "hostname", "s_client", kVersion})
    EXPECT_EQ(wire.find(clear), std::string::npos) << clear;
}

std::string shell_output(const std::string& command) {
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buf[4096];
    while (const size_t n = fread(buf, 1, sizeof(buf), pipe)) out.append(buf, n);
    pclose(pipe);
  }
  return out;
}

TEST(TlsChannel, OpensslSClientCompletesATls13HandshakeWithTheKey) {
  TcpSocket listener = TcpSocket::listen(0);
  ServerOptions options;
  options.once = true;
  options.tls = keyed(TlsContext::Role::kServer);
  SharedLog log_buffer;
  std::ostream log(&log_buffer);
  ServerThread server(listener, options, log);
  const std::string hello = R"({"type":"hello","protocol":)" +
                            std::to_string(kControlProtocolVersion) + R"(,"version":"s_client"})";
  const std::string said =
      shell_output("printf '%s\\n%s\\n' '" + hello +
                   "' '{\"type\":\"bye\"}' | timeout 20 openssl s_client "
                   "-connect 127.0.0.1:" +
                   std::to_string(port_of(listener)) +
                   " -tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256 -psk_identity rdmabench -psk " +
                   hex_text(operators_key().tls_secret()) + " -brief -ign_eof 2>&1");
  EXPECT_NE(said.find("Protocol version: TLSv1.3"), std::string::npos) << said;
  EXPECT_NE(said.find(R"("hostname":)"), std::string::npos) << said;  // the server's hello
  EXPECT_TRUE(log_shows(log_buffer, "client 127.0.0.1 done", 10s)) << log_buffer.text();
}

// A CA, and certificates it signs for 127.0.0.1 (a server's) and a client, made by `openssl`
// in a directory of their own; another CA's client certificate beside them.
class Certificates {
 public:
  Certificates()
      : dir_(std::filesystem::temp_directory_path() /
             ("rdmabench-certs-" + std::to_string(getpid()))) {
    std::filesystem::create_directories(dir_);
    make_ca("ca");
    make_ca("rogue-ca");
    sign("server", "ca", "IP:127.0.0.1");
    sign("elsewhere", "ca", "IP:127.0.0.2");
    sign("client", "ca", "DNS:client.example");
    sign("rogue", "rogue-ca", "DNS:client.example");
  }
  ~Certificates() { std::filesystem::remove_all(dir_); }
  CertificateFiles files(const std::string& name, const std::string& ca = "ca") const {
    return {path(name + ".pem"), path(name + ".key"), path(ca + ".pem")};
  }

 private:
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void run(const std::string& command) const {
    const std::string out = shell_output("cd " + dir_.string() + " && (" + command + ") 2>&1");
    ASSERT_TRUE(std::filesystem::exists(dir_ / "done")) << command << "\n" << out;
    std::filesystem::remove(dir_ / "done");
  }
  void make_ca(const std::string& name) const {
    run("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout " + name +
        ".key -out " + name + ".pem -days 2 -subj /CN=" + name + " && touch done");
  }
  void sign(const std::string& name, const std::string& ca, const std::string& san) const {
    run("printf 'subjectAltName=" + san + "\\n' > " + name + ".ext && " +
        "openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout " + name +
        ".key -out " + name + ".csr -subj /CN=" + name + " && openssl x509 -req -in " + name +
        ".csr -CA " + ca + ".pem -CAkey " + ca + ".key -CAcreateserial -days 2 -out " + name +
        ".pem -extfile " + name + ".ext && touch done");
  }

  std::filesystem::path dir_;
};

TEST(TlsChannel, CertificatesTheCaSignedAreServedBothWaysAndOthersRefused) {
  const Certificates certs;
  using Role = TlsContext::Role;
  const auto server = TlsContext::with_certificates(Role::kServer, certs.files("server"));
  const auto client = TlsContext::with_certificates(Role::kClient, certs.files("client"));
  EXPECT_EQ(session_with(server, &client).error, "");
  // A client certificate another CA signed: the server refuses it.
  const auto rogue = TlsContext::with_certificates(Role::kClient, certs.files("rogue", "rogue-ca"));
  const Outcome refused = session_with(server, &rogue);
  EXPECT_EQ(refused.code, ExitCode::kConnection);
  EXPECT_NE(refused.log.find("refused, control channel: TLS handshake"), std::string::npos)
      << refused.log;
  // A server whose certificate names another address: the client refuses it.
  const auto elsewhere = TlsContext::with_certificates(Role::kServer, certs.files("elsewhere"));
  const Outcome misnamed = session_with(elsewhere, &client);
  EXPECT_EQ(misnamed.code, ExitCode::kConnection);
  EXPECT_NE(misnamed.error.find("certificate"), std::string::npos) << misnamed.error;
  // A key where certificates are asked for: refused in the handshake.
  const TlsContext with_key = keyed(Role::kClient);
  EXPECT_EQ(session_with(server, &with_key).code, ExitCode::kConnection);
}

TEST(TlsChannel, ACertificateFileThatCannotBeUsedIsAUsageErrorNamingIt) {
  const Certificates certs;
  CertificateFiles files = certs.files("server");
  files.cert_key = certs.files("client").cert_key;  // not the certificate's key
  try {
    (void)TlsContext::with_certificates(TlsContext::Role::kServer, files);
    ADD_FAILURE() << "a key of another certificate was taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), ExitCode::kUsage);
    EXPECT_NE(std::string(e.what()).find("--cert-key"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rdmabench
