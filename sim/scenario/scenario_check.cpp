#include "sim/scenario/scenario_check.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/tokenizer.h>

#include "sim/support/suggest.hpp"

namespace hplsim::sim::detail {
namespace pb = google::protobuf;

namespace {

/// Keeps protobuf's first error (line and column are 0-based there).
class FirstErrorCollector : public pb::io::ErrorCollector {
public:
  void AddError(int line, pb::io::ColumnNumber column, const std::string& message) override {
    if (has_error_) return;
    has_error_ = true;
    line_ = line;
    column_ = column;
    message_ = message;
  }
  void AddWarning(int /*line*/, pb::io::ColumnNumber /*column*/, const std::string& /*message*/) override {}

  bool has_error() const { return has_error_; }
  void move_to(int line, int column) {
    line_ = line;
    column_ = column;
  }
  int line() const { return line_; }
  int column() const { return column_; }
  const std::string& message() const { return message_; }
  std::string describe_as(const std::string& file, const std::string& what) const {
    if (line_ < 0) return file + ": " + what;
    return file + ":" + std::to_string(line_ + 1) + ":" + std::to_string(column_ + 1) + ": " + what;
  }

private:
  bool has_error_ = false;
  int line_ = -1;
  int column_ = -1;
  std::string message_;
};

/// Splits "kernels[3]" into ("kernels", 3); a plain name gives index -1.
std::pair<std::string_view, int> split_index(std::string_view part) {
  const auto open = part.find('[');
  if (open == std::string_view::npos || part.back() != ']') return {part, -1};
  int index = -1;
  const std::string_view digits = part.substr(open + 1, part.size() - open - 2);
  std::from_chars(digits.data(), digits.data() + digits.size(), index);
  return {part.substr(0, open), index};
}

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// Protobuf reports an unknown field or enum value at the token after it (the
/// ':' or the next line). Returns the 0-based (line, column) of the offending
/// name itself: its last whole-word occurrence before the reported position.
std::optional<std::pair<int, int>> offending_token(const std::string& text, int line, int column,
                                                   const std::string& message) {
  static const std::array<std::string_view, 3> kPatterns = {
      "has no field named \"", "Unknown enumeration value of \"", "Non-repeated field \""};
  std::string name;
  for (std::string_view pattern : kPatterns) {
    const auto at = message.find(pattern);
    if (at == std::string::npos) continue;
    const auto begin = at + pattern.size();
    const auto end = message.find('"', begin);
    if (end != std::string::npos) name = message.substr(begin, end - begin);
    break;
  }
  if (name.empty() || line < 0) return std::nullopt;
  std::size_t offset = 0; // of the reported position
  for (int l = 0; l < line && offset != std::string::npos; ++l) {
    offset = text.find('\n', offset);
    if (offset != std::string::npos) ++offset;
  }
  if (offset == std::string::npos) return std::nullopt;
  offset = std::min(text.size(), offset + static_cast<std::size_t>(std::max(column, 0)));
  for (auto at = text.rfind(name, offset); at != std::string::npos;
       at = at == 0 ? std::string::npos : text.rfind(name, at - 1)) {
    const bool starts = at == 0 || !is_identifier_char(text[at - 1]);
    const bool ends = at + name.size() >= text.size() || !is_identifier_char(text[at + name.size()]);
    if (!starts || !ends || at + name.size() > offset) continue;
    const auto line_start = text.rfind('\n', at == 0 ? 0 : at - 1);
    const int found_line =
        static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    const int found_column =
        static_cast<int>(at - (line_start == std::string::npos || at == 0 ? 0 : line_start + 1));
    return std::make_pair(found_line, found_column);
  }
  return std::nullopt;
}

/// For protobuf's "Message type \"T\" has no field named \"x\"." error:
/// " (did you mean \"y\"?)" with y the field of T nearest to x, or "".
std::string field_suggestion(const std::string& message, const pb::Message& root) {
  static constexpr std::string_view kType = "Message type \"";
  static constexpr std::string_view kField = "\" has no field named \"";
  const auto type_at = message.find(kType);
  const auto field_at = message.find(kField);
  if (type_at == std::string::npos || field_at == std::string::npos || field_at < type_at) return "";
  const std::string type_name = message.substr(type_at + kType.size(), field_at - type_at - kType.size());
  const auto name_begin = field_at + kField.size();
  const auto name_end = message.find('"', name_begin);
  if (name_end == std::string::npos) return "";
  const pb::Descriptor* type = root.GetDescriptor()->file()->pool()->FindMessageTypeByName(type_name);
  if (type == nullptr) return "";
  std::vector<std::string> names;
  for (int i = 0; i < type->field_count(); ++i)
    names.push_back(type->field(i)->name());
  const auto best = closest_name(std::string_view(message).substr(name_begin, name_end - name_begin), names);
  return best ? " (did you mean \"" + *best + "\"?)" : "";
}

/// The line (1-based) of the last `{` or `<` the text leaves open, and the
/// text before it on its line ("workload"); nullopt when every block closes.
/// Strings and # comments are skipped.
std::optional<std::pair<int, std::string>> unclosed_block(const std::string& text) {
  std::vector<std::pair<int, std::string>> open;
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = i + 1;
    } else if (c == '#') {
      while (i + 1 < text.size() && text[i + 1] != '\n')
        ++i;
    } else if (c == '"' || c == '\'') {
      for (++i; i < text.size() && text[i] != c && text[i] != '\n'; ++i)
        if (text[i] == '\\') ++i;
    } else if (c == '{' || c == '<') {
      std::string name = text.substr(line_start, i - line_start);
      name.erase(0, name.find_first_not_of(" \t"));
      name.erase(name.find_last_not_of(" \t:") + 1);
      open.emplace_back(line, name);
    } else if ((c == '}' || c == '>') && !open.empty()) {
      open.pop_back();
    }
  }
  if (open.empty()) return std::nullopt;
  return open.back();
}

