#pragma once
#include <filesystem>
#include <string>
#include <string_view>

namespace solvent {
// Hex SHA-256 (OpenSSL's EVP) of a file's bytes: identifies the exact plugin binary run.
std::string sha256_of_file(const std::filesystem::path& path);
// Hex SHA-256 of bytes in memory: identifies a resolved configuration.
std::string sha256_of(std::string_view bytes);
}  // namespace solvent
