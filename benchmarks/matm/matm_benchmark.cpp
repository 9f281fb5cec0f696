// MATM benchmark: the grid-equations-3d systems from 64^3 up, solved by matm-cuda,
// matm (CPU) and the Krylov comparison solvers side by side in one run. For each solve:
// iterations to ||Ax - f|| / ||f|| <= 1e-8 (checked here against the Stencil7, and the
// discretisation error against the manufactured solution), time per iteration, time per
// iteration per 1000 nodes (Sukhinov et al.'s unit), and for MATM the floor: bytes its passes
// move per iteration over the measured copy bandwidth. Then the block-shape table of
// matm-cuda (both sweep layouts) and the CPU thread scaling.
//
//   matm-benchmark [--sizes 64,128,256] [--shape-size 256] [--cpu-full-max 128] [--out FILE]
//                  [--quick 1]   (matm-cuda alone, Poisson, fewer block shapes)
//   matm-benchmark --tuning FILE.csv [--tuning-y 1000,3000,10000,30000] [--tuning-cross 128]
//     Sukhinov et al.'s tuning experiment instead: the time of one MATM iteration per 1000
//     nodes against the extent Y of the march axis (Oy) and the block's ratio k = X/Z of
//     threads along Ox to threads along Oz, X Z = 640 as in the paper, for the paper's sweep
//     (Algorithm 2) and the warp-scan shapes among them; one CSV row a point, for
//     scripts/matm-tuning-fit (the regression of the paper's eq. (6) and its figure).
#ifdef MATM_BENCHMARK_CUDA
#include <solvent_test/device_timing.hpp>
#endif

#include <solvent/plugin_factory.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

using solvent::plugins::Settings;

