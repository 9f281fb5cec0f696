#pragma once
// Builds the split A = A0 + A1 (split_operator.hpp) from a Stencil7 and refuses the
// operators MATM cannot take, each with one message that names the node.
#include <solvent/stencil7.hpp>
#include <solvent_matm/split_operator.hpp>

#include <array>
#include <string>
#include <vector>

namespace solvent::matm {

class SplitStencil {
 public:
  // Throws SolverError (messages start with `who`): a dimension below 3, a negative or
  // non-finite diagonal, a non-finite coupling, or a symmetric part A0 that is not
  // diagonally dominant after the scaling D^-1/2 A0 D^-1/2 (then A0 need not be positive
  // definite, which MATM needs: B is built from it and tau divides by (A0 w, w)).
  SplitStencil(const Stencil7<double>& a, const std::string& who);

  SplitView view() const;
  bool self_adjoint() const { return skew_[0].empty(); }
  std::size_t n1() const { return n1_; }
  std::size_t n2() const { return n2_; }
  std::size_t n3() const { return n3_; }
  std::size_t size() const { return c0_.size(); }
  std::size_t active_nodes() const { return active_; }
  const std::vector<double>& c0() const { return c0_; }
  const std::vector<double>& lower(int d) const { return lower_[d]; }
  const std::vector<double>& skew(int d) const { return skew_[d]; }

 private:
  std::size_t n1_, n2_, n3_, active_ = 0;
  std::vector<double> c0_;
  std::array<std::vector<double>, 3> lower_, skew_;
};

}  // namespace solvent::matm
