// pto-run: run a PTO IR text file (PTOAS's .pto form) on emulated cores, with data in and out as .npy
// or raw .bin files, checked against goldens. Exit status: 0 success, 1 a golden mismatch, 2 any error.
//
//   pto-run vadd.pto --arg a.npy --arg b.npy --arg f32:32x32 --out 2=c.npy --golden 2=ref.npy
//
// CLI11 parses the command line (Debian's libcli11-dev: the help text and the option errors are its);
// xtensor's npy reader and header writer (libxtensor-dev) read and write the arrays. README: pto-run.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <xtensor/xnpy.hpp>

#include <pto/ir/module.hpp>
#include <pto/isa/bfloat16.hpp>
#include <pto/isa/error.hpp>
#include <pto/runtime/trace.hpp>
#include <pto/runtime/tune.hpp>

namespace {

struct Usage : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An array: its element type, shape and bytes.
struct Array {
  pto::DType dtype = pto::DType::F32;
  std::vector<std::size_t> shape;
  std::vector<unsigned char> bytes;
  std::string source;  // the file it came from ("" for a zero-filled output)
  std::size_t count() const { return bytes.size() / pto::size_of(dtype); }
};

const std::map<std::string, pto::DType>& typestrings() {
  static const std::map<std::string, pto::DType> m = {
      {"<f2", pto::DType::F16}, {"<f4", pto::DType::F32}, {"|i1", pto::DType::I8},  {"|u1", pto::DType::U8},
      {"<i2", pto::DType::I16}, {"<u2", pto::DType::U16}, {"<i4", pto::DType::I32}, {"<u4", pto::DType::U32},
      {"<i8", pto::DType::I64}, {"<u8", pto::DType::U64}};
  return m;
}
std::string typestring_of(pto::DType t) {
  for (const auto& [s, d] : typestrings())
    if (d == t) return s;
  return "";
}

bool dtype_named(const std::string& n, pto::DType& out) {
  static const std::map<std::string, pto::DType> m = {
      {"f16", pto::DType::F16}, {"bf16", pto::DType::BF16}, {"f32", pto::DType::F32}, {"i8", pto::DType::I8},
      {"u8", pto::DType::U8},   {"ui8", pto::DType::U8},    {"i16", pto::DType::I16}, {"u16", pto::DType::U16},
      {"ui16", pto::DType::U16}, {"i32", pto::DType::I32},  {"u32", pto::DType::U32}, {"ui32", pto::DType::U32},
      {"i64", pto::DType::I64}, {"u64", pto::DType::U64},   {"ui64", pto::DType::U64}};
  const auto it = m.find(n);
  if (it == m.end()) return false;
  out = it->second;
  return true;
}

std::vector<std::size_t> parse_shape(const std::string& s, const std::string& arg) {
  std::vector<std::size_t> shape;
  std::stringstream ss(s);
  std::string d;
  while (std::getline(ss, d, 'x')) {
    if (d.empty() || d.find_first_not_of("0123456789") != std::string::npos)
      throw Usage("--arg " + arg + ": the shape '" + s + "' must be dimensions joined by 'x', such as 128x64");
    std::size_t n = 0;
    const auto [end, ec] = std::from_chars(d.data(), d.data() + d.size(), n);
    if (ec != std::errc() || end != d.data() + d.size() || n > (std::size_t(1) << 40))
      throw Usage("--arg " + arg + ": dimension '" + d + "' is out of range");
    shape.push_back(n);
  }
  return shape;
}
// Elements of a shape; more than 2^36 (a 256 GiB f32 array) is an error, not a wrapped size.
std::size_t product(const std::vector<std::size_t>& s) {
  std::size_t n = 1;
  for (std::size_t d : s)
    if (__builtin_mul_overflow(n, d, &n) || n > (std::size_t(1) << 36)) throw Usage("an array shape of more than 2^36 elements");
  return n;
}

Array read_npy(const std::string& path) {
  std::ifstream is(path, std::ios::binary);
  if (!is) throw Usage(path + ": cannot open the file");
  auto load = [&] {
    try {
      return xt::detail::load_npy_file(is);
    } catch (const std::exception& e) {
      throw Usage(path + ": not a readable .npy file (" + e.what() + ")");
    }
  };
  xt::detail::npy_file f = load();
  if (!is) throw Usage(path + ": the file ends before its header's " + std::to_string(f.n_bytes()) + " bytes of data");
  if (f.m_fortran_order) throw Usage(path + ": a Fortran-order array; save it in C order (numpy.ascontiguousarray)");
  const auto it = typestrings().find(f.m_typestring);
  if (it == typestrings().end())
    throw Usage(path + ": element type '" + f.m_typestring + "' is not one pto-run reads (float16/32, int8-64, uint8-64; bfloat16 "
                "data as a raw .bin file: path.bin:bf16:SHAPE)");
  Array a;
  a.dtype = it->second;
  a.shape = f.m_shape;
  a.bytes.assign(reinterpret_cast<const unsigned char*>(f.ptr()), reinterpret_cast<const unsigned char*>(f.ptr()) + f.n_bytes());
  a.source = path;
  return a;
}

void write_npy(const std::string& path, const Array& a) {
  std::ofstream os(path, std::ios::binary);
  if (!os) throw Usage(path + ": cannot write the file");
  if (a.dtype == pto::DType::BF16) {  // numpy has no bfloat16: float32, every value exact
    std::vector<float> f(a.count());
    for (std::size_t i = 0; i < f.size(); ++i) {
      pto::bfloat16_t b;
      std::memcpy(&b, a.bytes.data() + 2 * i, 2);
      f[i] = static_cast<float>(b);
    }
    xt::detail::write_header(os, "<f4", false, a.shape);
    os.write(reinterpret_cast<const char*>(f.data()), std::streamsize(f.size() * 4));
  } else {
    xt::detail::write_header(os, typestring_of(a.dtype), false, a.shape);
    os.write(reinterpret_cast<const char*>(a.bytes.data()), std::streamsize(a.bytes.size()));
  }
  if (!os) throw Usage(path + ": writing failed");
}

double element(const Array& a, std::size_t i) {
  const unsigned char* p = a.bytes.data() + i * pto::size_of(a.dtype);
  auto get = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  switch (a.dtype) {
    case pto::DType::F16: return double(static_cast<float>(get(pto::half{})));
    case pto::DType::BF16: return double(static_cast<float>(get(pto::bfloat16_t{})));
    case pto::DType::F32: return double(get(float{}));
    case pto::DType::I8: return double(get(std::int8_t{}));
    case pto::DType::U8: return double(get(std::uint8_t{}));
    case pto::DType::I16: return double(get(std::int16_t{}));
    case pto::DType::U16: return double(get(std::uint16_t{}));
    case pto::DType::I32: return double(get(std::int32_t{}));
    case pto::DType::U32: return double(get(std::uint32_t{}));
    case pto::DType::I64: return double(get(std::int64_t{}));
    case pto::DType::U64: return double(get(std::uint64_t{}));
    default: return 0;
  }
}

// --arg for a pointer parameter: file.npy, file.bin:DTYPE:SHAPE, or DTYPE:SHAPE (zeros, an output).
Array array_arg(const std::string& s, const pto::ir::Param& p) {
  std::vector<std::string> parts;
  std::stringstream ss(s);
  std::string part;
  while (std::getline(ss, part, ':')) parts.push_back(part);
  Array a;
  pto::DType dt{};
  if (parts.size() == 1 && s.size() > 4 && s.substr(s.size() - 4) == ".npy") {
    a = read_npy(s);
  } else if (parts.size() == 2 && dtype_named(parts[0], dt)) {
    a.dtype = dt;
    a.shape = parse_shape(parts[1], s);
    a.bytes.assign(product(a.shape) * pto::size_of(dt), 0);
  } else if (parts.size() == 3 && dtype_named(parts[1], dt)) {
    a.dtype = dt;
    a.shape = parse_shape(parts[2], s);
    std::ifstream is(parts[0], std::ios::binary);
    if (!is) throw Usage(parts[0] + ": cannot open the file");
    a.bytes.assign(std::istreambuf_iterator<char>(is), {});
    if (a.bytes.size() != product(a.shape) * pto::size_of(dt))
      throw Usage(parts[0] + ": holds " + std::to_string(a.bytes.size()) + " bytes; " + parts[2] + " " + parts[1] + " elements are " +
                  std::to_string(product(a.shape) * pto::size_of(dt)));
    a.source = parts[0];
  } else {
    throw Usage("--arg " + s + ": a " + p.type + " parameter takes FILE.npy, FILE.bin:DTYPE:SHAPE or DTYPE:SHAPE (such as f32:128x64)");
  }
  if (a.dtype == pto::DType::U16 && p.dtype == pto::DType::BF16 && !a.source.empty())
    a.dtype = pto::DType::BF16;  // numpy has no bfloat16: a uint16 .npy holds the bits (ml_dtypes' and PTOAS's goldens)
  if (a.dtype != p.dtype)
    throw Usage("--arg " + s + ": holds " + pto::name_of(a.dtype) + " elements; the parameter " + p.type + " takes " + pto::name_of(p.dtype) +
                " (pto-run does not convert: save the array with the parameter's type)");
  if (a.bytes.empty()) throw Usage("--arg " + s + ": the array is empty");
  return a;
}

// "I=path": the index and the path.
std::pair<std::size_t, std::string> indexed(const std::string& s, const char* option) {
  const auto eq = s.find('=');
  if (eq == std::string::npos || eq == 0 || s.substr(0, eq).find_first_not_of("0123456789") != std::string::npos)
    throw Usage(std::string(option) + " " + s + ": expected I=FILE (I: the 0-based index of a GM argument)");
  std::size_t i = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + eq, i);
  if (ec != std::errc() || end != s.data() + eq) throw Usage(std::string(option) + " " + s + ": the index is out of range");
  return {i, s.substr(eq + 1)};
}

