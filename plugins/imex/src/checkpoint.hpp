#pragma once
// The checkpoint of the IMEX step loops (imex-trapezoid, imex-cnab2, imex-sbdf2, imex-ark23):
// checkpoint.bin in the run's output directory in the SDK's time-stepper format
// (solvent/io/checkpoint.hpp), holding everything the loop carries from one step to the
// next, so that a resumed run continues with the same bits as one never interrupted.
#include <solvent/io/checkpoint.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace solvent::imex {

inline constexpr const char* checkpoint_name = "checkpoint.bin";

// What the step loop carries past the end of a step. The fixed-step methods keep all five
// vectors: the trapezoid scheme needs only u, CNAB2 also N^{n-1} (explicit_now, evaluated on
// the step just taken), SBDF2 also u^{n-1}; guess and half are the vectors the next solves
// start from, which a Krylov solver with initial_guess = "given" reads, so they are kept too.
// The adaptive imex-ark23 keeps u alone (its solves start from the step's own stages) and
// its controller's scalars (time, next step, error history, counters).
inline constexpr std::size_t fixed_step_vectors = 5;
struct LoopState {
  std::int64_t step = 0;         // the last step taken
  double t = 0.0;                // the time it ended at (step * dt for the fixed-step methods)
  double projected = 0.0;        // the share of the state its projection removed (an observable)
  std::vector<double> u;         // u^n
  std::vector<double> u_before;  // u^{n-1}
  std::vector<double> explicit_now;  // N(u^{n-1}, t^{n-1})
  std::vector<double> guess;         // the full steps' solve starts from it
  std::vector<double> half;          // the Rannacher half steps' solve starts from it
  std::vector<double> scalars;       // the method's own numbers past the state
  std::size_t vector_count;          // how many of the five vectors are kept

  // The first `vectors` of the five above have n values, the others none.
  explicit LoopState(std::size_t n, std::size_t vectors = fixed_step_vectors,
                     std::size_t scalar_count = 0);
  // The vectors kept, in the file's order.
  std::vector<std::vector<double>*> kept();
  std::vector<const std::vector<double>*> kept() const;
};

// The bytes of `s`'s checkpoint for `method` run with time step `dt`: the kept vectors, and
// `projected` before the method's scalars.
std::string checkpoint_bytes(const LoopState& s, std::string_view method, double dt);

// The loop state in `file`, checked against this run (its method, dt, the model's n values,
// the vectors and scalars the method keeps); any damage or mismatch throws
// solvent::InputError naming the file and what is wrong.
LoopState read_checkpoint(const std::filesystem::path& file, std::string_view method, double dt,
                          std::size_t n, std::size_t vectors = fixed_step_vectors,
                          std::size_t scalars = 0);

}  // namespace solvent::imex
