// MLIR's generic op form for pto.t* instructions (docs/pto-run.md, "The generic form"):
//   "pto.tadd"(%a, %b, %c) <{props}> {attrs} : (Ta, Tb, Tc) -> ()
//   %d = "pto.tadd"(%a, %b) : (Ta, Tb) -> Td
// becomes the op's own form before it compiles, so every op reads one syntax:
//   pto.tadd ins(%a, %b : Ta, Tb) outs(%c : Tc) {props, attrs}
//   %d = pto.tadd %a, %b : Ta, Tb -> Td
// Operands come in the op's declaration order (PTOAS's ODS): inputs, then the destination, then the
// optional operands. The destination is therefore the last tile operand, except for the ops that declare
// optional tile operands after it (kDstSecond). operandSegmentSizes only says which optionals are present,
// so it is dropped; the other properties join the attributes.
#include <string>
#include <vector>

#include "program.hpp"

namespace pto::ir::detail {

namespace {

// The instructions whose declaration is (src, dst, optional...): the destination is operand 1.
constexpr const char* kDstSecond[] = {"pto.tmov", "pto.tcvt", "pto.tgather", "pto.trsqrt"};

Token punct(const char* text, const Token& at) {
  Token t;
  t.kind = Token::Kind::Punct;
  t.text = text;
  t.line = at.line;
  t.col = at.col;
  return t;
}
Token ident(const char* text, const Token& at) {
  Token t = punct(text, at);
  t.kind = Token::Kind::Ident;
  return t;
}
bool is_tile(const Token& t) {
  if (t.kind != Token::Kind::Type) return false;
  return t.text.rfind("!pto.tile_buf", 0) == 0 ||
         (t.text.rfind("memref<", 0) == 0 && t.text.find("address_space<gm>") == std::string::npos &&
          t.text.find("address_space") != std::string::npos);
}

struct Reader {
  const Stmt& s;
  const std::string& file;
  std::size_t i = 0;
  [[noreturn]] void error(const std::string& what) const {
    const Token& t = i < s.toks.size() ? s.toks[i] : s.toks.empty() ? Token{Token::Kind::Punct, "", s.line, s.col} : s.toks.back();
    syntax_error(file, t.line, t.col, "\"" + s.op + "\" (generic form): " + what);
  }
  bool at(const char* p) const { return i < s.toks.size() && s.toks[i].is(p); }
  const Token& next() {
    if (i >= s.toks.size()) error("the statement ends early");
    return s.toks[i++];
  }
  void expect(const char* p) {
    if (!at(p)) error(std::string("expected '") + p + "'");
    ++i;
  }
  // `( a, b, ... )` of single tokens (values or types); `one` also takes a bare token.
  std::vector<Token> list(bool one) {
    std::vector<Token> out;
    if (one && !at("(")) return {next()};
    expect("(");
    if (at(")")) return ++i, out;
    do out.push_back(next());
    while (at(",") && ++i);
    expect(")");
    return out;
  }
};

// The `key = value` entries of `{...}` tokens (without the braces), less operandSegmentSizes.
void add_entries(const std::vector<Token>& toks, std::size_t from, std::size_t to, std::vector<Token>& out) {
  std::size_t k = from;
  while (k < to) {
    std::size_t end = k;
    for (int depth = 0; end < to && !(depth == 0 && toks[end].is(",")); ++end) {
      if (toks[end].is("(") || toks[end].is("[") || toks[end].is("{")) ++depth;
      if (toks[end].is(")") || toks[end].is("]") || toks[end].is("}")) --depth;
    }
    if (!toks[k].is("operandSegmentSizes")) {
      if (!out.empty()) out.push_back(punct(",", toks[k]));
      out.insert(out.end(), toks.begin() + std::ptrdiff_t(k), toks.begin() + std::ptrdiff_t(end));
    }
    k = end + 1;
  }
}

}  // namespace

Stmt generic_to_custom(const Stmt& s, const std::string& file) {
  Reader r{s, file};
  if (s.op.rfind("pto.t", 0) != 0)
    r.error("the generic form is read for pto.t* instructions; write other ops in their own form");
  if (!s.regions.empty()) r.error("an instruction has no regions");
  const std::vector<Token> operands = r.list(false);
  std::vector<Token> attrs;  // `key = value` entries, comma-separated
  if (r.i < s.toks.size() && s.toks[r.i].kind == Token::Kind::Angle) {  // <{props}>
    const Token& a = s.toks[r.i++];
    if (a.text.size() < 4 || a.text.compare(0, 2, "<{") != 0) r.error("expected properties as <{...}>");
    const std::vector<Token> inner = tokenize(std::string_view(a.text).substr(2, a.text.size() - 4), file);
    add_entries(inner, 0, inner.size(), attrs);
  }
  if (r.at("{")) {
    const std::size_t open = r.i;
    for (int depth = 0; r.i < s.toks.size(); ++r.i) {
      if (s.toks[r.i].is("{")) ++depth;
      if (s.toks[r.i].is("}") && --depth == 0) break;
    }
    r.expect("}");
    add_entries(s.toks, open + 1, r.i - 1, attrs);
  }
  r.expect(":");
  const std::vector<Token> types = r.list(false);
  r.expect("->");
  const std::vector<Token> results = r.list(true);
  if (r.i != s.toks.size()) r.error("unexpected '" + s.toks[r.i].text + "' after the result types");
  if (types.size() != operands.size())
    r.error(std::to_string(operands.size()) + " operand(s) but " + std::to_string(types.size()) + " operand type(s)");
  if (results.size() != s.results.size())
    r.error(std::to_string(s.results.size()) + " result name(s) but " + std::to_string(results.size()) + " result type(s)");
  for (const Token& v : operands)
    if (v.kind != Token::Kind::Value) r.error("operands are SSA values (%name), not '" + v.text + "'");

  Stmt out;
  out.results = s.results;
  out.op = s.op;
  out.line = s.line;
  out.col = s.col;
  std::vector<Token>& t = out.toks;
  const Token& here = operands.empty() ? types.empty() ? Token{} : types[0] : operands[0];
  auto comma_list = [&](std::size_t from, std::size_t to, const std::vector<Token>& v, std::size_t skip) {
    bool first = true;
    for (std::size_t k = from; k < to; ++k) {
      if (k == skip) continue;
      if (!first) t.push_back(punct(",", v[k]));
      t.push_back(v[k]);
      first = false;
    }
  };
  if (!s.results.empty()) {  // the SSA form
    comma_list(0, operands.size(), operands, SIZE_MAX);
    if (!attrs.empty()) t.push_back(punct("{", here)), t.insert(t.end(), attrs.begin(), attrs.end()), t.push_back(punct("}", here));
    t.push_back(punct(":", here));
    comma_list(0, types.size(), types, SIZE_MAX);
    t.push_back(punct("->", here));
    t.push_back(results[0]);
    return out;
  }
  std::size_t dst = SIZE_MAX;
  for (const char* n : kDstSecond)
    if (s.op == n && operands.size() > 1) dst = 1;
  if (s.op == "pto.tstore" && !operands.empty()) dst = operands.size() - 1;  // (src, dst view)
  for (std::size_t k = types.size(); dst == SIZE_MAX && k-- > 0;)
    if (is_tile(types[k])) dst = k;
  if (dst == SIZE_MAX || (!is_tile(types[dst]) && s.op != "pto.tstore")) r.error("no tile operand to be the destination (outs)");
  t.push_back(ident("ins", here));
  t.push_back(punct("(", here));
  if (operands.size() > 1) {
    comma_list(0, operands.size(), operands, dst);
    t.push_back(punct(":", here));
    comma_list(0, types.size(), types, dst);
  }
  t.push_back(punct(")", here));
  t.push_back(ident("outs", here));
  t.push_back(punct("(", here));
  t.push_back(operands[dst]);
  t.push_back(punct(":", here));
  t.push_back(types[dst]);
  t.push_back(punct(")", here));
  if (!attrs.empty()) t.push_back(punct("{", here)), t.insert(t.end(), attrs.begin(), attrs.end()), t.push_back(punct("}", here));
  return out;
}

}  // namespace pto::ir::detail
