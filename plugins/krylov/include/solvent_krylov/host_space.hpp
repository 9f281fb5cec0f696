#pragma once
// The vector space the Krylov algorithms run in on the CPU: vectors in host memory, the
// operator, the preconditioner (a CPU plugin), and the kernels of host_kernels.hpp behind the
// interface that the CUDA variant (device_space.hpp) offers too: the OperatorSpace concept of
// solvent/numerics/vector_space.hpp. On a seven-point stencil the reductions go line by line along
// axis 1 with the line sums added exactly (host::line_dots): distributed over ranks that
// each hold whole lines of their block, every rank and every rank count then gets the same
// bits. Each rank holds its block of every vector; the product exchanges the faces, then
// recomputes the rows next to them with the values received (rounded as on one rank).
// On a CSR matrix distributed over ranks each rank holds its rows of every vector; the
// product first brings the ghosts' values (GhostExchange), and a dot product is this rank's
// (as on one rank) added over the ranks in rank order (Communicator::sum): the same bits on
// every rank and for every rerun on as many ranks, and one rank's result to rounding.
#include <solvent_krylov/exact_reduction.hpp>
#include <solvent_krylov/host_kernels.hpp>

#include <solvent/grid/grid_blocks.hpp>
#include <solvent/preconditioner.hpp>
#include <solvent/sparse/row_distribution.hpp>

#include <cmath>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace solvent::krylov {

template <class T>
class HostSpace : public PairReductions<HostSpace<T>, std::vector<T>, T> {
 public:
  using Scalar = T;
  using Vector = std::vector<T>;

  // pc is null when there is no preconditioner.
  HostSpace(MatrixView<T> a, const Preconditioner* pc) : a_(a), pc_(pc), n_(rows_of(a)) {
    const auto* s = std::get_if<const Stencil7<T>*>(&a);
    if (s) line_ = (*s)->n1;
    if (s && (*s)->distributed()) {
      comm_ = (*s)->block->comm;
      halo_ = std::make_unique<HaloExchange<T>>(*(*s)->block, HaloExchange<T>::Layout::Block);
      for (int f = 0; f <= 6; ++f) faces_.at[f] = static_cast<std::int64_t>(halo_->face_offset(f));
    }
    const auto* c = std::get_if<const CsrMatrix<T>*>(&a);
    if (c && (*c)->distributed()) {
      comm_ = (*c)->distribution->comm;
      ghosts_ = std::make_unique<GhostExchange<T>>((*c)->distribution);
      extended_.assign((*c)->cols, T(0));
    }
  }

  static constexpr const char* plugin_suffix = "";
  static std::vector<OperatorForm> forms() {
    std::vector<OperatorForm> f;
    for (auto scalar : {ScalarKind::Real, ScalarKind::Complex})
      for (auto kind : {OperatorKind::Csr, OperatorKind::Stencil7, OperatorKind::MatrixFree})
        f.push_back({kind, scalar});
    return f;
  }
  static std::string device_name() { return "cpu"; }
  std::size_t size() const { return n_; }
  bool preconditioned() const { return pc_ != nullptr; }

  Vector vector() const { return Vector(n_, T(0)); }
  Vector upload(std::span<const T> x) const { return Vector(x.begin(), x.end()); }
  void download(const Vector& x, std::span<T> out) const { host::assign<T>(x, out); }

