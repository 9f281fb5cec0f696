#include "cuda/device_support.cuh"

#include <solvent/device/cuda.hpp>
#include <solvent/errors.hpp>
#include <solvent_dense/elimination_envelope.hpp>
#include <solvent_dense/host_substitution.hpp>
#include "cuda/device_gepp.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

namespace solvent::dense {
namespace {

void check(cudaError_t status, const char* what) { cuda::check(status, kGeppCuda, what); }

}  // namespace

struct DeviceGepp::State {
  EngineOptions options;
  std::string name;
  cudaStream_t stream = nullptr;
  // Event marks of a solve: start, uploaded, factored, substituted, downloaded.
  cudaEvent_t marks[5] = {};
  cudaGraphExec_t graph = nullptr;

  std::size_t n = 0;
  std::size_t ld = 0;
  const double* matrix = nullptr;
  EliminationEnvelope envelope;
  FactorProfile profile;
  std::vector<std::int32_t> permutation;
  double updates = 0.0;

  cuda::DeviceArray<double> work{
      0, kGeppCuda};  // [A | b], row-major, ld = n + 1; the factors after elimination
  cuda::DeviceArray<double> pristine{0, kGeppCuda};  // resident copy of [A | .] to refactor from
  cuda::DeviceArray<double> rhs{0, kGeppCuda};
  cuda::DeviceArray<double> solution{0, kGeppCuda};
  cuda::DeviceArray<int> pivots{0, kGeppCuda};
  cuda::DeviceArray<int> device_permutation{0, kGeppCuda};
  cuda::DeviceArray<int> lower_begin{0, kGeppCuda};
  cuda::DeviceArray<int> upper_end{0, kGeppCuda};
  cuda::DeviceArray<PivotFailure> failure{0, kGeppCuda};
  cuda::DeviceArray<unsigned int> finished{
      0, kGeppCuda};  // blocks done with the current eliminate_and_pivot
  cuda::DeviceArray<double> staging{
      0, kGeppCuda};              // the matrix as sent (n x n), widened on the device
  std::vector<double> host_work;  // the augmented matrix as sent to / brought back from the device
  std::vector<double> host_y;
  PhaseTimes times;

  ~State() {
    if (graph != nullptr) cudaGraphExecDestroy(graph);
    for (cudaEvent_t e : marks) {
      if (e != nullptr) cudaEventDestroy(e);
    }
    if (stream != nullptr) cudaStreamDestroy(stream);
  }

  int ni() const { return static_cast<int>(n); }
  int ldi() const { return static_cast<int>(ld); }

  void after_kernel() {
    if (options.launch == Launch::Synchronized)
      check(cudaStreamSynchronize(stream), "elimination step");
  }

  // Everything one factorisation puts on the stream; `augmented` eliminates column n
  // (the right-hand side) along, `from_pristine` first restores the matrix on the device.
  void enqueue_factorization(bool augmented, bool from_pristine) {
    launch_reset_failure(failure.data(), finished.data(), stream);
    if (from_pristine) {
      check(cudaMemcpyAsync(work.data(), pristine.data(), n * ld * sizeof(double),
                            cudaMemcpyDeviceToDevice, stream),
            "cudaMemcpyAsync restoring the matrix");
      launch_copy_rhs_into_matrix(work.data(), ldi(), ni(), rhs.data(), stream);
    }
    auto step = [&](int k) {
      return EliminationStep{k, envelope.row_end[k], envelope.col_end[k], augmented};
    };
    if (options.kernels == Kernels::Fused) {
      // A step is trivial when the envelope leaves no row below the diagonal: its pivot is
      // the diagonal and it eliminates nothing (the angiogenesis matrix's identity block).
      auto trivial = [&](int k) { return envelope.row_end[k] == k; };
      launch_pivot_and_swap(work.data(), ldi(), ni(), step(0), pivots.data(), failure.data(),
                            stream);
      after_kernel();
      for (int k = 0; k + 1 < ni(); ++k) {
        if (trivial(k) && trivial(k + 1)) {
          int end = k + 1;
          while (end + 1 < ni() && trivial(end + 1)) ++end;
          launch_diagonal_pivots(work.data(), ldi(), k + 1, end, pivots.data(), failure.data(),
                                 stream);
          after_kernel();
          k = end - 1;  // step `end` still runs: its elimination is empty, it pivots end + 1
          continue;
        }
        launch_eliminate_and_pivot(work.data(), ldi(), ni(), step(k), step(k + 1), pivots.data(),
                                   failure.data(), finished.data(), stream);
        after_kernel();
      }
      return;
    }
    const bool whole_grid = !options.skip_zero_blocks;
    for (int k = 0; k < ni(); ++k) {
      launch_pivot_search_atomic(work.data(), ldi(), step(k), pivots.data(), failure.data(),
                                 stream);
      after_kernel();
      launch_row_swap(work.data(), ldi(), ni(), step(k), pivots.data(), stream);
      after_kernel();
      if (k + 1 < ni()) {
        launch_eliminate(work.data(), ldi(), ni(), step(k), whole_grid, stream);
        after_kernel();
      }
    }
  }

