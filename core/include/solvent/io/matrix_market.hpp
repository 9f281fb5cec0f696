#pragma once
// Matrix Market (https://math.nist.gov/MatrixMarket/formats.html) reading and writing.
// Coordinate files become CsrMatrix (symmetric, skew-symmetric and hermitian storage is
// expanded to the full matrix; repeated entries are summed); array files become
// DenseMatrix. Integer and pattern fields read as real (a pattern entry is 1). A
// malformed file throws InputError whose message is "<file>:<line>: <what>".
#include <solvent/memory.hpp>
#include <solvent/operator.hpp>

#include <filesystem>
#include <string>
#include <string_view>

namespace solvent {

// How a matrix is stored in a file: general stores every entry, the others only the
// lower triangle (skew-symmetric: strictly lower) and imply the rest.
enum class MatrixSymmetry { General, Symmetric, SkewSymmetric, Hermitian };

// Besides the format's own rules, the reader refuses NaN and infinite entries, a hermitian
// diagonal entry with an imaginary part, sizes beyond 32-bit indices, and a header whose
// declared size needs more memory for the row pointers (coordinate) or the vector than
// memory_limit() allows (InputError naming both); no declared count is allocated for beyond
// what the file's bytes can hold.
Operator read_matrix_market(const std::filesystem::path& path);
// An n x 1 or 1 x n matrix, array or coordinate (missing entries are zero).
Vector read_matrix_market_vector(const std::filesystem::path& path);

// The same from text in memory: `name` stands for the file in messages, and storage that
// only the header's size declares is weighed against `limit` (the file versions pass
// memory_limit()).
Operator parse_matrix_market(std::string_view text, const std::string& name,
                             const MemoryLimit& limit);
Vector parse_matrix_market_vector(std::string_view text, const std::string& name,
                                  const MemoryLimit& limit);

// Coordinate format, values written in the shortest form that reads back exactly.
// A symmetry other than General writes the lower triangle only, after checking that the
// matrix has that symmetry (InputError naming the first entry that breaks it).
void write_matrix_market(const std::filesystem::path& path, const CsrMatrix<double>& a,
                         MatrixSymmetry symmetry = MatrixSymmetry::General);
void write_matrix_market(const std::filesystem::path& path, const CsrMatrix<complex>& a,
                         MatrixSymmetry symmetry = MatrixSymmetry::General);
// Array format, one column.
void write_matrix_market(const std::filesystem::path& path, const Vector& v);

}  // namespace solvent
