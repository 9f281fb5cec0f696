#include "sweep/member_processes.hpp"
#include "run/interruption.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

extern char** environ;

namespace solvent {

namespace fs = std::filesystem;

fs::path member_dir(const fs::path& members_dir, std::size_t member) {
  return members_dir / fmt::format("{:04}", member);
}

fs::path member_log(const fs::path& members_dir, std::size_t member) {
  return members_dir / fmt::format("{:04}.log", member);
}

namespace {

// The sweep's process id, as its members are told it.
constexpr const char* sweep_pid_variable = "SOLVENT_SWEEP_PID";

// The environment without mpirun's variables: the core starts MPI when it finds them
// (communicator.cpp), and a member is a run of one process even when its sweep is a rank.
// The sweep adds its own pid (sweep_pid_variable).
std::vector<std::string> member_environment() {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view v(*e);
    // An outer sweep's pid too: getenv would read it before the one this sweep adds.
    if (v.starts_with("OMPI_") || v.starts_with("PMIX_") || v.starts_with("PMI_") ||
        v.starts_with(std::string(sweep_pid_variable) + "="))
      continue;
    env.emplace_back(v);
  }
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> p;
  for (auto& s : strings) p.push_back(s.data());
  p.push_back(nullptr);
  return p;
}

int exit_code(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

ProcessExecutor::ProcessExecutor(MemberCommand command, std::size_t slots)
    : command_(std::move(command)), slots_(std::max<std::size_t>(slots, 1)) {
  fs::create_directories(command_.members_dir);
}

ProcessExecutor::~ProcessExecutor() {
  // Left early (an error in the sweep itself): the members end with it, as after a signal.
  signal(SIGTERM);
  for (const auto& r : running_) {
    int status = 0;
    ::waitpid(r.pid, &status, 0);
  }
}

std::vector<std::size_t> ProcessExecutor::start(std::span<const std::size_t> candidates) {
  std::vector<std::size_t> started;
  for (const auto member : candidates) {
    if (running_.size() >= slots_) break;
    spawn(member);
    started.push_back(member);
  }
  return started;
}

void ProcessExecutor::spawn(std::size_t member) {
  const fs::path self = fs::read_symlink("/proc/self/exe");
  std::vector<std::string> args{self.string(), "run", command_.file.string()};
  for (const auto& o : command_.overrides) args.insert(args.end(), {"--set", o});
  const auto dir = member_dir(command_.members_dir, member).string();
  args.insert(args.end(), {"--sweep-member", std::to_string(member)});
  // Every integrator that checkpoints names its file (rank 0's) checkpoint.bin; the member's
  // run checks it against its configuration and record as any --resume does.
  std::error_code ec;
  if (command_.resume && fs::exists(fs::path(dir) / "checkpoint.bin", ec))
    args.insert(args.end(), {"--resume", dir});
  else
    args.insert(args.end(), {"--output", dir, "--overwrite"});
  args.push_back("--no-progress");
  auto env = member_environment();
  env.push_back(fmt::format("{}={}", sweep_pid_variable, ::getpid()));
  const auto log = member_log(command_.members_dir, member).string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  // Its own process group: a Ctrl-C on the terminal reaches the sweep alone, which passes it
  // on once (a second signal would end a member at once, unrecorded).
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = 0;
  const int err = ::posix_spawn(&pid, self.c_str(), &actions, &attr, pointers(args).data(),
                                pointers(env).data());
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0)
    throw Error(fmt::format("cannot start sweep member {}: {}", member, std::strerror(err)));
  running_.push_back({pid, member, std::chrono::steady_clock::now()});
}

std::vector<MemberEnd> ProcessExecutor::poll(std::chrono::milliseconds wait) {
  const auto until = std::chrono::steady_clock::now() + wait;
  // Nothing to wait for, but the caller may wait for other ranks: its loop must not spin.
  if (running_.empty()) std::this_thread::sleep_for(wait);
  std::vector<MemberEnd> ended;
  while (true) {
    for (auto it = running_.begin(); it != running_.end();) {
      int status = 0;
      if (::waitpid(it->pid, &status, WNOHANG) != it->pid) {
        ++it;
        continue;
      }
      ended.push_back({it->member, exit_code(status),
                       std::chrono::duration<double>(std::chrono::steady_clock::now() - it->started)
                           .count()});
      it = running_.erase(it);
    }
    // A signal the sweep received is passed on at once: a member that ran on for the rest
    // of the wait finished (a short one) instead of stopping at a checkpoint.
    if (!ended.empty() || running_.empty() || std::chrono::steady_clock::now() >= until ||
        (pending_signal() != 0 && !signalled_))
      return ended;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void ProcessExecutor::signal(int sig) {
  signalled_ = true;
  for (const auto& r : running_) ::kill(r.pid, sig);
}

void end_with_parent() {
  // SIGKILL: the member's record then still says "running", which marks it for a resume.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  // A sweep killed between starting this process and the line above sent no signal: this
  // process was already another's child. Left running, it cleared and wrote its member's
  // folder beside the resumed sweep's run of the same member (a file renamed away under it).
  const char* sweep = std::getenv(sweep_pid_variable);
  if (sweep != nullptr && std::to_string(::getppid()) != sweep) ::raise(SIGKILL);
}

}  // namespace solvent
