#include "src/matrix_file_model.hpp"

#include <solvent/io/matrix_market.hpp>
#include <solvent/sparse/row_distribution.hpp>
#include <solvent/memory.hpp>

#include <fmt/format.h>

#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>

namespace solvent::matrix_file {
namespace {

template <class T>
std::vector<T> multiply(const CsrMatrix<T>& a, const std::vector<T>& x) {
  std::vector<T> y(a.rows, T{});
  for (std::size_t i = 0; i < a.rows; ++i)
    for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) y[i] += a.values[p] * x[a.col_idx[p]];
  return y;
}

template <class T>
std::vector<T> multiply(const DenseMatrix<T>& a, const std::vector<T>& x) {
  std::vector<T> y(a.rows, T{});
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t j = 0; j < a.cols; ++j) y[i] += a(i, j) * x[j];
  return y;
}

// A x for the two storage forms a Matrix Market file can give; x has A's scalar type.
Vector multiply(const Operator& a, const Vector& x) {
  return std::visit(
      [&](const auto& m) -> Vector {
        using M = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<M, CsrMatrix<double>> ||
                      std::is_same_v<M, DenseMatrix<double>>)
          return multiply(m, std::get<std::vector<double>>(x));
        else if constexpr (std::is_same_v<M, CsrMatrix<complex>> ||
                           std::is_same_v<M, DenseMatrix<complex>>)
          return multiply(m, std::get<std::vector<complex>>(x));
        else
          throw InputError("matrix-file: unexpected operator kind");
      },
      a);
}

template <class T>
DenseMatrix<complex> to_complex(const DenseMatrix<T>& a) {
  DenseMatrix<complex> c(a.rows, a.cols);
  std::copy(a.values.begin(), a.values.end(), c.values.begin());
  return c;
}

template <class T>
CsrMatrix<complex> to_complex(const CsrMatrix<T>& a) {
  CsrMatrix<complex> c;
  c.rows = a.rows;
  c.cols = a.cols;
  c.row_ptr = a.row_ptr;
  c.col_idx = a.col_idx;
  c.values.assign(a.values.begin(), a.values.end());
  return c;
}

Operator to_complex(Operator a) {
  return std::visit(
      [](auto& m) -> Operator {
        using M = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<M, CsrMatrix<double>> ||
                      std::is_same_v<M, DenseMatrix<double>>)
          return to_complex(m);
        else
          return std::move(m);
      },
      a);
}

Vector to_complex(const Vector& v) {
  if (const auto* r = std::get_if<std::vector<double>>(&v))
    return std::vector<complex>(r->begin(), r->end());
  return v;
}

// Columns and stored values of the two forms a Matrix Market file can give.
struct Extent {
  std::size_t cols = 0, stored = 0;
};

Extent extent_of(const Operator& a) {
  return std::visit(
      [](const auto& m) -> Extent {
        using M = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<M, CsrMatrix<double>> ||
                      std::is_same_v<M, CsrMatrix<complex>> ||
                      std::is_same_v<M, DenseMatrix<double>> ||
                      std::is_same_v<M, DenseMatrix<complex>>)
          return {m.cols, m.values.size()};
        else
          return {};
      },
      a);
}

bool is_complex(const Vector& v) { return std::holds_alternative<std::vector<complex>>(v); }

std::size_t size_of(const Vector& v) {
  return std::visit([](const auto& x) { return x.size(); }, v);
}

double norm(const Vector& v) {
  return std::visit(
      [](const auto& x) {
        double s = 0.0;
        for (const auto& e : x) s += std::norm(e);
        return std::sqrt(s);
      },
      v);
}

Vector difference(const Vector& a, const Vector& b) {
  return std::visit(
      [&](const auto& x) -> Vector {
        auto d = x;
        const auto& y = std::get<std::decay_t<decltype(x)>>(b);
        for (std::size_t i = 0; i < d.size(); ++i) d[i] -= y[i];
        return d;
      },
      a);
}

Vector known_solution(const Parameters& p, std::size_t n) {
  const std::string& kind = p.string("solution");
  if (kind == "file") return read_matrix_market_vector(p.string("solution_file"));
  std::vector<double> x(n, 1.0);
  if (kind == "ramp")
    for (std::size_t i = 0; i < n; ++i)
      x[i] = 1.0 + static_cast<double>(i) / static_cast<double>(n);
  return x;
}

std::string where(const Parameters& p, const std::string& name) {
  const auto& w = p.entries().at(name).where;
  return (w.empty() ? std::string("[model] ") : w + ": ") + name;
}

void require_file_parameter(const Parameters& p, const std::string& name,
                            const std::string& because) {
  if (p.string(name).empty())
    throw ConfigError({where(p, name) + ": a Matrix Market file is required " + because});
}

// The whole system as the files give it: A, b, and x where it is known.
struct System {
  Operator a;
  Vector rhs;
  std::optional<Vector> exact;
};

