// The CUDA engine: the whole state lives on the device; a step is two launches on one
// stream (tip phase in one block, vessel uptake) and no host transfer. Over several ranks
// the tip phase is cut in two around the exchange of decisions, which pass through the host.
// In the continuous mode a step is one launch that updates n, f and c at every node, in
// blocks of the chosen shape (FieldBlocks).
// Built with --fmad=false so that every tip's and node's arithmetic rounds as the CPU
// engine's does.
#include <solvent_stencil3d/stencil_engine.hpp>
#include "src/rank_blocks.hpp"
#include "src/step_plan.hpp"

#include <solvent/device/cuda.hpp>
#include <solvent/device/device_array.hpp>
#include <solvent/device/peer_halo.hpp>
#include <solvent/errors.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace solvent::stencil3d {
namespace {

constexpr int max_tip_block = 1024;

constexpr const char* context = "explicit-stencil3d (cuda)";

void check(cudaError_t e, const char* what) { cuda::check(e, context, what); }
void check_launch(const char* kernel) { cuda::check_launch(context, kernel); }

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

// Everything after decide(), one thread per tip with barriers between the phases: the
// branches beyond the free tip slots are withdrawn, then every tip is resolved and
// committed and the counters are updated. target, met and site are in shared memory (one
// rank) or global memory (the decisions of every rank); every thread of the block calls it.
__device__ void settle(const TipView& v, std::int64_t step, const NetworkCounters& start,
                       std::int32_t* target, const std::int32_t* met, std::int32_t* site,
                       std::int32_t bad, std::int64_t* warp_sums, std::int32_t& furthest) {
  const std::int32_t t = threadIdx.x;
  const std::int32_t tips = start.tips;
  // Branch proposals beyond the free tip slots are withdrawn, later tips first.
  const std::int64_t proposal = (t < tips && site[t] >= 0) ? 1 : 0;
  std::int64_t proposals = 0;
  const std::int64_t rank = block_exclusive_scan<std::int64_t>(warp_sums, proposal, proposals);
  if (proposal && !branch_fits(v, tips, static_cast<std::int32_t>(rank))) site[t] = -1;
  __syncthreads();

  const std::int64_t outcome = t < tips ? resolve(v, t, target, met, site) : 0;
  std::int64_t totals = 0;
  const std::int64_t before = block_exclusive_scan<std::int64_t>(warp_sums, outcome, totals);
  if (t < tips) atomicMax(&furthest, commit(v, start, step, t, target, site, outcome, before));
  __syncthreads();
  if (t == 0) {
    NetworkCounters after = start;
    add_totals(after, totals, furthest, bad, v.segment_capacity, v.vessel_capacity);
    *v.counters = after;
  }
}

// The whole tip phase of one rank in one launch.
__global__ void tip_kernel(TipView v, std::int64_t step) {
  __shared__ std::int32_t target[max_tip_block], met[max_tip_block], site[max_tip_block];
  __shared__ std::int64_t warp_sums[max_tip_block / 32];
  __shared__ NetworkCounters start;
  __shared__ std::int32_t furthest, bad;
  const std::int32_t t = threadIdx.x;
  if (t == 0) {
    start = *v.counters;
    furthest = 0;
    bad = 0;
  }
  __syncthreads();
  if (t < start.tips) {
    const int mine = decide(v, step, t, target, met, site);
    if (mine) atomicAdd(&bad, mine);  // an integer sum: the same in any order
  }
  __syncthreads();
  settle(v, step, start, target, met, site, bad, warp_sums, furthest);
}

// Over several ranks the tip phase is cut where the ranks share their decisions: this
// rank decides the tips on its block (target, met, site of the others -1; the count of
// bad probabilities into *bad, zero before) ...
__global__ void decide_kernel(TipView v, std::int64_t step, std::int32_t* target, std::int32_t* met,
                              std::int32_t* site, std::int32_t* bad) {
  const std::int32_t t = threadIdx.x;
  if (t >= v.counters->tips) return;
  if (decides_here(v, t)) {
    const int mine = decide(v, step, t, target, met, site);
    if (mine) atomicAdd(bad, mine);
  } else {
    target[t] = met[t] = site[t] = -1;
  }
}

// ... and, with every rank's decisions in place, settles every tip.
__global__ void settle_kernel(TipView v, std::int64_t step, std::int32_t* target,
                              const std::int32_t* met, std::int32_t* site,
                              const std::int32_t* bad) {
  __shared__ std::int64_t warp_sums[max_tip_block / 32];
  __shared__ NetworkCounters start;
  __shared__ std::int32_t furthest;
  if (threadIdx.x == 0) {
    start = *v.counters;
    furthest = 0;
  }
  __syncthreads();
  settle(v, step, start, target, met, site, *bad, warp_sums, furthest);
}

__global__ void vessel_kernel(VesselUptake u, Grid g, Box window,
                              const std::int32_t* __restrict__ vessel,
                              const NetworkCounters* counters, std::int32_t capacity, double* f,
                              double* c) {
  const std::int32_t nodes = counters->vessel_nodes < capacity ? counters->vessel_nodes : capacity;
  for (std::int32_t q = blockIdx.x * blockDim.x + threadIdx.x; q < nodes;
       q += gridDim.x * blockDim.x)
    take_up_in(u, g, window, vessel[q], f, c);
}

// The continuous mode: a thread per column (i, j) of `region` (the grid on one rank; over
// several a part of the rank's block) and run of `planes` consecutive planes along z, which it
// marches through, covered by blocks of the chosen shape: one plane a thread (a thread per
// node), or with z_march a chunk of planes or the whole column. The fields are laid out as
// `window`. Bounded for 1024 threads, the largest shapes (16x16x4, 64x4x4): compiled for
// fewer, its registers made those launches fail with "too many resources requested" on an
// H100.
__global__ void __launch_bounds__(1024)
    continuous_kernel(ContinuousStep u, Grid g, Box window, Box region, std::int32_t planes,
                      const double* __restrict__ n, const double* __restrict__ f,
                      const double* __restrict__ c, double* __restrict__ n_new,
                      double* __restrict__ f_new, double* __restrict__ c_new) {
  const std::int32_t x = static_cast<std::int32_t>(blockIdx.x * blockDim.x + threadIdx.x);
  const std::int32_t y = static_cast<std::int32_t>(blockIdx.y * blockDim.y + threadIdx.y);
  const std::int32_t nz = region.extent[2];
  const std::int32_t first =
      static_cast<std::int32_t>(blockIdx.z * blockDim.z + threadIdx.z) * planes;
  const std::int32_t end = first + planes < nz ? first + planes : nz;
  if (x >= region.extent[0] || y >= region.extent[1]) return;
  for (std::int32_t z = first; z < end; ++z)
    continuous_node(u, g, window, region.offset[0] + x, region.offset[1] + y, region.offset[2] + z,
                    n, f, c, n_new, f_new, c_new);
}

// The nodes of `part` from an array laid out as box `from` into one laid out as box `to`
// (the halo's packing and unpacking), one thread a node.
__global__ void copy_box_kernel(Box part, Box from, const double* __restrict__ src, Box to,
                                double* __restrict__ dst) {
  const std::int64_t nodes = part.size();
  for (std::int64_t q = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; q < nodes;
       q += std::int64_t(gridDim.x) * blockDim.x) {
    const auto i = static_cast<std::int32_t>(q % part.extent[0]);
    const auto j = static_cast<std::int32_t>((q / part.extent[0]) % part.extent[1]);
    const auto k = static_cast<std::int32_t>(q / (std::int64_t(part.extent[0]) * part.extent[1]));
    const std::int32_t gi = part.offset[0] + i, gj = part.offset[1] + j, gk = part.offset[2] + k;
    dst[to.index(gi, gj, gk)] = src[from.index(gi, gj, gk)];
  }
}

class CudaEngine final : public StencilEngine {
 public:
  CudaEngine(const Communicator& comm, FieldBlocks blocks, const GridBlocks* grid_blocks,
             bool every_rank_cuda)
      : comm_(comm), blocks_(blocks), grid_blocks_(grid_blocks), every_rank_cuda_(every_rank_cuda) {
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    name_ = prop.name;
    sms_ = prop.multiProcessorCount;
  }

