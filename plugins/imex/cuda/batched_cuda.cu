// The CUDA engine of imex-batched-cuda: every member's arrays interleaved member-fastest
// (entry e of member b at [e B + b]), so that a warp's threads, neighbouring members, read
// neighbouring words. Per step two kernels: the right-hand sides, one thread per member and
// grid point (explicit term, u + c Lin u + dt N, scattered into the band ordering), then the
// B banded solves and projections, a few threads per member, one for each block of rows that
// is a system of its own (band_lu_substitute_rows' sequential sweeps; the factors were made by
// band_lu_factor on the host). Built without fused multiply-adds, so each member rounds as on the
// CPU.
#include "cuda/batched_cuda.hpp"

#include <solvent/device/cuda.hpp>
#include <solvent/device/device_array.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace solvent::imex {

namespace {

constexpr const char* context = "imex-batched-cuda";

void check(cudaError_t e, const char* what) { cuda::check(e, context, what); }

// A device array of count elements (at least one, so every pointer handed to a kernel is
// valid), zero-filled, naming this plugin should the allocation fail.
template <class T>
cuda::DeviceArray<T> device_alloc(std::size_t count) {
  return cuda::DeviceArray<T>(std::max<std::size_t>(count, 1), context);
}

// `count` members member-major (entry e of the b-th at [b length + e]) to members first ..
// first + count - 1 of `members` member-fastest ([e members + first + b]), or back.
template <class T>
__global__ void interleave(const T* in, T* out, std::size_t count, std::size_t length,
                           std::size_t members, std::size_t first, bool to_interleaved) {
  const std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= count * length) return;
  const std::size_t b = t % count, e = t / count;
  if (to_interleaved)
    out[e * members + first + b] = in[b * length + e];
  else
    out[b * length + e] = in[e * members + first + b];
}

// Pointers to the interleaved arrays of all members.
struct DeviceBatch {
  const angiogenesis_1d::Coefficients* k;
  const double *taf, *taf_flux, *lin, *lu, *inverse_diagonal;
  const int *ipiv, *u_reach;
  double *u, *x, *projected;
  long long* failed_step;
  int* failure;
  std::size_t members;
};

__device__ MemberArrays member(const DeviceBatch& d, std::size_t b) {
  return {d.k + b,  d.taf + b,  d.taf_flux + b, d.lin + b,
          d.lu + b, d.ipiv + b, d.u_reach + b,  d.inverse_diagonal + b,
          d.u + b,  d.x + b,    d.members};
}

__global__ void rhs_kernel(BatchShape shape, DeviceBatch d, long long step) {
  const std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= d.members * shape.m) return;
  const std::size_t b = t % d.members, i = t / d.members;
  // A member that failed in an earlier step is left as it was; the threads of one that fails
  // now all write the same step and kind.
  if (d.failed_step[b] != 0) return;
  if (const int f = rhs_at_point(shape, member(d, b), i); f != step_ok) {
    d.failed_step[b] = step;
    d.failure[b] = f;
  }
}

// A member's thread reads this many band rows before it sweeps them (band_lu_substitute).
constexpr std::size_t rows_read_ahead = 8;

// A member's band rows cut into blocks that threads of the member substitute side by side
// (band_lu_substitute_rows): the chain of dependent rows a step waits for is as long as the
// largest part. At most max_parts threads a member.
constexpr unsigned max_parts = 4;
constexpr unsigned members_per_block = 32;  // a warp: its loads of neighbouring members coalesce
struct RowParts {
  unsigned count;
  std::size_t cut[max_parts + 1];  // part p: rows cut[p] .. cut[p + 1] - 1
};

// As many parts as the largest block between two splits fits into n (the 1D model: C and P
// interleaved are half the rows, I and F the other half, so two), each cut at the split
// nearest an equal share.
RowParts row_parts(std::size_t n, const std::vector<std::size_t>& splits) {
  std::size_t largest = 0, from = 0;
  for (std::size_t p : splits) {
    largest = std::max(largest, p - from);
    from = p;
  }
  largest = std::max(largest, n - from);
  const auto wanted = unsigned(std::clamp<std::size_t>(n / largest, 1, max_parts));
  RowParts parts{1, {0}};
  for (unsigned k = 1; k < wanted; ++k) {
    const std::size_t target = k * n / wanted, previous = parts.cut[parts.count - 1];
    std::size_t best = 0;
    for (std::size_t p : splits)
      if (p > previous && (best == 0 || (p > target ? p - target : target - p) <
                                            (best > target ? best - target : target - best)))
        best = p;
    if (best == 0) break;
    parts.cut[parts.count++] = best;
  }
  parts.cut[parts.count] = n;
  return parts;
}

