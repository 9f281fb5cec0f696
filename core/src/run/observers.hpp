#pragma once
// The observers a run chains in front of the output (run_driver.cpp): each passes what the
// integrator reports on to the next, adding or checking one thing.
#include "run/interruption.hpp"

#include <solvent/communicator.hpp>
#include <solvent/model.hpp>
#include <solvent/observer.hpp>
#include <solvent/sparse/row_distribution.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <span>
#include <variant>
#include <vector>

#include <fmt/format.h>

namespace solvent {

// What ranks other than 0 report to: rank 0 alone writes the run's files.
class NullObserver : public Observer {
 public:
  void on_start(const FieldLayout&) override {}
  void on_step(const StepInfo&, std::span<const double>, std::span<const Observable>) override {}
  void on_solution(const Vector&, const SolveStats&, std::span<const Observable>) override {}
};

// Reports to two observers in turn (rank 0: its files, then the progress line).
class ObserverFanOut : public Observer {
 public:
  ObserverFanOut(Observer& a, Observer& b) : a_(a), b_(b) {}
  void on_start(const FieldLayout& l) override {
    a_.on_start(l);
    b_.on_start(l);
  }
  void on_step(const StepInfo& i, std::span<const double> u,
               std::span<const Observable> o) override {
    a_.on_step(i, u, o);
    b_.on_step(i, u, o);
  }
  void on_solution(const Vector& x, const SolveStats& s, std::span<const Observable> o) override {
    a_.on_solution(x, s, o);
    b_.on_solution(x, s, o);
  }

 private:
  Observer& a_;
  Observer& b_;
};

// A solution whose rows are spread over ranks by a distributed sparse matrix, gathered into
// the global order before it goes on, so that rank 0 writes the whole vector as one rank
// would. Every rank takes part (the gather is collective); the others pass it to nothing.
class GatherRows : public Observer {
 public:
  GatherRows(std::shared_ptr<const RowDistribution> rows, Observer& next)
      : rows_(std::move(rows)), next_(next) {}
  void on_start(const FieldLayout& l) override { next_.on_start(l); }
  void on_step(const StepInfo& i, std::span<const double> u,
               std::span<const Observable> o) override {
    next_.on_step(i, u, o);
  }
  void on_solution(const Vector& x, const SolveStats& s, std::span<const Observable> o) override {
    std::visit(
        [&](const auto& v) {
          using T = typename std::decay_t<decltype(v)>::value_type;
          next_.on_solution(Vector(gather_rows<T>(*rows_, v)), s, o);
        },
        x);
  }

 private:
  std::shared_ptr<const RowDistribution> rows_;
  Observer& next_;
};

// max |u_i - exact_i|, sum |u_i - exact_i|^2 and sum |exact_i|^2 over this rank's values, the
// same bits for any number of threads.
struct ErrorSums {
  double max = 0, squares = 0, exact_squares = 0;
};
template <class T>
ErrorSums exact_error_sums(std::span<const T> u, std::span<const T> exact);

// Where the model knows its exact solution, the error of every reported state or solution,
// computed here so that every model with an exact solution gets the same two numbers:
// exact_error_max = max_i |u_i - exact_i| and exact_error_rel_l2 = ||u - exact|| / ||exact||,
// over all ranks where each holds its block (every rank takes part, and gets the same).
class ExactErrorObserver : public Observer {
 public:
  ExactErrorObserver(Model& model, Observer& next, const Communicator& comm)
      : model_(model), next_(next), comm_(comm) {}
  void on_start(const FieldLayout& l) override { next_.on_start(l); }
  void on_step(const StepInfo& i, std::span<const double> u,
               std::span<const Observable> o) override {
    ImexProblem* p = model_.imex();
    exact_.resize(u.size());
    if (p == nullptr || !p->exact_state(i.t, exact_)) return next_.on_step(i, u, o);
    next_.on_step(i, u,
                  with_errors(o, std::span<const double>(u), std::span<const double>(exact_)));
  }
  void on_solution(const Vector& x, const SolveStats& s, std::span<const Observable> o) override {
    LinearProblem* p = model_.linear();
    const auto exact = p ? p->exact_solution() : std::nullopt;
    if (!exact || exact->index() != x.index()) return next_.on_solution(x, s, o);
    std::visit(
        [&](const auto& v) {
          using V = std::decay_t<decltype(v)>;
          const auto& e = std::get<V>(*exact);
          next_.on_solution(
              x, s, with_errors(o, std::span(v.data(), v.size()), std::span(e.data(), e.size())));
        },
        x);
  }

 private:
  template <class T>
  std::vector<Observable> with_errors(std::span<const Observable> o, std::span<const T> u,
                                      std::span<const T> exact) const {
    auto [max, d2, e2] = exact_error_sums(u, exact);
    if (comm_.size() > 1) {
      double squares[2] = {d2, e2};
      comm_.sum(squares);
      comm_.max(std::span<double>(&max, 1));
      d2 = squares[0];
      e2 = squares[1];
    }
    std::vector<Observable> all(o.begin(), o.end());
    all.push_back({"exact_error_max", max});
    all.push_back({"exact_error_rel_l2", e2 > 0 ? std::sqrt(d2 / e2) : std::sqrt(d2)});
    return all;
  }

  Model& model_;
  Observer& next_;
  const Communicator& comm_;
  std::vector<double> exact_;
};

// After every step the integrator reports: a SIGINT or SIGTERM received during it ends the
// run here, the step complete and written.
class StopOnSignal : public Observer {
 public:
  explicit StopOnSignal(Observer& next) : next_(next) {}
  void on_start(const FieldLayout& l) override { next_.on_start(l); }
  void on_step(const StepInfo& i, std::span<const double> u,
               std::span<const Observable> o) override {
    next_.on_step(i, u, o);
    if (const int sig = pending_signal()) throw interrupted_after(sig, i.step, i.t);
  }
  void on_solution(const Vector& x, const SolveStats& s, std::span<const Observable> o) override {
    next_.on_solution(x, s, o);
  }

 private:
  Observer& next_;
};

}  // namespace solvent
