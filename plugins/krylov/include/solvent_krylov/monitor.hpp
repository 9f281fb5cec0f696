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
#include <cstdio>
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
    return record_iterate(residual_norm, y, nullptr, residual, bound);
  }
  // As record, for a method that writes each iterate into another vector than the one
  // before (all four here): `previous`, the iterate of the last record, is still whole.
  // While the residual falls the best iterate is then the newest and is not copied; it is
  // copied out of `previous` only when a residual first fails to fall (one pass over a
  // vector per iteration saved, of about eight in CG).
  Next record_step(double residual_norm, const Vector& y, const Vector& previous, Vector* residual,
                   double bound = -1.0) {
    return record_iterate(residual_norm, y, &previous, residual, bound);
  }

  // A residual inside an iteration (between BiCGSTAB(l)'s BiCG steps) reached the target:
  // true when r0 - B y confirms it, and the solve ends converged, that residual recorded as
  // the iteration's. Otherwise nothing is recorded or replaced, since the method's other
  // vectors agree with its updated residual only until the iteration ends.
  bool confirms(const Vector& y) {
    verify(y);
    return converged_;
  }

  // A method cannot go on (breakdown); what names the quantity that vanished.
  Next stop(std::string status) {
    if (status_.empty()) status_ = std::move(status);
    return Next::stop;
  }

  // Leaves the best iterate in y (unchanged when y is the best or the solve converged). The
  // best was chosen by recorded residuals, which for all but TFQMR are updated ones and may
  // have drifted from the truth; its true residual is checked against the start's, and
  // when it is larger the start (y = 0) is returned and the warning says so: a solve never
  // returns an iterate worse than its initial guess.
  void restore_best(Vector& y) {
    if (converged_) return;
    if (!best_is_last_) s_.assign(best_, y);
    if (best_iteration_ == 0) return;
    true_residual(y, scratch_);
    const double true_norm = s_.norm(scratch_);
    const double start = history_.front() * rhs_norm_;
    if (true_norm <= start) return;
    if (o_.on_warning)
      o_.on_warning("the best iterate by the updated residual (iteration " +
                    std::to_string(best_iteration_) + ", " + scientific(history_[best_iteration_]) +
                    ") has true relative residual " + scientific(true_norm / rhs_norm_) +
                    ", above the initial guess's " + scientific(history_.front()) +
                    ": the initial guess is returned");
    y = s_.vector();  // not scale(0): y may hold values that overflowed
  }

  // r = r0 - B y
  void true_residual(const Vector& y, Vector& r) const {
    b_op_(y, r);
    s_.axpby(T(1), r0_, T(-1), r);
  }

  // A method's reliable update: its updated residual r (norm `updated`) becomes r0 - B y.
  // Returns the new norm.
  double replace_residual(const Vector& y, Vector& r, double updated) {
    true_residual(y, r);
    const double true_norm = s_.norm(r);
    replaced(updated, true_norm);
    return true_norm;
  }

 private:
  // record and record_step; `previous` is given by record_step.
  Next record_iterate(double residual_norm, const Vector& y, const Vector* previous,
                      Vector* residual, double bound) {
    Next next = Next::iterate;
    if ((bound >= 0.0 ? bound : residual_norm) <= target()) {
      const double true_norm = verify(y);
      if (converged_) return Next::stop;
      if (residual) {
        s_.assign(scratch_, *residual);
        replaced(residual_norm, true_norm);
        next = Next::residual_replaced;
      }
      residual_norm = true_norm;
    }
    push(residual_norm / rhs_norm_);
    // Before the finiteness check: a residual that is no longer finite must leave the last
    // best iterate to be restored, not the iterate that overflowed.
    if (residual_norm < best_norm_) {
      best_norm_ = residual_norm;
      best_iteration_ = iterations();
      if (previous)
        best_copied_ = false;
      else
        s_.assign(y, best_);
      best_is_last_ = true;
    } else {
      // The best was the last record's iterate, not yet copied: it is `previous` now.
      if (!best_copied_) s_.assign(*previous, best_);
      best_copied_ = true;
      best_is_last_ = false;
    }
    if (!std::isfinite(residual_norm)) return stop("breakdown: the residual is not finite");
    if (iterations() >= o_.max_iterations) return stop("max_iterations");
    if (iterations() - best_iteration_ >= o_.stagnation_window)
      return stop("stagnation: no new smallest residual in " +
                  std::to_string(o_.stagnation_window) + " iterations");
    return next;
  }

  // scratch_ = r0 - B y; its norm. At the target the solve has converged, with it recorded.
  double verify(const Vector& y) {
    true_residual(y, scratch_);
    const double true_norm = s_.norm(scratch_);
    if (true_norm <= target()) {
      push(true_norm / rhs_norm_);
      converged_ = true;
      status_ = "converged";
    }
    return true_norm;
  }

  // Both callers replace before the iteration is recorded: it is iteration iterations() + 1.
  void replaced(double updated, double true_norm) {
    if (o_.on_residual_replaced)
      o_.on_residual_replaced(iterations() + 1, updated / rhs_norm_, true_norm / rhs_norm_);
  }

  static std::string scientific(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3e", v);
    return text;
  }

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
  bool best_copied_ = true;  // best_ holds the best iterate (record_step may leave it in y)
  bool converged_ = false;
  std::string status_;
};

// |value| small against scale: a breakdown. Also true for NaN.
inline bool vanishes(double magnitude, double scale) {
  constexpr double eps = 2.220446049250313e-16;
  return !(magnitude > eps * eps * scale);
}

}  // namespace solvent::krylov
