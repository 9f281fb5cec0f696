#include "src/angiogenesis_1d_model.hpp"

#include <solvent_family_angiogenesis_1d/explicit_term.hpp>

#include <fmt/format.h>

#include <cmath>
#include <random>

namespace solvent::angiogenesis_1d {

namespace {
constexpr std::size_t C = 0, P = 1, I = 2, F = 3;
}

Angiogenesis1d::Angiogenesis1d(const PluginContext& ctx)
    : m_(std::size_t(ctx.params.integer("M"))),
      h_(1.0 / double(m_ - 1)),
      initial_(ctx.params.string("initial.kind")),
      front_(ctx.params.real("initial.front")),
      p0_(ctx.params.real("initial.P")),
      i0_(ctx.params.real("initial.I")),
      f0_(ctx.params.real("initial.F")),
      random_amplitude_(ctx.params.real("initial.amplitude")) {
  // Checked before anything of size M exists. Per point: the three grid arrays here; the
  // IMEX integrator's seven state vectors of the 4 species; Lin (10 M - 6 non-zeros) and
  // I - c Lin (11 M - 6) in CSR, 12 bytes a non-zero and 4 a row; the band ordering.
  const double m = double(m_);
  require_memory("model 'angiogenesis-1d'",
                 3 * 8 * m + 7 * 4 * 8 * m + 21 * 12 * m + 2 * 4 * 4 * m + 4 * 4 * m,
                 fmt::format("M = {} points (its grids, the IMEX integrator's state vectors and "
                             "CSR matrices; the linear solver's own storage is not counted)",
                             m_),
                 "reduce model.M");
  const auto& p = ctx.params;
  k_ = {p.real("parameters.dC"), p.real("parameters.dP"),  p.real("parameters.dI"),
        p.real("parameters.k1"), p.real("parameters.k2"),  p.real("parameters.k3"),
        p.real("parameters.k4"), p.real("parameters.k5"),  p.real("parameters.k6"),
        p.real("parameters.a1"), p.real("parameters.a2"),  p.real("parameters.a3"),
        p.real("parameters.a4"), p.real("parameters.eps0")};
  x_.resize(m_);
  taf_.resize(m_);
  for (std::size_t i = 0; i < m_; ++i) {
    x_[i] = double(i) * h_;
    taf_[i] = std::exp(-(1.0 - x_[i]) * (1.0 - x_[i]) / k_.eps0);
  }
  taf_flux_.resize(m_ - 1);
  for (std::size_t i = 0; i + 1 < m_; ++i)
    taf_flux_[i] = (taf_[i + 1] - taf_[i]) / h_ / (1.0 + k_.a4 * 0.5 * (taf_[i] + taf_[i + 1]));
  if (ctx.params.string("mode") == "manufactured") manufactured_.emplace(k_, x_);
  member_ = {k_, std::int64_t(m_), h_, taf_.data(), taf_flux_.data(), manufactured_.has_value()};
}

FieldLayout Angiogenesis1d::layout() const { return {{"C", "P", "I", "F"}, {{"x", x_}}}; }

// Four densities: none may go negative (the projection, where on, sees to it). A manufactured
// solution is a test function, not a density.
std::vector<Range> Angiogenesis1d::ranges() const {
  if (manufactured_) return {};
  return std::vector<Range>(4, Range{0.0});
}

void Angiogenesis1d::initial_state(std::span<double> u, std::uint64_t seed) const {
  if (manufactured_) return manufactured_->state(0.0, u);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  const bool random = initial_ == "random";
  for (std::size_t i = 0; i < m_; ++i) u[C * m_ + i] = x_[i] < front_ ? 1.0 : 0.0;
  for (auto [s, v] : {std::pair{P, p0_}, std::pair{I, i0_}, std::pair{F, f0_}})
    for (std::size_t i = 0; i < m_; ++i)
      u[s * m_ + i] = random ? random_amplitude_ * uniform(rng) : v;
}

CsrMatrix<double> Angiogenesis1d::linear_operator() const {
  CsrMatrix<double> l;
  l.rows = l.cols = 4 * m_;
  // Sized once (10 M - 6 non-zeros), not grown entry by entry: a batch makes one per member.
  l.row_ptr.reserve(4 * m_ + 1);
  l.col_idx.reserve(10 * m_);
  l.values.reserve(10 * m_);
  l.row_ptr.push_back(0);
  const double ih2 = 1.0 / (h_ * h_);
  auto laplacian_row = [&](std::size_t s, std::size_t i, double d, double diagonal_extra) {
    const auto base = std::int32_t(s * m_);
    auto add = [&](std::size_t j, double v) {
      l.col_idx.push_back(base + std::int32_t(j));
      l.values.push_back(v);
    };
    if (i == 0) {  // ghost point u_{-1} = u_1
      add(0, -2 * d * ih2 + diagonal_extra);
      add(1, 2 * d * ih2);
    } else if (i == m_ - 1) {
      add(i - 1, 2 * d * ih2);
      add(i, -2 * d * ih2 + diagonal_extra);
    } else {
      add(i - 1, d * ih2);
      add(i, -2 * d * ih2 + diagonal_extra);
      add(i + 1, d * ih2);
    }
  };
  auto end_row = [&] { l.row_ptr.push_back(std::int32_t(l.values.size())); };
  for (std::size_t i = 0; i < m_; ++i, end_row()) laplacian_row(C, i, k_.dC, 0.0);
  for (std::size_t i = 0; i < m_; ++i, end_row()) {
    l.col_idx.push_back(std::int32_t(C * m_ + i));  // production k4 T(x) C
    l.values.push_back(k_.k4 * taf_[i]);
    laplacian_row(P, i, k_.dP, -k_.k6);
  }
  for (std::size_t i = 0; i < m_; ++i, end_row()) laplacian_row(I, i, k_.dI, 0.0);
  for (std::size_t i = 0; i < m_; ++i) end_row();  // F has no linear part
  return l;
}

std::vector<std::int32_t> Angiogenesis1d::band_ordering() const {
  // C and P interleaved node by node (C_0, P_0, C_1, P_1, ...: the only coupled pair, P_i
  // depends on C_i), then I, then F: 2 sub- and 2 super-diagonals. Interleaving all four
  // species per node would give 4 and 4, twice the work per solve.
  std::vector<std::int32_t> p(4 * m_);
  for (std::size_t i = 0; i < m_; ++i) {
    p[2 * i] = std::int32_t(C * m_ + i);
    p[2 * i + 1] = std::int32_t(P * m_ + i);
    p[2 * m_ + i] = std::int32_t(I * m_ + i);
    p[3 * m_ + i] = std::int32_t(F * m_ + i);
  }
  return p;
}

void Angiogenesis1d::explicit_term(double t, std::span<const double> u,
                                   std::span<double> out) const {
  const double* c = u.data() + C * m_;
  const double* p = u.data() + P * m_;
  const double* in = u.data() + I * m_;
  const double* f = u.data() + F * m_;
  // The family's point functions (explicit_term.hpp), which the batched engines call too;
  // here each midpoint flux is computed once. The fluxes go first, into P's part of out
  // (written over below), and then the rates of C: two loops of independent points, which
  // the compiler vectorises, divisions by h included (one point after another, carrying the
  // flux, the divisions were most of the time).
  double* flux = out.data() + P * m_;
  for (std::size_t i = 0; i + 1 < m_; ++i)
    flux[i] = taxis_flux(k_, h_, taf_flux_[i], c[i], c[i + 1], in[i], in[i + 1], f[i], f[i + 1]);
  out[C * m_] = c_rate(k_, h_, 0, m_, 0.0, flux[0], c[0]);
  for (std::size_t i = 1; i + 1 < m_; ++i)
    out[C * m_ + i] = c_rate(k_, h_, i, m_, flux[i - 1], flux[i], c[i]);
  out[C * m_ + m_ - 1] = c_rate(k_, h_, m_ - 1, m_, flux[m_ - 2], 0.0, c[m_ - 1]);
  for (std::size_t i = 0; i < m_; ++i) {
    const Reactions r = reactions(k_, taf_[i], p[i], in[i], f[i]);
    out[P * m_ + i] = r.p;
    out[I * m_ + i] = r.i;
    out[F * m_ + i] = r.f;
  }
  if (manufactured_) manufactured_->add_source(t, out);
}

void* Angiogenesis1d::extension(std::string_view name) {
  if (void* p = solvent::offer<MemberFamily>(name, member_)) return p;
  return solvent::offer<EnsembleFamily>(name, ensemble_);
}

bool Angiogenesis1d::exact_state(double t, std::span<double> u) const {
  if (!manufactured_) return false;
  manufactured_->state(t, u);
  return true;
}

namespace {
// Whether some v[i] < 0: eight running minima side by side, which the compiler vectorises
// (one running minimum, or a branch per entry, takes an entry at a time).
bool any_negative(std::span<const double> v) {
  constexpr std::size_t lanes = 8;
  double lowest[lanes] = {};
  std::size_t i = 0;
  for (; i + lanes <= v.size(); i += lanes)
    for (std::size_t k = 0; k < lanes; ++k) lowest[k] = v[i + k] < lowest[k] ? v[i + k] : lowest[k];
  bool any = false;
  for (; i < v.size(); ++i) any = any || v[i] < 0.0;
  for (double l : lowest) any = any || l < 0.0;
  return any;
}
}  // namespace

double Angiogenesis1d::project(std::span<double> u) const {
  // Most steps leave no density negative: a fast search for one, and the removal only where
  // it found one.
  if (!any_negative(u)) return 0.0;
  double removed = 0.0;
  for (auto& v : u)
    if (v < 0.0) {
      removed -= v;
      v = 0.0;
    }
  return removed;
}

std::vector<Observable> Angiogenesis1d::observables(double /*t*/, std::span<const double> u) const {
  // Named once: observables are taken every step, and formatting names showed in profiles.
  static const std::string names[4][3] = {{"mass_C", "min_C", "max_C"},
                                          {"mass_P", "min_P", "max_P"},
                                          {"mass_I", "min_I", "max_I"},
                                          {"mass_F", "min_F", "max_F"}};
  // The four species in one pass over the points: each mass is a chain of dependent
  // additions, and four side by side overlap where one after another they did not. Each
  // species' sums still run over its points in order. The minimum is the first smallest
  // value and the maximum the last largest (std::minmax_element's, which tells 0 from -0).
  const double* v[4];
  double mass[4], lo[4], hi[4];
  for (std::size_t s = 0; s < 4; ++s) {
    v[s] = u.data() + s * m_;
    mass[s] = 0.5 * (v[s][0] + v[s][m_ - 1]);
    lo[s] = hi[s] = v[s][0];
  }
  auto extremes = [&](std::size_t s, double x) {
    lo[s] = x < lo[s] ? x : lo[s];
    hi[s] = x < hi[s] ? hi[s] : x;
  };
  for (std::size_t i = 1; i + 1 < m_; ++i)
    for (std::size_t s = 0; s < 4; ++s) {
      mass[s] += v[s][i];
      extremes(s, v[s][i]);
    }
  std::vector<Observable> out;
  out.reserve(12);
  for (std::size_t s = 0; s < 4; ++s) {
    extremes(s, v[s][m_ - 1]);
    out.push_back({names[s][0], mass[s] * h_});
    out.push_back({names[s][1], lo[s]});
    out.push_back({names[s][2], hi[s]});
  }
  return out;
}

Facts Angiogenesis1d::facts() const {
  return {{"grid_spacing", fmt::format("{:.17g}", h_)}, {"unknowns", std::to_string(4 * m_)}};
}

}  // namespace solvent::angiogenesis_1d
