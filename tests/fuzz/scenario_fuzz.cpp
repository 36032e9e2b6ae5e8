// libFuzzer target for the scenario loader: protobuf text parsing, the
// `--set FIELD=VALUE` and HPL.dat-style overrides, validation, and resolve().
//
// Input format (so that a shipped .textproto is a valid input as is):
//   leading lines starting with "#@" are overrides, each one of
//     #@set FIELD.PATH=VALUE           -> ScenarioOverrides::set (in order)
//     #@nodes=N #@ppn=N #@p=N #@q=N #@depth=N #@n=N #@nb=N #@seed=N #@mode=NAME
//   (a "#@" line that is none of these is ignored); the rest is the scenario text.
//
// Expected outcome for bad input: hplsim::sim::ScenarioError. Any other
// exception escaping, a crash or a sanitizer report is a finding.
//
// Files: the scenario is named as if it were
// HPLSIM_SOURCE_DIR/scenarios/validation/fuzz-input.textproto, so the
// validation scenarios' "../../models/calibrations/..." references resolve to
// the real calibration files. Nothing is written. To keep inputs from reading
// arbitrary files (/dev/zero, a FIFO, /proc/...), an input is skipped unless
// every *_file field it sets (in the text or by an override) resolves,
// lexically, under HPLSIM_SOURCE_DIR/models or HPLSIM_SOURCE_DIR/scenarios to
// a missing path or a small regular file, both next to the scenario and under
// the data root.
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/message.h>
#include <google/protobuf/text_format.h>

#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_loader.hpp"

namespace {
namespace fs = std::filesystem;
namespace pb = google::protobuf;
using hplsim::sim::ScenarioOverrides;

const fs::path kSource = fs::path(HPLSIM_SOURCE_DIR).lexically_normal();
const fs::path kBaseDir = kSource / "scenarios" / "validation";
const std::string kDisplayName = (kBaseDir / "fuzz-input.textproto").string();
constexpr std::uintmax_t kMaxFileBytes = 256 * 1024;

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

bool under(const fs::path& p, const fs::path& dir) {
  auto d = dir.begin();
  auto q = p.begin();
  for (; d != dir.end(); ++d, ++q)
    if (q == p.end() || *q != *d) return false;
  return true;
}

/// `file` is under models/ or scenarios/ and missing or a small regular file.
bool safe_file(const fs::path& file) {
  if (!under(file, kSource / "models") && !under(file, kSource / "scenarios")) return false;
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(file, ec);
  if (ec || st.type() == fs::file_type::not_found) return true; // missing: the open fails
  if (st.type() != fs::file_type::regular) return false;
  const auto size = fs::file_size(file, ec);
  return !ec && size <= kMaxFileBytes;
}

/// A *_file value the loader may open without reading anything it should not:
/// both places it looks (sim/scenario/scenario_paths.hpp; the data root is the
/// source tree here) are safe.
bool safe_file_value(const std::string& value) {
  if (value.find('\0') != std::string::npos) return false;
  const fs::path given = fs::path(value).lexically_normal();
  fs::path stripped;
  bool leading = true;
  for (const fs::path& part : given) {
    if (leading && part == "..") continue;
    leading = false;
    stripped /= part;
  }
  const fs::path fallback = given.is_absolute() ? given : (kSource / stripped).lexically_normal();
  return safe_file((kBaseDir / value).lexically_normal()) && safe_file(fallback);
}

/// Every string field named *_file set anywhere in `msg` is safe.
bool safe_files(const pb::Message& msg) {
  const pb::Reflection* r = msg.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(msg, &fields);
  for (const pb::FieldDescriptor* f : fields) {
    if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      if (f->is_repeated()) {
        for (int i = 0; i < r->FieldSize(msg, f); ++i)
          if (!safe_files(r->GetRepeatedMessage(msg, f, i))) return false;
      } else if (!safe_files(r->GetMessage(msg, f))) {
        return false;
      }
    } else if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_STRING && ends_with(f->name(), "_file")) {
      if (f->is_repeated()) {
        for (int i = 0; i < r->FieldSize(msg, f); ++i)
          if (!safe_file_value(r->GetRepeatedString(msg, f, i))) return false;
      } else if (!safe_file_value(r->GetString(msg, f))) {
        return false;
      }
    }
  }
  return true;
}

