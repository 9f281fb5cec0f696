#pragma once
// The vector space the Krylov algorithms run in on a CUDA device: the same interface as
// host_space.hpp, with vectors and the matrix resident in device memory and a CUDA
// preconditioner plugin applied to them there. Only reductions come back to the host, as
// scalars.
//
// On a stencil distributed over ranks (one GPU each), the product packs the block's faces on
// the device and moves them GPU to GPU where every rank is on one host
// (solvent/device/peer_halo.hpp), else through a CUDA-aware MPI where the communicator says it is
// one, else staged through page-locked host memory and MPI (OpenMPI on the GPU machines is not
// CUDA-aware); then it recomputes the rows next to the faces with the values received. The block's
// own product runs on the device while the faces travel. On a stencil the dot products are exact
// line sums (device::line_dots) added over the ranks as integer digits: a solve over any number of
// GPUs holding whole lines repeats the one-GPU iterations bit for bit.
//
// On a CSR matrix distributed by rows (one GPU per rank) the product gathers the values the
// other ranks need on the device, copies them GPU to GPU into the peers' ghosts where every
// rank is on one host (solvent/device/peer_ghosts.hpp), else stages them through page-locked
// host memory and MPI, and multiplies the rows that need no ghost while they travel; a dot
// product is the rank's (as on one GPU) added over the ranks in rank order, as HostSpace
// does: one GPU's result to rounding.
#include <solvent/device/device_array.hpp>
#include <solvent/device/peer_ghosts.hpp>
#include <solvent/device/peer_halo.hpp>
#include <solvent_krylov/device_kernels.hpp>
#include <solvent_krylov/exact_reduction.hpp>

#include <solvent_krylov/matrix_view.hpp>

#include <solvent/device/cuda.hpp>
#include <solvent/errors.hpp>
#include <solvent/grid/grid_blocks.hpp>
#include <solvent/preconditioner.hpp>
#include <solvent/sparse/row_distribution.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace solvent::krylov {

template <class T>
class DeviceSpace : public PairReductions<DeviceSpace<T>, solvent::cuda::DeviceArray<T>, T> {
 public:
  using Scalar = T;
  using Vector = solvent::cuda::DeviceArray<T>;
  static constexpr const char* plugin_suffix = "-cuda";

  static std::vector<OperatorForm> forms() {
    std::vector<OperatorForm> f;
    for (auto scalar : {ScalarKind::Real, ScalarKind::Complex})
      for (auto kind : {OperatorKind::Csr, OperatorKind::Stencil7}) f.push_back({kind, scalar});
    return f;
  }

