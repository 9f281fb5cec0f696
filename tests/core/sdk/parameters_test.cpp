#include "config/config_validation.hpp"
#include "loader/plugin_registry.hpp"

#include <solvent/errors.hpp>

#include <doctest/doctest.h>

using namespace solvent;

TEST_CASE("nearest suggests close names only") {
  CHECK(nearest("dc", {"dC", "dP", "dI"}) == "dC");
  CHECK(nearest("stpes", {"dt", "steps", "projection"}) == "steps");
  CHECK(nearest("completely-different", {"dt", "steps"}).empty());
}

TEST_CASE("a named parameter set fills defaults, and written keys win") {
  const Schema schema{
      ParamSpec::choice("set", "a", {"a", "b"}, "")
          .with_preset("a", {{"x", 1.0}})
          .with_preset("b", {{"x", 2.0}, {"y", 20.0}}),
      ParamSpec::real("x", 1.0, ""),
      ParamSpec::real("y", 10.0, ""),
  };
  std::vector<std::string> problems;
  auto p = check_section(toml::table{{"set", "b"}, {"y", 5.0}}, schema, "[t]", problems);
  CHECK(problems.empty());
  CHECK(p.real("x") == 2.0);
  CHECK(p.real("y") == 5.0);
  CHECK(p.given("y"));
  CHECK_FALSE(p.given("x"));
}

TEST_CASE("integers are accepted where reals are expected, not the other way round") {
  const Schema schema{ParamSpec::real("dt", 0.1, ""), ParamSpec::integer("steps", 1, "")};
  std::vector<std::string> problems;
  auto p = check_section(toml::table{{"dt", 1}, {"steps", 2.5}}, schema, "[integrator]", problems);
  CHECK(p.real("dt") == 1.0);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] == "--set: [integrator]: key 'steps' must be an integer, got a real");
}
