#pragma once
#include <solvent/parameters.hpp>

namespace solvent::angiogenesis_3d {

// Every key of [model] for "angiogenesis-3d", with the defaults of docs/models/angiogenesis-3d.md.
solvent::Schema model_schema();

}  // namespace solvent::angiogenesis_3d