  // Probes the device (DeviceUnavailable without one) and uploads the operator, one of forms().
  DeviceSpace(MatrixView<T> a, const Preconditioner* pc)
      : device_name_(solvent::cuda::current_device("device probe")),
        n_(rows_of(a)),
        pc_(pc),
        workspace_(device::dots_workspace(device::max_dots)),
        host_scalars_(device::max_dots) {
    if (const auto* csr = std::get_if<const CsrMatrix<T>*>(&a)) {
      const CsrMatrix<T>& m = **csr;
      if (m.distributed()) {
        comm_ = m.distribution->comm;
        ghosts_ = std::make_unique<GhostExchange<T>>(m.distribution);
        std::vector<std::int32_t> sends;
        for (const auto& p : m.distribution->peers)
          sends.insert(sends.end(), p.send_rows.begin(), p.send_rows.end());
        send_rows_ = solvent::cuda::DeviceArray<std::int32_t>(sends.data(), sends.size());
        send_ = solvent::cuda::DeviceArray<T>(sends.size());
        // A row needs a ghost where one of its columns lies past the rank's own.
        std::vector<std::int32_t> inner, outer;
        for (std::size_t i = 0; i < m.rows; ++i) {
          const bool ghost =
              std::any_of(m.col_idx.data() + m.row_ptr[i], m.col_idx.data() + m.row_ptr[i + 1],
                          [&](std::int32_t c) { return static_cast<std::size_t>(c) >= m.rows; });
          (ghost ? outer : inner).push_back(static_cast<std::int32_t>(i));
        }
        inner_rows_ = solvent::cuda::DeviceArray<std::int32_t>(inner.data(), inner.size());
        outer_rows_ = solvent::cuda::DeviceArray<std::int32_t>(outer.data(), outer.size());
        if (solvent::cuda::PeerGhosts::available(*m.distribution)) {
          peer_ghosts_ = std::make_unique<solvent::cuda::PeerGhosts>(*m.distribution, sizeof(T));
        } else {
          ghost_values_ = solvent::cuda::DeviceArray<T>(m.cols - m.rows);
          // Nothing is page-locked where a buffer is empty (a rank with no ghosts).
          // Page-locking does not write: the exchange's receive buffer is read-only to its
          // users.
          const auto send = ghosts_->send_buffer();
          const auto receive = ghosts_->receive_buffer();
          pinned_send_ = solvent::cuda::PinnedRegion(send.data(), send.size_bytes());
          pinned_receive_ =
              solvent::cuda::PinnedRegion(const_cast<T*>(receive.data()), receive.size_bytes());
        }
      }
      row_ptr_ = solvent::cuda::DeviceArray<std::int32_t>(m.row_ptr.data(), m.row_ptr.size());
      col_idx_ = solvent::cuda::DeviceArray<std::int32_t>(m.col_idx.data(), m.col_idx.size());
      values_ = solvent::cuda::DeviceArray<T>(m.values.data(), m.values.size());
      group_ = device::csr_group_for(m.rows ? static_cast<double>(m.nnz()) / m.rows : 1.0);
    } else {
      const Stencil7<T>& s = *std::get<const Stencil7<T>*>(a);
      for (int k = 0; k < 7; ++k) {
        coefficients_[k] = solvent::cuda::DeviceArray<T>(s.c[k].data(), s.c[k].size());
        stencil_.c[k] = coefficients_[k].data();
      }
      stencil_.n1 = static_cast<std::int64_t>(s.n1);
      stencil_.n2 = static_cast<std::int64_t>(s.n2);
      stencil_.n3 = static_cast<std::int64_t>(s.n3);
      line_ = static_cast<std::int64_t>(s.n1);
      constexpr std::size_t digits = 2 * device::max_dots * ExactSum::digit_count;
      line_digits_ = solvent::cuda::DeviceArray<std::int64_t>(digits);
      line_nonfinite_ = solvent::cuda::DeviceArray<double>(2 * device::max_dots);
      host_digits_ = solvent::cuda::PinnedArray<std::int64_t>(digits);
      host_nonfinite_ = solvent::cuda::PinnedArray<double>(2 * device::max_dots);
      if (s.distributed()) {
        comm_ = s.block->comm;
        halo_ = std::make_unique<HaloExchange<T>>(*s.block, HaloExchange<T>::Layout::Block);
        for (int f = 0; f <= 6; ++f)
          faces_.at[f] = static_cast<std::int64_t>(halo_->face_offset(f));
        send_ = solvent::cuda::DeviceArray<T>(halo_->send_buffer().size());
        if (solvent::cuda::PeerHalo::available(*s.block)) {
          std::array<std::size_t, 7> offsets;
          for (int f = 0; f <= 6; ++f) offsets[f] = halo_->face_offset(f);
          peer_ = std::make_unique<solvent::cuda::PeerHalo>(*s.block, offsets, sizeof(T));
        } else {
          receive_ = solvent::cuda::DeviceArray<T>(halo_->receive_buffer().size());
          const std::size_t bytes = halo_->send_buffer().size() * sizeof(T);
          pinned_send_ = solvent::cuda::PinnedRegion(halo_->send_buffer().data(), bytes);
          pinned_receive_ = solvent::cuda::PinnedRegion(halo_->receive_buffer().data(), bytes);
        }
      }
    }
  }

  // Over several ranks: this rank's GPU (solvent::cuda::select_rank_device).
  static void claim_device(const Communicator& comm, const char* plugin) {
    solvent::cuda::select_rank_device(comm, plugin);
  }

  std::string device_name() const { return device_name_; }
  std::size_t size() const { return n_; }
  bool preconditioned() const { return pc_ != nullptr; }

  Vector vector() const { return Vector(n_); }
  Vector upload(std::span<const T> x) const { return Vector(x.data(), x.size()); }
  void download(const Vector& x, std::span<T> out) const {
    solvent::cuda::copy_to_host(out.data(), x.data(), n_ * sizeof(T));
  }

