// The Matrix Market reader on arbitrary bytes: it may refuse them only with InputError
// (anything else escapes and libFuzzer reports it), and what it accepts is a matrix whose
// storage is consistent and whose entries are finite.
#include <solvent/errors.hpp>
#include <solvent/io/matrix_market.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

// Well under libFuzzer's 2 GiB RSS limit: a header may declare any size, and what the
// reader would allocate for it must be refused before it is allocated.
const solvent::MemoryLimit memory_limit{256.0 * 1024 * 1024, "the fuzzer's 256 MiB"};

void require(bool ok) {
  if (!ok) std::abort();
}

template <class T>
void check(const solvent::CsrMatrix<T>& a) {
  require(a.row_ptr.size() == a.rows + 1 && a.row_ptr.front() == 0);
  require(static_cast<std::size_t>(a.row_ptr.back()) == a.col_idx.size());
  require(a.col_idx.size() == a.values.size());
  for (std::size_t i = 0; i < a.rows; ++i)
    for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      require(a.col_idx[p] >= 0 && static_cast<std::size_t>(a.col_idx[p]) < a.cols);
      require(p == a.row_ptr[i] || a.col_idx[p - 1] < a.col_idx[p]);
    }
}

template <class T>
void check(const solvent::DenseMatrix<T>& a) {
  require(a.values.size() == a.rows * a.cols);
}

template <class M>
void check(const M&) {
  std::abort();  // the reader makes CSR or dense matrices only
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const solvent::Operator a = solvent::parse_matrix_market(text, "input.mtx", memory_limit);
    std::visit([](const auto& m) { check(m); }, a);
  } catch (const solvent::InputError&) {
  }
  try {
    solvent::parse_matrix_market_vector(text, "input.mtx", memory_limit);
  } catch (const solvent::InputError&) {
  }
  return 0;
}
