#pragma once
// The pieces `hplsim report` builds its page from (sim/report/html_report.hpp):
// reading an output directory's files, and a page of headline cards, inlined
// figures, formatted tables and a collapsed raw section. Every figure on the
// page is text a person reads: at most 6 significant digits (the raw section's
// exact values are in data-value attributes, for programs).
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace hplsim::sim::html {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

inline constexpr std::size_t kMaxTableRows = 200; // longer tables are cut, and say so

std::optional<std::string> read_if_present(const fs::path& path);
/// InputError naming the file when it is not JSON.
Json parse_json(const fs::path& path, const std::string& text);

/// RFC 4180 CSV: a header row, then rows; quoted fields may hold commas, quotes and newlines.
struct Csv {
  fs::path path;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::optional<std::size_t> column(const std::string& name) const;
  /// The cell, "" when the column is absent.
  std::string cell(std::size_t row, const std::string& name) const;
  /// The cell as a number; nullopt when empty or absent; InputError naming the
  /// file, row and column when it is not a number.
  std::optional<double> number(std::size_t row, const std::string& name) const;
};
/// InputError naming the file when a quoted field is not closed, the file is
/// empty, or a row's field count is not the header's (naming the row).
Csv parse_csv(const fs::path& path, const std::string& text);

/// A JSON value as a person reads it: numbers with at most 6 significant
/// digits, strings as they are, null as "-", arrays and objects as JSON text
/// of such numbers.
std::string display_value(const Json& v);

/// A number's value in `j` at `key` (nullopt: absent, null or not a number).
std::optional<double> number_at(const Json& j, const std::string& key);

struct Card {
  std::string label, value, note;
  const char* cls = nullptr; ///< "bad": a failure
};

/// A table whose cells are already formatted; `numeric` columns align right.
struct Table {
  std::vector<std::string> header;
  std::vector<bool> numeric;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row_class; ///< per row, may be empty
};

class Page {
public:
  Page(std::string title, std::string subtitle);
  void section(const std::string& id, const std::string& heading);
  void end_section();
  void heading3(const std::string& text);
  void paragraph(const std::string& text, const char* cls = nullptr);
  void cards(const std::vector<Card>& cards);
  /// An inlined SVG file of the directory (hplsim's own: no script, no external reference).
  void figure(const fs::path& svg_path, const std::string& caption);
  /// An SVG document made for the page.
  void figure_text(const std::string& svg, const std::string& caption);
  /// Cut at kMaxTableRows rows, saying where all of them are (`whole`: a file name).
  void table(const Table& t, const std::string& whole = "");
  /// A collapsed section of every scalar of `j` (nested keys as a.b), each
  /// value cell carrying data-key="SCOPE+KEY" and data-value="exact JSON text".
  void raw_json(const std::string& summary, const Json& j, const std::string& scope);
  std::string text() const;

private:
  std::string title_, subtitle_;
  std::ostringstream body_;
};

} // namespace hplsim::sim::html
