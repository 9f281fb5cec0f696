#include "ranks/communicator_world.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <string_view>
#include <thread>

namespace solvent {

namespace {
// A failure as the ranks exchange it: its exit code, then its problems one per line.
std::string encode(int code, const std::vector<std::string>& lines) {
  std::string out = std::to_string(code);
  for (const auto& l : lines) out += '\n' + l;
  return out;
}
}  // namespace

void agree_across_ranks(const Communicator& comm, const std::function<std::string()>& step) {
  if (comm.size() == 1) {
    step();
    return;
  }
  std::exception_ptr failure;
  std::string mine;
  try {
    mine = encode(0, {step()});
  } catch (const RankWaitError&) {
    throw;  // the ranks are out of step: gathering the outcome would wait as long again
  } catch (const ConfigError& e) {
    failure = std::current_exception();
    mine = encode(e.exit_code(), e.problems());
  } catch (const Error& e) {
    failure = std::current_exception();
    mine = encode(e.exit_code(), {e.what()});
  } catch (const std::exception& e) {
    failure = std::current_exception();
    mine = encode(1, {e.what()});
  } catch (...) {
    failure = std::current_exception();
    mine = encode(1, {"a plugin threw an exception that is not a std::exception"});
  }
  const auto all = comm.gather_all(mine);
  for (int r = 0; r < comm.size(); ++r) {
    const std::string& theirs = all[static_cast<std::size_t>(r)];
    const int code = std::stoi(theirs.substr(0, theirs.find('\n')));
    if (code == 0) continue;
    if (comm.rank() != 0) throw OtherRankFailed(code);
    if (r == 0) std::rethrow_exception(failure);
    std::vector<std::string> lines;
    for (std::size_t at = theirs.find('\n'); at != std::string::npos;) {
      const auto next = theirs.find('\n', at + 1);
      lines.push_back(fmt::format("rank {}: {}", r, theirs.substr(at + 1, next - at - 1)));
      at = next;
    }
    if (code == 2) throw ConfigError(std::move(lines));
    std::string text;
    for (const auto& l : lines) text += (text.empty() ? "" : "\n") + l;
    throw RankError(code, text);
  }
  for (int r = 1; r < comm.size(); ++r)
    if (all[static_cast<std::size_t>(r)] != all[0]) {
      if (comm.rank() != 0) throw OtherRankFailed(2);
      throw ConfigError({fmt::format(
          "rank {} resolved another configuration than rank 0 (do all ranks read the same "
          "files, with the same plugins?)",
          r)});
    }
}

void end_all_ranks(const Communicator& comm, int code, const std::string& what) {
  if (comm.rank() != 0) std::this_thread::sleep_for(std::chrono::seconds(3));
  std::fprintf(stderr, "error: rank %d: %s\n", comm.rank(), what.c_str());
  std::fflush(stderr);
  abort_world(code);
  std::_Exit(code);
}

}  // namespace solvent
