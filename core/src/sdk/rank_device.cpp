#include <solvent/device/rank_device.hpp>
#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <sstream>
#include <vector>

namespace solvent {

RankDevice rank_device(const std::string& spec, const Communicator& comm, int gpus_on_host,
                       const std::string& who) {
  auto refuse = [&](const std::string& why) {
    return ConfigError({fmt::format("{}: device = \"{}\": {}", who, spec, why)});
  };
  if (spec == "auto") return comm.local_rank() < gpus_on_host ? RankDevice::Cuda : RankDevice::Cpu;
  std::vector<std::string> entries;
  std::istringstream in(spec);
  for (std::string entry; std::getline(in, entry, ',');) entries.push_back(entry);
  if (spec.empty() || spec.back() == ',') entries.emplace_back();
  if (entries.size() != 1 && entries.size() != static_cast<std::size_t>(comm.size()))
    throw refuse(
        fmt::format("{} entries for {} ranks: give one device for every rank, or one "
                    "for all (cpu, cuda or auto)",
                    entries.size(), comm.size()));
  for (const auto& e : entries)
    if (e != "cpu" && e != "cuda")
      throw refuse(fmt::format("'{}' is not a device: each entry is cpu or cuda", e));
  const auto& mine = entries[entries.size() == 1 ? 0 : static_cast<std::size_t>(comm.rank())];
  return mine == "cuda" ? RankDevice::Cuda : RankDevice::Cpu;
}

}  // namespace solvent
