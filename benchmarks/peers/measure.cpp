#include "peers.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace peers {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

bool installed(const std::string& name, solvent::PluginKind kind) {
  const auto names = solvent::plugins::installed(kind);
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

template <class T>
double Outcome<T>::ms_per_iteration() const {
  return 1e3 * solve_s / double(std::max<std::int64_t>(stats.iterations, 1));
}

template <class T>
Outcome<T> measure(const Contender& c, const System<T>& s, int repeats, double budget_s) {
  Outcome<T> out;
  // A plugin this build lacks (PETSc not found, the preconditioner bridge not built) is a
  // skip, named in the table; any other error is the benchmark's failure.
  for (const auto& [name, kind] :
       {std::pair{c.solver, solvent::PluginKind::LinearSolver},
        std::pair{c.preconditioner, solvent::PluginKind::Preconditioner}})
    if (!name.empty() && !installed(name, kind)) {
      out.skipped = "no plugin " + name;
      return out;
    }
  auto solver = solvent::plugins::make_linear_solver(c.solver, c.settings);
  if (!c.preconditioner.empty())
    solver->set_preconditioner(
        solvent::plugins::make_preconditioner(c.preconditioner, c.preconditioner_settings));
  auto t0 = std::chrono::steady_clock::now();
  solver->setup(s.op);
  out.setup_s = seconds_since(t0);
  out.x.assign(s.b.size(), T(0));
  auto solve = [&] {
    std::fill(out.x.begin(), out.x.end(), T(0));
    const auto t = std::chrono::steady_clock::now();
    out.stats = solver->solve(std::span<const T>(s.b), std::span<T>(out.x));
    return seconds_since(t);
  };
  const double first = solve();  // warm-up: first touch of the work vectors
  std::vector<double> times;
  const auto begin = std::chrono::steady_clock::now();
  while (int(times.size()) < repeats && seconds_since(begin) + first < budget_s)
    times.push_back(solve());
  if (times.empty()) times.push_back(first);
  out.solve_s = median(times);
  out.residual =
      solvent::relative_residual(*s.op, std::span<const T>(s.b), std::span<const T>(out.x));
  out.ran = true;
  return out;
}

template <class T>
double relative_difference(const std::vector<T>& a, const std::vector<T>& b) {
  double d = 0, n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d += std::norm(a[i] - b[i]);
    n += std::norm(b[i]);
  }
  return std::sqrt(d / n);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

bool Checks::expect(bool ok, const std::string& what) {
  if (!ok) {
    ++failures_;
    std::printf("\nCHECK FAILED: %s\n\n", what.c_str());
    std::fflush(stdout);
  }
  return ok;
}

System<solvent::complex> cabin(std::int64_t resolution) {
  auto model = solvent::plugins::make_model(
      "helmholtz", {{"mesh", std::string("builtin:cabin")}, {"resolution", resolution}});
  return {"cabin-" + std::to_string(resolution), model->linear()->matrix(),
          std::get<std::vector<solvent::complex>>(model->linear()->rhs())};
}

template struct Outcome<double>;
template struct Outcome<solvent::complex>;
template Outcome<double> measure(const Contender&, const System<double>&, int, double);
template Outcome<solvent::complex> measure(const Contender&, const System<solvent::complex>&, int,
                                           double);
template double relative_difference(const std::vector<double>&, const std::vector<double>&);
template double relative_difference(const std::vector<solvent::complex>&,
                                    const std::vector<solvent::complex>&);

}  // namespace peers
