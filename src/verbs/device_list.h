// The list of RDMA devices the verbs library sees (ibv_get_device_list).
#pragma once

#include <infiniband/verbs.h>

#include <string>
#include <vector>

#include "verbs/context.h"
#include "verbs/no_device_advice.h"  // the message when the list is empty

namespace rdmabench {

class DeviceList {
 public:
  DeviceList();
  ~DeviceList();
  DeviceList(const DeviceList&) = delete;
  DeviceList& operator=(const DeviceList&) = delete;

  std::vector<std::string> names() const;
  bool empty() const noexcept { return count_ == 0; }

  // Opens the named device; an empty name opens the first one. Throws Error(kNoDevice)
  // naming the devices that do exist when there is no match.
  Context open(const std::string& name = {}) const;

 private:
  ibv_device** devices_ = nullptr;
  int count_ = 0;
};

}  // namespace rdmabench
