// The builtin dialects PTOAS files use around the pto ops: arith (constants, integer and float
// arithmetic, comparisons, select, casts), scf (for with iter_args, if / else with results, yield) and
// func (call, return). Integers live in 64 bits and wrap to their type's width after each op; floats
// are computed in double and rounded to their type (f16, bf16, f32).
#include <cmath>
#include <cstring>
#include <limits>

#include <pto/isa/bfloat16.hpp>
#include <pto/isa/dtype.hpp>
#include <pto/runtime/core_api.hpp>

#include "program.hpp"

namespace pto::ir::detail {

namespace {

// The statement's one result name: an op that computes a value must name it (`%r = arith.addi ...`).
const std::string& first_result(Cursor& cur) {
  if (cur.stmt().results.empty()) cur.error("computes a value; name its result (%r = " + cur.stmt().op + " ...)");
  return cur.stmt().results[0];
}

// ---- numbers -------------------------------------------------------------------------------------

std::int64_t wrap(std::int64_t v, const Type& t) {
  if (t.kind == Type::Kind::Index || t.bits >= 64) return v;
  if (t.bits == 1) return v & 1;
  const std::uint64_t mask = (std::uint64_t(1) << t.bits) - 1;
  const std::uint64_t u = std::uint64_t(v) & mask;
  if (t.is_unsigned) return std::int64_t(u);
  const std::uint64_t sign = std::uint64_t(1) << (t.bits - 1);
  return std::int64_t((u ^ sign) - sign);  // sign-extended
}
std::uint64_t unsigned_of(std::int64_t v, const Type& t) {
  if (t.kind == Type::Kind::Index || t.bits >= 64) return std::uint64_t(v);
  return std::uint64_t(v) & ((std::uint64_t(1) << t.bits) - 1);
}
double round_to(double v, const Type& t) {
  if (t.kind != Type::Kind::Float || t.bits == 64) return v;
  if (t.dtype == DType::F16) return double(static_cast<float>(half(static_cast<float>(v))));
  if (t.dtype == DType::BF16) return double(static_cast<float>(bfloat16_t(static_cast<float>(v))));
  return double(static_cast<float>(v));
}

void set(Frame& f, const Op& op, std::size_t k, Value v) { f.v[std::size_t(op.out[k])] = std::move(v); }

// ---- arith ---------------------------------------------------------------------------------------

void exec_const(Frame& f, const Op& op) {
  if (op.types[0].kind == Type::Kind::Float) set(f, op, 0, op.floats[0]);
  else set(f, op, 0, op.ints[0]);
}
void c_constant(Compiler& c, Cursor& cur, Op& op) {
  Type t;
  const Token& v = cur.next();
  if (v.is("true") || v.is("false")) {
    t.kind = Type::Kind::Int;
    t.bits = 1;
    t.text = "i1";
    op.ints = {v.is("true") ? 1 : 0};
  } else if (v.kind == Token::Kind::Int || v.kind == Token::Kind::Float) {
    cur.expect(":");
    t = cur.type();
    const bool hex = v.text.find("0x") != std::string::npos || v.text.find("0X") != std::string::npos;
    if (t.kind == Type::Kind::Float && hex) {  // MLIR writes inf and NaN as their bits
      const std::uint64_t bits = std::uint64_t(int_of(v, c.file));
      double value = 0;
      if (t.bits == 32) {
        const auto u = std::uint32_t(bits);
        float x;
        std::memcpy(&x, &u, 4);
        value = x;
      } else if (t.bits == 16) {
        const auto u = std::uint16_t(bits);
        if (t.dtype == DType::F16) {
          half h;
          std::memcpy(static_cast<void*>(&h), &u, 2);
          value = double(static_cast<float>(h));
        } else {
          bfloat16_t h;
          std::memcpy(static_cast<void*>(&h), &u, 2);
          value = double(static_cast<float>(h));
        }
      } else {
        std::memcpy(&value, &bits, 8);
      }
      op.floats = {value};
    } else if (t.kind == Type::Kind::Float) {
      op.floats = {round_to(float_of(v, c.file), t)};
    } else if (v.kind == Token::Kind::Int) {
      op.ints = {wrap(int_of(v, c.file), t)};
    } else {
      cur.error_at(v, "a float literal needs a float type");
    }
    if (!t.scalar()) cur.error_at(v, "a constant of type " + t.text + ": only index, integer and float constants");
  } else {
    cur.error_at(v, "expected a number, true or false");
  }
  op.types = {t};
  op.exec = exec_const;
  op.out = {c.define(first_result(cur), t, op.line, op.col)};
}

enum class Bin : std::uint8_t { Add, Sub, Mul, DivS, DivU, RemS, RemU, And, Or, Xor, Shl, ShrS, ShrU, MaxS, MinS, MaxU, MinU, CeilDivS, CeilDivU, FloorDivS,
                                AddF, SubF, MulF, DivF, RemF, MaxF, MinF };
struct BinName {
  const char* name;
  Bin op;
};
constexpr BinName kBins[] = {{"arith.addi", Bin::Add},        {"arith.subi", Bin::Sub},         {"arith.muli", Bin::Mul},
                             {"arith.divsi", Bin::DivS},      {"arith.divui", Bin::DivU},       {"arith.remsi", Bin::RemS},
                             {"arith.remui", Bin::RemU},      {"arith.andi", Bin::And},         {"arith.ori", Bin::Or},
                             {"arith.xori", Bin::Xor},        {"arith.shli", Bin::Shl},         {"arith.shrsi", Bin::ShrS},
                             {"arith.shrui", Bin::ShrU},      {"arith.maxsi", Bin::MaxS},       {"arith.minsi", Bin::MinS},
                             {"arith.maxui", Bin::MaxU},      {"arith.minui", Bin::MinU},       {"arith.ceildivsi", Bin::CeilDivS},
                             {"arith.ceildivui", Bin::CeilDivU}, {"arith.floordivsi", Bin::FloorDivS}, {"arith.addf", Bin::AddF},
                             {"arith.subf", Bin::SubF},       {"arith.mulf", Bin::MulF},        {"arith.divf", Bin::DivF},
                             {"arith.remf", Bin::RemF},       {"arith.maximumf", Bin::MaxF},    {"arith.maxnumf", Bin::MaxF},
                             {"arith.minimumf", Bin::MinF},   {"arith.minnumf", Bin::MinF}};

void exec_bin(Frame& f, const Op& op) {
  const Type& t = op.types[0];
  const auto b = Bin(op.ints[0]);
  if (b >= Bin::AddF) {
    const double x = as_float(f, op, op.in[0]), y = as_float(f, op, op.in[1]);
    double r = 0;
    switch (b) {
      case Bin::AddF: r = x + y; break;
      case Bin::SubF: r = x - y; break;
      case Bin::MulF: r = x * y; break;
      case Bin::DivF: r = x / y; break;
      case Bin::RemF: r = std::fmod(x, y); break;
      case Bin::MaxF: r = std::isnan(x) || std::isnan(y) ? (op.name == "arith.maxnumf" ? (std::isnan(x) ? y : x) : NAN) : std::max(x, y); break;
      default: r = std::isnan(x) || std::isnan(y) ? (op.name == "arith.minnumf" ? (std::isnan(x) ? y : x) : NAN) : std::min(x, y); break;
    }
    set(f, op, 0, round_to(r, t));
    return;
  }
  // The operands as their type holds them (a wider value passed in wraps, as the chip's register would).
  const std::int64_t x = wrap(as_int(f, op, op.in[0]), t), y = wrap(as_int(f, op, op.in[1]), t);
  const std::uint64_t ux = unsigned_of(x, t), uy = unsigned_of(y, t);
  const bool div = b == Bin::DivS || b == Bin::DivU || b == Bin::RemS || b == Bin::RemU || b == Bin::CeilDivS || b == Bin::CeilDivU ||
                   b == Bin::FloorDivS;
  if (div && (y == 0 || uy == 0)) op_error(f, op, op.name + ": division by zero");
  const bool min_by_minus_one = x == std::numeric_limits<std::int64_t>::min() && y == -1;
  std::int64_t r = 0;
  switch (b) {
    case Bin::Add: r = std::int64_t(std::uint64_t(x) + std::uint64_t(y)); break;
    case Bin::Sub: r = std::int64_t(std::uint64_t(x) - std::uint64_t(y)); break;
    case Bin::Mul: r = std::int64_t(std::uint64_t(x) * std::uint64_t(y)); break;
    case Bin::DivS: r = (x == std::numeric_limits<std::int64_t>::min() && y == -1) ? x : x / y; break;
    case Bin::DivU: r = std::int64_t(ux / uy); break;
    case Bin::RemS: r = y == -1 ? 0 : x % y; break;
    case Bin::RemU: r = std::int64_t(ux % uy); break;
    case Bin::And: r = x & y; break;
    case Bin::Or: r = x | y; break;
    case Bin::Xor: r = x ^ y; break;
    case Bin::Shl: r = uy >= 64 ? 0 : std::int64_t(std::uint64_t(x) << uy); break;
    case Bin::ShrS: r = uy >= 64 ? (x < 0 ? -1 : 0) : x >> uy; break;
    case Bin::ShrU: r = uy >= 64 ? 0 : std::int64_t(ux >> uy); break;
    case Bin::MaxS: r = std::max(x, y); break;
    case Bin::MinS: r = std::min(x, y); break;
    case Bin::MaxU: r = std::int64_t(std::max(ux, uy)); break;
    case Bin::MinU: r = std::int64_t(std::min(ux, uy)); break;
    case Bin::CeilDivS: r = min_by_minus_one ? x : x / y + ((x % y != 0) && ((x < 0) == (y < 0)) ? 1 : 0); break;
    case Bin::CeilDivU: r = std::int64_t(ux / uy + (ux % uy != 0 ? 1 : 0)); break;
    case Bin::FloorDivS: r = min_by_minus_one ? x : x / y - ((x % y != 0) && ((x < 0) != (y < 0)) ? 1 : 0); break;
    default: break;
  }
  set(f, op, 0, wrap(r, t));
}

void c_bin(Compiler& c, Cursor& cur, Op& op) {
  for (const BinName& b : kBins)
    if (op.name == b.name) op.ints = {std::int64_t(b.op)};
  Type ta, tb;
  op.in = {cur.value(&ta)};
  cur.expect(",");
  op.in.push_back(cur.value(&tb));
  cur.skip_attr_dict();
  cur.expect(":");
  const Type t = cur.type();
  const bool fl = Bin(op.ints[0]) >= Bin::AddF;
  if (fl != (t.kind == Type::Kind::Float) || !t.scalar())
    cur.error(std::string("the type must be ") + (fl ? "a float type (f16, bf16, f32)" : "index or an integer type") + ", not " + t.text);
  op.types = {t};
  op.exec = exec_bin;
  op.out = {c.define(first_result(cur), t, op.line, op.col)};
}

void exec_negf(Frame& f, const Op& op) { set(f, op, 0, round_to(-as_float(f, op, op.in[0]), op.types[0])); }
void c_negf(Compiler& c, Cursor& cur, Op& op) {
  op.in = {cur.value()};
  cur.skip_attr_dict();
  cur.expect(":");
  op.types = {cur.type()};
  op.exec = exec_negf;
  op.out = {c.define(first_result(cur), op.types[0], op.line, op.col)};
}

// cmpi / cmpf: the predicate's index in these lists.
constexpr const char* kCmpi[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
constexpr const char* kCmpf[] = {"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"};

void exec_cmpi(Frame& f, const Op& op) {
  const Type& t = op.types[0];
  const std::int64_t x = as_int(f, op, op.in[0]), y = as_int(f, op, op.in[1]);
  const std::uint64_t ux = unsigned_of(x, t), uy = unsigned_of(y, t);
  bool r = false;
  switch (op.ints[0]) {
    case 0: r = x == y; break;
    case 1: r = x != y; break;
    case 2: r = x < y; break;
    case 3: r = x <= y; break;
    case 4: r = x > y; break;
    case 5: r = x >= y; break;
    case 6: r = ux < uy; break;
    case 7: r = ux <= uy; break;
    case 8: r = ux > uy; break;
    default: r = ux >= uy; break;
  }
  set(f, op, 0, std::int64_t(r));
}
void exec_cmpf(Frame& f, const Op& op) {
  const double x = as_float(f, op, op.in[0]), y = as_float(f, op, op.in[1]);
  const bool uno = std::isnan(x) || std::isnan(y);
  bool r = false;
  switch (op.ints[0]) {
    case 0: r = false; break;
    case 1: r = !uno && x == y; break;
    case 2: r = !uno && x > y; break;
    case 3: r = !uno && x >= y; break;
    case 4: r = !uno && x < y; break;
    case 5: r = !uno && x <= y; break;
    case 6: r = !uno && x != y; break;
    case 7: r = !uno; break;
    case 8: r = uno || x == y; break;
    case 9: r = uno || x > y; break;
    case 10: r = uno || x >= y; break;
    case 11: r = uno || x < y; break;
    case 12: r = uno || x <= y; break;
    case 13: r = uno || x != y; break;
    case 14: r = uno; break;
    default: r = true; break;
  }
  set(f, op, 0, std::int64_t(r));
}
void c_cmp(Compiler& c, Cursor& cur, Op& op) {
  const bool fl = op.name == "arith.cmpf";
  const std::string pred = cur.ident();
  const auto* names = fl ? kCmpf : kCmpi;
  const std::size_t n = fl ? std::size(kCmpf) : std::size(kCmpi);
  op.ints = {-1};
  for (std::size_t k = 0; k < n; ++k)
    if (pred == names[k]) op.ints[0] = std::int64_t(k);
  if (op.ints[0] < 0) cur.error("unknown predicate '" + pred + "'");
  cur.expect(",");
  op.in = {cur.value()};
  cur.expect(",");
  op.in.push_back(cur.value());
  cur.skip_attr_dict();
  cur.expect(":");
  op.types = {cur.type()};
  Type i1;
  i1.kind = Type::Kind::Int;
  i1.bits = 1;
  i1.text = "i1";
  op.exec = fl ? exec_cmpf : exec_cmpi;
  op.out = {c.define(first_result(cur), i1, op.line, op.col)};
}

void exec_select(Frame& f, const Op& op) { set(f, op, 0, f.v[std::size_t(op.in[as_int(f, op, op.in[0]) ? 1 : 2])]); }
void c_select(Compiler& c, Cursor& cur, Op& op) {
  op.in = {cur.value()};
  cur.expect(",");
  op.in.push_back(cur.value());
  cur.expect(",");
  op.in.push_back(cur.value());
  cur.expect(":");
  Type t = cur.type();
  if (cur.accept(",")) t = cur.type();  // `: i1, index`
  op.types = {t};
  op.exec = exec_select;
  op.out = {c.define(first_result(cur), t, op.line, op.col)};
}

// Casts: `%r = arith.index_cast %a : i64 to index`.
void exec_cast(Frame& f, const Op& op) {
  const Type &from = op.types[0], &to = op.types[1];
  const std::string& n = op.name;
  if (n == "arith.sitofp" || n == "arith.uitofp") {
    const std::int64_t x = as_int(f, op, op.in[0]);
    set(f, op, 0, round_to(n == "arith.uitofp" ? double(unsigned_of(x, from)) : double(x), to));
  } else if (n == "arith.fptosi" || n == "arith.fptoui") {
    const double x = as_float(f, op, op.in[0]);
    if (!std::isfinite(x) || std::fabs(x) >= 9.2e18) op_error(f, op, n + ": " + std::to_string(x) + " has no 64-bit integer value");
    set(f, op, 0, wrap(std::int64_t(std::trunc(x)), to));
  } else if (n == "arith.extf" || n == "arith.truncf") {
    set(f, op, 0, round_to(as_float(f, op, op.in[0]), to));
  } else if (n == "arith.extui" || n == "arith.index_castui") {
    set(f, op, 0, wrap(std::int64_t(unsigned_of(as_int(f, op, op.in[0]), from)), to));
  } else if (n == "arith.bitcast") {
    const Value& v = f.v[std::size_t(op.in[0])];
    std::uint64_t bits = 0;
    if (const double* d = std::get_if<double>(&v)) {
      if (from.bits == 32) {
        const float x = float(*d);
        std::uint32_t u;
        std::memcpy(&u, &x, 4);
        bits = u;
      } else if (from.dtype == DType::F16) {
        const half h(static_cast<float>(*d));
        std::uint16_t u;
        std::memcpy(&u, &h, 2);
        bits = u;
      } else {
        const bfloat16_t h(static_cast<float>(*d));
        std::uint16_t u;
        std::memcpy(&u, &h, 2);
        bits = u;
      }
    } else {
      bits = unsigned_of(as_int(f, op, op.in[0]), from);
    }
    if (to.kind == Type::Kind::Float) {
      if (to.bits == 32) {
        const auto u = std::uint32_t(bits);
        float x;
        std::memcpy(&x, &u, 4);
        set(f, op, 0, double(x));
      } else {
        const auto u = std::uint16_t(bits);
        if (to.dtype == DType::F16) {
          half h;
          std::memcpy(static_cast<void*>(&h), &u, 2);
          set(f, op, 0, double(static_cast<float>(h)));
        } else {
          bfloat16_t h;
          std::memcpy(static_cast<void*>(&h), &u, 2);
          set(f, op, 0, double(static_cast<float>(h)));
        }
      }
    } else {
      set(f, op, 0, wrap(std::int64_t(bits), to));
    }
  } else {  // index_cast, extsi, trunci
    set(f, op, 0, wrap(as_int(f, op, op.in[0]), to));
  }
}
void c_cast(Compiler& c, Cursor& cur, Op& op) {
  Type from_decl;
  op.in = {cur.value(&from_decl)};
  cur.skip_attr_dict();
  cur.expect(":");
  const Type from = cur.type();
  if (!cur.accept("to")) cur.error("expected 'to' and the result type");
  const Type to = cur.type();
  if (!from.scalar() || !to.scalar()) cur.error("casts take scalar types, not " + from.text + " to " + to.text);
  op.types = {from, to};
  op.exec = exec_cast;
  op.out = {c.define(first_result(cur), to, op.line, op.col)};
}

// ---- scf -----------------------------------------------------------------------------------------

// The values a region yields: f.yielded after its run.
std::vector<Value> run_region(Frame& f, const Block& b) {
  f.yielded.clear();
  run_block(f, b);
  return std::move(f.yielded);
}

void exec_for(Frame& f, const Op& op) {
  const std::int64_t lb = as_int(f, op, op.in[0]), ub = as_int(f, op, op.in[1]), step = as_int(f, op, op.in[2]);
  if (step <= 0) op_error(f, op, "scf.for: the step is " + std::to_string(step) + "; it must be positive");
  std::vector<Value> carried;
  for (std::size_t k = 3; k < op.in.size(); ++k) carried.push_back(f.v[std::size_t(op.in[k])]);
  const Block& body = op.regions[0];
  for (std::int64_t i = lb; i < ub; i = std::uint64_t(ub) - std::uint64_t(i) <= std::uint64_t(step) ? ub : i + step) {
    f.v[std::size_t(body.args[0])] = i;
    for (std::size_t k = 0; k < carried.size(); ++k) f.v[std::size_t(body.args[k + 1])] = carried[k];
    std::vector<Value> y = run_region(f, body);
    if (f.returned) return;
    if (y.size() != carried.size())
      op_error(f, op, "scf.for: the body yields " + std::to_string(y.size()) + " values for " + std::to_string(carried.size()) + " iter_args");
    carried = std::move(y);
  }
  for (std::size_t k = 0; k < carried.size(); ++k) set(f, op, k, std::move(carried[k]));
}
void c_for(Compiler& c, Cursor& cur, Op& op) {
  const Token& iv = cur.next();
  if (iv.kind != Token::Kind::Value) cur.error_at(iv, "expected the induction variable (%i)");
  cur.expect("=");
  op.in = {cur.value()};
  if (!cur.accept("to")) cur.error("expected 'to'");
  op.in.push_back(cur.value());
  if (!cur.accept("step")) cur.error("expected 'step'");
  op.in.push_back(cur.value());
  std::vector<std::pair<std::string, Type>> args;
  Type index;
  index.kind = Type::Kind::Index;
  index.text = "index";
  args.emplace_back(iv.text, index);
  std::vector<std::string> names;
  if (cur.accept("iter_args")) {
    cur.expect("(");
    do {
      const Token& a = cur.next();
      if (a.kind != Token::Kind::Value) cur.error_at(a, "expected an iter_args name (%acc = %init)");
      cur.expect("=");
      Type t;
      op.in.push_back(cur.value(&t));
      names.push_back(a.text);
    } while (cur.accept(","));
    cur.expect(")");
    cur.expect("->");
    const std::vector<Type> types = cur.type_list();
    if (types.size() != names.size()) cur.error("iter_args has " + std::to_string(names.size()) + " values and " + std::to_string(types.size()) + " result types");
    for (std::size_t k = 0; k < names.size(); ++k) args.emplace_back(names[k], types[k]);
  }
  if (cur.accept(":")) {  // `: i32` the induction type
    args[0].second = cur.type();
  }
  op.regions.push_back(c.compile_block(cur.region(), args));
  op.exec = exec_for;
  const auto& res = cur.stmt().results;
  if (res.size() != names.size()) cur.error("scf.for with " + std::to_string(names.size()) + " iter_args has as many results; the statement names " + std::to_string(res.size()));
  for (std::size_t k = 0; k < res.size(); ++k) op.out.push_back(c.define(res[k], args[k + 1].second, op.line, op.col));
}

void exec_if(Frame& f, const Op& op) {
  const bool cond = as_int(f, op, op.in[0]) != 0;
  if (!cond && op.regions.size() < 2) return;
  std::vector<Value> y = run_region(f, op.regions[cond ? 0 : 1]);
  if (f.returned) return;
  if (y.size() != op.out.size())
    op_error(f, op, "scf.if: the " + std::string(cond ? "then" : "else") + " region yields " + std::to_string(y.size()) + " values for " +
                        std::to_string(op.out.size()) + " results");
  for (std::size_t k = 0; k < y.size(); ++k) set(f, op, k, std::move(y[k]));
}
void c_if(Compiler& c, Cursor& cur, Op& op) {
  op.in = {cur.value()};
  std::vector<Type> types;
  if (cur.accept("->")) types = cur.type_list();
  op.regions.push_back(c.compile_block(cur.region(), {}));
  if (cur.accept("else")) op.regions.push_back(c.compile_block(cur.region(), {}));
  if (!types.empty() && op.regions.size() < 2) cur.error("an scf.if with results needs an else region");
  op.exec = exec_if;
  const auto& res = cur.stmt().results;
  if (res.size() != types.size()) cur.error("scf.if has " + std::to_string(types.size()) + " result types; the statement names " + std::to_string(res.size()));
  for (std::size_t k = 0; k < res.size(); ++k) op.out.push_back(c.define(res[k], types[k], op.line, op.col));
}

// %r:2 = scf.while (%a = %init, ...) : (T, ...) -> (R, ...) { ... scf.condition(%c) %x, ... : R, ... }
//        do { ^bb0(%y: R, ...): ... scf.yield %n, ... : T, ... }
// The before-region runs with the carried values; scf.condition ends the loop (its values the results)
// or hands them to the after-region, whose yield carries the next values.
constexpr std::int64_t kWhileLimit = 100000000;  // iterations: beyond, an error rather than a hang
void exec_while(Frame& f, const Op& op) {
  std::vector<Value> carried;
  for (int s : op.in) carried.push_back(f.v[std::size_t(s)]);
  const Block &before = op.regions[0], &after = op.regions[1];
  for (std::int64_t n = 0;; ++n) {
    if (n == kWhileLimit) op_error(f, op, "scf.while: " + std::to_string(kWhileLimit) + " iterations without its condition turning false");
    for (std::size_t k = 0; k < carried.size(); ++k) f.v[std::size_t(before.args[k])] = carried[k];
    std::vector<Value> c = run_region(f, before);
    if (f.returned) return;
    if (c.size() != op.out.size() + 1) op_error(f, op, "scf.while: the before region must end with scf.condition");
    const bool go = std::get_if<std::int64_t>(&c[0]) && std::get<std::int64_t>(c[0]) != 0;
    if (!go) {
      for (std::size_t k = 0; k < op.out.size(); ++k) set(f, op, k, std::move(c[k + 1]));
      return;
    }
    for (std::size_t k = 0; k < op.out.size(); ++k) f.v[std::size_t(after.args[k])] = std::move(c[k + 1]);
    std::vector<Value> y = run_region(f, after);
    if (f.returned) return;
    if (y.size() != carried.size())
      op_error(f, op, "scf.while: the do region yields " + std::to_string(y.size()) + " values for " + std::to_string(carried.size()));
    carried = std::move(y);
  }
}
void c_while(Compiler& c, Cursor& cur, Op& op) {
  std::vector<std::string> names;
  cur.expect("(");
  if (!cur.accept(")")) {
    do {
      const Token& a = cur.next();
      if (a.kind != Token::Kind::Value) cur.error_at(a, "expected a loop-carried name (%a = %init)");
      cur.expect("=");
      op.in.push_back(cur.value());
      names.push_back(a.text);
    } while (cur.accept(","));
    cur.expect(")");
  }
  cur.expect(":");
  const std::vector<Type> in_types = cur.type_list();
  cur.expect("->");
  const std::vector<Type> out_types = cur.type_list();
  if (in_types.size() != names.size()) cur.error("carries " + std::to_string(names.size()) + " values but lists " + std::to_string(in_types.size()) + " types");
  std::vector<std::pair<std::string, Type>> before_args, after_args;
  for (std::size_t k = 0; k < names.size(); ++k) before_args.emplace_back(names[k], in_types[k]);
  for (std::size_t k = 0; k < out_types.size(); ++k) after_args.emplace_back("%" + std::string("while#") + std::to_string(k), out_types[k]);
  const Region& before = cur.region();
  if (before.stmts.empty() || before.stmts.back().op != "scf.condition") cur.error("the before region must end with scf.condition");
  op.regions.push_back(c.compile_block(before, before_args));
  if (!cur.accept("do")) cur.error("expected 'do { ... }' (the loop's body)");
  op.regions.push_back(c.compile_block(cur.region(), after_args));
  op.exec = exec_while;
  const auto& res = cur.stmt().results;
  if (res.size() != out_types.size()) cur.error("scf.while has " + std::to_string(out_types.size()) + " result types; the statement names " + std::to_string(res.size()));
  for (std::size_t k = 0; k < res.size(); ++k) op.out.push_back(c.define(res[k], out_types[k], op.line, op.col));
}
// scf.condition(%c) %x, ... : R, ...: the before region's end (its values: the condition, then the
// forwarded ones).
void exec_condition(Frame& f, const Op& op) {
  f.yielded.clear();
  f.yielded.push_back(std::int64_t(as_int(f, op, op.in[0]) != 0));
  for (std::size_t k = 1; k < op.in.size(); ++k) f.yielded.push_back(f.v[std::size_t(op.in[k])]);
}
void c_condition(Compiler&, Cursor& cur, Op& op) {
  cur.expect("(");
  Type t;
  op.in = {cur.value(&t)};
  cur.expect(")");
  if (t.kind != Type::Kind::Int || t.bits != 1) cur.error("the condition must be an i1, not " + t.text);
  if (!cur.done() && cur.peek().kind == Token::Kind::Value) {
    do op.in.push_back(cur.value()); while (cur.accept(","));
    cur.expect(":");
    std::size_t n = 0;
    do cur.type(), ++n; while (cur.accept(","));
    if (n != op.in.size() - 1) cur.error("forwards " + std::to_string(op.in.size() - 1) + " values and lists " + std::to_string(n) + " types");
  }
  op.exec = exec_condition;
}

void exec_yield(Frame& f, const Op& op) {
  f.yielded.clear();
  for (int s : op.in) f.yielded.push_back(f.v[std::size_t(s)]);
  if (op.name == "return" || op.name == "func.return") f.returned = true;
}
void c_yield(Compiler& c, Cursor& cur, Op& op) {
  if ((op.name == "return" || op.name == "func.return") && c.scopes.size() != 1)
    cur.error("a return belongs at the end of the function's body, not inside scf.for / scf.if (yield the values out)");
  if (!cur.done() && cur.peek().kind == Token::Kind::Value) {
    do op.in.push_back(cur.value()); while (cur.accept(","));
    cur.expect(":");
    std::size_t n = 0;
    do cur.type(), ++n; while (cur.accept(","));
    if (n != op.in.size()) cur.error("lists " + std::to_string(op.in.size()) + " values and " + std::to_string(n) + " types");
  }
  op.exec = exec_yield;
}

// ---- func ----------------------------------------------------------------------------------------

void exec_call(Frame& f, const Op& op) {
  const Function& callee = f.prog.funcs[std::size_t(op.callee)];
  if (callee.declaration) op_error(f, op, "func.call: @" + callee.name + " is declared without a body");
  // In a cluster launch a cube function runs on the cube core only, a vector function on the vector
  // cores only (PTOAS compiles a mixed kernel once per core kind); elsewhere it just runs.
  const CoreKind kind = pto::detail::core_kind(pto::detail::current_core());
  if ((callee.kernel_kind == "cube" && kind == CoreKind::Vector) || (callee.kernel_kind == "vector" && kind == CoreKind::Cube)) {
    if (!op.out.empty()) op_error(f, op, "func.call: @" + callee.name + " is a " + callee.kernel_kind + " function with results; this core does not run it");
    return;
  }
  std::vector<Value> args;
  for (int s : op.in) args.push_back(f.v[std::size_t(s)]);
  std::vector<Value> r = run_function(f.prog, op.callee, std::move(args), f.ctx);
  if (r.size() != op.out.size())
    op_error(f, op, "func.call: @" + callee.name + " returned " + std::to_string(r.size()) + " values for " + std::to_string(op.out.size()) + " results");
  for (std::size_t k = 0; k < r.size(); ++k) set(f, op, k, std::move(r[k]));
}
void c_call(Compiler& c, Cursor& cur, Op& op) {
  const Token& name = cur.next();
  if (name.kind != Token::Kind::Symbol) cur.error_at(name, "expected the callee (@name)");
  op.callee = c.prog.find(name.text.substr(1));
  if (op.callee < 0) cur.error_at(name, "calls " + name.text + ", which the file does not define or declare");
  c.fn->callees.push_back(op.callee);
  cur.expect("(");
  if (!cur.accept(")")) {
    do op.in.push_back(cur.value()); while (cur.accept(","));
    cur.expect(")");
  }
  cur.expect(":");
  if (!cur.peek().is("(")) cur.error("expected the callee's type `(T, ...) -> (R, ...)`");
  const std::vector<Type> params = cur.type_list();
  cur.expect("->");
  const std::vector<Type> results = cur.type_list();
  const Function& callee = c.prog.funcs[std::size_t(op.callee)];
  if (params.size() != op.in.size() || params.size() != callee.params.size())
    cur.error_at(name, name.text + " takes " + std::to_string(callee.params.size()) + " arguments; the call passes " + std::to_string(op.in.size()));
  op.exec = exec_call;
  const auto& res = cur.stmt().results;
  if (res.size() != results.size()) cur.error("the call has " + std::to_string(results.size()) + " results; the statement names " + std::to_string(res.size()));
  for (std::size_t k = 0; k < res.size(); ++k) op.out.push_back(c.define(res[k], results[k], op.line, op.col));
}

}  // namespace

void register_core_ops(std::map<std::string, CompileFn>& t) {
  t["arith.constant"] = c_constant;
  for (const BinName& b : kBins) t[b.name] = c_bin;
  t["arith.negf"] = c_negf;
  t["arith.cmpi"] = c_cmp;
  t["arith.cmpf"] = c_cmp;
  t["arith.select"] = c_select;
  for (const char* n : {"arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui", "arith.trunci", "arith.sitofp",
                        "arith.uitofp", "arith.fptosi", "arith.fptoui", "arith.extf", "arith.truncf", "arith.bitcast"})
    t[n] = c_cast;
  t["scf.for"] = c_for;
  t["scf.if"] = c_if;
  t["scf.while"] = c_while;
  t["scf.condition"] = c_condition;
  t["scf.yield"] = c_yield;
  t["return"] = c_yield;
  t["func.return"] = c_yield;
  t["func.call"] = c_call;
}

}  // namespace pto::ir::detail
