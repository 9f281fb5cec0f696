// The helmholtz model: built-in meshes are conforming and measure what they should, the
// gmsh reader agrees across file versions and reports malformed files by line, the
// assembled matrix has the structure the equations imply, and the plane-wave solution
// in a duct converges at order 2 in L2.
#include <solvent_helmholtz/builtin_mesher.hpp>
#include <solvent_helmholtz/gmsh_reader.hpp>
#include <solvent_helmholtz/mesh_ordering.hpp>
#include <solvent_helmholtz/p1_assembly.hpp>
#include "banded_solver.hpp"

#include <solvent/io/input_file.hpp>
#include <solvent/testkit.hpp>
#include <solvent_test/quoted_figures.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <numbers>
#include <string>
#include <tuple>
#include <vector>

using namespace solvent;
using namespace solvent::helmholtz;

namespace {

const std::string data_dir = SOLVENT_HELMHOLTZ_TEST_DATA;

// Every interior triangle is shared by exactly two tetrahedra, and the triangles used
// once are exactly the boundary groups' triangles.
void check_conforming(const TetMesh& mesh) {
  std::map<std::array<std::int32_t, 3>, int> faces;
  for (const auto& t : mesh.tets)
    for (int skip = 0; skip < 4; ++skip) {
      std::array<std::int32_t, 3> f;
      for (int m = 0, q = 0; m < 4; ++m)
        if (m != skip) f[q++] = t[m];
      std::sort(f.begin(), f.end());
      ++faces[f];
    }
  std::size_t once = 0, more = 0;
  for (const auto& [f, count] : faces) {
    once += count == 1;
    more += count > 2;
  }
  std::size_t group_triangles = 0;
  for (const auto& g : mesh.groups)
    for (auto t : g.triangles) {
      std::sort(t.begin(), t.end());
      auto it = faces.find(t);
      CHECK((it != faces.end() && it->second == 1));
      ++group_triangles;
    }
  CHECK(more == 0);
  CHECK(once == group_triangles);
}

double min_volume(const TetMesh& mesh) {
  double v = 1e300;
  for (const auto& t : mesh.tets) {
    TetMesh one;
    one.nodes = {mesh.nodes[t[0]], mesh.nodes[t[1]], mesh.nodes[t[2]], mesh.nodes[t[3]]};
    one.tets = {{0, 1, 2, 3}};
    v = std::min(v, mesh_volume(one));
  }
  return v;
}

double area(const TetMesh& mesh, const std::string& group) {
  const BoundaryGroup* g = mesh.group(group);
  REQUIRE(g != nullptr);
  return group_area(mesh, *g);
}

BoundaryConditions duct_conditions(const TetMesh& mesh) {
  BoundaryConditions bc;
  bc.dirichlet = {mesh.group("inlet")};
  bc.impedance = {mesh.group("outlet")};
  return bc;
}

double plane_wave_error(const TetMesh& mesh, double k, int axis) {
  const HelmholtzSystem s = assemble_helmholtz(mesh, k, duct_conditions(mesh));
  const auto u = helmholtz::test::solve_banded(s.matrix, s.rhs);
  return l2_error(mesh, u, [&](const Point& x) { return std::exp(complex(0.0, k * x[axis])); })
      .error;
}

// Solves the model's own LinearProblem, as the steady integrator would, and returns
// its relative L2 error against the plane wave.
double model_plane_wave_error(testkit::Settings s) {
  auto model = testkit::make_model("helmholtz", s);
  LinearProblem* problem = model->linear();
  REQUIRE(problem != nullptr);
  const auto& a = std::get<CsrMatrix<complex>>(*problem->matrix());
  const auto u = helmholtz::test::solve_banded(a, std::get<std::vector<complex>>(problem->rhs()));
  REQUIRE(problem->exact_solution().has_value());
  for (const auto& o : problem->observables(u))
    if (o.name == "relative_l2_error") return o.value;
  FAIL("no relative_l2_error observable");
  return 0.0;
}

}  // namespace

