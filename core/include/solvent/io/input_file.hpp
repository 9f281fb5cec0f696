#pragma once
// Input files (a matrix, a mesh) are read whole into memory and parsed from there, so a
// reader can be run on text that never was a file (the fuzz targets in fuzz/) and every
// count a file declares can be compared with the bytes that are really there before
// anything of that size is allocated.
#include <filesystem>
#include <string>

namespace solvent {

// The bytes of `path`. Throws InputError "<file>: is a directory" or
// "<file>: cannot open for reading".
std::string read_input_file(const std::filesystem::path& path);

}  // namespace solvent
