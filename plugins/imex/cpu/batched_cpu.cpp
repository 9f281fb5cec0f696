// The CPU engine of imex-batched: members one after another in memory (stride 1), so each is
// exactly the single run's arithmetic on its own arrays; members in parallel over OpenMP's
// threads where the build has OpenMP (each member's step is independent of the others'), each
// taken through every step up to the next report while its arrays are in cache.
#include "src/batched_members.hpp"

#include <algorithm>
#include <vector>

namespace solvent::imex {

namespace {

class CpuEngine final : public BatchEngine {
 public:
  CpuEngine(std::size_t members, bool projection, double limit)
      : members_(members), projection_(projection), limit_(limit), status_(members) {
    // Every chunk's place made now: the shape points into the first one's arrays.
    chunks_.reserve((members + members_per_load - 1) / members_per_load);
  }

  // A chunk's arrays are kept, not copied (so a chunk costs this engine nothing, and the CPU
  // batch goes through the integrator's chunked assembly as the GPU batch does); the states
  // are the engine's own.
  BatchHost load(BatchHost host, std::size_t first) override {
    const std::size_t n = host.n;
    if (chunks_.empty()) {
      u_.resize(members_ * n);
      x_.resize(members_ * n);
    }
    std::copy(host.u.begin(), host.u.end(), u_.begin() + std::ptrdiff_t(first * n));
    chunks_.push_back(std::move(host));
    if (chunks_.size() == 1) shape_ = chunks_.front().shape();
    return {};
  }

  void advance(std::int64_t first, std::int64_t last) override {
    const auto members = std::int64_t(members_);
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < members; ++b)
      for (std::int64_t step = first; step <= last; ++step) advance(std::size_t(b), step);
  }

  void read(MemberArray<double>& u, std::vector<MemberStatus>& status) override {
    u = u_;
    status = status_;
  }

  std::string device_name() const override { return "cpu"; }

 private:
  MemberArrays arrays(std::size_t b) {
    const BatchHost& h = chunks_[b / members_per_load];
    const std::size_t n = h.n, m = h.m, c = b % members_per_load;
    return {&h.k[c],
            h.taf.data() + c * m,
            h.taf_flux.data() + c * m,
            h.lin.data() + c * h.nnz,
            h.lu.data() + c * h.ldab * n,
            h.ipiv.data() + c * n,
            h.u_reach.data() + c * n,
            h.inverse_diagonal.data() + c * n,
            u_.data() + b * n,
            x_.data() + b * n,
            1};
  }

  void advance(std::size_t b, std::int64_t step) {
    MemberStatus& s = status_[b];
    if (s.failed_step != 0) return;
    const MemberArrays a = arrays(b);
    int failure = step_ok;
    for (std::size_t i = 0; i < shape_.m; ++i)
      if (const int f = rhs_at_point(shape_, a, i); f != step_ok) failure = f;
    if (failure == step_ok) {
      const MemberOutcome outcome = solve_and_project(shape_, a, projection_, limit_);
      failure = outcome.failure;
      s.projected = outcome.projected;
    }
    if (failure != step_ok) {
      s.failed_step = step;
      s.failure = failure;
    }
  }

  std::size_t members_;
  std::vector<BatchHost> chunks_;  // chunk k: members k members_per_load ..
  BatchShape shape_{};
  bool projection_;
  double limit_;
  MemberArray<double> u_;
  MemberArray<double> x_;  // every entry written by each step's right-hand side before it is read
  std::vector<MemberStatus> status_;
};

}  // namespace

std::unique_ptr<BatchEngine> make_cpu_engine(const BatchHost& /*shape*/, std::size_t members,
                                             bool projection, double projection_limit) {
  return std::make_unique<CpuEngine>(members, projection, projection_limit);
}

}  // namespace solvent::imex
