#pragma once
// A plugin's parameter schema and the resolved values the core hands it.
//
// The schema drives everything the user sees about a plugin: validation of the TOML
// section (unknown key, wrong type, out of range, nearest valid name), defaults filled
// into the resolved configuration, and `solvent describe`. Names are dotted paths
// relative to the plugin's section: "M" is [model] M, "parameters.dC" is
// [model.parameters] dC.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace solvent {

enum class ParamType { Boolean, Integer, Real, String, RealList, IntegerList, StringList };

std::string_view to_string(ParamType t);

using ParamValue = std::variant<bool, std::int64_t, double, std::string, std::vector<double>,
                                std::vector<std::int64_t>, std::vector<std::string>>;

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::Real;
  ParamValue default_value = 0.0;
  std::string doc;
  std::string unit;
  std::optional<double> min;  // bounds apply to numbers and to every element of a list
  std::optional<double> max;
  bool min_exclusive = false;
  bool max_exclusive = false;
  std::vector<std::string> choices;  // for strings: the only accepted values
  // Named parameter sets: for a choice parameter, the defaults each choice gives to other
  // keys of the same section (keys the user writes still win). Resolved before anything
  // is written, so the resolved configuration shows the values actually used.
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, ParamValue>>>> presets;
  // A string naming a file the plugin reads. The core resolves a relative path against the
  // folder of the configuration file that wrote it (against the working directory when it
  // came from --set), hands the plugin the absolute path (which config.toml records), and
  // refuses a file it cannot open at the key's line (exit 2). A value "name:rest" with no
  // '/' before the ':' (builtin:box) is a name the plugin knows, not a path.
  bool reads_file = false;

  // Fluent constructors keep schemas one readable line per parameter.
  static ParamSpec boolean(std::string name, bool def, std::string doc);
  static ParamSpec integer(std::string name, std::int64_t def, std::string doc);
  static ParamSpec real(std::string name, double def, std::string doc);
  static ParamSpec string(std::string name, std::string def, std::string doc);
  static ParamSpec choice(std::string name, std::string def, std::vector<std::string> choices,
                          std::string doc);
  static ParamSpec reals(std::string name, std::vector<double> def, std::string doc);
  static ParamSpec strings(std::string name, std::vector<std::string> def, std::string doc);

  // Modifiers of a spec being built, each returning the spec by value, so that a schema is
  // a plain list: {ParamSpec::integer("steps", 10, "...").at_least(1), ...}.
  ParamSpec at_least(double v) &&;
  ParamSpec above(double v) &&;
  ParamSpec at_most(double v) &&;
  ParamSpec below(double v) &&;
  ParamSpec in_unit(std::string u) &&;
  ParamSpec input_file() &&;  // sets reads_file
  ParamSpec with_preset(std::string choice, std::vector<std::pair<std::string, ParamValue>> d) &&;
};

using Schema = std::vector<ParamSpec>;

// Where a resolved value came from, kept for the run record.
enum class Origin { Default, File, CommandLine };

class Parameters {
 public:
  struct Entry {
    ParamValue value;
    Origin origin = Origin::Default;
    std::string where;  // "file.toml:12:5", "--set", or empty for defaults
  };

  void set(const std::string& name, ParamValue value, Origin origin = Origin::Default,
           std::string where = {});

  bool has(const std::string& name) const { return entries_.count(name) != 0; }
  // True when the user wrote the value (file or --set), false for a filled-in default.
  bool given(const std::string& name) const;
  // "where: label" for a key the user wrote (where: "file.toml:12:5" or "--set"), `label`
  // alone for a default: what a plugin's message about that key starts with.
  std::string located(const std::string& name, const std::string& label) const;

  bool boolean(const std::string& name) const;
  std::int64_t integer(const std::string& name) const;
  double real(const std::string& name) const;
  const std::string& string(const std::string& name) const;
  const std::vector<double>& reals(const std::string& name) const;
  const std::vector<std::string>& strings(const std::string& name) const;

  const std::map<std::string, Entry>& entries() const { return entries_; }

 private:
  const Entry& entry(const std::string& name) const;
  std::map<std::string, Entry> entries_;
};

}  // namespace solvent
