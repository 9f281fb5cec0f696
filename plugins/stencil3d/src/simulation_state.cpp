#include <solvent_stencil3d/simulation_state.hpp>

#include <solvent/errors.hpp>
#include <solvent_family_angiogenesis_3d/grid.hpp>
#include <solvent_family_angiogenesis_3d/initial_state.hpp>

#include <solvent/io/checkpoint.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>
#include <string>

namespace solvent::stencil3d {

using solvent::angiogenesis_3d::Parameters;

SimulationState initial_state(const Parameters& p, double dt, std::uint64_t seed,
                              std::int32_t segment_capacity) {
  const Box grid = whole_grid(solvent::angiogenesis_3d::grid_of(p));
  return initial_part(p, dt, seed, segment_capacity, grid, grid);
}

SimulationState without_fields(const SimulationState& s) {
  return {.p = s.p,
          .dt = s.dt,
          .seed = s.seed,
          .step = s.step,
          .window = s.window,
          .block = s.block,
          .f = {},
          .c = {},
          .n = {},
          .owner = {},
          .node = s.node,
          .active = s.active,
          .birth = s.birth,
          .segments = s.segments,
          .vessel = s.vessel,
          .counters = s.counters};
}

SimulationState initial_part(const Parameters& p, double dt, std::uint64_t seed,
                             std::int32_t segment_capacity, const Box& block, const Box& window) {
  SimulationState s;
  s.p = p;
  s.dt = dt;
  s.seed = seed;
  const auto g = solvent::angiogenesis_3d::grid_of(p);
  const auto size = static_cast<std::size_t>(g.size());
  s.window = window;
  s.block = block;
  const auto held = static_cast<std::size_t>(window.size());
  s.f.resize(held);
  s.c.resize(held);
  s.owner.assign(held, -1);
  const bool continuous = p.mode == solvent::angiogenesis_3d::Mode::Continuous;
  if (continuous) s.n.resize(held);
  const auto* o = window.offset;
  for (std::int32_t k = o[2]; k < o[2] + window.extent[2]; ++k)
    for (std::int32_t j = o[1]; j < o[1] + window.extent[1]; ++j)
      for (std::int32_t i = o[0]; i < o[0] + window.extent[0]; ++i) {
        const auto v = solvent::angiogenesis_3d::initial_values(p, i * p.h, j * p.h, k * p.h);
        const auto m = static_cast<std::size_t>(window.index(i, j, k));
        s.f[m] = v.f;
        s.c[m] = v.c;
        if (continuous) s.n[m] = std::exp(-(i * p.h) * (i * p.h) / p.n_width);
      }
  const auto slots = static_cast<std::size_t>(p.max_tips);
  s.node.assign(slots, 0);
  s.active.assign(slots, 0);
  s.birth.assign(slots, 0);
  s.segments.assign(2 * static_cast<std::size_t>(segment_capacity), 0);
  // Every new vessel node comes with a segment, except the initial tips' own nodes.
  s.vessel.assign(std::min<std::size_t>(size, static_cast<std::size_t>(segment_capacity) + slots),
                  0);
  if (continuous) return s;
  const auto tips = solvent::angiogenesis_3d::initial_tip_nodes(p);
  for (std::size_t t = 0; t < tips.size(); ++t) {
    s.node[t] = tips[t];
    s.active[t] = 1;
    if (const std::int32_t at = window.find(g, tips[t]); at >= 0)
      s.owner[static_cast<std::size_t>(at)] = static_cast<std::int32_t>(t);
    s.vessel[t] = tips[t];
    s.counters.furthest_i = std::max(s.counters.furthest_i, tips[t] % g.nx);
  }
  s.counters.tips = s.counters.active = s.counters.vessel_nodes =
      static_cast<std::int32_t>(tips.size());
  return s;
}

namespace {

namespace fs = std::filesystem;
using solvent::angiogenesis_3d::Mode;

// The stencil's part of a checkpoint, the scalars after the SDK's header (step, t, dt):
//   layout version, the seed's two 32-bit halves, the window's offset and extent, the
//   segment capacity, the parameter block (8 bytes a scalar, compared byte for byte);
//   in rank 0's file only, the network: the counters, node, active and birth of the tips in
//   use, the ends of the stored segments, the stored vessel nodes.
// Its vectors are f, c, n (continuous mode) and owner on the window. Integers travel as f64,
// exact below 2^53 (a count, a node, a step are far below), and are checked as they are read.
// Version 4 is the first in the SDK's format: 1 to 3 were a format of the stencil's own (one
// file of the whole grid gathered to rank 0, marked ANG3DCK). Raised whenever the layout of
// these scalars changes.
constexpr double layout_version = 4;
static_assert(sizeof(Parameters) % sizeof(double) == 0, "the parameter block is 8-byte words");
constexpr std::size_t parameter_words = sizeof(Parameters) / sizeof(double);
constexpr std::size_t parameters_at = 10;
constexpr std::size_t fixed_scalars = parameters_at + parameter_words;
constexpr std::size_t counter_scalars = 10;

// The mode is in the writer's name, so that a checkpoint of the other mode (one field more
// or less) is refused as such rather than as damage.
std::string writer(const Parameters& p) {
  return p.mode == Mode::Continuous ? "explicit-stencil3d (continuous)"
                                    : "explicit-stencil3d (hybrid)";
}

// This rank's file in `dir`, for messages about what the SDK read from it.
fs::path rank_file(const fs::path& dir, const solvent::Communicator& comm) {
  return dir / (comm.rank() == 0 ? std::string("checkpoint.bin")
                                 : fmt::format("checkpoint.rank-{}.bin", comm.rank()));
}

[[noreturn]] void damaged(const std::string& where, const std::string& what) {
  throw solvent::InputError(fmt::format("{}: a damaged checkpoint: {}", where, what));
}

// Reads the scalars in order, each integer checked before it is converted.
class Scalars {
 public:
  Scalars(std::span<const double> values, std::string where)
      : values_(values), where_(std::move(where)) {}
  std::size_t left() const { return values_.size() - at_; }
  double real() { return values_[at_++]; }
  template <class T>
  T integer(const char* what) {
    const double x = real();
    constexpr double exact = 9007199254740992.0;  // 2^53
    if (!(std::abs(x) <= exact) || x != std::floor(x) ||
        x < static_cast<double>(std::numeric_limits<T>::min()) ||
        x > static_cast<double>(std::numeric_limits<T>::max()))
      damaged(where_, fmt::format("its {} is {}, not an integer of its range", what, x));
    return static_cast<T>(x);
  }
  template <class T>
  void integers(std::vector<T>& out, std::size_t count, const char* what) {
    for (std::size_t e = 0; e < count; ++e) out[e] = integer<T>(what);
  }

