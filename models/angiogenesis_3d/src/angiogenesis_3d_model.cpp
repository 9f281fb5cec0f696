#include "src/angiogenesis_3d_model.hpp"

#include <solvent/errors.hpp>
#include <solvent/memory.hpp>
#include <solvent_family_angiogenesis_3d/grid.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

namespace solvent::angiogenesis_3d {
namespace {

// Lists whose length the schema cannot express are checked here, all problems at once.
std::vector<std::string> list_problems(const solvent::Parameters& q) {
  std::vector<std::string> problems;
  const auto& thresholds = q.reals("branching.c_thresholds");
  if (thresholds.size() != branch_table_size - 1 ||
      !std::is_sorted(thresholds.begin(), thresholds.end()))
    problems.push_back("model.branching.c_thresholds: need 4 ascending values, got " +
                       std::to_string(thresholds.size()));
  if (q.reals("branching.probabilities").size() != branch_table_size)
    problems.push_back("model.branching.probabilities: need 5 values (one per band), got " +
                       std::to_string(q.reals("branching.probabilities").size()));
  for (const char* key : {"tips.y", "tips.z"}) {
    const auto n = q.reals(key).size();
    if (n < 1 || n > static_cast<std::size_t>(max_initial_tips))
      problems.push_back(std::string("model.") + key + ": need 1 to " +
                         std::to_string(max_initial_tips) + " values, got " + std::to_string(n));
  }
  if (q.reals("tips.y").size() * q.reals("tips.z").size() >
      static_cast<std::size_t>(q.integer("branching.max_tips")))
    problems.push_back("model.tips: more initial tips than branching.max_tips");
  if (q.reals("tumour_centre").size() != 3)
    problems.push_back("model.tumour_centre: need 3 values (x, y, z)");
  return problems;
}

// The grid's node count against the 32-bit node index, and the memory the integrator will
// hold for it, both in doubles: nx * ny * nz of three axes up to max_axis_nodes overflows
// 64 bits. Per node: f and c (doubles), the sprout owner and the vessel list (32-bit), and
// the largest copy made for a file: a field file, built in memory (n, f, c as doubles and
// owner), after the occupancy n is formed as doubles.
std::vector<std::string> grid_problems(const solvent::Parameters& q) {
  const auto nx = q.integer("nx"), ny = q.integer("ny"), nz = q.integer("nz");
  const double nodes = double(nx) * double(ny) * double(nz);
  const auto grid = std::to_string(nx) + "x" + std::to_string(ny) + "x" + std::to_string(nz);
  std::vector<std::string> problems;
  if (nodes > double(max_nodes))
    problems.push_back(fmt::format(
        "model 'angiogenesis-3d': a {} grid has {:.0f} nodes, more than the {} its 32-bit node "
        "indices can number; reduce model.nx/ny/nz",
        grid, nodes, max_nodes));
  constexpr double bytes_per_node = 2 * 8 + 2 * 4 + 8 + (3 * 8 + 4);
  if (auto memory = solvent::memory_problem(
          "model 'angiogenesis-3d'", nodes * bytes_per_node,
          fmt::format("a {} grid ({:.0f} bytes a node: f and c, the vessel arrays, and a field "
                      "file's copy)",
                      grid, bytes_per_node),
          "reduce model.nx/ny/nz");
      !memory.empty())
    problems.push_back(std::move(memory));
  return problems;
}

}  // namespace

Angiogenesis3dModel::Angiogenesis3dModel(const solvent::PluginContext& ctx) {
  const auto& q = ctx.params;
  auto problems = list_problems(q);
  for (auto& p : grid_problems(q)) problems.push_back(std::move(p));
  if (!problems.empty()) throw solvent::ConfigError(std::move(problems));

  p_.nx = q.integer("nx");
  p_.ny = q.integer("ny");
  p_.nz = q.integer("nz");
  p_.h = 1.0 / static_cast<double>(p_.nx - 1);
  p_.D = q.real("parameters.D");
  p_.chi0 = q.real("parameters.chi0");
  p_.alpha = q.real("parameters.alpha");
  p_.rho = q.real("parameters.rho");
  p_.beta = q.real("parameters.beta");
  p_.gamma = q.real("parameters.gamma");
  p_.eta = q.real("parameters.eta");
  p_.tumour = q.string("tumour") == "spherical" ? Tumour::Spherical : Tumour::Planar;
  p_.tumour_x = q.real("tumour_x");
  const double extent[3] = {1.0, (p_.ny - 1) * p_.h, (p_.nz - 1) * p_.h};
  for (int a = 0; a < 3; ++a) p_.tumour_centre[a] = q.reals("tumour_centre")[a] * extent[a];
  p_.c_width = q.real("parameters.c_width");
  p_.f_amplitude = q.real("parameters.f_amplitude");
  p_.f_width = q.real("parameters.f_width");
  p_.tip_x = q.real("tips.x");
  p_.tip_ny = static_cast<std::int64_t>(q.reals("tips.y").size());
  p_.tip_nz = static_cast<std::int64_t>(q.reals("tips.z").size());
  std::copy(q.reals("tips.y").begin(), q.reals("tips.y").end(), p_.tip_y);
  std::copy(q.reals("tips.z").begin(), q.reals("tips.z").end(), p_.tip_z);
  p_.branch_age = q.real("branching.age");
  p_.density_factor = q.real("branching.density_factor");
  p_.density_radius = q.integer("branching.density_radius");
  std::copy(q.reals("branching.c_thresholds").begin(), q.reals("branching.c_thresholds").end(),
            p_.c_threshold);
  std::copy(q.reals("branching.probabilities").begin(), q.reals("branching.probabilities").end(),
            p_.branch_probability);
  p_.max_tips = q.integer("branching.max_tips");
  p_.anastomosis = q.boolean("anastomosis") ? 1 : 0;
  p_.stop_x = q.real("stop_x");
  p_.mode = q.string("mode") == "continuous" ? Mode::Continuous : Mode::Hybrid;
  p_.n_width = q.real("parameters.n_width");
  if (const int ranks = ctx.comm->size(); ranks > 1) {
    const solvent::GridBlocks::Index3 nodes = {static_cast<int>(p_.nx), static_cast<int>(p_.ny),
                                               static_cast<int>(p_.nz)};
    const std::string& split = q.string("split");
    // A split that does not fit is refused at its key's line.
    const auto who = q.located("split", "[model] (model 'angiogenesis-3d')");
    if (split == "auto")
      blocks_ = solvent::GridBlocks(nodes, ranks);
    else
      try {
        blocks_ = solvent::GridBlocks(nodes, ranks, solvent::GridBlocks::parse_split(split, who));
      } catch (const solvent::ConfigError& e) {
        throw e.prefixed(who);
      }
  }
}

void* Angiogenesis3dModel::extension(std::string_view name) {
  if (void* p = solvent::offer<ParametersFamily>(name, p_)) return p;
  return blocks_ ? solvent::offer<BlocksFamily>(name, *blocks_) : nullptr;
}

solvent::Facts Angiogenesis3dModel::facts() const {
  solvent::Facts facts{
      {"grid", std::to_string(p_.nx) + "x" + std::to_string(p_.ny) + "x" + std::to_string(p_.nz)},
      {"h", std::to_string(p_.h)},
      {"tumour", p_.tumour == Tumour::Planar ? "planar" : "spherical"}};
  // Named only when not the default, so that a hybrid run's record is what it was.
  if (p_.mode == Mode::Continuous) facts.emplace_back("mode", "continuous");
  if (blocks_)
    facts.emplace_back("decomposition",
                       fmt::format("{}x{}x{} blocks over {} ranks", blocks_->split[0],
                                   blocks_->split[1], blocks_->split[2], blocks_->ranks()));
  return facts;
}

}  // namespace solvent::angiogenesis_3d
