#include "cpu/cpu_backend.hpp"

#include <solvent/numerics/exact_sum.hpp>
#include <solvent_matm/calibration.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace solvent::matm {
namespace {

// line_sums_ holds this many values per line: the four of ProductSums, then the (D y, y)
// of two lower sweeps.
constexpr int slots = 6;

// Calls line(j, k, l) for every own line, in wavefronts j + k = const (first to last, or
// last to first); the lines of one wavefront depend only on the previous one, so they are
// shared among the threads.
template <class Line>
void wavefront(const Box& b, bool reverse, int threads, Line&& line) {
  const index_t n2 = b.hi[1] - b.lo[1], n3 = b.hi[2] - b.lo[2];
  const index_t fronts = n2 + n3 - 1;
#pragma omp parallel num_threads(threads)
  for (index_t f = 0; f < fronts; ++f) {
    const index_t d = reverse ? fronts - 1 - f : f;
    const index_t j_lo = std::max<index_t>(0, d - (n3 - 1)), j_hi = std::min<index_t>(d, n2 - 1);
#pragma omp for schedule(static)
    for (index_t j = j_lo; j <= j_hi; ++j) line(b.lo[1] + j, b.lo[2] + d - j, j + n2 * (d - j));
  }
}

// Adds the seconds of its scope to `total`.
class Stopwatch {
 public:
  explicit Stopwatch(double& total) : total_(total) {}
  ~Stopwatch() {
    total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  double& total_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace

ParamSpec threads_parameter() {
  // Narrowed to int for OpenMP; 4096 is above the hardware threads of any one host, so a
  // larger value is a typo rather than a request.
  return ParamSpec::integer("threads", 0, "OpenMP threads (of a rank on the CPU); 0 takes all "
                            "OpenMP offers")
      .at_least(0.0)
      .at_most(4096);
}

double cpu_measured_speed(int threads, const std::string& solver) {
  const Stencil7<double> a = calibration_stencil();
  const SplitStencil split(a, solver);
  std::vector<double> f(a.size(), 1.0), x(a.size(), 0.0);
  CpuBackend backend(split, f, x, threads, 1, true);
  return time_corrections(backend, a.size());
}

int cpu_threads(int requested) {
#ifdef _OPENMP
  return requested > 0 ? requested : omp_get_max_threads();
#else
  (void)requested;
  return 1;
#endif
}

CpuBackend::CpuBackend(const SplitStencil& a, std::span<const double> f, std::span<double> x,
                       int threads, int fragments, bool pipelined)
    : view_(a.view()),
      self_adjoint_(a.self_adjoint()),
      own_(a.own()),
      x_out_(x),
      // A rank given no block (a balance by speed) only joins the sums: a team of threads
      // woken for its empty loops would make the ranks with work wait at every sum.
      threads_(a.block() && a.block()->blocks.empty(a.block()->rank) ? 1 : cpu_threads(threads)),
      ranks_(a.block() ? a.block()->comm : nullptr) {
  const std::size_t n = a.size();
  for (auto* v : {&f_, &x_, &r_, &w_, &y_, &z0_}) v->assign(n, 0.0);
  if (!self_adjoint_) z1_.assign(n, 0.0);
  line_sums_.assign(static_cast<std::size_t>(Lines(own_).count * slots), 0.0);
  if (a.has_ghost_layer()) {
    links_.emplace(*a.block(), pipelined);
    fragments_ = links_->fragments(fragments);
    default_fragments_ = fragments == 0;
  }
  // f and x arrive as the block's values; inactive nodes hold u = 0.
  std::size_t b = 0;
  for (index_t k = own_.lo[2]; k < own_.hi[2]; ++k)
    for (index_t j = own_.lo[1]; j < own_.hi[1]; ++j)
      for (index_t i = own_.lo[0]; i < own_.hi[0]; ++i, ++b) {
        const auto m = static_cast<std::size_t>(view_.index(i, j, k));
        f_[m] = f[b];
        x_[m] = view_.c0[m] == 0.0 ? 0.0 : x[b];
      }
}

CpuBackend::~CpuBackend() {
  std::size_t b = 0;
  for (index_t k = own_.lo[2]; k < own_.hi[2]; ++k)
    for (index_t j = own_.lo[1]; j < own_.hi[1]; ++j)
      for (index_t i = own_.lo[0]; i < own_.hi[0]; ++i, ++b)
        x_out_[b] = x_[static_cast<std::size_t>(view_.index(i, j, k))];
}

std::optional<LinkFit> CpuBackend::adapt_fragments(const std::optional<LinkFit>& known) {
  if (!links_ || !links_->pipelined() || !default_fragments_ || links_->pipeline_depth() < 2)
    return std::nullopt;
  link_ = known ? *known : links_->measure();
  return link_;
}

std::pair<index_t, index_t> CpuBackend::fragment(int q, bool forward) const {
  if (!links_) return {own_.lo[0], own_.hi[0]};
  return links_->fragment(q, fragments_, forward);
}

std::vector<double> CpuBackend::totals(int count) {
  std::vector<ExactSum> sums(static_cast<std::size_t>(count));
  const std::size_t lines = line_sums_.size() / slots;
  for (std::size_t l = 0; l < lines; ++l)
    for (int s = 0; s < count; ++s) sums[static_cast<std::size_t>(s)].add(line_sums_[l * slots + s]);
  // Exact sums, as the device backend's, so that ranks on the CPU and on a GPU make the same
  // collective.
  if (ranks_) sum_over_ranks(sums, *ranks_);
  std::vector<double> out;
  for (const auto& s : sums) out.push_back(s.value());
  return out;
}

double CpuBackend::rhs_norm2() {
  const SplitView& s = view_;
  const Lines lines(own_);
#pragma omp parallel for num_threads(threads_) schedule(static)
  for (index_t l = 0; l < lines.count; ++l) {
    double ff = 0.0;
    for (index_t i = own_.lo[0]; i < own_.hi[0]; ++i) {
      const index_t m = s.index(i, lines.j(l), lines.k(l));
      if (s.c0[m] != 0.0) ff += f_[m] * f_[m];
    }
    line_sums_[static_cast<std::size_t>(l * slots)] = ff;
  }
  return totals(1)[0];
}

double CpuBackend::update_and_residual(double tau) {
  const SplitView& s = view_;
  const Lines lines(own_);
  if (tau != 0.0) {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (index_t l = 0; l < lines.count; ++l)
      for (index_t i = own_.lo[0]; i < own_.hi[0]; ++i) {
        const index_t m = s.index(i, lines.j(l), lines.k(l));
        x_[m] = UpdatedValues{x_.data(), w_.data(), tau}(m);
      }
  }
  if (links_) links_->exchange(x_);
#pragma omp parallel for num_threads(threads_) schedule(static)
  for (index_t l = 0; l < lines.count; ++l) {
    const index_t j = lines.j(l), k = lines.k(l);
    double rr = 0.0;
    for (index_t i = own_.lo[0]; i < own_.hi[0]; ++i) {
      const index_t m = s.index(i, j, k);
      if (s.c0[m] == 0.0) {
        r_[m] = 0.0;
        continue;
      }
      const NodeProducts p = apply_node(s, Values{x_.data()}, i, j, k);
      r_[m] = p.a0 + p.a1 - f_[m];
      rr += r_[m] * r_[m];
    }
    line_sums_[static_cast<std::size_t>(l * slots)] = rr;
  }
  return totals(1)[0];
}

void CpuBackend::apply(const double* v, bool with_a1) {
  const SplitView& s = view_;
  const Lines lines(own_);
#pragma omp parallel for num_threads(threads_) schedule(static)
  for (index_t l = 0; l < lines.count; ++l) {
    const index_t j = lines.j(l), k = lines.k(l);
    ProductSums line;
    for (index_t i = own_.lo[0]; i < own_.hi[0]; ++i) {
      const index_t m = s.index(i, j, k);
      const NodeProducts p = apply_node(s, Values{v}, i, j, k);
      z0_[m] = p.a0;
      if (with_a1) z1_[m] = p.a1;
      line.add(s.c0[m], v[m], p, r_[m]);
    }
    double* out = &line_sums_[static_cast<std::size_t>(l * slots)];
    out[0] = line.d_v_v;
    out[1] = line.r2_v;
    out[2] = line.a0_v_v;
    out[3] = line.r_v;
  }
}

void CpuBackend::lower_sweep(const double* src, double omega, int slot) {
  const SplitView& s = view_;
  double* y = y_.data();
  const Stopwatch sweep(sweep_s_);
  sweeps_ += 1;
  for (int q = 0; q < fragments_; ++q) {
    const auto [i0, i1] = fragment(q, true);
    if (links_) {
      const Stopwatch wait(wait_s_);
      links_->receive_fragment(y_, i0, i1, true);
    }
    wavefront(own_, false, threads_, [&](index_t j, index_t k, index_t l) {
      // The line continues from the fragment before, so each node, and the line's sum,
      // rounds as in one unbroken sweep.
      double prev = i0 > own_.lo[0] ? y[s.index(i0 - 1, j, k)] : 0.0;
      double* acc = slot >= 0 ? &line_sums_[static_cast<std::size_t>(l * slots + slot)] : nullptr;
      double dyy = acc && i0 > own_.lo[0] ? *acc : 0.0;
      // False only at the grid's edge of a view with no ghost layer (one rank holds the grid).
      const bool hy = j > 0, hz = k > 0;
      for (index_t i = i0; i < i1; ++i) {
        const index_t m = s.index(i, j, k);
        const Affine a = sweep_node(sweep_factors(s.c0[m], src[m], s.lower[0][m],
                                                  hy ? s.lower[1][m] : 0.0,
                                                  hz ? s.lower[2][m] : 0.0, omega),
                                    hy ? y[m - s.n1] : 0.0, hz ? y[m - s.n1 * s.n2] : 0.0);
        prev = a.q + a.beta * prev;
        y[m] = prev;
        if (acc) dyy += s.c0[m] * prev * prev;
      }
      if (acc) *acc = dyy;
    });
    if (links_) links_->send_fragment(y_, i0, i1, true);
  }
}

void CpuBackend::upper_sweep(double omega) {
  const SplitView& s = view_;
  const index_t plane = s.n1 * s.n2;
  const double* y = y_.data();
  double* v = w_.data();
  // The lower sweeps' own work, taken before this sweep's wait joins wait_s_: with it, a
  // rank that waited longer for its neighbour than it swept had a time below zero.
  const double lower_work_s = (sweep_s_ - wait_s_) / sweeps_;
  const Stopwatch sweep(sweep_s_);
  for (int q = 0; q < fragments_; ++q) {
    const auto [i0, i1] = fragment(q, false);
    if (links_) {
      const Stopwatch wait(wait_s_);
      links_->receive_fragment(w_, i0, i1, false);
    }
    wavefront(own_, true, threads_, [&](index_t j, index_t k, index_t) {
      double prev = i1 < own_.hi[0] ? v[s.index(i1, j, k)] : 0.0;
      const bool hy = j + 1 < s.n2, hz = k + 1 < s.n3;
      for (index_t i = i1 - 1; i >= i0; --i) {
        const index_t m = s.index(i, j, k);
        const bool hx = i + 1 < s.n1;
        const Affine a = sweep_node(sweep_factors(s.c0[m], s.c0[m] * y[m],
                                                  hx ? s.lower[0][m + 1] : 0.0,
                                                  hy ? s.lower[1][m + s.n1] : 0.0,
                                                  hz ? s.lower[2][m + plane] : 0.0, omega),
                                    hy ? v[m + s.n1] : 0.0, hz ? v[m + plane] : 0.0);
        prev = a.q + a.beta * prev;
        v[m] = prev;
      }
    });
    if (links_) links_->send_fragment(w_, i0, i1, false);
  }
  sweeps_ += 1;
  if (link_) {
    // Every rank ends its first upper sweep here, so this collective meets on all of them.
    fragments_ = links_->fragments_for(*link_, lower_work_s);
    link_.reset();
  }
}

double CpuBackend::omega_from_residual() {
  if (links_) links_->exchange(r_);
  apply(r_.data(), false);
  const auto t = totals(2);  // (D r, r), (D^-1 R2 r, R2 r)
  return t[1] > 0.0 ? std::sqrt(t[0] / t[1]) : 0.0;
}

// x - tau w reads w on the own nodes only, so w needs no ghost layer here.
void CpuBackend::precondition(double omega) {
  lower_sweep(r_.data(), omega, -1);
  upper_sweep(omega);
}

Dots CpuBackend::correction(double omega) {
  lower_sweep(r_.data(), omega, -1);
  upper_sweep(omega);
  if (links_) links_->exchange(w_);
  apply(w_.data(), !self_adjoint_);
  // z0 and z1 are only read on the rank's own nodes: the sweeps need no ghosts of them.
  lower_sweep(z0_.data(), omega, 4);
  if (!self_adjoint_) lower_sweep(z1_.data(), omega, 5);
  const auto t = totals(self_adjoint_ ? 5 : 6);
  Dots d;
  d.d_w_w = t[0];
  d.r2_w = t[1];
  d.a0_w_w = t[2];
  d.b_w_w = t[3];
  d.binv_a0 = t[4];
  if (!self_adjoint_) d.binv_a1 = t[5];
  return d;
}

}  // namespace solvent::matm
