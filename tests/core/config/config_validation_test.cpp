// Golden files: every bad config in bad_configs/ must produce exactly the problems in its
// .expected file, all of them, in order. A line ending in "..." matches by prefix (the
// rest lists the plugins built on this machine).
#include "config/config_validation.hpp"

#include <solvent/errors.hpp>

#include <doctest/doctest.h>

#include <fstream>

using namespace solvent;
namespace fs = std::filesystem;

namespace {
std::vector<std::string> lines_of(const fs::path& p) {
  std::ifstream f(p);
  std::vector<std::string> out;
  for (std::string l; std::getline(f, l);)
    if (!l.empty()) out.push_back(l);
  return out;
}

bool matches(const std::string& actual, const std::string& expected) {
  if (expected.size() >= 3 && expected.compare(expected.size() - 3, 3, "...") == 0)
    return actual.rfind(expected.substr(0, expected.size() - 3), 0) == 0;
  return actual == expected;
}

std::vector<std::string> problems_of(const fs::path& file,
                                     const std::vector<std::string>& overrides = {}) {
  try {
    resolve_config(load_config_document(file, overrides));
  } catch (const ConfigError& e) {
    std::vector<std::string> out;
    const std::string prefix = file.parent_path().string() + "/";
    for (auto p : e.problems()) {
      if (p.rfind(prefix, 0) == 0) p.erase(0, prefix.size());
      out.push_back(p);
    }
    return out;
  }
  return {};
}
}  // namespace

TEST_CASE("bad configurations produce exactly the expected messages") {
  int files = 0;
  for (const auto& e : fs::directory_iterator(BAD_CONFIGS)) {
    if (e.path().extension() != ".toml") continue;
    ++files;
    auto expected_file = e.path();
    expected_file.replace_extension(".expected");
    const auto expected = lines_of(expected_file);
    const auto actual = problems_of(e.path());
    INFO("config: " << e.path().filename().string());
    REQUIRE(actual.size() == expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i) {
      INFO("actual:   " << actual[i]);
      INFO("expected: " << expected[i]);
      CHECK(matches(actual[i], expected[i]));
    }
  }
  CHECK(files >= 6);
}

TEST_CASE("--set overrides are validated like the file, and reported as --set") {
  const fs::path good = fs::path(BAD_CONFIGS) / "../../../../config/angiogenesis-1d.toml";
  CHECK(problems_of(good).empty());
  CHECK(problems_of(good, {"model.M=50", "linear_solver.type=lapack"}).empty());
  const auto p = problems_of(good, {"model.M=two", "integrator.dtt=0.1", "nonsense"});
  REQUIRE(p.size() == 1);  // a malformed --set stops before validation
  CHECK(p[0] == "--set nonsense: expected section.key=value");
  const auto q = problems_of(good, {"model.M=two", "integrator.dtt=0.1"});
  REQUIRE(q.size() == 2);
  CHECK(q[0] ==
        "--set: [model] (model 'angiogenesis-1d'): key 'M' must be an integer, got a string");
  CHECK(q[1] ==
        "--set: [integrator] (integrator 'imex-trapezoid'): unknown key 'dtt'; did you mean 'dt'?");
}

TEST_CASE("the resolved configuration holds every default, including a named set's") {
  const auto file = fs::temp_directory_path() / "solvent-second-set.toml";
  std::ofstream(file)
      << "[model]\ntype = \"angiogenesis-1d\"\nparameter_set = \"second\"\n"
         "[model.parameters]\ndC = 0.5\n"
         "[integrator]\ntype = \"imex-trapezoid\"\n[linear_solver]\ntype = \"lapack\"\n";
  auto cfg = resolve_config(load_config_document(file, {}));
  const auto resolved = cfg.to_toml();
  CHECK(resolved["model"]["parameters"]["dC"].value<double>() == 0.5);    // written: wins
  CHECK(resolved["model"]["parameters"]["dP"].value<double>() == 0.005);  // from the set
  CHECK(resolved["model"]["parameters"]["a3"].value<double>() == 0.2);
  CHECK(resolved["model"]["M"].value<std::int64_t>() == 400);  // schema default
  CHECK(resolved["integrator"]["projection"].value<bool>() == true);
  CHECK(resolved["output"]["every"].value<std::int64_t>() == 10);
  fs::remove(file);
}

TEST_CASE("settings of several solvers side by side: the chosen type's apply, one line switches") {
  const auto file = fs::temp_directory_path() / "solvent-per-type.toml";
  const auto matrix = fs::temp_directory_path() / "solvent-per-type.mtx";  // opened, not read
  std::ofstream{matrix};
  std::ofstream(file) << "[model]\ntype = \"matrix-file\"\nmatrix = \"solvent-per-type.mtx\"\n"
                         "[integrator]\ntype = \"steady\"\n"
                         "[linear_solver]\ntype = \"bicgstab\"\n"
                         "[linear_solver.bicgstab]\ntolerance = 1e-7\nmax_iterations = 77\n"
                         "[linear_solver.tfqmr]\ntolerance = 1e-5\n"
                         "[linear_solver.lapack]\nreuse_factorization = true\n";
  const auto chosen = [&](const std::vector<std::string>& overrides) {
    return resolve_config(load_config_document(file, overrides)).linear_solver->params;
  };
  const auto bicgstab = chosen({});
  CHECK(bicgstab.real("tolerance") == 1e-7);
  CHECK(bicgstab.integer("max_iterations") == 77);
  const auto tfqmr = chosen({"linear_solver.type=tfqmr"});
  CHECK(tfqmr.real("tolerance") == 1e-5);
  CHECK(tfqmr.integer("max_iterations") == 1000);  // bicgstab's 77 is not tfqmr's
  CHECK(chosen({"linear_solver.type=lapack"}).boolean("reuse_factorization"));
  // --set beats the file, also the chosen type's sub-table.
  CHECK(chosen({"linear_solver.tolerance=1e-3"}).real("tolerance") == 1e-3);
  CHECK(chosen({"linear_solver.bicgstab.tolerance=1e-4"}).real("tolerance") == 1e-4);
  // The resolved file holds what ran: the chosen type's keys, no sub-tables.
  const auto resolved =
      resolve_config(load_config_document(file, {"linear_solver.type=tfqmr"})).to_toml();
  CHECK(resolved["linear_solver"]["tolerance"].value<double>() == 1e-5);
  CHECK_FALSE(resolved["linear_solver"]["bicgstab"]);
  fs::remove(file);
  fs::remove(matrix);
}

TEST_CASE("--set section.key= removes a key of the file; a key that is not there is an error") {
  const fs::path good = fs::path(BAD_CONFIGS) / "../../../../config/angiogenesis-1d.toml";
  auto cfg = resolve_config(load_config_document(good, {"model.M="}));
  CHECK(cfg.model->params.integer("M") == 400);  // the schema default once the file's is gone
  CHECK_FALSE(cfg.model->params.given("M"));
  const auto p = problems_of(good, {"model.N=", "nosection.M="});
  REQUIRE(p.size() == 2);
  CHECK(p[0] == "--set model.N=: there is no key 'model.N' to remove");
  CHECK(p[1] == "--set nosection.M=: there is no key 'nosection.M' to remove");
}
