#pragma once
// ilu0: M = L U, the ILU(0) factors of a CSR operator, on the host. refresh() with the same
// pattern repeats only the numeric factorisation, in place. Over several ranks each rank
// factors its subdomain: its diagonal block (overlap 0, block Jacobi), or its rows grown by
// `overlap` layers of its neighbours' rows, whose result it keeps on its own rows only
// (restricted additive Schwarz, Cai and Sarkis).
#include "src/host_factors.hpp"

#include <solvent/operator.hpp>
#include <solvent/plugin.hpp>
#include <solvent/preconditioner.hpp>
#include <solvent/sparse/row_distribution.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace solvent::ilu {

class Ilu0Preconditioner final : public Preconditioner {
 public:
  explicit Ilu0Preconditioner(const PluginContext& context);

  std::vector<OperatorForm> forms() const override;
  Facts facts() const override;

 protected:
  void setup_impl(std::shared_ptr<const Operator> a) override;
  void refresh_impl(std::shared_ptr<const Operator> a) override;
  void apply_impl(std::span<const double> r, std::span<double> z) const override;
  void apply_impl(std::span<const complex> r, std::span<complex> z) const override;

 private:
  template <class T>
  void apply_on_subdomain(std::span<const T> r, std::span<T> z) const;

  std::shared_ptr<spdlog::logger> log_;
  int overlap_ = 0;
  HostFactors factors_;
  // With overlap over several ranks: the exchange that brings r's values at the overlap rows.
  std::shared_ptr<const RowDistribution> overlap_rows_;
  std::int64_t setups_ = 0;
  std::int64_t refreshes_ = 0;  // numeric refactorisations on the kept pattern
};

}  // namespace solvent::ilu
