// The CPU engine of imex-batched: members one after another in memory (stride 1), so each is
// exactly the single run's arithmetic on its own arrays; members in parallel over OpenMP's
// threads where the build has OpenMP (each member's step is independent of the others'), each
// taken through every step up to the next report while its arrays are in cache.
#include "src/batched_members.hpp"

namespace solvent::imex {

namespace {

class CpuEngine final : public BatchEngine {
 public:
  CpuEngine(std::size_t members, bool projection, double limit)
      : members_(members), projection_(projection), limit_(limit), status_(members) {}

  std::size_t chunk() const override { return members_; }

  // One chunk, the whole batch: its arrays are kept, not copied.
  BatchHost load(BatchHost host, std::size_t /*first*/) override {
    host_ = std::move(host);
    shape_ = host_.shape();
    u_ = host_.u;
    x_.resize(host_.u.size());
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
    const std::size_t n = host_.n, m = host_.m;
    return {&host_.k[b],
            host_.taf.data() + b * m,
            host_.taf_flux.data() + b * m,
            host_.lin.data() + b * host_.nnz,
            host_.lu.data() + b * host_.ldab * n,
            host_.ipiv.data() + b * n,
            host_.u_reach.data() + b * n,
            host_.inverse_diagonal.data() + b * n,
            u_.data() + b * n,
            x_.data() + b * n,
            1};
  }

  void advance(std::size_t b, std::int64_t step) {
    MemberStatus& s = status_[b];
    if (s.failed_step != 0) return;
    const MemberArrays a = arrays(b);
    int failure = step_ok;
    for (std::size_t i = 0; i < host_.m; ++i)
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
  BatchHost host_;
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
