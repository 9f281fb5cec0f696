#pragma once
// The 1D four-species tumour-angiogenesis model of De Luca et al. (docs/models/angiogenesis-1d.md):
// C endothelial cells, P protease, I inhibitor, F extracellular matrix on x in [0, 1],
// homogeneous Neumann boundaries by ghost points, state U = [C; P; I; F] species-major.
#include "src/manufactured_solution.hpp"

#include <solvent/solvent.hpp>
#include <solvent_family_angiogenesis_1d/ensemble.hpp>

#include <cstdint>
#include <limits>
#include <optional>

namespace solvent::angiogenesis_1d {

Schema schema();

// The IMEX system I - c Lin has 11 M - 6 non-zeros (3 per row of C and I, 4 of P, the
// diagonal of F), and CsrMatrix indexes them with 32-bit integers.
inline constexpr std::int64_t max_points =
    (std::int64_t{std::numeric_limits<std::int32_t>::max()} + 6) / 11;

class Angiogenesis1d : public Model, public ImexProblem {
 public:
  explicit Angiogenesis1d(const PluginContext& ctx);

  ImexProblem* imex() override { return this; }
  // The family's extensions: this member's coefficients and grid (Member), and the other
  // members a runner batches with it (Ensemble, docs/architecture.md "Batched members").
  void* extension(std::string_view name) override;
  Facts facts() const override;

  FieldLayout layout() const override;
  void initial_state(std::span<double> u, std::uint64_t seed) const override;
  CsrMatrix<double> linear_operator() const override;
  std::vector<std::int32_t> band_ordering() const override;
  void explicit_term(double t, std::span<const double> u, std::span<double> out) const override;
  double project(std::span<double> u) const override;
  std::vector<Range> ranges() const override;
  std::vector<Observable> observables(double t, std::span<const double> u) const override;
  bool exact_state(double t, std::span<double> u) const override;

 private:
  std::size_t m_;
  double h_;
  Coefficients k_;
  std::string initial_;
  double front_, p0_, i0_, f0_, random_amplitude_;
  std::vector<double> x_, taf_, taf_flux_;            // taf_flux_[i]: T_x / (1 + a4 T) at i + 1/2
  std::optional<ManufacturedSolution> manufactured_;  // mode = "manufactured"
  Member member_;
  Ensemble ensemble_;
};

}  // namespace solvent::angiogenesis_1d
