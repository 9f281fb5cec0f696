#include "schema_angiogenesis_3d.hpp"
#include "src/angiogenesis_3d_model.hpp"

#include <solvent/plugin.hpp>

SOLVENT_PLUGIN(
    solvent::distributed(solvent::describe_model<solvent::angiogenesis_3d::Angiogenesis3dModel>(
        "angiogenesis-3d", "1.0.0",
        "Anderson-Chaplain hybrid tumour angiogenesis in 3D: fields f, c and discrete tip cells",
        &solvent::angiogenesis_3d::model_schema)))
