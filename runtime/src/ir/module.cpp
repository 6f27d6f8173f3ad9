#include <fstream>
#include <sstream>

#include <pto/ir/module.hpp>
#include <pto/isa/error.hpp>
#include <pto/runtime/core_api.hpp>

#include "program.hpp"
#include "syntax.hpp"

namespace pto::ir {

using detail::Program;

Module Module::parse(std::string_view text, const std::string& file) {
  Module m;
  m.p_ = detail::compile(detail::parse_statements(text, file), file);
  return m;
}

Module Module::load(const std::string& path) {
  std::ifstream is(path, std::ios::binary);
  if (!is) throw Error(path + ": error: cannot open the file");
  std::stringstream ss;
  ss << is.rdbuf();
  return parse(ss.str(), path);
}

std::vector<std::string> Module::entries() const {
  std::vector<std::string> out;
  for (const auto& f : p_->funcs)
    if (!f.is_private && !f.declaration) out.push_back(f.name);
  return out;
}

std::string Module::default_entry() const {
  const std::vector<std::string> e = entries();
  if (e.size() == 1) return e[0];
  std::string list;
  for (const auto& n : e) list += (list.empty() ? "" : ", ") + n;
  if (e.empty()) throw Error(p_->file + ": error: the file has no function with a body to run");
  throw Error(p_->file + ": error: the file has " + std::to_string(e.size()) + " functions (" + list + "); name the entry (--entry NAME)");
}

std::vector<Param> Module::params(const std::string& function) const {
  const int i = p_->find(function);
  if (i < 0) throw Error(p_->file + ": error: no function @" + function);
  std::vector<Param> out;
  for (const detail::Type& t : p_->funcs[std::size_t(i)].params) {
    Param p;
    p.type = t.text;
    p.dtype = t.dtype;
    p.bits = t.bits;
    p.kind = t.kind == detail::Type::Kind::Ptr || t.kind == detail::Type::Kind::TensorView ? Param::Kind::Pointer
             : t.kind == detail::Type::Kind::Index ? Param::Kind::Index
             : t.kind == detail::Type::Kind::Int   ? Param::Kind::Int
             : t.kind == detail::Type::Kind::Float ? Param::Kind::Float
                                                   : Param::Kind::Other;
    out.push_back(p);
  }
  return out;
}

std::string Module::target_arch() const { return p_->target_arch; }
const std::string& Module::file() const { return p_->file; }

namespace {
// A view parameter (a GM memref) on a host buffer: its static shape, its strides (row-major where the
// type gives none or '?'), and the buffer must hold its last element.
template <class Bad>
void bind_view(detail::TensorVal& v, const detail::Type& t, std::size_t bytes, Bad&& bad) {
  const int rank = int(t.shape.size());
  v.rank = rank;
  std::int64_t stride = 1, last = 0;
  for (int k = rank - 1; k >= 0; --k) {
    const std::int64_t n = t.shape[std::size_t(k)];
    if (n < 0) bad("a view parameter needs a static shape ('?' dimensions come from no host value)");
    const std::int64_t s = t.strides.empty() || t.strides[std::size_t(k)] < 0 ? stride : t.strides[std::size_t(k)];
    v.shape[k] = n;
    v.stride[k] = s;
    std::int64_t reach = 0;
    if (n > 0 && (__builtin_mul_overflow(n - 1, s, &reach) || __builtin_add_overflow(last, reach, &last) ||
                  __builtin_mul_overflow(s, n, &stride)))
      bad("the view's extent overflows 64 bits");
  }
  std::uint64_t need = 0;
  if (__builtin_mul_overflow(std::uint64_t(last) + 1, std::uint64_t(size_of(v.dtype)), &need) || need > bytes)
    bad("the buffer holds " + std::to_string(bytes / size_of(v.dtype)) + " elements; the view reaches element " + std::to_string(last));
}

struct LaunchState {
  const Program* prog;
  int fn;
  std::vector<detail::Value> args;
};
}  // namespace

LaunchReport Module::launch(const LaunchConfig& cfg, const std::string& entry, const std::vector<Arg>& args) const {
  const int fn = p_->find(entry);
  if (fn < 0 || p_->funcs[std::size_t(fn)].declaration) {
    std::string list;
    for (const auto& n : entries()) list += (list.empty() ? "" : ", ") + n;
    throw Error(p_->file + ": error: no function @" + entry + " with a body to run (the file has: " + list + ")");
  }
  const detail::Function& F = p_->funcs[std::size_t(fn)];
  if (args.size() != F.params.size())
    throw Error(p_->file + ":" + std::to_string(F.line) + ":" + std::to_string(F.col) + ": error: @" + entry + " takes " +
                std::to_string(F.params.size()) + " arguments; " + std::to_string(args.size()) + " given");
  LaunchState st{p_.get(), fn, {}};
  std::vector<pto::detail::GmAllocation> gm;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const detail::Type& t = F.params[k];
    const Arg& a = args[k];
    auto bad = [&](const std::string& what) {
      throw Error(p_->file + ":" + std::to_string(F.line) + ":" + std::to_string(F.col) + ": error: @" + entry + " argument " +
                  std::to_string(k) + " (" + t.text + "): " + what);
    };
    if (t.kind == detail::Type::Kind::Ptr || t.kind == detail::Type::Kind::TensorView) {
      if (a.kind != Arg::Kind::Buffer) bad("a GM pointer takes a buffer (an array file), not a number");
      if (a.dtype != t.dtype) bad(std::string("the buffer holds ") + name_of(a.dtype) + " elements; the pointer's are " + name_of(t.dtype));
      detail::TensorVal v;
      v.base = static_cast<std::byte*>(a.data);
      v.dtype = a.dtype;
      if (t.kind == detail::Type::Kind::TensorView) bind_view(v, t, a.bytes, bad);
      st.args.emplace_back(v);
      const std::size_t eb = size_of(a.dtype);
      gm.push_back({reinterpret_cast<std::uintptr_t>(a.data), reinterpret_cast<std::uintptr_t>(a.data) + a.bytes, int(k), a.bytes / eb, eb});
    } else if (t.kind == detail::Type::Kind::Float) {
      if (a.kind == Arg::Kind::Buffer) bad("a scalar parameter takes a number, not a buffer");
      st.args.emplace_back(a.kind == Arg::Kind::Float ? a.f : double(a.i));
    } else if (t.kind == detail::Type::Kind::Index || t.kind == detail::Type::Kind::Int) {
      if (a.kind != Arg::Kind::Int) bad("an integer parameter takes an integer");
      std::int64_t v = a.i;
      if (t.kind == detail::Type::Kind::Int && t.bits < 64) {  // the value the parameter's type holds
        const std::uint64_t mask = (std::uint64_t(1) << t.bits) - 1, u = std::uint64_t(v) & mask;
        const bool fits = t.is_unsigned || t.bits == 1 ? std::uint64_t(v) == u
                                                        : v >= -(std::int64_t(1) << (t.bits - 1)) && v < (std::int64_t(1) << (t.bits - 1));
        if (!fits) bad(std::to_string(v) + " does not fit " + t.text);
      }
      st.args.emplace_back(v);
    } else {
      bad("parameters of this type cannot be passed from the host");
    }
  }
  pto::detail::KernelStart start = [](const void* p, std::shared_ptr<void>&) -> Kernel::Handle {
    const auto& s = *static_cast<const LaunchState*>(p);
    try {
      // An entry of one kernel kind runs on that kind of core only (a cluster's others just end).
      const std::string& kind = s.prog->funcs[std::size_t(s.fn)].kernel_kind;
      const CoreKind here = pto::detail::core_kind(pto::detail::current_core());
      const bool skip = (kind == "cube" && here == CoreKind::Vector) || (kind == "vector" && here == CoreKind::Cube);
      detail::CoreCtx ctx;
      if (!skip) detail::run_function(*s.prog, s.fn, s.args, &ctx);
    } catch (...) {
      pto::detail::kernel_fails();
      throw;
    }
    pto::detail::kernel_ends();
    return {};
  };
  // A kernel with pipes or both kinds of code runs on cfg.blocks clusters (pto::launch_mix): every core runs
  // the entry; a cube function or section runs on the cube core, a vector one on the vector cores.
  const bool clusters = detail::needs_clusters(*p_, fn);
  return pto::detail::launch_impl(cfg, start, clusters ? start : nullptr, &st, std::move(gm), true, false);
}

}  // namespace pto::ir
