#pragma once
// Internal to the scenario loader: where parsed fields are in their file, which
// fields command-line overrides set, and field checks that throw ScenarioError
// with a compiler-style location:
//   scenarios/x.textproto:14:5: machine.node.nic_bandwidth_bytes_per_s must be > 0, got -1
//   --set workload.nb=-1: workload.nb must be >= 1, got -1
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <google/protobuf/message.h>
#include <google/protobuf/text_format.h>

#include "sim/support/errors.hpp"

namespace hplsim::sim::detail {

/// Parses Protobuf text format into `message` with unknown fields rejected and
/// field locations recorded in `tree`. Throws ScenarioError
/// "file:line:col: <protobuf's message>" on the first syntax error,
/// unknown field or bad value.
void parse_textproto(const std::string& text, const std::string& file, google::protobuf::Message& message,
                     google::protobuf::TextFormat::ParseInfoTree& tree);

/// Where the fields of one parsed file are.
struct SourceMap {
  std::string file;
  const google::protobuf::Descriptor* root = nullptr; // the file's top-level message type
  const google::protobuf::TextFormat::ParseInfoTree* tree = nullptr;
};

/// "file:line:col" (1-based) of the field at dotted `path` ("machine.node.sockets",
/// "machine.kernels.kernels[2].name"). A field absent from the file is located
/// at the nearest enclosing message that is present, the top level at 1:1.
std::string locate(const SourceMap& source, std::string_view path);

/// The fields command-line overrides set, in the order they were applied.
class OverrideLog {
public:
  void record(std::string path, std::string label) {
    entries_.emplace_back(std::move(path), std::move(label));
  }
  /// Label ("--set workload.nb=-1", "--NB -1") of the latest override that set
  /// one of `paths`; nullptr when none did.
  const std::string* find(std::initializer_list<std::string_view> paths) const;

private:
  std::vector<std::pair<std::string, std::string>> entries_;
};

/// Shortest text that reads back as the same value ("-1", "2.5e+10", "nan").
std::string format_number(double value);
std::string format_number(std::int64_t value);

/// Locates problems in one source, honouring overrides. A rule whose breach
/// leaves the rest of the scenario checkable reports its problem and lets the
/// checks go on; a rule that cannot go on fails. Either way the error thrown
/// in the end lists every problem reported so far, one per line.
class Checker {
public:
  Checker(SourceMap source, const OverrideLog* overrides)
      : source_(std::move(source)), overrides_(overrides) {}
  /// Throws "<where>: <what>" (after the problems reported before it): where =
  /// the latest override that set `anchor` or one of `involved`, else the file
  /// location of `anchor`.
  [[noreturn]] void fail(std::string_view anchor, const std::string& what,
                         std::initializer_list<std::string_view> involved = {}) const;
  /// Records "<where>: <what>" (located as by fail) and returns.
  void report(std::string_view anchor, const std::string& what,
              std::initializer_list<std::string_view> involved = {}) const;
  bool has_reports() const { return !reported_.empty(); }
  /// Throws the reported problems, if any: one as a ScenarioError, several as
  /// ScenarioErrors (one problem per line of what()).
  void throw_reported() const;

private:
  std::string locate_problem(std::string_view anchor, const std::string& what,
                             std::initializer_list<std::string_view> involved) const;

  SourceMap source_;
  const OverrideLog* overrides_;
  mutable std::vector<std::string> reported_; // problems found so far, in the order found
};

enum class Need { Optional, Required };

/// Checks on the fields of one message, by field name, through reflection.
/// Each check passes when the field is absent and Need::Optional. Range checks
/// are written so that NaN fails them.
class MessageCheck {
public:
  /// `path` is the message's dotted path ("" for the file's top level).
  MessageCheck(const Checker& checker, const google::protobuf::Message& message, std::string path)
      : checker_(checker), message_(message), path_(std::move(path)) {}

  const std::string& path() const { return path_; }
  std::string path(std::string_view field) const;
  bool has(std::string_view field) const;
  /// The field's value (integers and floating point alike) or its default.
  double number(std::string_view field) const;
  std::int64_t integer(std::string_view field) const;

  /// "<path> is required" (+ " " + reason, e.g. "with GPUs (gpus_per_socket = 6)").
  void required(std::string_view field, const std::string& reason = "") const;
  void at_least(std::string_view field, std::int64_t min, Need need = Need::Optional) const;
  void positive(std::string_view field, Need need = Need::Optional) const;
  void non_negative(std::string_view field, Need need = Need::Optional) const;
  /// Value in the interval lo..hi, each end closed or open ("must be in (0, 1]").
  void in_range(std::string_view field, double lo, bool lo_closed, double hi, bool hi_closed,
                Need need = Need::Optional) const;
  [[noreturn]] void fail(std::string_view field, const std::string& what,
                         std::initializer_list<std::string_view> involved = {}) const;
  /// As fail, but records the problem and returns (Checker::report).
  void report(std::string_view field, const std::string& what) const;

private:
  const google::protobuf::FieldDescriptor* descriptor(std::string_view field) const;
  std::string value_text(std::string_view field) const;

  const Checker& checker_;
  const google::protobuf::Message& message_;
  std::string path_;
};

} // namespace hplsim::sim::detail
