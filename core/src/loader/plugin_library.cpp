#include "loader/plugin_library.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <dlfcn.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

namespace solvent {

namespace fs = std::filesystem;

namespace {
// What can be told from the file before the dynamic loader maps it: the loader blocks
// forever on a FIFO and may die of SIGBUS on a truncated file, so only a regular file with a
// complete ELF header of this process's class, byte order and machine is handed to it. The
// header's own section-table offset bounds the file size, which catches a cut-off library.
bool read_elf_header(const fs::path& path, unsigned char (&h)[64]) {
  std::ifstream in(path, std::ios::binary);
  return static_cast<bool>(in.read(reinterpret_cast<char*>(h), sizeof h));
}

unsigned machine_of(const unsigned char (&h)[64]) { return h[18] | (h[19] << 8); }

std::string_view file_type_name(fs::file_type t) {
  switch (t) {
    case fs::file_type::directory:
      return "a directory";
    case fs::file_type::fifo:
      return "a FIFO";
    case fs::file_type::socket:
      return "a socket";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::block:
      return "a block device";
    default:
      return "something";
  }
}

void check_library_file(const fs::path& path) {
  static const auto own = [] {
    std::array<unsigned, 3> id{2, 1, 62};  // ELF64, little-endian, x86-64
    unsigned char h[64] = {};
    if (read_elf_header("/proc/self/exe", h)) id = {h[4], h[5], machine_of(h)};
    return id;
  }();
  std::error_code ec;
  const auto status = fs::status(path, ec);  // follows links, opens nothing
  if (ec) throw PluginError(fmt::format("{}: cannot be read: {}", path.string(), ec.message()));
  if (!fs::is_regular_file(status))
    throw PluginError(
        fmt::format("{}: {}, not a regular file", path.string(), file_type_name(status.type())));
  const auto size = fs::file_size(path, ec);
  unsigned char h[64] = {};
  if (ec || !read_elf_header(path, h))
    throw PluginError(
        fmt::format("{}: not a shared library (shorter than an ELF header)", path.string()));
  if (h[0] != 0x7f || h[1] != 'E' || h[2] != 'L' || h[3] != 'F')
    throw PluginError(fmt::format("{}: not a shared library (no ELF header)", path.string()));
  const unsigned machine = machine_of(h);
  if (h[4] != own[0] || h[5] != own[1] || machine != own[2])
    throw PluginError(fmt::format(
        "{}: built for another architecture (ELF class {}, data {}, machine {}; this process: "
        "class {}, data {}, machine {})",
        path.string(), int(h[4]), int(h[5]), machine, own[0], own[1], own[2]));
  std::uint64_t section_table = 0;
  for (int i = 7; i >= 0; --i) section_table = (section_table << 8) | h[40 + i];
  const std::uint64_t section_bytes = std::uint64_t(h[58] | (h[59] << 8)) * (h[60] | (h[61] << 8));
  if (section_table + section_bytes > size)
    throw PluginError(fmt::format("{}: truncated ({} bytes; its ELF header describes {})",
                                  path.string(), size, section_table + section_bytes));
}

// Plugin code may throw anything; this names what it threw, for a message.
std::string current_exception_text() {
  try {
    throw;
  } catch (const std::exception& e) {
    return fmt::format("an exception: {}", e.what());
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}
}  // namespace

PluginLibrary load_plugin_library(const fs::path& path) {
  check_library_file(path);
  PluginLibrary lib;
  lib.path = path;
  try {
    // RTLD_NODELETE: a plugin's code stays mapped until the process ends, even after its
    // last object is gone — libraries such as OpenBLAS leave threads running that would
    // crash after an unmap.
    lib.library = std::make_shared<boost::dll::shared_library>(
        path, static_cast<boost::dll::load_mode::type>(RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE));
  } catch (const std::exception& e) {
    throw PluginError(fmt::format("{}: cannot be loaded: {}", path.string(), e.what()));
  }
  if (!lib.library->has("solvent_plugin_descriptor"))
    throw PluginError(fmt::format("{}: not a Solvent plugin (no solvent_plugin_descriptor symbol)",
                                  path.string()));
  auto& entry = lib.library->get<const PluginDescriptor*()>("solvent_plugin_descriptor");
  try {
    lib.descriptor = entry();
  } catch (...) {
    throw PluginError(fmt::format("{}: its descriptor function threw {}", path.string(),
                                  current_exception_text()));
  }
  const auto* d = lib.descriptor;
  if (d == nullptr)
    throw PluginError(fmt::format("{}: its descriptor function returned null", path.string()));
  // Only abi_version may be read before this check: the rest may have another layout.
  if (d->abi_version != plugin_abi_version)
    throw PluginError(fmt::format(
        "{}: plugin ABI version {} does not match this Solvent's ABI version {}; rebuild the "
        "plugin against Solvent {}",
        path.string(), d->abi_version, plugin_abi_version, version_string()));
  if (d->name == nullptr || d->schema == nullptr || d->version == nullptr ||
      d->summary == nullptr || d->device == nullptr || d->solvent_version == nullptr)
    throw PluginError(fmt::format(
        "{}: incomplete descriptor (name, version, summary, device, Solvent version or schema "
        "missing)",
        path.string()));
  const std::string_view device = d->device;
  if (device != "cpu" && device != "cuda" && device != "any")
    throw PluginError(fmt::format(
        "{}: descriptor of '{}' names device '{}'; a plugin runs on \"cpu\", \"cuda\" or "
        "\"any\"",
        path.string(), d->name, device));
  const bool has_factory = (d->kind == PluginKind::Model && d->make_model) ||
                           (d->kind == PluginKind::Integrator && d->make_integrator) ||
                           (d->kind == PluginKind::LinearSolver && d->make_linear_solver) ||
                           (d->kind == PluginKind::Preconditioner && d->make_preconditioner);
  if (!has_factory)
    throw PluginError(
        fmt::format("{}: descriptor of '{}' has no factory for its kind", path.string(), d->name));
  return lib;
}

// Why a child process rather than reading the descriptor out of the ELF file: the
// descriptor is built by code (a function returning a static object) and holds pointers
// to strings and functions that only the dynamic loader's relocations make meaningful, and
// a schema is a vector built at run time. A child runs exactly the code the real load would
// run, and whatever that code does — abort, crash, hang, print — happens to the child. One
// child reads all libraries in turn (one fork, each dependency mapped once, so listing costs
// about what loading them in-process did) and is restarted after a library that kills it.
namespace {

using ProbeResult = std::variant<PluginInfo, SkippedLibrary>;

// The child's report is a sequence of records, each its fields joined by '\0' (no
// descriptor string or message holds one) behind a "<length>:" frame:
//   S <index> <stderr offset>   started on library <index>
//   P <kind> <name> <version> <summary> <device> <solvent version> <max ranks>   its descriptor
//   E <reason>                  it is not a usable plugin
//   D                           all done
void send(int fd, std::initializer_list<std::string_view> fields) {
  std::string body;
  for (const auto f : fields) {
    if (!body.empty()) body += '\0';
    body += f;
  }
  const std::string frame = std::to_string(body.size()) + ':' + body;
  for (std::size_t done = 0; done < frame.size();) {
    const auto n = ::write(fd, frame.data() + done, frame.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ::_exit(1);  // the parent is gone
    done += std::size_t(n);
  }
}

[[noreturn]] void probe_in_child(const std::vector<fs::path>& paths, std::size_t first, int out,
                                 int err, pid_t parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);
  // What plugin code prints must not reach our stdout (`solvent plugins --markdown` is a
  // table); its stderr is kept, to quote its last line if the library kills the child.
  const int null = ::open("/dev/null", O_RDWR);
  ::dup2(null, 0);
  ::dup2(null, 1);
  ::dup2(err, 2);
  for (std::size_t i = first; i < paths.size(); ++i) {
    send(out, {"S", std::to_string(i), std::to_string(::lseek(2, 0, SEEK_CUR))});
    try {
      const auto lib = load_plugin_library(paths[i]);
      const auto* d = lib.descriptor;
      try {
        // Validation calls it in-process, so a schema that throws is caught here.
        d->schema();
      } catch (...) {
        throw PluginError(
            fmt::format("{}: its schema() threw {}", paths[i].string(), current_exception_text()));
      }
      send(out, {"P", std::to_string(static_cast<std::uint32_t>(d->kind)), d->name, d->version,
                 d->summary, d->device, d->solvent_version, std::to_string(d->max_ranks)});
    } catch (const PluginError& e) {
      send(out, {"E", e.what()});
    } catch (...) {
      // Thrown through the dynamic loader by a static initialiser: the loader's state is
      // not to be trusted after that, so this child ends and a fresh one goes on.
      send(out, {"E", fmt::format("{}: threw {} while it was loaded", paths[i].string(),
                                  current_exception_text())});
      ::_exit(0);
    }
  }
  send(out, {"D"});
  ::_exit(0);
}

// The last non-empty line the child wrote to stderr after `offset`, at most 200 characters.
std::string last_words(int err, off_t offset) {
  struct stat st {};
  if (::fstat(err, &st) != 0 || st.st_size <= offset) return {};
  const off_t from = std::max<off_t>(offset, st.st_size - 4096);
  std::string text(std::size_t(st.st_size - from), '\0');
  const auto n = ::pread(err, text.data(), text.size(), from);
  text.resize(n > 0 ? std::size_t(n) : 0);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  text = text.substr(text.find_last_of('\n') + 1);
  return text.size() > 200 ? text.substr(0, 200) + "..." : text;
}

class ProbeChild {
 public:
  ProbeChild(const std::vector<fs::path>& paths, std::size_t first) : current_(first) {
    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) fail("pipe");
    err_ = ::memfd_create("solvent-plugin-probe-stderr", MFD_CLOEXEC);
    if (err_ < 0) fail("memfd_create");
    const pid_t parent = ::getpid();
    pid_ = ::fork();
    if (pid_ < 0) fail("fork");
    if (pid_ == 0) {
      // The child never returns into the parent's code (its stack is a copy of ours).
      try {
        ::close(pipe_fds[0]);
        probe_in_child(paths, first, pipe_fds[1], err_, parent);
      } catch (...) {
      }
      ::_exit(1);
    }
    ::close(pipe_fds[1]);
    out_ = pipe_fds[0];
    ::fcntl(out_, F_SETFL, O_NONBLOCK);
    // A pidfd tells us the child ended even where a process it started still holds the pipe.
    pidfd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
  }
  ~ProbeChild() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      reap();
    }
    for (int fd : {out_, err_, pidfd_})
      if (fd >= 0) ::close(fd);
  }
  ProbeChild(const ProbeChild&) = delete;
  ProbeChild& operator=(const ProbeChild&) = delete;

