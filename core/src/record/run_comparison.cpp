#include "record/run_comparison.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace solvent {

namespace fs = std::filesystem;

namespace {

// A timing, by its name: the last part of a record's key, or a table's column.
bool is_timing(std::string_view name) {
  return name.find("seconds") != std::string_view::npos || name == "wall_s";
}

// What a rerun cannot repeat in a record: where and when it ran, and how it was started.
bool unrepeatable(const std::vector<std::string>& key) {
  static const std::set<std::string> run_keys{"command", "config", "pid", "started", "finished"};
  if (key.front() == "host" || key.front() == "seconds") return true;
  if (key.size() == 2 && key[0] == "run" && run_keys.contains(key[1])) return true;
  // Where a plugin was found: its SHA-256 says whether it is the same code.
  if (key.size() == 3 && key[0] == "plugins" && key[2] == "path") return true;
  return is_timing(key.back());
}

// "key.sub.leaf" -> its value as TOML text, tables opened down to their values.
void flatten(const toml::table& t, std::vector<std::string>& key,
             std::map<std::vector<std::string>, std::string>& out) {
  for (const auto& [k, node] : t) {
    key.emplace_back(k.str());
    if (const auto* sub = node.as_table()) {
      flatten(*sub, key, out);
    } else if (!unrepeatable(key)) {
      std::ostringstream os;
      node.visit([&os](const auto& v) { os << v; });
      out.emplace(key, os.str());
    }
    key.pop_back();
  }
}

std::string joined(const std::vector<std::string>& key) {
  std::string s;
  for (const auto& k : key) s += (s.empty() ? "" : ".") + k;
  return s;
}

// One line of a CSV table, split at commas outside double quotes.
std::vector<std::string> csv_fields(std::string_view line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (const char c : line) {
    if (c == '"') quoted = !quoted;
    if (c == ',' && !quoted)
      fields.emplace_back();
    else
      fields.back() += c;
  }
  return fields;
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

// Long values (a line of a VTK file) are cut for the message.
std::string shown(std::string_view s) {
  constexpr std::size_t most = 60;
  return s.size() <= most ? std::string(s) : std::string(s.substr(0, most)) + "...";
}

// The first differing whitespace-separated token of two texts, with the line it is on and
// the last Name="..." before it (the VTK array an inline value belongs to).
std::string text_difference(std::string_view a, std::string_view b) {
  std::size_t i = 0, j = 0;
  const auto space = [](char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; };
  while (true) {
    while (i < a.size() && space(a[i])) ++i;
    while (j < b.size() && space(b[j])) ++j;
    std::size_t ie = i, je = j;
    while (ie < a.size() && !space(a[ie])) ++ie;
    while (je < b.size() && !space(b[je])) ++je;
    const auto ta = a.substr(i, ie - i), tb = b.substr(j, je - j);
    if (ta != tb || ta.empty()) {
      const auto before = a.substr(0, i);
      const auto line = std::count(before.begin(), before.end(), '\n') + 1;
      std::string where = fmt::format("line {}", line);
      if (const auto name = before.rfind("Name=\""); name != std::string_view::npos) {
        const auto start = name + 6;
        where += fmt::format(", array {}", before.substr(start, before.find('"', start) - start));
      }
      return fmt::format("{}: recorded {}, rerun {}", where, ta.empty() ? "(end)" : shown(ta),
                         tb.empty() ? "(end)" : shown(tb));
    }
    i = ie;
    j = je;
  }
}

std::string first_byte_difference(std::string_view a, std::string_view b) {
  const auto n = std::min(a.size(), b.size());
  std::size_t k = 0;
  while (k < n && a[k] == b[k]) ++k;
  if (k == n)
    return fmt::format("{} bytes recorded, {} in the rerun (the same up to the shorter)",
                       a.size(), b.size());
  return fmt::format("differs from byte {} on ({} bytes recorded, {} in the rerun)", k, a.size(),
                     b.size());
}

// The value at `at` of a raw appended VTK array of `type`.
std::string raw_value(std::string_view type, const char* at) {
  if (type == "Float32") {
    float v;
    std::memcpy(&v, at, sizeof v);
    return fmt::format("{:.9g}", v);
  }
  if (type == "Int64") {
    std::int64_t v;
    std::memcpy(&v, at, sizeof v);
    return fmt::format("{}", v);
  }
  double v;
  std::memcpy(&v, at, sizeof v);
  return fmt::format("{:.17g}", v);
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot be read", p.string()));
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// Logs, which hold times and process details, and temporaries of a run still writing.
bool not_compared(const fs::path& rel) {
  const auto name = rel.filename().string();
  return rel.extension() == ".log" || name == "log.txt" ||
         (name.starts_with("log.rank-") && name.ends_with(".txt")) ||
         name.find(".tmp.") != std::string::npos;
}

std::set<fs::path> files_under(const fs::path& dir) {
  std::set<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && !not_compared(e.path().lexically_relative(dir)))
      files.insert(e.path().lexically_relative(dir));
  return files;
}

std::vector<std::string> differences_of(const fs::path& rel, const std::string& a,
                                        const std::string& b) {
  const auto ext = rel.extension();
  if (rel.filename() == "record.toml") {
    try {
      const auto ta = toml::parse(a), tb = toml::parse(b);
      return record_differences(ta, tb);
    } catch (const toml::parse_error& e) {
      return {fmt::format("not a readable record: {}", e.description())};
    }
  }
  if (a == b) return {};
  std::optional<std::string> d;
  if (ext == ".csv")
    d = csv_difference(a, b);
  else if (ext == ".vti" || ext == ".vtr" || ext == ".vtp" || ext == ".vtu" || ext == ".pvti")
    d = vtk_difference(a, b);
  else
    d = first_byte_difference(a, b);
  return d ? std::vector<std::string>{*d} : std::vector<std::string>{};
}

}  // namespace

std::vector<std::string> record_differences(const toml::table& recorded, const toml::table& rerun) {
  std::map<std::vector<std::string>, std::string> a, b;
  std::vector<std::string> key;
  flatten(recorded, key, a);
  flatten(rerun, key, b);
  std::vector<std::string> plugins;
  std::optional<std::string> other;
  std::set<std::vector<std::string>> keys;
  for (const auto& [k, v] : a) keys.insert(k);
  for (const auto& [k, v] : b) keys.insert(k);
  for (const auto& k : keys) {
    const auto ia = a.find(k), ib = b.find(k);
    const std::string va = ia == a.end() ? "(absent)" : ia->second;
    const std::string vb = ib == b.end() ? "(absent)" : ib->second;
    if (va == vb) continue;
    if (k.size() == 3 && k[0] == "plugins" && k[2] == "sha256") {
      const auto path = rerun["plugins"][k[1]]["path"].value_or(std::string());
      plugins.push_back(fmt::format("plugin '{}' ({}) changed: SHA-256 recorded {}, now {} ({})",
                                    rerun["plugins"][k[1]]["name"].value_or(std::string("?")),
                                    k[1], va, vb, path));
    } else if (!other) {
      other = fmt::format("{}: recorded {}, rerun {}", joined(k), shown(va), shown(vb));
    }
  }
  if (other) plugins.push_back(*other);
  return plugins;
}

std::optional<std::string> csv_difference(std::string_view recorded, std::string_view rerun) {
  const auto a = lines_of(recorded), b = lines_of(rerun);
  const auto header = a.empty() ? std::vector<std::string>{} : csv_fields(a.front());
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (a[i] == b[i]) continue;
    const auto fa = csv_fields(a[i]), fb = csv_fields(b[i]);
    for (std::size_t c = 0; c < std::max(fa.size(), fb.size()); ++c) {
      const std::string name = c < header.size() ? header[c] : fmt::format("{}", c + 1);
      if (i > 0 && is_timing(name)) continue;
      const std::string va = c < fa.size() ? fa[c] : "(absent)";
      const std::string vb = c < fb.size() ? fb[c] : "(absent)";
      if (va != vb)
        return fmt::format("line {}, column {}: recorded {}, rerun {}", i + 1, name, shown(va),
                           shown(vb));
    }
  }
  if (a.size() != b.size())
    return fmt::format("{} lines recorded, {} in the rerun", a.size(), b.size());
  return std::nullopt;
}

