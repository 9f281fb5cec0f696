#pragma once
// Band LU factors as LAPACK's gbtrf makes them for a narrow band (band_lu_factor, below), and
// forward and back substitution with the band LU factors that gbtrf leaves in band
// storage (L's multipliers below the diagonal row kl + ku, U in rows 0..kl + ku, pivots
// 1-based), for one right-hand side: what gbtrs computes, written out because the reference
// gbtrs makes one BLAS dger call per column to apply L, and with a narrow band the calls'
// overhead, not the arithmetic, dominated a step of the 1D model. The `banded` solver and the
// batched IMEX integrators (CPU, and CUDA threads per member) share it, so a batched
// member is solved with the bits of its single run.
//
// Both sweeps are one long dependency chain through x, so they go row by row: each row's
// sum over its far entries (ready early, overlapped by the processor) is kept apart from
// the one term that waits for the previous row, and U's diagonal comes inverted (a
// multiply, not a divide, on the chain). The values of the previous two rows stay in
// registers: read back from x, each would wait for its store to be forwarded, on the chain. The row
// form of the forward sweep holds between row interchanges (gbtrf does not apply an interchange to
// earlier columns of L, so each must happen at its place in the sweep): columns that
// swap are applied in gbtrs's column form, the runs between them in row form. In the 1D
// model the only interchanges are at the last grid point of a block, where the Neumann
// row's doubled coupling outweighs the reduced diagonal. Each row of U is swept only as
// far as its last non-zero (u_reach), not the kl + ku that pivoting allows for.
//
// Every array is read with a stride: entry e at [e * stride]. One system: stride 1. B systems
// interleaved member-fastest (GPU threads of neighbouring members, so a warp's loads coalesce):
// stride B, each pointer offset to its member.
#include <solvent/device/host_device.hpp>

#include <cstddef>
#include <vector>

namespace solvent {

template <class T>
struct BandLu {
  const T* ab;  // gbtrf's output, leading dimension ldab
  std::size_t ldab, n, kl, ku;
  const int* ipiv;
  const int* u_reach;         // u_reach[i]: largest k with U(i, i + k) != 0
  const T* inverse_diagonal;  // 1 / U(i, i)
  std::size_t stride = 1;
};

// gbtrf for a real band: the column-by-column partial pivoting of LAPACK's dgbtf2 in the same
// storage (ab: ldab = 2 kl + ku + 1 rows, the first kl for fill-in), pivots 1-based, U's zero
// fill-in rows set here. Returns gbtrf's info: 0; j + 1 for the first zero pivot U(j, j) (the
// factorisation goes on past it); -6 for a NaN in the band, as LAPACKE's check of argument 6
// gave. dgbtrf itself runs dgbtf2 for every band with fewer than 32 sub-diagonals (its block
// size is 1 where ku <= 64, else 32), three BLAS calls a column (idamax, dscal, dger) on
// kl + 1 numbers: with the 1D model's kl = 2 the calls' overhead was the whole cost (133 of
// the 240 us a batched member took to assemble). Wider bands would factor faster blocked,
// but one factorisation for every real band is what keeps a batched member's factors those
// of its single run (the `banded` solver and the batched integrators both call this). The
// arithmetic is the reference one, with no fused multiply-add where the compiler does not
// contract (the host's baseline target): the same bits on every CPU, where OpenBLAS's
// kernels differ by the CPU they select.
inline int band_lu_factor(double* ab, std::size_t ldab, std::size_t n, std::size_t kl,
                          std::size_t ku, int* ipiv) {
  const std::size_t kv = kl + ku;
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t r = kl; r <= kl + kv; ++r)
      if (ab[j * ldab + r] != ab[j * ldab + r]) return -6;
  // A(i, j) of the matrix, in band storage.
  auto a = [&](std::size_t i, std::size_t j) -> double& { return ab[j * ldab + kv + i - j]; };
  for (std::size_t j = ku + 1; j < (kv < n ? kv : n); ++j)
    for (std::size_t r = kv - j; r < kl; ++r) ab[j * ldab + r] = 0.0;
  int info = 0;
  std::size_t ju = 0;  // the last column the eliminations so far reach
  for (std::size_t j = 0; j < n; ++j) {
    if (j + kv < n)
      for (std::size_t r = 0; r < kl; ++r) ab[(j + kv) * ldab + r] = 0.0;
    const std::size_t km = kl < n - 1 - j ? kl : n - 1 - j;
    // idamax: the first of the largest magnitudes.
    std::size_t p = 0;
    double largest = a(j, j) < 0 ? -a(j, j) : a(j, j);
    for (std::size_t t = 1; t <= km; ++t) {
      const double v = a(j + t, j) < 0 ? -a(j + t, j) : a(j + t, j);
      if (v > largest) largest = v, p = t;
    }
    ipiv[j] = int(j + p + 1);
    if (a(j + p, j) == 0.0) {
      if (info == 0) info = int(j + 1);
      continue;
    }
    const std::size_t reach = j + ku + p < n - 1 ? j + ku + p : n - 1;
    ju = ju > reach ? ju : reach;
    if (p != 0)
      for (std::size_t c = j; c <= ju; ++c) {
        const double swap = a(j + p, c);
        a(j + p, c) = a(j, c);
        a(j, c) = swap;
      }
    if (km == 0) continue;
    const double reciprocal = 1.0 / a(j, j);
    for (std::size_t t = 1; t <= km; ++t) a(j + t, j) *= reciprocal;
    // dger with alpha = -1: a column whose U entry is 0 is skipped, as dger skips it.
    for (std::size_t c = j + 1; c <= ju; ++c) {
      const double y = a(j, c);
      if (y == 0.0) continue;
      const double minus_y = -y;
      for (std::size_t t = 1; t <= km; ++t) a(j + t, c) = a(j + t, c) + a(j + t, j) * minus_y;
    }
  }
  return info;
}

