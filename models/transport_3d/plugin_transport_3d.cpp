#include "src/transport_model.hpp"

SOLVENT_PLUGIN(solvent::distributed(solvent::describe_model<solvent::transport_3d::TransportModel>(
    "transport-3d", "1.0.0",
    "time-dependent 3D convection-diffusion-reaction u_t + v.grad u = mu lap u - k u + f on the "
    "seven-point grid (box or basin), manufactured solution or a released tracer",
    &solvent::transport_3d::transport_schema)))