TEST_CASE("built-in box: conforming, exact volume and face areas") {
  const TetMesh mesh = make_builtin_mesh({"box", 4, {1.0, 0.5, 0.25}});
  CHECK(mesh.nodes.size() == 5 * 3 * 2);
  CHECK(mesh.tets.size() == 6 * 4 * 2 * 1);
  check_conforming(mesh);
  CHECK(mesh_volume(mesh) == doctest::Approx(0.125).epsilon(1e-14));
  CHECK(area(mesh, "inlet") == doctest::Approx(0.125).epsilon(1e-14));
  CHECK(area(mesh, "outlet") == doctest::Approx(0.125).epsilon(1e-14));
  CHECK(area(mesh, "walls") == doctest::Approx(2 * (0.5 + 0.25)).epsilon(1e-14));
  CHECK(min_volume(mesh) > 0.0);
}

TEST_CASE("built-in cylinder: conforming, no flat elements, volume of the inscribed prism") {
  BuiltinShape shape{"cylinder", 8};
  shape.cylinder_radius = 0.5;
  shape.cylinder_length = 1.0;
  const TetMesh mesh = make_builtin_mesh(shape);
  check_conforming(mesh);
  // The mantle nodes are the square's boundary nodes (4 per half side) pushed radially
  // onto the circle: the cross-section is the polygon through them.
  double polygon = 0.0;
  for (int j = -4; j < 4; ++j)
    polygon += 4 * 0.5 * 0.25 * std::sin(std::atan((j + 1) / 4.0) - std::atan(j / 4.0));
  CHECK(mesh_volume(mesh) == doctest::Approx(polygon).epsilon(1e-12));
  CHECK(area(mesh, "inlet") == doctest::Approx(polygon).epsilon(1e-12));
  const double cell = 1.0 / 8 * 0.5 / 4 * 0.5 / 4;
  CHECK(min_volume(mesh) > 0.02 * cell);
}

TEST_CASE("built-in cabin: conforming, all four groups, solids removed") {
  const TetMesh mesh = make_builtin_mesh({"cabin", 10});
  check_conforming(mesh);
  for (const char* g : {"firewall", "seats", "dashboard", "walls"}) CHECK(area(mesh, g) > 0.0);
  // The firewall is the footwell below the dashboard: 1.4 m x 0.5 m.
  CHECK(area(mesh, "firewall") == doctest::Approx(1.4 * 0.5).epsilon(1e-12));
  CHECK(mesh_volume(mesh) < 2.8 * 1.4 * 1.15);
  CHECK(mesh_volume(mesh) > 2.5);
}

TEST_CASE("assembly: complex symmetric, row sums give -k^2 volume - i k impedance area") {
  const TetMesh mesh = make_builtin_mesh({"cabin", 5});
  BoundaryConditions bc;
  bc.impedance = {mesh.group("seats")};
  bc.source = {mesh.group("firewall")};
  bc.source_amplitude = 2.0;
  const double k = 3.0;
  const HelmholtzSystem s = assemble_helmholtz(mesh, k, bc);
  const auto& a = s.matrix;
  complex total{};
  double asymmetry = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < a.rows; ++i)
    for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      const auto j = a.col_idx[p];
      auto q = std::lower_bound(a.col_idx.begin() + a.row_ptr[j],
                                a.col_idx.begin() + a.row_ptr[j + 1], static_cast<std::int32_t>(i));
      REQUIRE(*q == static_cast<std::int32_t>(i));
      asymmetry = std::max(asymmetry, std::abs(a.values[p] - a.values[q - a.col_idx.begin()]));
      scale = std::max(scale, std::abs(a.values[p]));
      total += a.values[p];
      if (p > a.row_ptr[i]) CHECK(a.col_idx[p - 1] < j);
    }
  CHECK(asymmetry <= 1e-15 * scale);
  // Stiffness rows sum to zero, mass entries to the volume, boundary mass to the area.
  const complex expected(-k * k * mesh_volume(mesh), -k * area(mesh, "seats"));
  CHECK(std::abs(total - expected) < 1e-10 * std::abs(expected));
  complex load{};
  for (auto v : s.rhs) load += v;
  CHECK(load.real() == doctest::Approx(2.0 * area(mesh, "firewall")).epsilon(1e-12));
}

