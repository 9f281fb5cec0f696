#pragma once
// Facts fixed when Solvent was built (configure_file fills them in).
namespace solvent::build_info {
extern const char* const git_commit;
extern const char* const compiler;
extern const char* const build_type;
extern const char* const cuda_compiler;
extern const char* const boost_version;
extern const char* const spdlog_version;
extern const char* const fmt_version;
extern const char* const tomlplusplus_version;
// The SPDX identifier of the licence in LICENSE, said by --version and in every record.
inline constexpr const char* licence = "BSD-3-Clause";
}  // namespace solvent::build_info
