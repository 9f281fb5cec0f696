#include "src/matrix_file_model.hpp"

SOLVENT_PLUGIN(solvent::distributed(solvent::describe_model<solvent::matrix_file::MatrixFileModel>(
    "matrix-file", "1.0.0",
    "A x = b for a Matrix Market matrix (b from a file, ones, or A times a known x)",
    &solvent::matrix_file::schema)))
