#pragma once
#include <solvent/grid/grid_blocks.hpp>
#include <solvent/model.hpp>
#include <solvent/plugin.hpp>
#include <solvent_family_angiogenesis_3d/parameters.hpp>

#include <optional>

namespace solvent::angiogenesis_3d {

// The model is its parameter block: the hybrid dynamics (stencil coefficients, tip rules)
// live in the headers of include/angiogenesis3d, advanced by "explicit-stencil3d". Over
// several ranks it also decides how the grid is cut into blocks, when it is made, so that
// a split that does not fit is refused with the configuration.
class Angiogenesis3dModel final : public solvent::Model {
 public:
  explicit Angiogenesis3dModel(const solvent::PluginContext& ctx);
  void* extension(std::string_view name) override;
  solvent::Facts facts() const override;
  const Parameters& parameters() const { return p_; }

 private:
  Parameters p_{};
  std::optional<solvent::GridBlocks> blocks_;  // over several ranks
};

}  // namespace solvent::angiogenesis_3d
