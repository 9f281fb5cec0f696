#pragma once
// The whole state of a run on the host: fields, vessel ownership, tips and the network.
// In the hybrid mode there is no continuous cell density: the cells are the tips and the
// vessel nodes, and the n written out is their occupancy (1 where owner >= 0). In the
// continuous mode n is a field like f and c, and there are no tips.
// It is what an engine loads and stores, what the VTK and PNG writers read and what a
// checkpoint holds. Over several ranks an engine holds f, c and owner on its window only
// (tips and network whole); the writers and checkpoints take the whole grid.
#include <solvent_stencil3d/box.hpp>
#include <solvent_stencil3d/network_counters.hpp>

#include <solvent_family_angiogenesis_3d/parameters.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace solvent::stencil3d {

struct SimulationState {
  solvent::angiogenesis_3d::Parameters p{};
  double dt = 0.0;
  std::uint64_t seed = 0;
  std::int64_t step = 0;  // steps taken

  // f, c and owner on `window`; the engine decides the tips on `block`. Both are the whole
  // grid except in an engine over several ranks.
  Box window{}, block{};
  std::vector<double> f, c;
  std::vector<double> n;  // on `window` in the continuous mode; empty in the hybrid one
  std::vector<std::int32_t> owner;

  std::vector<std::int32_t> node, active;  // per tip slot (p.max_tips slots)
  std::vector<std::int64_t> birth;
  std::vector<std::int32_t> segments;  // 2 per segment
  std::vector<std::int32_t> vessel;
  NetworkCounters counters{};

  std::int32_t segment_capacity() const { return static_cast<std::int32_t>(segments.size() / 2); }
  std::int32_t vessel_capacity() const { return static_cast<std::int32_t>(vessel.size()); }
};

// The initial state of the model: fields from the initial conditions, one sprout per
// initial tip, its node on the network (the continuous mode: n, no tips).
SimulationState initial_state(const solvent::angiogenesis_3d::Parameters& p, double dt,
                              std::uint64_t seed, std::int32_t segment_capacity);
// The same as a rank's part: f, c and owner on `window` only, the tips on `block` its own.
SimulationState initial_part(const solvent::angiogenesis_3d::Parameters& p, double dt,
                             std::uint64_t seed, std::int32_t segment_capacity, const Box& block,
                             const Box& window);

// Binary checkpoint of a whole state: a header naming the format, the grid, the step and
// the seed, the parameter block, then every array. restore() refuses a checkpoint of other
// parameters.
// Not HDF5, unlike the field files: HDF5 is optional at build time (the GPU machines build
// without it), and a resume must work in every build; the checkpoint is one byte string
// that is the same whatever the ranks that wrote it (the tests compare it with cmp), which
// a library's file metadata would not promise; and what a user reads, f, c and the network
// at each output time, is already in the field files in the run's [output] format.
std::string checkpoint_bytes(const SimulationState& s);
// The step the checkpoint file holds, read from its header; nothing if it is none.
std::optional<std::int64_t> checkpoint_step(const std::filesystem::path& file);
SimulationState restore_checkpoint(std::string_view bytes,
                                   const solvent::angiogenesis_3d::Parameters& p, double dt,
                                   std::uint64_t seed, const std::string& where);
// The same from the file, as a rank's part: of the fields only the window's rows are read,
// so that no rank holds the whole grid to resume.
SimulationState restore_checkpoint(const std::filesystem::path& file,
                                   const solvent::angiogenesis_3d::Parameters& p, double dt,
                                   std::uint64_t seed, const Box& block, const Box& window);

}  // namespace solvent::stencil3d