/// Protobuf's parser errors that speak of tokens, in the user's words:
/// "Expected identifier, got: " at the end of the file is a missing `}`.
std::string plain_words(const std::string& text, const std::string& message) {
  static constexpr std::string_view kExpectedName = "Expected identifier, got: ";
  if (message.rfind(kExpectedName, 0) == 0) {
    const std::string got = message.substr(kExpectedName.size());
    if (got.empty()) {
      if (const auto block = unclosed_block(text))
        return "the file ends inside a block: a closing } is missing for `" +
               (block->second.empty() ? std::string("{") : block->second + " {") + "` opened at line " +
               std::to_string(block->first);
      return "the file ends where a field name was expected";
    }
    return "expected a field name, found `" + got + "`" +
           (got == "}" || got == ">" ? " (a } with no block to close?)" : "");
  }
  for (const auto& [pattern, words] : std::array<std::pair<std::string_view, std::string_view>, 5>{
           {{"Expected integer, got: ", "expected a whole number, found `"},
            {"Expected double, got: ", "expected a number, found `"},
            {"Expected string, got: ", "expected a quoted string, found `"},
            {"Invalid value for boolean field ", "expected true or false for `"},
            {"Expected \":\", found \"", "expected `:` after the field name, found `"}}})
    if (message.rfind(pattern, 0) == 0) {
      std::string got = message.substr(pattern.size());
      while (!got.empty() && (got.back() == '"' || got.back() == '.'))
        got.pop_back();
      return std::string(words) + got + "`";
    }
  return message;
}

} // namespace

