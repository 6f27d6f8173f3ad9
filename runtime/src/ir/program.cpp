#include "program.hpp"

#include <algorithm>

#include <pto/isa/error.hpp>
#include <pto/runtime/sync_check.hpp>

namespace pto::ir::detail {

// ---- errors and values ---------------------------------------------------------------------------

void op_error(const Frame& f, const Op& op, const std::string& what) {
  syntax_error(f.prog.file, op.line, op.col, what);
}

namespace {
const char* kind_name(const Value& v) {
  switch (v.index()) {
    case 0: return "no value (used before it was set)";
    case 1: return "an integer";
    case 2: return "a float";
    case 3: return "a tensor view or pointer";
    default: return "a tile";
  }
}
}  // namespace

std::int64_t as_int(const Frame& f, const Op& op, int slot) {
  const Value& v = f.v[std::size_t(slot)];
  if (const auto* i = std::get_if<std::int64_t>(&v)) return *i;
  op_error(f, op, op.name + ": expected an integer or index operand, found " + kind_name(v));
}
double as_float(const Frame& f, const Op& op, int slot) {
  const Value& v = f.v[std::size_t(slot)];
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return double(*i);
  op_error(f, op, op.name + ": expected a numeric operand, found " + kind_name(v));
}
const TensorVal& as_tensor(const Frame& f, const Op& op, int slot) {
  const Value& v = f.v[std::size_t(slot)];
  if (const auto* t = std::get_if<TensorVal>(&v)) return *t;
  op_error(f, op, op.name + ": expected a pointer or tensor view operand, found " + kind_name(v));
}
TileVal& as_tile(const Frame& f, const Op& op, int slot) {
  const Value& v = f.v[std::size_t(slot)];
  if (const auto* t = std::get_if<std::shared_ptr<TileVal>>(&v)) return **t;
  op_error(f, op, op.name + ": expected a tile operand, found " + kind_name(v));
}
std::int64_t index_of(const Frame& f, const Op& op, std::int64_t entry) {
  return entry >= 0 ? as_int(f, op, int(entry)) : -1 - entry;
}

// ---- compiling -----------------------------------------------------------------------------------

void Compiler::error(int line, int col, const std::string& what) const { syntax_error(file, line, col, what); }

int Compiler::define(const std::string& name, const Type& t, int line, int col) {
  auto& scope = scopes.back();
  if (scope.count(name)) error(line, col, "'" + name + "' is defined twice (SSA values are defined once)");
  const int slot = fn->slots++;
  scope[name] = {slot, t};
  return slot;
}

const std::pair<int, Type>* Compiler::find(const std::string& name) const {
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
    const auto f = it->find(name);
    if (f != it->end()) return &f->second;
  }
  return nullptr;
}

