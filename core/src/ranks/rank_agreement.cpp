#include "ranks/communicator_world.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <optional>
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

// A rank's status: its exit code (0: its step succeeded), and its problems.
struct Status {
  int code = 0;
  std::vector<std::string> lines;
};
Status decode(const std::string& status) {
  Status s;
  s.code = std::stoi(status.substr(0, status.find('\n')));
  for (std::size_t at = status.find('\n'); at != std::string::npos;) {
    const auto next = status.find('\n', at + 1);
    s.lines.push_back(status.substr(at + 1, next - at - 1));
    at = next;
  }
  return s;
}
bool failed(const Status& s) { return s.code != 0 && s.code != std::stoi(stopped_status); }

// The lowest failed rank's problems, each "rank r: ...", and its exit code.
std::pair<int, std::vector<std::string>> first_failure(const std::vector<std::string>& all) {
  for (std::size_t r = 0; r < all.size(); ++r)
    if (auto s = decode(all[r]); failed(s)) {
      for (auto& l : s.lines) l = fmt::format("rank {}: {}", r, l);
      return {s.code, std::move(s.lines)};
    }
  return {1, {"a rank stopped waiting for a failed rank that reported nothing"}};
}
}  // namespace

PeerFailed::PeerFailed(std::vector<std::string> statuses)
    : Error(fmt::format("{}", fmt::join(first_failure(statuses).second, "\n"))),
      statuses_(std::move(statuses)),
      code_(first_failure(statuses_).first) {}

void agree_across_ranks(const Communicator& comm, const std::function<std::string()>& step) {
  if (comm.size() == 1) {
    step();
    return;
  }
  std::exception_ptr failure;
  std::string mine;
  std::optional<std::vector<std::string>> gathered;
  try {
    mine = encode(0, {step()});
  } catch (const PeerFailed& e) {
    gathered = e.statuses();  // exchanged as this rank left the wait, with its status
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
  if (failure) announce_failure(comm);
  const auto all = gathered ? std::move(*gathered) : gather_status(comm, mine);
  std::vector<int> announced;  // the failed ranks: each called announce_failure
  bool unfinished = false;     // a rank left an operation unfinished (PeerFailed)
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (failed(decode(all[r]))) announced.push_back(static_cast<int>(r));
    unfinished = unfinished || all[r] == stopped_status;
  }
  if (!announced.empty()) {
    settle_failure(comm, announced, unfinished);
    auto [code, lines] = first_failure(all);
    if (comm.rank() != 0) throw OtherRankFailed(code);
    if (failure) std::rethrow_exception(failure);  // rank 0's own, as thrown
    if (code == 2) throw ConfigError(std::move(lines));
    throw RankError(code, fmt::format("{}", fmt::join(lines, "\n")));
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
  abort_ranks(comm, code);
  std::_Exit(code);
}

}  // namespace solvent