  ~CudaEngine() override {
    if (edge_stream_) cudaStreamDestroy(edge_stream_);
    if (interior_stream_) cudaStreamDestroy(interior_stream_);
  }
  CudaEngine(const CudaEngine&) = delete;
  CudaEngine& operator=(const CudaEngine&) = delete;

  void load(const SimulationState& s) override {
    // Parameters, step, layout and network; not the fields, which the device holds (a host
    // copy of a 1024^3 window's f, c, n and owner was 30 GB and most of the upload).
    host_ = without_fields(s);
    const auto size = s.f.size();
    f_ = cuda::DeviceArray<double>(size, context);
    c_ = cuda::DeviceArray<double>(size, context);
    owner_ = cuda::DeviceArray<std::int32_t>(size, context);
    node_ = cuda::DeviceArray<std::int32_t>(s.node.size(), context);
    active_ = cuda::DeviceArray<std::int32_t>(s.active.size(), context);
    birth_ = cuda::DeviceArray<std::int64_t>(s.birth.size(), context);
    segments_ = cuda::DeviceArray<std::int32_t>(s.segments.size(), context);
    vessel_ = cuda::DeviceArray<std::int32_t>(s.vessel.size(), context);
    counters_ = cuda::DeviceArray<NetworkCounters>(1, context);
    f_.upload(s.f.data(), s.f.size());
    c_.upload(s.c.data(), s.c.size());
    owner_.upload(s.owner.data(), s.owner.size());
    node_.upload(s.node.data(), s.node.size());
    active_.upload(s.active.data(), s.active.size());
    birth_.upload(s.birth.data(), s.birth.size());
    segments_.upload(s.segments.data(), s.segments.size());
    vessel_.upload(s.vessel.data(), s.vessel.size());
    counters_.upload(&s.counters, 1);
    n_ = cuda::DeviceArray<double>(s.n.size(), context);
    n_.upload(s.n.data(), s.n.size());
    const std::size_t next = s.n.empty() ? 0 : size;
    n_new_ = cuda::DeviceArray<double>(next, context);
    f_new_ = cuda::DeviceArray<double>(next, context);
    c_new_ = cuda::DeviceArray<double>(next, context);
    tip_threads_ = (static_cast<int>(s.p.max_tips) + 31) / 32 * 32;
    // target, met and site per tip slot, then the count of bad probabilities.
    decisions_ = cuda::DeviceArray<std::int32_t>(3 * s.node.size() + 1, context);
    shared_.assign(3 * s.node.size() + 1, -1);
    halo_.reset();
    for (auto& peer : peer_) peer.reset();
    if (!s.n.empty() && comm_.size() > 1) split_block();
  }

