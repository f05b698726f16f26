// What the GPU backends learn from the operating system rather than from
// their runtimes: the PCIe link of a device (sysfs), the kernel driver's
// version, and whether an MPS control daemon serves this node's clients.
#pragma once

#include <string>

namespace mcb::gpu_info {

/// "gen 5 x16 (max gen 5 x16)" for the PCI device `bus_id` ("0000:17:00.0"),
/// from /sys/bus/pci/devices; "" when sysfs does not say. A GPU at rest may
/// train its link down: the current generation can read lower than under load.
std::string pcie_link(const std::string& bus_id);
/// The NVIDIA kernel driver's version ("580.65.06"), or "".
std::string nvidia_driver();
/// "on" when NVIDIA's MPS control daemon listens where this process's CUDA
/// clients would connect ($CUDA_MPS_PIPE_DIRECTORY, else /tmp/nvidia-mps),
/// else "off": the processes of a GPU then time-slice it.
std::string nvidia_mps();

}  // namespace mcb::gpu_info
