#pragma once
// Reading and writing calibration records as Protobuf text format files
// (models/calibrations/*.textproto). Unknown fields are errors.
#include <string>

#include <google/protobuf/message.h>

#include "models/calibration.pb.h"

namespace hplsim::models {

/// Parses `path` into `message` (cleared first). Throws std::invalid_argument
/// "path:line:column: <parser message>" on a syntax error or unknown field,
/// std::runtime_error if the file cannot be read.
void read_text_message(const std::string& path, google::protobuf::Message& message);

/// Same from text; `display_name` stands for the path in messages.
void parse_text_message(const std::string& text, const std::string& display_name,
                        google::protobuf::Message& message);

/// read_text_message + KernelModels-level validation of every record
/// (throws std::invalid_argument "path: kernels[i] ('name'): field ...").
KernelCalibration load_kernel_calibration(const std::string& path);

/// read_text_message + ProtocolModel validation.
ProtocolParams load_protocol_params(const std::string& path);

/// Text format of `message`, preceded by `header_comment` with every line
/// prefixed by "# " (empty: no header).
std::string to_text(const google::protobuf::Message& message, const std::string& header_comment = "");

} // namespace hplsim::models
