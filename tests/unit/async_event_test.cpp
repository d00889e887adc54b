// What each asynchronous event of a device means for a run, from the event as
// ibv_get_async_event fills it in: fatal or informational, its name, and what it concerns
// (the union member the event type makes valid).
#include "verbs/async_event.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "datapath/async_event_watch.h"

namespace rdmabench {
namespace {

TEST(AsyncEvent, APortDownIsFatalAndNamesThePort) {
  ibv_async_event e{};
  e.event_type = IBV_EVENT_PORT_ERR;
  e.element.port_num = 2;
  const AsyncEvent event = describe_async_event(e);
  EXPECT_TRUE(event.fatal);
  EXPECT_EQ(event.text(), "IBV_EVENT_PORT_ERR (port 2)");
}

TEST(AsyncEvent, AQpInErrorIsFatalAndNamesTheQp) {
  ibv_qp qp{};
  qp.qp_num = 0x11;
  for (ibv_event_type type : {IBV_EVENT_QP_FATAL, IBV_EVENT_QP_REQ_ERR, IBV_EVENT_QP_ACCESS_ERR}) {
    ibv_async_event e{};
    e.event_type = type;
    e.element.qp = &qp;
    const AsyncEvent event = describe_async_event(e);
    EXPECT_TRUE(event.fatal) << event.name;
    EXPECT_EQ(event.element, "QP 0x11");
  }
}

TEST(AsyncEvent, CqSrqAndDeviceFailuresAreFatal) {
  for (ibv_event_type type :
       {IBV_EVENT_CQ_ERR, IBV_EVENT_SRQ_ERR, IBV_EVENT_DEVICE_FATAL, IBV_EVENT_PATH_MIG_ERR})
    EXPECT_TRUE(fatal_async_event(type)) << async_event_name(type);
}

TEST(AsyncEvent, ChangesThatLeaveTheRunGoingAreInformational) {
  for (ibv_event_type type : {IBV_EVENT_PORT_ACTIVE, IBV_EVENT_PATH_MIG, IBV_EVENT_GID_CHANGE,
                              IBV_EVENT_LID_CHANGE, IBV_EVENT_COMM_EST, IBV_EVENT_SQ_DRAINED,
                              IBV_EVENT_SRQ_LIMIT_REACHED, IBV_EVENT_CLIENT_REREGISTER})
    EXPECT_FALSE(fatal_async_event(type)) << async_event_name(type);
  ibv_async_event e{};
  e.event_type = IBV_EVENT_GID_CHANGE;
  e.element.port_num = 1;
  EXPECT_EQ(describe_async_event(e).text(), "IBV_EVENT_GID_CHANGE (port 1)");
  EXPECT_EQ(async_event_name(static_cast<ibv_event_type>(77)), "IBV_EVENT_77");
}

TEST(AsyncEvent, AFatalEventEndsTheRunWithItsOwnExitCode) {
  const Error e =
      device_event_error({"IBV_EVENT_PORT_ERR", "port 1", true}, "rxe1", "write/bw/busy/65536", "");
  EXPECT_EQ(e.exit_code(), ExitCode::kDeviceEvent);
  EXPECT_EQ(static_cast<int>(e.exit_code()), 9);
  const std::string text = e.what();
  EXPECT_NE(text.find("rxe1: IBV_EVENT_PORT_ERR (port 1) during write/bw/busy/65536"),
            std::string::npos)
      << text;
}

// iWARP has no RNR retry: a send that finds no receive posted terminates the connection, and
// the sender's QP fails. A stream of sends into a receiver that fell behind says so.
TEST(AsyncEvent, AFatalQpOnIwarpUnderSendsSaysTheReceiverMayHaveRunOutOfReceives) {
  const AsyncEvent fatal{"IBV_EVENT_QP_FATAL", "QP 0x1", true};
  const std::string iwarp_send =
      device_event_error(fatal, "siw1", "send/bw/busy/4096", receiver_advice(true, true)).what();
  EXPECT_NE(iwarp_send.find("siw1: IBV_EVENT_QP_FATAL (QP 0x1) during send/bw/busy/4096"),
            std::string::npos)
      << iwarp_send;
  EXPECT_NE(iwarp_send.find("no RNR retry"), std::string::npos) << iwarp_send;
  EXPECT_NE(iwarp_send.find("--rx-depth"), std::string::npos) << iwarp_send;
  EXPECT_NE(iwarp_send.find("--rate"), std::string::npos) << iwarp_send;
  for (const auto& [iwarp, receives] : {std::pair{true, false}, {false, true}, {false, false}}) {
    const std::string other =
        device_event_error(fatal, "rxe0", "write/bw/busy/65536", receiver_advice(iwarp, receives))
            .what();
    EXPECT_NE(other.find("the device says the run cannot go on"), std::string::npos) << other;
    EXPECT_EQ(other.find("RNR"), std::string::npos) << other;
  }
  const std::string port = device_event_error({"IBV_EVENT_PORT_ERR", "port 1", true}, "siw1",
                                              "send/bw/busy/4096", receiver_advice(true, true))
                               .what();
  EXPECT_NE(port.find("the port went down"), std::string::npos) << port;
}

}  // namespace
}  // namespace rdmabench