void parse_textproto(const std::string& text, const std::string& file, pb::Message& message,
                     pb::TextFormat::ParseInfoTree& tree) {
  FirstErrorCollector errors;
  pb::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  parser.WriteLocationsTo(&tree);
  parser.AllowUnknownField(false); // the default; stated because it matters
  parser.AllowUnknownExtension(false);
  if (!parser.ParseFromString(text, &message)) {
    if (errors.has_error()) {
      if (const auto token = offending_token(text, errors.line(), errors.column(), errors.message()))
        errors.move_to(token->first, token->second);
      const std::string what = plain_words(text, errors.message());
      // At the end of the file, the place to fix is the block left open.
      if (errors.message() == "Expected identifier, got: ")
        if (const auto block = unclosed_block(text))
          throw ScenarioError(file + ":" + std::to_string(block->first) + ": " + what);
      throw ScenarioError(errors.describe_as(file, what) + field_suggestion(errors.message(), message));
    }
    throw ScenarioError(file + ": cannot parse as " + message.GetDescriptor()->full_name());
  }
}

std::string locate(const SourceMap& source, std::string_view path) {
  int line = 0; // 0-based, as protobuf records them
  int column = 0;
  const pb::Descriptor* type = source.root;
  const pb::TextFormat::ParseInfoTree* tree = source.tree;
  while (!path.empty() && type != nullptr && tree != nullptr) {
    const auto dot = path.find('.');
    const std::string_view part = path.substr(0, dot);
    path = dot == std::string_view::npos ? std::string_view{} : path.substr(dot + 1);
    auto [name, index] = split_index(part);
    const pb::FieldDescriptor* field = type->FindFieldByName(std::string(name));
    if (field == nullptr) break;
    if (field->is_repeated() && index < 0) break;
    if (!field->is_repeated()) index = -1;
    const pb::TextFormat::ParseLocation here = tree->GetLocation(field, index);
    if (here.line < 0) break;
    line = here.line;
    column = here.column;
    if (field->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) break;
    tree = tree->GetTreeForNested(field, index);
    type = field->message_type();
  }
  return source.file + ":" + std::to_string(line + 1) + ":" + std::to_string(column + 1);
}

const std::string* OverrideLog::find(std::initializer_list<std::string_view> paths) const {
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it)
    for (std::string_view p : paths)
      if (it->first == p) return &it->second;
  return nullptr;
}

std::string format_number(double value) {
  std::array<char, 64> buf{};
  const auto result = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  return std::string(buf.data(), result.ptr);
}

std::string format_number(std::int64_t value) {
  return std::to_string(value);
}

std::string Checker::locate_problem(std::string_view anchor, const std::string& what,
                                    std::initializer_list<std::string_view> involved) const {
  if (overrides_ != nullptr) {
    const std::string* label = overrides_->find(involved);
    if (label == nullptr) label = overrides_->find({anchor});
    if (label != nullptr) return *label + ": " + what;
  }
  return locate(source_, anchor) + ": " + what;
}

void Checker::fail(std::string_view anchor, const std::string& what,
                   std::initializer_list<std::string_view> involved) const {
  report(anchor, what, involved);
  throw_reported();
  throw std::logic_error("Checker::fail: nothing to throw"); // unreachable: report() just added one
}

void Checker::report(std::string_view anchor, const std::string& what,
                     std::initializer_list<std::string_view> involved) const {
  reported_.push_back(locate_problem(anchor, what, involved));
}

void Checker::throw_reported() const {
  if (reported_.empty()) return;
  if (reported_.size() == 1) throw ScenarioError(reported_.front());
  throw ScenarioErrors(reported_);
}

std::string MessageCheck::path(std::string_view field) const {
  return path_.empty() ? std::string(field) : path_ + "." + std::string(field);
}

const pb::FieldDescriptor* MessageCheck::descriptor(std::string_view field) const {
  const pb::FieldDescriptor* d = message_.GetDescriptor()->FindFieldByName(std::string(field));
  if (d == nullptr || d->is_repeated())
    throw std::logic_error("MessageCheck: " + message_.GetDescriptor()->full_name() +
                           " has no singular field " + std::string(field));
  return d;
}

bool MessageCheck::has(std::string_view field) const {
  return message_.GetReflection()->HasField(message_, descriptor(field));
}

