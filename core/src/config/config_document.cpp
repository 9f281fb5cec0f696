#include "config/config_document.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

namespace solvent {

namespace {
constexpr std::string_view override_source = "--set";

// The value of `--set a.b=VALUE`: TOML if it parses as a TOML value, else a plain string,
// so both `--set model.M=200` and `--set linear_solver.type=lapack` do what they say.
toml::table parse_override_value(const std::string& value) {
  try {
    return toml::parse("value = " + value, std::string(override_source));
  } catch (const toml::parse_error&) {
    // A node made in code has no source position; where() reports it as "--set".
    return toml::table{{"value", value}};
  }
}

// `--set section.key=value` applied to a parsed document.
void apply_overrides(ConfigDocument& doc, const std::vector<std::string>& overrides) {
  std::vector<std::string> problems;
  for (const auto& o : overrides) {
    const auto eq = o.find('=');
    if (eq == std::string::npos || eq == 0) {
      problems.push_back(fmt::format("--set {}: expected section.key=value", o));
      continue;
    }
    const std::string path = o.substr(0, eq);
    const std::string value = o.substr(eq + 1);
    // `--set section.key=` with nothing after '=' removes the key (an empty string is
    // written `key=""`), so a setting of the file can be dropped without editing it.
    const bool remove = value.empty();
    auto parsed = parse_override_value(remove ? "0" : value);
    toml::table* t = &doc.table;
    std::size_t start = 0;
    bool ok = true;
    while (true) {
      auto dot = path.find('.', start);
      const std::string part =
          path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      if (part.empty()) {
        ok = false;
        break;
      }
      if (dot == std::string::npos) {
        if (!remove) {
          t->insert_or_assign(part, std::move(*parsed.get("value")));
        } else if (t->erase(part) == 0) {
          problems.push_back(fmt::format("--set {}: there is no key '{}' to remove", o, path));
        }
        break;
      }
      auto* next = t->get(part);
      if (next == nullptr && remove) {
        problems.push_back(fmt::format("--set {}: there is no key '{}' to remove", o, path));
        break;
      }
      if (next == nullptr) next = &t->insert(part, toml::table{}).first->second;
      if (!next->is_table()) {
        ok = false;
        break;
      }
      t = next->as_table();
      start = dot + 1;
    }
    if (!ok) problems.push_back(fmt::format("--set {}: '{}' is not a section.key path", o, path));
  }
  if (!problems.empty()) throw ConfigError(problems);
}

ConfigDocument parse(const std::filesystem::path& file, const auto& read) {
  ConfigDocument doc;
  doc.file = file;
  try {
    doc.table = read();
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    throw ConfigError({fmt::format("{}:{}:{}: TOML syntax error: {}", file.string(), b.line,
                                   b.column, e.description())});
  }
  return doc;
}
}  // namespace

ConfigDocument load_config_document(const std::filesystem::path& file,
                                    const std::vector<std::string>& overrides) {
  if (!std::filesystem::exists(file))
    throw ConfigError({fmt::format("{}: no such configuration file", file.string())});
  // toml++ reads a folder as an empty file, which would be reported as missing sections.
  if (std::filesystem::is_directory(file))
    throw ConfigError({fmt::format(
        "{}: is a folder, not a configuration file (a results folder's configuration is "
        "{}; to continue its run: solvent run --resume {})",
        file.string(), (file / "config.toml").string(), file.string())});
  auto doc = parse(file, [&] { return toml::parse_file(file.string()); });
  apply_overrides(doc, overrides);
  return doc;
}

ConfigDocument parse_config_document(std::string_view text, const std::filesystem::path& file,
                                     const std::vector<std::string>& overrides) {
  auto doc = parse(file, [&] { return toml::parse(text, file.string()); });
  apply_overrides(doc, overrides);
  return doc;
}

std::string where(const toml::node& node) {
  const auto& s = node.source();
  if (s.path && *s.path == override_source) return std::string(override_source);
  if (!s.path || s.begin.line == 0) return std::string(override_source);
  return fmt::format("{}:{}:{}", *s.path, s.begin.line, s.begin.column);
}

}  // namespace solvent
