#include <solvent/abi.hpp>

namespace solvent {
const char* version_string() noexcept { return SOLVENT_VERSION; }
}  // namespace solvent
