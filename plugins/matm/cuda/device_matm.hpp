#pragma once
// MATM's vector work on one GPU: the split operator resident in device memory from
// setup() on, the work vectors beside it, and the MatmBackend the shared iteration drives.
// No CUDA header here, so the solver's .cpp (which logs) can hold one.
#include "cuda/kernels.hpp"

#include <solvent_matm/iteration.hpp>
#include <solvent_matm/split_stencil.hpp>

#include <span>
#include <string>
#include <vector>

namespace solvent::matm::cuda {

class DeviceMatm final : public MatmBackend {
 public:
  DeviceMatm(const SplitStencil& a, const SweepShape& shape);
  ~DeviceMatm() override;
  DeviceMatm(const DeviceMatm&) = delete;
  DeviceMatm& operator=(const DeviceMatm&) = delete;

  // Before iterate(): f and the initial guess to the device; after it, the iterate back.
  void upload(std::span<const double> f, std::span<const double> x);
  void download(std::span<double> x) const;
  // Device time (CUDA events) from upload's end to download's start, in seconds.
  double device_seconds() const { return device_seconds_; }
  std::size_t device_bytes() const { return bytes_; }
  std::size_t size() const { return n_; }

  bool self_adjoint() const override { return self_adjoint_; }
  double rhs_norm2() override { return f_norm2_; }
  double update_and_residual(double tau) override;
  double omega_from_residual() override;
  Dots correction(double omega) override;

 private:
  double* allocate(std::size_t n);
  void release();
  std::vector<double> fetch_sums(int count) const;

  SplitView view_;  // device pointers
  SweepShape shape_;
  bool self_adjoint_;
  std::size_t n_;
  std::vector<bool> active_;
  std::size_t bytes_ = 0;
  std::vector<void*> owned_;
  double *x_[2] = {nullptr, nullptr}, *f_ = nullptr, *r_ = nullptr, *w_ = nullptr, *y_ = nullptr,
         *z0_ = nullptr, *z1_ = nullptr, *partials_ = nullptr, *sums_ = nullptr;
  int current_ = 0;  // x_[current_] is the iterate
  SweepScratch scratch_;
  double f_norm2_ = 0.0;
  void* start_ = nullptr;  // cudaEvent_t
  void* stop_ = nullptr;
  mutable double device_seconds_ = 0.0;
};

}  // namespace solvent::matm::cuda
