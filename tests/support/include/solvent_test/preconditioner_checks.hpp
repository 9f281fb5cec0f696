#pragma once
// Shared by the preconditioner tests (jacobi, ilu0 and their CUDA twins): z of one apply on
// host vectors, and the checks the core makes around every preconditioner's apply, seen
// through a plugin.
#include <solvent/errors.hpp>
#include <solvent/testkit.hpp>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace solvent::test {

// z = M^{-1} r, r and z host vectors (a "cpu" preconditioner).
template <class T>
std::vector<T> applied(const Preconditioner& pc, const std::vector<T>& r) {
  std::vector<T> z(r.size());
  pc.apply(std::span<const T>(r), std::span<T>(z));
  return z;
}

// The core's checks of refresh() and apply() (Preconditioner's entry points), through plugin
// `name`: refresh() before any setup is a setup; apply() before a setup, on complex vectors
// for the real operator `a` (of at least one row), and on vectors of other lengths is refused
// with the core's messages, before the plugin sees the vectors (so host vectors are safe to
// hand to a CUDA plugin here).
inline void check_apply_refusals(const std::string& name,
                                 const std::shared_ptr<const Operator>& a) {
  CAPTURE(name);
  const std::size_t n = rows_of(*a);
  REQUIRE(scalar_of(*a) == ScalarKind::Real);
  REQUIRE(n > 0);
  auto pc = testkit::make_preconditioner(name);
  std::vector<double> r(n, 1.0), z(n);
  CHECK_THROWS_WITH_AS(pc->apply(std::span<const double>(r), std::span<double>(z)),
                       "apply() was called before setup()", SolverError);
  pc->refresh(a);
  if (testkit::device_of(name, PluginKind::Preconditioner) == "cpu")
    CHECK_NOTHROW(pc->apply(std::span<const double>(r), std::span<double>(z)));
  std::vector<complex> rc(n), zc(n);
  CHECK_THROWS_WITH_AS(pc->apply(std::span<const complex>(rc), std::span<complex>(zc)),
                       "the operator is real but the vectors are complex", UnsupportedOperator);
  std::vector<double> longer(n + 1);
  const std::string lengths =
      fmt::format("vectors of length {} (r) and {} (z) for an operator of {} rows", n + 1, n, n);
  CHECK_THROWS_WITH_AS(pc->apply(std::span<const double>(longer), std::span<double>(z)),
                       lengths.c_str(), SolverError);
}

}  // namespace solvent::test
