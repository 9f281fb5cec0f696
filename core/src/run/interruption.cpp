#include "run/interruption.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <csignal>

namespace solvent {

namespace {
volatile std::sig_atomic_t received = 0;
int scopes = 0;  // SignalScopes alive, nested
struct sigaction earlier_int {}, earlier_term {};

extern "C" void on_signal(int sig) {
  if (received != 0) {
    // The user insists: end now, the way the signal ends a process by default.
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  received = sig;
  static constexpr char note[] =
      "\nsolvent: stopping after the step in flight (send the signal again to stop at once)\n";
  // write(2) is async-signal-safe; its result cannot be acted on here.
  [[maybe_unused]] const auto n = ::write(STDERR_FILENO, note, sizeof note - 1);
}
}  // namespace

SignalScope::SignalScope() {
  if (scopes++ == 0) received = 0;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;  // file writes in flight complete rather than fail with EINTR
  sigaction(SIGINT, &sa, &earlier_int);
  sigaction(SIGTERM, &sa, &earlier_term);
}

SignalScope::~SignalScope() {
  --scopes;
  sigaction(SIGINT, &earlier_int, nullptr);
  sigaction(SIGTERM, &earlier_term, nullptr);
}

int pending_signal() noexcept { return received; }

Interrupted interrupted_after(int sig, std::int64_t step, double t) {
  return Interrupted(
      sig, fmt::format("interrupted by {} after step {} (t = {:.6g})", signal_name(sig), step, t));
}

const char* signal_name(int sig) noexcept {
  return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

}  // namespace solvent
