#include <solvent/errors.hpp>
#include <solvent/io/checkpoint.hpp>
#include <solvent/io/output.hpp>

#include "sdk/checked_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <span>
#include <vector>

#include <zlib.h>

namespace solvent {

namespace {

namespace fs = std::filesystem;

constexpr std::array<char, 8> magic = {'S', 'V', 'I', 'M', 'E', 'X', 'C', 'K'};
// mark, version, step, t, dt, n, name length: what checkpoint_step reads.
constexpr std::size_t header_size = 8 + 4 + 8 + 8 + 8 + 8 + 4;
// The most vectors a reader accepts before it checks the size they need: any integrator's
// loop state is a handful of them.
constexpr std::uint32_t max_vectors = 64;

// CRC-32 (zlib's, as Python's zlib.crc32 gives it) of `bytes`, continuing `crc`: a bit flipped
// anywhere is found. Chunks of a fixed length are checksummed over the host's threads and
// joined by crc32_combine, which gives the one-pass CRC exactly. (The format's first
// checksum, FNV-1a a byte at a time, took 1.2 s a GiB: 38 s for one process's checkpoint of
// a 1024^3 stencil.)
std::uint32_t crc32_of(std::string_view bytes, std::uint32_t crc = 0) {
  constexpr std::size_t chunk = std::size_t(1) << 24;
  const auto* data = reinterpret_cast<const Bytef*>(bytes.data());
  const std::size_t chunks = (bytes.size() + chunk - 1) / chunk;
  std::vector<uLong> part(chunks);
  // Threads only where there is more than one chunk: a small stepper's checkpoint is one.
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (std::ptrdiff_t c = 0; c < static_cast<std::ptrdiff_t>(chunks); ++c) {
    const std::size_t at = static_cast<std::size_t>(c) * chunk;
    part[static_cast<std::size_t>(c)] = crc32_z(0, data + at, std::min(chunk, bytes.size() - at));
  }
  uLong all = crc;
  for (std::size_t c = 0; c < chunks; ++c)
    all = crc32_combine(all, part[c],
                        static_cast<z_off_t>(std::min(chunk, bytes.size() - c * chunk)));
  return static_cast<std::uint32_t>(all);
}

std::string_view bytes_of(std::span<const double> v) {
  return {reinterpret_cast<const char*>(v.data()), v.size_bytes()};
}

template <class T>
void put(std::string& out, const T& v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

void put(std::string& out, std::span<const double> v) { out.append(bytes_of(v)); }
void put(std::string& out, const std::vector<double>& v) { out.append(bytes_of(v)); }

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
  double t, dt;
  std::uint64_t n;
  std::uint32_t name_length;
};

// Every message ends with the way out: the run cannot be continued from this file.
[[noreturn]] void refuse(const fs::path& file, const std::string& what) {
  throw InputError(fmt::format("{}: {}; rerun with --overwrite", file.string(), what));
}

// The fixed header of `bytes`, the first bytes of `file`: mark and version checked first, so
// that a file of another format or version is named as such rather than as damaged.
Header parse_header(std::string_view bytes, const fs::path& file) {
  if (bytes.size() < header_size)
    refuse(file, fmt::format("a damaged checkpoint: {} bytes, cut short before its {}-byte "
                             "header ends",
                             bytes.size(), header_size));
  Cursor in(bytes);
  if (in.get(magic.size()) != std::string_view(magic.data(), magic.size()))
    refuse(file,
           "not a checkpoint of Solvent's time steppers (its first bytes are not the format's "
           "mark)");
  if (const auto version = in.get<std::uint32_t>(); version != stepper_checkpoint_version)
    refuse(file, fmt::format("checkpoint format version {}, this build reads version {}", version,
                             stepper_checkpoint_version));
  Header h{};
  h.step = in.get<std::int64_t>();
  h.t = in.get<double>();
  h.dt = in.get<double>();
  h.n = in.get<std::uint64_t>();
  h.name_length = in.get<std::uint32_t>();
  return h;
}

// At most `limit` bytes of `file`.
std::string read_bytes(const fs::path& file, std::streamsize limit) {
  std::ifstream in(file, std::ios::binary);
  if (!in) refuse(file, "the checkpoint cannot be read (missing or not readable)");
  std::string bytes(static_cast<std::size_t>(limit), '\0');
  in.read(bytes.data(), limit);
  bytes.resize(static_cast<std::size_t>(in.gcount()));
  return bytes;
}

// Everything before the vectors.
std::string checkpoint_head(const CheckpointSource& s, std::string_view writer, double dt) {
  const std::uint64_t n = s.vectors.empty() ? 0 : s.vectors.front().size();
  for (const auto& v : s.vectors)
    if (v.size() != n)
      throw Error(fmt::format("{}: a checkpoint's vectors must be of one length ({} and {})",
                              writer, n, v.size()));
  std::string out(magic.data(), magic.size());
  put(out, stepper_checkpoint_version);
  put(out, s.step);
  put(out, s.t);
  put(out, dt);
  put(out, n);
  put(out, static_cast<std::uint32_t>(writer.size()));
  out.append(writer);
  put(out, static_cast<std::uint32_t>(s.vectors.size()));
  put(out, static_cast<std::uint32_t>(s.scalars.size()));
  put(out, s.scalars);
  return out;
}

// The file of checkpoint_bytes, written from the vectors as they are: no copy of the state
// as one string (a 1024^3 stencil's is 34.4 GB).
void write_checkpoint_file(const fs::path& file, const CheckpointSource& s, std::string_view writer,
                           double dt) {
  const std::string head = checkpoint_head(s, writer, dt);
  write_atomically(file, [&](CheckedFile& f) {
    f.write(head);
    std::uint32_t crc = crc32_of(head);
    for (const auto& v : s.vectors) {
      crc = crc32_of(bytes_of(v), crc);
      f.write(bytes_of(v));
    }
    std::string tail;
    put(tail, std::uint64_t{crc});
    f.write(tail);
  });
}

CheckpointSource source_of(const StepperCheckpoint& s) {
  CheckpointSource v{s.step, s.t, s.scalars, {}};
  for (const auto& x : s.vectors) v.vectors.emplace_back(x);
  return v;
}

}  // namespace

std::string checkpoint_bytes(const StepperCheckpoint& s, std::string_view writer, double dt) {
  std::string out = checkpoint_head(source_of(s), writer, dt);
  for (const auto& v : s.vectors) put(out, v);
  put(out, std::uint64_t{crc32_of(out)});
  return out;
}

std::optional<std::int64_t> checkpoint_step(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return std::nullopt;
  return parse_header(read_bytes(file, header_size), file).step;
}

namespace {

// A checkpoint checked whole (mark, version, the size its header and counts promise,
// checksum): every byte before its vectors, its header, its counts of vectors (v) and
// scalars (k), and, where asked for, the vectors, read from the file straight into their own
// memory (else through a bounded buffer), so that a large state is never held twice.
struct Checked {
  std::string head;
  Header h{};
  std::uint32_t v = 0, k = 0;
  std::vector<std::vector<double>> vectors;
  std::string_view writer() const {
    return std::string_view(head).substr(header_size, h.name_length);
  }
};

Checked read_checked(const fs::path& file, bool keep_vectors) {
  std::ifstream in(file, std::ios::binary);
  std::error_code ec;
  const std::uint64_t size = fs::file_size(file, ec);
  if (!in || ec) refuse(file, "the checkpoint cannot be read (missing or not readable)");
  // The size was checked against the header's promise before anything past the header is
  // read: a read that comes back short is a file changed under the reader.
  const auto read = [&](char* to, std::uint64_t count) {
    in.read(to, static_cast<std::streamsize>(count));
    if (static_cast<std::uint64_t>(in.gcount()) != count)
      refuse(file, "the checkpoint cannot be read (it changed while it was read)");
  };
  Checked c;
  c.head.resize(std::min<std::uint64_t>(size, header_size));
  read(c.head.data(), c.head.size());
  const Header h = c.h = parse_header(c.head, file);
  // The sizes the header promises, before anything past them is read.
  const std::uint64_t counts_end = header_size + std::uint64_t(h.name_length) + 8;
  if (h.n > size || counts_end + sizeof(std::uint64_t) > size)
    refuse(file, fmt::format("a damaged checkpoint: {} bytes where its header says it holds "
                             "vectors of {} values",
                             size, h.n));
  c.head.resize(counts_end);
  read(c.head.data() + header_size, counts_end - header_size);
  Cursor counts(std::string_view(c.head).substr(counts_end - 8));
  const auto v = c.v = counts.get<std::uint32_t>();
  const auto k = c.k = counts.get<std::uint32_t>();
  if (v > max_vectors || k > size)
    refuse(file,
           fmt::format("a damaged checkpoint: it says it holds {} vectors and {} scalars", v, k));
  const std::uint64_t expected_size =
      counts_end + (k + v * h.n) * sizeof(double) + sizeof(std::uint64_t);
  if (size != expected_size)
    refuse(file, fmt::format("a damaged checkpoint: {} bytes where its header says {}", size,
                             expected_size));
  c.head.resize(counts_end + k * sizeof(double));
  read(c.head.data() + counts_end, k * sizeof(double));
  std::uint32_t crc = crc32_of(c.head);
  const std::uint64_t vector_bytes = h.n * sizeof(double);
  std::string buffer(keep_vectors ? 0 : std::min<std::uint64_t>(vector_bytes, 64 << 20), '\0');
  for (std::uint32_t i = 0; i < v; ++i) {
    if (keep_vectors) {
      auto* to = reinterpret_cast<char*>(c.vectors.emplace_back(h.n).data());
      read(to, vector_bytes);
      crc = crc32_of({to, vector_bytes}, crc);
      continue;
    }
    for (std::uint64_t at = 0; at < vector_bytes; at += buffer.size()) {
      const auto piece = std::min<std::uint64_t>(buffer.size(), vector_bytes - at);
      read(buffer.data(), piece);
      crc = crc32_of({buffer.data(), piece}, crc);
    }
  }
  std::uint64_t stored = 0;
  read(reinterpret_cast<char*>(&stored), sizeof stored);
  if (stored != crc) refuse(file, "a damaged checkpoint: its checksum does not match its contents");
  return c;
}

}  // namespace

std::string checkpoint_writer(const fs::path& file) {
  return std::string(read_checked(file, false).writer());
}

StepperCheckpoint read_checkpoint(const fs::path& file, const CheckpointShape& expected) {
  Checked c = read_checked(file, true);
  const Header& h = c.h;
  const auto v = c.v, k = c.k;
  Cursor in(c.head);
  in.get(header_size);
  const auto written_by = in.get(h.name_length);
  if (written_by != expected.writer)
    refuse(file,
           fmt::format("a checkpoint of {}, and this run is {}", written_by, expected.writer));
  if (h.n != expected.n)
    refuse(file, fmt::format("the checkpoint holds vectors of {} values, this run's have {}", h.n,
                             expected.n));
  if (h.dt != expected.dt)
    refuse(file, fmt::format("the checkpoint was written with dt = {}, this run has dt = {}", h.dt,
                             expected.dt));
  // The writer matched, so a count that differs is the file's damage.
  if (v != expected.vectors || (expected.scalars != any_count && k != expected.scalars))
    refuse(file, fmt::format("a damaged checkpoint: {} vectors and {} scalars where {} keeps {} "
                             "and {}",
                             v, k, expected.writer, expected.vectors, expected.scalars));
  in.get(8);
  StepperCheckpoint s;
  s.step = h.step;
  s.t = h.t;
  s.scalars.resize(k);
  in.get(s.scalars);
  s.vectors = std::move(c.vectors);
  return s;
}

namespace {

fs::path rank_file(const fs::path& dir, const Communicator& comm, bool previous) {
  std::string name = "checkpoint";
  if (comm.rank() > 0) name += fmt::format(".rank-{}", comm.rank());
  if (previous) name += ".previous";
  return dir / (name + ".bin");
}

std::string ranks(int count) { return count == 1 ? "1 rank" : fmt::format("{} ranks", count); }

std::string rank_writer(std::string_view writer, const Communicator& comm) {
  if (comm.size() == 1) return std::string(writer);
  return fmt::format("{} on rank {} of {}", writer, comm.rank(), comm.size());
}

}  // namespace

void write_rank_checkpoint(const fs::path& dir, const Communicator& comm, const CheckpointSource& s,
                           std::string_view writer, double dt) {
  const auto latest = rank_file(dir, comm, false);
  if (comm.size() > 1) {
    std::error_code ec;
    if (fs::exists(latest, ec)) {
      fs::rename(latest, rank_file(dir, comm, true), ec);
      if (ec)
        throw Error(fmt::format("cannot keep {} as the previous checkpoint: {}", latest.string(),
                                ec.message()));
    }
  }
  write_checkpoint_file(latest, s, rank_writer(writer, comm), dt);
}

void write_rank_checkpoint(const fs::path& dir, const Communicator& comm,
                           const StepperCheckpoint& s, std::string_view writer, double dt) {
  write_rank_checkpoint(dir, comm, source_of(s), writer, dt);
}

std::optional<std::int64_t> rank_checkpoint_step(const fs::path& dir) {
  return checkpoint_step(dir / "checkpoint.bin");
}

StepperCheckpoint read_rank_checkpoint(const fs::path& dir, const Communicator& comm,
                                       const CheckpointShape& expected) {
  // The files' count of ranks, 1 + the highest R of checkpoint.rank-R.bin (a file between
  // missing is named by the rank that reads it), the same on every rank: all refuse together.
  int written = 1;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    constexpr std::string_view head = "checkpoint.rank-", tail = ".bin";
    if (name.size() <= head.size() + tail.size() || !name.starts_with(head) ||
        !name.ends_with(tail))
      continue;
    const auto digits = name.substr(head.size(), name.size() - head.size() - tail.size());
    if (digits.size() < 10 &&
        std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      written = std::max(written, std::stoi(digits) + 1);
  }
  if (written != comm.size())
    refuse(dir / "checkpoint.bin",
           fmt::format("the checkpoint of a run on {} (checkpoint.bin{}), and this run is on {} "
                       "(resume it on {})",
                       ranks(written),
                       written == 1   ? ""
                       : written == 2 ? " and checkpoint.rank-1.bin"
                                      : fmt::format(" and checkpoint.rank-1.bin to "
                                                    "checkpoint.rank-{}.bin",
                                                    written - 1),
                       ranks(comm.size()), ranks(written)));
  const std::string writer = rank_writer(expected.writer, comm);
  CheckpointShape shape = expected;
  shape.writer = writer;
  const auto latest = rank_file(dir, comm, false);
  if (comm.size() == 1) return read_checkpoint(latest, shape);
  const auto previous = rank_file(dir, comm, true);
  const auto latest_step = checkpoint_step(latest), previous_step = checkpoint_step(previous);
  if (!latest_step) refuse(latest, "no checkpoint of this rank (missing)");
  // The latest step of every rank, and the oldest of them: the step all ranks hold.
  std::int64_t target = *latest_step;
  for (const auto& step : comm.gather_all(std::to_string(*latest_step)))
    target = std::min<std::int64_t>(target, std::stoll(step));
  if (target == *latest_step) return read_checkpoint(latest, shape);
  if (previous_step == target) return read_checkpoint(previous, shape);
  refuse(latest, fmt::format("this rank's checkpoints are of steps {} and {}, and another "
                             "rank's latest is of step {}: they were not written by one run",
                             *latest_step, previous_step ? std::to_string(*previous_step) : "none",
                             target));
}

}  // namespace solvent
