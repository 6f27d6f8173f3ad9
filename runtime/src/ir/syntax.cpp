#include "syntax.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdlib>

#include <pto/isa/error.hpp>

namespace pto::ir::detail {

void syntax_error(const std::string& file, int line, int col, const std::string& what) {
  throw SyntaxLocated(file + ":" + std::to_string(line) + ":" + std::to_string(col) + ": error: " + what);
}

bool parse_int(const std::string& text, std::int64_t& out) {
  std::string_view s(text);
  const bool neg = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, s.remove_prefix(2);
  std::uint64_t u = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), u, base);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return false;
  if (neg) {
    if (u > std::uint64_t(1) << 63) return false;
    out = std::int64_t(0 - u);
  } else {
    if (base == 10 && u > std::uint64_t(INT64_MAX)) return false;
    out = std::int64_t(u);  // hex: the bits
  }
  return true;
}
bool parse_float(const std::string& text, double& out) {
  char* end = nullptr;
  errno = 0;
  out = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size() && errno != ERANGE;
}
std::int64_t int_of(const Token& t, const std::string& file) {
  std::int64_t v = 0;
  if (!parse_int(t.text, v)) syntax_error(file, t.line, t.col, "'" + t.text + "' is not an integer in range");
  return v;
}
double float_of(const Token& t, const std::string& file) {
  double v = 0;
  if (!parse_float(t.text, v)) syntax_error(file, t.line, t.col, "'" + t.text + "' is not a number in range");
  return v;
}

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$'; }

class Lexer {
public:
  Lexer(std::string_view s, const std::string& file) : s_(s), file_(file) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    for (;;) {
      skip_space_and_comments(out);
      if (i_ >= s_.size()) break;
      out.push_back(next());
    }
    if (!out.empty()) out.back().line_end = true;
    return out;
  }

private:
  char peek(std::size_t k = 0) const { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; }
  void advance() {
    if (s_[i_] == '\n') ++line_, col_ = 1;
    else ++col_;
    ++i_;
  }
  void skip_space_and_comments(std::vector<Token>& out) {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '\n' && !out.empty()) out.back().line_end = true;
      if (std::isspace(static_cast<unsigned char>(c))) {
        advance();
      } else if (c == '/' && peek(1) == '/') {
        while (i_ < s_.size() && s_[i_] != '\n') advance();
      } else {
        break;
      }
    }
  }
  [[noreturn]] void error(const std::string& what) const { syntax_error(file_, line_, col_, what); }

  // From an opening '<' to its matching '>' ("->" inside does not close), newlines included.
  void angle_group(std::string& text) {
    int depth = 0;
    const int line = line_, col = col_;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '-' && peek(1) == '>') {
        text += "->";
        advance();
        advance();
        continue;
      }
      if (c == '"') {
        string_body(text);
        continue;
      }
      if (c == '<') ++depth;
      if (c == '>') --depth;
      text += c == '\n' ? ' ' : c;
      advance();
      if (depth == 0) return;
    }
    syntax_error(file_, line, col, "unterminated '<': no matching '>' before the end of the file");
  }
  void string_body(std::string& text) {  // appends "..." with its quotes
    const int line = line_, col = col_;
    text += '"';
    advance();
    while (i_ < s_.size() && s_[i_] != '"') {
      if (s_[i_] == '\n') syntax_error(file_, line, col, "unterminated string literal");
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) {
        text += s_[i_];
        advance();
      }
      text += s_[i_];
      advance();
    }
    if (i_ >= s_.size()) syntax_error(file_, line, col, "unterminated string literal");
    text += '"';
    advance();
  }
  std::string word() {
    std::string w;
    while (i_ < s_.size() && (ident_char(s_[i_]) || s_[i_] == '-')) {
      if (s_[i_] == '-' && !(std::isalnum(static_cast<unsigned char>(peek(1))) || peek(1) == '_')) break;
      w += s_[i_];
      advance();
    }
    return w;
  }

  Token next() {
    Token t;
    t.line = line_;
    t.col = col_;
    const char c = s_[i_];
    using K = Token::Kind;
    if (c == '%' || c == '@' || c == '^') {
      t.kind = c == '%' ? K::Value : c == '@' ? K::Symbol : K::Label;
      t.text += c;
      advance();
      if (c == '@' && peek() == '"') {
        std::string q;
        string_body(q);
        t.text += q.substr(1, q.size() - 2);
        return t;
      }
      const std::string w = word();
      if (w.empty()) error(std::string("expected a name after '") + c + "'");
      t.text += w;
      if (c == '%' && peek() == '#' && std::isdigit(static_cast<unsigned char>(peek(1)))) {
        t.text += '#';
        advance();
        while (std::isdigit(static_cast<unsigned char>(peek()))) t.text += peek(), advance();
      }
      return t;
    }
    if (c == '!' || c == '#') {
      t.kind = c == '!' ? K::Type : K::Attr;
      t.text += c;
      advance();
      const std::string w = word();
      if (w.empty()) error(std::string("expected a dialect name after '") + c + "'");
      t.text += w;
      if (peek() == '<') angle_group(t.text);
      return t;
    }
    if (c == '<') {
      t.kind = K::Angle;
      angle_group(t.text);
      return t;
    }
    if (c == '"') {
      t.kind = K::String;
      std::string q;
      string_body(q);
      t.text = q.substr(1, q.size() - 2);
      return t;
    }
    if (c == '-' && peek(1) == '>') {
      t.text = "->";
      advance();
      advance();
      return t;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || ((c == '-' || c == '+') && std::isdigit(static_cast<unsigned char>(peek(1))))) {
      t.kind = K::Int;
      t.text += c;
      advance();
      if (c == '0' && (peek() == 'x' || peek() == 'X')) {
        t.text += peek();
        advance();
        while (std::isxdigit(static_cast<unsigned char>(peek()))) t.text += peek(), advance();
        return t;
      }
      while (std::isdigit(static_cast<unsigned char>(peek())) || peek() == '.' ||
             ((peek() == 'e' || peek() == 'E') && (std::isdigit(static_cast<unsigned char>(peek(1))) || peek(1) == '-' || peek(1) == '+')) ||
             ((peek() == '-' || peek() == '+') && (t.text.back() == 'e' || t.text.back() == 'E'))) {
        if (peek() == '.' || peek() == 'e' || peek() == 'E') t.kind = K::Float;
        t.text += peek();
        advance();
      }
      return t;
    }
    if (ident_start(c)) {
      t.kind = K::Ident;
      t.text = word();
      if ((t.text == "memref" || t.text == "vector") && peek() == '<') {  // builtin types: one token, as !pto.* types
        t.kind = K::Type;
        angle_group(t.text);
      }
      return t;
    }
    static const std::string punct = "()[]{},:=?*+";
    if (punct.find(c) != std::string::npos) {
      t.text = std::string(1, c);
      advance();
      return t;
    }
    if (c == '$' && peek(1) == '{') {
      const std::size_t close = s_.find('}', i_);
      const std::string name(close == std::string_view::npos || close - i_ > 66 ? "NAME" : s_.substr(i_ + 2, close - i_ - 2));
      error("${" + name + "} is a template parameter: give it values with pto-run --param " + name +
            "=V1,V2,... or pto::ir::Module::instantiate");
    }
    error(std::string("unexpected character '") + c + "'");
  }

  std::string_view s_;
  const std::string& file_;
  std::size_t i_ = 0;
  int line_ = 1, col_ = 1;
};