  void step() override {
    if (host_.p.mode == solvent::angiogenesis_3d::Mode::Continuous)
      launch_fields();
    else
      launch_tips();
    ++host_.step;
  }

  NetworkCounters counters() override {
    std::vector<NetworkCounters> out(1);
    counters_.download(out.data(), out.size());
    return out[0];
  }

  void store(SimulationState& s) override {
    // The caller's field arrays are kept (those of the state it loaded, or sized here for a
    // fresh one): the device's fields are written into them, and everything else is host_'s.
    SimulationState stored = host_;
    stored.f.swap(s.f);
    stored.c.swap(s.c);
    stored.n.swap(s.n);
    stored.owner.swap(s.owner);
    s = std::move(stored);
    s.f.resize(f_.size());
    s.c.resize(c_.size());
    s.n.resize(n_.size());
    s.owner.resize(owner_.size());
    f_.download(s.f.data(), s.f.size());
    c_.download(s.c.data(), s.c.size());
    n_.download(s.n.data(), s.n.size());
    owner_.download(s.owner.data(), s.owner.size());
    node_.download(s.node.data(), s.node.size());
    active_.download(s.active.data(), s.active.size());
    birth_.download(s.birth.data(), s.birth.size());
    segments_.download(s.segments.data(), s.segments.size());
    vessel_.download(s.vessel.data(), s.vessel.size());
    s.counters = counters();
  }