struct Options {
  std::string file, target, entry, mode, trace, svg;
  int blocks = 1, threads = 0;
  std::size_t top = 10;
  bool model_only = false, check_only = false;
  std::vector<std::string> args, outs, goldens, params;
  double rtol = 1e-3, atol = 1e-3;
};

pto::Target target_of(const Options& o, const pto::ir::Module& m) {
  const std::string arch = o.target.empty() ? (m.target_arch().empty() ? "a2a3" : m.target_arch()) : o.target;
  if (arch == "a2a3" || arch == "a3" || arch == "a2") return pto::Target::A2A3;
  if (arch == "a5") return pto::Target::A5;
  throw Usage("--target " + arch + ": a2a3 or a5");
}

// The entry's arguments from the --arg strings: GM buffers into `arrays`, numbers as they are.
std::vector<pto::ir::Arg> bind_args(const std::string& entry, const std::vector<pto::ir::Param>& params,
                                    const std::vector<std::string>& strings, std::vector<Array>& arrays) {
  if (strings.size() != params.size()) {
    std::ostringstream os;
    os << "@" << entry << " takes " << params.size() << " argument(s) (";
    for (std::size_t k = 0; k < params.size(); ++k) os << (k ? ", " : "") << params[k].type;
    os << "); " << strings.size() << " --arg given";
    throw Usage(os.str());
  }
  arrays.assign(params.size(), Array{});
  std::vector<pto::ir::Arg> args;
  for (std::size_t k = 0; k < params.size(); ++k) {
    const pto::ir::Param& p = params[k];
    const std::string& s = strings[k];
    if (p.kind == pto::ir::Param::Kind::Pointer) {
      arrays[k] = array_arg(s, p);
      args.push_back(pto::ir::Arg::buffer(arrays[k].bytes.data(), arrays[k].bytes.size(), arrays[k].dtype));
      continue;
    }
    std::size_t used = 0;
    try {
      if (p.kind == pto::ir::Param::Kind::Float) args.push_back(pto::ir::Arg::real(std::stod(s, &used)));
      else args.push_back(pto::ir::Arg::integer(std::stoll(s, &used, s.rfind("0x", 0) == 0 || s.rfind("-0x", 0) == 0 ? 16 : 10)));
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != s.size() || s.empty()) throw Usage("--arg " + s + ": the parameter " + p.type + " takes a number");
  }
  return args;
}

