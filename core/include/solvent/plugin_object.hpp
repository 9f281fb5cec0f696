#pragma once
// Base of every object a plugin creates.
#include <string>
#include <utility>
#include <vector>

namespace solvent {

// Key/value facts an object adds to the run record (device name, iteration counts,
// the parameters an iterative method chose), written under its role's section.
using Facts = std::vector<std::pair<std::string, std::string>>;

class PluginObject {
 public:
  virtual ~PluginObject() = default;
  virtual Facts facts() const { return {}; }
};

}  // namespace solvent