namespace {
// The model's page quotes these runs in its convergence table: the row that starts with
// `label`, its errors, then its observed orders, as the runs give them.
void check_quoted_row(const std::string& label, const std::vector<double>& errors,
                      const std::vector<double>& orders) {
  const auto row = ::solvent::test::check_quoted_list(SOLVENT_HELMHOLTZ_DOC, label, errors);
  ::solvent::test::check_quoted_list(SOLVENT_HELMHOLTZ_DOC, row + " | ", orders);
}
}  // namespace

namespace {
// A count as the model's page writes it, thousands apart by a space: 1350960 -> "1 350 960".
std::string spaced(const std::string& digits) {
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ' ';
    out += digits[i];
  }
  return out;
}
}  // namespace

// The page's table of sizes, for the rows the model meshes and assembles in a second or two
// (up to 1.6 million tetrahedra); the larger rows are measured by scripts/gpu/helmholtz.sh.
TEST_CASE("the model's page quotes the sizes of the built-in meshes that the model makes") {
  for (const auto& [mesh, resolution, label] :
       std::vector<std::tuple<std::string, std::int64_t, std::string>>{
           {"cabin", 10, "cabin 10"},
           {"cabin", 20, "cabin 20"},
           {"cabin", 40, "cabin 40"},
           {"cylinder", 20, "cylinder 20"},
           {"cylinder", 40, "cylinder 40"},
           {"box", 64, "box 64 (1 m cube)"}}) {
    auto model =
        testkit::make_model("helmholtz", {{"mesh", "builtin:" + mesh}, {"resolution", resolution}});
    REQUIRE(model->linear() != nullptr);
    model->linear()->matrix();  // assembled on first use; its non-zeros are a fact from then
    std::map<std::string, std::string> facts;
    for (const auto& [key, value] : model->facts()) facts[key] = value;
    const auto row = spaced(facts["nodes"]) + " | " + spaced(facts["nonzeros"]) + " | " +
                     spaced(facts["tetrahedra"]) + " |";
    CHECK_MESSAGE(
        ::solvent::test::quoted_text(SOLVENT_HELMHOLTZ_DOC, "\n| " + label + " | ", "\n") == row,
        "helmholtz.md's row '" << label << "'; the model makes " << row);
  }
}

TEST_CASE("plane wave in a duct (built-in box, model plugin): L2 error of order 2") {
  std::vector<double> errors;
  for (std::int64_t resolution : {8, 16, 32}) {
    errors.push_back(model_plane_wave_error({{"mesh", std::string("builtin:box")},
                                             {"box.size", std::vector<double>{1.0, 0.125, 0.125}},
                                             {"resolution", resolution},
                                             {"frequency", 343.0},
                                             {"reference", std::string("plane-wave-x")}}));
    MESSAGE("resolution " << resolution << ": relative L2 error " << errors.back());
  }
  CHECK(errors.back() < 1e-2);
  const double order = std::log2(errors[1] / errors[2]);
  CHECK(order == doctest::Approx(2.0).epsilon(0.1));
  check_quoted_row("| builtin:box 1 x 0.125 x 0.125, via the model plugin | 1/8, 1/16, 1/32 | ",
                   errors, {std::log2(errors[0] / errors[1]), order});
}