  double timed_steps(std::int64_t count) override {
    cudaEvent_t begin, end;
    check(cudaEventCreate(&begin), "cudaEventCreate");
    check(cudaEventCreate(&end), "cudaEventCreate");
    check(cudaEventRecord(begin), "cudaEventRecord");
    for (std::int64_t q = 0; q < count; ++q) step();
    check(cudaEventRecord(end), "cudaEventRecord");
    check(cudaEventSynchronize(end), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, begin, end), "elapsed");
    cudaEventDestroy(begin);
    cudaEventDestroy(end);
    return 1e-3 * ms;
  }

  std::string device_name() const override { return name_; }

 private:
  static unsigned cover(std::int32_t nodes, unsigned threads) {
    return (static_cast<unsigned>(nodes) + threads - 1) / threads;
  }

  // The per-node update of `region` on `stream`.
  void launch_region(const Box& region, cudaStream_t stream) {
    if (region.size() == 0) return;
    const bool z_march = blocks_.z_march;
    const dim3 block(static_cast<unsigned>(blocks_.x), static_cast<unsigned>(blocks_.y),
                     z_march ? 1u : static_cast<unsigned>(blocks_.z));
    // Planes a thread: marching, blocks_.z (0: the whole column); otherwise one.
    const std::int32_t planes =
        z_march ? (blocks_.z > 0 ? blocks_.z : region.extent[2]) : std::int32_t{1};
    const dim3 grid(cover(region.extent[0], block.x), cover(region.extent[1], block.y),
                    cover(region.extent[2], block.z * static_cast<unsigned>(planes)));
    continuous_kernel<<<grid, block, 0, stream>>>(
        continuous_step(host_.p, host_.dt), solvent::angiogenesis_3d::grid_of(host_.p),
        host_.window, region, planes, n_.data(), f_.data(), c_.data(), n_new_.data(), f_new_.data(),
        c_new_.data());
    check_launch("continuous_kernel");
  }

  // Over several ranks: the block cut into the layers next to the faces that have a
  // neighbour (whose values the neighbours wait for) and the interior; the halo's buffers
  // and two streams.
  void split_block() {
    halo_.emplace(*grid_blocks_, comm_, host_.window, 3);
    const auto peers = grid_blocks_->neighbours(comm_.rank());
    Box rest = host_.block;
    edges_.clear();
    for (int a = 0; a < 3; ++a)
      for (int side = 0; side < 2; ++side) {
        if (peers[static_cast<std::size_t>(2 * a + side)] < 0 || rest.extent[a] == 0) continue;
        Box layer = rest;
        layer.extent[a] = 1;
        if (side == 0)
          ++rest.offset[a];
        else
          layer.offset[a] = rest.offset[a] + rest.extent[a] - 1;
        --rest.extent[a];
        edges_.push_back(layer);
      }
    interior_ = rest;
    std::size_t most = 0;
    for (int a = 0; a < 3; ++a) most = std::max(most, halo_->values(a));
    send_ = cuda::DeviceArray<double>(most, context);
    const GridBlock block{*grid_blocks_, comm_.rank(), &comm_};
    // Only where every rank is a CUDA engine: the question is collective, and a CPU rank
    // beside (it exchanges through the host) would never join it.
    if (every_rank_cuda_ && cuda::PeerHalo::available(block)) {
      // One PeerHalo an axis, as the axes go one after another (a slab spans the window
      // along the axes before it, so the corners arrive): the faces of the other axes are
      // empty in it. WindowHalo lays an axis's slabs out low side first, as PeerHalo's
      // faces.
      for (int a = 0; a < 3; ++a) {
        std::array<std::size_t, 7> offset{};
        const bool low = peers[static_cast<std::size_t>(2 * a)] >= 0;
        const std::size_t low_values =
            low ? 3 * static_cast<std::size_t>(halo_->slabs(a).front().send.size()) : 0;
        for (int f = 2 * a + 1; f < 7; ++f)
          offset[static_cast<std::size_t>(f)] = f == 2 * a + 1 ? low_values : halo_->values(a);
        peer_[static_cast<std::size_t>(a)] =
            std::make_unique<cuda::PeerHalo>(block, offset, sizeof(double));
      }
    } else {
      receive_ = cuda::DeviceArray<double>(most, context);
      host_send_ = cuda::PinnedArray<double>(most, context);
      host_receive_ = cuda::PinnedArray<double>(most, context);
    }
    if (!edge_stream_) {
      check(cudaStreamCreateWithFlags(&edge_stream_, cudaStreamNonBlocking), "cudaStreamCreate");
      check(cudaStreamCreateWithFlags(&interior_stream_, cudaStreamNonBlocking),
            "cudaStreamCreate");
    }
    // The uploads and zero-fills ran on the default stream, which these two do not wait for.
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  }