int run(const Options& o, const pto::ir::Module& m, const std::vector<std::string>& arg_strings) {
  if (o.check_only && o.entry.empty()) {  // the whole file verified; every function listed
    std::cout << o.file << ": ok (" << m.entries().size() << " function(s):";
    for (const std::string& e : m.entries()) std::cout << " @" << e;
    std::cout << ")\n";
    return 0;
  }
  const std::string entry = o.entry.empty() ? m.default_entry() : o.entry;
  const std::vector<pto::ir::Param> params = m.params(entry);
  pto::LaunchConfig cfg;
  cfg.blocks = o.blocks;
  cfg.target = target_of(o, m);
  if (o.check_only) {
    std::cout << o.file << ": ok (" << m.entries().size() << " function(s); entry @" << entry << " takes " << params.size() << " argument(s))\n";
    return 0;
  }
  std::vector<Array> arrays;
  const std::vector<pto::ir::Arg> args = bind_args(entry, params, arg_strings, arrays);
  std::vector<std::pair<std::size_t, std::string>> outs, goldens;
  for (const std::string& s : o.outs) outs.push_back(indexed(s, "--out"));
  for (const std::string& s : o.goldens) goldens.push_back(indexed(s, "--golden"));
  for (const auto& [i, path] : outs)
    if (i >= params.size() || params[i].kind != pto::ir::Param::Kind::Pointer)
      throw Usage("--out " + std::to_string(i) + "=" + path + ": argument " + std::to_string(i) + " is not a GM buffer");
  for (const auto& [i, path] : goldens)
    if (i >= params.size() || params[i].kind != pto::ir::Param::Kind::Pointer)
      throw Usage("--golden " + std::to_string(i) + "=" + path + ": argument " + std::to_string(i) + " is not a GM buffer");

  cfg.mode = o.mode == "manual" ? pto::Mode::Manual : pto::Mode::Auto;
  cfg.model_only = o.model_only;
  cfg.timeline = !o.trace.empty() || !o.svg.empty();
  if (o.threads > 0) cfg.host_threads = o.threads;
  const pto::LaunchReport r = m.launch(cfg, entry, args);
  std::cout << r;
  if (!o.trace.empty()) pto::write_chrome_trace(r, o.trace);
  if (!o.svg.empty()) pto::write_svg_timeline(r, o.svg);
  for (const auto& [i, path] : outs) write_npy(path, arrays[i]);

  int status = 0;
  for (const auto& [i, path] : goldens) {
    if (o.model_only) throw Usage("--golden with --model-only: a model-only run computes no data");
    Array g = read_npy(path);
    const Array& a = arrays[i];
    if (g.dtype == pto::DType::U16 && a.dtype == pto::DType::BF16) g.dtype = pto::DType::BF16;  // bf16 bits
    if (g.count() != a.count())
      throw Usage("--golden " + std::to_string(i) + "=" + path + ": holds " + std::to_string(g.count()) + " elements; argument " +
                  std::to_string(i) + " has " + std::to_string(a.count()));
    std::size_t bad = 0, first = 0;
    double max_abs = 0, max_rel = 0;
    for (std::size_t k = 0; k < a.count(); ++k) {
      const double x = element(a, k), y = element(g, k);
      if (x == y || (std::isnan(x) && std::isnan(y))) continue;  // equal infinities too
      const double d = std::fabs(x - y);
      if (!(d <= o.atol + o.rtol * std::fabs(y))) {
        if (bad++ == 0) first = k;
      }
      if (std::isfinite(d)) {
        max_abs = std::max(max_abs, d);
        if (y != 0) max_rel = std::max(max_rel, d / std::fabs(y));
      }
    }
    std::cout << "golden " << i << " (" << path << "): " << a.count() << " elements, " << bad << " mismatch(es) (|x - ref| > " << o.atol
              << " + " << o.rtol << " |ref|); max abs error " << max_abs << ", max rel error " << max_rel;
    if (bad) std::cout << "; first at element " << first << ": " << element(a, first) << " vs " << element(g, first);
    std::cout << '\n';
    if (bad) status = 1;
  }
  return status;
}