// A block of members_per_block members (threadIdx.x) times their parts (threadIdx.y): each
// thread substitutes its part of its member's rows, then writes back a share of the state.
__global__ void solve_kernel(BatchShape shape, DeviceBatch d, RowParts parts, long long step,
                             bool projection, double limit) {
  const std::size_t b = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned part = threadIdx.y;
  // Every thread reaches both barriers; one past the last member, or of a member that failed
  // in an earlier step, does nothing else.
  const bool active = b < d.members && d.failed_step[b] == 0;
  MemberArrays a{};
  if (active) {
    a = member(d, b);
    solve_rows<rows_read_ahead>(shape, a, parts.cut[part], parts.cut[part + 1]);
  }
  __syncthreads();  // the write-back reads rows of every part
  __shared__ WrittenBack seen[max_parts][members_per_block];
  if (active)
    seen[part][threadIdx.x] = write_back(shape, a, part * shape.n / parts.count,
                                         (part + 1) * shape.n / parts.count, projection);
  __syncthreads();
  if (!active || part != 0) return;
  // What the projection removed, summed in the model's order: where one part removed
  // anything, its own sum (the others added nothing before or after it); where several did,
  // their sums added up would round in another order, and one thread writes the whole state
  // back again (the same values) for the sum in the model's order.
  WrittenBack whole{true, 0.0};
  unsigned removing = 0;
  for (unsigned p = 0; p < parts.count; ++p) {
    const WrittenBack& part_seen = seen[p][threadIdx.x];
    whole.all_finite = whole.all_finite && part_seen.all_finite;
    if (part_seen.removed != 0.0) {
      ++removing;
      whole.removed = part_seen.removed;
    }
  }
  if (whole.all_finite && removing > 1) whole = write_back(shape, a, 0, shape.n, projection);
  const MemberOutcome result = outcome(shape, a, whole, limit);
  d.projected[b] = result.projected;
  if (result.failure != step_ok) {
    d.failed_step[b] = step;
    d.failure[b] = result.failure;
  }
}

unsigned blocks(std::size_t threads, unsigned per_block) {
  return unsigned((threads + per_block - 1) / per_block);
}

class CudaEngine final : public BatchEngine {
 public:
  CudaEngine(const BatchHost& shape, std::size_t members, bool projection, double limit)
      : device_(cuda::select_device(0, context)),
        b_(members),
        n_(shape.n),
        projection_(projection),
        limit_(limit),
        parts_(row_parts(shape.n, shape.splits)) {
    check(cudaGetDevice(&ordinal_), "cudaGetDevice");
    // The staging holds a chunk of the longest member array, or every member's state (read).
    std::size_t largest = 0;
    for (std::size_t length : {shape.ldab * shape.n, shape.nnz, shape.n, shape.m})
      largest = std::max(largest, length);
    staging_ = device_alloc<char>(std::max(std::min(members_per_load, b_) * largest, b_ * n_) *
                                  sizeof(double));
    row_ptr_ = upload_shared(shape.row_ptr);
    col_idx_ = upload_shared(shape.col_idx);
    to_band_ = upload_shared(shape.to_band);
    shape_ = shape.shape();
    shape_.row_ptr = row_ptr_.data();
    shape_.col_idx = col_idx_.data();
    shape_.to_band = to_band_.data();
    k_ = device_alloc<angiogenesis_1d::Coefficients>(b_);
    taf_ = device_alloc<double>(b_ * shape.m);
    taf_flux_ = device_alloc<double>(b_ * shape.m);
    lin_ = device_alloc<double>(b_ * shape.nnz);
    lu_ = device_alloc<double>(b_ * shape.ldab * n_);
    inverse_diagonal_ = device_alloc<double>(b_ * n_);
    ipiv_ = device_alloc<int>(b_ * n_);
    u_reach_ = device_alloc<int>(b_ * n_);
    u_ = device_alloc<double>(b_ * n_);
    x_ = device_alloc<double>(b_ * n_);
    projected_ = device_alloc<double>(b_);
    failed_step_ = device_alloc<long long>(b_);
    failure_ = device_alloc<int>(b_);
    batch_ = {k_.data(),         taf_.data(),
              taf_flux_.data(),  lin_.data(),
              lu_.data(),        inverse_diagonal_.data(),
              ipiv_.data(),      u_reach_.data(),
              u_.data(),         x_.data(),
              projected_.data(), failed_step_.data(),
              failure_.data(),   b_};
  }

