#include <solvent/errors.hpp>
#include <solvent/parameters.hpp>

namespace solvent {

std::string_view to_string(ParamType t) {
  switch (t) {
    case ParamType::Boolean:
      return "boolean";
    case ParamType::Integer:
      return "integer";
    case ParamType::Real:
      return "real";
    case ParamType::String:
      return "string";
    case ParamType::RealList:
      return "array of reals";
    case ParamType::IntegerList:
      return "array of integers";
    case ParamType::StringList:
      return "array of strings";
  }
  return "?";
}

namespace {
ParamSpec make(std::string name, ParamType type, ParamValue def, std::string doc) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = type;
  s.default_value = std::move(def);
  s.doc = std::move(doc);
  return s;
}
}  // namespace

ParamSpec ParamSpec::boolean(std::string name, bool def, std::string doc) {
  return make(std::move(name), ParamType::Boolean, def, std::move(doc));
}
ParamSpec ParamSpec::integer(std::string name, std::int64_t def, std::string doc) {
  return make(std::move(name), ParamType::Integer, def, std::move(doc));
}
ParamSpec ParamSpec::real(std::string name, double def, std::string doc) {
  return make(std::move(name), ParamType::Real, def, std::move(doc));
}
ParamSpec ParamSpec::string(std::string name, std::string def, std::string doc) {
  return make(std::move(name), ParamType::String, std::move(def), std::move(doc));
}
ParamSpec ParamSpec::choice(std::string name, std::string def, std::vector<std::string> choices,
                            std::string doc) {
  auto s = make(std::move(name), ParamType::String, std::move(def), std::move(doc));
  s.choices = std::move(choices);
  return s;
}
ParamSpec ParamSpec::reals(std::string name, std::vector<double> def, std::string doc) {
  return make(std::move(name), ParamType::RealList, std::move(def), std::move(doc));
}
ParamSpec ParamSpec::strings(std::string name, std::vector<std::string> def, std::string doc) {
  return make(std::move(name), ParamType::StringList, std::move(def), std::move(doc));
}

ParamSpec ParamSpec::at_least(double v) && {
  min = v;
  min_exclusive = false;
  return std::move(*this);
}
ParamSpec ParamSpec::above(double v) && {
  min = v;
  min_exclusive = true;
  return std::move(*this);
}
ParamSpec ParamSpec::at_most(double v) && {
  max = v;
  max_exclusive = false;
  return std::move(*this);
}
ParamSpec ParamSpec::below(double v) && {
  max = v;
  max_exclusive = true;
  return std::move(*this);
}
ParamSpec ParamSpec::in_unit(std::string u) && {
  unit = std::move(u);
  return std::move(*this);
}

ParamSpec ParamSpec::input_file() && {
  reads_file = true;
  return std::move(*this);
}

ParamSpec ParamSpec::with_preset(std::string choice,
                                 std::vector<std::pair<std::string, ParamValue>> d) && {
  presets.emplace_back(std::move(choice), std::move(d));
  return std::move(*this);
}

void Parameters::set(const std::string& name, ParamValue value, Origin origin, std::string where) {
  entries_[name] = Entry{std::move(value), origin, std::move(where)};
}

bool Parameters::given(const std::string& name) const {
  auto it = entries_.find(name);
  return it != entries_.end() && it->second.origin != Origin::Default;
}

std::string Parameters::located(const std::string& name, const std::string& label) const {
  const auto it = entries_.find(name);
  if (it == entries_.end() || it->second.where.empty()) return label;
  return it->second.where + ": " + label;
}

const Parameters::Entry& Parameters::entry(const std::string& name) const {
  auto it = entries_.find(name);
  if (it == entries_.end()) throw Error("internal: parameter '" + name + "' is not in the schema");
  return it->second;
}

namespace {
template <class T>
const T& get_as(const ParamValue& v, const std::string& name, const char* type) {
  if (auto p = std::get_if<T>(&v)) return *p;
  throw Error("internal: parameter '" + name + "' is not " + type);
}
}  // namespace

bool Parameters::boolean(const std::string& n) const {
  return get_as<bool>(entry(n).value, n, "a boolean");
}
std::int64_t Parameters::integer(const std::string& n) const {
  return get_as<std::int64_t>(entry(n).value, n, "an integer");
}
double Parameters::real(const std::string& n) const {
  return get_as<double>(entry(n).value, n, "a real");
}
const std::string& Parameters::string(const std::string& n) const {
  return get_as<std::string>(entry(n).value, n, "a string");
}
const std::vector<double>& Parameters::reals(const std::string& n) const {
  return get_as<std::vector<double>>(entry(n).value, n, "an array of reals");
}
const std::vector<std::string>& Parameters::strings(const std::string& n) const {
  return get_as<std::vector<std::string>>(entry(n).value, n, "an array of strings");
}

}  // namespace solvent
