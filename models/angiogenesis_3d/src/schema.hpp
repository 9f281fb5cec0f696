#pragma once
#include <solvent/parameters.hpp>

namespace angiogenesis3d {

// Every key of [model] for "angiogenesis-3d", with MODELS.md section 4's defaults.
solvent::Schema model_schema();

}  // namespace angiogenesis3d