const Token& Cursor::peek(std::size_t k) const { return i_ + k < s_.toks.size() ? s_.toks[i_ + k] : end_; }
const Token& Cursor::next() {
  const Token& t = peek();
  if (!done()) ++i_;
  return t;
}
bool Cursor::accept(const char* p) {
  if (!done() && peek().is(p)) {
    ++i_;
    return true;
  }
  return false;
}
void Cursor::expect(const char* p) {
  if (!accept(p)) error(std::string("expected '") + p + "', found '" + peek().text + "'");
}
void Cursor::error(const std::string& what) const { error_at(peek(), what); }
void Cursor::error_at(const Token& t, const std::string& what) const {
  syntax_error(c_.file, t.line ? t.line : s_.line, t.line ? t.col : s_.col, s_.op + ": " + what);
}
int Cursor::value(Type* type) {
  const Token& t = next();
  if (t.kind != Token::Kind::Value) error_at(t, "expected an SSA value (%name), found '" + t.text + "'");
  const auto* found = c_.find(t.text);
  if (!found) error_at(t, "'" + t.text + "' is used but not defined before this point");
  if (type) *type = found->second;
  return found->first;
}
Type Cursor::type() {
  const Token& t = next();
  if (t.kind == Token::Kind::Angle && t.text.size() > 2) {  // `: <32x64xf32, ...>` (a memref-like form)
    error_at(t, "the bare '<...>' type form is not supported: write the !pto type");
  }
  return parse_type(t, c_.file);
}
std::vector<Type> Cursor::type_list() {
  std::vector<Type> out;
  if (!accept("(")) return {type()};
  if (accept(")")) return out;
  do out.push_back(type()); while (accept(","));
  expect(")");
  return out;
}
std::int64_t Cursor::integer() {
  const Token& t = next();
  if (t.kind != Token::Kind::Int) error_at(t, "expected an integer, found '" + t.text + "'");
  return int_of(t, c_.file);
}
double Cursor::number() {
  const Token& t = next();
  if (t.kind != Token::Kind::Int && t.kind != Token::Kind::Float) error_at(t, "expected a number, found '" + t.text + "'");
  return float_of(t, c_.file);
}
std::string Cursor::ident() {
  const Token& t = next();
  if (t.kind != Token::Kind::Ident) error_at(t, "expected a keyword, found '" + t.text + "'");
  return t.text;
}
const Region& Cursor::region() {
  const Token& t = next();
  if (t.kind != Token::Kind::Region) error_at(t, "expected a region '{ ... }', found '" + t.text + "'");
  return s_.regions[std::size_t(std::stoul(t.text))];  // written by the parser: a small index
}
void Cursor::ins_outs(std::vector<int>& ins, std::vector<Type>& in_types, std::vector<int>& outs, std::vector<Type>& out_types,
                      bool outs_optional) {
  auto list = [&](const char* kw, std::vector<int>& slots, std::vector<Type>& types) {
    if (!accept(kw)) error(std::string("expected '") + kw + "(...)', found '" + peek().text + "'");
    expect("(");
    if (accept(")")) return;
    do {
      if (peek().is("{")) {  // `ins(%src, {maskPattern = ...} : T)`: attributes as an item of their own
        operand_attrs_.push_back(attr_dict());
        if (peek().is(":")) break;
        continue;
      }
      slots.push_back(value());
      const auto attrs = attr_dict();  // an operand's attributes: `%x{rmode = #pto<round_mode ROUND>}`
      operand_attrs_.push_back(attrs);
    } while (accept(","));
    expect(":");
    do types.push_back(type()); while (accept(","));
    if (types.size() != slots.size())
      error(std::string(kw) + "(...) lists " + std::to_string(slots.size()) + " values but " + std::to_string(types.size()) + " types");
    expect(")");
  };
  list("ins", ins, in_types);
  if (!outs_optional || peek().is("outs")) list("outs", outs, out_types);
}
std::vector<std::int64_t> Cursor::index_list() {
  std::vector<std::int64_t> out;
  expect("[");
  if (accept("]")) return out;
  do {
    if (peek().kind == Token::Kind::Int) {
      const Token& t = peek();
      const std::int64_t n = integer();
      if (n < 0) error_at(t, "a size, offset or stride must not be negative (" + t.text + ")");
      out.push_back(-1 - n);
    } else {
      out.push_back(value());
    }
  } while (accept(","));
  expect("]");
  return out;
}
void Cursor::skip_attr_dict() { attr_dict(); }
std::map<std::string, std::string> Cursor::attr_dict() {
  std::map<std::string, std::string> out;
  if (!accept("{")) return out;
  while (!accept("}")) {
    if (done()) error("attribute dictionary '{' is never closed");
    std::string key = next().text;
    std::string val;
    if (accept("=")) {
      int depth = 0;
      while (!done() && !(depth == 0 && (peek().is(",") || peek().is("}")))) {
        if (peek().is("[") || peek().is("(") || peek().is("{")) ++depth;
        if (peek().is("]") || peek().is(")") || peek().is("}")) --depth;
        val += next().text;
      }
    }
    out[key] = val;
    accept(",");
  }
  return out;
}

namespace {
// The slots `op` reads, its nested regions' included.
void reads(const Op& op, std::vector<int>& out) {
  out.insert(out.end(), op.in.begin(), op.in.end());
  for (const Block& r : op.regions)
    for (const Op& inner : r.ops) reads(inner, out);
}
}  // namespace

void mark_last_uses(Block& b) {
  std::map<int, std::size_t> last;  // slot defined here -> the op of its last use
  std::vector<int> used;
  for (std::size_t i = 0; i < b.ops.size(); ++i) {
    used.clear();
    reads(b.ops[i], used);
    for (int s : used)
      if (auto it = last.find(s); it != last.end()) it->second = i;
    for (int s : b.ops[i].out) last[s] = i;
  }
  b.dead_after.assign(b.ops.size(), {});
  for (const auto& [slot, i] : last) b.dead_after[i].push_back(slot);
}

