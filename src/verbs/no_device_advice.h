// What to tell a user when libibverbs lists no RDMA device: what this host shows of the usual
// causes (no RDMA driver loaded, no user-space provider for a device the kernel has, device
// files the user cannot open), read from sysfs and /dev under a root folder (a fake tree in
// tests), and the memlock limit to check next.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace rdmabench {

struct NoDeviceFacts {
  std::vector<std::string> kernel_devices;  // /sys/class/infiniband/*
  bool uverbs_module = false;               // /sys/module/ib_uverbs
  std::vector<std::string> closed_uverbs;   // /dev/infiniband/uverbs* this user cannot open
};

NoDeviceFacts read_no_device_facts(const std::filesystem::path& root);

std::string no_device_advice(const NoDeviceFacts& facts);

// The advice for this host (root /).
std::string no_device_advice();

}  // namespace rdmabench
