// stencil3d-field-bench: the field update of Darbyshire's 3D angiogenesis code on the GPU
// against the device's copy bandwidth, measured in the same run. The hybrid model that
// explicit-stencil3d runs advances no continuous n (its tips are the cells), so this is
// the paper's kernel, written with the family's maths: the forward-Euler n-equation (eq. 4,
// the seven coefficients of <solvent_family_angiogenesis_3d/coefficients.hpp>) from n, f
// and c over the whole grid, and, in the kernels marked "n, f, c", the continuous f and c
// equations beside it (f' = f + k (beta n - gamma n f), c' = c - k eta n c).
//
// Bytes are counted two ways: what the kernel moves (n alone: read n, f, c and write n,
// 32 B a node; n, f, c: read and write all three, 48 B) and the paper's way, 48 B a node
// for every kernel (the bytes of its kernel, which reads and writes all three fields).
// The scheme's constants reach the kernels either as a kernel parameter or, as in the
// paper, from __constant__ memory. Every kernel's output is compared with the CPU's,
// bit for bit (both round without fused multiply-adds), before it is timed; a difference
// is reported as WRONG and the program exits 1.
//
//   stencil3d-field-bench [--grid 300] [--reps 20] [--out stencil3d_field.csv]
#include <solvent_stencil3d/simulation_state.hpp>

#include <solvent/device/cuda.hpp>
#include <solvent/device/device_array.hpp>
#include <solvent/plugin_factory.hpp>
#include <solvent_family_angiogenesis_3d/coefficients.hpp>
#include <solvent_family_angiogenesis_3d/grid.hpp>
#include <solvent_family_angiogenesis_3d/parameters.hpp>
#include <solvent_test/device_timing.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace a3d = solvent::angiogenesis_3d;
using a3d::Grid;
using a3d::Neighbours;
using a3d::Stencil;

constexpr const char* kContext = "stencil3d-field-bench";
void check(cudaError_t e, const char* what) { solvent::cuda::check(e, kContext, what); }

// Everything a node's update needs besides the fields: the n-equation's scheme and the
// k-scaled rates of the f and c equations.
struct FieldConstants {
  a3d::SchemeConstants scheme;
  double k_beta, k_gamma, k_eta;
};

__constant__ FieldConstants constant_fields;

// A field's values on the stencil. On the device through the read-only data cache: no
// kernel writes the arrays it reads.
SOLVENT_HD inline Stencil stencil_of(const double* v, const Neighbours& nb) {
#ifdef __CUDA_ARCH__
  return {{__ldg(v + nb.m[0]), __ldg(v + nb.m[1]), __ldg(v + nb.m[2]), __ldg(v + nb.m[3]),
           __ldg(v + nb.m[4]), __ldg(v + nb.m[5]), __ldg(v + nb.m[6])}};
#else
  return {{v[nb.m[0]], v[nb.m[1]], v[nb.m[2]], v[nb.m[3]], v[nb.m[4]], v[nb.m[5]], v[nb.m[6]]}};
#endif
}

// n' = P0 n + P1 n(x+h) + P2 n(x-h) + ...: P1 weighs the value at x+h (stencil slot 2).
SOLVENT_HD inline double advanced_density(const a3d::SchemeConstants& s, const Stencil& n,
                                          const Stencil& f, const Stencil& c) {
  const a3d::Coefficients q = a3d::coefficients(s, c, f);
  return q.P[0] * n.v[0] + q.P[1] * n.v[2] + q.P[2] * n.v[1] + q.P[3] * n.v[4] + q.P[4] * n.v[3] +
         q.P[5] * n.v[6] + q.P[6] * n.v[5];
}