TEST_CASE("plane wave along the built-in cylinder: L2 error of order 2") {
  const double k = 2 * std::numbers::pi;
  std::vector<double> errors, h;
  for (std::int64_t resolution : {8, 16, 24}) {
    BuiltinShape shape{"cylinder", resolution};
    shape.cylinder_radius = 0.25;
    shape.cylinder_length = 1.0;
    const TetMesh mesh = make_builtin_mesh(shape);
    errors.push_back(plane_wave_error(mesh, k, 2));
    h.push_back(1.0 / resolution);
  }
  const double order = std::log(errors[1] / errors[2]) / std::log(h[1] / h[2]);
  MESSAGE("cylinder errors " << errors[0] << " " << errors[1] << " " << errors[2] << ", order "
                             << order);
  CHECK(order == doctest::Approx(2.0).epsilon(0.1));
  check_quoted_row("| builtin:cylinder r = 0.25, L = 1 (absolute L2 error) | 1/8, 1/16, 1/24 | ",
                   errors, {std::log(errors[0] / errors[1]) / std::log(h[0] / h[1]), order});
}

TEST_CASE(
    "gmsh duct: MSH 4.1 (with and without parametric nodes) and 2.2 give the same mesh; the plane "
    "wave converges") {
  TetMesh v41 = read_gmsh(data_dir + "/duct-h0.125.msh");
  TetMesh v22 = read_gmsh(data_dir + "/duct-h0.125-v22.msh");
  TetMesh parametric = read_gmsh(data_dir + "/duct-h0.125-parametric.msh");
  CHECK(v41.nodes == v22.nodes);
  CHECK(v41.tets == v22.tets);
  CHECK(v41.nodes == parametric.nodes);
  CHECK(v41.tets == parametric.tets);
  REQUIRE(v41.groups.size() == 3);
  for (std::size_t g = 0; g < 3; ++g) {
    CHECK(v41.groups[g].name == v22.groups[g].name);
    CHECK(v41.groups[g].triangles == v22.groups[g].triangles);
  }
  check_conforming(v41);
  CHECK(mesh_volume(v41) == doctest::Approx(0.0625).epsilon(1e-12));
  CHECK(area(v41, "inlet") == doctest::Approx(0.0625).epsilon(1e-12));
  CHECK(area(v41, "walls") == doctest::Approx(1.0).epsilon(1e-12));

  TetMesh fine = read_gmsh(data_dir + "/duct-h0.0625.msh");
  const std::size_t before = bandwidth(fine);
  renumber_reverse_cuthill_mckee(fine);
  check_conforming(fine);
  MESSAGE("bandwidth of the fine duct: " << before << " as read, " << bandwidth(fine)
                                         << " after RCM");
  CHECK(bandwidth(fine) * 4 < before);
  ::solvent::test::check_quoted_list(SOLVENT_HELMHOLTZ_DOC, "fine test duct's bandwidth falls from ",
                                     {double(before), double(bandwidth(fine))}, " to ");
  renumber_reverse_cuthill_mckee(v41);
  const double k = 2 * std::numbers::pi;
  const double coarse_error = plane_wave_error(v41, k, 0),
               fine_error = plane_wave_error(fine, k, 0);
  const double h_ratio = std::cbrt(double(fine.tets.size()) / v41.tets.size());
  const double order = std::log(coarse_error / fine_error) / std::log(h_ratio);
  MESSAGE("gmsh duct errors " << coarse_error << " " << fine_error << ", order " << order);
  check_quoted_row("(tests/models/helmholtz/data), h = 0.125, 0.0625 (absolute) | | ",
                   {coarse_error, fine_error}, {order});
  CHECK(order > 1.6);
  CHECK(order < 2.6);
}

TEST_CASE("gmsh reader: unused nodes dropped, tags renumbered, named and unnamed groups") {
  const TetMesh m = read_gmsh(data_dir + "/one-tet.msh");
  CHECK(m.nodes.size() == 4);
  CHECK(m.tets.size() == 1);
  REQUIRE(m.groups.size() == 1);
  CHECK(m.groups[0].name == "lid");
  CHECK(m.groups[0].triangles.size() == 1);
}

