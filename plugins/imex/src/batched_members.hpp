#pragma once
// The batched IMEX trapezoid integrators (imex-batched on the CPU, imex-batched-cuda): B
// members of the 1D model that share M, dt and steps advanced together. The members reach the
// integrator through the family's extensions (solvent_family_angiogenesis_1d/ensemble.hpp):
// the model run() is given lists the others in its Ensemble. Each member's Lin, band
// ordering, initial state and observables come from its own ImexProblem, as in a single run;
// S = I - dt/2 Lin is converted to band storage by the core and factored per member once
// as the `banded` solver factors it (band_lu_factor, gbtrf's unblocked algorithm); every step then evaluates all members'
// explicit terms and right-hand sides and solves all B banded systems in one pass of the
// engine (a loop over members on the CPU, two kernels on a GPU).
#include "src/batched_step.hpp"

#include <solvent/solvent.hpp>
#include <solvent_family_angiogenesis_1d/ensemble.hpp>

#include <sys/mman.h>

#include <cstdlib>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace solvent::imex {

// An allocator for the per-member arrays (hundreds of MB at 10^4 members) that leaves new
// elements uninitialised: a std::vector's zero fill wrote, and page-faulted, all of them on one
// thread before the members' parallel loop wrote them again; now each member's slice is first
// touched by the thread that makes the member. Arrays of 2 MiB and more are asked for in huge
// pages, one page fault per 2 MiB instead of per 4 KiB (the faults were most of the assembly on
// a virtual machine).
template <class T>
struct Uninitialised : std::allocator<T> {
  static constexpr std::size_t huge_page = std::size_t(2) << 20;
  template <class U>
  struct rebind {
    using other = Uninitialised<U>;
  };
  Uninitialised() = default;
  template <class U>
  Uninitialised(const Uninitialised<U>&) noexcept {}
  T* allocate(std::size_t count) {
    const std::size_t bytes = count * sizeof(T);
    if (bytes < huge_page) return std::allocator<T>::allocate(count);
    const std::size_t rounded = (bytes + huge_page - 1) / huge_page * huge_page;
    void* p = std::aligned_alloc(huge_page, rounded);
    if (p == nullptr) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    madvise(p, rounded, MADV_HUGEPAGE);  // advice only: without huge pages it is 4 KiB pages
#endif
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t count) noexcept {
    if (count * sizeof(T) < huge_page)
      std::allocator<T>::deallocate(p, count);
    else
      std::free(p);
  }
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
template <class T>
using MemberArray = std::vector<T, Uninitialised<T>>;

// The batch's shared structure, and the arrays of `members` members on the host (a chunk of
// the batch, or all of it), member after member (the chunk's member b's entry e of an array of
// L per member at [b L + e]).
struct BatchHost {
  std::size_t members = 0, m = 0, n = 0, nnz = 0, ldab = 0, kl = 0, ku = 0;
  double h = 0, dt = 0, c = 0;
  std::vector<std::int32_t> row_ptr, col_idx, to_band, from_band;
  // Where S = I - c Lin goes in band storage: Lin's entry k at lin_slot[k] (as 1 - c Lin_k on
  // the diagonal, - c Lin_k off it), and a 1 at each unit_slot (S's diagonal entries Lin lacks).
  std::vector<std::size_t> lin_slot, unit_slot;
  std::vector<std::size_t> splits;  // band_splits of S: where its rows part into systems of their own
  MemberArray<angiogenesis_1d::Coefficients> k;
  MemberArray<double> taf, taf_flux;  // m per member (taf_flux's last entry unused)
  MemberArray<double> lin;            // nnz per member
  MemberArray<double> lu;             // ldab n per member
  MemberArray<int> ipiv, u_reach;     // n per member
  MemberArray<double> inverse_diagonal;
  MemberArray<double> u;  // n per member: the initial states

  BatchShape shape() const {
    return {m, n, ldab, kl, ku, h, dt, c, row_ptr.data(), col_idx.data(), to_band.data()};
  }
};

// A member's state in the engine: the step it failed at (0: none), how, and the share of
// sum |u| its last projection removed.
struct MemberStatus {
  std::int64_t failed_step = 0;
  int failure = step_ok;
  double projected = 0.0;
};

// Members the integrator assembles and hands to its engine at a time (BatchEngine::load): the
// CUDA engine copies a chunk to the device while the host assembles the next, so the host
// holds two chunks' arrays, not the whole batch's (13 GB at 10^5 members of M = 400); the CPU
// engine keeps each chunk's arrays and steps its members in them. 1024 members of the 1D model
// at M = 400 are 130 MB of host arrays, copied in about 20 ms on an H200 host while the next
// 1024 are assembled (about 16 ms).
inline constexpr std::size_t members_per_load = 1024;

class BatchEngine {
 public:
  virtual ~BatchEngine() = default;
  // Takes members first .. first + host.members - 1 of the batch from host's arrays: chunks of
  // members_per_load in order, the last one a part one, all of them before the first step.
  // Gives back arrays for the next chunk (none where it kept host's).
  // May run on another thread than the engine's other calls, though never beside them.
  virtual BatchHost load(BatchHost host, std::size_t first) = 0;
  // Advances every member that has not failed through steps first..last (its failure recorded
  // with the step it happened at). The CPU engine takes each member through all of them
  // before the next member, so a member's arrays stay in cache as in its single run.
  virtual void advance(std::int64_t first, std::int64_t last) = 0;
  // Every member's state (member after member) and status.
  virtual void read(MemberArray<double>& u, std::vector<MemberStatus>& status) = 0;
  virtual std::string device_name() const = 0;
};

// An engine for `members` members of the batch whose shared structure `shape` holds (its
// members' arrays come through load()).
using EngineFactory = std::unique_ptr<BatchEngine> (*)(const BatchHost& shape,
                                                     std::size_t members, bool projection,
                                                     double projection_limit);

std::unique_ptr<BatchEngine> make_cpu_engine(const BatchHost& shape, std::size_t members,
                                             bool projection, double projection_limit);

Schema batched_schema();  // common_schema() and report_every

class BatchedImexIntegrator : public Integrator {
 public:
  BatchedImexIntegrator(const PluginContext& ctx, const char* name, EngineFactory engine);
  bool accepts(Model& model, std::string& why) const override;
  bool needs_linear_solver() const override { return false; }
  RunResult run(Model& model, LinearSolver* solver, RunContext& ctx) override;
  Facts facts() const override { return facts_; }

 private:
  const char* name_;
  EngineFactory engine_;
  double dt_;
  std::int64_t steps_, report_every_;
  bool projection_;
  double projection_limit_;
  Facts facts_;
};

}  // namespace solvent::imex