  // Collects results until the child is done, dies or overruns `timeout` on one library;
  // returns the index of the first library left without a result.
  std::size_t run(const std::vector<fs::path>& paths,
                  std::vector<std::optional<ProbeResult>>& results, std::vector<bool>& timed_out,
                  std::chrono::milliseconds timeout) {
    using clock = std::chrono::steady_clock;
    auto deadline = clock::now() + timeout;
    bool ended = false;
    while (!done_ && !ended) {
      const auto left =
          std::chrono::ceil<std::chrono::milliseconds>(deadline - clock::now()).count();
      if (left <= 0) {
        results[current_] = SkippedLibrary{
            paths[current_], fmt::format("{}: did not load within {:g} s", paths[current_].string(),
                                         double(timeout.count()) / 1000.0)};
        timed_out[current_] = true;
        return current_ + 1;
      }
      pollfd fds[2] = {{out_, POLLIN, 0}, {pidfd_, POLLIN, 0}};
      if (::poll(fds, pidfd_ >= 0 ? 2 : 1, int(left)) < 0 && errno != EINTR) fail("poll");
      if (fds[0].revents != 0) ended = !read_available(paths, results, deadline, timeout);
      if (pidfd_ >= 0 && fds[1].revents != 0) ended = true;
    }
    read_available(paths, results, deadline, timeout);
    const int status = reap();
    if (done_) return paths.size();
    if (!results[current_]) {
      std::string how = fmt::format("exited on load (exit status {})", WEXITSTATUS(status));
      if (WIFSIGNALED(status)) {
        const char* abbrev = ::sigabbrev_np(WTERMSIG(status));
        how = abbrev ? fmt::format("crashed on load: SIG{}", abbrev)
                     : fmt::format("crashed on load: signal {}", WTERMSIG(status));
      }
      if (const auto words = last_words(err_, err_offset_); !words.empty())
        how += fmt::format(" ({})", words);
      results[current_] =
          SkippedLibrary{paths[current_], fmt::format("{}: {}", paths[current_].string(), how)};
    }
    return current_ + 1;
  }

