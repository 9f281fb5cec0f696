#include "schema_angiogenesis_3d.hpp"

#include <solvent_family_angiogenesis_3d/grid.hpp>

namespace solvent::angiogenesis_3d {

using solvent::ParamSpec;

solvent::Schema model_schema() {
  return {
      ParamSpec::integer("nx", 201, "nodes along x; h = 1 / (nx - 1)")
          .at_least(5)
          .at_most(max_axis_nodes),
      ParamSpec::integer("ny", 201, "nodes along y (same spacing h)")
          .at_least(5)
          .at_most(max_axis_nodes),
      ParamSpec::integer("nz", 201, "nodes along z (same spacing h)")
          .at_least(5)
          .at_most(max_axis_nodes),
      ParamSpec::choice("tumour", "planar", {"planar", "spherical"},
                        "TAF source: the plane x = tumour_x, or a point tumour_centre"),
      ParamSpec::real("tumour_x", 1.0, "x of the planar tumour").at_least(0.0),
      ParamSpec::reals("tumour_centre", {1.0, 0.5, 0.5},
                       "centre of the spherical tumour, as fractions of the box extents"),
      ParamSpec::real("parameters.D", 0.00035, "endothelial-cell diffusion coefficient D")
          .at_least(0.0),
      ParamSpec::real("parameters.chi0", 0.38, "chemotactic coefficient chi0").at_least(0.0),
      ParamSpec::real("parameters.alpha", 0.6, "chemotactic saturation alpha in chi0/(1+alpha c)")
          .at_least(0.0),
      ParamSpec::real("parameters.rho", 0.34, "haptotactic coefficient rho").at_least(0.0),
      ParamSpec::real("parameters.beta", 0.05, "fibronectin production beta").at_least(0.0),
      ParamSpec::real("parameters.gamma", 0.1, "fibronectin uptake gamma").at_least(0.0),
      ParamSpec::real("parameters.eta", 0.1, "TAF uptake eta").at_least(0.0),
      ParamSpec::real("parameters.c_width", 0.45, "initial TAF: c = exp(-d^2 / c_width)")
          .above(0.0),
      ParamSpec::real("parameters.f_amplitude", 0.75,
                      "initial fibronectin amplitude: f = f_amplitude exp(-x^2 / f_width)")
          .at_least(0.0),
      ParamSpec::real("parameters.f_width", 0.45, "initial fibronectin width").above(0.0),
      ParamSpec::real("tips.x", 0.0, "x of the initial tips (the parent vessel)").at_least(0.0),
      ParamSpec::reals("tips.y", {0.25, 0.5, 0.75},
                       "initial tip y positions, fractions of the box's y extent")
          .at_least(0.0)
          .at_most(1.0),
      ParamSpec::reals("tips.z", {0.25, 0.5, 0.75},
                       "initial tip z positions, fractions of the box's z extent")
          .at_least(0.0)
          .at_most(1.0),
      ParamSpec::real("branching.age", 0.5,
                      "age psi (time since the tip appeared or last branched) needed to branch")
          .at_least(0.0),
      ParamSpec::real("branching.density_factor", 2.5,
                      "branch only where the neighbourhood holds more than density_factor / c "
                      "vessel nodes")
          .at_least(0.0),
      ParamSpec::integer("branching.density_radius", 2,
                         "half-width in nodes of the cube in which vessel density is counted")
          .at_least(1)
          .at_most(4),
      ParamSpec::reals("branching.c_thresholds", {0.25, 0.45, 0.6, 0.68},
                       "the 4 ascending TAF levels that bound the branching-probability bands"),
      ParamSpec::reals("branching.probabilities", {0.0, 0.2, 0.3, 0.4, 1.0},
                       "branching probability in each of the 5 bands of c")
          .at_least(0.0)
          .at_most(1.0),
      ParamSpec::integer("branching.max_tips", 1024, "most tips (initial and branched) in a run")
          .at_least(1)
          .at_most(1024),
      ParamSpec::boolean("anastomosis", true,
                         "a tip that reaches another sprout fuses with it and stops (false: "
                         "it moves on through)"),
      ParamSpec::real("stop_x", 0.95, "end the run once a tip reaches x >= stop_x (> 1: never)")
          .above(0.0),
      ParamSpec::choice("mode", "hybrid", {"hybrid", "continuous"},
                        "hybrid: discrete tips, f and c change on vessel nodes; continuous: the "
                        "continuous n, f, c system at every node, no tips"),
      ParamSpec::real("parameters.n_width", 0.001,
                      "continuous mode's initial cells: n = exp(-x^2 / n_width)")
          .above(0.0),
      ParamSpec::string("split", "auto",
                        "over several MPI ranks, the p1xp2xp3 process grid the nodes are cut "
                        "into blocks by (e.g. \"1x2x2\"; p1 p2 p3 = ranks); \"auto\": the split "
                        "with the least face area between blocks. The network is the same for "
                        "any split"),
  };
}

}  // namespace solvent::angiogenesis_3d
