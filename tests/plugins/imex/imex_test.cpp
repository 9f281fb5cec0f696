// imex: the orders of the three IMEX integrators and of the Rannacher start on the testkit's
// manufactured problem, and what the L-stable options are for: on the default angiogenesis-1d
// experiment (dt = 0.01, diffusion number ~160) Crank-Nicolson leaves the initial step in C
// ringing, backward-Euler half steps, SBDF2 or the adaptive ARK damp it, and the trapezoid
// integrator says so.
#include <solvent/testkit.hpp>
#include <solvent_test/quoted_figures.hpp>

#include <doctest/doctest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace tk = solvent::testkit;

TEST_CASE("orders in dt: sbdf2 2, the Rannacher start keeps cnab2 at 2 and trapezoid at 1") {
  const double sbdf2 = tk::measured_time_order("imex-sbdf2", {});
  const double cnab2 =
      tk::measured_time_order("imex-cnab2", {{"rannacher_steps", std::int64_t{2}}});
  const double trapezoid =
      tk::measured_time_order("imex-trapezoid", {{"rannacher_steps", std::int64_t{2}}});
  MESSAGE("orders: imex-sbdf2 " << sbdf2 << ", imex-cnab2 + Rannacher " << cnab2
                                << ", imex-trapezoid + Rannacher " << trapezoid);
  CHECK(std::abs(sbdf2 - 2.0) < 0.1);
  CHECK(std::abs(cnab2 - 2.0) < 0.1);
  CHECK(std::abs(trapezoid - 1.0) < 0.1);
  // The model's page quotes the two second orders as measured here.
  solvent::test::check_quoted_list(MODEL_DOC, "`imex-cnab2`, measured ", {cnab2});
  solvent::test::check_quoted_list(MODEL_DOC, "second order (measured ", {sbdf2});
}

namespace {

class FinalState : public solvent::Observer {
 public:
  void on_start(const solvent::FieldLayout& l) override { layout = l; }
  void on_step(const solvent::StepInfo&, std::span<const double> u,
               std::span<const solvent::Observable>) override {
    state.assign(u.begin(), u.end());
  }
  solvent::FieldLayout layout;
  std::vector<double> state;
};

// C on [0.05, 0.15] at t = 1 of the default experiment (M = 400, julia parameters, dt =
// 0.01 unless given): its total variation, which Crank-Nicolson's ringing makes large, and
// its range.
struct Ringing {
  double variation = 0.0, lowest = INFINITY, highest = -INFINITY;
};

Ringing ringing(const std::string& integrator, const tk::Settings& extra, std::string* log_text,
                double dt = 0.01) {
  auto model = tk::make_model("angiogenesis-1d", {{"M", std::int64_t{400}}});
  tk::Settings s = extra;
  s["dt"] = dt;
  s["steps"] = static_cast<std::int64_t>(std::lround(1.0 / dt));
  auto integ = tk::make_integrator(integrator, s);
  auto solver = tk::make_linear_solver("banded");
  std::ostringstream text;
  auto logger = std::make_shared<spdlog::logger>(
      "imex-test", std::make_shared<spdlog::sinks::ostream_sink_mt>(text));
  FinalState obs;
  solvent::PhaseTimer timer;
  solvent::RunContext ctx;
  ctx.observer = &obs;
  ctx.timer = &timer;
  ctx.log = logger.get();
  integ->run(*model, solver.get(), ctx);
  logger->flush();
  if (log_text) *log_text = text.str();
  const auto& x = obs.layout.axes.at(0).coordinates;
  Ringing r;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] < 0.05 || x[i] > 0.15) continue;
    r.lowest = std::min(r.lowest, obs.state[i]);
    r.highest = std::max(r.highest, obs.state[i]);
    if (i > 0 && x[i - 1] >= 0.05) r.variation += std::abs(obs.state[i] - obs.state[i - 1]);
  }
  return r;
}

// The page quotes a run's total variation after `before`, then its range of C after
// `between`, as "lowest<separator>highest".
void check_quoted_ringing(const std::string& file, const std::string& before,
                          const std::string& between, const std::string& separator,
                          const Ringing& r) {
  const auto row = solvent::test::check_quoted_list(file, before, {r.variation});
  solvent::test::check_quoted_list(file, row + between, {r.lowest, r.highest}, separator);
}

}  // namespace

TEST_CASE("Crank-Nicolson rings on the default experiment; Rannacher and SBDF2 do not") {
  std::string warned, quiet;
  const auto rannacher_start = tk::Settings{{"rannacher_steps", std::int64_t{2}}};
  const auto plain = ringing("imex-trapezoid", {}, &warned);
  const auto rannacher = ringing("imex-trapezoid", rannacher_start, &quiet);
  const auto cnab2 = ringing("imex-cnab2", rannacher_start, nullptr);
  const auto sbdf2 = ringing("imex-sbdf2", {}, nullptr);
  // The adaptive integrator at its default tolerance, stopping at the same times.
  const auto ark23 = ringing("imex-ark23", {}, nullptr);
  // What the others are measured against: dt = 1e-4, 10 000 steps.
  const auto converged = ringing("imex-trapezoid", rannacher_start, nullptr, 1e-4);
  MESSAGE("total variation of C on [0.05, 0.15] at t = 1: trapezoid "
          << plain.variation << ", + Rannacher " << rannacher.variation << ", cnab2 + Rannacher "
          << cnab2.variation << ", sbdf2 " << sbdf2.variation << ", ark23 " << ark23.variation
          << ", converged " << converged.variation << " (C in [" << converged.lowest << ", "
          << converged.highest << "])");
  CHECK(plain.variation > 0.5);
  CHECK(rannacher.variation < 0.05);
  CHECK(cnab2.variation < 0.05);
  CHECK(sbdf2.variation < 0.05);
  CHECK(ark23.variation < 0.05);
  // docs/models/angiogenesis-1d.md, "What the runs show", quotes them: the converged run in
  // the prose, the others in its table (total variation, then the range of C).
  check_quoted_ringing(MODEL_DOC, "10 000 steps) puts at ", ", with C in\n[", ", ", converged);
  for (const auto& [row, measured] :
       {std::pair{"| `imex-trapezoid` (the paper's scheme) | ", plain},
        std::pair{"| `imex-trapezoid`, `rannacher_steps = 2` | ", rannacher},
        std::pair{"| `imex-cnab2`, `rannacher_steps = 2` | ", cnab2},
        std::pair{"| `imex-sbdf2` | ", sbdf2}})
    check_quoted_ringing(MODEL_DOC, row, " | ", " - ", measured);
  // The package's README quotes the measure of the paper's scheme and of each cure.
  solvent::test::check_quoted_list(IMEX_README, "on the default 1D experiment (", {plain.variation});
  for (const auto& cure : {rannacher, cnab2, sbdf2})
    solvent::test::check_quoted_list(IMEX_README, "for Crank-Nicolson, ", {cure.variation});
  CHECK(warned.find("imex-trapezoid: diffusion number dt/2 max|Lin_ii| = 159 > 1 and the initial "
                    "state is not smooth") != std::string::npos);
  CHECK(warned.find("Cure: rannacher_steps = 2") != std::string::npos);
  CHECK(quiet.find("diffusion number") == std::string::npos);
}
