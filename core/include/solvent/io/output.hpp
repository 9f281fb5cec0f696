#pragma once
// Files in an output directory are written under a temporary name and renamed into place,
// so an interrupted run never leaves a half-written file that looks complete; the content
// reaches the disk (fsync) before the rename, and a failed write throws solvent::Error
// naming the path and the OS's reason.
#include <filesystem>
#include <string_view>

namespace solvent {

void write_file_atomic(const std::filesystem::path& path, std::string_view content);

}  // namespace solvent
