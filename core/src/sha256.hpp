#pragma once
#include <filesystem>
#include <string>

namespace solvent {
// Hex SHA-256 of a file's bytes (OpenSSL's EVP); identifies the exact plugin binary run.
std::string sha256_of_file(const std::filesystem::path& path);
}  // namespace solvent
