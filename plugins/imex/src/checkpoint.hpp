#pragma once
// The checkpoint of the IMEX step loop (imex-trapezoid, imex-cnab2, imex-sbdf2):
// checkpoint.bin in the run's output directory, everything the loop carries from one step to
// the next, so that a resumed run continues with the same bits as one never interrupted.
//
// Layout (native byte order; a checkpoint is read back on the machine kind that wrote it):
//   magic "SVIMEXCK", u32 format version, i64 step, f64 t, f64 dt, f64 projected,
//   u64 n (values in the state), u32 length + bytes of the method's name,
//   five vectors of n f64 (LoopState's order), u64 FNV-1a checksum of every byte before it.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace solvent::imex {

inline constexpr const char* checkpoint_name = "checkpoint.bin";
// Raised whenever the layout above changes: an older file is then refused by name.
inline constexpr std::uint32_t checkpoint_version = 1;

// What the step loop carries past the end of a step. The three methods share it: the
// trapezoid scheme needs only u, CNAB2 also N^{n-1} (explicit_now, evaluated on the step just
// taken), SBDF2 also u^{n-1}; guess and half are the vectors the next solves start from, which
// a Krylov solver with initial_guess = "given" reads, so they are kept too.
struct LoopState {
  std::int64_t step = 0;         // the last step taken
  double projected = 0.0;        // the share of the state its projection removed (an observable)
  std::vector<double> u;         // u^n
  std::vector<double> u_before;  // u^{n-1}
  std::vector<double> explicit_now;  // N(u^{n-1}, t^{n-1})
  std::vector<double> guess;         // the full steps' solve starts from it
  std::vector<double> half;          // the Rannacher half steps' solve starts from it

  explicit LoopState(std::size_t n) : u(n), u_before(n), explicit_now(n), guess(n), half(n) {}
};

// The bytes of `s`'s checkpoint for `method` run with time step `dt`.
std::string checkpoint_bytes(const LoopState& s, std::string_view method, double dt);

// The step of the checkpoint `file`, or nothing where there is no file. Throws
// solvent::InputError naming the file where it is cut short before its header ends, is no
// IMEX checkpoint or has another format version.
std::optional<std::int64_t> checkpoint_step(const std::filesystem::path& file);

// The loop state in `file`, checked against this run (its method, dt, the model's n values);
// any damage or mismatch throws solvent::InputError naming the file and what is wrong.
LoopState read_checkpoint(const std::filesystem::path& file, std::string_view method, double dt,
                          std::size_t n);

}  // namespace solvent::imex
