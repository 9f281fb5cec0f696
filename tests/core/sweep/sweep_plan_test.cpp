// The members a [sweep] table expands into: grid order, zip pairs, linspace and logspace
// ends exact, random draws by the documented mapping of std::mt19937_64, every value the
// very double written, and each value placed at its sweep entry's line.
#include "sweep/sweep_plan.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

using namespace solvent;
namespace fs = std::filesystem;

namespace {

const char* base = R"([run]
seed = 7
[model]
type = "angiogenesis-1d"
M = 20
[model.parameters]
k2 = 3.0
[integrator]
type = "imex-trapezoid"
)";

fs::path write(const std::string& name, const std::string& sweep) {
  const auto dir = fs::temp_directory_path() / "solvent-sweep-plan-test";
  fs::create_directories(dir);
  std::ofstream(dir / name) << base << sweep;
  return dir / name;
}

double real(const SweptValue& v) {
  return toml::parse("v = " + v.toml)["v"].value<double>().value();
}

std::vector<std::string> texts(const SweepPlan& plan, std::size_t key) {
  std::vector<std::string> out;
  for (const auto& m : plan.members) out.push_back(m[key].plain);
  return out;
}

}  // namespace

TEST_CASE("grid: the first key written varies slowest; linspace and logspace end exactly") {
  const auto file = write("grid.toml", R"([sweep]
[sweep.model.parameters]
a3 = { linspace = [0.1, 1.0, 4] }
k1 = [0.5, 2]
[sweep.linear_solver]
type = ["banded", "lapack"]
[sweep.integrator]
dt = { logspace = [1e-3, 1e-1, 3] }
)");
  const auto plan = plan_sweep(file, {});
  REQUIRE(plan.keys.size() == 4);
  CHECK(plan.keys[0].name == "model.parameters.a3");
  CHECK(plan.keys[1].name == "model.parameters.k1");
  CHECK(plan.keys[2].name == "linear_solver.type");
  CHECK(plan.keys[3].name == "integrator.dt");
  REQUIRE(plan.members.size() == 4 * 2 * 2 * 3);
  CHECK(real(plan.members.front()[0]) == 0.1);
  CHECK(real(plan.members.back()[0]) == 1.0);
  CHECK(real(plan.members[2 * 2 * 3][0]) == 0.1 + (1.0 - 0.1) * (1.0 / 3.0));
  CHECK(texts(plan, 3)[0] == "0.001");
  CHECK(texts(plan, 3)[2] == "0.1");
  CHECK(std::abs(real(plan.members[1][3]) - 0.01) < 1e-17);
  CHECK(texts(plan, 2)[3] == "lapack");
  CHECK(plan.members[0][1].toml == "0.5");
  CHECK(plan.members[6][1].toml == "2");  // an integer stays one, as --set would give it
}

TEST_CASE("zip pairs the lists; a real is carried to the member as the very double") {
  const auto file = write("zip.toml", R"([sweep]
mode = "zip"
[sweep.model.parameters]
k1 = [0.30000000000000004, 1e-300, 7.0]
a3 = [1, 2, 3]
)");
  const auto plan = plan_sweep(file, {});
  REQUIRE(plan.members.size() == 3);
  CHECK(texts(plan, 1) == std::vector<std::string>{"1", "2", "3"});
  const auto doc = member_document(plan, 0);
  CHECK(doc.table["model"]["parameters"]["k1"].value<double>() == 0.1 + 0.2);
  CHECK(member_document(plan, 1).table["model"]["parameters"]["k1"].value<double>() == 1e-300);
  CHECK_FALSE(doc.table.contains("sweep"));
}

TEST_CASE("random: draws of std::mt19937_64 from [run] seed, mapped as documented") {
  const auto file = write("random.toml", R"([sweep]
mode = "random"
samples = 20
[sweep.model.parameters]
k1 = { uniform = [0.5, 2.0] }
[sweep.linear_solver]
type = ["banded", "lapack", "gepp-cpu"]
)");
  const auto plan = plan_sweep(file, {});
  REQUIRE(plan.members.size() == 20);
  std::mt19937_64 g(7);
  const auto unit = [&] { return double(g() >> 11) * 0x1.0p-53; };
  const std::vector<std::string> types{"banded", "lapack", "gepp-cpu"};
  for (const auto& m : plan.members) {
    CHECK(real(m[0]) == 0.5 + (2.0 - 0.5) * unit());
    CHECK(m[1].plain == types[std::size_t(unit() * 3.0)]);
  }
  CHECK(plan_sweep(file, {"run.seed=8"}).members[0][0].toml != plan.members[0][0].toml);
}

TEST_CASE("a member's value stands at its sweep entry's line; the base keys keep theirs") {
  const auto file = write("where.toml", R"([sweep]
[sweep.model.parameters]
k1 = [0.5, 2.0]
)");
  const auto doc = member_document(plan_sweep(file, {}), 1);
  CHECK(where(*doc.table["model"]["parameters"]["k1"].node()) == file.string() + ":12:6");
  CHECK(where(*doc.table["model"]["parameters"]["k2"].node()) == file.string() + ":7:6");
  CHECK(where(*doc.table["model"]["M"].node()) == file.string() + ":5:5");
  const auto set = member_document(plan_sweep(file, {"sweep.model.M=[30]"}), 0);
  CHECK(where(*set.table["model"]["M"].node()) == "--set");
}
