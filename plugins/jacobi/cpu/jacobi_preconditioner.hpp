#pragma once
// jacobi: M = D, the operator's diagonal, on the host. Any storage but matrix-free.
#include <solvent/operator.hpp>
#include <solvent/plugin.hpp>
#include <solvent/preconditioner.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace solvent::jacobi {

class JacobiPreconditioner final : public Preconditioner {
 public:
  explicit JacobiPreconditioner(const PluginContext& context);

  std::vector<OperatorForm> forms() const override;
  void setup(std::shared_ptr<const Operator> a) override;
  void apply(std::span<const double> r, std::span<double> z) const override;
  void apply(std::span<const complex> r, std::span<complex> z) const override;

 private:
  template <class T>
  void scale(std::span<const T> r, std::span<T> z) const;

  std::optional<ScalarKind> scalar_;  // empty until a setup succeeds, and after one fails
  std::size_t n_ = 0;
  Vector inverse_;
};

}  // namespace solvent::jacobi
