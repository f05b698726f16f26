// The GPU facts the operating system keeps (gpu_info.hpp).
#include "gpu_info.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <map>

namespace mcb::gpu_info {

namespace {

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// "32.0 GT/s PCIe" -> "5" (the generation of a transfer rate), else the text.
std::string generation(const std::string& speed) {
  static const std::map<std::string, std::string> gens = {{"2.5", "1"},  {"5.0", "2"},  {"8.0", "3"},
                                                          {"16.0", "4"}, {"32.0", "5"}, {"64.0", "6"}};
  const std::string rate = speed.substr(0, speed.find(' '));
  const auto it = gens.find(rate);
  return it != gens.end() ? it->second : speed;
}

}  // namespace

std::string pcie_link(const std::string& bus_id) {
  const std::string dir = "/sys/bus/pci/devices/" + bus_id + "/";
  const std::string speed = first_line(dir + "current_link_speed"), width = first_line(dir + "current_link_width");
  const std::string max_speed = first_line(dir + "max_link_speed"), max_width = first_line(dir + "max_link_width");
  if (speed.empty() || width.empty()) return "";
  std::string text = "gen " + generation(speed) + " x" + width;
  if (!max_speed.empty() && !max_width.empty()) text += " (max gen " + generation(max_speed) + " x" + max_width + ")";
  return text;
}

std::string nvidia_driver() {
  std::string v = first_line("/sys/module/nvidia/version");
  if (!v.empty()) return v;
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  ..."
  const std::string line = first_line("/proc/driver/nvidia/version");
  const auto at = line.find("Kernel Module");
  if (at == std::string::npos) return "";
  const auto start = line.find_first_not_of(' ', at + 13);
  return start == std::string::npos ? "" : line.substr(start, line.find(' ', start) - start);
}

std::string nvidia_mps() {
  const char* env = std::getenv("CUDA_MPS_PIPE_DIRECTORY");
  const std::string control = std::string(env && *env ? env : "/tmp/nvidia-mps") + "/control";
  struct stat st {};
  return stat(control.c_str(), &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) ? "on" : "off";
}

}  // namespace mcb::gpu_info