bool is_op_name(const Token& t) {
  if (t.kind == Token::Kind::String) return t.text.find('.') != std::string::npos;
  if (t.kind != Token::Kind::Ident) return false;
  if (t.text == "return" || t.text == "module") return true;
  const auto dot = t.text.find('.');
  if (dot == std::string::npos || dot == 0) return false;
  const std::string_view dialect(t.text.data(), dot);
  return dialect == "pto" || dialect == "arith" || dialect == "scf" || dialect == "func" || dialect == "memref" ||
         dialect == "math" || dialect == "builtin" || dialect == "cf" || dialect == "llvm" || dialect == "emitc";
}

class Parser {
public:
  Parser(std::vector<Token> toks, const std::string& file) : t_(std::move(toks)), file_(file) {}

  std::vector<Stmt> top() {
    std::vector<Stmt> out;
    while (i_ < t_.size()) {
      if (t_[i_].is("}")) err(t_[i_], "'}' without a matching region '{'");
      out.push_back(statement());
    }
    return out;
  }

private:
  [[noreturn]] void err(const Token& t, const std::string& what) const { syntax_error(file_, t.line, t.col, what); }

  // A statement starts at i: results then '=' then an op name, or an op name.
  bool starts_statement(std::size_t i) const {
    if (i >= t_.size()) return false;
    if (is_op_name(t_[i])) return true;
    if (t_[i].kind != Token::Kind::Value) return false;
    std::size_t k = i + 1;
    while (k + 1 < t_.size() && t_[k].is(",") && t_[k + 1].kind == Token::Kind::Value) k += 2;
    if (k < t_.size() && t_[k].is(":") && k + 1 < t_.size() && t_[k + 1].kind == Token::Kind::Int) k += 2;  // %r:2 = ...
    return k + 1 < t_.size() && t_[k].is("=") && is_op_name(t_[k + 1]);
  }