// What BandLu needs beside gbtrf's output (lu, one system, stride 1): U's inverted diagonal
// and, per row, the distance to U's last non-zero.
template <class T>
void band_lu_prepare(const T* lu, std::size_t ldab, std::size_t n, std::size_t kl, std::size_t ku,
                     T* inverse_diagonal, int* u_reach) {
  const std::size_t kd = kl + ku;
  for (std::size_t i = 0; i < n; ++i) {
    inverse_diagonal[i] = T(1) / lu[i * ldab + kd];
    u_reach[i] = 0;
    for (std::size_t k = kd < n - 1 - i ? kd : n - 1 - i; k > 0 && u_reach[i] == 0; --k)
      if (lu[(i + k) * ldab + kd - k] != T(0)) u_reach[i] = int(k);
  }
}

namespace detail {

// far - a * chained, where chained is the value the previous row just produced. Where a is
// 0 (a coupling the band allows but the matrix lacks, as between the 1D model's species) and
// far is not 0, the product is +-0 and leaves far as it is whenever chained is finite, so the
// row takes far without waiting for chained: the rows' dependency chain breaks there. The
// branch (a select would wait for chained) keeps the bits of the full expression: far = +-0
// and a non-finite chained go the full way. Complex values always do (a zero part of far
// would not survive the subtraction of a signed zero unchanged).
template <class T>
SOLVENT_HD T minus_product(T far, T a, T chained) {
  return far - a * chained;
}
SOLVENT_HD inline double minus_product(double far, double a, double chained) {
  if (a == 0.0 && far != 0.0 && chained - chained == 0.0) return far;
  return far - a * chained;
}

// The substitution with the stride as `Stride` gives it: a constant 1 (one system, whose
// addressing the compiler then simplifies) or the run-time f.stride. ReadAhead: see
// band_lu_substitute below.
template <std::size_t ReadAhead, class T, class Stride>
SOLVENT_HD void band_lu_substitute(const BandLu<T>& f, T* x, Stride stride, std::size_t first,
                                   std::size_t last) {
  const std::size_t kl = f.kl, kd = kl + f.ku, s = stride;
  auto at = [&](std::size_t i, std::size_t j) {
    return f.ab[(j * f.ldab + kl + f.ku + i - j) * s];
  };
  auto lesser = [](std::size_t a, std::size_t b) { return a < b ? a : b; };
  auto pivot = [&](std::size_t j) { return std::size_t(f.ipiv[j * s] - 1); };
  // Invariant: every contribution of the columns before j has been applied to x. Without
  // sub-diagonals L is the identity and gbtrf interchanges nothing, so there is no forward
  // sweep (its rows would read L(i, i - 1), which such a band does not store: the entry
  // there is U's).
  for (std::size_t j = first; kl > 0 && j + 1 < last;) {
    if (pivot(j) != j) {
      const std::size_t p = pivot(j);
      const T xp = x[p * s];
      x[p * s] = x[j * s];
      x[j * s] = xp;
      const std::size_t lm = lesser(kl, last - 1 - j);
      for (std::size_t i = 1; i <= lm; ++i) x[(j + i) * s] -= at(j + i, j) * x[j * s];
      ++j;
      continue;
    }
    // The run j .. e-1 has no interchange; it ends where the next one is (found as the rows
    // go: a separate pass to find it first cost a tenth of the sweep). Rows are read a group
    // ahead (ReadAhead, below) and then swept one by one.
    std::size_t i = j + 1;
    T previous = x[j * s];  // x[i - 1]
    T before{};             // x[i - 2], once that is in the run
    std::size_t pivot_i = i < last ? pivot(i) : i;
    while (i < last && pivot_i == i) {
      T b[ReadAhead], l1[ReadAhead], l2[ReadAhead];
      int pivot_after[ReadAhead];  // gbtrf's pivot of row i + q + 1, as stored
      const std::size_t g = lesser(ReadAhead, last - i);
      // Every read of the group is issued before any value is used: no branch between them
      // (rows past the last are read as the last row, and not used), and the pivots stay as
      // stored until their use (converting them in this loop made each wait for its load
      // before the next row's reads went out: one memory latency a row again).
      SOLVENT_UNROLL
      for (std::size_t q = 0; q < ReadAhead; ++q) {
        const std::size_t r = lesser(i + q, last - 1);
        b[q] = x[r * s];
        l1[q] = at(r, r - 1);
        l2[q] = kl >= 2 && r - j >= 2 ? at(r, r - 2) : T{};
        pivot_after[q] = f.ipiv[lesser(r + 1, last - 1) * s];
      }
      // pivot_i follows the rows in a scalar: an array indexed after the loop would be kept
      // in a GPU thread's local memory, not in registers.
      std::size_t q = 0;
      SOLVENT_UNROLL
      for (; q < ReadAhead; ++q) {
        const std::size_t r = i + q;
        if (q >= g || pivot_i != r) break;
        T far = b[q];
        const std::size_t reach = lesser(kl, r - j);
        for (std::size_t k = reach; k >= 3; --k) far -= at(r, r - k) * x[(r - k) * s];
        if (reach >= 2) far -= l2[q] * before;
        before = previous;
        previous = minus_product(far, l1[q], previous);
        x[r * s] = previous;
        pivot_i = r + 1 < last ? std::size_t(pivot_after[q] - 1) : r + 1;
      }
      i += q;
    }
    const std::size_t e = i;
    // What the run's last columns owe the rows from e on.
    for (std::size_t c = e > j + kl ? e - kl : j; c < e; ++c)
      for (std::size_t i = e - c; i <= lesser(kl, last - 1 - c); ++i)
        x[(c + i) * s] -= at(c + i, c) * x[c * s];
    j = e;
  }
  T next{}, after{};  // x[i + 1], x[i + 2]
  // Rows last - 1 down to first, a group read ahead at a time as above; what a row needs of U
  // beside its next two entries (reach 3 .. kl + ku) is read as it goes.
  for (std::size_t top = last; top > first;) {
    T b[ReadAhead], u1[ReadAhead], u2[ReadAhead], inverse[ReadAhead];
    int reach[ReadAhead];
    const std::size_t g = lesser(ReadAhead, top - first);
    SOLVENT_UNROLL
    for (std::size_t q = 0; q < ReadAhead; ++q) {  // without a branch, as above
      const std::size_t r = top - 1 - lesser(q, g - 1);
      b[q] = x[r * s];
      reach[q] = f.u_reach[r * s];
      // Read whether or not the row reaches them (they lie in the band storage either way);
      // waiting for the reach first would put a second memory wait on the group.
      u1[q] = kd >= 1 && r + 1 < last ? at(r, r + 1) : T{};
      u2[q] = kd >= 2 && r + 2 < last ? at(r, r + 2) : T{};
      inverse[q] = f.inverse_diagonal[r * s];
    }
    SOLVENT_UNROLL
    for (std::size_t q = 0; q < ReadAhead; ++q) {
      if (q >= g) break;
      const std::size_t r = top - 1 - q;
      T far = b[q];
      for (std::size_t k = std::size_t(reach[q]); k >= 3; --k) far -= at(r, r + k) * x[(r + k) * s];
      if (reach[q] >= 2) far -= u2[q] * after;
      if (reach[q] >= 1) far = minus_product(far, u1[q], next);
      after = next;
      next = far * inverse[q];
      x[r * s] = next;
    }
    top -= g;
  }
}

struct UnitStride {
  SOLVENT_HD constexpr operator std::size_t() const { return 1; }
};

}  // namespace detail