// One node of the update: n' always, f' and c' when all three fields advance.
template <bool AllFields>
SOLVENT_HD inline void update_node(const FieldConstants& k, const Stencil& n, const Stencil& f,
                                   const Stencil& c, std::int32_t m, double* n_out, double* f_out,
                                   double* c_out) {
  n_out[m] = advanced_density(k.scheme, n, f, c);
  if constexpr (AllFields) {
    const double n0 = n.v[0], f0 = f.v[0], c0 = c.v[0];
    f_out[m] = f0 + (k.k_beta * n0 - k.k_gamma * n0 * f0);
    c_out[m] = c0 - k.k_eta * n0 * c0;
  }
}

struct Fields {
  const double* n;
  const double* f;
  const double* c;
  double* n_out;
  double* f_out;
  double* c_out;
};

template <bool FromConstant>
__device__ inline FieldConstants constants(const FieldConstants& parameter) {
  if constexpr (FromConstant) {
    return constant_fields;
  } else {
    return parameter;
  }
}

// One thread per node on a 3D grid of blocks.
template <bool AllFields, bool FromConstant>
__global__ void direct_kernel(Grid g, FieldConstants parameter, Fields x) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int j = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int k = static_cast<int>(blockIdx.z * blockDim.z + threadIdx.z);
  if (i >= g.nx || j >= g.ny || k >= g.nz) return;
  const Neighbours nb = a3d::neighbours(g, i, j, k);
  update_node<AllFields>(constants<FromConstant>(parameter), stencil_of(x.n, nb),
                         stencil_of(x.f, nb), stencil_of(x.c, nb), nb.m[0], x.n_out, x.f_out,
                         x.c_out);
}

// The z neighbours of one field while a thread marches up its column: z-, centre, z+.
struct Column {
  double below, centre, above;
};

// One thread per (i, j) column and chunk of z: the z neighbours stay in registers as the
// thread moves up, so a node costs 15 loads instead of 21.
template <bool AllFields, bool FromConstant>
__global__ void marching_kernel(Grid g, FieldConstants parameter, int z_chunk, Fields x) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int j = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int k0 = static_cast<int>(blockIdx.z) * z_chunk;
  if (i >= g.nx || j >= g.ny || k0 >= g.nz) return;
  const int k1 = min(k0 + z_chunk, g.nz);
  const FieldConstants consts = constants<FromConstant>(parameter);
  const std::int32_t plane = g.nx * g.ny;
  const std::int32_t column = g.index(i, j, 0);
  const double* fields[3] = {x.n, x.f, x.c};
  Column z[3];
  for (int q = 0; q < 3; ++q) {
    z[q].below = __ldg(fields[q] + column + a3d::mirror_below(k0) * plane);
    z[q].centre = __ldg(fields[q] + column + k0 * plane);
  }
  for (int k = k0; k < k1; ++k) {
    const Neighbours nb = a3d::neighbours(g, i, j, k);
    Stencil s[3];
    for (int q = 0; q < 3; ++q) {
      z[q].above = __ldg(fields[q] + column + a3d::mirror_above(k, g.nz) * plane);
      s[q] = {{z[q].centre, __ldg(fields[q] + nb.m[1]), __ldg(fields[q] + nb.m[2]),
               __ldg(fields[q] + nb.m[3]), __ldg(fields[q] + nb.m[4]), z[q].below, z[q].above}};
      z[q].below = z[q].centre;
      z[q].centre = z[q].above;
    }
    update_node<AllFields>(consts, s[0], s[1], s[2], nb.m[0], x.n_out, x.f_out, x.c_out);
  }
}

template <bool AllFields>
void update_on_host(const Grid& g, const FieldConstants& k, const std::vector<double>& n,
                    const std::vector<double>& f, const std::vector<double>& c,
                    std::vector<double>& n_out, std::vector<double>& f_out,
                    std::vector<double>& c_out) {
  for (std::int32_t kk = 0; kk < g.nz; ++kk)
    for (std::int32_t j = 0; j < g.ny; ++j)
      for (std::int32_t i = 0; i < g.nx; ++i) {
        const Neighbours nb = a3d::neighbours(g, i, j, kk);
        update_node<AllFields>(k, stencil_of(n.data(), nb), stencil_of(f.data(), nb),
                               stencil_of(c.data(), nb), nb.m[0], n_out.data(), f_out.data(),
                               c_out.data());
      }
}

