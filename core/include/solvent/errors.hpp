#pragma once
// Every failure a user can cause or meet has its own type, so the `solvent` command maps
// it to one message and one exit code, and tests can assert on the exact text.
#include <stdexcept>
#include <string>
#include <vector>

namespace solvent {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  virtual int exit_code() const { return 1; }
};

// Bad configuration: all problems found, each "file:line:col: message".
class ConfigError : public Error {
 public:
  explicit ConfigError(std::vector<std::string> problems);
  const std::vector<std::string>& problems() const { return problems_; }
  int exit_code() const override { return 2; }
  // The same problems, each led by `prefix` ("file.toml:3:9: [model] (model 'x')"): a plugin
  // that checks a key with a helper of the SDK places the helper's refusal at the key's line.
  ConfigError prefixed(const std::string& prefix) const;

 private:
  std::vector<std::string> problems_;
};

// A plugin that cannot be found, loaded, or is of the wrong ABI or kind.
class PluginError : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return 3; }
};

// Malformed input data (a matrix file, a mesh): message carries file:line.
class InputError : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return 4; }
};

// A solver cannot produce a solution: singular pivot, breakdown, unsupported operator.
class SolverError : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return 5; }
};

// A solver asked for an operator form it cannot take; the driver names both plugins.
class UnsupportedOperator : public SolverError {
 public:
  using SolverError::SolverError;
};

// An iterative solve or a time integration that ended without a trustworthy answer:
// not converged, or a state that became non-finite.
class DivergenceError : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return 6; }
};

// A device plugin found no usable device (the driver may fall back to a CPU solver).
class DeviceUnavailable : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return 7; }
};

}  // namespace solvent
