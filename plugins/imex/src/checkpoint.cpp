#include "src/checkpoint.hpp"

#include <algorithm>

namespace solvent::imex {

namespace {

// The first `count` of the state's five vectors, in the file's order.
template <class State>
auto kept_of(State& s, std::size_t count) {
  std::vector<decltype(&s.u)> all = {&s.u, &s.u_before, &s.explicit_now, &s.guess, &s.half};
  all.resize(std::min(count, all.size()));
  return all;
}

}  // namespace

LoopState::LoopState(std::size_t n, std::size_t vectors, std::size_t scalar_count)
    : scalars(scalar_count), vector_count(vectors) {
  for (auto* v : kept()) v->resize(n);
}

std::vector<std::vector<double>*> LoopState::kept() { return kept_of(*this, vector_count); }
std::vector<const std::vector<double>*> LoopState::kept() const {
  return kept_of(*this, vector_count);
}

std::string checkpoint_bytes(const LoopState& s, std::string_view method, double dt) {
  StepperCheckpoint c{s.step, s.t, {s.projected}, {}};
  c.scalars.insert(c.scalars.end(), s.scalars.begin(), s.scalars.end());
  for (const auto* v : s.kept()) c.vectors.push_back(*v);
  return solvent::checkpoint_bytes(c, method, dt);
}

LoopState read_checkpoint(const std::filesystem::path& file, std::string_view method, double dt,
                          std::size_t n, std::size_t vectors, std::size_t scalars) {
  auto c = solvent::read_checkpoint(file, {method, dt, n, vectors, scalars + 1});
  LoopState s(n, vectors, scalars);
  s.step = c.step;
  s.t = c.t;
  s.projected = c.scalars.front();
  std::copy(c.scalars.begin() + 1, c.scalars.end(), s.scalars.begin());
  auto kept = s.kept();
  for (std::size_t i = 0; i < kept.size(); ++i) kept[i]->swap(c.vectors[i]);
  return s;
}

}  // namespace solvent::imex