Block Compiler::compile_block(const Region& r, const std::vector<std::pair<std::string, Type>>& args) {
  Block b;
  scopes.emplace_back();
  if (r.labeled) {  // `^bb0(%x: T, ...):` names the block's arguments itself
    if (r.label_args.size() != args.size())
      error(r.label_line, r.label_col, "the region's block label has " + std::to_string(r.label_args.size()) + " argument(s); " +
                               std::to_string(args.size()) + " arrive");
    for (std::size_t k = 0; k < args.size(); ++k) {
      const Token& n = r.label_args[k].first;
      const Type t = parse_type(r.label_args[k].second, file);
      if (t.kind != args[k].second.kind || t.dtype != args[k].second.dtype || t.bits != args[k].second.bits)
        error(n.line, n.col, "block argument " + n.text + " is " + t.text + " but receives " + args[k].second.text);
      b.args.push_back(define(n.text, t, n.line, n.col));
    }
  } else {
    for (const auto& [name, t] : args) b.args.push_back(define(name, t, r.line, r.col));
  }
  const auto& table = op_table();
  for (const Stmt& s : r.stmts) {
    const auto it = table.find(s.op);
    if (it == table.end())
      error(s.line, s.col, "'" + s.op + "' is not an operation pto-run knows (docs/pto-run.md lists them)");
    const Stmt custom = s.generic ? generic_to_custom(s, file) : Stmt{};
    Op op;
    op.name = s.op;
    op.line = s.line;
    op.col = s.col;
    Cursor c(*this, s.generic ? custom : s);
    it->second(*this, c, op);
    if (!c.done()) c.error("unexpected '" + c.peek().text + "'");
    // Results: defined after the operands were read (an op cannot use its own results).
    if (op.out.size() != s.results.size() && !(op.exec == nullptr))
      error(s.line, s.col, s.op + ": defines " + std::to_string(op.out.size()) + " result(s), the statement names " +
                               std::to_string(s.results.size()));
    b.ops.push_back(std::move(op));
  }
  scopes.pop_back();
  return b;
}

namespace {

// Pass 1 (`body` false): the signature, so calls may come before their callee; pass 2: the body too.
void compile_function(Compiler& c, const Stmt& s, Function& fn, bool body_too) {
  fn = Function{};
  c.fn = &fn;
  fn.line = s.line;
  fn.col = s.col;
  Cursor cur(c, s);
  if (cur.accept("private")) fn.is_private = true;
  const Token& name = cur.next();
  if (name.kind != Token::Kind::Symbol) cur.error_at(name, "expected the function's name (@name)");
  fn.name = name.text.substr(1);
  std::vector<std::pair<std::string, Type>> params;
  cur.expect("(");
  if (!cur.accept(")")) {
    do {
      const Token& p = cur.next();
      if (p.kind == Token::Kind::Value) {
        cur.expect(":");
        params.emplace_back(p.text, cur.type());
      } else {  // a declaration lists types only
        params.emplace_back("", parse_type(p, c.file));
      }
      cur.attr_dict();
    } while (cur.accept(","));
    cur.expect(")");
  }
  if (cur.accept("->")) fn.results = cur.type_list();
  if (cur.accept("attributes")) {
    const auto attrs = cur.attr_dict();
    const auto k = attrs.find("pto.kernel_kind");
    if (k != attrs.end()) fn.kernel_kind = k->second.find("cube") != std::string::npos ? "cube" : "vector";
    if (attrs.count("pto.entry")) fn.kernel_kind += "";  // accepted: the entry is chosen by --entry or uniqueness
  }
  for (const auto& p : params) fn.params.push_back(p.second);
  if (cur.done()) {
    fn.declaration = true;
    return;
  }
  if (!body_too) {
    fn.declaration = false;
    return;
  }
  const Region& body = cur.region();
  if (!cur.done()) cur.error("unexpected '" + cur.peek().text + "' after the function's body");
  c.scopes.clear();
  for (const auto& p : params)
    if (p.first.empty()) c.error(s.line, s.col, "func.func @" + fn.name + ": a function with a body names its parameters");
  fn.body = c.compile_block(body, params);
  mark_last_uses(fn.body);
  fn.param_slots = fn.body.args;
  fn.body.args.clear();
}

// A function that calls itself, directly or through others, would run until the host's stack ends: as
// PTOAS does, recursion is an error (at the call that closes the cycle).
void calls_of(const Block& b, std::vector<const Op*>& out) {
  for (const Op& op : b.ops) {
    if (op.callee >= 0) out.push_back(&op);
    for (const Block& r : op.regions) calls_of(r, out);
  }
}
void reject_recursion(const Program& p) {
  std::vector<std::vector<const Op*>> calls(p.funcs.size());
  for (std::size_t i = 0; i < p.funcs.size(); ++i) calls_of(p.funcs[i].body, calls[i]);
  std::vector<int> state(p.funcs.size(), 0);  // 0 unseen, 1 on the path, 2 done
  std::vector<std::size_t> path;
  auto visit = [&](auto&& self, std::size_t f) -> void {
    state[f] = 1;
    path.push_back(f);
    for (const Op* call : calls[f]) {
      const auto g = std::size_t(call->callee);
      if (state[g] == 1) {
        std::string cycle;
        for (auto it = std::find(path.begin(), path.end(), g); it != path.end(); ++it) cycle += "@" + p.funcs[*it].name + " -> ";
        syntax_error(p.file, call->line, call->col, "func.call: recursion (" + cycle + "@" + p.funcs[g].name +
                                                         ") is not supported: a kernel's calls must form no cycle");
      }
      if (state[g] == 0) self(self, g);
    }
    path.pop_back();
    state[f] = 2;
  };
  for (std::size_t i = 0; i < p.funcs.size(); ++i)
    if (state[i] == 0) visit(visit, i);
}

}  // namespace

