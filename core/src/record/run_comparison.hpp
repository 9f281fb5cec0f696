#pragma once
// What differs between a run folder and its rerun (`solvent verify`): every file compared
// byte for byte, apart from what a rerun cannot repeat — timings (a record's [seconds] and
// [host], its process id, command line and clock times; any key or column whose name holds
// "seconds", and a sweep table's wall_s) and logs (log.txt, log.rank-N.txt, *.log). A file
// that differs is named with its first differing value: the key of a record.toml (a plugin
// whose SHA-256 changed said as such), the line and column of a CSV table, the array and
// index of a VTK field, else the first differing byte.
#include <toml++/toml.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace solvent {

struct FileDifference {
  std::string file;  // relative to the folders compared
  std::string what;  // "line 7, column mass_C: recorded 0.1, rerun 0.2"
};

struct FolderComparison {
  std::vector<FileDifference> differences;  // in path order
  // Files in the recorded folder that no record there lists and the rerun did not write:
  // put there after the run (a plot drawn from its tables, say), so not the run's output.
  std::vector<std::string> left_aside;
};

// Every difference between the files of `recorded` and those of `rerun`.
FolderComparison compare_run_folders(const std::filesystem::path& recorded,
                                     const std::filesystem::path& rerun);

// Two records: every plugin whose SHA-256 changed, then the first other differing key.
std::vector<std::string> record_differences(const toml::table& recorded, const toml::table& rerun);
// The first difference of a table or a VTK file, empty where they agree (timings aside).
std::optional<std::string> csv_difference(std::string_view recorded, std::string_view rerun);
std::optional<std::string> vtk_difference(std::string_view recorded, std::string_view rerun);

}  // namespace solvent