  void capture_refactorization() {
    graph = capture_graph(stream, [&] { enqueue_factorization(true, options.resident_matrix); });
  }

  void refactor() {
    if (graph != nullptr) {
      check(cudaGraphLaunch(graph, stream), "cudaGraphLaunch");
    } else {
      enqueue_factorization(true, options.resident_matrix);
    }
  }

  void mark(int i) { check(cudaEventRecord(marks[i], stream), "cudaEventRecord"); }

  void finish(bool check_pivots) {
    check(cudaStreamSynchronize(stream), "gepp-cuda kernels");
    if (!check_pivots) return;
    PivotFailure f{};
    check(cudaMemcpy(&f, failure.data(), sizeof f, cudaMemcpyDeviceToHost),
          "reading the pivot status");
    if (f.step >= 0) throw solvent::SolverError(singular_pivot_message(f, n));
  }

  void read_times() {
    times.upload_ms = elapsed_ms(marks[0], marks[1]);
    times.factor_ms = elapsed_ms(marks[1], marks[2]);
    times.substitute_ms = elapsed_ms(marks[2], marks[3]);
    times.download_ms = elapsed_ms(marks[3], marks[4]);
  }

  Substitution substitution(bool factored) const {
    return {work.data(),      ldi(),   ni(), device_permutation.data(), lower_begin.data(),
            upper_end.data(), factored};
  }

  // One contiguous transfer (a pitched copy from pageable memory goes row by row), then
  // the rows are spread to the leading dimension n + 1 on the device; the zero pattern
  // is read there too when zero blocks are skipped.
  void upload_matrix(double* target) {
    staging.resize(n * n);
    staging.upload(matrix, n * n, stream);
    check(cudaMemcpy2DAsync(target, ld * sizeof(double), staging.data(), n * sizeof(double),
                            n * sizeof(double), n, cudaMemcpyDeviceToDevice, stream),
          "cudaMemcpy2DAsync widening the matrix");
    if (!options.skip_zero_blocks) {
      set_envelope(EliminationEnvelope::dense(n));
      return;
    }
    std::vector<std::int32_t> first(n), last(n);
    launch_row_extents(staging.data(), ni(), lower_begin.data(), upper_end.data(), stream);
    lower_begin.download(first.data(), n, stream);
    upper_end.download(last.data(), n, stream);
    check(cudaStreamSynchronize(stream), "reading the zero pattern");
    set_envelope(EliminationEnvelope::of_row_extents(first, last));
  }

  void set_envelope(EliminationEnvelope e) {
    envelope = std::move(e);
    updates = envelope.update_count();
  }

  void upload_profile() {
    lower_begin.upload(profile.lower_begin.data(), n, stream);
    upper_end.upload(profile.upper_end.data(), n, stream);
  }

  // Factor once: the factors stay where later solves find them (device or host).
  void factor_for_reuse() {
    mark(0);
    upload_matrix(work.data());
    mark(1);
    enqueue_factorization(false, false);
    mark(2);
    mark(3);
    mark(4);
    finish(true);
    read_times();
    std::vector<std::int32_t> chosen(n);
    pivots.download(chosen.data(), n, stream);
    check(cudaStreamSynchronize(stream), "reading the pivots");
    permutation.resize(n);
    std::iota(permutation.begin(), permutation.end(), 0);
    for (std::size_t k = 0; k < n; ++k) std::swap(permutation[k], permutation[chosen[k]]);
    profile = FactorProfile::of(envelope, chosen);
    if (options.device_substitution) {
      device_permutation.resize(n);
      device_permutation.upload(permutation.data(), n, stream);
      upload_profile();
    } else {
      host_work.resize(n * ld);
      work.download(host_work.data(), n * ld, stream);
    }
    check(cudaStreamSynchronize(stream), "keeping the factors");
  }

  void prepare_refactorization() {
    if (options.resident_matrix) {
      pristine.resize(n * ld);
      check(cudaMemsetAsync(pristine.data(), 0, n * ld * sizeof(double), stream),
            "cudaMemsetAsync");
      upload_matrix(pristine.data());
    } else {
      set_envelope(options.skip_zero_blocks ? EliminationEnvelope::of_matrix(matrix, n)
                                            : EliminationEnvelope::dense(n));
    }
    // The host copy: the augmented matrix sent (paper) or the factors brought back.
    if (!options.resident_matrix || !options.device_substitution) host_work.resize(n * ld);
    profile.lower_begin.assign(n, 0);
    profile.upper_end = envelope.col_end;
    if (options.device_substitution) upload_profile();
    check(cudaStreamSynchronize(stream), "keeping the matrix");
    if (options.launch == Launch::Graph) capture_refactorization();
  }

