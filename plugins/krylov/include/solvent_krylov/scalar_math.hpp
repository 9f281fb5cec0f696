#pragma once
// Scalar arithmetic and the row formulas of the two operator formats, written once for the
// CPU kernels (Z = double or std::complex<double>) and the CUDA kernels (Z = double or
// cuda::std::complex<double>). Complex products are spelled out in real arithmetic: the
// library operator* of both complex types adds C99 inf/nan recovery that costs a branch
// per multiply in the inner loop of SpMV.
#include <solvent/host_device.hpp>

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
template <class Z>
SOLVENT_HD Z csr_row_partial(const std::int32_t* __restrict__ row_ptr,
                             const std::int32_t* __restrict__ col_idx, const Z* __restrict__ values,
                             const Z* __restrict__ x, std::int64_t row, int lane, int stride) {
  Z acc = Z(0);
  const std::int32_t end = row_ptr[row + 1];
  for (std::int32_t j = row_ptr[row] + lane; j < end; j += stride)
    acc = mul_add(values[j], x[col_idx[j]], acc);
  return acc;
}

// Coefficient arrays of a Stencil7 (see solvent/stencil7.hpp) as raw pointers, so the
// same view type works on the host and on the device.
template <class Z>
struct Stencil7View {
  const Z* c[7];
  std::int64_t n1, n2, n3;
};

// Row m of the seven-point operator, c0 u(m) - sum_i c_i u(m_i); neighbours outside the
// grid are absent. An inactive node (c0 = 0) carries the equation u = 0, so its row is
// the identity row.
template <class Z>
SOLVENT_HD Z stencil7_row(const Stencil7View<Z>& s, const Z* __restrict__ x, std::int64_t m) {
  const Z c0 = s.c[0][m];
  if (is_zero(c0)) return x[m];
  const std::int64_t plane = s.n1 * s.n2;
  const std::int64_t i = m % s.n1, j = (m / s.n1) % s.n2, k = m / plane;
  Z neighbours = Z(0);
  if (i > 0) neighbours = mul_add(s.c[1][m], x[m - 1], neighbours);
  if (i + 1 < s.n1) neighbours = mul_add(s.c[2][m], x[m + 1], neighbours);
  if (j > 0) neighbours = mul_add(s.c[3][m], x[m - s.n1], neighbours);
  if (j + 1 < s.n2) neighbours = mul_add(s.c[4][m], x[m + s.n1], neighbours);
  if (k > 0) neighbours = mul_add(s.c[5][m], x[m - plane], neighbours);
  if (k + 1 < s.n3) neighbours = mul_add(s.c[6][m], x[m + plane], neighbours);
  return mul(c0, x[m]) - neighbours;
}

// The diagonal entry of row m (the Jacobi preconditioner's input).
template <class Z>
SOLVENT_HD Z stencil7_diagonal(const Stencil7View<Z>& s, std::int64_t m) {
  const Z c0 = s.c[0][m];
  return is_zero(c0) ? Z(1) : c0;
}

}  // namespace solvent::krylov