// A device field with the copies and the poisoning the comparison needs.
class DeviceField {
 public:
  explicit DeviceField(std::size_t count) : data_(count, "stencil3d field bench") {}
  double* get() const { return const_cast<double*>(data_.data()); }
  void upload(const std::vector<double>& v) { data_.upload(v.data(), data_.size()); }
  std::vector<double> download() const {
    std::vector<double> v(data_.size());
    data_.download(v.data(), v.size());
    return v;
  }
  // All bits set (a NaN): a kernel that misses a node cannot pass the comparison.
  void poison() { check(cudaMemset(get(), 0xff, data_.size() * sizeof(double)), "cudaMemset"); }

 private:
  solvent::cuda::DeviceArray<double> data_;
};

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

struct Variant {
  std::string kernel;  // "direct 32x4x4", "z-marching 32x8, z 16", ...
  bool all_fields;
  bool from_constant;
  std::function<void(const Fields&)> launch;
};

int blocks(int count, int per) { return (count + per - 1) / per; }

template <bool AllFields, bool FromConstant>
Variant direct(const Grid& g, const FieldConstants& k, dim3 block) {
  const dim3 grid(blocks(g.nx, int(block.x)), blocks(g.ny, int(block.y)),
                  blocks(g.nz, int(block.z)));
  return {"direct " + std::to_string(block.x) + "x" + std::to_string(block.y) + "x" +
              std::to_string(block.z),
          AllFields, FromConstant, [=](const Fields& x) {
            direct_kernel<AllFields, FromConstant><<<grid, block>>>(g, k, x);
            solvent::cuda::check_launch(kContext, "direct_kernel");
          }};
}

template <bool AllFields, bool FromConstant>
Variant marching(const Grid& g, const FieldConstants& k, dim3 block, int z_chunk) {
  const dim3 grid(blocks(g.nx, int(block.x)), blocks(g.ny, int(block.y)), blocks(g.nz, z_chunk));
  return {"z-marching " + std::to_string(block.x) + "x" + std::to_string(block.y) + ", z " +
              std::to_string(z_chunk),
          AllFields, FromConstant, [=](const Fields& x) {
            marching_kernel<AllFields, FromConstant><<<grid, block>>>(g, k, z_chunk, x);
            solvent::cuda::check_launch(kContext, "marching_kernel");
          }};
}