std::shared_ptr<const Program> compile(const std::vector<Stmt>& top, const std::string& file) {
  auto prog = std::make_shared<Program>();
  prog->file = file;
  Compiler c{file, *prog, nullptr, {}};
  std::vector<const Stmt*> funcs;
  for (const Stmt& s : top) {
    if (s.op == "module") {
      Cursor cur(c, s);
      if (cur.accept("attributes")) {
        const auto a = cur.attr_dict();
        const auto arch = a.find("pto.target_arch");
        if (arch != a.end()) prog->target_arch = arch->second;
      }
      const Region& r = cur.region();
      for (const Stmt& f : r.stmts) {
        if (f.op != "func.func") c.error(f.line, f.col, "a module holds func.func operations; found '" + f.op + "'");
        funcs.push_back(&f);
      }
    } else if (s.op == "func.func") {
      funcs.push_back(&s);
    } else {
      c.error(s.line, s.col, "expected 'module' or 'func.func' at the top level, found '" + s.op + "'");
    }
  }
  // Names first, so a call may come before its callee.
  for (const Stmt* f : funcs) {
    const Token* name = nullptr;
    for (const Token& t : f->toks)
      if (t.kind == Token::Kind::Symbol) {
        name = &t;
        break;
      }
    if (!name) c.error(f->line, f->col, "func.func without a name");
    for (const Stmt* g : funcs) {
      if (g == f) break;
      for (const Token& t : g->toks)
        if (t.kind == Token::Kind::Symbol) {
          if (t.text == name->text) c.error(name->line, name->col, "function " + name->text + " is defined twice");
          break;
        }
    }
  }
  prog->funcs.resize(funcs.size());
  for (std::size_t i = 0; i < funcs.size(); ++i) compile_function(c, *funcs[i], prog->funcs[i], false);
  for (std::size_t i = 0; i < funcs.size(); ++i) compile_function(c, *funcs[i], prog->funcs[i], true);
  reject_recursion(*prog);
  return prog;
}

const std::map<std::string, CompileFn>& op_table() {
  static const std::map<std::string, CompileFn> table = [] {
    std::map<std::string, CompileFn> t;
    register_core_ops(t);
    register_pto_ops(t);
    register_cube_ops(t);
    register_cluster_ops(t);
    register_select_ops(t);
    register_compound_ops(t);
    register_data_ops(t);
    return t;
  }();
  return table;
}

// ---- running -------------------------------------------------------------------------------------

void run_block(Frame& f, const Block& b) {
  for (const Op& op : b.ops) {
    if (f.returned) return;
    try {
      op.exec(f, op);
    } catch (const SyntaxLocated&) {
      throw;
    } catch (const SyncError&) {  // the checker's verdict (SyncCheck::Throw) names its instructions
      throw;
    } catch (const Error& e) {
      // A rule of the instruction (the same checks the C++ API runs): at the op's line.
      op_error(f, op, e.what());
    }
    if (!b.dead_after.empty())
      for (int s : b.dead_after[std::size_t(&op - b.ops.data())])
        if (auto* t = std::get_if<std::shared_ptr<TileVal>>(&f.v[std::size_t(s)])) {
          (*t)->retire = true;
          f.v[std::size_t(s)] = std::monostate{};
        }
  }
}

std::vector<Value> run_function(const Program& prog, int fn, std::vector<Value> args, CoreCtx* ctx) {
  const Function& F = prog.funcs[std::size_t(fn)];
  Frame f{prog, std::vector<Value>(std::size_t(F.slots)), {}, false, ctx};
  for (std::size_t i = 0; i < args.size() && i < F.param_slots.size(); ++i) f.v[std::size_t(F.param_slots[i])] = std::move(args[i]);
  run_block(f, F.body);
  return std::move(f.yielded);
}

}  // namespace pto::ir::detail

namespace pto::ir::detail {

bool needs_clusters(const Program& prog, int fn) {
  std::vector<char> seen(prog.funcs.size(), 0);
  std::vector<int> pending{fn};  // functions reached, not yet looked at
  bool cube = false, vector = false, ops = false;
  while (!pending.empty()) {
    const int i = pending.back();
    pending.pop_back();
    if (seen[std::size_t(i)]) continue;
    seen[std::size_t(i)] = 1;
    const Function& F = prog.funcs[std::size_t(i)];
    ops |= F.cluster_ops;
    cube |= F.kernel_kind == "cube";
    vector |= F.kernel_kind == "vector";
    for (int c : F.callees) pending.push_back(c);
  }
  return ops || (cube && vector);
}

}  // namespace pto::ir::detail
