#pragma once
// SIGINT and SIGTERM during a run. The first one asks the run to stop once the step in flight
// has finished and been written (the driver's observer checks after every step): outputs are
// flushed, the record says "interrupted" with the last completed step, and the process exits
// with 128 + the signal's number (130, 143), as a shell reports a command the signal ended.
// A second signal ends the process at once; its record then says "running", which
// `solvent status` and `solvent run --resume` recognise as a run that stopped unfinished.
#include <solvent/errors.hpp>

#include <cstdint>

namespace solvent {

// Installs the handlers for its lifetime and restores the earlier ones after. A scope inside
// another (run_experiment writing the members a sweep's batch advanced, in the sweep's own
// process) keeps the signal the outer one received: the sweep must still stop after it.
class SignalScope {
 public:
  SignalScope();
  ~SignalScope();
  SignalScope(const SignalScope&) = delete;
  SignalScope& operator=(const SignalScope&) = delete;
};

// The signal received since the scope began, or 0.
int pending_signal() noexcept;

// "SIGINT", "SIGTERM".
const char* signal_name(int sig) noexcept;

class Interrupted : public Error {
 public:
  Interrupted(int sig, const std::string& what) : Error(what), sig_(sig) {}
  int exit_code() const override { return 128 + sig_; }
  int signal() const { return sig_; }

 private:
  int sig_;
};

// A run stopped by `sig` once its step `step`, ending at time t, was written.
Interrupted interrupted_after(int sig, std::int64_t step, double t);

}  // namespace solvent