System read_system(const Parameters& p, const std::string& path) {
  const std::string& rhs = p.string("rhs");
  Operator a = read_matrix_market(path);
  const std::size_t rows = rows_of(a);
  const std::size_t cols = extent_of(a).cols;
  if (rows != cols)
    throw InputError(path + ": the matrix is " + std::to_string(rows) + " x " +
                     std::to_string(cols) + "; a linear system needs a square matrix");
  // The reader weighed the matrix's own storage; a coordinate file of few entries can still
  // declare billions of rows, and every vector of the system has that many.
  require_memory("model 'matrix-file'", 12.0 * 16.0 * static_cast<double>(rows),
                 fmt::format("the vectors of a system of {} rows (right-hand side, solution "
                             "and about ten solver work vectors, complex at worst)",
                             rows),
                 "use a matrix of fewer rows");

  Vector x_or_b;
  std::string vector_path;
  if (rhs == "ones") {
    x_or_b = std::vector<double>(rows, 1.0);
  } else if (rhs == "file") {
    vector_path = p.string("rhs_file");
    x_or_b = read_matrix_market_vector(vector_path);
  } else {
    vector_path = p.string("solution") == "file" ? p.string("solution_file") : "";
    x_or_b = known_solution(p, rows);
  }
  if (size_of(x_or_b) != rows)
    throw InputError(vector_path + ": the vector has " + std::to_string(size_of(x_or_b)) +
                     " entries, the matrix " + path + " has " + std::to_string(rows) + " rows");
  // One scalar type for the whole system: a real matrix meets a complex vector as complex.
  if (is_complex(x_or_b) && scalar_of(a) == ScalarKind::Real) a = to_complex(std::move(a));
  if (scalar_of(a) == ScalarKind::Complex) x_or_b = to_complex(x_or_b);

  if (rhs == "product") {
    Vector b = multiply(a, x_or_b);
    return {std::move(a), std::move(b), std::move(x_or_b)};
  }
  return {std::move(a), std::move(x_or_b), std::nullopt};
}

}  // namespace

Schema schema() {
  return {
      ParamSpec::string("matrix", "",
                        "Path of the Matrix Market file holding A (coordinate or array)")
          .input_file(),
      ParamSpec::choice("rhs", "ones", {"ones", "file", "product"},
                        "b: all ones, read from rhs_file, or A times the known solution"),
      ParamSpec::string("rhs_file", "", "Matrix Market vector (n x 1) for rhs = \"file\"")
          .input_file(),
      ParamSpec::choice(
          "solution", "ones", {"ones", "ramp", "file"},
          "Known x for rhs = \"product\": all ones, x_i = 1 + i/n, or read from solution_file"),
      ParamSpec::string("solution_file", "",
                        "Matrix Market vector (n x 1) for solution = \"file\"")
          .input_file(),
      ParamSpec::choice("partition", "scotch", {"scotch", "contiguous"},
                        "Over several ranks: rows split by Scotch's graph partitioner (fewest "
                        "couplings between ranks), or in contiguous index ranges"),
  };
}

MatrixFileModel::MatrixFileModel(const PluginContext& ctx)
    : path_(ctx.params.string("matrix")), comm_(ctx.comm) {
  const Parameters& p = ctx.params;
  require_file_parameter(p, "matrix", "(the matrix A)");
  const std::string& rhs = p.string("rhs");
  if (rhs == "file") require_file_parameter(p, "rhs_file", "when rhs = \"file\"");
  if (rhs == "product" && p.string("solution") == "file")
    require_file_parameter(p, "solution_file", "when solution = \"file\"");

  const auto start = std::chrono::steady_clock::now();
  if (comm_->size() > 1) {
    read_and_scatter(p);
  } else {
    System s = read_system(p, path_);
    matrix_ = std::make_shared<const Operator>(std::move(s.a));
    rhs_ = std::move(s.rhs);
    exact_ = std::move(s.exact);
  }
  read_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!ctx.log) return;
  if (const auto rows = distributed_rows_of(*matrix_))
    ctx.log->info("matrix-file: {} is {} x {} {}, read by rank 0 alone, its rows dealt out by "
                  "{}; rank {} holds {} rows, {} ghosts and {} stored values ({:.2f} s)",
                  path_, rows->global_rows, rows->global_rows, to_string(scalar_of(*matrix_)),
                  partition_.method, comm_->rank(), rows->rows(), rows->ghosts.size(),
                  extent_of(*matrix_).stored, read_seconds_);
  else
    ctx.log->info("matrix-file: {} is {} x {} {} {} ({:.2f} s to read)", path_, rows_of(*matrix_),
                  extent_of(*matrix_).cols, to_string(scalar_of(*matrix_)),
                  to_string(kind_of(*matrix_)), read_seconds_);
}

