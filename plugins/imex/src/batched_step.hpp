#pragma once
// One IMEX trapezoid step of the 1D model for one member of a batch, in the two pieces that
// both batched engines run: the CPU engine loops over members and points, the CUDA engine
// runs rhs_at_point on one thread per (member, point) and the solve on a thread per member and
// block of its rows (solve_rows, write_back, outcome; solve_and_project is them on one thread).
// Each piece does the arithmetic of the single-member path in its order — imex-trapezoid's
// right-hand side (u + c Lin u, then + dt N(u)), the banded solver's substitution in the model's
// band ordering (solvent/numerics/band_lu.hpp), the model's projection — so a batched member
// repeats its single run's bits on the CPU. (The CUDA engine is built without fused multiply-adds
// for the same reason.) Nothing here includes a CUDA header.
#include <solvent/device/host_device.hpp>
#include <solvent/numerics/band_lu.hpp>
#include <solvent_family_angiogenesis_1d/explicit_term.hpp>

#include <cstddef>
#include <cstdint>

namespace solvent::imex {

// What every member shares: the grid, the step and the band structure.
struct BatchShape {
  std::size_t m, n;             // grid points; unknowns n = 4 m
  std::size_t ldab, kl, ku;     // band storage of S = I - dt/2 Lin in the band ordering
  double h, dt, c;              // c = dt / 2
  const std::int32_t* row_ptr;  // Lin's CSR pattern (the same for every member)
  const std::int32_t* col_idx;
  const std::int32_t* to_band;  // the model's index -> index in the band ordering
};

// One member's arrays; entry e of each at [e * stride] (stride 1: members one after another;
// B: interleaved member-fastest), each pointer already at the member's first entry.
struct MemberArrays {
  const angiogenesis_1d::Coefficients* k;
  const double* taf;       // m
  const double* taf_flux;  // m - 1 (entry m - 1 unused)
  const double* lin;       // Lin's values, CSR order
  const double* lu;        // gbtrf's factors of S, ldab * n
  const int* ipiv;
  const int* u_reach;
  const double* inverse_diagonal;
  double* u;  // the state, species-major
  double* x;  // the right-hand side, then the new state, in the band ordering
  std::size_t stride;
};

enum StepFailure : int {
  step_ok = 0,
  rhs_not_finite = 1,
  state_not_finite = 2,
  projection_over_limit = 3
};

// Finite without <cmath> (which device code does not always have): inf - inf and NaN - NaN are
// NaN, x - x is 0 for every finite x.
SOLVENT_HD inline bool finite(double v) { return v - v == 0.0; }

// Writes the right-hand side of the four rows of point i into x (band ordering);
// rhs_not_finite where one of them is not finite.
SOLVENT_HD inline int rhs_at_point(const BatchShape& s, const MemberArrays& a, std::size_t i) {
  const std::size_t st = a.stride;
  const angiogenesis_1d::StridedState state{a.u, s.m, st};
  const auto rates = angiogenesis_1d::explicit_rates(*a.k, s.h, state, a.taf, a.taf_flux, i);
  const double explicit_part[4] = {rates.c, rates.p, rates.i, rates.f};
  int failure = step_ok;
  for (std::size_t species = 0; species < 4; ++species) {
    const std::size_t row = species * s.m + i;
    double sum = 0.0;
    for (auto k = s.row_ptr[row]; k < s.row_ptr[row + 1]; ++k)
      sum += a.lin[std::size_t(k) * st] * a.u[std::size_t(s.col_idx[k]) * st];
    double rhs = a.u[row * st] + s.c * sum;
    rhs += s.dt * explicit_part[species];
    if (!finite(rhs)) failure = rhs_not_finite;
    a.x[std::size_t(s.to_band[row]) * st] = rhs;
  }
  return failure;
}

struct MemberOutcome {
  int failure;
  double projected;  // the share of sum |u| the projection removed
};

// Visits entries e0 .. e1 - 1 in order, eight at a time: read(e, q) for the eight entries of a
// group, then use(e, q) for them (q: the entry's place in the group). On a GPU a thread issues
// its loads in order and a store waits for its value, so a loop that reads an entry and then
// writes it waited one memory latency per entry: it took most of a batched member's step.
// What a group writes is never what a later entry of it reads (another array, or the
// entry itself), so reading a group ahead changes nothing.
inline constexpr std::size_t group = 8;
template <class Read, class Use>
SOLVENT_HD void in_groups(std::size_t e0, std::size_t e1, Read read, Use use) {
  std::size_t e = e0;
  for (; e + group <= e1; e += group) {
    SOLVENT_UNROLL
    for (std::size_t q = 0; q < group; ++q) read(e + q, q);
    SOLVENT_UNROLL
    for (std::size_t q = 0; q < group; ++q) use(e + q, q);
  }
  for (; e < e1; ++e) {
    read(e, 0);
    use(e, 0);
  }
}

// Solves rows first .. last - 1 of S x = rhs (all of them, or a block of its own:
// band_lu_substitute_rows). ReadAhead: band_lu_substitute's (1 on a CPU, a group on a GPU
// thread; the same bits).
template <std::size_t ReadAhead = 1>
SOLVENT_HD void solve_rows(const BatchShape& s, const MemberArrays& a, std::size_t first,
                           std::size_t last) {
  band_lu_substitute_rows<ReadAhead>(BandLu<double>{a.lu, s.ldab, s.n, s.kl, s.ku, a.ipiv,
                                                    a.u_reach, a.inverse_diagonal, a.stride},
                                     a.x, first, last);
}

struct WrittenBack {
  bool all_finite;
  double removed;  // -(sum of the negative entries), summed in the model's order
};

// Writes entries e0 .. e1 - 1 (the model's order) of the solution x back into u, projected
// (negative densities to zero) when asked: one pass, whose sum of what the projection removed
// goes over the entries in the model's order, as the model's own projection does.
SOLVENT_HD inline WrittenBack write_back(const BatchShape& s, const MemberArrays& a, std::size_t e0,
                                         std::size_t e1, bool projection) {
  const std::size_t st = a.stride;
  WrittenBack out{true, 0.0};
  double v[group];
  in_groups(
      e0, e1, [&](std::size_t e, std::size_t q) { v[q] = a.x[std::size_t(s.to_band[e]) * st]; },
      [&](std::size_t e, std::size_t q) {
        out.all_finite = out.all_finite && finite(v[q]);
        if (projection && v[q] < 0.0) {
          out.removed -= v[q];
          v[q] = 0.0;
        }
        a.u[e * st] = v[q];
      });
  return out;
}

// The step's outcome once the whole state is written back: where an entry is not finite the
// member fails (and what the pass wrote of its state is never reported); otherwise the share
// of sum |u| the projection removed, checked against its limit. Nothing removed: the share is
// 0 whatever sum |u| is, and the pass that sums it is left out.
SOLVENT_HD inline MemberOutcome outcome(const BatchShape& s, const MemberArrays& a,
                                        const WrittenBack& w, double projection_limit) {
  if (!w.all_finite) return {state_not_finite, 0.0};
  if (w.removed == 0.0) return {step_ok, 0.0};
  double total = w.removed;
  double v[group];
  in_groups(
      0, s.n, [&](std::size_t e, std::size_t q) { v[q] = a.u[e * a.stride]; },
      [&](std::size_t, std::size_t q) { total += v[q] < 0.0 ? -v[q] : v[q]; });
  const double share = total > 0.0 ? w.removed / total : 0.0;
  return {share > projection_limit ? projection_over_limit : step_ok, share};
}

// A member's whole step after its right-hand side, on one thread: S x = rhs, x back into u,
// projected when asked.
template <std::size_t ReadAhead = 1>
SOLVENT_HD MemberOutcome solve_and_project(const BatchShape& s, const MemberArrays& a,
                                           bool projection, double projection_limit) {
  solve_rows<ReadAhead>(s, a, 0, s.n);
  return outcome(s, a, write_back(s, a, 0, s.n, projection), projection_limit);
}

}  // namespace solvent::imex
