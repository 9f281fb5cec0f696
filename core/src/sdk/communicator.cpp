// The SDK's side of the ranks: the communicator of a run of one process. The world of a
// run under mpirun is the framework's (ranks/world.cpp).
#include <solvent/communicator.hpp>

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace solvent {

namespace {

class SingleRank final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int local_rank() const override { return 0; }
  void barrier() const override {}
  void sum(std::span<double>) const override {}
  void max(std::span<double>) const override {}
  void broadcast(std::string&, int) const override {}
  std::vector<std::string> gather_all(const std::string& mine) const override { return {mine}; }
  void exchange(int peer, std::span<const std::byte> send,
                std::span<std::byte> receive) const override {
    // The one rank is its own neighbour on a periodic axis.
    if (peer != 0 || send.size() != receive.size())
      throw Error(fmt::format("exchange with rank {} in a run of one rank", peer));
    std::ranges::copy(send, receive.begin());
  }
  void exchange(std::span<const Transfer> transfers) const override {
    for (const auto& t : transfers) exchange(t.peer, t.send, t.receive);
  }
  void send(int peer, std::span<const std::byte>) const override {
    throw Error(fmt::format("send to rank {} in a run of one rank", peer));
  }
  void receive(int peer, std::span<std::byte>) const override {
    throw Error(fmt::format("receive from rank {} in a run of one rank", peer));
  }
};

// An error of an exit code that no type of errors.hpp stands for (a core error's own).
class ErrorOfCode final : public Error {
 public:
  ErrorOfCode(int code, const std::string& what) : Error(what), code_(code) {}
  int exit_code() const override { return code_; }

 private:
  int code_;
};

// The type errors.hpp gives `code`, with `what` (a ConfigError's problems one per line).
[[noreturn]] void throw_error(int code, const std::string& what) {
  switch (code) {
    case 1: throw Error(what);
    case 2: {
      std::vector<std::string> problems;
      for (std::size_t at = 0; at <= what.size();) {
        const auto end = std::min(what.find('\n', at), what.size());
        problems.push_back(what.substr(at, end - at));
        at = end + 1;
      }
      throw ConfigError(std::move(problems));
    }
    case 3: throw PluginError(what);
    case 4: throw InputError(what);
    case 5: throw SolverError(what);
    case 6: throw DivergenceError(what);
    case 7: throw DeviceUnavailable(what);
    default: throw ErrorOfCode(code, what);
  }
}

}  // namespace

const Communicator& single_rank() {
  static const SingleRank one;
  return one;
}

std::string from_root(const Communicator& comm, int root,
                      const std::function<std::string()>& step) {
  if (comm.size() == 1) return step();
  // The first byte says which it is: 1 and the step's bytes, or 0, the exit code (four
  // bytes) and the message.
  std::string bytes;
  std::exception_ptr failure;
  if (comm.rank() == root) {
    std::int32_t code = 1;
    std::string what;
    try {
      bytes = '\1' + step();
    } catch (const ConfigError& e) {
      failure = std::current_exception();
      code = e.exit_code();
      for (const auto& p : e.problems()) what += (what.empty() ? "" : "\n") + p;
    } catch (const Error& e) {
      failure = std::current_exception();
      code = e.exit_code();
      what = e.what();
    } catch (const std::exception& e) {
      failure = std::current_exception();
      what = e.what();
    } catch (...) {
      failure = std::current_exception();
      what = "a plugin threw an exception that is not a std::exception";
    }
    if (failure) {
      bytes.assign(1, '\0');
      bytes.append(reinterpret_cast<const char*>(&code), sizeof code);
      bytes += what;
    }
  }
  comm.broadcast(bytes, root);
  if (failure) std::rethrow_exception(failure);
  if (!bytes.empty() && bytes[0] == '\1') return bytes.erase(0, 1);
  std::int32_t code = 1;
  if (bytes.size() >= 1 + sizeof code) std::memcpy(&code, bytes.data() + 1, sizeof code);
  throw_error(code, bytes.size() >= 1 + sizeof code ? bytes.substr(1 + sizeof code) : bytes);
}

}  // namespace solvent
