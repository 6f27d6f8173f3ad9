// pto::ir::Module: a PTO IR text file (PTOAS's textual form, docs/pto-run.md) parsed and compiled once, and
// launched like a C++ kernel: each core runs the entry function, and every pto.t* op issues the same
// instruction record as the C++ API (one registry of kernels, one cost model, the same checker).
//
//   pto::ir::Module m = pto::ir::Module::load("vadd.pto");   // file:line:col: error: ... on bad input
//   std::vector<float> a(1024), b(1024), c(1024);
//   pto::LaunchReport r = m.launch({.blocks = 1}, "vec_add_kernel_2d",
//                                  {pto::ir::Arg::buffer(a), pto::ir::Arg::buffer(b), pto::ir::Arg::buffer(c)});
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <pto/isa/dtype.hpp>
#include <pto/runtime/launch.hpp>
#include <pto/runtime/report.hpp>

namespace pto::ir {

namespace detail {
struct Program;
}

// One argument of the entry function: a GM buffer (for a !pto.ptr<T> parameter; the kernel reads and
// writes it in place) or a scalar (index, iN, f16 / bf16 / f32 parameters).
struct Arg {
  enum class Kind : std::uint8_t { Buffer, Int, Float } kind = Kind::Int;
  void* data = nullptr;
  std::size_t bytes = 0;
  DType dtype = DType::F32;
  std::int64_t i = 0;
  double f = 0;
  static Arg buffer(void* data, std::size_t bytes, DType dtype) {
    Arg a;
    a.kind = Kind::Buffer;
    a.data = data;
    a.bytes = bytes;
    a.dtype = dtype;
    return a;
  }
  template <class T>
  static Arg buffer(std::vector<T>& v) {
    return buffer(v.data(), v.size() * sizeof(T), dtype_v<T>);
  }
  static Arg integer(std::int64_t v) {
    Arg a;
    a.kind = Kind::Int;
    a.i = v;
    return a;
  }
  static Arg real(double v) {
    Arg a;
    a.kind = Kind::Float;
    a.f = v;
    return a;
  }
};

// A parameter of a function, as the file declares it.
struct Param {
  enum class Kind : std::uint8_t { Pointer, Index, Int, Float, Other } kind = Kind::Other;
  DType dtype = DType::F32;  // Pointer: its element type; Float: F16 / BF16 / F32
  int bits = 64;             // Int: width
  std::string type;          // as written ("!pto.ptr<f32>", "index")
};

class Module {
public:
  // Parses and compiles `text` (`file` names it in messages). Throws pto::Error
  // "file:line:col: error: ..." for a malformed file, an op pto-run does not know, an undefined value
  // or a type an op's rules reject.
  static Module parse(std::string_view text, const std::string& file = "<input>");
  static Module load(const std::string& path);
  // `text` with every template parameter `${NAME}` replaced by values[NAME] (a tiling search's knobs:
  // tile sizes, buffer counts; pto-run --param). Throws "file:line:col: error:" for a parameter without
  // a value or a malformed one; values a file does not use are left to the caller.
  static std::string instantiate(std::string_view text, const std::map<std::string, std::string>& values,
                                 const std::string& file = "<input>");

  // The functions with a body that may be launched (not private), in file order.
  std::vector<std::string> entries() const;
  // The entry to run when none is named: the only one, else an error listing them.
  std::string default_entry() const;
  std::vector<Param> params(const std::string& function) const;
  // The module's pto.target_arch ("a2a3", "a5"), or "".
  std::string target_arch() const;
  const std::string& file() const;

  // Runs `entry` on cfg.blocks cores with `args` (one per parameter, checked against the parameter
  // types). Buffers are the launch's sized GM arguments (bounds, checker names).
  LaunchReport launch(const LaunchConfig& cfg, const std::string& entry, const std::vector<Arg>& args) const;

private:
  std::shared_ptr<const detail::Program> p_;
};

}  // namespace pto::ir
