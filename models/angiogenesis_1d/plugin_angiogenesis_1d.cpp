#include "src/angiogenesis_1d_model.hpp"

SOLVENT_PLUGIN(solvent::describe_model<solvent::angiogenesis_1d::Angiogenesis1d>(
    "angiogenesis-1d", "1.0.0",
    "1D four-species tumour angiogenesis (C, P, I, F) of De Luca et al., as an IMEX problem",
    &solvent::angiogenesis_1d::schema))