  void assign(const Vector& x, Vector& y) const { device::assign<T>(len(), x.data(), y.data()); }
  void scale(T a, Vector& x) const { device::scale<T>(len(), a, x.data()); }
  void axpy(T a, const Vector& x, Vector& y) const {
    device::axpy<T>(len(), a, x.data(), y.data());
  }
  void axpby(T a, const Vector& x, T b, Vector& y) const {
    device::axpby<T>(len(), a, x.data(), b, y.data());
  }
  void waxpy(T a, const Vector& x, const Vector& y, Vector& w) const {
    device::waxpy<T>(len(), a, x.data(), y.data(), w.data());
  }
  // The same update of several vectors in one launch, each with the bits axpy, axpby or
  // count axpy calls give it: ys[k] += a xs[k]; ys[k] = a xs[k] + b ys[k]; y += sum c[k] xs[k].
  void axpy_each(T a, std::span<const Vector* const> xs, std::span<Vector* const> ys) const {
    const auto raw_x = data_of(xs), raw_y = data_of(ys);
    device::axpy_each<T>(len(), a, raw_x.data(), raw_y.data(), static_cast<int>(xs.size()));
  }
  void axpby_each(T a, std::span<const Vector* const> xs, T b, std::span<Vector* const> ys) const {
    const auto raw_x = data_of(xs), raw_y = data_of(ys);
    device::axpby_each<T>(len(), a, raw_x.data(), b, raw_y.data(), static_cast<int>(xs.size()));
  }
  void add_combination(std::span<const T> c, std::span<const Vector* const> xs, Vector& y) const {
    check_pairs(c.size(), xs.size(), "add_combination");
    const auto raw_x = data_of(xs);
    device::add_combination<T>(len(), c.data(), raw_x.data(), static_cast<int>(xs.size()),
                               y.data());
  }
  // <xs[k], ys[k]> for every k, each with dot's bits, in one round trip from the device and
  // one sum over the ranks.
  std::vector<T> pair_dots(std::span<const Vector* const> xs,
                           std::span<const Vector* const> ys) const {
    check_pairs(xs.size(), ys.size(), "pair_dots");
    const auto raw_x = data_of(xs), raw_y = data_of(ys);
    const int count = static_cast<int>(ys.size());
    if (line_ > 0) {
      constexpr std::size_t parts = std::is_same_v<T, double> ? 1 : 2;
      std::vector<ExactSum> sums(parts * ys.size());
      device::LineDotsWorkspace w{line_digits_.data(), line_nonfinite_.data(), host_digits_.data(),
                                  host_nonfinite_.data()};
      device::line_dots<T>(len(), line_, raw_x.data(), raw_y.data(), count, w, sums);
      return exact_values<T>(sums, ys.size(), comm_);
    }
    device::dots<T>(len(), raw_x.data(), raw_y.data(), count, workspace_.data(),
                    host_scalars_.data());
    std::vector<T> out(host_scalars_.data(), host_scalars_.data() + ys.size());
    if (comm_) comm_->sum(std::span<T>(out));
    return out;
  }

  void apply(const Vector& x, Vector& y) const {
    if (ghosts_) return apply_distributed_csr(x, y);
    if (row_ptr_.size() != 0) {
      device::csr_spmv<T>(len(), row_ptr_.data(), col_idx_.data(), values_.data(), x.data(),
                          y.data(), group_);
      return;
    }
    if (!halo_) return device::stencil7_spmv<T>(stencil_, x.data(), y.data());
    device::pack_faces<T>(stencil_, faces_, x.data(), send_.data());
    if (peer_) {
      peer_->send(send_.data());
      // Queued behind the copies: the block's product runs while the ranks hand-shake.
      device::stencil7_spmv<T>(stencil_, x.data(), y.data());
      const T* received = static_cast<const T*>(peer_->receive());
      device::face_rows<T>(stencil_, faces_, x.data(), received, y.data());
      return;
    }
    if (comm_->device_memory()) {
      // A CUDA-aware MPI reads and writes the device buffers itself.
      solvent::cuda::synchronize();
      device::stencil7_spmv<T>(stencil_, x.data(), y.data());
      halo_->transfer(std::span<const T>(send_.data(), send_.size()),
                      std::span<T>(receive_.data(), receive_.size()));
      device::face_rows<T>(stencil_, faces_, x.data(), receive_.data(), y.data());
      return;
    }
    const std::size_t bytes = send_.size() * sizeof(T);
    solvent::cuda::copy_to_host(halo_->send_buffer().data(), send_.data(), bytes);
    // Into page-locked memory the copy returns at once: MPI must not read the faces before
    // they have arrived (nor overwrite the receive buffer the last product's copy reads).
    solvent::cuda::synchronize();
    // Launched before the exchange and not waited for: the block's product overlaps it.
    device::stencil7_spmv<T>(stencil_, x.data(), y.data());
    halo_->transfer();
    solvent::cuda::copy_to_device(receive_.data(), halo_->receive_buffer().data(), bytes);
    device::face_rows<T>(stencil_, faces_, x.data(), receive_.data(), y.data());
  }
  // y = A x and <x, y>: two kernels here (the host space fuses them on a CSR matrix).
  T apply_dot(const Vector& x, Vector& y) const {
    apply(x, y);
    return this->dot(x, y);
  }
  // y = M^{-1} x (y = x without preconditioner); y is not x. The preconditioner works on
  // device memory: the spans hold device pointers.
  void precondition(const Vector& x, Vector& y) const {
    if (pc_)
      pc_->apply(std::span<const T>(x.data(), n_), std::span<T>(y.data(), n_));
    else
      assign(x, y);
  }