 private:
  std::span<const double> values_;
  std::string where_;
  std::size_t at_ = 0;
};

template <class T>
void put(std::vector<double>& out, const std::vector<T>& v, std::int64_t count) {
  out.insert(out.end(), v.begin(), v.begin() + count);
}

// The engines and writers index the tip slots by the tip count and the fields by the nodes
// the network names: counts or nodes out of range are damage, refused here rather than met
// as an access out of bounds later (a file can pass the checksum and still be wrong, one
// written by another program). The segment and vessel-node counts may pass their stores'
// capacity (a run that overflowed counts on); the readers take the smaller.
void check_network(const SimulationState& s, const std::string& where) {
  const auto& k = s.counters;
  const auto slots = static_cast<std::int32_t>(s.node.size());
  if (k.tips < 0 || k.tips > slots || k.active < 0 || k.active > k.tips || k.segments < 0 ||
      k.vessel_nodes < 0)
    damaged(where,
            fmt::format("its counts of {} tips ({} active), {} segments and {} vessel nodes do not "
                        "fit its {} tip slots",
                        k.tips, k.active, k.segments, k.vessel_nodes, slots));
  const std::int64_t nodes = solvent::angiogenesis_3d::grid_of(s.p).size();
  auto check_nodes = [&](const std::vector<std::int32_t>& v, std::size_t count, const char* what) {
    for (std::size_t e = 0; e < count; ++e)
      if (v[e] < 0 || v[e] >= nodes)
        damaged(where, fmt::format("{} {} names node {}, outside the grid's {} nodes", what, e,
                                   v[e], nodes));
  };
  check_nodes(s.node, static_cast<std::size_t>(k.tips), "tip");
  check_nodes(s.segments, 2 * static_cast<std::size_t>(std::min(k.segments, s.segment_capacity())),
              "segment end");
  check_nodes(s.vessel, static_cast<std::size_t>(std::min(k.vessel_nodes, s.vessel_capacity())),
              "vessel node");
}

// The network from rank 0's scalars past the fixed ones into `s` (made with its capacities).
void read_network(Scalars& in, SimulationState& s, const std::string& where) {
  if (in.left() < counter_scalars)
    damaged(where, fmt::format("{} values of the network, fewer than its {} counters", in.left(),
                               counter_scalars));
  auto& k = s.counters;
  k.tips = in.integer<std::int32_t>("tip count");
  k.active = in.integer<std::int32_t>("active tip count");
  k.branches = in.integer<std::int32_t>("branch count");
  k.anastomoses = in.integer<std::int32_t>("anastomosis count");
  k.segments = in.integer<std::int32_t>("segment count");
  k.vessel_nodes = in.integer<std::int32_t>("vessel node count");
  k.furthest_i = in.integer<std::int32_t>("furthest x index");
  k.overflow = in.integer<std::int32_t>("overflow flag");
  k.probabilities = in.integer<std::int64_t>("probability count");
  k.bad_probabilities = in.integer<std::int64_t>("bad probability count");
  // The counts size what is read next: checked first (the nodes are still 0, inside the grid).
  check_network(s, where);
  const auto tips = static_cast<std::size_t>(k.tips);
  const auto segments = static_cast<std::size_t>(std::min(k.segments, s.segment_capacity()));
  const auto vessel = static_cast<std::size_t>(std::min(k.vessel_nodes, s.vessel_capacity()));
  const std::size_t expected = 3 * tips + 2 * segments + vessel;
  if (in.left() != expected)
    damaged(where, fmt::format("{} values of the network where its {} tips, {} stored segments "
                               "and {} stored vessel nodes need {}",
                               in.left(), tips, segments, vessel, expected));
  in.integers(s.node, tips, "tip node");
  in.integers(s.active, tips, "tip activity");
  in.integers(s.birth, tips, "tip birth step");
  in.integers(s.segments, 2 * segments, "segment end");
  in.integers(s.vessel, vessel, "vessel node");
  check_network(s, where);
}

}  // namespace

void write_checkpoint(const fs::path& dir, const SimulationState& part,
                      const solvent::Communicator& comm) {
  // The fields are written from the state as they are (a 1024^3 window is 8.6 GB a field);
  // only the owner, stored as doubles, is converted.
  std::vector<double> q;
  q = {layout_version, static_cast<double>(part.seed & 0xffffffffu),
       static_cast<double>(part.seed >> 32)};
  for (const auto* box : {part.window.offset, part.window.extent}) q.insert(q.end(), box, box + 3);
  q.push_back(part.segment_capacity());
  q.resize(fixed_scalars);
  std::memcpy(q.data() + parameters_at, &part.p, sizeof part.p);
  // The network is the same on every rank (each grows it from the same decisions): one copy,
  // rank 0's, of what is in use; it is small beside the fields.
  if (comm.rank() == 0) {
    const auto& k = part.counters;
    q.insert(q.end(), {double(k.tips), double(k.active), double(k.branches), double(k.anastomoses),
                       double(k.segments), double(k.vessel_nodes), double(k.furthest_i),
                       double(k.overflow), double(k.probabilities), double(k.bad_probabilities)});
    put(q, part.node, k.tips);
    put(q, part.active, k.tips);
    put(q, part.birth, k.tips);
    put(q, part.segments, 2 * std::int64_t(std::min(k.segments, part.segment_capacity())));
    put(q, part.vessel, std::min(k.vessel_nodes, part.vessel_capacity()));
  }
  const std::vector<double> owner(part.owner.begin(), part.owner.end());
  solvent::CheckpointSource ck{
      part.step, static_cast<double>(part.step) * part.dt, q, {part.f, part.c}};
  if (!part.n.empty()) ck.vectors.emplace_back(part.n);
  ck.vectors.emplace_back(owner);
  solvent::write_rank_checkpoint(dir, comm, ck, writer(part.p), part.dt);
}

std::optional<std::int64_t> checkpoint_step(const fs::path& dir) {
  return solvent::rank_checkpoint_step(dir);
}

SimulationState restore_checkpoint(const fs::path& dir, const Parameters& p, double dt,
                                   std::uint64_t seed, const Box& block, const Box& window,
                                   const solvent::Communicator& comm) {
  const bool continuous = p.mode == Mode::Continuous;
  const std::string name = writer(p);
  auto ck = solvent::read_rank_checkpoint(dir, comm,
                                          {name, dt, static_cast<std::size_t>(window.size()),
                                           continuous ? 4u : 3u, solvent::any_count});
  const std::string where = rank_file(dir, comm).string();
  Scalars in(ck.scalars, where);
  const std::size_t least = fixed_scalars + (comm.rank() == 0 ? counter_scalars : 0);
  if (in.left() < least)
    damaged(where, fmt::format("{} scalars, fewer than the {} of its layout", in.left(), least));
  if (const double v = in.real(); v != layout_version)
    throw solvent::InputError(fmt::format(
        "{}: an explicit-stencil3d checkpoint of layout version {}, this build reads version "
        "{}; rerun with --overwrite",
        where, v, layout_version));
  const auto low = in.integer<std::uint32_t>("seed"), high = in.integer<std::uint32_t>("seed");
  if (const std::uint64_t written = std::uint64_t(high) << 32 | low; written != seed)
    throw solvent::InputError(fmt::format(
        "{}: the checkpoint was written with seed = {}, this run has seed = {}; rerun with "
        "--overwrite",
        where, written, seed));
  Box written{};
  for (auto* box : {written.offset, written.extent})
    for (int a = 0; a < 3; ++a) box[a] = in.integer<std::int32_t>("window");
  if (std::memcmp(&written, &window, sizeof window) != 0)
    throw solvent::InputError(fmt::format(
        "{}: the checkpoint holds the nodes from ({}) of extent ({}), this rank's window is "
        "from ({}) of extent ({}): written with other blocks; rerun with --overwrite",
        where, fmt::join(written.offset, ", "), fmt::join(written.extent, ", "),
        fmt::join(window.offset, ", "), fmt::join(window.extent, ", ")));
  const auto capacity = in.integer<std::int64_t>("segment capacity");
  if (capacity < 1 || capacity > max_segment_capacity)
    damaged(where, fmt::format("it declares {} vessel segments, outside 1 to {}", capacity,
                               max_segment_capacity));
  if (std::memcmp(ck.scalars.data() + parameters_at, &p, sizeof p) != 0)
    throw solvent::InputError(fmt::format(
        "{}: the checkpoint was written with other model parameters; rerun with --overwrite",
        where));
  SimulationState s = initial_part(p, dt, seed, static_cast<std::int32_t>(capacity), block, window);
  s.step = ck.step;
  // Rank 0 holds the network; the others take its values (every rank checks them).
  std::string network;
  if (comm.rank() == 0)
    network.assign(reinterpret_cast<const char*>(ck.scalars.data() + fixed_scalars),
                   (ck.scalars.size() - fixed_scalars) * sizeof(double));
  comm.broadcast(network, 0);
  std::vector<double> values(network.size() / sizeof(double));
  std::memcpy(values.data(), network.data(), values.size() * sizeof(double));
  const std::string first = (dir / "checkpoint.bin").string();
  Scalars net(values, first);
  read_network(net, s, first);
  s.f = std::move(ck.vectors[0]);
  s.c = std::move(ck.vectors[1]);
  if (continuous) s.n = std::move(ck.vectors[2]);
  const auto slots = static_cast<double>(s.node.size());
  const auto& owner = ck.vectors.back();
  for (std::size_t m = 0; m < owner.size(); ++m) {
    const double o = owner[m];
    if (!(o >= -1 && o < slots) || o != std::floor(o))
      damaged(where, fmt::format("a node is owned by tip {} of {}", o, slots));
    s.owner[m] = static_cast<std::int32_t>(o);
  }
  return s;
}

}  // namespace solvent::stencil3d
