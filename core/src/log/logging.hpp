#pragma once
#include <spdlog/logger.h>

#include <memory>

namespace solvent {
// The one logger of a process: messages to stderr; plugins receive it in their context.
std::shared_ptr<spdlog::logger> core_logger();
}  // namespace solvent