  // One step over several ranks: the layers next to the neighbours first, then the interior
  // on its own stream while the new layers go out and the neighbours' come in, axis after
  // axis (WindowHalo): GPU to GPU where every rank is on one host (PeerHalo), else through
  // host memory and the communicator.
  void step_over_ranks() {
    for (const Box& layer : edges_) launch_region(layer, edge_stream_);
    launch_region(interior_, interior_stream_);
    for (int a = 0; a < 3; ++a) {
      const std::size_t values = halo_->values(a);
      copy_slabs(a, send_.data());
      if (auto& peer = peer_[static_cast<std::size_t>(a)]) {
        // PeerHalo copies on the default stream, which does not wait for the edge stream.
        check(cudaStreamSynchronize(edge_stream_), "cudaStreamSynchronize");
        peer->send(send_.data());
        copy_slabs(a, nullptr, static_cast<const double*>(peer->receive()));
        continue;
      }
      send_.download(host_send_.data(), values, edge_stream_);
      check(cudaStreamSynchronize(edge_stream_), "cudaStreamSynchronize");
      halo_->transfer(a, {host_send_.data(), values}, {host_receive_.data(), values});
      receive_.upload(host_receive_.data(), values, edge_stream_);
      copy_slabs(a, nullptr, receive_.data());
    }
    check(cudaStreamSynchronize(edge_stream_), "cudaStreamSynchronize");
    check(cudaStreamSynchronize(interior_stream_), "cudaStreamSynchronize");
  }

  // The slabs of `axis` on the edge stream: the new fields' nodes packed into `packed`, or
  // (packed null) `received` unpacked into them, field after field as WindowHalo lays them
  // out.
  void copy_slabs(int axis, double* packed, const double* received = nullptr) {
    double* fields[] = {n_new_.data(), f_new_.data(), c_new_.data()};
    const unsigned threads = 256;
    for (const WindowHalo::Slab& slab : halo_->slabs(axis)) {
      const Box& part = packed ? slab.send : slab.receive;
      const unsigned grid = std::min(cover(static_cast<std::int32_t>(part.size()), threads), 4096u);
      std::size_t at = slab.at;
      for (double* field : fields) {
        if (packed)
          copy_box_kernel<<<grid, threads, 0, edge_stream_>>>(part, host_.window, field, part,
                                                              packed + at);
        else
          copy_box_kernel<<<grid, threads, 0, edge_stream_>>>(part, part, received + at,
                                                              host_.window, field);
        at += static_cast<std::size_t>(part.size());
      }
    }
    check_launch("copy_box_kernel");
  }

