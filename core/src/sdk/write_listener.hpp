#pragma once
// Who hears of each file the SDK's writers complete (write_file_atomic, write_atomically):
// the framework installs its output manifest here (io/output_manifest.cpp), so that the
// files a plugin writes reach the run record while the SDK knows nothing of records.
#include <filesystem>

namespace solvent {

using WriteListener = void (*)(const std::filesystem::path&);
// Replaces the listener; nullptr: nobody.
void set_write_listener(WriteListener listener);

}  // namespace solvent
