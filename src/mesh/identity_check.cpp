#include "mesh/identity_check.h"

#include <string>

#include "core/error.h"
#include "core/exit_codes.h"
#include "core/printable_text.h"

namespace rdmabench {

namespace {

// A host name, an address, a device or a fabric name fits in this (a DNS name: 253).
constexpr size_t kMostNameBytes = 255;
// A doctor finding's key or value.
constexpr size_t kMostTextBytes = 4096;
// A failed rank's own error (printed as an excerpt; the whole identity is bounded at 1 MiB).
constexpr size_t kMostErrorBytes = 1 << 16;
// Doctor findings compared across hosts (host_differences.h): a few dozen in practice.
constexpr size_t kMostDoctorFindings = 256;

[[noreturn]] void refuse_identity(size_t position, const std::string& what) {
  throw Error(ExitCode::kConnection,
              "mesh: rank " + std::to_string(position) + "'s identity: " + what);
}

// One line of text a terminal shows as it is: UTF-8 with nothing printable() would escape (a
// vendor's firmware string may hold a non-ASCII character), and no newline or tab.
bool printable_line(const std::string& text) {
  return text.find_first_of("\n\t") == std::string::npos && printable(text) == text;
}

// The field's value, or nullptr when it is absent and not `required`.
const nlohmann::json* field_of(const nlohmann::json& id, const char* field, size_t position,
                               bool required) {
  const auto it = id.find(field);
  if (it != id.end()) return &*it;
  if (required) refuse_identity(position, std::string("no '") + field + "'");
  return nullptr;
}

// A string field: present when `required`, at most `most` bytes of printable ASCII (or any
// text for a value only excerpted, `ascii` false).
void check_text(const nlohmann::json& id, const char* field, size_t position, bool required,
                size_t most = kMostNameBytes, bool ascii = true) {
  const nlohmann::json* found = field_of(id, field, position, required);
  if (found == nullptr) return;
  const auto& value = *found;
  if (!value.is_string()) refuse_identity(position, std::string("'") + field + "' is not a string");
  const auto& text = value.get_ref<const std::string&>();
  if (text.size() > most)
    refuse_identity(
        position, std::string("'") + field + "' is longer than " + std::to_string(most) + " bytes");
  if (ascii && !is_printable_ascii(text))
    refuse_identity(position, std::string("'") + field + "' is not printable ASCII: '" +
                                  peer_excerpt(text) + "'");
}

// An integer field in [least, most]; absent is fine unless `required`.
void check_integer(const nlohmann::json& id, const char* field, size_t position, bool required,
                   long long least, long long most) {
  const nlohmann::json* found = field_of(id, field, position, required);
  if (found == nullptr) return;
  const auto& value = *found;
  if (!value.is_number_integer() ||
      (value.is_number_unsigned() && value.get<unsigned long long>() > 1ull << 62) ||
      value.get<long long>() < least || value.get<long long>() > most)
    refuse_identity(position, std::string("'") + field + "' is not an integer from " +
                                  std::to_string(least) + " to " + std::to_string(most));
}

void check_doctor(const nlohmann::json& id, size_t position) {
  if (!id.contains("doctor")) return;
  const auto& doctor = id["doctor"];
  if (!doctor.is_object() || doctor.size() > kMostDoctorFindings)
    refuse_identity(position, "'doctor' is not an object of at most " +
                                  std::to_string(kMostDoctorFindings) + " findings");
  for (const auto& [key, value] : doctor.items()) {
    if (key.size() > kMostTextBytes || !printable_line(key) || !value.is_string() ||
        value.get_ref<const std::string&>().size() > kMostTextBytes ||
        !printable_line(value.get_ref<const std::string&>()))
      refuse_identity(position, "a doctor finding is not a printable key and value: '" +
                                    peer_excerpt(key) + "'");
  }
}

}  // namespace

void check_identity(const nlohmann::json& identity, size_t position) {
  if (!identity.is_object()) refuse_identity(position, "not a JSON object");
  check_integer(identity, "rank", position, true, 0, 1ll << 40);
  if (identity["rank"].get<long long>() != static_cast<long long>(position))
    refuse_identity(position,
                    "it says it is rank " + std::to_string(identity["rank"].get<long long>()));
  if (identity.contains("error")) {
    check_text(identity, "error", position, true, kMostErrorBytes, false);
    check_integer(identity, "exit_code", position, true, 1, 255);
    if (!is_exit_code(identity["exit_code"].get<long long>()))
      refuse_identity(position, "its exit code is not in the table");
    return;
  }
  check_text(identity, "hostname", position, true);
  check_text(identity, "address", position, true);
  check_text(identity, "device", position, true);
  check_text(identity, "fabric", position, false);
  check_integer(identity, "port", position, true, 1, 65535);
  check_integer(identity, "ib_port", position, false, 1, 255);
  check_integer(identity, "slot_stride", position, false, 1, 65535);
  check_doctor(identity, position);
}

}  // namespace rdmabench