std::optional<std::string> vtk_difference(std::string_view recorded, std::string_view rerun) {
  if (recorded == rerun) return std::nullopt;
  // Raw appended data follows "_" after this element; the XML before it is text.
  constexpr std::string_view appended = "<AppendedData encoding=\"raw\">";
  const auto pa = recorded.find(appended), pb = rerun.find(appended);
  const auto start_a = pa == std::string_view::npos ? pa : recorded.find('_', pa);
  const auto start_b = pb == std::string_view::npos ? pb : rerun.find('_', pb);
  const auto xml_a = recorded.substr(0, start_a), xml_b = rerun.substr(0, start_b);
  if (xml_a != xml_b || start_a == std::string_view::npos) return text_difference(xml_a, xml_b);
  const auto data_a = recorded.substr(start_a + 1), data_b = rerun.substr(start_b + 1);
  std::size_t k = 0;
  while (k < std::min(data_a.size(), data_b.size()) && data_a[k] == data_b[k]) ++k;
  // The array holding byte k: each is a UInt64 byte count and its values, at its offset.
  static const std::regex array_re(
      R"re(<DataArray type="(\w+)"(?: Name="([^"]*)")?(?: NumberOfComponents="(\d+)")?[^>]*offset="(\d+)")re");
  struct Array {
    std::string type, name;
    std::size_t components, offset;
  };
  std::vector<Array> arrays;
  const std::string xml(xml_a);
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), array_re);
       it != std::sregex_iterator(); ++it)
    arrays.push_back({(*it)[1], (*it)[2], (*it)[3].matched ? std::stoul((*it)[3]) : 1,
                      std::stoul((*it)[4])});
  const auto holder = std::find_if(arrays.rbegin(), arrays.rend(),
                                   [k](const Array& a) { return a.offset <= k; });
  if (holder == arrays.rend() || k < holder->offset + sizeof(std::uint64_t) ||
      k >= std::min(data_a.size(), data_b.size()))
    return fmt::format("appended data {}", first_byte_difference(data_a, data_b));
  const std::size_t size = holder->type == "Float32" ? 4 : 8;
  const auto index = (k - holder->offset - sizeof(std::uint64_t)) / size;
  const auto at = holder->offset + sizeof(std::uint64_t) + index * size;
  if (at + size > std::min(data_a.size(), data_b.size()))
    return fmt::format("appended data {}", first_byte_difference(data_a, data_b));
  return fmt::format("array {}, value {} (tuple {}, component {}): recorded {}, rerun {}",
                     holder->name.empty() ? "(unnamed)" : holder->name, index,
                     index / holder->components, index % holder->components,
                     raw_value(holder->type, data_a.data() + at),
                     raw_value(holder->type, data_b.data() + at));
}

