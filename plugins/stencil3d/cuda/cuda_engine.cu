// The CUDA engine: the whole state lives on the device; a step is three launches on one
// stream (field update, tip phase in one block, vessel uptake) and no host transfer.
// Built with --fmad=false so that every node's arithmetic rounds as the CPU engine's does.
#include <solvent_stencil3d/stencil_engine.hpp>
#include "src/step_plan.hpp"

#include <solvent/cuda.hpp>
#include <solvent/errors.hpp>

#include <cuda_runtime.h>

#include <string>
#include <utility>
#include <vector>

namespace solvent::stencil3d {
namespace {

constexpr int max_tip_block = 1024;

constexpr const char* context = "explicit-stencil3d (cuda)";

void check(cudaError_t e, const char* what) { cuda::check(e, context, what); }
void check_launch(const char* kernel) { cuda::check_launch(context, kernel); }

template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t n) : n_(n) {
    if (n) check(cudaMalloc(&p_, n * sizeof(T)), "cudaMalloc");
  }
  DeviceArray(DeviceArray&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(o.n_) {}
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  ~DeviceArray() {
    if (p_) cudaFree(p_);
  }
  T* get() const { return p_; }
  void upload(const std::vector<T>& v) {
    check(cudaMemcpy(p_, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
  }
  void download(std::vector<T>& v) const {
    check(cudaMemcpy(v.data(), p_, v.size() * sizeof(T), cudaMemcpyDeviceToHost), "download");
  }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

__global__ void field_kernel(solvent::angiogenesis_3d::SchemeConstants sc, Grid g,
                             const double* __restrict__ n, const double* __restrict__ f,
                             const double* __restrict__ c, double* __restrict__ out) {
  const std::int32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  const std::int32_t j = blockIdx.y * blockDim.y + threadIdx.y;
  const std::int32_t k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i >= g.nx || j >= g.ny || k >= g.nz) return;
  out[g.index(i, j, k)] = density_at(sc, g, n, f, c, i, j, k);
}

constexpr int tile_x = 32, tile_y = 8, z_chunk = 32;

__global__ void __launch_bounds__(tile_x* tile_y, 4)
    tiled_field_kernel(solvent::angiogenesis_3d::SchemeConstants sc, Grid g,
                       const double* __restrict__ n, const double* __restrict__ f,
                       const double* __restrict__ c, double* __restrict__ out) {
  __shared__ double plane_n[tile_y + 2][tile_x + 2], plane_f[tile_y + 2][tile_x + 2],
      plane_c[tile_y + 2][tile_x + 2];
  using solvent::angiogenesis_3d::mirror_above;
  using solvent::angiogenesis_3d::mirror_below;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::int32_t i0 = blockIdx.x * tile_x, j0 = blockIdx.y * tile_y;
  const bool inside = i0 + tx < g.nx && j0 + ty < g.ny;
  // Threads past the grid's edge load a clamped node and write nothing.
  const std::int32_t i = min(i0 + tx, g.nx - 1), j = min(j0 + ty, g.ny - 1);
  // Shared-memory columns and rows of the mirrored neighbours (inside the tile or its halo).
  const int xm = mirror_below(i) - i0 + 1, xp = mirror_above(i, g.nx) - i0 + 1;
  const int ym = mirror_below(j) - j0 + 1, yp = mirror_above(j, g.ny) - j0 + 1;
  const std::int32_t k0 = blockIdx.z * z_chunk, k1 = min(k0 + z_chunk, g.nz);

  const std::int32_t col = g.index(i, j, 0), plane = g.nx * g.ny;
  double n_below = n[col + plane * mirror_below(k0)], n_here = n[col + plane * k0];
  double f_below = f[col + plane * mirror_below(k0)], f_here = f[col + plane * k0];
  double c_below = c[col + plane * mirror_below(k0)], c_here = c[col + plane * k0];
  for (std::int32_t k = k0; k < k1; ++k) {
    const std::int32_t above = col + plane * mirror_above(k, g.nz);
    const double n_above = n[above], f_above = f[above], c_above = c[above];
    plane_n[ty + 1][tx + 1] = n_here;
    plane_f[ty + 1][tx + 1] = f_here;
    plane_c[ty + 1][tx + 1] = c_here;
    auto halo = [&](int sy, int sx, std::int32_t m) {
      plane_n[sy][sx] = n[m];
      plane_f[sy][sx] = f[m];
      plane_c[sy][sx] = c[m];
    };
    if (tx == 0 && i0 > 0) halo(ty + 1, 0, g.index(i0 - 1, j, k));
    if (tx == tile_x - 1 && i0 + tile_x < g.nx)
      halo(ty + 1, tile_x + 1, g.index(i0 + tile_x, j, k));
    if (ty == 0 && j0 > 0) halo(0, tx + 1, g.index(i, j0 - 1, k));
    if (ty == tile_y - 1 && j0 + tile_y < g.ny)
      halo(tile_y + 1, tx + 1, g.index(i, j0 + tile_y, k));
    __syncthreads();
    if (inside) {
      // The stencil order of solvent::angiogenesis_3d::neighbours: centre, x-, x+, y-, y+, z-, z+.
      const solvent::angiogenesis_3d::Stencil sn{{n_here, plane_n[ty + 1][xm], plane_n[ty + 1][xp],
                                                  plane_n[ym][tx + 1], plane_n[yp][tx + 1], n_below,
                                                  n_above}};
      const solvent::angiogenesis_3d::Stencil sf{{f_here, plane_f[ty + 1][xm], plane_f[ty + 1][xp],
                                                  plane_f[ym][tx + 1], plane_f[yp][tx + 1], f_below,
                                                  f_above}};
      const solvent::angiogenesis_3d::Stencil scc{{c_here, plane_c[ty + 1][xm], plane_c[ty + 1][xp],
                                                   plane_c[ym][tx + 1], plane_c[yp][tx + 1],
                                                   c_below, c_above}};
      out[col + plane * k] = solvent::angiogenesis_3d::updated_density(
          solvent::angiogenesis_3d::coefficients(sc, scc, sf), sn);
    }
    __syncthreads();
    n_below = n_here;
    f_below = f_here;
    c_below = c_here;
    n_here = n_above;
    f_here = f_above;
    c_here = c_above;
  }
}

// Exclusive scan of one value per thread over the block (blockDim a multiple of 32):
// warp shuffles, then one warp scans the warp totals. Integer sums, so the offsets equal
// the CPU engine's running sums.
template <class T>
__device__ T block_exclusive_scan(T* warp_sums, T value, T& total) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  T x = value;
  for (int off = 1; off < 32; off <<= 1) {
    const T y = __shfl_up_sync(0xffffffffu, x, off);
    if (lane >= off) x += y;
  }
  if (lane == 31) warp_sums[warp] = x;
  __syncthreads();
  if (warp == 0) {
    T w = lane < warps ? warp_sums[lane] : T(0);
    for (int off = 1; off < 32; off <<= 1) {
      const T y = __shfl_up_sync(0xffffffffu, w, off);
      if (lane >= off) w += y;
    }
    if (lane < warps) warp_sums[lane] = w;
  }
  __syncthreads();
  total = warp_sums[warps - 1];
  const T exclusive = (warp > 0 ? warp_sums[warp - 1] : T(0)) + x - value;
  __syncthreads();  // warp_sums is reused by the next scan
  return exclusive;
}

__global__ void tip_kernel(TipView v, std::int64_t step) {
  __shared__ std::int32_t target[max_tip_block], site[max_tip_block];
  __shared__ std::int64_t warp_sums[max_tip_block / 32];
  __shared__ NetworkCounters start;
  __shared__ std::int32_t furthest;
  const std::int32_t t = threadIdx.x;
  if (t == 0) {
    start = *v.counters;
    furthest = 0;
  }
  __syncthreads();
  const std::int32_t tips = start.tips;
  if (t < tips) decide(v, step, t, target, site);
  __syncthreads();

  // Branch proposals beyond the free tip slots are withdrawn, later tips first.
  const std::int64_t proposal = (t < tips && site[t] >= 0) ? 1 : 0;
  std::int64_t proposals = 0;
  const std::int64_t rank = block_exclusive_scan<std::int64_t>(warp_sums, proposal, proposals);
  if (proposal && !branch_fits(v, tips, static_cast<std::int32_t>(rank))) site[t] = -1;
  __syncthreads();

  const std::int64_t outcome = t < tips ? resolve(v, t, target, site) : 0;
  std::int64_t totals = 0;
  const std::int64_t before = block_exclusive_scan<std::int64_t>(warp_sums, outcome, totals);
  if (t < tips) atomicMax(&furthest, commit(v, start, step, t, target, site, outcome, before));
  __syncthreads();
  if (t == 0) {
    NetworkCounters after = start;
    add_totals(after, totals, furthest, v.segment_capacity, v.vessel_capacity);
    *v.counters = after;
  }
}

__global__ void vessel_kernel(VesselUptake u, const std::int32_t* __restrict__ vessel,
                              const NetworkCounters* counters, std::int32_t capacity, double* f,
                              double* c) {
  const std::int32_t nodes = counters->vessel_nodes < capacity ? counters->vessel_nodes : capacity;
  for (std::int32_t q = blockIdx.x * blockDim.x + threadIdx.x; q < nodes;
       q += gridDim.x * blockDim.x) {
    const std::int32_t m = vessel[q];
    take_up(u, f[m], c[m]);
  }
}

class CudaEngine final : public StencilEngine {
 public:
  CudaEngine(BlockShape block, FieldKernel kernel) : block_(block), kernel_(kernel) {
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    name_ = prop.name;
    sms_ = prop.multiProcessorCount;
  }

  void load(const SimulationState& s) override {
    host_ = s;  // parameters, step and the layout of every array
    const auto size = s.n.size();
    n_ = DeviceArray<double>(size);
    n_next_ = DeviceArray<double>(size);
    f_ = DeviceArray<double>(size);
    c_ = DeviceArray<double>(size);
    owner_ = DeviceArray<std::int32_t>(size);
    node_ = DeviceArray<std::int32_t>(s.node.size());
    active_ = DeviceArray<std::int32_t>(s.active.size());
    birth_ = DeviceArray<std::int64_t>(s.birth.size());
    segments_ = DeviceArray<std::int32_t>(s.segments.size());
    vessel_ = DeviceArray<std::int32_t>(s.vessel.size());
    counters_ = DeviceArray<NetworkCounters>(1);
    n_.upload(s.n);
    f_.upload(s.f);
    c_.upload(s.c);
    owner_.upload(s.owner);
    node_.upload(s.node);
    active_.upload(s.active);
    birth_.upload(s.birth);
    segments_.upload(s.segments);
    vessel_.upload(s.vessel);
    counters_.upload(std::vector<NetworkCounters>{s.counters});
    tip_threads_ = (static_cast<int>(s.p.max_tips) + 31) / 32 * 32;
  }

  void step() override {
    launch_field();
    launch_tips();
    ++host_.step;
  }

  NetworkCounters counters() override {
    std::vector<NetworkCounters> out(1);
    counters_.download(out);
    return out[0];
  }

  void store(SimulationState& s) override {
    s = host_;
    n_.download(s.n);
    f_.download(s.f);
    c_.download(s.c);
    owner_.download(s.owner);
    node_.download(s.node);
    active_.download(s.active);
    birth_.download(s.birth);
    segments_.download(s.segments);
    vessel_.download(s.vessel);
    s.counters = counters();
  }

  PhaseSeconds timed_steps(std::int64_t count) override {
    std::vector<cudaEvent_t> events(2 * count + 1);
    for (auto& e : events) check(cudaEventCreate(&e), "cudaEventCreate");
    check(cudaEventRecord(events[0]), "cudaEventRecord");
    for (std::int64_t q = 0; q < count; ++q) {
      launch_field();
      check(cudaEventRecord(events[2 * q + 1]), "cudaEventRecord");
      launch_tips();
      check(cudaEventRecord(events[2 * q + 2]), "cudaEventRecord");
      ++host_.step;
    }
    check(cudaEventSynchronize(events.back()), "cudaEventSynchronize");
    PhaseSeconds t;
    for (std::int64_t q = 0; q < count; ++q) {
      float field_ms = 0, tips_ms = 0;
      check(cudaEventElapsedTime(&field_ms, events[2 * q], events[2 * q + 1]), "elapsed");
      check(cudaEventElapsedTime(&tips_ms, events[2 * q + 1], events[2 * q + 2]), "elapsed");
      t.field += 1e-3 * field_ms;
      t.tips += 1e-3 * tips_ms;
    }
    for (auto& e : events) cudaEventDestroy(e);
    return t;
  }

  std::string device_name() const override { return name_; }

 private:
  void launch_field() {
    const auto g = solvent::angiogenesis_3d::grid_of(host_.p);
    const auto sc = solvent::angiogenesis_3d::scheme_constants(host_.p, host_.dt);
    if (kernel_ == FieldKernel::Tiled) {
      const dim3 grid((g.nx + tile_x - 1) / tile_x, (g.ny + tile_y - 1) / tile_y,
                      (g.nz + z_chunk - 1) / z_chunk);
      tiled_field_kernel<<<grid, dim3(tile_x, tile_y)>>>(sc, g, n_.get(), f_.get(), c_.get(),
                                                         n_next_.get());
      check_launch("tiled_field_kernel");
    } else {
      const dim3 block(block_[0], block_[1], block_[2]);
      const dim3 grid((g.nx + block.x - 1) / block.x, (g.ny + block.y - 1) / block.y,
                      (g.nz + block.z - 1) / block.z);
      field_kernel<<<grid, block>>>(sc, g, n_.get(), f_.get(), c_.get(), n_next_.get());
      check_launch("field_kernel");
    }
    std::swap(n_, n_next_);
  }

  void launch_tips() {
    const TipView v = tip_view(host_, f_.get(), c_.get(), owner_.get(), node_.get(), birth_.get(),
                               active_.get(), segments_.get(), vessel_.get(), counters_.get());
    tip_kernel<<<1, tip_threads_>>>(v, host_.step);
    check_launch("tip_kernel");
    vessel_kernel<<<2 * sms_, 256>>>(vessel_uptake(host_.p, host_.dt), vessel_.get(),
                                     counters_.get(), v.vessel_capacity, f_.get(), c_.get());
    check_launch("vessel_kernel");
  }

  BlockShape block_;
  FieldKernel kernel_;
  std::string name_;
  int sms_ = 1;
  int tip_threads_ = 32;
  SimulationState host_;  // parameters and step; its arrays are not kept current
  DeviceArray<double> n_, n_next_, f_, c_;
  DeviceArray<std::int32_t> owner_, node_, active_, segments_, vessel_;
  DeviceArray<std::int64_t> birth_;
  DeviceArray<NetworkCounters> counters_;
};

}  // namespace

std::unique_ptr<StencilEngine> make_cuda_engine(BlockShape block, FieldKernel kernel) {
  cuda::current_device(context);  // DeviceUnavailable before anything is allocated
  return std::make_unique<CudaEngine>(block, kernel);
}

}  // namespace solvent::stencil3d
