#pragma once
// Scalar arithmetic and the row formulas of the two operator formats, written once for the
// CPU kernels (Z = double or std::complex<double>) and the CUDA kernels (Z = double or
// cuda::std::complex<double>). Complex products are spelled out in real arithmetic: the
// library operator* of both complex types adds C99 inf/nan recovery that costs a branch
// per multiply in the inner loop of SpMV.
#include <solvent/device/host_device.hpp>
#include <solvent/grid/block_faces.hpp>

#include <cstdint>

namespace solvent::krylov {

SOLVENT_HD inline double real_part(double a) { return a; }
template <class Z>
SOLVENT_HD double real_part(const Z& a) {
  return a.real();
}

SOLVENT_HD inline double conjugate(double a) { return a; }
template <class Z>
SOLVENT_HD Z conjugate(const Z& a) {
  return Z(a.real(), -a.imag());
}

// a * b
SOLVENT_HD inline double mul(double a, double b) { return a * b; }
template <class Z>
SOLVENT_HD Z mul(const Z& a, const Z& b) {
  return Z(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}

// acc + a * b
SOLVENT_HD inline double mul_add(double a, double b, double acc) { return acc + a * b; }
template <class Z>
SOLVENT_HD Z mul_add(const Z& a, const Z& b, const Z& acc) {
  return Z(acc.real() + a.real() * b.real() - a.imag() * b.imag(),
           acc.imag() + a.real() * b.imag() + a.imag() * b.real());
}

// acc + conj(a) * b: the term of the conjugated dot product <a, b>.
SOLVENT_HD inline double conj_mul_add(double a, double b, double acc) { return acc + a * b; }
template <class Z>
SOLVENT_HD Z conj_mul_add(const Z& a, const Z& b, const Z& acc) {
  return Z(acc.real() + a.real() * b.real() + a.imag() * b.imag(),
           acc.imag() + a.real() * b.imag() - a.imag() * b.real());
}

SOLVENT_HD inline bool is_zero(double a) { return a == 0.0; }
template <class Z>
SOLVENT_HD bool is_zero(const Z& a) {
  return a.real() == 0.0 && a.imag() == 0.0;
}

// Partial sum of row `row` of a CSR matrix times x over the entries lane, lane + stride,
// ...: the CPU takes the whole row (lane 0, stride 1), a CUDA thread group splits it.
// `column(c)` is x's value in column c (Columns: x[c]; on a rank of a matrix distributed by
// rows, SplitColumns: its own values, then its ghosts'): each row the same sum either way.
template <class Z, class Column>
SOLVENT_HD Z csr_row_partial(const std::int32_t* __restrict__ row_ptr,
                             const std::int32_t* __restrict__ col_idx, const Z* __restrict__ values,
                             const Column& column, std::int64_t row, int lane, int stride) {
  Z acc = Z(0);
  const std::int32_t end = row_ptr[row + 1];
  for (std::int32_t j = row_ptr[row] + lane; j < end; j += stride)
    acc = mul_add(values[j], column(col_idx[j]), acc);
  return acc;
}

template <class Z>
struct Columns {
  const Z* __restrict__ x;
  SOLVENT_HD Z operator()(std::int32_t c) const { return x[c]; }
};

// A rank's columns of a CSR matrix distributed by rows: its own `local` unknowns in x, the
// ghosts behind them in a buffer of their own (no copy of x next to them).
template <class Z>
struct SplitColumns {
  const Z* __restrict__ x;
  const Z* __restrict__ ghosts;
  std::int32_t local;
  SOLVENT_HD Z operator()(std::int32_t c) const { return c < local ? x[c] : ghosts[c - local]; }
};

// Coefficient arrays of a Stencil7 (see solvent/stencil7.hpp) as raw pointers, so the
// same view type works on the host and on the device.
template <class Z>
struct Stencil7View {
  const Z* c[7];
  std::int64_t n1, n2, n3;
};

// Row m of the seven-point operator, c0 u(m) - sum_i c_i u(m_i), given its value xm and a
// function neighbour(d, v) that sets v to the value of neighbour d (m-1, m+1, m-n1, m+n1,
// m-n1n2, m+n1n2: the order of c[1..6]) and says whether there is one. An inactive node
// (c0 = 0) carries the equation u = 0, so its row is the identity row. The one formula of
// every stencil product here, inside a block and across its faces alike, so that a row
// rounds the same whichever rank computes it.
template <class Z, class Neighbour>
SOLVENT_HD Z stencil7_row_with(const Stencil7View<Z>& s, std::int64_t m, const Z& xm,
                               Neighbour&& neighbour) {
  const Z c0 = s.c[0][m];
  if (is_zero(c0)) return xm;
  Z sum = Z(0);
  for (int d = 0; d < 6; ++d) {
    Z v;
    if (neighbour(d, v)) sum = mul_add(s.c[d + 1][m], v, sum);
  }
  return mul(c0, xm) - sum;
}

// Row m with every neighbour in x; neighbours outside the grid (or block) are absent.
template <class Z>
SOLVENT_HD Z stencil7_row(const Stencil7View<Z>& s, const Z* __restrict__ x, std::int64_t m) {
  const std::int64_t plane = s.n1 * s.n2;
  const std::int64_t i[3] = {m % s.n1, (m / s.n1) % s.n2, m / plane};
  const std::int64_t n[3] = {s.n1, s.n2, s.n3}, stride[3] = {1, s.n1, plane};
  return stencil7_row_with(s, m, x[m], [&](int d, Z& v) {
    const int a = d / 2;
    const bool upper = d % 2 == 1;
    if (upper ? i[a] + 1 >= n[a] : i[a] == 0) return false;
    v = x[upper ? m + stride[a] : m - stride[a]];
    return true;
  });
}

// A block of a distributed stencil: face f's values at [at[f], at[f+1]) of the packed face
// buffers (HaloExchange's order, solvent/grid/block_faces.hpp), empty where f has no neighbour.
struct FaceOffsets {
  std::int64_t at[7];
};

// Node q of face f of the block, and its row with the neighbours across the block's faces
// taken from `ghosts` (the packed buffer the halo exchange received): the rows the block's
// own product (stencil7_row) left without their couplings to other ranks. A node next to two
// faces gets the same value from either.
template <class Z>
SOLVENT_HD Z stencil7_face_row(const Stencil7View<Z>& s, const FaceOffsets& faces,
                               const Z* __restrict__ x, const Z* __restrict__ ghosts, int f,
                               std::int64_t q, std::int64_t& m) {
  const std::int64_t e[3] = {s.n1, s.n2, s.n3}, stride[3] = {1, s.n1, s.n1 * s.n2};
  std::int64_t i[3];
  face_node(e, f, q, 0, i);
  m = i[0] + s.n1 * (i[1] + s.n2 * i[2]);
  return stencil7_row_with(s, m, x[m], [&](int d, Z& v) {
    const int a = d / 2;
    const bool upper = d % 2 == 1;
    if (upper ? i[a] + 1 < e[a] : i[a] > 0) {
      v = x[upper ? m + stride[a] : m - stride[a]];
      return true;
    }
    if (faces.at[d + 1] == faces.at[d]) return false;  // the grid's boundary
    // This node's place on face d: the two other axes, the lower fastest.
    const int b = a == 0 ? 1 : 0, c = a == 2 ? 1 : 2;
    v = ghosts[faces.at[d] + i[b] + e[b] * i[c]];
    return true;
  });
}

// The diagonal entry of row m (the Jacobi preconditioner's input).
template <class Z>
SOLVENT_HD Z stencil7_diagonal(const Stencil7View<Z>& s, std::int64_t m) {
  const Z c0 = s.c[0][m];
  return is_zero(c0) ? Z(1) : c0;
}

}  // namespace solvent::krylov
