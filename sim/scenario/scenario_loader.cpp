// Scenario loading: read the file, parse it (unknown fields rejected), apply
// the command-line overrides through protobuf reflection, then validate
// (sim/scenario/scenario_validate.cpp). Every user error is a ScenarioError.
#include "sim/scenario/scenario_loader.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "sim/scenario/grid_rule.hpp"
#include "sim/scenario/memory_fit.hpp"
#include "sim/scenario/scenario_check.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_validate.hpp"
#include "sim/support/suggest.hpp"

namespace hplsim::sim {
namespace pb = google::protobuf;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScenarioError(path + ": cannot open scenario: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string directory_of(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

/// Parses all of `text` as T; false on trailing characters, sign or range errors.
template <class T> bool parse_exact(const std::string& text, T& out) {
  const char* end = text.data() + text.size();
  const auto result = std::from_chars(text.data(), end, out);
  return result.ec == std::errc{} && result.ptr == end && !text.empty();
}

std::string enum_names(const pb::EnumDescriptor* type) {
  std::string names;
  for (int i = 0; i < type->value_count(); ++i)
    names += (i > 0 ? ", " : "") + type->value(i)->name();
  return names;
}

/// Sets one scalar field from its text (element `index` of a repeated field,
/// appended when `index` is its size; -1 for a singular field); throws naming
/// the override.
void set_scalar(pb::Message& msg, const pb::FieldDescriptor* field, int index, const std::string& value,
                const std::string& label, const std::string& path) {
  const pb::Reflection* r = msg.GetReflection();
  const bool append = index >= 0 && index == r->FieldSize(msg, field);
  auto bad = [&](const std::string& expected) {
    return ScenarioError(label + ": " + path + " expects " + expected + ", got \"" + value + "\"");
  };
  // One setter per type: singular, element of a repeated field, or appended.
#define HPLSIM_SET(Type, v)                                                                                  \
  (index < 0 ? r->Set##Type(&msg, field, v)                                                                  \
   : append  ? r->Add##Type(&msg, field, v)                                                                  \
             : r->SetRepeated##Type(&msg, field, index, v))
  switch (field->cpp_type()) {
  case pb::FieldDescriptor::CPPTYPE_INT32: {
    std::int32_t v = 0;
    if (!parse_exact(value, v)) throw bad("an integer in int32 range");
    HPLSIM_SET(Int32, v);
    break;
  }
  case pb::FieldDescriptor::CPPTYPE_INT64: {
    std::int64_t v = 0;
    if (!parse_exact(value, v)) throw bad("an integer in int64 range");
    HPLSIM_SET(Int64, v);
    break;
  }
  case pb::FieldDescriptor::CPPTYPE_UINT32: {
    std::uint32_t v = 0;
    if (!parse_exact(value, v)) throw bad("a non-negative integer in uint32 range");
    HPLSIM_SET(UInt32, v);
    break;
  }
  case pb::FieldDescriptor::CPPTYPE_UINT64: {
    std::uint64_t v = 0;
    if (!parse_exact(value, v)) throw bad("a non-negative integer in uint64 range");
    HPLSIM_SET(UInt64, v);
    break;
  }
  case pb::FieldDescriptor::CPPTYPE_DOUBLE:
  case pb::FieldDescriptor::CPPTYPE_FLOAT: {
    double v = 0.0;
    if (!parse_exact(value, v) || !std::isfinite(v)) throw bad("a finite number");
    if (field->cpp_type() == pb::FieldDescriptor::CPPTYPE_DOUBLE)
      HPLSIM_SET(Double, v);
    else
      HPLSIM_SET(Float, static_cast<float>(v));
    break;
  }
  case pb::FieldDescriptor::CPPTYPE_BOOL:
    if (value != "true" && value != "false") throw bad("true or false");
    HPLSIM_SET(Bool, value == "true");
    break;
  case pb::FieldDescriptor::CPPTYPE_ENUM: {
    const pb::EnumValueDescriptor* v = field->enum_type()->FindValueByName(value);
    if (v == nullptr)
      throw ScenarioError(label + ": " + path + " has no value " + value + "; expected one of " +
                          enum_names(field->enum_type()));
    HPLSIM_SET(Enum, v);
    break;
  }
  case pb::FieldDescriptor::CPPTYPE_STRING:
    HPLSIM_SET(String, value);
    break;
  case pb::FieldDescriptor::CPPTYPE_MESSAGE:
    throw ScenarioError(label + ": " + path + " is a message (" + field->message_type()->name() +
                        "); set one of its fields, e.g. " + path + "." +
                        (field->message_type()->field_count() > 0 ? field->message_type()->field(0)->name()
                                                                  : std::string("...")) +
                        "=...");
  }
#undef HPLSIM_SET
}

/// The field names of `type`, for a "did you mean".
std::vector<std::string> field_names(const pb::Descriptor* type) {
  std::vector<std::string> names;
  for (int i = 0; i < type->field_count(); ++i)
    names.push_back(type->field(i)->name());
  return names;
}

/// Splits one step of a --set path, "link_flaps[2]", into its name and index
/// (-1 without brackets); throws on a malformed index.
std::pair<std::string, int> path_step(const std::string& step, const std::string& label) {
  const auto open = step.find('[');
  if (open == std::string::npos) return {step, -1};
  int index = -1;
  const std::string digits = step.substr(open + 1, step.size() - open - 2);
  if (step.back() != ']' || !parse_exact(digits, index) || index < 0)
    throw ScenarioError(label + ": " + step + ": expected NAME[INDEX] with INDEX a whole number >= 0");
  return {step.substr(0, open), index};
}

/// Applies one "--set a.b.c=value", creating sub-messages on the way. A
/// repeated field takes an index, "faults.link_flaps[0].duration_s=3": an
/// existing element is changed, the index one past the last appends one.
void apply_set(Scenario& scenario, const std::string& entry, detail::OverrideLog& log) {
  const std::string label = "--set " + entry;
  const auto eq = entry.find('=');
  if (eq == std::string::npos || eq == 0) throw ScenarioError(label + ": expected FIELD.PATH=VALUE");
  const std::string path = entry.substr(0, eq);
  const std::string value = entry.substr(eq + 1);
  pb::Message* msg = &scenario;
  std::string done; // the path walked so far
  std::size_t begin = 0;
  while (true) {
    const auto dot = path.find('.', begin);
    const std::string step = path.substr(begin, dot == std::string::npos ? std::string::npos : dot - begin);
    const bool last = dot == std::string::npos;
    const pb::Descriptor* type = msg->GetDescriptor();
    if (step.empty()) throw ScenarioError(label + ": empty field name in " + path);
    const auto [name, index] = path_step(step, label);
    const pb::FieldDescriptor* field = type->FindFieldByName(name);
    if (field == nullptr) {
      std::string message = label + ": " + type->name() + " has no field " + name;
      if (const auto near = closest_name(name, field_names(type)))
        message += "; did you mean " + done + (done.empty() ? "" : ".") + *near +
                   (index >= 0 ? "[" + std::to_string(index) + "]" : std::string()) +
                   (last ? std::string() : path.substr(dot)) + "?";
      throw ScenarioError(message);
    }
    done += (done.empty() ? "" : ".") + name;
    const pb::Reflection* r = msg->GetReflection();
    if (field->is_repeated()) {
      const int size = r->FieldSize(*msg, field);
      if (index < 0)
        throw ScenarioError(label + ": " + done + " is a repeated field (" + std::to_string(size) +
                            " in the scenario); give an element: " + done + "[0]" +
                            (last ? std::string() : path.substr(dot)) + ", or " + done + "[" +
                            std::to_string(size) + "] to append one");
      if (index > size)
        throw ScenarioError(label + ": " + done + "[" + std::to_string(index) + "] is out of range: " + done +
                            " has " + std::to_string(size) + " element" + (size == 1 ? "" : "s") +
                            " in the scenario (give an index from 0 to " + std::to_string(size) + ", where " +
                            std::to_string(size) + " appends one)");
      done += "[" + std::to_string(index) + "]";
    } else if (index >= 0) {
      throw ScenarioError(label + ": " + done + " is not a repeated field; it takes no index");
    }
    // Setting one member of a oneof would silently clear another (e.g. turn a
    // dragonfly into an empty fat tree): refuse instead.
    if (const pb::OneofDescriptor* oneof = field->containing_oneof()) {
      const pb::FieldDescriptor* current = r->GetOneofFieldDescriptor(*msg, oneof);
      if (current != nullptr && current != field)
        throw ScenarioError(label + ": " + done + " conflicts with " + current->name() +
                            ", which the scenario sets (only one of " + oneof->name() + " can be set)");
    }
    if (last) {
      set_scalar(*msg, field, index, value, label, done);
      break;
    }
    if (field->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE)
      throw ScenarioError(label + ": " + done + " is not a message; it has no field " +
                          path.substr(dot + 1, path.find('.', dot + 1) - dot - 1));
    if (index < 0)
      msg = r->MutableMessage(msg, field);
    else
      msg = index == r->FieldSize(*msg, field) ? r->AddMessage(msg, field)
                                               : r->MutableRepeatedMessage(msg, field, index);
    begin = dot + 1;
  }
  log.record(done, label);
}

Options::Mode parse_mode_flag(const std::string& mode) {
  std::string upper = mode;
  for (char& c : upper)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  Options::Mode out = Options::AUTO;
  if (!Options::Mode_Parse(upper, &out))
    throw ScenarioError("--mode " + mode + ": expected one of auto, reference, analytic, fast");
  return out;
}

void apply_overrides(Scenario& scenario, const ScenarioOverrides& o, detail::OverrideLog& log) {
  for (const std::string& entry : o.set)
    apply_set(scenario, entry, log);
  // Each flag sets one field; mutable_*() only when a flag is given, so a
  // scenario without a workload still reports "workload is required".
  auto flag = [&log](const char* name, const char* path, auto value) {
    log.record(path, std::string("--") + name + " " + std::to_string(value));
  };
  if (o.nodes) {
    scenario.mutable_workload()->set_nodes(*o.nodes);
    flag("nodes", "workload.nodes", *o.nodes);
  }
  if (o.ppn) {
    scenario.mutable_workload()->set_ranks_per_node(*o.ppn);
    flag("ppn", "workload.ranks_per_node", *o.ppn);
  }
  if (o.n) {
    scenario.mutable_workload()->set_n(*o.n);
    flag("N", "workload.n", *o.n);
  }
  if (o.nb) {
    scenario.mutable_workload()->set_nb(*o.nb);
    flag("NB", "workload.nb", *o.nb);
  }
  if (o.p) {
    scenario.mutable_workload()->set_p(*o.p);
    flag("P", "workload.p", *o.p);
  }
  if (o.q) {
    scenario.mutable_workload()->set_q(*o.q);
    flag("Q", "workload.q", *o.q);
  }
  if (o.depth) {
    scenario.mutable_workload()->set_depth(*o.depth);
    flag("depth", "workload.depth", *o.depth);
  }
  if (o.mode) {
    scenario.mutable_options()->set_mode(parse_mode_flag(*o.mode));
    log.record("options.mode", "--mode " + *o.mode);
  }
  if (o.seed) {
    scenario.mutable_options()->set_seed(*o.seed);
    flag("seed", "options.seed", *o.seed);
  }
  if (o.allow_oversubscription) {
    scenario.mutable_options()->set_allow_memory_oversubscription(true);
    log.record("options.allow_memory_oversubscription", "--allow-oversubscription");
  }
}

// --nodes K: the run re-derived for K nodes by the grid rule
// (sim/scenario/grid_rule.hpp): the active nodes and P x Q unless --P, --Q or
// --set gives either, N unless --N or --set gives it (lowered to fit the
// memory after validation: fit_rederived_n). Returns what was done ("" when
// nothing changed); the values are logged as the flag's, so a problem with
// them names --nodes.
struct NodesFlag {
  std::string note;
  bool n_rederived = false;
};
NodesFlag rederive_for_nodes_flag(const Workload& file, Scenario& scenario, const ScenarioOverrides& o,
                                  detail::OverrideLog& log) {
  if (!o.nodes || !scenario.has_workload()) return {};
  Workload& w = *scenario.mutable_workload();
  const bool grid_given = log.find({"workload.p", "workload.q"}) != nullptr;
  const bool n_given = log.find({"workload.n"}) != nullptr;
  const std::int64_t ppn = w.has_ranks_per_node() ? w.ranks_per_node() : 1;
  if ((grid_given && n_given) || file.p() < 1 || file.q() < 1 || file.n() < 1 || w.nb() < 1 || *o.nodes < 1 ||
      ppn < 1 || std::int64_t{*o.nodes} * ppn > std::numeric_limits<int>::max())
    return {}; // nothing to re-derive, or validation reports the bad field
  // The scenario file's run (its grid's shape, its matrix memory per rank),
  // at the NB and ranks per node now in effect.
  WorkloadConfig from;
  from.p = file.p();
  from.q = file.q();
  from.n = file.n();
  from.nb = w.nb();
  from.ranks_per_node = w.has_ranks_per_node() ? w.ranks_per_node() : 1;
  const Rederived r = rederive_for_nodes(from, *o.nodes);
  NodesFlag out;
  std::string& note = out.note;
  const std::string label = "--nodes " + std::to_string(*o.nodes) + " (re-derived)";
  if (!grid_given && r.active_nodes < *o.nodes) {
    w.set_nodes(r.active_nodes);
    log.record("workload.nodes", label);
    note = "HPL on " + std::to_string(r.active_nodes) + " of the nodes, " +
           std::to_string(*o.nodes - r.active_nodes) + " idle (" + std::to_string(*o.nodes) + " x " +
           std::to_string(from.ranks_per_node) + " ranks factor badly)";
  }
  if (!grid_given && (r.p != from.p || r.q != from.q)) {
    w.set_p(r.p);
    w.set_q(r.q);
    log.record("workload.p", label);
    log.record("workload.q", label);
    note += (note.empty() ? "" : ", ") + std::string("P x Q ") + std::to_string(from.p) + " x " +
            std::to_string(from.q) + " -> " + std::to_string(r.p) + " x " + std::to_string(r.q);
  }
  // With the grid given, N follows its ranks (nodes x ranks per node, none idle).
  const std::int64_t n =
      grid_given ? same_memory_per_rank_n(from, *o.nodes * from.ranks_per_node, from.nb) : r.n;
  if (!n_given && n != from.n) {
    w.set_n(n);
    log.record("workload.n", label);
    out.n_rederived = true;
    note +=
        (note.empty() ? "" : ", ") + std::string("N ") + std::to_string(from.n) + " -> " + std::to_string(n);
  }
  if (note.empty()) return {};
  note = "--nodes " + std::to_string(*o.nodes) + ": " + note;
  return out;
}

// A re-derived N lowered to the largest that fits the declared memory when the
// re-derived grid's panels would not fit (fit_n_to_memory). Returns what was
// done ("" when nothing).
std::string fit_rederived_n(LoadedScenario& loaded, detail::OverrideLog& log, int nodes) {
  const auto fits = fit_n_to_memory(resolve(loaded));
  if (!fits) return "";
  loaded.scenario.mutable_workload()->set_n(*fits);
  log.record("workload.n", "--nodes " + std::to_string(nodes) + " (re-derived)");
  return ", lowered to " + std::to_string(*fits) + " to fit the declared memory";
}

// 9234 -> "9,234".
std::string with_commas(std::int64_t v) {
  std::string digits = std::to_string(v < 0 ? -v : v), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (v < 0 ? "-" : "") + out;
}

// A published figure is for the run the scenario file describes: when the
// overrides changed its nodes, N, NB, P x Q or benchmark, the two runs'
// values of what differs (LoadedScenario::reference_run / this_run).
void note_reference_run(const Workload& file, LoadedScenario& loaded) {
  if (!loaded.scenario.has_reference()) return;
  const Workload& now = loaded.scenario.workload();
  std::string was, is;
  const auto add = [&](const std::string& a, const std::string& b) {
    if (a == b) return;
    was += (was.empty() ? "" : ", ") + a;
    is += (is.empty() ? "" : ", ") + b;
  };
  add(with_commas(file.nodes()) + " nodes", with_commas(now.nodes()) + " nodes");
  add("N " + with_commas(file.n()), "N " + with_commas(now.n()));
  add("NB " + std::to_string(file.nb()), "NB " + std::to_string(now.nb()));
  add("P x Q " + std::to_string(file.p()) + " x " + std::to_string(file.q()),
      "P x Q " + std::to_string(now.p()) + " x " + std::to_string(now.q()));
  const auto bench = [](const Workload& w) {
    return w.benchmark() == Workload::HPL_MXP ? std::string("HPL-MxP") : std::string("HPL");
  };
  add(bench(file), bench(now));
  loaded.reference_run = was;
  loaded.this_run = is;
}

LoadedScenario load(const std::string& text, const std::string& path, const ScenarioOverrides& overrides) {
  LoadedScenario loaded;
  loaded.path = path;
  loaded.base_dir = directory_of(path);
  loaded.sourced_only = overrides.sourced_only;
  pb::TextFormat::ParseInfoTree tree;
  detail::parse_textproto(text, path, loaded.scenario, tree);
  detail::OverrideLog log;
  const Workload file = loaded.scenario.workload();
  apply_overrides(loaded.scenario, overrides, log);
  const NodesFlag nodes = rederive_for_nodes_flag(file, loaded.scenario, overrides, log);
  detail::validate_scenario(loaded, tree, log);
  if (!nodes.note.empty())
    loaded.rederive_note = nodes.note +
                           (nodes.n_rederived ? fit_rederived_n(loaded, log, *overrides.nodes) : "") + " (" +
                           kRederiveRule + ")";
  note_reference_run(file, loaded);
  return loaded;
}

} // namespace

LoadedScenario load_scenario(const std::string& path, const ScenarioOverrides& overrides) {
  return load(read_file(path), path, overrides);
}

LoadedScenario load_scenario_text(const std::string& text, const std::string& display_name,
                                  const ScenarioOverrides& overrides) {
  return load(text, display_name, overrides);
}

} // namespace hplsim::sim
