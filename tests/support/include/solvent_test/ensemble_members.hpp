#pragma once
// Members of an angiogenesis-1d ensemble for the batched tests and ensemble-bench: parameter
// sets drawn around the julia set, and an observer that keeps a member's last report.
#include <solvent/observer.hpp>
#include <solvent/plugin_factory.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace solvent::test {

// `count` parameter sets on M points: every diffusion and rate drawn in [0.6, 1.4] times the
// julia set's (diffusions 0.1, the rest 1), from `seed`.
inline std::vector<plugins::Settings> random_members(std::size_t count, std::int64_t m,
                                                     std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> factor(0.6, 1.4);
  std::vector<plugins::Settings> members;
  for (std::size_t b = 0; b < count; ++b) {
    plugins::Settings s{{"M", m}};
    for (const char* key : {"dC", "dP", "dI"}) s[std::string("parameters.") + key] = 0.1 * factor(rng);
    for (const char* key : {"k1", "k2", "k3", "k4", "k5", "k6", "a1", "a2", "a3", "a4"})
      s[std::string("parameters.") + key] = factor(rng);
    members.push_back(std::move(s));
  }
  return members;
}

// The last step reported: its number, observables and (where kept) state.
class LastReport : public Observer {
 public:
  explicit LastReport(bool keep_state = true) : keep_state_(keep_state) {}
  void on_step(const StepInfo& info, std::span<const double> u,
               std::span<const Observable> obs) override {
    step = info.step;
    observables.assign(obs.begin(), obs.end());
    if (keep_state_) state.assign(u.begin(), u.end());
  }
  std::int64_t step = 0;
  std::vector<Observable> observables;
  std::vector<double> state;

 private:
  bool keep_state_;
};

}  // namespace solvent::test