std::int64_t MessageCheck::integer(std::string_view field) const {
  const pb::FieldDescriptor* d = descriptor(field);
  const pb::Reflection* r = message_.GetReflection();
  switch (d->cpp_type()) {
  case pb::FieldDescriptor::CPPTYPE_INT32:
    return r->GetInt32(message_, d);
  case pb::FieldDescriptor::CPPTYPE_INT64:
    return r->GetInt64(message_, d);
  case pb::FieldDescriptor::CPPTYPE_UINT32:
    return r->GetUInt32(message_, d);
  case pb::FieldDescriptor::CPPTYPE_UINT64:
    return static_cast<std::int64_t>(r->GetUInt64(message_, d));
  default:
    throw std::logic_error("MessageCheck: " + d->full_name() + " is not an integer field");
  }
}

double MessageCheck::number(std::string_view field) const {
  const pb::FieldDescriptor* d = descriptor(field);
  const pb::Reflection* r = message_.GetReflection();
  switch (d->cpp_type()) {
  case pb::FieldDescriptor::CPPTYPE_DOUBLE:
    return r->GetDouble(message_, d);
  case pb::FieldDescriptor::CPPTYPE_FLOAT:
    return r->GetFloat(message_, d);
  default:
    return static_cast<double>(integer(field));
  }
}

std::string MessageCheck::value_text(std::string_view field) const {
  const auto type = descriptor(field)->cpp_type();
  if (type == pb::FieldDescriptor::CPPTYPE_DOUBLE || type == pb::FieldDescriptor::CPPTYPE_FLOAT)
    return format_number(number(field));
  return format_number(integer(field));
}

void MessageCheck::fail(std::string_view field, const std::string& what,
                        std::initializer_list<std::string_view> involved) const {
  checker_.fail(path(field), what, involved);
}

void MessageCheck::report(std::string_view field, const std::string& what) const {
  checker_.report(path(field), what);
}

void MessageCheck::required(std::string_view field, const std::string& reason) const {
  if (has(field)) return;
  const std::string p = path(field);
  checker_.fail(p, p + " is required" + (reason.empty() ? "" : " " + reason));
}

void MessageCheck::at_least(std::string_view field, std::int64_t min, Need need) const {
  if (need == Need::Required) required(field);
  if (!has(field) || integer(field) >= min) return;
  const std::string p = path(field);
  checker_.fail(p, p + " must be >= " + format_number(min) + ", got " + value_text(field), {p});
}

void MessageCheck::positive(std::string_view field, Need need) const {
  if (need == Need::Required) required(field);
  if (!has(field)) return;
  const std::string p = path(field);
  if (!(number(field) > 0.0)) checker_.fail(p, p + " must be > 0, got " + value_text(field), {p});
  if (!std::isfinite(number(field))) checker_.fail(p, p + " must be finite, got " + value_text(field), {p});
}

void MessageCheck::non_negative(std::string_view field, Need need) const {
  if (need == Need::Required) required(field);
  if (!has(field)) return;
  const std::string p = path(field);
  if (!(number(field) >= 0.0)) checker_.fail(p, p + " must be >= 0, got " + value_text(field), {p});
  if (!std::isfinite(number(field))) checker_.fail(p, p + " must be finite, got " + value_text(field), {p});
}

void MessageCheck::in_range(std::string_view field, double lo, bool lo_closed, double hi, bool hi_closed,
                            Need need) const {
  if (need == Need::Required) required(field);
  if (!has(field)) return;
  const double v = number(field);
  const bool above_lo = lo_closed ? v >= lo : v > lo;
  const bool below_hi = hi_closed ? v <= hi : v < hi;
  if (above_lo && below_hi) return;
  const std::string p = path(field);
  checker_.fail(p,
                p + " must be in " + (lo_closed ? "[" : "(") + format_number(lo) + ", " + format_number(hi) +
                    (hi_closed ? "]" : ")") + ", got " + value_text(field),
                {p});
}

} // namespace hplsim::sim::detail