 private:
  [[noreturn]] static void fail(const char* call) {
    throw PluginError(
        fmt::format("reading the plugin descriptors: {}: {}", call, std::strerror(errno)));
  }

  int reap() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    return status;
  }

  // Reads what the pipe holds and handles each complete record; false at end of file.
  bool read_available(const std::vector<fs::path>& paths,
                      std::vector<std::optional<ProbeResult>>& results,
                      std::chrono::steady_clock::time_point& deadline,
                      std::chrono::milliseconds timeout) {
    bool open = true;
    char chunk[4096];
    for (;;) {
      const auto n = ::read(out_, chunk, sizeof chunk);
      if (n > 0) {
        buffer_.append(chunk, std::size_t(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      open = n < 0;  // EAGAIN: nothing more for now; 0: end of file
      break;
    }
    for (;;) {
      const auto colon = buffer_.find(':');
      if (colon == std::string::npos) break;
      const std::size_t length = std::stoul(buffer_.substr(0, colon));
      if (buffer_.size() < colon + 1 + length) break;
      std::vector<std::string> f;
      std::size_t start = colon + 1;
      const std::size_t end = colon + 1 + length;
      for (std::size_t z; (z = buffer_.find('\0', start)) < end; start = z + 1)
        f.push_back(buffer_.substr(start, z - start));
      f.push_back(buffer_.substr(start, end - start));
      buffer_.erase(0, end);
      if (f[0] == "S") {
        current_ = std::stoul(f[1]);
        err_offset_ = std::stoll(f[2]);
        deadline = std::chrono::steady_clock::now() + timeout;
      } else if (f[0] == "P") {
        results[current_] = PluginInfo{paths[current_],
                                       static_cast<PluginKind>(std::stoul(f[1])),
                                       f[2],
                                       f[3],
                                       f[4],
                                       f[5],
                                       f[6],
                                       static_cast<std::uint32_t>(std::stoul(f[7]))};
      } else if (f[0] == "E") {
        results[current_] = SkippedLibrary{paths[current_], f[1]};
      } else {
        done_ = true;
      }
    }
    return open;
  }

  pid_t pid_ = -1;
  int out_ = -1, err_ = -1, pidfd_ = -1;
  std::size_t current_;
  off_t err_offset_ = 0;
  std::string buffer_;
  bool done_ = false;
};

}  // namespace

namespace {
// What children read is kept for the process's lifetime while the file is unchanged, so a
// process that builds several registries (the tests, the conformance kit) reads each
// library once. A timeout is not kept: the next registry tries again.
using FileIdentity = std::tuple<dev_t, ino_t, off_t, time_t, long>;

std::optional<FileIdentity> identity_of(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileIdentity{st.st_dev, st.st_ino, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec};
}

std::mutex probe_cache_mutex;
std::map<fs::path, std::pair<FileIdentity, ProbeResult>> probe_cache;
}  // namespace

std::vector<ProbeResult> probe_plugin_libraries(const std::vector<fs::path>& paths,
                                                std::chrono::milliseconds timeout) {
  const std::lock_guard lock(probe_cache_mutex);
  std::vector<std::optional<ProbeResult>> results(paths.size());
  std::vector<fs::path> loadable;
  std::vector<std::size_t> index;  // of each library to read in `paths`
  for (std::size_t i = 0; i < paths.size(); ++i) {
    try {
      check_library_file(paths[i]);
      const auto cached = probe_cache.find(paths[i]);
      if (cached != probe_cache.end() && identity_of(paths[i]) == cached->second.first) {
        results[i] = cached->second.second;
        continue;
      }
      loadable.push_back(paths[i]);
      index.push_back(i);
    } catch (const PluginError& e) {
      results[i] = SkippedLibrary{paths[i], e.what()};
    }
  }
  std::vector<std::optional<ProbeResult>> probed(loadable.size());
  std::vector<bool> timed_out(loadable.size());
  for (std::size_t next = 0; next < loadable.size();)
    next = ProbeChild(loadable, next).run(loadable, probed, timed_out, timeout);
  for (std::size_t j = 0; j < loadable.size(); ++j) {
    if (const auto id = identity_of(loadable[j]); id && !timed_out[j])
      probe_cache.insert_or_assign(loadable[j], std::pair{*id, *probed[j]});
    results[index[j]] = std::move(probed[j]);
  }
  std::vector<ProbeResult> out;
  for (auto& r : results) out.push_back(std::move(*r));
  return out;
}

namespace {
template <class T>
std::shared_ptr<T> keep_library_loaded(std::unique_ptr<T> obj,
                                       std::shared_ptr<boost::dll::shared_library> library) {
  return std::shared_ptr<T>(obj.release(), [library](T* p) { delete p; });
}
}  // namespace

namespace {
// Makes a plugin object through its factory. Solvent's own errors pass as thrown (a model
// refusing its grid is a configuration error, exit 2); anything else a constructor throws is
// the plugin's fault: a PluginError (exit 3) naming the plugin and its library.
template <class Make>
auto made_by(const PluginLibrary& lib, Make make) {
  const std::string who = fmt::format("{} '{}' ({})", to_string(lib.descriptor->kind),
                                      lib.descriptor->name, lib.path.string());
  try {
    return keep_library_loaded(make(), lib.library);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw PluginError(fmt::format("{} failed as it was made: {}", who, e.what()));
  } catch (...) {
    throw PluginError(
        fmt::format("{} threw an exception that is not a std::exception as it was made", who));
  }
}
}  // namespace

std::shared_ptr<Model> create_model(const PluginLibrary& lib, const PluginContext& ctx) {
  return made_by(lib, [&] { return lib.descriptor->make_model(ctx); });
}
std::shared_ptr<Integrator> create_integrator(const PluginLibrary& lib, const PluginContext& ctx) {
  return made_by(lib, [&] { return lib.descriptor->make_integrator(ctx); });
}
std::shared_ptr<LinearSolver> create_linear_solver(const PluginLibrary& lib,
                                                   const PluginContext& ctx) {
  return made_by(lib, [&] { return lib.descriptor->make_linear_solver(ctx); });
}
std::shared_ptr<Preconditioner> create_preconditioner(const PluginLibrary& lib,
                                                      const PluginContext& ctx) {
  return made_by(lib, [&] { return lib.descriptor->make_preconditioner(ctx); });
}

}  // namespace solvent
