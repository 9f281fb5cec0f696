#pragma once
#include <solvent/model.hpp>
#include <solvent/plugin.hpp>
#include <solvent_family_angiogenesis_3d/parameters.hpp>

namespace solvent::angiogenesis_3d {

// The model is its parameter block: the hybrid dynamics (stencil coefficients, tip rules)
// live in the headers of include/angiogenesis3d, advanced by "explicit-stencil3d".
class Angiogenesis3dModel final : public solvent::Model {
 public:
  explicit Angiogenesis3dModel(const solvent::PluginContext& ctx);
  void* extension(std::string_view name) override;
  solvent::Facts facts() const override;
  const Parameters& parameters() const { return p_; }

 private:
  Parameters p_{};
};

}  // namespace solvent::angiogenesis_3d