  Stmt statement() {
    Stmt s;
    const Token& first = t_[i_];
    if (!starts_statement(i_)) err(first, "expected an operation (results '=' then an op name such as pto.tadd), found '" + first.text + "'");
    while (t_[i_].kind == Token::Kind::Value) {
      s.results.push_back(t_[i_].text);
      ++i_;
      if (t_[i_].is(",")) ++i_;
      if (t_[i_].is(":") && t_[i_ + 1].kind == Token::Kind::Int) {  // %r:2: two results named %r#0, %r#1
        const std::int64_t n = int_of(t_[i_ + 1], file_);
        if (n < 1 || n > 64) err(t_[i_ + 1], "a result group %r:N needs N from 1 to 64");
        const std::string base = s.results.back();
        s.results.pop_back();
        for (std::int64_t k = 0; k < n; ++k) s.results.push_back(base + "#" + std::to_string(k));
        i_ += 2;
      }
    }
    if (!s.results.empty()) ++i_;  // '='
    const Token& name = t_[i_++];
    s.op = name.text;
    s.generic = name.kind == Token::Kind::String;
    s.line = name.line;
    s.col = name.col;
    int depth = 0;  // ( [ and attribute-dictionary { not closed yet
    std::vector<const Token*> open;
    while (i_ < t_.size()) {
      const Token& t = t_[i_];
      if (depth == 0 && (t.is("}") || (starts_statement(i_) && !(i_ > 0 && t_[i_ - 1].is("="))))) break;
      const bool dict_head = i_ + 2 < t_.size() && (t_[i_ + 1].kind == Token::Kind::Ident || t_[i_ + 1].kind == Token::Kind::String) &&
                             t_[i_ + 2].is("=");
      if (t.is("{") && t.line_end && !dict_head) {  // a region (an attribute dictionary starts `{key =`)
        ++i_;
        Region r = region(t);
        Token ref;
        ref.kind = Token::Kind::Region;
        ref.text = std::to_string(s.regions.size());
        ref.line = t.line;
        ref.col = t.col;
        s.toks.push_back(ref);
        s.regions.push_back(std::move(r));
        continue;
      }
      if (t.is("(") || t.is("[") || t.is("{")) ++depth, open.push_back(&t);
      if (t.is(")") || t.is("]") || t.is("}")) {
        if (depth == 0) err(t, "'" + t.text + "' without a matching opening bracket");
        --depth;
        open.pop_back();
      }
      s.toks.push_back(t);
      ++i_;
    }
    if (depth != 0) err(*open.back(), "'" + open.back()->text + "' is never closed (statement '" + s.op + "')");
    return s;
  }

  // `^bb0(%a: T, %b: U):` at a region's start.
  void label(Region& r) {
    const Token& l = t_[i_++];
    r.labeled = true;
    r.label_line = l.line;
    r.label_col = l.col;
    auto need = [&](const char* p) {
      if (i_ >= t_.size() || !t_[i_].is(p)) err(i_ < t_.size() ? t_[i_] : l, std::string("block label ") + l.text + ": expected '" + p + "'");
      ++i_;
    };
    if (i_ < t_.size() && t_[i_].is("(")) {
      ++i_;
      if (i_ < t_.size() && t_[i_].is(")")) {
        ++i_;
      } else {
        for (;;) {
          if (i_ + 2 >= t_.size() || t_[i_].kind != Token::Kind::Value || !t_[i_ + 1].is(":"))
            err(i_ < t_.size() ? t_[i_] : l, "block label " + l.text + ": expected an argument (%name: type)");
          r.label_args.emplace_back(t_[i_], t_[i_ + 2]);
          i_ += 3;
          if (i_ < t_.size() && t_[i_].is(",")) {
            ++i_;
            continue;
          }
          need(")");
          break;
        }
      }
    }
    need(":");
  }

  Region region(const Token& brace) {
    Region r;
    r.line = brace.line;
    r.col = brace.col;
    if (i_ < t_.size() && t_[i_].kind == Token::Kind::Label) label(r);  // the region's one block, named
    while (i_ < t_.size() && !t_[i_].is("}")) {
      if (t_[i_].kind == Token::Kind::Label)
        err(t_[i_], "a second block (" + t_[i_].text + "): pto-run reads one block per region");
      r.stmts.push_back(statement());
    }
    if (i_ >= t_.size()) err(brace, "region '{' is never closed");
    ++i_;  // '}'
    return r;
  }

  std::vector<Token> t_;
  const std::string& file_;
  std::size_t i_ = 0;
};

}  // namespace

std::vector<Token> tokenize(std::string_view text, const std::string& file) { return Lexer(text, file).run(); }

std::vector<Stmt> parse_statements(std::string_view text, const std::string& file) {
  return Parser(tokenize(text, file), file).top();
}

}  // namespace pto::ir::detail