// What the runs in `dir` say they wrote, relative to it: each record.toml among `files`
// (dir's, relative to it) lists its output.files relative to its own folder. A record that
// lists nothing (made before the list existed) covers its whole folder.
std::vector<fs::path> recorded_outputs(const fs::path& dir, const std::set<fs::path>& files) {
  std::vector<fs::path> outputs;
  for (const auto& rel : files) {
    if (rel.filename() != "record.toml") continue;
    const auto folder = rel.parent_path();
    toml::table record;
    try {
      record = toml::parse_file((dir / rel).string());
    } catch (const std::exception&) {
      outputs.push_back(folder);  // unreadable: compared, as before any list
      continue;
    }
    const auto* files = record["output"]["files"].as_array();
    if (!files) outputs.push_back(folder);
    for (const auto& f : files ? *files : toml::array{})
      if (const auto name = f.value<std::string>()) outputs.push_back((folder / *name).lexically_normal());
  }
  return outputs;
}

bool among(const fs::path& rel, const std::vector<fs::path>& outputs) {
  return std::any_of(outputs.begin(), outputs.end(), [&](const fs::path& o) {
    if (o.empty()) return true;  // a record at the top that lists nothing
    return std::mismatch(o.begin(), o.end(), rel.begin(), rel.end()).first == o.end();
  });
}

FolderComparison compare_run_folders(const fs::path& recorded, const fs::path& rerun) {
  const auto a = files_under(recorded), b = files_under(rerun);
  const auto outputs = recorded_outputs(recorded, a);
  std::set<fs::path> all(a.begin(), a.end());
  all.insert(b.begin(), b.end());
  FolderComparison out;
  for (const auto& rel : all) {
    if (!b.contains(rel) && !among(rel, outputs)) {
      out.left_aside.push_back(rel.generic_string());
    } else if (!b.contains(rel)) {
      out.differences.push_back({rel.generic_string(), "not written by the rerun"});
    } else if (!a.contains(rel)) {
      out.differences.push_back({rel.generic_string(), "written by the rerun only"});
    } else {
      for (auto& d : differences_of(rel, read_file(recorded / rel), read_file(rerun / rel)))
        out.differences.push_back({rel.generic_string(), std::move(d)});
    }
  }
  return out;
}

}  // namespace solvent
