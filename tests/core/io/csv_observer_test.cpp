// The core's observer writes fields by their layout: one axis as a CSV profile (the format
// scripts/plot-profiles reads), two or three uniform axes as VTK image data, non-uniform ones
// as a VTK rectilinear grid; a steady solution on a grid also as VTK next to its CSV. The VTK
// files are read back here: extent, origin, spacing, coordinates and every value in place.
#include "io/csv_observer.hpp"
#include "io/vtkhdf_writer.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace solvent;
namespace fs = std::filesystem;

namespace {

// Removed when the program ends, also after a failed check.
struct ScratchRoot {
  fs::path path =
      fs::temp_directory_path() / ("solvent-csv-observer-test-" + std::to_string(::getpid()));
  ~ScratchRoot() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
} scratch_root;

fs::path scratch(const std::string& name) {
  const auto dir = scratch_root.path / name;
  fs::create_directories(dir);
  return dir;
}

Parameters output_every(std::int64_t every, const std::string& format = "vtk",
                        const std::string& precision = "float64") {
  Parameters p;
  p.set("every", every);
  p.set("times", std::vector<double>{});
  p.set("solution", true);
  p.set("format", format);
  p.set("precision", precision);
  return p;
}

std::string read_file(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  REQUIRE_MESSAGE(f, "cannot read " << path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string attribute(const std::string& xml, const std::string& name) {
  std::smatch m;
  REQUIRE_MESSAGE(std::regex_search(xml, m, std::regex(" " + name + "=\"([^\"]*)\"")),
                  name << " missing");
  return m[1];
}

std::vector<double> numbers(const std::string& text) {
  std::istringstream s(text);
  std::vector<double> v;
  for (double x; s >> x;) v.push_back(x);
  return v;
}

// The values of the DataArray named `name`, or of the first unnamed one when name is empty
// (the one coordinate of the absent third axis of a 2D rectilinear grid): inline text, or
// raw appended data (a UInt64 byte count, then the values) after the '_' that follows
// <AppendedData encoding="raw">.
std::vector<double> data_array(const std::string& file, const std::string& name) {
  const std::string named = name.empty() ? "" : " Name=\"" + name + "\"";
  std::smatch m;
  if (std::regex_search(file, m,
                        std::regex("<DataArray type=\"Float(64|32)\"" + named +
                                   " format=\"appended\" offset=\"([0-9]+)\"/>"))) {
    const auto raw = file.find("<AppendedData encoding=\"raw\">");
    REQUIRE(raw != std::string::npos);
    const auto at = file.find('_', raw) + 1 + std::stoull(m[2]);
    std::uint64_t bytes = 0;
    std::memcpy(&bytes, file.data() + at, sizeof bytes);
    std::vector<double> v;
    if (m[1] == "64") {
      v.resize(bytes / sizeof(double));
      std::memcpy(v.data(), file.data() + at + sizeof bytes, bytes);
    } else {
      std::vector<float> f(bytes / sizeof(float));
      std::memcpy(f.data(), file.data() + at + sizeof bytes, bytes);
      v.assign(f.begin(), f.end());
    }
    return v;
  }
  REQUIRE_MESSAGE(std::regex_search(file, m,
                                    std::regex("<DataArray type=\"Float64\"" + named +
                                               " format=\"ascii\">([^<]*)<")),
                  "no DataArray " << name);
  return numbers(m[1]);
}

// f evaluated on the tensor grid of the axes, the first axis fastest.
std::vector<double> sample(const FieldLayout& l, const std::function<double(const double*)>& f) {
  std::vector<double> u;
  const std::size_t m = l.points();
  for (std::size_t p = 0; p < m; ++p) {
    double x[3] = {0, 0, 0};
    std::size_t q = p;
    for (std::size_t d = 0; d < l.axes.size(); ++d) {
      x[d] = l.axes[d].coordinates[q % l.axes[d].coordinates.size()];
      q /= l.axes[d].coordinates.size();
    }
    u.push_back(f(x));
  }
  return u;
}

// One due step (every = 1) reported to an observer of its own, which writes it.
void report(const fs::path& dir, const FieldLayout& layout, std::int64_t step,
            const std::vector<double>& u, const std::string& format = "vtk",
            const std::string& precision = "float64") {
  CsvObserver csv(dir, output_every(1, format, precision));
  csv.on_start(layout);
  csv.on_step({step, 100, 0.1 * static_cast<double>(step), 0.1}, u, {});
}

std::vector<double> axis(double first, double h, std::size_t n) {
  std::vector<double> c(n);
  for (std::size_t i = 0; i < n; ++i) c[i] = first + static_cast<double>(i) * h;
  return c;
}

}  // namespace

TEST_CASE("a one-axis layout is a CSV profile named after its axis, at the due steps only") {
  const auto dir = scratch("one-axis");
  const FieldLayout layout{{"C", "P"}, {{"x", {0.0, 0.5, 1.0}}}};
  {
    CsvObserver csv(dir, output_every(10), false);
    csv.on_start(layout);
    csv.on_step({0, 20, 0.0, 0.1}, std::vector<double>{1, 2, 3, 4, 5, 6.25}, {});
    csv.on_step({5, 20, 0.5, 0.1}, std::vector<double>{1, 2, 3, 4, 5, 6}, {});
    // A state of another size than the layout's is not a profile.
    csv.on_step({10, 20, 1.0, 0.1}, std::vector<double>{1, 2, 3}, {});
    csv.on_step({20, 20, 2.0, 0.1}, std::vector<double>{0.1, 0, 0, 0, 0, 1e20}, {});
  }
  CHECK(read_file(dir / "profiles" / "step_00000000.csv") == "x,C,P\n0,1,4\n0.5,2,5\n1,3,6.25\n");
  CHECK(read_file(dir / "profiles" / "step_00000020.csv") ==
        "x,C,P\n0,0.10000000000000001,0\n0.5,0,0\n1,0,1e+20\n");
  CHECK_FALSE(fs::exists(dir / "profiles" / "step_00000005.csv"));
  CHECK_FALSE(fs::exists(dir / "profiles" / "step_00000010.csv"));
  CHECK(std::distance(fs::directory_iterator(dir / "profiles"), fs::directory_iterator()) == 2);

  const auto named = scratch("one-axis-named");
  report(named, {{"T"}, {{"r", {1.0, 2.0}}}}, 3, {7, 8});
  CHECK(read_file(named / "profiles" / "step_00000003.csv") == "r,T\n1,7\n2,8\n");
}

TEST_CASE("a uniform 2D layout is VTK image data, the first axis fastest") {
  const auto dir = scratch("uniform-2d");
  const FieldLayout layout{{"a", "b"}, {{"x", axis(0.0, 0.5, 3)}, {"y", axis(-1.0, 2.0, 2)}}};
  auto u = sample(layout, [](const double* x) { return x[0] + 10.0 * x[1]; });
  const auto b = sample(layout, [](const double* x) { return x[0] * x[1] - 3.0; });
  u.insert(u.end(), b.begin(), b.end());
  report(dir, layout, 10, u);

  REQUIRE(fs::exists(dir / "profiles" / "step_00000010.vti"));
  CHECK_FALSE(fs::exists(dir / "profiles" / "step_00000010.csv"));
  CHECK_FALSE(fs::exists(dir / "profiles" / "step_00000010.vtr"));
  const auto vti = read_file(dir / "profiles" / "step_00000010.vti");
  CHECK(vti.starts_with("<?xml version=\"1.0\"?>\n<VTKFile type=\"ImageData\""));
  CHECK(attribute(vti, "WholeExtent") == "0 2 0 1 0 0");
  CHECK(attribute(vti, "Extent") == "0 2 0 1 0 0");
  CHECK(attribute(vti, "Origin") == "0 -1 0");
  CHECK(attribute(vti, "Spacing") == "0.5 2 1");
  // Point (i, j) of the image is at Origin + (i, j) * Spacing and is value i + 3 j of the file.
  const auto a = data_array(vti, "a"), bb = data_array(vti, "b");
  REQUIRE(a.size() == 6);
  REQUIRE(bb.size() == 6);
  for (std::size_t j = 0; j < 2; ++j)
    for (std::size_t i = 0; i < 3; ++i) {
      const double x = 0.5 * static_cast<double>(i), y = -1.0 + 2.0 * static_cast<double>(j);
      CHECK(a[i + 3 * j] == x + 10.0 * y);
      CHECK(bb[i + 3 * j] == x * y - 3.0);
    }
  CHECK(vti.find(" header_type=\"UInt64\"") != std::string::npos);
  CHECK(vti.ends_with("\n  </AppendedData>\n</VTKFile>\n"));
  // 2 arrays of 6 doubles, each after its 8-byte count: the values as they are in memory.
  CHECK(vti.size() - vti.find("<AppendedData encoding=\"raw\">\n   _") ==
        std::string("<AppendedData encoding=\"raw\">\n   _").size() + 2 * (8 + 6 * 8) +
            std::string("\n  </AppendedData>\n</VTKFile>\n").size());

  // As text: one line per row of the first axis, 17 digits.
  const auto text = scratch("uniform-2d-ascii");
  report(text, layout, 10, u, "vtk-ascii");
  const auto ascii = read_file(text / "profiles" / "step_00000010.vti");
  CHECK(ascii.find("\n          -10 -9.5 -9\n          10 10.5 11\n") != std::string::npos);
  CHECK(ascii.ends_with("</ImageData>\n</VTKFile>\n"));
  CHECK(data_array(ascii, "a") == a);

  // float32: the values rounded to float, half the bytes.
  const auto single = scratch("uniform-2d-float32");
  report(single, layout, 10, u, "vtk", "float32");
  const auto f32 = read_file(single / "profiles" / "step_00000010.vti");
  CHECK(f32.find("<DataArray type=\"Float32\" Name=\"b\" format=\"appended\" offset=\"32\"/>") !=
        std::string::npos);
  const auto b32 = data_array(f32, "b");
  REQUIRE(b32.size() == 6);
  for (std::size_t i = 0; i < 6; ++i)
    CHECK(b32[i] == static_cast<double>(static_cast<float>(bb[i])));

  // format = "none": no field files.
  const auto none = scratch("uniform-2d-none");
  report(none, layout, 10, u, "none");
  CHECK_FALSE(fs::exists(none / "profiles"));

  // Mismatched sizes write nothing, as for the CSV.
  const auto wrong = scratch("uniform-2d-wrong-size");
  report(wrong, layout, 10, std::vector<double>(5, 1.0));
  CHECK_FALSE(fs::exists(wrong / "profiles"));
}

TEST_CASE("a uniform 3D layout is VTK image data; spacing agreeing to 1e-9 is uniform") {
  const auto dir = scratch("uniform-3d");
  std::vector<double> z{0.0};  // accumulated: 0.1 + 0.1 + 0.1 != 0.3, still the same grid
  for (int i = 0; i < 3; ++i) z.push_back(z.back() + 0.1);
  const FieldLayout layout{{"u"}, {{"x", axis(1.0, 0.25, 4)}, {"y", axis(0.0, 1.0, 3)}, {"z", z}}};
  const auto f = [](const double* x) { return x[0] + 100.0 * x[1] + 10000.0 * x[2]; };
  report(dir, layout, 7, sample(layout, f));

  const auto vti = read_file(dir / "profiles" / "step_00000007.vti");
  CHECK(attribute(vti, "WholeExtent") == "0 3 0 2 0 3");
  CHECK(attribute(vti, "Origin") == "1 0 0");
  const auto spacing = numbers(attribute(vti, "Spacing"));
  REQUIRE(spacing.size() == 3);
  CHECK(spacing[0] == 0.25);
  CHECK(spacing[1] == 1.0);
  CHECK(spacing[2] == doctest::Approx(0.1).epsilon(1e-12));
  const auto u = data_array(vti, "u");
  REQUIRE(u.size() == 4 * 3 * 4);
  for (std::size_t k = 0; k < 4; ++k)
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t i = 0; i < 4; ++i) {
        const double x[3] = {1.0 + 0.25 * static_cast<double>(i), static_cast<double>(j), z[k]};
        CHECK(u[i + 4 * (j + 3 * k)] == f(x));
      }
}

TEST_CASE("a non-uniform 2D layout is a VTK rectilinear grid with its coordinates") {
  const auto dir = scratch("rectilinear-2d");
  // 1e-6 off uniform, well past the 1e-9 that counts as uniform.
  const std::vector<double> x{0.0, 0.5, 1.000001}, y{0.0, 0.1, 0.5, 2.0};
  const FieldLayout layout{{"p", "q"}, {{"x", x}, {"depth", y}}};
  auto u = sample(layout, [](const double* c) { return c[0] - c[1]; });
  const auto q = sample(layout, [](const double* c) { return 2.0 * c[1]; });
  u.insert(u.end(), q.begin(), q.end());
  report(dir, layout, 0, u);

  CHECK_FALSE(fs::exists(dir / "profiles" / "step_00000000.vti"));
  const auto vtr = read_file(dir / "profiles" / "step_00000000.vtr");
  CHECK(vtr.find("<VTKFile type=\"RectilinearGrid\"") != std::string::npos);
  CHECK(vtr.find("Origin=") == std::string::npos);
  CHECK(attribute(vtr, "WholeExtent") == "0 2 0 3 0 0");
  CHECK(data_array(vtr, "x") == x);
  CHECK(data_array(vtr, "depth") == y);
  CHECK(data_array(vtr, "") == std::vector<double>{0.0});
  const auto p = data_array(vtr, "p"), qq = data_array(vtr, "q");
  REQUIRE(p.size() == 12);
  for (std::size_t j = 0; j < 4; ++j)
    for (std::size_t i = 0; i < 3; ++i) {
      CHECK(p[i + 3 * j] == x[i] - y[j]);
      CHECK(qq[i + 3 * j] == 2.0 * y[j]);
    }
}

TEST_CASE("a steady solution on a grid is written as VTK, without a CSV") {
  const FieldLayout layout{{"u"}, {{"x", axis(0.0, 1.0, 2)}, {"y", axis(0.0, 1.0, 3)}}};
  const std::vector<double> x{1, 2, 3, 4, 5, 6};
  SolveStats converged;
  converged.converged = true;
  converged.iterations = 1;

  const auto dir = scratch("solution");
  {
    CsvObserver csv(dir, output_every(10));
    csv.set_solution_layout(layout);
    csv.on_solution(x, converged, {});
  }
  CHECK_FALSE(fs::exists(dir / "solution.csv"));
  const auto vti = read_file(dir / "solution.vti");
  CHECK(attribute(vti, "WholeExtent") == "0 1 0 2 0 0");
  CHECK(data_array(vti, "u") == x);

  const auto unconverged = scratch("unconverged");
  {
    CsvObserver csv(unconverged, output_every(10));
    csv.set_solution_layout(layout);
    csv.on_solution(x, SolveStats{}, {});
  }
  CHECK_FALSE(fs::exists(unconverged / "unconverged_iterate.csv"));
  CHECK(data_array(read_file(unconverged / "unconverged_iterate.vti"), "u") == x);
  CHECK_FALSE(fs::exists(unconverged / "solution.vti"));

  // No layout, a layout of another size, or a complex solution: the CSV only.
  struct Case {
    std::string name;
    FieldLayout layout;
    Vector x;
  };
  const Case cases[] = {{"no-layout", {}, x},
                        {"other-size", layout, std::vector<double>{1, 2, 3}},
                        {"complex", layout, std::vector<std::complex<double>>(6, {1.0, -1.0})}};
  for (const auto& c : cases) {
    const auto d = scratch(c.name);
    {
      CsvObserver csv(d, output_every(10));
      csv.set_solution_layout(c.layout);
      csv.on_solution(c.x, converged, {});
    }
    CHECK(read_file(d / "solution.csv").starts_with("index,"));
    CHECK_FALSE(fs::exists(d / "solution.vti"));
    CHECK_FALSE(fs::exists(d / "solution.vtr"));
  }
}

TEST_CASE("grid profiles form a time series: TimeValue in each file, profiles.pvd listing them") {
  const auto dir = scratch("series");
  const FieldLayout layout{{"u"}, {{"x", axis(0.0, 0.5, 3)}, {"y", axis(0.0, 1.0, 2)}}};
  const std::vector<double> u(6, 1.0);
  {
    CsvObserver csv(dir, output_every(10));
    csv.on_start(layout);
    for (std::int64_t step = 0; step <= 30; step += 10)
      csv.on_step({step, 40, 0.25 * static_cast<double>(step), 0.25}, u, {});
  }
  const auto vti = read_file(dir / "profiles" / "step_00000020.vti");
  CHECK(vti.find("<DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" "
                 "format=\"ascii\">5</DataArray>") != std::string::npos);
  CHECK(read_file(dir / "profiles.pvd") ==
        "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\">\n  <Collection>\n"
        "    <DataSet timestep=\"0\" file=\"profiles/step_00000000.vti\"/>\n"
        "    <DataSet timestep=\"2.5\" file=\"profiles/step_00000010.vti\"/>\n"
        "    <DataSet timestep=\"5\" file=\"profiles/step_00000020.vti\"/>\n"
        "    <DataSet timestep=\"7.5\" file=\"profiles/step_00000030.vti\"/>\n"
        "  </Collection>\n</VTKFile>\n");

  // Continued from step 20 (the earlier run's checkpoint): its entries before step 20 stay,
  // the later ones are those of the continuation.
  {
    CsvObserver csv(dir, output_every(10), true);
    csv.on_start(layout);
    for (std::int64_t step = 20; step <= 40; step += 10)
      csv.on_step({step, 40, 0.25 * static_cast<double>(step), 0.25}, u, {});
  }
  const auto pvd = read_file(dir / "profiles.pvd");
  CHECK(pvd.find("timestep=\"2.5\" file=\"profiles/step_00000010.vti\"") != std::string::npos);
  CHECK(pvd.find("timestep=\"10\" file=\"profiles/step_00000040.vti\"") != std::string::npos);
  std::size_t entries = 0;
  for (auto at = pvd.find("<DataSet"); at != std::string::npos; at = pvd.find("<DataSet", at + 1))
    ++entries;
  CHECK(entries == 5);
}

TEST_CASE("format = vtkhdf: one .vtkhdf file per profile in profiles.pvd, kept across a resume") {
  if (!vtkhdf_available()) return;  // a build without HDF5 refuses the format in validation
  const auto dir = scratch("series-vtkhdf");
  const FieldLayout layout{{"u"}, {{"x", axis(0.0, 0.5, 3)}, {"y", axis(0.0, 1.0, 2)}}};
  const std::vector<double> u(6, 1.0);
  {
    CsvObserver csv(dir, output_every(10, "vtkhdf"));
    csv.on_start(layout);
    for (std::int64_t step = 0; step <= 20; step += 10)
      csv.on_step({step, 30, 0.25 * static_cast<double>(step), 0.25}, u, {});
  }
  CHECK(fs::exists(dir / "profiles" / "step_00000010.vtkhdf"));
  CHECK_FALSE(fs::exists(dir / "profiles" / "step_00000010.vti"));
  CHECK(read_file(dir / "profiles" / "step_00000010.vtkhdf").starts_with("\x89HDF\r\n\x1a\n"));
  {
    CsvObserver csv(dir, output_every(10, "vtkhdf"), true);
    csv.on_start(layout);
    csv.on_step({20, 30, 5.0, 0.25}, u, {});
    csv.on_step({30, 30, 7.5, 0.25}, u, {});
  }
  CHECK(read_file(dir / "profiles.pvd") ==
        "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"1.0\">\n  <Collection>\n"
        "    <DataSet timestep=\"0\" file=\"profiles/step_00000000.vtkhdf\"/>\n"
        "    <DataSet timestep=\"2.5\" file=\"profiles/step_00000010.vtkhdf\"/>\n"
        "    <DataSet timestep=\"5\" file=\"profiles/step_00000020.vtkhdf\"/>\n"
        "    <DataSet timestep=\"7.5\" file=\"profiles/step_00000030.vtkhdf\"/>\n"
        "  </Collection>\n</VTKFile>\n");
}
