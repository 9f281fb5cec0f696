#pragma once
// Model: a problem and its discretisation. A model offers one or more problem families;
// an integrator asks for the family it can advance.
#include <solvent/csr_matrix.hpp>
#include <solvent/operator.hpp>
#include <solvent/plugin_object.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace solvent {

// The values a field may take (densities: lower = 0).
struct Range {
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
};

// One axis of a grid: its name and the coordinate of every point along it.
struct Axis {
  std::string name;  // "x", "y", "z", or the model's own
  std::vector<double> coordinates;
};

// How a state vector is laid out: component-major, components.size() blocks of points()
// values each; within a block the points of a tensor grid of axes.size() dimensions, the
// first axis fastest (the 1D model: C, P, I, F on M grid points of one axis "x"). The core
// writes one-axis fields as CSV profiles and grids of two or three axes with uniform spacing
// as VTK image data.
struct FieldLayout {
  std::vector<std::string> components;
  std::vector<Axis> axes;
  // Over several ranks: the rank's block of the global grid, the axes then holding the
  // block's coordinates alone (null when this rank holds the whole grid).
  std::shared_ptr<const GridBlock> block = nullptr;
  std::size_t points() const {
    std::size_t p = axes.empty() ? 0 : 1;
    for (const auto& a : axes) p *= a.coordinates.size();
    return p;
  }
  std::size_t size() const { return components.size() * points(); }
};

// Entry i of a state u in this layout, for messages: "C = -inf at x = 0 (grid point 0)",
// "u = nan at (x, y, z) = (0.5, 0.25, 1) (grid point 1234)".
std::string describe_entry(const FieldLayout& layout, std::span<const double> u, std::size_t i);

struct Observable {
  std::string name;
  double value;
};

// u_t = Lin u + N(u, t): Lin constant and linear, advanced implicitly; N explicitly.
class ImexProblem {
 public:
  virtual ~ImexProblem() = default;
  virtual FieldLayout layout() const = 0;
  virtual void initial_state(std::span<double> u, std::uint64_t seed) const = 0;
  virtual CsrMatrix<double> linear_operator() const = 0;
  // A permutation p (new index -> old index) under which Lin is banded, or empty.
  virtual std::vector<std::int32_t> band_ordering() const { return {}; }
  virtual void explicit_term(double t, std::span<const double> u, std::span<double> out) const = 0;
  // Applied after each step (the 1D model's non-negativity projection); returns how much it
  // removed, sum |u_before - u_after|, which the integrator compares with sum |u| (a
  // projection that removes much is hiding an unstable step).
  virtual double project(std::span<double> /*u*/) const { return 0.0; }
  // What to record of the state u at time t (masses, extrema, ...).
  virtual std::vector<Observable> observables(double t, std::span<const double> u) const = 0;
  // The range of each component of layout(), or empty: any finite value. The core ends a run
  // whose reported state leaves them (beyond rounding: 1e-12 of the field's largest
  // magnitude), or is not finite at all, with a DivergenceError naming step, field and point.
  virtual std::vector<Range> ranges() const { return {}; }
  // The exact solution at time t where the model knows one (manufactured solutions). The core
  // then records the error of every reported state itself (exact_error_max and
  // exact_error_rel_l2); a model need not compute its own.
  virtual bool exact_state(double /*t*/, std::span<double> /*u*/) const { return false; }
};

// A x = b, solved once.
class LinearProblem {
 public:
  virtual ~LinearProblem() = default;
  virtual std::shared_ptr<const Operator> matrix() const = 0;
  // The matrix's storage and scalar type, known without assembling it where the model can
  // say (`solvent validate` checks a solver against it before anything runs).
  virtual OperatorForm form() const { return form_of(*matrix()); }
  virtual Vector rhs() const = 0;
  virtual std::optional<Vector> exact_solution() const { return std::nullopt; }
  // The layout of x where it is a field on a grid (the core then writes it as one), or none.
  virtual std::optional<FieldLayout> layout() const { return std::nullopt; }
  // Observables of a solution (discretisation error, norms); may be empty.
  virtual std::vector<Observable> observables(const Vector& /*x*/) const { return {}; }
};

class Model : public PluginObject {
 public:
  virtual ImexProblem* imex() { return nullptr; }
  virtual LinearProblem* linear() { return nullptr; }
  // Families defined outside the core, shared by a model plugin and an integrator plugin
  // through a header of their own; the name carries a version ("angiogenesis-3d/1"). Reach
  // them through family<F>() and offer them through offer<F>() below, not by casting.
  virtual void* extension(std::string_view /*name*/) { return nullptr; }
};

// A family is declared once, in its header, as a tag naming the type a model shares and the
// versioned name it is offered under:
//   struct ParametersFamily {
//     using type = const Parameters;
//     static constexpr const char* name = "angiogenesis-3d/1";
//   };
// An integrator asks for it with family<ParametersFamily>(model) (the model's object, or
// nullptr where the model does not offer it); the model's extension() answers with
// offer<ParametersFamily>(name, p_). The one cast between void* and the type is here, tied
// to the name by the family's own declaration.
template <class Family>
typename Family::type* family(Model& model) {
  return static_cast<typename Family::type*>(model.extension(Family::name));
}

template <class Family>
void* offer(std::string_view asked, typename Family::type& object) {
  // const_cast: extension() hands out void*; family<Family>() gives the constness back.
  return asked == Family::name ? const_cast<void*>(static_cast<const void*>(&object)) : nullptr;
}

}  // namespace solvent