template <class T> std::optional<T> number(std::string_view text) {
  T v{};
  const auto res = std::from_chars(text.data(), text.data() + text.size(), v);
  if (res.ec != std::errc{} || res.ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

/// Splits the leading "#@" lines off into overrides; returns the scenario text.
std::string split_input(std::string_view in, ScenarioOverrides& ov) {
  while (in.size() >= 2 && in.substr(0, 2) == "#@") {
    const auto nl = in.find('\n');
    const std::string_view line =
        in.substr(2, nl == std::string_view::npos ? std::string_view::npos : nl - 2);
    in = nl == std::string_view::npos ? std::string_view{} : in.substr(nl + 1);
    auto value = [&line](std::string_view key) -> std::optional<std::string_view> {
      if (line.size() > key.size() && line.substr(0, key.size()) == key) return line.substr(key.size());
      return std::nullopt;
    };
    if (auto v = value("set "))
      ov.set.emplace_back(*v);
    else if (auto v = value("nodes="))
      ov.nodes = number<int>(*v);
    else if (auto v = value("ppn="))
      ov.ppn = number<int>(*v);
    else if (auto v = value("p="))
      ov.p = number<int>(*v);
    else if (auto v = value("q="))
      ov.q = number<int>(*v);
    else if (auto v = value("depth="))
      ov.depth = number<int>(*v);
    else if (auto v = value("n="))
      ov.n = number<long long>(*v);
    else if (auto v = value("nb="))
      ov.nb = number<long long>(*v);
    else if (auto v = value("seed="))
      ov.seed = number<unsigned long long>(*v);
    else if (auto v = value("mode="))
      ov.mode = std::string(*v);
  }
  return std::string(in);
}

/// True when loading `text` with `ov` can only open files that safe_file_value allows.
bool safe_to_load(const std::string& text, const ScenarioOverrides& ov) {
  for (const std::string& entry : ov.set) {
    const auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    if (ends_with(std::string_view(entry).substr(0, eq), "_file") && !safe_file_value(entry.substr(eq + 1)))
      return false;
  }
  // The loader parses with the same parser and settings (unknown fields
  // rejected), so text that fails here fails there before any file is opened.
  hplsim::sim::Scenario scenario;
  pb::TextFormat::Parser parser;
  class Quiet : public pb::io::ErrorCollector {
    void AddError(int, pb::io::ColumnNumber, const std::string&) override {}
  } quiet;
  parser.RecordErrorsTo(&quiet);
  if (!parser.ParseFromString(text, &scenario)) return true;
  return safe_files(scenario);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // HPLSIM_FUZZ_VERBOSE=1: print each input's outcome (to check what a corpus exercises).
  static const bool verbose = std::getenv("HPLSIM_FUZZ_VERBOSE") != nullptr;
  ScenarioOverrides ov;
  const std::string text = split_input(std::string_view(reinterpret_cast<const char*>(data), size), ov);
  if (!safe_to_load(text, ov)) { // not added to the corpus
    if (verbose) std::fprintf(stderr, "outcome: skipped (a *_file field outside the allowed folders)\n");
    return -1;
  }
  try {
    const hplsim::sim::LoadedScenario loaded = hplsim::sim::load_scenario_text(text, kDisplayName, ov);
    // A validated scenario must resolve without error (resolve() does not re-check).
    (void)hplsim::sim::resolve(loaded);
    if (verbose) std::fprintf(stderr, "outcome: loaded\n");
  } catch (const hplsim::sim::ScenarioError& e) {
    // expected for bad input
    if (verbose) std::fprintf(stderr, "outcome: ScenarioError: %s\n", e.what());
  }
  return 0;
}
