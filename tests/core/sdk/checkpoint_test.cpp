// The SDK's time-stepper checkpoint as a writer whose scalars vary reads it (any_count), and
// the count of ranks a folder's files were written by, refused by name when it is not the
// run's (the pieces of other ranks cannot stand in for a rank's own block).
#include <doctest/doctest.h>

#include <solvent/communicator.hpp>
#include <solvent/errors.hpp>
#include <solvent/io/checkpoint.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("solvent-checkpoint-test-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

solvent::StepperCheckpoint three_scalars() {
  solvent::StepperCheckpoint s;
  s.step = 12;
  s.t = 1.2;
  s.scalars = {1.0, 2.0, 3.0};
  s.vectors = {{4.0, 5.0}};
  return s;
}

}  // namespace

TEST_CASE("a writer whose count of scalars varies reads any count; a fixed count is checked") {
  const auto dir = fresh_dir("any");
  solvent::write_rank_checkpoint(dir, solvent::single_rank(), three_scalars(), "w", 0.1);
  const auto s = solvent::read_rank_checkpoint(dir, solvent::single_rank(),
                                               {"w", 0.1, 2, 1, solvent::any_count});
  CHECK(s.step == 12);
  CHECK(s.scalars == std::vector<double>{1.0, 2.0, 3.0});
  CHECK(s.vectors.front() == std::vector<double>{4.0, 5.0});
  CHECK_THROWS_WITH_AS(
      solvent::read_rank_checkpoint(dir, solvent::single_rank(), {"w", 0.1, 2, 1, 2}),
      ((dir / "checkpoint.bin").string() +
       ": a damaged checkpoint: 1 vectors and 3 scalars where w keeps 1 and 2; rerun with "
       "--overwrite")
          .c_str(),
      solvent::InputError);
}

TEST_CASE("files of another count of ranks are refused, naming the files and both counts") {
  const auto dir = fresh_dir("ranks");
  solvent::write_rank_checkpoint(dir, solvent::single_rank(), three_scalars(), "w", 0.1);
  // What is not a rank's latest file does not count.
  for (const char* other : {"checkpoint.rank-7.previous.bin", "checkpoint.rank-x.bin",
                            "checkpoint.rank-.bin", "checkpoint.rank-99999999999.bin"})
    std::ofstream(dir / other) << "x";
  const solvent::CheckpointShape shape{"w", 0.1, 2, 1, 3};
  CHECK(solvent::read_rank_checkpoint(dir, solvent::single_rank(), shape).step == 12);
  auto refused = [&](const std::string& what) {
    CHECK_THROWS_WITH_AS(solvent::read_rank_checkpoint(dir, solvent::single_rank(), shape),
                         ((dir / "checkpoint.bin").string() + ": the checkpoint of a run on " +
                          what + ", and this run is on 1 rank (resume it on " +
                          what.substr(0, what.find(' ')) + " ranks); rerun with --overwrite")
                             .c_str(),
                         solvent::InputError);
  };
  std::ofstream(dir / "checkpoint.rank-1.bin") << "x";
  refused("2 ranks (checkpoint.bin and checkpoint.rank-1.bin)");
  // A rank's file missing between: the count is the highest rank's (that rank names it).
  std::ofstream(dir / "checkpoint.rank-3.bin") << "x";
  refused("4 ranks (checkpoint.bin and checkpoint.rank-1.bin to checkpoint.rank-3.bin)");
}