 private:
  std::int64_t len() const { return static_cast<std::int64_t>(n_); }

  // A CSR matrix distributed by rows: the values that the peers need gathered on the device
  // and sent GPU to GPU (PeerGhosts) where every rank is on one host, else staged through
  // page-locked host memory and exchanged by MPI (GhostExchange). The rows that need no ghost
  // are computed while the ghosts travel, then the others with them. Each row is the same
  // sum as on one rank, so the product is too.
  void apply_distributed_csr(const Vector& x, Vector& y) const {
    const std::size_t sends = send_.size();
    device::gather<T>(static_cast<std::int64_t>(sends), send_rows_.data(), x.data(), send_.data());
    if (peer_ghosts_) {
      peer_ghosts_->send(send_.data());
      // Queued behind the copies: the inner rows run while the ranks hand-shake.
      rows_product(inner_rows_, x, nullptr, y);
      rows_product(outer_rows_, x, static_cast<const T*>(peer_ghosts_->receive()), y);
      return;
    }
    // Into page-locked memory the copy returns at once: wait for it before MPI reads it (the
    // wait also covers the last product's copy out of the receive buffer MPI will overwrite).
    solvent::cuda::copy_to_host(ghosts_->send_buffer().data(), send_.data(), sends * sizeof(T));
    solvent::cuda::synchronize();
    // Launched before the exchange and not waited for: the inner rows overlap it.
    rows_product(inner_rows_, x, nullptr, y);
    ghosts_->transfer();
    const auto received = ghosts_->receive_buffer();
    solvent::cuda::copy_to_device(ghost_values_.data(), received.data(),
                                  received.size() * sizeof(T));
    rows_product(outer_rows_, x, ghost_values_.data(), y);
  }
  void rows_product(const solvent::cuda::DeviceArray<std::int32_t>& rows, const Vector& x,
                    const T* ghosts, Vector& y) const {
    device::csr_spmv_rows<T>(static_cast<std::int64_t>(rows.size()), rows.data(), row_ptr_.data(),
                             col_idx_.data(), values_.data(), x.data(),
                             static_cast<std::int32_t>(n_), ghosts, y.data(), group_);
  }

  std::string device_name_;
  std::size_t n_;
  const Preconditioner* pc_;
  mutable solvent::cuda::DeviceArray<T> workspace_;     // reduction partial sums
  mutable solvent::cuda::PinnedArray<T> host_scalars_;  // the dots, read by the host
  solvent::cuda::DeviceArray<std::int32_t> row_ptr_, col_idx_;
  solvent::cuda::DeviceArray<T> values_;
  int group_ = 1;
  std::array<solvent::cuda::DeviceArray<T>, 7> coefficients_;
  Stencil7View<T> stencil_{};
  // A stencil's exact line dot products: the line, the device digits, their host copies.
  std::int64_t line_ = 0;
  mutable solvent::cuda::DeviceArray<std::int64_t> line_digits_;
  mutable solvent::cuda::DeviceArray<double> line_nonfinite_;
  mutable solvent::cuda::PinnedArray<std::int64_t> host_digits_;
  mutable solvent::cuda::PinnedArray<double> host_nonfinite_;
  // A distributed stencil: the ranks, the host side of the exchange, the packed faces on
  // the device.
  const Communicator* comm_ = nullptr;
  std::unique_ptr<HaloExchange<T>> halo_;
  FaceOffsets faces_{};
  mutable solvent::cuda::DeviceArray<T> send_, receive_;    // send_ also a CSR matrix's sends
  std::unique_ptr<solvent::cuda::PeerHalo> peer_;           // GPU to GPU on one host
  std::unique_ptr<solvent::cuda::PeerGhosts> peer_ghosts_;  // a CSR matrix's, the same
  // A distributed CSR matrix: its ghost exchange (host buffers), the local rows whose values
  // the peers need (in send-buffer order), the rows that need no ghost and those that do,
  // and the ghosts' values on the device where they are staged through the host.
  std::unique_ptr<GhostExchange<T>> ghosts_;
  solvent::cuda::DeviceArray<std::int32_t> send_rows_, inner_rows_, outer_rows_;
  mutable solvent::cuda::DeviceArray<T> ghost_values_;
  solvent::cuda::PinnedRegion pinned_send_,
      pinned_receive_;  // the host-staged buffers, page-locked
};

}  // namespace solvent::krylov
