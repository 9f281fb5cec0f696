#include <solvent_stencil3d/simulation_state.hpp>

#include <solvent/errors.hpp>
#include <solvent_family_angiogenesis_3d/grid.hpp>
#include <solvent_family_angiogenesis_3d/initial_state.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>

namespace solvent::stencil3d {

using solvent::angiogenesis_3d::Parameters;

SimulationState initial_state(const Parameters& p, double dt, std::uint64_t seed,
                              std::int32_t segment_capacity) {
  const Box grid = whole_grid(solvent::angiogenesis_3d::grid_of(p));
  return initial_part(p, dt, seed, segment_capacity, grid, grid);
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

// Version 3: the parameters name the mode (and n_width); n follows c in the continuous
// mode. Version 2 had no mode; version 1 held a continuous n the hybrid mode did not use.
constexpr char magic[8] = {'A', 'N', 'G', '3', 'D', 'C', 'K', '3'};

struct Header {
  char magic[8];
  std::int64_t step;
  std::uint64_t seed;
  double dt;
  std::int64_t segment_capacity;
  std::int64_t vessel_capacity;
  Parameters p;
  NetworkCounters counters;
};

template <class T>
void append(std::string& out, const std::vector<T>& v) {
  out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

// Reads a checkpoint in order from its bytes in memory or from its file; a field is read
// whole or, for a rank's part, only the rows of its window.
class Reader {
 public:
  Reader(std::string_view bytes, const std::string& where)
      : size_(bytes.size()), where_(where), bytes_(bytes) {}
  Reader(const std::filesystem::path& file, const std::string& where)
      : where_(where), file_(file, std::ios::binary | std::ios::ate) {
    if (!file_) throw solvent::InputError(file.string() + ": cannot read the checkpoint");
    size_ = static_cast<std::uint64_t>(file_.tellg());
  }
  void read(void* dst, std::size_t n) {
    fetch(at_, dst, n);
    at_ += n;
  }
  template <class T>
  void read(std::vector<T>& v) {
    read(v.data(), v.size() * sizeof(T));
  }
  // A whole-grid field, into `v` laid out as `window`.
  template <class T>
  void read(std::vector<T>& v, const Box& grid, const Box& window) {
    const std::uint64_t start = at_;
    const std::uint64_t end = start + static_cast<std::uint64_t>(grid.size()) * sizeof(T);
    if (end > size_) truncated();
    const auto* o = window.offset;
    // Whole planes of axes 1 and 2 (one rank, or blocks along axis 3) lie in one piece.
    if (window.extent[0] == grid.extent[0] && window.extent[1] == grid.extent[1]) {
      fetch(start + static_cast<std::uint64_t>(grid.index(o[0], o[1], o[2])) * sizeof(T), v.data(),
            static_cast<std::size_t>(window.size()) * sizeof(T));
      at_ = end;
      return;
    }
    const auto row = static_cast<std::size_t>(window.extent[0]) * sizeof(T);
    for (std::int32_t k = o[2]; k < o[2] + window.extent[2]; ++k)
      for (std::int32_t j = o[1]; j < o[1] + window.extent[1]; ++j)
        fetch(start + static_cast<std::uint64_t>(grid.index(o[0], j, k)) * sizeof(T),
              v.data() + window.index(o[0], j, k), row);
    at_ = end;
  }
  bool done() const { return at_ == size_; }

 private:
  [[noreturn]] void truncated() const {
    throw solvent::InputError(where_ + ": checkpoint is truncated");
  }
  void fetch(std::uint64_t at, void* dst, std::size_t n) {
    if (at + n > size_) truncated();
    if (!file_.is_open()) {
      std::memcpy(dst, bytes_.data() + at, n);
      return;
    }
    file_.seekg(static_cast<std::streamoff>(at));
    if (!file_.read(static_cast<char*>(dst), static_cast<std::streamsize>(n)))
      throw solvent::InputError(where_ + ": the checkpoint could not be read");
  }

  std::uint64_t size_ = 0;
  std::string where_;
  std::string_view bytes_;
  std::ifstream file_;
  std::uint64_t at_ = 0;
};

SimulationState restore(Reader& in, const Parameters& p, double dt, std::uint64_t seed,
                        const std::string& where, const Box& block, const Box& window) {
  Header h;
  in.read(&h, sizeof h);
  if (std::memcmp(h.magic, magic, sizeof magic) != 0)
    throw solvent::InputError(where + ": not an angiogenesis-3d checkpoint");
  if (std::memcmp(&h.p, &p, sizeof p) != 0)
    throw solvent::InputError(where + ": checkpoint was written with other model parameters");
  if (h.dt != dt || h.seed != seed)
    throw solvent::InputError(where + ": checkpoint was written with dt = " + std::to_string(h.dt) +
                              " and seed = " + std::to_string(h.seed) + ", this run has dt = " +
                              std::to_string(dt) + " and seed = " + std::to_string(seed));
  SimulationState s =
      initial_part(p, dt, seed, static_cast<std::int32_t>(h.segment_capacity), block, window);
  if (static_cast<std::int64_t>(s.vessel.size()) != h.vessel_capacity)
    throw solvent::InputError(where + ": checkpoint has another vessel-node capacity");
  s.step = h.step;
  s.counters = h.counters;
  const Box grid = whole_grid(solvent::angiogenesis_3d::grid_of(p));
  in.read(s.f, grid, window);
  in.read(s.c, grid, window);
  if (!s.n.empty()) in.read(s.n, grid, window);
  in.read(s.owner, grid, window);
  in.read(s.node);
  in.read(s.active);
  in.read(s.birth);
  in.read(s.segments);
  in.read(s.vessel);
  if (!in.done()) throw solvent::InputError(where + ": checkpoint has trailing bytes");
  return s;
}

}  // namespace

std::string checkpoint_bytes(const SimulationState& s) {
  if (static_cast<std::int64_t>(s.f.size()) != solvent::angiogenesis_3d::grid_of(s.p).size())
    throw solvent::Error("explicit-stencil3d: a checkpoint of a rank's window was asked for");
  Header h{};
  std::memcpy(h.magic, magic, sizeof magic);
  h.step = s.step;
  h.seed = s.seed;
  h.dt = s.dt;
  h.segment_capacity = s.segment_capacity();
  h.vessel_capacity = s.vessel_capacity();
  h.p = s.p;
  h.counters = s.counters;
  std::string out(reinterpret_cast<const char*>(&h), sizeof h);
  append(out, s.f);
  append(out, s.c);
  append(out, s.n);
  append(out, s.owner);
  append(out, s.node);
  append(out, s.active);
  append(out, s.birth);
  append(out, s.segments);
  append(out, s.vessel);
  return out;
}

std::optional<std::int64_t> checkpoint_step(const std::filesystem::path& file) {
  Header h;
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  // A file that is there but not a whole header is a damaged checkpoint, not a missing one:
  // said as such, so that a resume names the damage instead of "no checkpoint".
  if (!in.read(reinterpret_cast<char*>(&h), sizeof h))
    throw solvent::InputError(fmt::format(
        "{}: a damaged checkpoint: {} bytes, cut short before its {}-byte header ends; rerun "
        "with --overwrite",
        file.string(), in.gcount(), sizeof h));
  if (std::memcmp(h.magic, magic, sizeof magic) != 0)
    throw solvent::InputError(fmt::format(
        "{}: not a checkpoint of explicit-stencil3d (its first bytes are not the format's "
        "mark); rerun with --overwrite",
        file.string()));
  return h.step;
}

SimulationState restore_checkpoint(std::string_view bytes, const Parameters& p, double dt,
                                   std::uint64_t seed, const std::string& where) {
  Reader in(bytes, where);
  const Box grid = whole_grid(solvent::angiogenesis_3d::grid_of(p));
  return restore(in, p, dt, seed, where, grid, grid);
}

SimulationState restore_checkpoint(const std::filesystem::path& file, const Parameters& p,
                                   double dt, std::uint64_t seed, const Box& block,
                                   const Box& window) {
  Reader in(file, file.string());
  return restore(in, p, dt, seed, file.string(), block, window);
}

}  // namespace solvent::stencil3d
