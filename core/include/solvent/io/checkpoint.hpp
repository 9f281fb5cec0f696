#pragma once
// A time stepper's checkpoint: everything its step loop carries from one step to the next
// (the step, its time, some scalars and some state vectors of one length), so that a run
// continued from it (`solvent run --resume`) takes the same steps with the same bits as a
// run never interrupted. One format for every integrator that has no reason for its own
// (the IMEX steppers, implicit-stencil7), so one reader is checked and fuzzed.
//
// Layout (native byte order; a checkpoint is read back on the machine kind that wrote it):
//   mark "SVIMEXCK", u32 format version, i64 step, f64 t, f64 dt, u64 n (values in each
//   vector), u32 length + bytes of the writer's name, u32 vector count v, u32 scalar
//   count k, k f64 scalars, v vectors of n f64, u64 holding the CRC-32 (zlib's, as Python's
//   zlib.crc32 gives it) of every byte before it.
// The mark is the one the IMEX steppers' first format had, so that their older files are
// refused by their version rather than as a stranger's file.
#include <solvent/communicator.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace solvent {

// Raised whenever the layout above changes: an older file is then refused by its version.
inline constexpr std::uint32_t stepper_checkpoint_version = 4;

struct StepperCheckpoint {
  std::int64_t step = 0;  // the last step taken
  double t = 0.0;         // the time it ended at
  std::vector<double> scalars;
  std::vector<std::vector<double>> vectors;  // all of one length
};

// A checkpoint whose vectors are held elsewhere (a field of 10^9 values): written from them as
// they are, not copied into a StepperCheckpoint first.
struct CheckpointSource {
  std::int64_t step = 0;
  double t = 0.0;
  std::span<const double> scalars;
  std::vector<std::span<const double>> vectors;  // all of one length
};

// CheckpointShape::scalars of a writer whose count of scalars varies with what it holds
// (explicit-stencil3d's network grows): any count is read, and the writer checks it.
inline constexpr std::size_t any_count = static_cast<std::size_t>(-1);

// What a run expects of the checkpoint it continues from.
struct CheckpointShape {
  std::string_view writer;  // the integrator, and whatever else must match (a rank)
  double dt = 0.0;
  std::size_t n = 0;  // values in each vector
  std::size_t vectors = 0;
  std::size_t scalars = 0;  // or any_count
};

// The bytes of `s`'s checkpoint as `writer` running with time step `dt` writes it.
std::string checkpoint_bytes(const StepperCheckpoint& s, std::string_view writer, double dt);

// The step of the checkpoint `file`, or nothing where there is no file. Throws
// solvent::InputError naming the file where it is cut short before its header ends, is not
// of this format or has another format version.
std::optional<std::int64_t> checkpoint_step(const std::filesystem::path& file);

// The writer named in the checkpoint `file`, checked whole (mark, version, size, checksum) as
// read_checkpoint checks it: for a runner that learns from the file whose state it holds
// before it can say what to expect of it (a sweep's batch names its members there). Throws
// solvent::InputError as read_checkpoint does.
std::string checkpoint_writer(const std::filesystem::path& file);

// The checkpoint in `file`, checked whole (size, checksum) and against `expected`; any damage
// or mismatch throws solvent::InputError naming the file and what is wrong, ending with the
// way out (rerun with --overwrite).
StepperCheckpoint read_checkpoint(const std::filesystem::path& file,
                                  const CheckpointShape& expected);

// Checkpoints of a run over ranks, each rank's own block in a file of its own in `dir`:
// checkpoint.bin (rank 0, or the run's one process) and checkpoint.rank-R.bin, their writer
// named with the rank ("X on rank 1 of 2"), so that a resume on another count of ranks is
// refused by name. A rank may be killed between its write and another rank's, so over ranks
// each file's previous generation is kept (checkpoint[.rank-R].previous.bin) and the resume
// takes the latest step every rank holds: a rank writes step k only after every rank has
// taken part in the steps since the checkpoint before, so that one is complete everywhere.
// A resume on another count of ranks than wrote the files is refused, naming the files and
// both counts: a rank's block is only its own, so nothing could be read in its place.
void write_rank_checkpoint(const std::filesystem::path& dir, const Communicator& comm,
                           const StepperCheckpoint& s, std::string_view writer, double dt);
void write_rank_checkpoint(const std::filesystem::path& dir, const Communicator& comm,
                           const CheckpointSource& s, std::string_view writer, double dt);
// Rank 0's latest step in `dir` (Integrator::checkpoint_step), or nothing where there is none.
std::optional<std::int64_t> rank_checkpoint_step(const std::filesystem::path& dir);
// Collective: every rank's block of the latest step all ranks hold, checked as
// read_checkpoint checks it (expected.writer without the rank: it is added here).
StepperCheckpoint read_rank_checkpoint(const std::filesystem::path& dir, const Communicator& comm,
                                       const CheckpointShape& expected);

}  // namespace solvent
