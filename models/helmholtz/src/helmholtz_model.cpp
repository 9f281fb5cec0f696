#include "src/helmholtz_model.hpp"

#include <solvent_helmholtz/builtin_mesher.hpp>
#include <solvent_helmholtz/gmsh_reader.hpp>
#include <solvent_helmholtz/mesh_ordering.hpp>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>

namespace solvent::helmholtz {
namespace {

constexpr std::string_view builtin_prefix = "builtin:";

std::string where(const Parameters& p, const std::string& name) {
  const auto& w = p.entries().at(name).where;
  return (w.empty() ? std::string("[model] ") : w + ": ") + name;
}

// Memory of a mesh and of its P1 system, in bytes. A node: its coordinates (24), the
// assembly's per-node index arrays (about 21), its matrix row (P1 tetrahedra couple a node to
// about 14 others: 15 non-zeros of a complex value and a 32-bit column, and a row pointer),
// right-hand side and solution (complex). A tetrahedron: its 4 node indices and the 4
// node-to-tetrahedron incidences the assembly lists.
double system_bytes(double nodes, double tets) {
  return nodes * (24 + 21 + 15 * (16 + 4) + 4 + 2 * 16) + tets * (4 * 4 + 4 * 4);
}

// What the estimate counts, closing the parenthesis of the mesh's size in the message.
constexpr const char* system_counted =
    "; counted: the mesh, its P1 system at about 15 complex non-zeros a row, right-hand side and "
    "solution, not the linear solver's own storage)";

// Hexahedral cells along each axis of a built-in shape, as the mesher lays them: the shape's
// extent (the span of its mesh at resolution 1, made in no time) times the resolution,
// rounded, at least 1 (the cylinder, 2 round(r resolution) across, may have one fewer).
std::array<double, 3> builtin_cells(BuiltinShape shape) {
  const auto resolution = double(shape.resolution);
  shape.resolution = 1;
  const TetMesh coarse = make_builtin_mesh(shape);
  std::array<double, 3> cells{};
  for (int a = 0; a < 3; ++a) {
    const auto [lo, hi] =
        std::minmax_element(coarse.nodes.begin(), coarse.nodes.end(),
                            [a](const Point& x, const Point& y) { return x[a] < y[a]; });
    cells[a] = std::max(1.0, std::round(((*hi)[a] - (*lo)[a]) * resolution));
  }
  return cells;
}

}  // namespace

Schema schema() {
  return {
      ParamSpec::string(
          "mesh", "builtin:cabin",
          "builtin:box, builtin:cylinder, builtin:cabin, or the path of a gmsh MSH 4.1/2.2 "
          "ASCII file (scripts/make-meshes writes the shipped ones)")
          .input_file(),
      ParamSpec::integer("resolution", 10,
                         "Built-in meshes: hexahedral cells per metre along each axis")
          .at_least(1)
          .in_unit("1/m"),
      ParamSpec::reals("box.size", {1.0, 1.0, 1.0}, "builtin:box edge lengths Lx, Ly, Lz")
          .above(0.0)
          .in_unit("m"),
      ParamSpec::real("cylinder.radius", 0.5, "builtin:cylinder radius").above(0.0).in_unit("m"),
      ParamSpec::real("cylinder.length", 2.0, "builtin:cylinder length along z")
          .above(0.0)
          .in_unit("m"),
      ParamSpec::real("frequency", 100.0, "Frequency F; k = 2 pi F / c").above(0.0).in_unit("Hz"),
      ParamSpec::real("sound_speed", 343.0, "Speed of sound c").above(0.0).in_unit("m/s"),
      ParamSpec::strings(
          "boundary.dirichlet", {"inlet"},
          "Boundary groups where u = dirichlet.value (missing default groups are skipped)"),
      ParamSpec::strings("boundary.impedance", {"outlet", "seats"},
                         "Boundary groups with the absorbing condition du/dn - i k u = 0"),
      ParamSpec::strings(
          "boundary.source", {"firewall"},
          "Boundary groups with the prescribed normal derivative du/dn = source.amplitude"),
      ParamSpec::real("dirichlet.value", 1.0, "u on the Dirichlet groups").in_unit("Pa"),
      ParamSpec::real("source.amplitude", 1.0, "du/dn on the source groups").in_unit("Pa/m"),
      ParamSpec::reals("probe", {},
                       "A point [x, y, z] of the mesh where the pressure is reported: "
                       "observables probe_abs_u (|u|, P1 interpolation) and probe_spl_db (dB "
                       "re 20 uPa, rms |u| / sqrt(2)), e.g. a driver's ear in a frequency sweep")
          .in_unit("m"),
      ParamSpec::choice(
          "reference", "none", {"none", "plane-wave-x", "plane-wave-y", "plane-wave-z"},
          "Closed-form solution u = dirichlet.value exp(i k (x_d - min x_d)) to compare "
          "with (a duct with rigid walls along axis d)"),
  };
}

HelmholtzModel::HelmholtzModel(const PluginContext& ctx) : log_(ctx.log), comm_(ctx.comm) {
  const Parameters& p = ctx.params;
  k_ = 2.0 * std::numbers::pi * p.real("frequency") / p.real("sound_speed");
  mesh_name_ = p.string("mesh");
  const auto start = std::chrono::steady_clock::now();
  mesh_ = load_mesh(p);
  mesh_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  select_groups(p);
  bc_.dirichlet_value = p.real("dirichlet.value");
  bc_.source_amplitude = p.real("source.amplitude");
  const std::string& reference = p.string("reference");
  if (reference != "none") {
    reference_axis_ = reference.back() - 'x';
    reference_origin_ = std::numeric_limits<double>::infinity();
    for (const auto& n : mesh_.nodes)
      reference_origin_ = std::min(reference_origin_, n[reference_axis_]);
  }
  h_max_ = longest_edge(mesh_);
  if (const auto& probe = p.reals("probe"); !probe.empty()) {
    if (probe.size() != 3)
      throw ConfigError(
          {where(p, "probe") + " needs 3 values (x, y, z), not " + std::to_string(probe.size())});
    probe_ = locate(mesh_, {probe[0], probe[1], probe[2]});
    if (!probe_) {
      Point lo = mesh_.nodes.front(), hi = lo;
      for (const auto& n : mesh_.nodes)
        for (int d = 0; d < 3; ++d) {
          lo[d] = std::min(lo[d], n[d]);
          hi[d] = std::max(hi[d], n[d]);
        }
      throw ConfigError({fmt::format(
          "{}: the point [{}, {}, {}] is not inside the mesh {} (a solid, or outside its "
          "bounding box x [{:.4g}, {:.4g}], y [{:.4g}, {:.4g}], z [{:.4g}, {:.4g}])",
          where(p, "probe"), probe[0], probe[1], probe[2], mesh_name_, lo[0], hi[0], lo[1], hi[1],
          lo[2], hi[2])});
    }
  }
  if (log_)
    log_->info(
        "helmholtz: {} nodes, {} tetrahedra from {} in {:.2f} s; k = {:.6g}, h_max = {:.4g}, "
        "{:.1f} points per wavelength",
        mesh_.nodes.size(), mesh_.tets.size(), mesh_name_, mesh_seconds_, k_, h_max_,
        2.0 * std::numbers::pi / (k_ * h_max_));
}

std::shared_ptr<const Operator> HelmholtzModel::matrix() const {
  assemble();
  return matrix_;
}

Vector HelmholtzModel::rhs() const {
  assemble();
  return rhs_;
}

std::optional<Vector> HelmholtzModel::exact_solution() const {
  if (reference_axis_ < 0) return std::nullopt;
  // Over several ranks: at the rank's own nodes, in its order.
  const auto rows = distributed_rows_of(*matrix());
  std::vector<complex> u(rows ? rows->rows() : mesh_.nodes.size());
  for (std::size_t i = 0; i < u.size(); ++i)
    u[i] = reference(mesh_.nodes[rows ? static_cast<std::size_t>(rows->owned[i]) : i]);
  return u;
}

std::vector<Observable> HelmholtzModel::observables(const Vector& x) const {
  const auto* mine = std::get_if<std::vector<complex>>(&x);
  if (!mine) return {};
  // Over several ranks the solution's values at every node, for the quadrature over every
  // tetrahedron (a rank's tetrahedra reach other ranks' nodes).
  std::vector<complex> whole;
  const std::vector<complex>* u = mine;
  if (const auto rows = distributed_rows_of(*matrix()); rows && mine->size() == rows->rows()) {
    whole = gather_rows<complex>(*rows, *mine);
    u = &whole;
  }
  if (u->size() != mesh_.nodes.size()) return {};
  double max_abs = 0.0;
  for (const auto& v : *u) max_abs = std::max(max_abs, std::abs(v));
  std::vector<Observable> out{{"max_abs_u", max_abs}};
  if (probe_) {
    complex at{};
    for (int m = 0; m < 4; ++m) at += probe_->weight[m] * (*u)[probe_->node[m]];
    const double rms = std::abs(at) / std::sqrt(2.0);
    out.push_back({"probe_abs_u", std::abs(at)});
    out.push_back({"probe_spl_db", 20.0 * std::log10(rms / 20e-6)});
  }
  if (reference_axis_ >= 0) {
    const L2Error e = l2_error(mesh_, *u, [this](const Point& p) { return reference(p); });
    out.push_back({"l2_error", e.error});
    out.push_back({"relative_l2_error", e.reference > 0 ? e.error / e.reference : e.error});
  }
  return out;
}

Facts HelmholtzModel::facts() const {
  Facts f{{"mesh", mesh_name_},
          {"nodes", std::to_string(mesh_.nodes.size())},
          {"tetrahedra", std::to_string(mesh_.tets.size())},
          {"wavenumber", std::to_string(k_)},
          {"h_max", std::to_string(h_max_)},
          {"points_per_wavelength", std::to_string(2.0 * std::numbers::pi / (k_ * h_max_))},
          {"mesh_seconds", std::to_string(mesh_seconds_)}};
  for (const auto& g : mesh_.groups)
    f.emplace_back("group." + g.name + ".triangles", std::to_string(g.triangles.size()));
  if (matrix_) {
    // Over several ranks rank 0's rows, which it writes the record with.
    f.emplace_back(comm_->size() > 1 ? "rank0_nonzeros" : "nonzeros",
                   std::to_string(std::get<CsrMatrix<complex>>(*matrix_).nnz()));
    f.emplace_back("assembly_seconds", std::to_string(assembly_seconds_));
  }
  if (comm_->size() > 1 && matrix_) {
    f.emplace_back("partition", partition_.method);
    f.emplace_back("edge_cut", std::to_string(partition_.edge_cut));
    f.emplace_back("imbalance", fmt::format("{:.4f}", partition_.imbalance));
  }
  return f;
}

TetMesh HelmholtzModel::load_mesh(const Parameters& p) const {
  if (!mesh_name_.starts_with(builtin_prefix)) {
    TetMesh mesh = read_gmsh(mesh_name_);
    // The file's mesh is in memory now; its system is not yet.
    require_memory("model 'helmholtz'",
                   system_bytes(double(mesh.nodes.size()), double(mesh.tets.size())),
                   fmt::format("the mesh of {} ({} nodes, {} tetrahedra{}", mesh_name_,
                               mesh.nodes.size(), mesh.tets.size(), system_counted),
                   "use a coarser mesh");
    renumber_reverse_cuthill_mckee(mesh);
    return mesh;
  }
  BuiltinShape shape;
  shape.name = mesh_name_.substr(builtin_prefix.size());
  shape.resolution = p.integer("resolution");
  const auto& size = p.reals("box.size");
  if (size.size() != 3)
    throw ConfigError({where(p, "box.size") + " needs 3 values (Lx, Ly, Lz), not " +
                       std::to_string(size.size())});
  shape.box_size = {size[0], size[1], size[2]};
  shape.cylinder_radius = p.real("cylinder.radius");
  shape.cylinder_length = p.real("cylinder.length");
  const auto& names = builtin_shape_names();
  if (std::find(names.begin(), names.end(), shape.name) == names.end())
    throw ConfigError({where(p, "mesh") + ": unknown built-in mesh '" + mesh_name_ +
                       "' (builtin:box, builtin:cylinder or builtin:cabin)"});
  const auto cells = builtin_cells(shape);
  const double hexahedra = cells[0] * cells[1] * cells[2];
  const double nodes = (cells[0] + 1) * (cells[1] + 1) * (cells[2] + 1);
  const auto extent = fmt::format("{} at resolution {} (up to {:.0f} nodes and {:.0f} tetrahedra",
                                  mesh_name_, shape.resolution, nodes, 6 * hexahedra);
  // The mesher's own marks (4 bytes a grid node and a cell) on top of the mesh and system.
  // Its 32-bit node numbers are the mesher's to check.
  require_memory("model 'helmholtz'", system_bytes(nodes, 6 * hexahedra) + 4 * (nodes + hexahedra),
                 extent + system_counted, "reduce model.resolution");
  return make_builtin_mesh(shape);
}

void HelmholtzModel::select_groups(const Parameters& p) {
  std::vector<std::string> problems;
  std::map<std::string, std::string> claimed;
  auto pick = [&](const std::string& key, std::vector<const BoundaryGroup*>& out) {
    for (const auto& name : p.strings(key)) {
      const BoundaryGroup* g = mesh_.group(name);
      if (!g) {
        if (p.given(key))
          problems.push_back(where(p, key) + ": the mesh has no boundary group '" + name +
                             "' (it has: " + group_list() + ")");
        continue;
      }
      if (auto [it, fresh] = claimed.emplace(name, key); !fresh)
        problems.push_back(where(p, key) + ": group '" + name + "' is already in " + it->second);
      out.push_back(g);
    }
  };
  pick("boundary.dirichlet", bc_.dirichlet);
  pick("boundary.impedance", bc_.impedance);
  pick("boundary.source", bc_.source);
  if (!problems.empty()) throw ConfigError(problems);
}

std::string HelmholtzModel::group_list() const {
  std::string s;
  for (const auto& g : mesh_.groups) s += (s.empty() ? "" : ", ") + g.name;
  return s.empty() ? "none" : s;
}

complex HelmholtzModel::reference(const Point& x) const {
  return bc_.dirichlet_value *
         std::exp(complex(0.0, k_ * (x[reference_axis_] - reference_origin_)));
}

void HelmholtzModel::assemble() const {
  if (matrix_) return;
  const auto start = std::chrono::steady_clock::now();
  if (comm_->size() == 1) {
    HelmholtzSystem s = assemble_helmholtz(mesh_, k_, bc_);
    rhs_ = std::move(s.rhs);
    matrix_ = std::make_shared<const Operator>(std::move(s.matrix));
  } else {
    // The nodes split by Scotch over the graph of the system's pattern (every rank holds the
    // mesh, and so can form it); each rank then assembles its own nodes' rows alone.
    {
      const CsrMatrix<complex> pattern = helmholtz_pattern(mesh_, bc_);
      partition_ = partition_rows(pattern.row_ptr, pattern.col_idx, *comm_);
    }
    std::vector<std::int32_t> mine;
    for (std::size_t i = 0; i < partition_.owner.size(); ++i)
      if (partition_.owner[i] == comm_->rank()) mine.push_back(static_cast<std::int32_t>(i));
    HelmholtzSystem s = assemble_helmholtz(mesh_, k_, bc_, mine);
    const std::vector<std::int64_t> columns(s.matrix.col_idx.begin(), s.matrix.col_idx.end());
    rhs_ = std::move(s.rhs);
    matrix_ = std::make_shared<const Operator>(distributed_rows<complex>(
        mesh_.nodes.size(), partition_.owner, s.matrix.row_ptr, columns, s.matrix.values, *comm_));
    if (log_)
      log_->info(
          "helmholtz: rows split over {} ranks by Scotch, {} couplings cut, imbalance "
          "{:.3f}; rank 0 assembled {} rows",
          comm_->size(), partition_.edge_cut, partition_.imbalance, mine.size());
  }
  assembly_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto& a = std::get<CsrMatrix<complex>>(*matrix_);
  if (log_)
    log_->info("helmholtz: assembled {} x {} complex matrix{}, {} non-zeros, in {:.2f} s", a.rows,
               a.cols, comm_->size() > 1 ? " (rank 0's rows and columns)" : "", a.nnz(),
               assembly_seconds_);
}

}  // namespace solvent::helmholtz
