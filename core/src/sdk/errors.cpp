#include <solvent/errors.hpp>

namespace solvent {
namespace {
std::string join_lines(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) {
    if (!s.empty()) s += '\n';
    s += l;
  }
  return s;
}
}  // namespace

ConfigError::ConfigError(std::vector<std::string> problems)
    : Error(join_lines(problems)), problems_(std::move(problems)) {}

ConfigError ConfigError::prefixed(const std::string& prefix) const {
  auto problems = problems_;
  for (auto& p : problems) p = prefix + ": " + p;
  return ConfigError(std::move(problems));
}

}  // namespace solvent
