#include "cli/version_command.h"

#include <cxxopts.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "bench/pattern_catalogue.h"
#include "cli/repeated_options.h"
#include "cli/study_command.h"
#include "cli/subcommands.h"
#include "cli/unknown_options.h"
#include "core/build_info.h"
#include "core/error.h"
#include "core/exit_codes.h"
#include "core/fabric.h"
#include "core/version.h"
#include "cq/strategy.h"
#include "measure/counter_catalogue.h"
#include "measure/device_counters.h"
#include "messages/protocol_version.h"
#include "spec/pattern_info.h"
#include "spec/transport.h"

namespace rdmabench {

namespace {

nlohmann::json transports_of(const PatternInfo& info) {
  nlohmann::json names = nlohmann::json::array();
  for (const Transport& t : registered_transports())
    if (info.needs.met_by(t.info())) names.push_back(t.name());
  return names;
}

// The fabrics that carry the transport (iWARP: reliable connected QPs alone).
nlohmann::json fabrics_of(const Transport& t) {
  nlohmann::json names = nlohmann::json::array();
  for (Fabric f : kFabrics)
    if (carries_transport(f, t->reliable, t->connected)) names.push_back(to_string(f));
  return names;
}

nlohmann::json transport_json(const Transport& t) {
  return {{"name", t.name()},
          {"summary", t->summary},
          {"reliable", t->reliable},
          {"connected", t->connected},
          // A message is one packet (at most the path MTU); bytes ahead of each receive's payload.
          {"one_packet_messages", t->one_packet_messages},
          {"receive_header_bytes", t->receive_header_bytes},
          // Why rdma_cm cannot connect it, or null: it can.
          {"rdmacm_refusal", t->rdmacm_refusal.empty()
                                 ? nlohmann::json(nullptr)
                                 : nlohmann::json(std::string(t->rdmacm_refusal))},
          // The fabrics that carry it, as `rdmabench devices` names a port's.
          {"fabrics", fabrics_of(t)},
          {"default", t == default_transport()}};
}

nlohmann::json pattern_json(const Pattern& p) {
  const PatternInfo& i = p.info();
  return {{"name", p.name()},
          {"summary", i.summary},
          {"target_receives", i.target_receives},
          // Whose buffer the payload lands in: the target's, or (read, and the old value an atomic
          // fetches) the initiator's.
          {"data_to", i.data_to_initiator() ? "initiator" : "target"},
          {"half_round_trip", i.half_round_trip},
          // lat: how a side sees the peer's message arrive (a marker spins on memory).
          {"arrival", to_string(i.arrival)},
          // Which modes leave the target's user space idle while the client streams.
          {"passive_target", {{"bw", i.passive_target_bw()}, {"lat", i.passive_target_lat()}}},
          // The registered transports it runs over (what it needs of one: needs_reliable, ...).
          {"transports", transports_of(i)},
          {"needs_reliable", i.needs.reliable},
          {"needs_connected", i.needs.connected},
          {"min_size", i.sizes.min},
          {"max_size",
           i.sizes.max == UINT64_MAX ? nlohmann::json(nullptr) : nlohmann::json(i.sizes.max)}};
}

nlohmann::json exit_codes_json() {
  nlohmann::json codes = nlohmann::json::array();
  for (const ExitCodeInfo& e : exit_code_table())
    codes.push_back({{"code", static_cast<int>(e.code)}, {"name", e.name}, {"meaning", e.meaning}});
  return codes;
}

nlohmann::json commands_json() {
  nlohmann::json commands = nlohmann::json::array();
  for (const auto& [name, command] : subcommands())
    commands.push_back({{"name", name}, {"summary", command.summary}});
  return commands;
}

// What `rdmabench study polling` runs unless told otherwise: each CQ choice with each side's
// strategy by name, and the patterns.
nlohmann::json polling_study_json() {
  nlohmann::json choices = nlohmann::json::array();
  for (const CqChoice& c : polling_study_cq_choices())
    choices.push_back({{"choice", c.text()}, {"client", c.client.name}, {"server", c.server.name}});
  return {{"cq", choices}, {"patterns", polling_study_patterns()}};
}

nlohmann::json registry_json() {
  nlohmann::json patterns = nlohmann::json::array();
  for (const Pattern& p : registered_patterns()) patterns.push_back(pattern_json(p));
  nlohmann::json transports = nlohmann::json::array();
  for (const Transport& t : registered_transports()) transports.push_back(transport_json(t));
  nlohmann::json strategies = nlohmann::json::array();
  for (const StrategyInfo& s : registered_strategies())
    strategies.push_back({{"name", s.name}, {"usage", s.usage}, {"blocks", s.blocks}});
  return {{"version", kVersion},
          {"revision", build_revision()},
          {"build_type", build_type()},
          {"compiler", build_compiler()},
          {"protocol", kControlProtocolVersion},
          {"results_schema", kResultsSchemaVersion},
          {"devices_schema", kDevicesSchemaVersion},
          {"doctor_schema", kDoctorSchemaVersion},
          {"mesh_schema", kMeshSchemaVersion},
          {"search_schema", kSearchSchemaVersion},
          {"transports", transports},
          {"patterns", patterns},
          {"strategies", strategies},
          {"polling_study", polling_study_json()},
          {"counters", counter_catalogue_json()},
          {"device_alarms", device_alarms_json()},
          {"commands", commands_json()},
          {"exit_codes", exit_codes_json()}};
}

}  // namespace

int run_version_command(int argc, char** argv) {
  cxxopts::Options options("rdmabench version", "The version of this build.");
  options.add_options()("json",
                        "Also the control protocol, the schemas, the registered transports, "
                        "patterns and CQ strategies, the counter catalogue, the commands and the "
                        "exit codes, as JSON")("h,help", "Show help");
  options.allow_unrecognised_options();
  const auto args = options.parse(argc, argv);
  refuse_repeated_options(options, args);
  check_unmatched(args.unmatched(), options, {"version"});
  if (args.count("help")) {
    std::cout << options.help() << "\n" << exit_status_help();
  } else if (args.count("json")) {
    std::cout << registry_json().dump(2) << "\n";
  } else {
    std::cout << "rdmabench " << kVersion << " (" << build_revision() << ", " << build_type()
              << " build, " << build_compiler() << ")\n";
  }
  return 0;
}

}  // namespace rdmabench