int run(int argc, char** argv) {
  std::int64_t side = 300;
  int reps = 20;
  std::string out = "stencil3d_field.csv";
  for (int a = 1; a + 1 < argc; a += 2) {
    const std::string key = argv[a];
    if (key == "--grid")
      side = std::stoll(argv[a + 1]);
    else if (key == "--reps")
      reps = std::stoi(argv[a + 1]);
    else if (key == "--out")
      out = argv[a + 1];
    else {
      std::fprintf(stderr, "unknown option %s\n", key.c_str());
      return 2;
    }
  }
  // The model's defaults on a side^3 grid, as stencil3d-bench uses them; n starts as c
  // (any field of the same range serves a bandwidth measurement).
  const double dt = 0.001;
  const auto model =
      solvent::plugins::make_model("angiogenesis-3d", {{"nx", side}, {"ny", side}, {"nz", side}});
  const auto& p = *solvent::family<a3d::ParametersFamily>(*model);
  const auto init = solvent::stencil3d::initial_state(p, dt, 42, 1 << 20);
  const Grid g = a3d::grid_of(p);
  const FieldConstants k{a3d::scheme_constants(p, dt), dt * p.beta, dt * p.gamma, dt * p.eta};
  const std::vector<double>& f = init.f;
  const std::vector<double>& c = init.c;
  const std::vector<double>& n = init.c;
  const std::size_t nodes = f.size();

  const double copy_gbs = solvent::test::copy_bandwidth_gbs(std::size_t{1} << 30);
  std::printf(
      "device: %s\ngrid %lld^3 (%zu nodes); device copy bandwidth %.0f GB/s (read + "
      "write, 1 GiB, median of 10)\n\n",
      solvent::test::device_description().c_str(), static_cast<long long>(side), nodes, copy_gbs);

  std::vector<double> n_ref(nodes), f_ref(nodes), c_ref(nodes);
  update_on_host<true>(g, k, n, f, c, n_ref, f_ref, c_ref);

  DeviceField dn(nodes), df(nodes), dc(nodes), dn_out(nodes), df_out(nodes), dc_out(nodes);
  dn.upload(n);
  df.upload(f);
  dc.upload(c);
  check(cudaMemcpyToSymbol(constant_fields, &k, sizeof k), "cudaMemcpyToSymbol");
  const Fields x{dn.get(), df.get(), dc.get(), dn_out.get(), df_out.get(), dc_out.get()};

  const std::vector<Variant> variants{
      direct<false, false>(g, k, dim3(32, 4, 4)),    direct<false, true>(g, k, dim3(32, 4, 4)),
      direct<false, false>(g, k, dim3(16, 4, 4)),    direct<false, true>(g, k, dim3(16, 4, 4)),
      marching<false, false>(g, k, dim3(32, 8), 16), marching<false, true>(g, k, dim3(32, 8), 16),
      marching<false, false>(g, k, dim3(64, 4), 32), direct<true, false>(g, k, dim3(32, 4, 4)),
      direct<true, true>(g, k, dim3(32, 4, 4)),      marching<true, false>(g, k, dim3(32, 8), 16),
      marching<true, true>(g, k, dim3(32, 8), 16),
  };

  std::ofstream csv(out);
  csv << "grid,kernel,fields,constants,ms,bytes_per_node,gb_per_s,of_copy,paper_gb_per_s,"
         "paper_of_copy\n";
  std::printf(
      "| kernel | fields written | constants | ms | B/node moved | GB/s | of copy BW | GB/s, "
      "paper's count (48 B) | of copy BW |\n|---|---|---|---:|---:|---:|---:|---:|---:|\n");
  int wrong = 0;
  for (const Variant& v : variants) {
    const char* fields = v.all_fields ? "n, f, c" : "n";
    const char* where = v.from_constant ? "__constant__" : "parameter";
    for (DeviceField* o : {&dn_out, &df_out, &dc_out}) o->poison();
    v.launch(x);
    check(cudaDeviceSynchronize(), v.kernel.c_str());
    const bool same = same_bits(dn_out.download(), n_ref) &&
                      (!v.all_fields || (same_bits(df_out.download(), f_ref) &&
                                         same_bits(dc_out.download(), c_ref)));
    if (!same) {
      std::printf("| %s | %s | %s | WRONG: differs from the CPU; not timed |||||| \n",
                  v.kernel.c_str(), fields, where);
      ++wrong;
      continue;
    }
    const double ms = solvent::test::median_device_ms([&] { v.launch(x); }, reps);
    const double moved = v.all_fields ? 48.0 : 32.0;
    const double gbs = moved * double(nodes) / (ms * 1e6);
    const double paper_gbs = 48.0 * double(nodes) / (ms * 1e6);
    std::printf("| %s | %s | %s | %.4f | %.0f | %.0f | %.0f%% | %.0f | %.0f%% |\n",
                v.kernel.c_str(), fields, where, ms, moved, gbs, 100.0 * gbs / copy_gbs, paper_gbs,
                100.0 * paper_gbs / copy_gbs);
    csv << side << ",\"" << v.kernel << "\",\"" << fields << "\"," << where << ',' << ms << ','
        << moved << ',' << gbs << ',' << gbs / copy_gbs << ',' << paper_gbs << ','
        << paper_gbs / copy_gbs << '\n';
    std::fflush(stdout);
  }
  return wrong == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "stencil3d-field-bench: %s\n", e.what());
    return 1;
  }
}
