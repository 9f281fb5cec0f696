#include "log/logging.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>

namespace solvent {

std::shared_ptr<spdlog::logger> core_logger() {
  static auto log = [] {
    auto l = std::make_shared<spdlog::logger>(
        "solvent", std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
    l->set_pattern("%^[%l]%$ %v");
    return l;
  }();
  return log;
}

}  // namespace solvent