TEST_CASE("gmsh reader: malformed files name file and line") {
  auto message = [](const std::string& file) {
    try {
      read_gmsh(data_dir + "/" + file);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string d = data_dir + "/";
  CHECK(message("bad-version.msh") ==
        d + "bad-version.msh:2: MSH version 3.0 is not supported (4.1 or 2.2 ASCII)");
  CHECK(message("bad-binary.msh") == d + "bad-binary.msh:2: binary MSH files are not supported; "
                                         "save as ASCII (gmsh -format msh41)");
  CHECK(message("bad-node.msh") == d + "bad-node.msh:13: node 99 is not in $Nodes");
  CHECK(message("bad-coordinate.msh") ==
        d + "bad-coordinate.msh:8: expected a coordinate, found 'abc'");
  CHECK(message("bad-order.msh") == d + "bad-order.msh:13: second-order elements (type 11) are not "
                                        "supported; mesh with gmsh -order 1");
  CHECK(message("missing.msh") ==
        d + "missing.msh: cannot open for reading: No such file or directory");
  CHECK(message(".") == d + ".: is a directory");
  CHECK(message("bad-count-huge.msh") ==
        d + "bad-count-huge.msh:5: $Nodes declares 1000000000000 nodes, more than the 19 bytes "
            "after it can hold (4 numbers each)");
  CHECK(message("bad-count-negative.msh") ==
        d + "bad-count-negative.msh:5: $Nodes declares -1 nodes; a count cannot be negative");
  CHECK(message("bad-v4-block.msh") ==
        d + "bad-v4-block.msh:18: an element block declares -5 elements; a count cannot be "
            "negative");
  CHECK(message("bad-nan.msh") == d + "bad-nan.msh:7: coordinate y of node 2 is NaN");
  CHECK(message("bad-infinite.msh") ==
        d + "bad-infinite.msh:9: coordinate z of node 4 is infinite");
  CHECK(message("bad-duplicate-node.msh") ==
        d + "bad-duplicate-node.msh:8: node 2 appears twice in $Nodes");
  CHECK(message("bad-flat-tet.msh") == d + "bad-flat-tet.msh:13: a tetrahedron names node 1 twice");
  // Four distinct nodes in one plane (the second element): no volume, refused at its line.
  CHECK(message("bad-coplanar-tet.msh") ==
        d + "bad-coplanar-tet.msh:15: the tetrahedron of nodes 1, 2, 3, 5 has no volume (its "
            "nodes lie in one plane)");
  CHECK(message("bad-no-tets.msh") ==
        d + "bad-no-tets.msh:10: the mesh has no linear tetrahedra (type 4); mesh it with gmsh -3");
  CHECK(message("bad-triangle-node.msh") ==
        d + "bad-triangle-node.msh:15: a triangle of physical surface '7' has node 5, which no "
            "tetrahedron uses");
}

TEST_CASE("gmsh reader: the in-memory entry point reads what the file version reads") {
  const TetMesh from_text = parse_gmsh(read_input_file(data_dir + "/one-tet.msh"), "one-tet.msh");
  const TetMesh from_file = read_gmsh(data_dir + "/one-tet.msh");
  CHECK(from_text.nodes == from_file.nodes);
  CHECK(from_text.tets == from_file.tets);
}

TEST_CASE("built-in meshes beyond 32-bit node numbers are refused, naming the key") {
  const std::string limit =
      " cells (lengths times resolution), more than the 2147483647 "
      "vertices that 32-bit node numbers can address; shrink the geometry "
      "or lower resolution";
  try {
    make_builtin_mesh({"box", 10, {1e18, 1.0, 1.0}});
    FAIL("a 1e18 m box was meshed");
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()) ==
          "[model] box.size: the built-in mesh would have 1e+19 x 10 x 10" + limit);
  }
  CHECK_THROWS_WITH_AS(
      make_builtin_mesh({"cabin", 100000}),
      ("[model] resolution: the built-in mesh would have 2.8e+05 x 1.4e+05 x 1.15e+05" + limit)
          .c_str(),
      ConfigError);
}

