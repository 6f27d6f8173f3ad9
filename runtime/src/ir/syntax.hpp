// The PTO IR text (PTOAS's textual MLIR: docs/pto-run.md) as tokens and statements, before any op is
// understood. MLIR has no statement terminator: a statement runs until the next one starts (results
// and `=` then an op name, a bare dialect op name, a quoted generic op, `return`) or a `}` closes its
// region. A `{` that ends its line opens a region; any other `{` is an attribute dictionary. Types
// (`!pto.tile_buf<...>`), attributes (`#pto.layout<nd>`) and bare angle groups (`<PIPE_ALL>`) are one
// token each. Every token keeps its line and column for `file:line:col: error:` messages.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <pto/isa/error.hpp>

namespace pto::ir::detail {

struct Token {
  enum class Kind : std::uint8_t {
    Ident,   // arith.addi, index, f32, to, step, ins, ...
    Value,   // %name, %0, %r#1
    Symbol,  // @name
    Label,   // ^bb0
    Type,    // !pto.tile_buf<...>
    Attr,    // #pto.layout<nd>
    Angle,   // <PIPE_ALL>, <{...}>
    Int,
    Float,
    String,  // "..." (text without the quotes)
    Punct,   // ( ) [ ] { } , : = -> ? *
    Region   // a region of the statement (text: its index in Stmt::regions)
  };
  Kind kind = Kind::Punct;
  std::string text;
  int line = 0, col = 0;
  bool line_end = false;  // the last token of its line
  bool is(std::string_view p) const { return (kind == Kind::Punct || kind == Kind::Ident) && text == p; }
};

struct Stmt;
struct Region {
  std::vector<Stmt> stmts;
  int line = 0, col = 0;  // its `{`
  // A leading block label `^bb0(%a: T, ...):` (scf.while's after-region): its arguments' names and types.
  bool labeled = false;
  int label_line = 0, label_col = 0;
  std::vector<std::pair<Token, Token>> label_args;
};

struct Stmt {
  std::vector<std::string> results;  // "%r", "%r#1" names it defines, in order
  std::string op;                    // "arith.addi", "pto.tadd", "return"
  bool generic = false;              // "pto.tadd"(...) {attrs} : (...) -> (...)
  int line = 0, col = 0;             // of the op name
  std::vector<Token> toks;           // what follows the op name (regions as Region tokens)
  std::vector<Region> regions;
};

// A number as written (decimal, or 0x hex for integers), or false when it is not one or out of range.
bool parse_int(const std::string& text, std::int64_t& out);
bool parse_float(const std::string& text, double& out);
// The same, or a `file:line:col: error:` naming what was expected.
std::int64_t int_of(const Token& t, const std::string& file);
double float_of(const Token& t, const std::string& file);

// Splits `text` into tokens; throws pto::Error "file:line:col: error: ..." on a malformed token.
std::vector<Token> tokenize(std::string_view text, const std::string& file);
// The top-level statements of `text` (usually one `module { ... }`).
std::vector<Stmt> parse_statements(std::string_view text, const std::string& file);

// A `file:line:col: error: what` pto::Error (already located: an enclosing op does not locate it again).
class SyntaxLocated : public Error {
public:
  using Error::Error;
};
[[noreturn]] void syntax_error(const std::string& file, int line, int col, const std::string& what);

}  // namespace pto::ir::detail
