#pragma once
// MatrixArray<T>: one array of a matrix's storage (CsrMatrix's row pointers, column indices
// and values), either owned or borrowed from the caller that made the matrix (Ginkgo's
// array views, made safe by a keeper).
//
// Why: a matrix handed in from elsewhere (a SciPy CSR matrix through the Python binding)
// already lies in memory in the core's layout; copying its arrays doubles the memory of the
// largest object of a solve for nothing. A borrowed array reads the caller's memory in
// place, and holds `keeper` (for Python, the NumPy arrays themselves) for as long as any copy
// of it exists, so a solver that keeps its operator never reads freed memory.
//
// A borrowed array is never written: every call that could change it (the non-const
// accessors, push_back, resize, ...) first turns it into an owned copy, so code that builds
// or edits a matrix works on any MatrixArray as on a std::vector. Solvers read their
// operator through const references and so read borrowed arrays in place.
#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace solvent {

template <class T>
class MatrixArray {
 public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = T*;
  using const_iterator = const T*;

  MatrixArray() = default;
  // Owned (implicit, so a matrix is still made from vectors).
  MatrixArray(std::vector<T> values) : owned_(std::move(values)) {}
  MatrixArray(std::initializer_list<T> values) : owned_(values) {}
  MatrixArray(std::size_t n, const T& value) : owned_(n, value) {}
  template <std::input_iterator It>
  MatrixArray(It first, It last) : owned_(first, last) {}

  // `values` read in place; `keeper` keeps them alive and is released with the last copy of
  // this array that still borrows them.
  static MatrixArray borrow(std::span<const T> values, std::shared_ptr<const void> keeper) {
    MatrixArray a;
    a.view_ = values;
    a.keeper_ = std::move(keeper);
    a.borrowed_ = true;
    return a;
  }

  // Whether the array reads its caller's memory (no copy was made).
  bool borrowed() const { return borrowed_; }

  std::size_t size() const { return borrowed_ ? view_.size() : owned_.size(); }
  bool empty() const { return size() == 0; }
  const T* data() const { return borrowed_ ? view_.data() : owned_.data(); }
  const T& operator[](std::size_t i) const { return data()[i]; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  const T& front() const { return data()[0]; }
  const T& back() const { return data()[size() - 1]; }

  // Writing: a borrowed array becomes an owned copy first.
  T* data() { return own().data(); }
  T& operator[](std::size_t i) { return own()[i]; }
  T* begin() { return own().data(); }
  T* end() { return own().data() + owned_.size(); }
  T& front() { return own().front(); }
  T& back() { return own().back(); }
  void push_back(const T& v) { own().push_back(v); }
  void reserve(std::size_t n) { own().reserve(n); }
  void resize(std::size_t n) { own().resize(n); }
  void resize(std::size_t n, const T& v) { own().resize(n, v); }
  void clear() { *this = MatrixArray(); }
  template <class... Args>
  void assign(Args&&... args) {
    // Fresh contents: nothing of a borrowed array is copied first.
    *this = MatrixArray();
    owned_.assign(std::forward<Args>(args)...);
  }

  // The contents as a vector (a copy), for code that keeps one.
  std::vector<T> to_vector() const { return {begin(), end()}; }

  friend bool operator==(const MatrixArray& a, const MatrixArray& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  std::vector<T>& own() {
    if (borrowed_) {
      owned_.assign(view_.begin(), view_.end());
      view_ = {};
      keeper_.reset();
      borrowed_ = false;
    }
    return owned_;
  }

  std::vector<T> owned_;
  std::span<const T> view_;
  std::shared_ptr<const void> keeper_;
  bool borrowed_ = false;
};

}  // namespace solvent