// Solves rows first .. last - 1 of A x = b alone, where they are a system of their own: no
// entry of A couples them with a row or column outside (a block of a block-diagonal matrix,
// as band_splits finds them). gbtrf keeps such a block apart in its factors: a column's pivot
// is the largest entry of the column within the block (outside it the column is zero), and
// an update adds a product with a zero multiplier or a zero of U to every entry that couples
// two blocks, which stays zero. So the blocks' substitutions are independent and may run side
// by side (on a GPU, threads of one system); each does the arithmetic of the whole system's
// substitution on its rows, less the terms whose factor is that zero (x - 0 y = x for finite
// y), and gives the same values (a zero's sign aside).
template <std::size_t ReadAhead = 1, class T>
SOLVENT_HD void band_lu_substitute_rows(const BandLu<T>& f, T* x, std::size_t first,
                                        std::size_t last) {
  static_assert(ReadAhead >= 1);
  if (f.stride == 1)
    detail::band_lu_substitute<ReadAhead>(f, x, detail::UnitStride{}, first, last);
  else
    detail::band_lu_substitute<ReadAhead>(f, x, f.stride, first, last);
}

// Solves A x = b in place (x holds b on entry), with A = P L U as gbtrf factored it.
//
// ReadAhead: the rows each sweep reads before it uses any of them. Both sweeps are a chain
// through x. A CPU reads ahead by itself (out of order), and reading groups there cost a
// fifth more time at M = 400 (1.85e-5 s a step against 1.53e-5), so it takes 1. A GPU thread
// does not: a system's rows on one thread (the batched members), a row read at its turn waited
// a whole memory latency, 3200 waits a step at M = 400; a group read first waits once. Nothing a
// group's rows write is read by a later row of the group from the values read ahead (a row's
// x is read ahead only by that row), so every ReadAhead gives the same arithmetic in the same
// order, and the same bits (plugins-banded checks 8 against 1).
template <std::size_t ReadAhead = 1, class T>
SOLVENT_HD void band_lu_substitute(const BandLu<T>& f, T* x) {
  band_lu_substitute_rows<ReadAhead>(f, x, 0, f.n);
}

// The rows p (0 < p < n) where A, in band storage as gbtrf takes it (ab), splits into two
// systems: no non-zero entry couples a row or column before p with one from p on. The blocks
// between them can be substituted apart (band_lu_substitute_rows).
template <class T>
std::vector<std::size_t> band_splits(const T* ab, std::size_t ldab, std::size_t n, std::size_t kl,
                                     std::size_t ku) {
  // coupled[p]: how many entries couple across p, summed from a difference array.
  std::vector<std::ptrdiff_t> coupled(n + 1, 0);
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = j > ku ? j - ku : 0; i < n && i <= j + kl; ++i)
      if (i != j && ab[j * ldab + kl + ku + i - j] != T(0)) {
        ++coupled[(i < j ? i : j) + 1];
        --coupled[(i < j ? j : i) + 1];
      }
  std::vector<std::size_t> splits;
  std::ptrdiff_t across = 0;
  for (std::size_t p = 1; p < n; ++p) {
    across += coupled[p];
    if (across == 0) splits.push_back(p);
  }
  return splits;
}

}  // namespace solvent