  void solve_with_factors(const double* b, double* x) {
    if (!options.device_substitution) {
      const auto start = std::chrono::steady_clock::now();
      host_y.resize(n);
      forward_substitute(host_work.data(), ld, n, permutation.data(), profile.lower_begin.data(), b,
                         host_y.data());
      back_substitute(host_work.data(), ld, n, profile.upper_end.data(), host_y.data(), x);
      times = PhaseTimes{};
      times.substitute_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      return;
    }
    mark(0);
    rhs.upload(b, n, stream);
    mark(1);
    mark(2);
    launch_substitute(substitution(true), rhs.data(), solution.data(), stream);
    mark(3);
    solution.download(x, n, stream);
    mark(4);
    finish(false);
    read_times();
  }

  void solve_by_refactoring(const double* b, double* x) {
    mark(0);
    if (options.resident_matrix) {
      rhs.upload(b, n, stream);
    } else {
      // De Luca et al.'s pipeline: the augmented matrix is assembled on the host and sent whole.
      for (std::size_t i = 0; i < n; ++i) {
        std::copy(matrix + i * n, matrix + (i + 1) * n, host_work.begin() + i * ld);
        host_work[i * ld + n] = b[i];
      }
      work.upload(host_work.data(), n * ld, stream);
    }
    mark(1);
    refactor();
    mark(2);
    if (options.device_substitution) {
      launch_substitute(substitution(false), nullptr, solution.data(), stream);
      mark(3);
      solution.download(x, n, stream);
      mark(4);
      finish(true);
      read_times();
      return;
    }
    mark(3);
    work.download(host_work.data(), n * ld, stream);
    mark(4);
    finish(true);
    read_times();
    const auto start = std::chrono::steady_clock::now();
    host_y.resize(n);
    for (std::size_t i = 0; i < n; ++i) host_y[i] = host_work[i * ld + n];
    back_substitute(host_work.data(), ld, n, profile.upper_end.data(), host_y.data(), x);
    times.substitute_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
};

DeviceGepp::DeviceGepp(const EngineOptions& options) : state_(std::make_unique<State>()) {
  state_->options = options;
  state_->name = cuda::select_device(options.device, kGeppCuda);
  check(cudaStreamCreateWithFlags(&state_->stream, cudaStreamNonBlocking), "cudaStreamCreate");
  for (cudaEvent_t& e : state_->marks) check(cudaEventCreate(&e), "cudaEventCreate");
}

DeviceGepp::~DeviceGepp() = default;

void DeviceGepp::load(const double* a, std::size_t n) {
  State& s = *state_;
  if (n > static_cast<std::size_t>(INT_MAX / 2)) {
    throw solvent::SolverError("gepp-cuda: matrix of order " + std::to_string(n) + " is too large");
  }
  if (s.graph != nullptr) {
    check(cudaGraphExecDestroy(s.graph), "cudaGraphExecDestroy");
    s.graph = nullptr;
  }
  s.n = n;
  s.ld = n + 1;
  s.matrix = a;
  if (n == 0) return;
  if (s.options.device_substitution && !prepare_substitution(s.ni())) {
    throw solvent::SolverError("gepp-cuda: order " + std::to_string(n) +
                               " is too large for device substitution (its vectors live in shared "
                               "memory); set back_substitution = \"host\"");
  }
  s.work.resize(n * s.ld);
  s.rhs.resize(n);
  s.solution.resize(n);
  s.pivots.resize(n);
  s.failure.resize(1);
  s.finished.resize(1);
  s.lower_begin.resize(n);
  s.upper_end.resize(n);
  if (!s.options.reuse_factorization) s.prepare_refactorization();
}

void DeviceGepp::factor() {
  State& s = *state_;
  if (s.n != 0) s.factor_for_reuse();
}

void DeviceGepp::solve(const double* b, double* x) {
  State& s = *state_;
  if (s.n == 0) return;
  if (s.options.reuse_factorization) {
    s.solve_with_factors(b, x);
  } else {
    s.solve_by_refactoring(b, x);
  }
}

const PhaseTimes& DeviceGepp::last_times() const { return state_->times; }
const std::string& DeviceGepp::device_name() const { return state_->name; }
double DeviceGepp::updates_per_factorization() const { return state_->updates; }

}  // namespace solvent::dense
