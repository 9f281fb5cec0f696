#pragma once
// The files a run writes into its output directory, noted as they are written
// (write_file_atomic and the observables file), listed in record.toml under [output] files,
// so that `--overwrite` later removes exactly those and nothing a user put beside them.
#include <filesystem>
#include <vector>

namespace solvent {

void note_written(const std::filesystem::path& path);
// The files noted so far, in the order first written.
std::vector<std::filesystem::path> written_files();

// The file that marks a directory as a Solvent output directory.
inline constexpr const char* output_marker = ".solvent-output";

}  // namespace solvent