TEST_CASE("locate: P1 interpolation at the located point reproduces a linear field") {
  const TetMesh mesh = make_builtin_mesh({"cabin", 4});
  std::vector<double> f(mesh.nodes.size());
  const auto linear = [](const Point& x) { return 1.0 + 2.0 * x[0] - 3.0 * x[1] + 0.5 * x[2]; };
  for (std::size_t i = 0; i < f.size(); ++i) f[i] = linear(mesh.nodes[i]);
  // A node, the middle of a front seat's gap and a point on the driver's side.
  for (const Point& x : {mesh.nodes[17], Point{1.4, 0.0, 0.6}, Point{1.55, 0.35, 1.0}}) {
    const auto at = locate(mesh, x);
    REQUIRE(at.has_value());
    double value = 0.0, weights = 0.0;
    for (int m = 0; m < 4; ++m) {
      CHECK(at->weight[m] >= -1e-9);
      value += at->weight[m] * f[static_cast<std::size_t>(at->node[m])];
      weights += at->weight[m];
    }
    CHECK(weights == doctest::Approx(1.0).epsilon(1e-12));
    CHECK(value == doctest::Approx(linear(x)).epsilon(1e-12));
  }
  // Inside a seat (a solid, no tetrahedra) and outside the box.
  CHECK_FALSE(locate(mesh, {1.4, 0.3, 0.2}).has_value());
  CHECK_FALSE(locate(mesh, {3.0, 0.0, 0.5}).has_value());
}

TEST_CASE("model.probe: |u| of the plane wave at a point, and a point outside refused") {
  const testkit::Settings duct{{"mesh", std::string("builtin:box")},
                               {"box.size", std::vector<double>{1.0, 0.125, 0.125}},
                               {"resolution", std::int64_t(16)},
                               {"frequency", 343.0},
                               {"reference", std::string("plane-wave-x")}};
  testkit::Settings probed = duct;
  probed["probe"] = std::vector<double>{0.37, 0.05, 0.08};
  auto model = testkit::make_model("helmholtz", probed);
  LinearProblem* problem = model->linear();
  const auto& a = std::get<CsrMatrix<complex>>(*problem->matrix());
  const auto u = helmholtz::test::solve_banded(a, std::get<std::vector<complex>>(problem->rhs()));
  std::map<std::string, double> o;
  for (const auto& ob : problem->observables(u)) o[ob.name] = ob.value;
  // The exact wave has |u| = 1 everywhere; P1 at 16 cells a wavelength is within 2 %.
  REQUIRE(o.count("probe_abs_u") == 1);
  CHECK(o["probe_abs_u"] == doctest::Approx(1.0).epsilon(0.02));
  CHECK(o["probe_spl_db"] ==
        doctest::Approx(20.0 * std::log10(o["probe_abs_u"] / std::sqrt(2.0) / 20e-6)));
  // Without the key, no probe observables.
  auto plain = testkit::make_model("helmholtz", duct);
  const auto& b = std::get<CsrMatrix<complex>>(*plain->linear()->matrix());
  for (const auto& ob : plain->linear()->observables(
           helmholtz::test::solve_banded(b, std::get<std::vector<complex>>(plain->linear()->rhs()))))
    CHECK(ob.name.rfind("probe", 0) != 0);

  testkit::Settings outside = duct;
  outside["probe"] = std::vector<double>{0.5, 0.5, 0.05};
  CHECK_THROWS_WITH_AS(testkit::make_model("helmholtz", outside),
                       "--set: probe: the point [0.5, 0.5, 0.05] is not inside the mesh "
                       "builtin:box (a solid, or outside its bounding box x [0, 1], y [0, "
                       "0.125], z [0, 0.125])",
                       ConfigError);
  testkit::Settings two = duct;
  two["probe"] = std::vector<double>{0.5, 0.05};
  CHECK_THROWS_WITH_AS(testkit::make_model("helmholtz", two),
                       "--set: probe needs 3 values (x, y, z), not 2", ConfigError);
}