// Over several ranks rank 0 alone reads the files, partitions the rows and sends each rank
// its rows of A, b and the known x, so that no other rank ever holds the whole system. A
// failure there (a malformed or missing file, Scotch) reaches every rank through from_root:
// rank 0 reports it at its line, the others end with its exit code instead of waiting.
void MatrixFileModel::read_and_scatter(const Parameters& p) {
  // What every rank needs besides its rows: the system's scalar, whether x is known, the
  // partition's measures, then the owner of every row.
  struct Header {
    std::uint8_t complex = 0, exact = 0;
    std::int64_t edge_cut = 0;
    double imbalance = 1.0;
  };
  const bool contiguous = p.string("partition") == "contiguous";
  std::optional<System> whole;  // rank 0's
  const std::string bytes = from_root(*comm_, 0, [&] {
    System s = read_system(p, path_);
    // An array file's dense matrix is taken by its non-zeros.
    if (kind_of(s.a) == OperatorKind::Dense) s.a = convert(s.a, OperatorKind::Csr, {}).op;
    const RowPartition partition = std::visit(
        [&](const auto& m) -> RowPartition {
          if constexpr (requires { m.row_ptr; })
            return contiguous ? contiguous_rows(m.row_ptr, m.col_idx, comm_->size())
                              : partition_rows(m.row_ptr, m.col_idx, comm_->size());
          else
            throw InputError("matrix-file: unexpected operator kind");
        },
        s.a);
    const Header h{static_cast<std::uint8_t>(scalar_of(s.a) == ScalarKind::Complex),
                   static_cast<std::uint8_t>(s.exact.has_value()), partition.edge_cut,
                   partition.imbalance};
    std::string out(reinterpret_cast<const char*>(&h), sizeof h);
    out.append(reinterpret_cast<const char*>(partition.owner.data()),
               partition.owner.size() * sizeof(int));
    whole = std::move(s);
    return out;
  });
  Header h;
  std::memcpy(&h, bytes.data(), sizeof h);
  std::vector<int> owner((bytes.size() - sizeof h) / sizeof(int));
  std::memcpy(owner.data(), bytes.data() + sizeof h, owner.size() * sizeof(int));
  partition_.method = contiguous ? "contiguous" : "scotch";
  partition_.edge_cut = h.edge_cut;
  partition_.imbalance = h.imbalance;

  const auto scatter = [&](auto scalar) {
    using T = decltype(scalar);
    const CsrMatrix<T> none;
    matrix_ = std::make_shared<const Operator>(
        scatter_rows<T>(whole ? std::get<CsrMatrix<T>>(whole->a) : none, owner, 0, *comm_));
    const auto entries = [&](const std::optional<Vector>& v) {
      return scatter_vector<T>(v ? std::span<const T>(std::get<std::vector<T>>(*v))
                                 : std::span<const T>(),
                               owner, 0, *comm_);
    };
    rhs_ = entries(whole ? std::optional<Vector>(std::move(whole->rhs)) : std::nullopt);
    if (h.exact) exact_ = entries(whole ? std::move(whole->exact) : std::nullopt);
  };
  if (h.complex)
    scatter(complex{});
  else
    scatter(0.0);
}

std::vector<Observable> MatrixFileModel::observables(const Vector& x) const {
  if (is_complex(x) != is_complex(rhs_) || size_of(x) != size_of(rhs_)) return {};
  std::vector<Observable> out{
      {"relative_residual",
       std::visit(
           [&](const auto& v) {
             using V = std::decay_t<decltype(v)>;
             return relative_residual(*matrix_, std::span(std::get<V>(rhs_)), std::span(v));
           },
           x)}};
  if (exact_) {
    // Over ranks each holds its rows: the squares are added over the ranks.
    double squares[2] = {std::pow(norm(difference(x, *exact_)), 2), std::pow(norm(*exact_), 2)};
    comm_->sum(squares);
    const double error = std::sqrt(squares[0]), e_norm = std::sqrt(squares[1]);
    out.push_back({"relative_error", e_norm > 0 ? error / e_norm : error});
  }
  return out;
}

Facts MatrixFileModel::facts() const {
  const Operator& a = *matrix_;
  const std::size_t stored = extent_of(a).stored;
  Facts f{{"matrix", path_},
          {"rows", std::to_string(rows_of(a))},
          {"storage", std::string(to_string(kind_of(a)))},
          {"scalar", std::string(to_string(scalar_of(a)))},
          {"stored_values", std::to_string(stored)},
          {"read_seconds", std::to_string(read_seconds_)}};
  if (const auto rows = distributed_rows_of(a)) {
    // Rank 0 writes the record: its own rows, and the whole matrix's.
    f[1] = {"rows", std::to_string(rows->global_rows)};
    f.emplace_back("rank0_rows", std::to_string(rows->rows()));
    f.emplace_back("rank0_ghosts", std::to_string(rows->ghosts.size()));
    f.emplace_back("partition", partition_.method);
    f.emplace_back("edge_cut", std::to_string(partition_.edge_cut));
    f.emplace_back("imbalance", fmt::format("{:.4f}", partition_.imbalance));
  }
  return f;
}

}  // namespace solvent::matrix_file