  void launch_fields() {
    if (halo_) {
      step_over_ranks();
    } else {
      launch_region(host_.window, nullptr);
    }
    std::swap(n_, n_new_);
    std::swap(f_, f_new_);
    std::swap(c_, c_new_);
  }

  void launch_tips() {
    const TipView v =
        tip_view(host_, f_.data(), c_.data(), owner_.data(), node_.data(), birth_.data(),
                 active_.data(), segments_.data(), vessel_.data(), counters_.data());
    if (comm_.size() > 1) {
      launch_shared_tips(v);
    } else {
      tip_kernel<<<1, tip_threads_>>>(v, host_.step);
      check_launch("tip_kernel");
    }
    vessel_kernel<<<2 * sms_, 256>>>(vessel_uptake(host_.p, host_.dt), v.g, v.window,
                                     vessel_.data(), counters_.data(), v.vessel_capacity, f_.data(),
                                     c_.data());
    check_launch("vessel_kernel");
  }

  // Over several ranks: decide here, share the decisions through the host (a few bytes a
  // tip), settle every tip.
  void launch_shared_tips(const TipView& v) {
    const std::size_t slots = host_.node.size();
    std::int32_t* target = decisions_.data();
    std::int32_t* bad = target + 3 * slots;
    check(cudaMemset(bad, 0, sizeof *bad), "cudaMemset");
    decide_kernel<<<1, tip_threads_>>>(v, host_.step, target, target + slots, target + 2 * slots,
                                       bad);
    check_launch("decide_kernel");
    decisions_.download(shared_.data(), shared_.size());
    std::int32_t* h = shared_.data();
    h[3 * slots] =
        share_decisions(comm_, counters().tips, h, h + slots, h + 2 * slots, h[3 * slots]);
    decisions_.upload(shared_.data(), shared_.size());
    settle_kernel<<<1, tip_threads_>>>(v, host_.step, target, target + slots, target + 2 * slots,
                                       bad);
    check_launch("settle_kernel");
  }

  const Communicator& comm_;
  FieldBlocks blocks_;
  const GridBlocks* grid_blocks_;
  bool every_rank_cuda_;
  std::string name_;
  int sms_ = 1;
  int tip_threads_ = 32;
  SimulationState host_;  // parameters and step; its arrays are not kept current
  cuda::DeviceArray<double> f_, c_;
  cuda::DeviceArray<double> n_, n_new_, f_new_, c_new_;  // n and the next fields: continuous
  cuda::DeviceArray<std::int32_t> owner_, node_, active_, segments_, vessel_;
  cuda::DeviceArray<std::int64_t> birth_;
  cuda::DeviceArray<NetworkCounters> counters_;
  cuda::DeviceArray<std::int32_t> decisions_;
  std::vector<std::int32_t> shared_;  // the decisions on the host
  // The continuous mode over several ranks: the halo, the block's layers next to its
  // neighbours and its interior, the packed slabs on the device and their host copies.
  std::optional<WindowHalo> halo_;
  std::vector<Box> edges_;
  Box interior_{};
  cuda::DeviceArray<double> send_, receive_;
  cuda::PinnedArray<double> host_send_, host_receive_;
  std::array<std::unique_ptr<cuda::PeerHalo>, 3> peer_;  // an axis's, GPU to GPU on one host
  cudaStream_t edge_stream_ = nullptr, interior_stream_ = nullptr;
};

}  // namespace

std::unique_ptr<StencilEngine> make_cuda_engine(const Communicator& comm, FieldBlocks blocks,
                                                const GridBlocks* grid_blocks,
                                                bool every_rank_cuda) {
  // DeviceUnavailable before anything is allocated; over several ranks, one GPU per rank.
  if (comm.size() > 1)
    cuda::select_rank_device(comm, context);
  else
    cuda::current_device(context);
  return std::make_unique<CudaEngine>(comm, blocks, grid_blocks, every_rank_cuda);
}

}  // namespace solvent::stencil3d