  BatchHost load(BatchHost host, std::size_t first) override {
    // Called on a thread of the integrator's: the device must be made current on it.
    check(cudaSetDevice(ordinal_), "cudaSetDevice");
    const std::size_t count = host.members;
    check(cudaMemcpy(k_.data() + first, host.k.data(), count * sizeof(host.k[0]),
                     cudaMemcpyHostToDevice),
          "upload coefficients");
    upload(host.taf, host.m, taf_, first, count);
    upload(host.taf_flux, host.m, taf_flux_, first, count);
    upload(host.lin, host.nnz, lin_, first, count);
    upload(host.lu, host.ldab * host.n, lu_, first, count);
    upload(host.inverse_diagonal, host.n, inverse_diagonal_, first, count);
    upload(host.ipiv, host.n, ipiv_, first, count);
    upload(host.u_reach, host.n, u_reach_, first, count);
    upload(host.u, host.n, u_, first, count);
    check(cudaDeviceSynchronize(), "upload");
    return host;
  }

  void advance(std::int64_t first, std::int64_t last) override {
    for (std::int64_t step = first; step <= last; ++step) {
      rhs_kernel<<<blocks(b_ * shape_.m, 256), 256>>>(shape_, batch_, step);
      cuda::check_launch(context, "rhs_kernel");
      // Spread over every SM (10^4 members: 313 blocks).
      solve_kernel<<<blocks(b_, members_per_block), dim3(members_per_block, parts_.count)>>>(
          shape_, batch_, parts_, step, projection_, limit_);
      cuda::check_launch(context, "solve_kernel");
    }
    // The steps end when the device has done them: otherwise their time is counted in
    // whatever waits next (the read of the states), and the phase timer lies.
    check(cudaDeviceSynchronize(), "batched steps");
  }

  void read(MemberArray<double>& u, std::vector<MemberStatus>& status) override {
    auto* staging = reinterpret_cast<double*>(staging_.data());
    interleave<<<blocks(b_ * n_, 256), 256>>>(u_.data(), staging, b_, n_, b_, 0, false);
    cuda::check_launch(context, "interleave");
    u.resize(b_ * n_);
    stager_.to_host(u.data(), staging, b_ * n_ * sizeof(double));
    std::vector<long long> failed_step(b_);
    std::vector<int> failure(b_);
    std::vector<double> projected(b_);
    check(cudaMemcpy(failed_step.data(), failed_step_.data(), b_ * sizeof(long long),
                     cudaMemcpyDeviceToHost),
          "download statuses");
    check(cudaMemcpy(failure.data(), failure_.data(), b_ * sizeof(int), cudaMemcpyDeviceToHost),
          "download statuses");
    check(cudaMemcpy(projected.data(), projected_.data(), b_ * sizeof(double),
                     cudaMemcpyDeviceToHost),
          "download statuses");
    status.resize(b_);
    for (std::size_t b = 0; b < b_; ++b) status[b] = {failed_step[b], failure[b], projected[b]};
  }

  std::string device_name() const override { return "cuda: " + device_; }

 private:
  template <class T>
  cuda::DeviceArray<T> upload_shared(const std::vector<T>& v) {
    auto d = device_alloc<T>(v.size());
    check(cudaMemcpy(d.data(), v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
    return d;
  }

  // Members first .. first + count - 1 of a member-major host array of `length` per member
  // into their places in the interleaved device array d. Every array goes through the same
  // staging buffers (page-locking each host array instead cost more than the copy at 10^5
  // members).
  template <class T>
  void upload(const MemberArray<T>& v, std::size_t length, cuda::DeviceArray<T>& d,
              std::size_t first, std::size_t count) {
    auto* staging = reinterpret_cast<T*>(staging_.data());
    stager_.to_device(staging, v.data(), count * length * sizeof(T));
    interleave<<<blocks(count * length, 256), 256>>>(staging, d.data(), count, length, b_, first,
                                                     true);
    cuda::check_launch(context, "interleave");
  }

  std::string device_;
  int ordinal_ = 0;
  std::size_t b_, n_;
  bool projection_;
  double limit_;
  RowParts parts_;
  BatchShape shape_{};
  cuda::DeviceArray<char> staging_;
  cuda::StagedCopies stager_{context};
  cuda::DeviceArray<std::int32_t> row_ptr_, col_idx_, to_band_;  // the same for every member
  cuda::DeviceArray<angiogenesis_1d::Coefficients> k_;
  cuda::DeviceArray<double> taf_, taf_flux_, lin_, lu_, inverse_diagonal_, u_, x_, projected_;
  cuda::DeviceArray<int> ipiv_, u_reach_;
  cuda::DeviceArray<long long> failed_step_;
  cuda::DeviceArray<int> failure_;
  DeviceBatch batch_{};
};

}  // namespace

std::unique_ptr<BatchEngine> make_cuda_engine(const BatchHost& shape, std::size_t members,
                                              bool projection, double projection_limit) {
  return std::make_unique<CudaEngine>(shape, members, projection, projection_limit);
}

}  // namespace solvent::imex
