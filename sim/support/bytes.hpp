#pragma once
// What a child process (sim/support/child_process.hpp) or an MPI rank
// (sim/distributed/world.hpp) sends back: trivially copyable values and
// length-prefixed strings, appended in order and read back in the same order.
// Both ends are the same binary on the same machine, so values travel as
// their bytes. A message's fields are listed once, in a function template
// over the end (`io(field)`, `io.sequence(vector)`), called with a ByteWriter
// to encode and a ByteReader to decode.
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace hplsim::sim {

class ByteWriter {
public:
  template <class T> void put(const T& x) {
    static_assert(std::is_trivially_copyable_v<T>, "travels as raw bytes");
    bytes_.append(reinterpret_cast<const char*>(&x), sizeof x);
  }
  void put_string(std::string_view s) {
    put(static_cast<std::uint64_t>(s.size()));
    bytes_.append(s);
  }
  std::string take() { return std::move(bytes_); }

  // The two ends' common vocabulary.
  template <class T> void operator()(const T& x) { put(x); }
  void operator()(const std::string& s) { put_string(s); }
  template <class T> void operator()(const std::optional<T>& x) {
    put(x.has_value());
    put(x.value_or(T{}));
  }
  /// A vector's length; its elements follow, one by one.
  template <class T> void sequence(const std::vector<T>& v) { put(static_cast<std::uint64_t>(v.size())); }

private:
  std::string bytes_;
};

class ByteReader {
public:
  /// `what` names the answer in the error thrown when it is cut short.
  ByteReader(std::string_view bytes, std::string what) : bytes_(bytes), what_(std::move(what)) {}
  template <class T> void get(T& x) {
    static_assert(std::is_trivially_copyable_v<T>, "travels as raw bytes");
    need(sizeof x);
    std::memcpy(&x, bytes_.data() + at_, sizeof x);
    at_ += sizeof x;
  }
  template <class T> T get() {
    T x{};
    get(x);
    return x;
  }
  std::string get_string() {
    const auto n = get<std::uint64_t>();
    need(n);
    std::string s(bytes_.substr(at_, static_cast<std::size_t>(n)));
    at_ += static_cast<std::size_t>(n);
    return s;
  }
  // The two ends' common vocabulary.
  template <class T> void operator()(T& x) { get(x); }
  void operator()(std::string& s) { s = get_string(); }
  template <class T> void operator()(std::optional<T>& x) {
    const bool has = get<bool>();
    const T value = get<T>();
    x = has ? std::optional<T>(value) : std::nullopt;
  }
  /// A vector's length: resizes it for its elements, read one by one.
  template <class T> void sequence(std::vector<T>& v) { v.resize(get<std::uint64_t>()); }

  bool done() const { return at_ == bytes_.size(); }
  /// Throws unless every byte was read (an answer longer than expected is as malformed as a short one).
  void expect_done() const {
    if (!done()) throw std::runtime_error(what_ + " is longer than expected");
  }

private:
  void need(std::uint64_t n) const {
    if (n > bytes_.size() - at_) throw std::runtime_error(what_ + " is cut short");
  }
  std::string_view bytes_;
  std::string what_;
  std::size_t at_ = 0;
};

} // namespace hplsim::sim