namespace {

// The device's copy bandwidth (bytes read + written per second, 1 GiB cudaMemcpy) and its
// name; 0 and "none" without CUDA or a device.
std::pair<double, std::string> device_ceiling() {
#ifdef MATM_BENCHMARK_CUDA
  try {
    return {1e9 * solvent::test::copy_bandwidth_gbs(std::size_t(1) << 30),
            solvent::test::device_description()};
  } catch (const solvent::DeviceUnavailable&) {
  }
#endif
  return {0.0, "none"};
}

struct Problem {
  std::string label;
  long n = 0;  // n1 of an n1 x n2 x n3 box; the edge of a cube
  std::shared_ptr<solvent::Model> model;
  std::shared_ptr<const solvent::Operator> matrix;
  std::vector<double> b;
  bool self_adjoint = true;
};

Problem make_problem(long n1, long n2, long n3, bool convection) {
  Problem p;
  p.n = n1;
  p.self_adjoint = !convection;
  Settings s{{"n1", std::int64_t(n1)}, {"n2", std::int64_t(n2)}, {"n3", std::int64_t(n3)}};
  if (convection) {
    s["problem"] = std::string("convection-diffusion");
    s["velocity"] = std::string("rotating");
    s["peclet"] = 100.0;
    p.label = "convection-diffusion (rotating, Pe 100)";
  } else {
    p.label = "poisson";
  }
  p.model = solvent::plugins::make_model("grid-equations-3d", s);
  p.matrix = p.model->linear()->matrix();
  p.b = std::get<std::vector<double>>(p.model->linear()->rhs());
  return p;
}

Problem make_problem(long n, bool convection) { return make_problem(n, n, n, convection); }

double true_residual(const solvent::Stencil7<double>& a, const std::vector<double>& f,
                     const std::vector<double>& x) {
  const std::ptrdiff_t off[7] = {0,
                                 -1,
                                 1,
                                 -std::ptrdiff_t(a.n1),
                                 std::ptrdiff_t(a.n1),
                                 -std::ptrdiff_t(a.n1 * a.n2),
                                 std::ptrdiff_t(a.n1 * a.n2)};
  double rr = 0, ff = 0;
  const auto n = static_cast<std::ptrdiff_t>(a.size());
#pragma omp parallel for reduction(+ : rr, ff)
  for (std::ptrdiff_t m = 0; m < n; ++m) {
    if (a.c[0][m] == 0.0) continue;
    double r = a.c[0][m] * x[m] - f[m];
    for (int d = 1; d < 7; ++d)
      if (a.c[d][m] != 0.0) r -= a.c[d][m] * x[m + off[d]];
    rr += r * r;
    ff += f[m] * f[m];
  }
  return std::sqrt(rr / ff);
}

std::string fact(const solvent::Facts& f, const std::string& key) {
  for (const auto& [k, v] : f)
    if (k == key) return v;
  return "";
}

struct Row {
  std::string solver, settings, note;
  long n = 0;
  long iterations = 0;
  bool converged = false;
  double residual = 0, error_max = 0, ms_per_iteration = 0, floor_ms = 0;
  bool ran = false;
};

std::string describe(const Settings& s) {
  std::ostringstream o;
  for (const auto& [k, v] : s) {
    if (k == "tolerance" || k == "max_iterations") continue;
    o << (o.tellp() > 0 ? " " : "") << k << "=";
    std::visit(
        [&](const auto& x) {
          if constexpr (std::is_arithmetic_v<std::decay_t<decltype(x)>> ||
                        std::is_same_v<std::decay_t<decltype(x)>, std::string>)
            o << x;
        },
        v);
  }
  return o.str();
}

// One solve; `fixed` > 0 runs exactly that many iterations (time per iteration only).
Row solve(const Problem& p, const std::string& name, Settings s, long fixed, int repeats = 1,
          bool warm_up = true) {
  Row row;
  row.solver = name;
  row.settings = describe(s);
  row.n = p.n;
  s["tolerance"] = fixed > 0 ? 1e-300 : 1e-8;
  s["max_iterations"] = std::int64_t(fixed > 0 ? fixed : 20000);
  try {
    auto solver = solvent::plugins::make_linear_solver(name, s);
    solver->setup(p.matrix);
    std::vector<double> x(p.b.size());
    if (warm_up) {  // context creation, first-touch, module load
      Settings w = s;
      w["max_iterations"] = std::int64_t(2);
      auto warm = solvent::plugins::make_linear_solver(name, w);
      warm->setup(p.matrix);
      warm->solve(std::span<const double>(p.b), std::span<double>(x));
    }
    std::vector<double> per_iteration;
    solvent::SolveStats st;
    for (int r = 0; r < repeats; ++r) {
      std::fill(x.begin(), x.end(), 0.0);
      const auto t0 = std::chrono::steady_clock::now();
      st = solver->solve(std::span<const double>(p.b), std::span<double>(x));
      const double wall =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const std::string dev = fact(solver->facts(), "device_seconds");
      const double seconds = dev.empty() ? wall : std::stod(dev);
      if (dev.empty() && r == 0)
        row.note =
            name.find("cuda") != std::string::npos ? "wall clock, uploads included" : "wall clock";
      per_iteration.push_back(1e3 * seconds / double(std::max<std::int64_t>(st.iterations, 1)));
    }
    std::sort(per_iteration.begin(), per_iteration.end());
    row.ms_per_iteration = per_iteration[per_iteration.size() / 2];
    row.iterations = st.iterations;
    row.converged = st.converged;
    row.residual = true_residual(std::get<solvent::Stencil7<double>>(*p.matrix), p.b, x);
    for (const auto& o : p.model->linear()->observables(solvent::Vector(x)))
      if (o.name == "error_max") row.error_max = o.value;
    row.ran = true;
    if (fixed == 0 && (!st.converged || row.residual > 1.5e-8))
      row.note = "CHECK FAILED: not converged to 1e-8";
  } catch (const solvent::PluginError& e) {
    row.note = std::string("skipped: ") + e.what();
  } catch (const solvent::DeviceUnavailable& e) {
    row.note = std::string("skipped: ") + e.what();
  } catch (const solvent::Error& e) {
    row.note = std::string("error: ") + e.what();
  }
  return row;
}

// Bytes matm's passes move per iteration, in doubles per grid node: residual (x, w, f,
// c0, 3 lower couplings in; x, r out), lower sweep (r, c0, 3 couplings in; y out), upper
// sweep (the same with y, w), A0 w with inner products (w, r, c0, 3 couplings in; z out),
// lower sweep of A0 w (6). The non-self-adjoint case adds the 3 skew couplings to the
// residual and A w passes, A1 w out, and a lower sweep of A1 w.
double matm_bytes_per_iteration(long n, bool self_adjoint) {
  const double doubles_per_node = self_adjoint ? 34.0 : 47.0;
  return doubles_per_node * 8.0 * double(n) * double(n) * double(n);
}

double host_copy_bandwidth() {
  const std::size_t n = std::size_t(1) << 27;  // 1 GiB per array
  std::vector<double> a(n, 1.0), b(n, 0.0);
  std::vector<double> s;
  for (int r = 0; r < 6; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) b[i] = a[i];
    s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(s.begin() + 1, s.end());
  return 2.0 * 8.0 * double(n) / s[1 + (s.size() - 1) / 2];
}

std::string fmt(double v, int precision = 3) {
  std::ostringstream o;
  o.precision(precision);
  o << v;
  return o.str();
}

void print_rows(std::ostream& out, const std::vector<Row>& rows) {
  out << "| n^3 | solver | settings | iterations | converged | relative residual | max error | "
         "ms/iteration | "
         "ms/iteration/1000 nodes | floor ms | ratio | note |\n";
  out << "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& r : rows) {
    if (!r.ran) {
      out << "| " << r.n << " | " << r.solver << " | " << r.settings << " | | | | | | | | | "
          << r.note << " |\n";
      continue;
    }
    const double nodes = double(r.n) * r.n * r.n;
    out << "| " << r.n << " | " << r.solver << " | " << r.settings << " | " << r.iterations << " | "
        << (r.converged ? "yes" : "no") << " | " << fmt(r.residual) << " | " << fmt(r.error_max)
        << " | " << fmt(r.ms_per_iteration) << " | " << fmt(r.ms_per_iteration / (nodes / 1000.0))
        << " | " << (r.floor_ms > 0 ? fmt(r.floor_ms) : "") << " | "
        << (r.floor_ms > 0 ? fmt(r.ms_per_iteration / r.floor_ms) : "") << " | " << r.note
        << " |\n";
  }
  out << "\n";
}