  void assign(const Vector& x, Vector& y) const { host::assign<T>(x, y); }
  void scale(T a, Vector& x) const { host::scale<T>(a, x); }
  void axpy(T a, const Vector& x, Vector& y) const { host::axpy<T>(a, x, y); }
  void axpby(T a, const Vector& x, T b, Vector& y) const { host::axpby<T>(a, x, b, y); }
  void waxpy(T a, const Vector& x, const Vector& y, Vector& w) const { host::waxpy<T>(a, x, y, w); }
  // The same update of several vectors: ys[k] += a xs[k]; ys[k] = a xs[k] + b ys[k];
  // y += sum c[k] xs[k] term by term. The CPU has no launch to save: a call a vector.
  void axpy_each(T a, std::span<const Vector* const> xs, std::span<Vector* const> ys) const {
    for (std::size_t k = 0; k < xs.size(); ++k) axpy(a, *xs[k], *ys[k]);
  }
  void axpby_each(T a, std::span<const Vector* const> xs, T b, std::span<Vector* const> ys) const {
    for (std::size_t k = 0; k < xs.size(); ++k) axpby(a, *xs[k], b, *ys[k]);
  }
  void add_combination(std::span<const T> c, std::span<const Vector* const> xs, Vector& y) const {
    check_pairs(c.size(), xs.size(), "add_combination");
    for (std::size_t k = 0; k < xs.size(); ++k) axpy(c[k], *xs[k], y);
  }
  // <xs[k], ys[k]> for every k, each with dot's bits, in one sum over the ranks.
  std::vector<T> pair_dots(std::span<const Vector* const> xs,
                           std::span<const Vector* const> ys) const {
    check_pairs(xs.size(), ys.size(), "pair_dots");
    const auto raw_x = data_of(xs), raw_y = data_of(ys);
    std::vector<T> out(ys.size());
    if (line_ == 0) {
      host::dots<T>(n_, raw_x, raw_y, out);
      if (comm_) comm_->sum(std::span<T>(out));
      return out;
    }
    constexpr std::size_t parts = std::is_same_v<T, double> ? 1 : 2;
    std::vector<ExactSum> sums(parts * ys.size());
    host::line_dots<T>(n_, raw_x, raw_y, line_, sums);
    return exact_values<T>(sums, ys.size(), comm_);
  }

  void apply(const Vector& x, Vector& y) const {
    if (ghosts_) {
      host::apply<T>(a_, with_ghosts(x), y);
      return;
    }
    if (halo_) {
      halo_->pack(x);
      halo_->transfer();
    }
    host::apply<T>(a_, x, y);
    if (halo_)
      host::face_rows<T>(*std::get<const Stencil7<T>*>(a_), faces_, x, halo_->receive_buffer(), y);
  }
  // y = A x and <x, y>. On a CSR matrix in one pass, each block of rows summed while in
  // cache (host::csr_apply_dot: the bits of apply then dot); a stencil's sums go by lines
  // (dots), so there the two stay apart.
  T apply_dot(const Vector& x, Vector& y) const {
    const auto* csr = std::get_if<const CsrMatrix<T>*>(&a_);
    if (!csr) {
      apply(x, y);
      return this->dot(x, y);
    }
    T out[1] = {host::csr_apply_dot<T>(**csr, ghosts_ ? with_ghosts(x) : x, y)};
    if (comm_) comm_->sum(std::span<T>(out));
    return out[0];
  }
  // y = M^{-1} x (y = x without preconditioner); y is not x.
  void precondition(const Vector& x, Vector& y) const {
    if (pc_)
      pc_->apply(std::span<const T>(x), std::span<T>(y));
    else
      host::assign<T>(x, y);
  }

 private:
  // A distributed CSR matrix's product input: x, then the ghosts' values from the peers.
  const Vector& with_ghosts(const Vector& x) const {
    host::assign<T>(x, std::span<T>(extended_).first(n_));
    ghosts_->exchange(extended_);
    return extended_;
  }

  MatrixView<T> a_;
  const Preconditioner* pc_;
  std::size_t n_;
  std::size_t line_ = 0;                   // a stencil's axis-1 line, 0 for CSR or matrix-free
  const Communicator* comm_ = nullptr;     // set on a distributed stencil or CSR matrix
  std::unique_ptr<HaloExchange<T>> halo_;  // a stencil's faces' exchange, buffers kept
  FaceOffsets faces_{};
  std::unique_ptr<GhostExchange<T>> ghosts_;  // a CSR matrix's ghost exchange
  mutable std::vector<T> extended_;           // the rank's values of x, then its ghosts'
};

}  // namespace solvent::krylov
