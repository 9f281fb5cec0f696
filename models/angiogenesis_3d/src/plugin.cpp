#include "angiogenesis3d_model.hpp"
#include "schema.hpp"

#include <solvent/plugin.hpp>

SOLVENT_PLUGIN(solvent::describe_model<angiogenesis3d::Angiogenesis3dModel>(
    "angiogenesis-3d", "1.0.0",
    "Anderson-Chaplain hybrid tumour angiogenesis in 3D: fields n, f, c and discrete tip cells",
    &angiogenesis3d::model_schema))