std::vector<long> parse_list(const std::string& s) {
  std::vector<long> v;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) v.push_back(std::stol(item));
  return v;
}

// Sukhinov et al.'s tuning experiment on a cross x Y x cross Poisson box for each Y (the
// march axis Oy is axis 2): 5 iterations, median of 3, for every block X x Z = 640 that fits
// the cross-section, in the paper's sweep and, where X is a multiple of 32, the warp-scan
// one. Rows go to the CSV as they are measured, so a cut-short run keeps what it has.
void tuning_study(const std::string& csv_path, const std::vector<long>& ys, long cross,
                  double device_bw) {
  // The bytes floor of 1000 nodes (a 10^3 box) is the same for every point.
  const double floor = 1e3 * matm_bytes_per_iteration(10, true) / device_bw;
  std::ofstream csv(csv_path);
  csv << "sweep,X,Z,k,Y,n1,n3,nodes,ms_per_iteration,ms_per_1000_nodes,floor_ms_per_1000_nodes\n"
      << std::flush;
  for (long y : ys) {
    const Problem p = make_problem(cross, y, cross, false);
    const double nodes = double(cross) * double(y) * double(cross);
    for (const char* sweep : {"paper", "warp-scan"})
      for (int x = 1; x <= 640; ++x) {
        const int z = 640 / x;
        if (640 % x != 0 || x > cross || z > cross) continue;
        if (std::strcmp(sweep, "warp-scan") == 0 && x % 32 != 0) continue;
        const Row r = solve(p, "matm-cuda",
                            {{"sweep", std::string(sweep)},
                             {"block_x", std::int64_t(x)},
                             {"block_z", std::int64_t(z)}},
                            5, 3, false);
        std::cout << "tuning Y=" << y << " " << sweep << " " << x << "x" << z << ": "
                  << (r.ran ? fmt(r.ms_per_iteration) + " ms/iteration" : r.note) << "\n"
                  << std::flush;
        if (!r.ran) continue;
        csv << sweep << "," << x << "," << z << "," << double(x) / z << "," << y << "," << cross
            << "," << cross << "," << nodes << "," << r.ms_per_iteration << ","
            << r.ms_per_iteration / (nodes / 1000.0) << "," << floor << "\n"
            << std::flush;
      }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<long> sizes{64, 128, 256};
  long shape_size = 256, cpu_full_max = 128;
  std::string out_path, tuning_csv;
  std::vector<long> tuning_y{1000, 3000, 10000, 30000};
  long tuning_cross = 128;
  bool quick = false;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--sizes")
      sizes = parse_list(argv[i + 1]);
    else if (a == "--shape-size")
      shape_size = std::stol(argv[i + 1]);
    else if (a == "--cpu-full-max")
      cpu_full_max = std::stol(argv[i + 1]);
    else if (a == "--out")
      out_path = argv[i + 1];
    else if (a == "--quick")
      quick = std::string(argv[i + 1]) == "1";
    else if (a == "--tuning")
      tuning_csv = argv[i + 1];
    else if (a == "--tuning-y")
      tuning_y = parse_list(argv[i + 1]);
    else if (a == "--tuning-cross")
      tuning_cross = std::stol(argv[i + 1]);
  }
  std::ostringstream out;
  const auto [device_bw, device] = device_ceiling();
  const double host_bw = host_copy_bandwidth();
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  out << "Device: " << device << "; device copy bandwidth " << fmt(device_bw / 1e9, 4)
      << " GB/s (read + write, 1 GiB cudaMemcpy D2D, median of 10). Host: " << threads
      << " OpenMP threads, copy bandwidth " << fmt(host_bw / 1e9, 4) << " GB/s.\n\n";
  std::cout << out.str() << std::flush;
  if (!tuning_csv.empty()) {
    if (device_bw <= 0) {
      std::cerr << "matm-benchmark --tuning: no CUDA device, and the study times matm-cuda\n";
      return 1;
    }
    tuning_study(tuning_csv, tuning_y, tuning_cross, device_bw);
    return 0;
  }

  const Settings all_threads{{"threads", std::int64_t(0)}};
  const std::vector<std::pair<std::string, Settings>> krylov{
      {"cg-cuda", {}}, {"bicgstab-cuda", {}}, {"cg", {}}, {"bicgstab", {}}};
  for (bool convection : {false, true}) {
    if (quick && convection) continue;
    std::vector<Row> rows;
    std::string label;
    for (long n : sizes) {
      const Problem p = make_problem(n, convection);
      label = p.label;
      Row g = solve(p, "matm-cuda", {}, 0, 3);
      if (device_bw > 0) g.floor_ms = 1e3 * matm_bytes_per_iteration(n, p.self_adjoint) / device_bw;
      rows.push_back(g);
      if (quick) continue;
      const bool cpu_full = n <= cpu_full_max;
      Row c = solve(p, "matm", all_threads, cpu_full ? 0 : 5);
      c.floor_ms = 1e3 * matm_bytes_per_iteration(n, p.self_adjoint) / host_bw;
      if (!cpu_full) c.note = "5 iterations only (time per iteration)";
      rows.push_back(c);
      for (const auto& [name, s] : krylov) {
        if (convection && name.rfind("cg", 0) == 0) continue;  // CG needs a self-adjoint operator
        const bool device_solver = name.find("cuda") != std::string::npos;
        const bool full = device_solver || cpu_full;
        Row k = solve(p, name, s, full ? 0 : 20);
        if (!full && k.ran) k.note = "20 iterations only (time per iteration)";
        rows.push_back(k);
      }
      std::ostringstream part;
      print_rows(part, {rows.end() - (quick ? 1 : convection ? 4 : 6), rows.end()});
      std::cout << part.str() << std::flush;
    }
    out << "### " << label << "\n\n";
    print_rows(out, rows);
  }

  // Block shapes of matm-cuda at shape_size^3, Poisson: 10 iterations, median of 3.
  if (device_bw > 0) {
    const Problem p = make_problem(shape_size, false);
    const double floor_ms = 1e3 * matm_bytes_per_iteration(shape_size, true) / device_bw;
    using Shape = std::tuple<const char*, int, int>;  // (sweep, block_x, block_z)
    const std::vector<Shape> quick_shapes{
        {"warp-scan", 64, 4},  {"warp-scan", 64, 8},  {"warp-scan", 64, 16}, {"warp-scan", 128, 4},
        {"warp-scan", 128, 8}, {"warp-scan", 32, 16}, {"warp-scan", 32, 32}, {"warp-scan", 256, 2},
        {"warp-scan", 256, 4}, {"paper", 64, 8}};
    const std::vector<Shape> all_shapes{
        {"warp-scan", 32, 1},  {"warp-scan", 32, 4},  {"warp-scan", 32, 8},  {"warp-scan", 64, 1},
        {"warp-scan", 64, 2},  {"warp-scan", 64, 4},  {"warp-scan", 64, 8},  {"warp-scan", 128, 1},
        {"warp-scan", 128, 2}, {"warp-scan", 128, 4}, {"warp-scan", 256, 1}, {"warp-scan", 256, 2},
        {"paper", 16, 16},     {"paper", 32, 4},      {"paper", 64, 4},      {"paper", 64, 8},
        {"paper", 128, 2},     {"paper", 256, 1}};
    std::vector<Row> rows;
    for (const auto& [sweep, bx, bz] : quick ? quick_shapes : all_shapes) {
      Row r = solve(p, "matm-cuda",
                    {{"sweep", std::string(sweep)},
                     {"block_x", std::int64_t(bx)},
                     {"block_z", std::int64_t(bz)}},
                    10, 3, false);
      r.floor_ms = floor_ms;
      rows.push_back(r);
      std::cout << sweep << " " << bx << "x" << bz << ": " << fmt(r.ms_per_iteration)
                << " ms/iteration " << r.note << "\n"
                << std::flush;
    }
    out << "### matm-cuda block shapes, poisson " << shape_size
        << "^3 (10 iterations, median of 3)\n\n";
    print_rows(out, rows);
  }

  // CPU scaling of matm: 5 iterations at the largest size solved in full on the CPU.
  if (!quick) {
    long n = 0;
    for (long s : sizes)
      if (s <= cpu_full_max) n = std::max(n, s);
    if (n > 0) {
      const Problem p = make_problem(n, false);
      std::vector<Row> rows;
      std::vector<int> counts{1, 2};
      if (threads > 2) counts.push_back(threads);
      for (int t : counts) rows.push_back(solve(p, "matm", {{"threads", std::int64_t(t)}}, 5, 3));
      out << "### matm (CPU) thread scaling, poisson " << n << "^3 (5 iterations, median of 3)\n\n";
      print_rows(out, rows);
    }
  }

  std::cout << "\n" << out.str();
  if (!out_path.empty()) std::ofstream(out_path) << out.str();
  return 0;
}
