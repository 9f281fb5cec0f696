#pragma once
// jacobi: M = D, the operator's diagonal, on the host. Any storage but matrix-free.
#include <solvent/operator.hpp>
#include <solvent/plugin.hpp>
#include <solvent/preconditioner.hpp>

#include <memory>
#include <span>
#include <vector>

namespace solvent::jacobi {

class JacobiPreconditioner final : public Preconditioner {
 public:
  explicit JacobiPreconditioner(const PluginContext& context);

  std::vector<OperatorForm> forms() const override;

 protected:
  void setup_impl(std::shared_ptr<const Operator> a) override;
  void apply_impl(std::span<const double> r, std::span<double> z) const override;
  void apply_impl(std::span<const complex> r, std::span<complex> z) const override;

 private:
  template <class T>
  void scale(std::span<const T> r, std::span<T> z) const;

  Vector inverse_;  // of the operator's scalar type
};

}  // namespace solvent::jacobi
