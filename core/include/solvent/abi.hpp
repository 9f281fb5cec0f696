#pragma once
// The plugin ABI version: the only number a plugin and the core must agree on exactly.
// Bump it whenever a type that crosses the library boundary changes layout or a virtual
// function is added, removed or reordered in an interface.
#include <cstdint>

#define SOLVENT_PLUGIN_ABI_VERSION 1u

namespace solvent {

inline constexpr std::uint32_t plugin_abi_version = SOLVENT_PLUGIN_ABI_VERSION;

// Solvent's release version; a plugin records the one it was built against.
const char* version_string() noexcept;

}  // namespace solvent
