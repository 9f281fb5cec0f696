#pragma once
// The vector space the Krylov algorithms run in on the CPU: vectors in host memory, the
// operator, the preconditioner (a CPU plugin), and the kernels of host_kernels.hpp behind the interface
// that the CUDA variant (device_space.hpp) offers too: the OperatorSpace concept of
// solvent/vector_space.hpp. On a stencil distributed over ranks, each rank holds its block
// of every vector: the product exchanges the faces first, and the reductions add the ranks'
// partial sums in rank order (so every rank gets the same bits).
#include <solvent_krylov/host_kernels.hpp>

#include <solvent/grid_blocks.hpp>
#include <solvent/preconditioner.hpp>

#include <memory>
#include <cmath>
#include <span>
#include <string>
#include <vector>

namespace solvent::krylov {

template <class T>
class HostSpace {
 public:
  using Scalar = T;
  using Vector = std::vector<T>;

  // pc is null when there is no preconditioner.
  HostSpace(MatrixView<T> a, const Preconditioner* pc) : a_(a), pc_(pc), n_(rows_of(a)) {
    if (const auto* s = std::get_if<const Stencil7<T>*>(&a); s && (*s)->distributed()) {
      comm_ = (*s)->block->comm;
      halo_ = std::make_unique<HaloExchange<T>>(*(*s)->block, HaloExchange<T>::Layout::Block);
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
  T dot(const Vector& x, const Vector& y) const {
    const Vector* ys[1] = {&y};
    return dots(x, ys)[0];
  }
  double norm(const Vector& x) const { return std::sqrt(real_part(dot(x, x))); }
  std::vector<T> dots(const Vector& x, std::span<const Vector* const> ys) const {
    std::vector<const T*> raw(ys.size());
    for (std::size_t k = 0; k < ys.size(); ++k) raw[k] = ys[k]->data();
    std::vector<T> out(ys.size());
    host::dots<T>(x, raw, out);
    if (comm_) comm_->sum(std::span<T>(out));
    return out;
  }

  void apply(const Vector& x, Vector& y) const {
    if (halo_) {
      halo_->pack(x);
      halo_->transfer();
    }
    host::apply<T>(a_, x, y);
    if (halo_) subtract_face_couplings(*std::get<const Stencil7<T>*>(a_), *halo_, std::span<T>(y));
  }
  // x = M^{-1} x (a no-op without preconditioner).
  void precondition(Vector& x) const {
    if (pc_) pc_->apply(std::span<const T>(x), std::span<T>(x));
  }

 private:
  MatrixView<T> a_;
  const Preconditioner* pc_;
  std::size_t n_;
  const Communicator* comm_ = nullptr;         // set on a distributed stencil
  std::unique_ptr<HaloExchange<T>> halo_;  // its faces' exchange, buffers kept
};

}  // namespace solvent::krylov