// --param NAME=V1,V2,...: the values of a template parameter ${NAME} (Module::instantiate).
struct Knob {
  std::string name;
  std::vector<std::string> values;
};

std::vector<Knob> knobs_of(const std::vector<std::string>& params) {
  std::vector<Knob> knobs;
  for (const std::string& p : params) {
    const auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == p.size())
      throw Usage("--param " + p + ": expected NAME=V1,V2,... (the values of ${NAME} in the file or in an --arg)");
    Knob k{p.substr(0, eq), {}};
    for (const Knob& other : knobs)
      if (other.name == k.name) throw Usage("--param " + k.name + " is given twice (list its values in one: NAME=V1,V2,...)");
    std::stringstream ss(p.substr(eq + 1));
    for (std::string v; std::getline(ss, v, ',');) {
      if (v.empty()) throw Usage("--param " + p + ": an empty value");
      k.values.push_back(v);
    }
    if (p.back() == ',') throw Usage("--param " + p + ": an empty value");
    knobs.push_back(std::move(k));
  }
  return knobs;
}

std::string substitute(std::string s, const std::map<std::string, std::string>& values) {
  for (const auto& [name, value] : values) {
    const std::string key = "${" + name + "}";
    for (std::size_t at = 0; (at = s.find(key, at)) != std::string::npos; at += value.size()) s.replace(at, key.size(), value);
  }
  return s;
}

