#include "src/checkpoint.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <iterator>

namespace solvent::imex {

namespace {

namespace fs = std::filesystem;

constexpr std::array<char, 8> magic = {'S', 'V', 'I', 'M', 'E', 'X', 'C', 'K'};
// magic, version, step, t, dt, projected, n, name length: what checkpoint_step reads.
constexpr std::size_t header_size = 8 + 4 + 8 + 8 + 8 + 8 + 8 + 4;

// FNV-1a: a bit flipped anywhere in the file is found, without a dependency for it.
std::uint64_t checksum(std::string_view bytes) {
  std::uint64_t h = 14695981039346656037ull;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

template <class T>
void put(std::string& out, const T& v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

void put(std::string& out, const std::vector<double>& v) {
  out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
}

// Reads the fields in the order they were put; the caller has checked the size first.
class Cursor {
 public:
  explicit Cursor(std::string_view bytes) : bytes_(bytes) {}
  template <class T>
  T get() {
    T v;
    std::memcpy(&v, bytes_.data() + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  void get(std::vector<double>& v) {
    std::memcpy(v.data(), bytes_.data() + at_, v.size() * sizeof(double));
    at_ += v.size() * sizeof(double);
  }
  std::string_view get(std::size_t n) {
    const auto s = bytes_.substr(at_, n);
    at_ += n;
    return s;
  }

 private:
  std::string_view bytes_;
  std::size_t at_ = 0;
};

struct Header {
  std::int64_t step;
  double t, dt, projected;
  std::uint64_t n;
  std::uint32_t name_length;
};

// The first `count` of the state's five vectors, in the file's order.
template <class State>
auto kept_of(State& s, std::size_t count) {
  std::vector<decltype(&s.u)> all = {&s.u, &s.u_before, &s.explicit_now, &s.guess, &s.half};
  all.resize(std::min(count, all.size()));
  return all;
}

// Every message ends with the way out: the run cannot be continued from this file.
[[noreturn]] void refuse(const fs::path& file, const std::string& what) {
  throw InputError(fmt::format("{}: {}; rerun with --overwrite", file.string(), what));
}

// The fixed header of `bytes`, the first bytes of `file`: magic and version checked first, so
// that a file of another format or version is named as such rather than as damaged.
Header parse_header(std::string_view bytes, const fs::path& file) {
  if (bytes.size() < header_size)
    refuse(file, fmt::format("a damaged checkpoint: {} bytes, cut short before its {}-byte "
                             "header ends",
                             bytes.size(), header_size));
  Cursor in(bytes);
  if (in.get(magic.size()) != std::string_view(magic.data(), magic.size()))
    refuse(file,
           "not a checkpoint of the IMEX integrators (its first bytes are not the "
           "format's mark)");
  if (const auto version = in.get<std::uint32_t>(); version != checkpoint_version)
    refuse(file, fmt::format("checkpoint format version {}, this build reads version {}", version,
                             checkpoint_version));
  Header h{};
  h.step = in.get<std::int64_t>();
  h.t = in.get<double>();
  h.dt = in.get<double>();
  h.projected = in.get<double>();
  h.n = in.get<std::uint64_t>();
  h.name_length = in.get<std::uint32_t>();
  return h;
}

// At most `limit` bytes of `file` (all of it by default).
std::string read_bytes(const fs::path& file, std::streamsize limit = -1) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot read the checkpoint", file.string()));
  if (limit < 0) return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::string bytes(static_cast<std::size_t>(limit), '\0');
  in.read(bytes.data(), limit);
  bytes.resize(static_cast<std::size_t>(in.gcount()));
  return bytes;
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
  std::string out(magic.data(), magic.size());
  put(out, checkpoint_version);
  put(out, s.step);
  put(out, s.t);
  put(out, dt);
  put(out, s.projected);
  put(out, static_cast<std::uint64_t>(s.u.size()));
  put(out, static_cast<std::uint32_t>(method.size()));
  out.append(method);
  const auto vectors = s.kept();
  put(out, static_cast<std::uint32_t>(vectors.size()));
  put(out, static_cast<std::uint32_t>(s.scalars.size()));
  put(out, s.scalars);
  for (const auto* v : vectors) put(out, *v);
  put(out, checksum(out));
  return out;
}

std::optional<std::int64_t> checkpoint_step(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return std::nullopt;
  return parse_header(read_bytes(file, header_size), file).step;
}

LoopState read_checkpoint(const fs::path& file, std::string_view method, double dt, std::size_t n,
                          std::size_t vectors, std::size_t scalars) {
  const std::string bytes = read_bytes(file);
  const Header h = parse_header(bytes, file);
  // The sizes the header promises, before anything past them is read.
  const std::uint64_t counts_end = header_size + std::uint64_t(h.name_length) + 8;
  if (h.n > bytes.size() || counts_end + sizeof(std::uint64_t) > bytes.size())
    refuse(file, fmt::format("a damaged checkpoint: {} bytes where its header says it holds a "
                             "state of {} values",
                             bytes.size(), h.n));
  Cursor counts(std::string_view(bytes).substr(counts_end - 8));
  const auto v = counts.get<std::uint32_t>();
  const auto k = counts.get<std::uint32_t>();
  if (v > fixed_step_vectors || k > bytes.size())
    refuse(file,
           fmt::format("a damaged checkpoint: it says it holds {} vectors and {} scalars", v, k));
  const std::uint64_t expected =
      counts_end + (k + v * h.n) * sizeof(double) + sizeof(std::uint64_t);
  if (bytes.size() != expected)
    refuse(file, fmt::format("a damaged checkpoint: {} bytes where its header says {}",
                             bytes.size(), expected));
  const std::string_view body(bytes.data(), bytes.size() - sizeof(std::uint64_t));
  Cursor tail(std::string_view(bytes).substr(body.size()));
  if (tail.get<std::uint64_t>() != checksum(body))
    refuse(file, "a damaged checkpoint: its checksum does not match its contents");
  Cursor in(body);
  in.get(header_size);
  const auto written_by = in.get(h.name_length);
  if (written_by != method)
    refuse(file,
           fmt::format("a checkpoint of {}, this run's integrator is {}", written_by, method));
  if (h.n != n)
    refuse(file,
           fmt::format("the checkpoint holds a state of {} values, this model's has {}", h.n, n));
  if (h.dt != dt)
    refuse(file,
           fmt::format("the checkpoint was written with dt = {}, this run has dt = {}", h.dt, dt));
  // The method's name matched, so a count that differs is the file's damage.
  if (v != vectors || k != scalars)
    refuse(file, fmt::format("a damaged checkpoint: {} vectors and {} scalars where {} keeps {} "
                             "and {}",
                             v, k, method, vectors, scalars));
  in.get(8);
  LoopState s(n, vectors, scalars);
  s.step = h.step;
  s.t = h.t;
  s.projected = h.projected;
  in.get(s.scalars);
  for (auto* x : s.kept()) in.get(*x);
  return s;
}

}  // namespace solvent::imex
