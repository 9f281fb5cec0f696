// Which device a rank computes on, from a plugin's device parameter: one for all, auto by
// the host's GPUs, or one per rank; everything else refused with the message a user sees.
#include <solvent/device/rank_device.hpp>
#include <solvent/errors.hpp>

#include <doctest/doctest.h>

using solvent::rank_device;
using solvent::RankDevice;

TEST_CASE("a device for every rank, auto by the host's GPUs, or one per rank") {
  const auto& one = solvent::single_rank();
  CHECK(rank_device("cpu", one, 4, "p") == RankDevice::Cpu);
  CHECK(rank_device("cuda", one, 0, "p") == RankDevice::Cuda);
  // Local rank 0: a GPU where the host has one, else the CPU.
  CHECK(rank_device("auto", one, 1, "p") == RankDevice::Cuda);
  CHECK(rank_device("auto", one, 0, "p") == RankDevice::Cpu);
  CHECK_THROWS_WITH_AS(rank_device("cuda,cpu", one, 1, "explicit-stencil3d"),
                       "explicit-stencil3d: device = \"cuda,cpu\": 2 entries for 1 ranks: give "
                       "one device for every rank, or one for all (cpu, cuda or auto)",
                       solvent::ConfigError);
  CHECK_THROWS_WITH_AS(rank_device("gpu", one, 1, "p"),
                       "p: device = \"gpu\": 'gpu' is not a device: each entry is cpu or cuda",
                       solvent::ConfigError);
  CHECK_THROWS_AS(rank_device("", one, 1, "p"), solvent::ConfigError);
  CHECK_THROWS_AS(rank_device("cpu,", one, 1, "p"), solvent::ConfigError);
}