// With --param: one run of the instantiated file when every parameter has one value, else a tiling
// search over every combination (pto::tune, model only), printed as a ranking.
int start(const Options& o) {
  if (o.params.empty()) return run(o, pto::ir::Module::load(o.file), o.args);
  std::ifstream is(o.file, std::ios::binary);
  if (!is) throw Usage(o.file + ": cannot open the file");
  const std::string text((std::istreambuf_iterator<char>(is)), std::istreambuf_iterator<char>());
  const std::vector<Knob> knobs = knobs_of(o.params);
  std::size_t combos = 1;
  for (const Knob& k : knobs) {
    const std::string key = "${" + k.name + "}";
    bool used = text.find(key) != std::string::npos;
    for (const std::string& a : o.args) used = used || a.find(key) != std::string::npos;
    if (!used) throw Usage("--param " + k.name + ": neither " + o.file + " nor an --arg uses ${" + k.name + "}");
    combos *= k.values.size();
    if (combos > 10000) throw Usage("--param: more than 10000 combinations; search a coarser grid first");
  }
  auto values_of = [&](std::size_t index) {  // the first --param varies slowest
    std::map<std::string, std::string> v;
    for (std::size_t k = knobs.size(); k-- > 0;) {
      v[knobs[k].name] = knobs[k].values[index % knobs[k].values.size()];
      index /= knobs[k].values.size();
    }
    return v;
  };
  auto args_of = [&](const std::map<std::string, std::string>& v) {
    std::vector<std::string> a;
    for (const std::string& s : o.args) a.push_back(substitute(s, v));
    return a;
  };
  if (combos == 1) {
    const auto v = values_of(0);
    return run(o, pto::ir::Module::parse(pto::ir::Module::instantiate(text, v, o.file), o.file), args_of(v));
  }
  if (!o.outs.empty() || !o.goldens.empty() || !o.trace.empty() || !o.svg.empty() || o.check_only)
    throw Usage("--param with several values runs a tiling search, model only; --out, --golden, --trace, --svg and --check "
                "take one run: give each parameter one value");
  pto::ir::Module::instantiate(text, values_of(0), o.file);  // a parameter without a value: one error, not one per candidate
  std::vector<pto::tune::Candidate> grid;
  for (std::size_t i = 0; i < combos; ++i) {
    const auto v = values_of(i);
    std::string name;
    for (const Knob& k : knobs) name += (name.empty() ? "" : " ") + k.name + "=" + v.at(k.name);
    grid.push_back({name, [&o, &text, &args_of, v](const pto::LaunchConfig& base) {
                      const pto::ir::Module m = pto::ir::Module::parse(pto::ir::Module::instantiate(text, v, o.file), o.file);
                      const std::string entry = o.entry.empty() ? m.default_entry() : o.entry;
                      pto::LaunchConfig cfg = base;
                      cfg.target = target_of(o, m);
                      std::vector<Array> arrays;
                      const std::vector<pto::ir::Arg> args = bind_args(entry, m.params(entry), args_of(v), arrays);
                      return m.launch(cfg, entry, args);
                    }});
  }
  pto::tune::Options opt;
  opt.config.blocks = o.blocks;
  opt.config.mode = o.mode == "manual" ? pto::Mode::Manual : pto::Mode::Auto;
  opt.host_threads = o.threads;
  const std::vector<pto::tune::Result> ranked = pto::tune::search(grid, opt);
  std::cout << o.file << ": " << combos << " candidates, model only on " << o.blocks << " core(s)\n" << pto::tune::ranking(ranked, o.top);
  return ranked.front().ok ? 0 : 2;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"pto-run: run a PTO IR (.pto) file on emulated Ascend cores, with the pipeline model and the checker"};
  Options o;
  app.add_option("file", o.file, "the .pto file")->required();
  app.add_option("--target", o.target, "a2a3 or a5 (default: the module's pto.target_arch, else a2a3)");
  app.add_option("--entry", o.entry, "the function to run (default: the file's only public function)");
  app.add_option("--blocks", o.blocks, "cores (blocks) to run it on")->check(CLI::Range(1, 4096));
  app.add_option("--mode", o.mode, "auto (dependencies from bytes; default) or manual (the file's own flags)")
      ->check(CLI::IsMember({"auto", "manual"}));
  app.add_flag("--model-only", o.model_only, "time the instructions, compute nothing");
  app.add_option("--arg", o.args, "an argument, in order: FILE.npy, FILE.bin:DTYPE:SHAPE, DTYPE:SHAPE (zeros) or a number");
  app.add_option("--out", o.outs, "I=FILE.npy: write GM argument I after the run");
  app.add_option("--golden", o.goldens, "I=FILE.npy: compare GM argument I with it (exit 1 on a mismatch)");
  app.add_option("--rtol", o.rtol, "relative tolerance of --golden (default 1e-3)");
  app.add_option("--atol", o.atol, "absolute tolerance of --golden (default 1e-3)");
  app.add_option("--trace", o.trace, "write a Chrome trace (chrome://tracing, Perfetto)");
  app.add_option("--svg", o.svg, "write the SVG timeline");
  app.add_option("--host-threads", o.threads, "host threads (default: the machine's)");
  app.add_flag("--check", o.check_only, "parse and verify the file, run nothing");
  app.add_option("--param", o.params, "NAME=V1,V2,...: the values of ${NAME} in the file and the --arg strings; several "
                 "values: a tiling search over every combination, model only, ranked by modeled time");
  app.add_option("--top", o.top, "with a search: how many of the ranking to print (default 10; 0 = all)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  try {
    return start(o);
  } catch (const Usage& e) {
    std::cerr << "pto-run: error: " << e.what() << '\n';
  } catch (const pto::Error& e) {
    std::cerr << e.what() << '\n';
  } catch (const std::exception& e) {
    std::cerr << "pto-run: error: " << e.what() << '\n';
  }
  return 2;
}
