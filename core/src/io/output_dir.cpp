#include "io/output_dir.hpp"

#include "io/csv_observer.hpp"
#include "io/output_manifest.hpp"

#include <solvent/errors.hpp>
#include <solvent/io/output.hpp>

#include <fmt/format.h>
#include <toml++/toml.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <regex>
#include <vector>

namespace solvent {

namespace fs = std::filesystem;

namespace {

// The step of the last complete row of the observables a run left (finished or not).
std::int64_t last_row_step(const fs::path& dir) {
  std::ifstream in(observables_file(dir), std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const auto end = text.rfind('\n');
  if (end == std::string::npos || end == 0) return -1;
  const auto begin = text.rfind('\n', end - 1);
  const auto row = std::string_view(text).substr(begin == std::string::npos ? 0 : begin + 1);
  return row_step(row).value_or(-1);
}

int open_dir(const fs::path& dir) {
  return ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

}  // namespace

OutputDirState inspect_output_dir(const fs::path& dir) {
  OutputDirState s;
  std::error_code ec;
  s.exists = fs::exists(dir, ec);
  if (!s.exists || !fs::is_directory(dir, ec)) return s;
  s.empty = fs::is_empty(dir, ec);
  if (const int fd = open_dir(dir); fd >= 0) {
    s.in_use = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);
  }
  try {
    const auto record = toml::parse_file((dir / "record.toml").string());
    s.has_record = true;
    s.name = record["run"]["name"].value_or(std::string{});
    s.status = record["run"]["status"].value_or(std::string{});
    s.message = record["run"]["message"].value_or(std::string{});
    s.pid = record["run"]["pid"].value_or(std::int64_t{0});
    s.config_sha256 = record["run"]["config_sha256"].value_or(std::string{});
    s.model = record["plugins"]["model"]["name"].value_or(std::string{});
    s.integrator = record["plugins"]["integrator"]["name"].value_or(std::string{});
    s.steps = record["result"]["steps"].value_or(std::int64_t{0});
    s.t = record["result"]["t"].value_or(0.0);
    if (const auto* files = record["output"]["files"].as_array())
      for (const auto& f : *files)
        if (const auto name = f.value<std::string>()) s.files.push_back(*name);
  } catch (const std::exception&) {
    // No record, or one that does not parse: the directory holds no run Solvent can read.
  }
  // Runs made before the marker existed are recognised by their record's first line.
  std::ifstream record(dir / "record.toml");
  std::string first;
  const bool solvent_record =
      std::getline(record, first) && first.rfind("# Solvent run record", 0) == 0;
  s.ours = fs::exists(dir / output_marker, ec) || solvent_record;
  s.last_row_step = last_row_step(dir);
  return s;
}

OutputDirLock::OutputDirLock(const fs::path& dir) : fd_(open_dir(dir)) {
  if (fd_ < 0)
    throw Error(
        fmt::format("cannot open the output directory {}: {}", dir.string(), std::strerror(errno)));
  if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
  const int err = errno;
  ::close(fd_);
  fd_ = -1;
  if (err != EWOULDBLOCK)
    throw Error(
        fmt::format("cannot lock the output directory {}: {}", dir.string(), std::strerror(err)));
  const auto other = inspect_output_dir(dir);
  throw ConfigError({fmt::format(
      "another Solvent run{} is writing into {}; wait for it to end or choose another --output",
      other.pid > 0 ? fmt::format(" (process {})", other.pid) : "", dir.string())});
}

OutputDirLock::OutputDirLock(OutputDirLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

OutputDirLock::~OutputDirLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

namespace {
// The temporaries of write_file_atomic and write_atomically ("NAME.tmp.PID[.SERIAL]") that a run
// killed in the middle of a write left behind. Called with the directory's lock held, so
// no live run of Solvent is writing there; a continued or replaced run must not keep them
// (a resumed folder would hold a file its uninterrupted twin never had).
void remove_stale_temporaries(const fs::path& dir) {
  static const std::regex temporary(R"(.+\.tmp\.[0-9]+(\.[0-9]+)?)");
  std::error_code ec;
  std::vector<fs::path> stale;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec))
    if (it->is_regular_file(ec) && std::regex_match(it->path().filename().string(), temporary))
      stale.push_back(it->path());
  for (const auto& f : stale) fs::remove(f, ec);
}
}  // namespace

OutputDirLock prepare_output_dir(const fs::path& dir, const OutputDirRequest& request) {
  std::error_code ec;
  const bool exists = fs::exists(dir, ec);
  if (exists && !fs::is_directory(dir, ec))
    throw ConfigError(
        {fmt::format("output directory {} is a file, not a directory", dir.string())});
  if (request.resume && !exists)
    throw ConfigError({fmt::format("--resume: {} does not exist", dir.string())});
  if (!exists) fs::create_directories(dir);
  // Locked before anything is checked, so two runs started together cannot both pass.
  OutputDirLock lock(dir);
  const auto state = inspect_output_dir(dir);
  if (!state.empty && !state.ours)
    throw ConfigError({fmt::format(
        "output directory {} holds files Solvent did not write (it has no {} marker); choose "
        "another with --output, or empty it",
        dir.string(), output_marker)});
  if (!request.config.empty() && fs::exists(dir / "config.toml", ec) &&
      fs::equivalent(request.config, dir / "config.toml", ec))
    throw ConfigError({fmt::format(
        "{}: the run would replace the configuration it reads with the resolved one; copy it "
        "elsewhere or choose another --output",
        request.config.string())});
  if (state.ours) remove_stale_temporaries(dir);
  if (request.resume) {
    if (!state.has_record)
      throw ConfigError(
          {fmt::format("--resume: {} holds no Solvent run to continue (no "
                       "readable record.toml)",
                       dir.string())});
    // The earlier run's files stay listed, so a later --overwrite removes them all.
    for (const auto& f : state.files)
      if (fs::exists(dir / f, ec)) note_written(dir / f);
    return lock;
  }
  const bool has_record = fs::exists(dir / "record.toml", ec);
  // Every refusal of an output directory is a configuration error (exit 2): what to change is
  // the command line, --output or --overwrite.
  if (has_record && !request.overwrite)
    throw ConfigError({fmt::format(
        "output directory {} already holds a run (record.toml); choose another with --output "
        "or replace it with --overwrite",
        dir.string())});
  if (has_record) {
    if (!state.has_record)
      throw ConfigError({fmt::format(
          "--overwrite: cannot read the earlier run's {}; nothing removed",
          (dir / "record.toml").string())});
    std::vector<fs::path> listed;
    for (const auto& name : state.files) {
      const fs::path rel = fs::path(name).lexically_normal();
      // Only paths inside the directory: a record is a file anyone can edit.
      if (!rel.empty() && !rel.is_absolute() && *rel.begin() != "..") listed.push_back(rel);
    }
    for (const auto& rel : listed) fs::remove(dir / rel, ec);
    // Folders the run made and that held only its files.
    for (const auto& rel : listed)
      for (auto parent = rel.parent_path(); !parent.empty(); parent = parent.parent_path())
        if (fs::is_directory(dir / parent, ec) && fs::is_empty(dir / parent, ec))
          fs::remove(dir / parent, ec);
  }
  if (!fs::exists(dir / output_marker, ec))
    write_file_atomic(dir / output_marker, "Solvent writes its runs here.\n");
  return lock;
}

}  // namespace solvent
