// HostArray: zeros on creation on both allocation paths (malloc below 2 MiB, a huge-page
// mapping above), copies equal to their source, and the span view every kernel takes.
#include <solvent/host_array.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <complex>
#include <numeric>
#include <vector>

using solvent::HostArray;

namespace {
template <class T>
bool all_zero(const HostArray<T>& a) {
  return std::all_of(a.begin(), a.end(), [](const T& v) { return v == T{}; });
}
}  // namespace

TEST_CASE("a new array holds zeros, small and mapped") {
  for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(3) << 20}) {
    const HostArray<double> a(n);
    CHECK(a.size() == n);
    CHECK(all_zero(a));
    const HostArray<std::complex<double>> z(n);
    CHECK(all_zero(z));
  }
  const HostArray<double> empty;
  CHECK(empty.empty());
  CHECK(empty.data() == nullptr);
}

TEST_CASE("copies and values from a span equal their source; moves leave the source empty") {
  std::vector<double> v((std::size_t(5) << 20) + 7);  // a partial last chunk of the copy
  std::iota(v.begin(), v.end(), 0.5);
  HostArray<double> a(v);
  CHECK(std::equal(a.begin(), a.end(), v.begin(), v.end()));
  HostArray<double> b = a;
  b[3] = -1.0;
  CHECK(a[3] == 3.5);
  CHECK(std::equal(b.begin() + 4, b.end(), v.begin() + 4, v.end()));
  HostArray<double> c = std::move(b);
  CHECK(b.empty());
  CHECK(c[3] == -1.0);
  a = c;
  CHECK(a[3] == -1.0);
  const std::span<const double> view = a;
  CHECK(view.size() == v.size());
  CHECK(view.data() == a.data());
}
