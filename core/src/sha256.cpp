#include "sha256.hpp"

#include <solvent/errors.hpp>

#include <openssl/evp.h>

#include <array>
#include <fstream>
#include <memory>

namespace solvent {

std::string sha256_of_file(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error("cannot read " + path.string() + " to hash it");
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr);
  std::array<char, 1 << 16> buf{};
  while (f) {
    f.read(buf.data(), buf.size());
    EVP_DigestUpdate(ctx.get(), buf.data(), static_cast<std::size_t>(f.gcount()));
  }
  std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx.get(), md.data(), &len);
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < len; ++i) {
    out += hex[md[i] >> 4];
    out += hex[md[i] & 15];
  }
  return out;
}

}  // namespace solvent
