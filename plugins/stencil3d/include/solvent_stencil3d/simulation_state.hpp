#pragma once
// The whole state of a run on the host: fields, vessel ownership, tips and the network.
// In the hybrid mode there is no continuous cell density: the cells are the tips and the
// vessel nodes, and the n written out is their occupancy (1 where owner >= 0). In the
// continuous mode n is a field like f and c, and there are no tips.
// It is what an engine loads and stores, what the VTK and PNG writers read and what a
// checkpoint holds. Over several ranks an engine holds f, c and owner on its window only
// (tips and network whole); every rank writes its window's fields and checkpoint itself.
#include <solvent_stencil3d/box.hpp>
#include <solvent_stencil3d/network_counters.hpp>

#include <solvent/communicator.hpp>
#include <solvent_family_angiogenesis_3d/parameters.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
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

// `s` with its fields (f, c, n, owner) left empty: what an engine that holds them on a device
// keeps on the host. A member added to SimulationState must be listed there too (its
// default would go unnoticed).
SimulationState without_fields(const SimulationState& s);

// The initial state of the model: fields from the initial conditions, one sprout per
// initial tip, its node on the network (the continuous mode: n, no tips).
SimulationState initial_state(const solvent::angiogenesis_3d::Parameters& p, double dt,
                              std::uint64_t seed, std::int32_t segment_capacity);
// The same as a rank's part: f, c and owner on `window` only, the tips on `block` its own.
SimulationState initial_part(const solvent::angiogenesis_3d::Parameters& p, double dt,
                             std::uint64_t seed, std::int32_t segment_capacity, const Box& block,
                             const Box& window);

// The largest segment store a run may ask for (integrator.max_segments), and so the largest a
// checkpoint may declare.
inline constexpr std::int64_t max_segment_capacity = std::int64_t(1) << 30;

// Checkpoints (docs/architecture.md, "Checkpoints of the stencil"): every rank writes its own
// part into `dir` through the SDK's per-rank checkpoint (solvent/io/checkpoint.hpp: one
// versioned, checksummed format, checkpoint.bin and checkpoint.rank-R.bin), with no field
// gathered to any rank: f, c, n (continuous mode) and owner on the rank's window, the seed,
// the window and the parameter block; the tips and the network, the same on every rank,
// in rank 0's file only. Every rank calls it together.
// Not HDF5, unlike the field files: HDF5 is optional at build time (the GPU machines build
// without it), and a resume must work in every build; a checkpoint is bytes that repeat
// whenever the run is repeated (the tests compare them with cmp), which a library's file
// metadata would not promise; and what a user reads, f, c and the network at each output
// time, is already in the field files in the run's [output] format.
void write_checkpoint(const std::filesystem::path& dir, const SimulationState& part,
                      const Communicator& comm);
// The step of rank 0's checkpoint in `dir`, or nothing where there is none.
std::optional<std::int64_t> checkpoint_step(const std::filesystem::path& dir);
// Collective: this rank's part of the checkpoint in `dir`, written on as many ranks with the
// same blocks. A damaged file, another count of ranks, other parameters, seed, dt or window
// are refused with solvent::InputError naming the file and what is wrong.
SimulationState restore_checkpoint(const std::filesystem::path& dir,
                                   const solvent::angiogenesis_3d::Parameters& p, double dt,
                                   std::uint64_t seed, const Box& block, const Box& window,
                                   const Communicator& comm);

}  // namespace solvent::stencil3d
