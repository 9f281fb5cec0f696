#pragma once
// What every Krylov method does between iterations, kept out of the methods: the residual
// history, the stopping rules (tolerance, iteration limit, breakdown, stagnation, a
// residual that is no longer finite), and the best iterate seen, which is what an
// unconverged solve returns.
//
// The methods solve B y = r0 from y = 0, where B is A (CG) or A M^{-1} (right
// preconditioning) and r0 = b - A x0. A residual below the target is trusted only after
// it is recomputed as r0 - B y: recurrences drift from the true residual in floating point.
#include <solvent_krylov/options.hpp>
#include <solvent_krylov/scalar_math.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace solvent::krylov {

enum class Next {
  iterate,            // carry on
  residual_replaced,  // carry on; the caller's residual vector now holds the true residual
  stop,
};

template <class Space>
class Monitor {
 public:
  using T = typename Space::Scalar;
  using Vector = typename Space::Vector;
  using Operator = std::function<void(const Vector&, Vector&)>;  // y = B x

  // The starting point y = 0, with residual norm ||r0||, is the first best iterate and the
  // first entry of the history (the SDK's convention: entry k after k iterations).
  Monitor(Space& s, Operator b_op, const Vector& r0, double rhs_norm, const KrylovOptions& o)
      : s_(s),
        b_op_(std::move(b_op)),
        r0_(r0),
        rhs_norm_(rhs_norm),
        o_(o),
        best_(s.vector()),
        scratch_(s.vector()),
        best_norm_(s.norm(r0)) {
    history_.push_back(best_norm_ / rhs_norm_);
  }

  double target() const { return o_.tolerance * rhs_norm_; }
  double rhs_norm() const { return rhs_norm_; }
  std::int64_t iterations() const { return static_cast<std::int64_t>(history_.size()) - 1; }
  const std::vector<double>& history() const { return history_; }
  const std::string& status() const { return status_; }
  bool converged() const { return converged_; }

  // One iteration ended with iterate y and a residual norm (a recurrence value, or TFQMR's
  // quasi-residual). The true residual is computed when `bound` (by default the residual
  // norm itself) reaches the target; `residual`, where the method keeps one, is replaced
  // by it when it does not confirm convergence.
  Next record(double residual_norm, const Vector& y, Vector* residual = nullptr,
              double bound = -1.0) {
    Next next = Next::iterate;
    if ((bound >= 0.0 ? bound : residual_norm) <= target()) {
      true_residual(y, scratch_);
      const double true_norm = s_.norm(scratch_);
      if (true_norm <= target()) {
        push(true_norm / rhs_norm_);
        converged_ = true;
        status_ = "converged";
        return Next::stop;
      }
      residual_norm = true_norm;
      if (residual) {
        s_.assign(scratch_, *residual);
        next = Next::residual_replaced;
      }
    }
    push(residual_norm / rhs_norm_);
    // Before the finiteness check: a residual that is no longer finite must leave the last
    // best iterate to be restored, not the iterate that overflowed.
    if (residual_norm < best_norm_) {
      best_norm_ = residual_norm;
      best_iteration_ = iterations();
      s_.assign(y, best_);
      best_is_last_ = true;
    } else {
      best_is_last_ = false;
    }
    if (!std::isfinite(residual_norm)) return stop("breakdown: the residual is not finite");
    if (iterations() >= o_.max_iterations) return stop("max_iterations");
    if (iterations() - best_iteration_ >= o_.stagnation_window)
      return stop("stagnation: no new smallest residual in " +
                  std::to_string(o_.stagnation_window) + " iterations");
    return next;
  }

  // A method cannot go on (breakdown); what names the quantity that vanished.
  Next stop(std::string status) {
    if (status_.empty()) status_ = std::move(status);
    return Next::stop;
  }

  // Leaves the best iterate in y (unchanged when y is the best or the solve converged).
  void restore_best(Vector& y) const {
    if (!converged_ && !best_is_last_) s_.assign(best_, y);
  }

  // r = r0 - B y
  void true_residual(const Vector& y, Vector& r) const {
    b_op_(y, r);
    s_.axpby(T(1), r0_, T(-1), r);
  }

 private:
  void push(double relative) {
    history_.push_back(relative);
    if (o_.on_iteration) o_.on_iteration(iterations(), relative);
  }

  Space& s_;
  Operator b_op_;
  const Vector& r0_;
  double rhs_norm_;
  KrylovOptions o_;
  Vector best_;
  Vector scratch_;
  std::vector<double> history_;
  double best_norm_;
  std::int64_t best_iteration_ = 0;
  bool best_is_last_ = false;
  bool converged_ = false;
  std::string status_;
};

// |value| small against scale: a breakdown. Also true for NaN.
inline bool vanishes(double magnitude, double scale) {
  constexpr double eps = 2.220446049250313e-16;
  return !(magnitude > eps * eps * scale);
}

}  // namespace solvent::krylov
