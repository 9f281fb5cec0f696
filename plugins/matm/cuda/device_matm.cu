#include "cuda/device_matm.hpp"

#include <algorithm>
#include <cmath>

namespace solvent::matm::cuda {
namespace {

// Slots of the device array `sums`, one per inner product an iteration needs, so that
// one copy brings them all to the host.
enum Slot { rr = 0, d_w_w, r2_w, a0_w_w, b_w_w, binv_a0, binv_a1, slots };

}  // namespace

double* DeviceMatm::allocate(std::size_t n) {
  void* p = nullptr;
  check(cudaMalloc(&p, n * sizeof(double)), "cudaMalloc");
  owned_.push_back(p);
  bytes_ += n * sizeof(double);
  return static_cast<double*>(p);
}

DeviceMatm::DeviceMatm(const SplitStencil& a, const SweepShape& shape)
    : shape_(shape), self_adjoint_(a.self_adjoint()), n_(a.size()), active_(a.size()) {
  for (std::size_t m = 0; m < n_; ++m) active_[m] = a.c0()[m] != 0.0;
  try {
    const SplitView host = a.view();
    view_.n1 = host.n1;
    view_.n2 = host.n2;
    view_.n3 = host.n3;
    auto upload_array = [&](const std::vector<double>& v) {
      double* d = allocate(v.size());
      check(cudaMemcpy(d, v.data(), v.size() * sizeof(double), cudaMemcpyHostToDevice),
            "cudaMemcpy (operator)");
      return d;
    };
    view_.c0 = upload_array(a.c0());
    for (int d = 0; d < 3; ++d) {
      view_.lower[d] = upload_array(a.lower(d));
      view_.skew[d] = self_adjoint_ ? nullptr : upload_array(a.skew(d));
    }
    for (auto*& x : x_) x = allocate(n_);
    f_ = allocate(n_);
    r_ = allocate(n_);
    w_ = allocate(n_);
    y_ = allocate(n_);
    z0_ = allocate(n_);
    if (!self_adjoint_) z1_ = allocate(n_);
    const int tiles = sweep_tiles(view_, shape_);
    partials_ = allocate(std::max<std::size_t>(std::size_t(4) * grid_blocks(view_), tiles));
    sums_ = allocate(slots);
    void* sync = nullptr;
    check(cudaMalloc(&sync, sizeof(int) * (tiles + 1)), "cudaMalloc (sweep flags)");
    owned_.push_back(sync);
    scratch_ = {static_cast<int*>(sync), partials_};
    cudaEvent_t e0, e1;
    check(cudaEventCreate(&e0), "cudaEventCreate");
    start_ = e0;
    check(cudaEventCreate(&e1), "cudaEventCreate");
    stop_ = e1;
  } catch (...) {
    release();
    throw;
  }
}

DeviceMatm::~DeviceMatm() { release(); }

void DeviceMatm::release() {
  for (void* p : owned_) cudaFree(p);
  owned_.clear();
  if (start_) cudaEventDestroy(static_cast<cudaEvent_t>(start_));
  if (stop_) cudaEventDestroy(static_cast<cudaEvent_t>(stop_));
  start_ = stop_ = nullptr;
}

void DeviceMatm::upload(std::span<const double> f, std::span<const double> x) {
  std::vector<double> x0(x.begin(), x.end());
  f_norm2_ = 0.0;
  for (std::size_t m = 0; m < n_; ++m) {
    if (!active_[m])
      x0[m] = 0.0;  // inactive nodes hold u = 0
    else
      f_norm2_ += f[m] * f[m];
  }
  current_ = 0;
  check(cudaMemcpy(f_, f.data(), n_ * sizeof(double), cudaMemcpyHostToDevice), "cudaMemcpy (f)");
  check(cudaMemcpy(x_[0], x0.data(), n_ * sizeof(double), cudaMemcpyHostToDevice),
        "cudaMemcpy (x)");
  check(cudaMemset(w_, 0, n_ * sizeof(double)), "cudaMemset (w)");
  check(cudaEventRecord(static_cast<cudaEvent_t>(start_)), "cudaEventRecord");
}

void DeviceMatm::download(std::span<double> x) const {
  check(cudaEventRecord(static_cast<cudaEvent_t>(stop_)), "cudaEventRecord");
  check(cudaEventSynchronize(static_cast<cudaEvent_t>(stop_)), "cudaEventSynchronize");
  float ms = 0.0f;
  check(
      cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start_), static_cast<cudaEvent_t>(stop_)),
      "cudaEventElapsedTime");
  device_seconds_ = 1e-3 * ms;
  check(cudaMemcpy(x.data(), x_[current_], n_ * sizeof(double), cudaMemcpyDeviceToHost),
        "cudaMemcpy (x)");
}

std::vector<double> DeviceMatm::fetch_sums(int count) const {
  std::vector<double> h(count);
  check(cudaMemcpy(h.data(), sums_, count * sizeof(double), cudaMemcpyDeviceToHost),
        "cudaMemcpy (sums)");
  return h;
}

double DeviceMatm::update_and_residual(double tau) {
  cuda::update_and_residual(view_, x_[current_], w_, tau, x_[1 - current_], f_, r_, partials_,
                            sums_ + rr);
  current_ = 1 - current_;
  return fetch_sums(1)[0];
}

double DeviceMatm::omega_from_residual() {
  apply_split(view_, r_, r_, z0_, nullptr, partials_, sums_ + d_w_w);
  const auto s = fetch_sums(slots);
  return s[r2_w] > 0.0 ? std::sqrt(s[d_w_w] / s[r2_w]) : 0.0;
}

Dots DeviceMatm::correction(double omega) {
  lower_sweep(view_, r_, y_, omega, shape_, scratch_, nullptr);
  upper_sweep(view_, y_, w_, omega, shape_, scratch_);
  apply_split(view_, w_, r_, z0_, z1_, partials_, sums_ + d_w_w);
  lower_sweep(view_, z0_, y_, omega, shape_, scratch_, sums_ + binv_a0);
  if (!self_adjoint_) lower_sweep(view_, z1_, y_, omega, shape_, scratch_, sums_ + binv_a1);
  const auto s = fetch_sums(slots);
  Dots d;
  d.d_w_w = s[d_w_w];
  d.r2_w = s[r2_w];
  d.a0_w_w = s[a0_w_w];
  d.b_w_w = s[b_w_w];
  d.binv_a0 = s[binv_a0];
  d.binv_a1 = self_adjoint_ ? 0.0 : s[binv_a1];
  return d;
}

}  // namespace solvent::matm::cuda
