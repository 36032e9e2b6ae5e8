// Text-format I/O of calibration records (see calibration_io.hpp).
#include "models/calibration_io.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include "models/kernel_model.hpp"
#include "models/protocol_model.hpp"

namespace hplsim::models {

namespace {

class FirstErrorCollector : public google::protobuf::io::ErrorCollector {
public:
  explicit FirstErrorCollector(std::string name) : name_(std::move(name)) {}
  void AddError(int line, google::protobuf::io::ColumnNumber column, const std::string& message) override {
    if (first_.empty())
      first_ = name_ + ":" + std::to_string(line + 1) + ":" + std::to_string(column + 1) + ": " + message;
  }
  void AddWarning(int, google::protobuf::io::ColumnNumber, const std::string&) override {}
  const std::string& first() const { return first_; }

private:
  std::string name_;
  std::string first_;
};

} // namespace

void parse_text_message(const std::string& text, const std::string& display_name,
                        google::protobuf::Message& message) {
  message.Clear();
  FirstErrorCollector errors(display_name);
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(text, &message))
    throw std::invalid_argument(
        errors.first().empty() ? display_name + ": cannot parse " + message.GetTypeName() : errors.first());
}

void read_text_message(const std::string& path, google::protobuf::Message& message) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  parse_text_message(text.str(), path, message);
}

KernelCalibration load_kernel_calibration(const std::string& path) {
  KernelCalibration c;
  read_text_message(path, c);
  try {
    const KernelModels check(c);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
  return c;
}

ProtocolParams load_protocol_params(const std::string& path) {
  ProtocolParams p;
  read_text_message(path, p);
  try {
    const ProtocolModel check(p);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(path + ": " + e.what());
  }
  return p;
}

std::string to_text(const google::protobuf::Message& message, const std::string& header_comment) {
  std::string out;
  if (!header_comment.empty()) {
    std::istringstream lines(header_comment);
    for (std::string line; std::getline(lines, line);)
      out += line.empty() ? "#\n" : "# " + line + "\n";
  }
  std::string body;
  google::protobuf::TextFormat::Printer printer;
  printer.SetUseShortRepeatedPrimitives(true);
  printer.PrintToString(message, &body);
  return out + body;
}

} // namespace hplsim::models
