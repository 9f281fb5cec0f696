#include "src/angiogenesis_1d_model.hpp"

namespace solvent::angiogenesis_1d {

// Every default is documented in docs/models/angiogenesis-1d.md: the "julia" set is the
// parameter set of the authors' public Julia/CUDA code of the same model (chosen because the
// paper does not print all its formulas and values); "second" is the second named set there.
Schema schema() {
  using P = ParamSpec;
  return {
      std::move(P::integer("M", 400, "Number of grid points on [0, 1] (h = 1/(M-1))")
                    .at_least(3)
                    .at_most(max_points)),
      std::move(P::choice("parameter_set", "julia", {"julia", "second"},
                          "Named set of defaults for [model.parameters]; keys written there win")
                    .with_preset("julia", {{"parameters.dC", 0.1},
                                           {"parameters.dP", 0.1},
                                           {"parameters.dI", 0.1},
                                           {"parameters.k1", 1.0},
                                           {"parameters.k2", 1.0},
                                           {"parameters.k3", 1.0},
                                           {"parameters.k4", 1.0},
                                           {"parameters.k5", 1.0},
                                           {"parameters.k6", 1.0},
                                           {"parameters.a1", 1.0},
                                           {"parameters.a2", 1.0},
                                           {"parameters.a3", 1.0},
                                           {"parameters.a4", 1.0},
                                           {"parameters.eps0", 0.1}})
                    .with_preset("second", {{"parameters.dC", 0.001},
                                            {"parameters.dP", 0.005},
                                            {"parameters.dI", 0.005},
                                            {"parameters.k1", 0.1},
                                            {"parameters.k2", 0.1},
                                            {"parameters.k3", 0.1},
                                            {"parameters.k4", 0.1},
                                            {"parameters.k5", 0.05},
                                            {"parameters.k6", 0.05},
                                            {"parameters.a1", 0.1},
                                            {"parameters.a2", 0.1},
                                            {"parameters.a3", 0.2},
                                            {"parameters.a4", 1.0},
                                            {"parameters.eps0", 0.1}})),
      std::move(P::real("parameters.dC", 0.1, "Diffusion of endothelial cells C").at_least(0)),
      std::move(P::real("parameters.dP", 0.1, "Diffusion of protease P").at_least(0)),
      std::move(P::real("parameters.dI", 0.1, "Diffusion of inhibitor I").at_least(0)),
      std::move(P::real("parameters.k1", 1.0, "Logistic growth rate of C").at_least(0)),
      std::move(P::real("parameters.k2", 1.0, "ECM degradation by protease").at_least(0)),
      std::move(P::real("parameters.k3", 1.0, "Protease-inhibitor binding").at_least(0)),
      std::move(P::real("parameters.k4", 1.0, "Protease production by C under TAF").at_least(0)),
      std::move(P::real("parameters.k5", 1.0, "Basal protease secretion under TAF").at_least(0)),
      std::move(P::real("parameters.k6", 1.0, "Protease decay").at_least(0)),
      std::move(P::real("parameters.a1", 1.0, "Haptotaxis up ECM gradients").at_least(0)),
      std::move(P::real("parameters.a2", 1.0, "Taxis down inhibitor gradients").at_least(0)),
      std::move(P::real("parameters.a3", 1.0, "Chemotaxis toward the TAF").at_least(0)),
      std::move(P::real("parameters.a4", 1.0, "Saturation of the chemotaxis").at_least(0)),
      std::move(
          P::real("parameters.eps0", 0.1, "Width of the TAF profile exp(-(1-x)^2/eps0)").above(0)),
      P::choice("mode", "model", {"model", "manufactured"},
                "model: the equations of docs/models/angiogenesis-1d.md; manufactured: add the "
                "source terms "
                "that make the smooth solution of docs/models/angiogenesis-1d.md exact (initial "
                "state = that solution at t = 0, initial.* ignored), to measure the discretisation "
                "error"),
      P::choice(
          "initial.kind", "paper", {"paper", "random"},
          "paper: C = 1 for x < front, P, I, F constant; random: P, I, F = amplitude * U(0,1) "
          "drawn with [run] seed (the group's code)"),
      std::move(
          P::real("initial.front", 0.1, "C = 1 for x < front, else 0").at_least(0).at_most(1)),
      std::move(P::real("initial.P", 0.05, "Initial protease (paper kind)").at_least(0)),
      std::move(P::real("initial.I", 0.05, "Initial inhibitor (paper kind)").at_least(0)),
      std::move(P::real("initial.F", 0.05, "Initial ECM (paper kind)").at_least(0)),
      std::move(
          P::real("initial.amplitude", 0.1, "Amplitude of the random initial P, I, F").at_least(0)),
  };
}

}  // namespace solvent::angiogenesis_1d
