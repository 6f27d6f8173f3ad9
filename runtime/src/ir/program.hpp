// A PTO IR module compiled for the interpreter: each function's statements become Ops that read and
// write numbered value slots of a frame; a pto.t* op builds the same InstrRecord the C++ instruction
// function builds and issues it to the core it runs on (one instruction registry, one set of kernels,
// one cost model). Compiling checks names, types and operand counts; what depends on runtime values
// (dynamic shapes, placements) is checked when the op runs, by the same checks the C++ API runs.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include <pto/isa/instr_desc.hpp>
#include <pto/isa/views.hpp>

#include "syntax.hpp"
#include "types.hpp"

namespace pto::detail {
class Core;
}

namespace pto::ir::detail {

struct TensorVal {  // a GM pointer (rank 0) or a tensor view
  std::byte* base = nullptr;
  DType dtype = DType::F32;
  int rank = 0;
  std::int64_t shape[5] = {1, 1, 1, 1, 1};
  std::int64_t stride[5] = {1, 1, 1, 1, 1};  // elements
  Layout layout = Layout::ND;
};

struct TileVal {
  TileType_ type;
  TileView view;             // base null until placed
  bool placed = false;
  std::uint64_t owner = 0;   // the core run that placed it
  std::uint32_t fixed = ~0u; // `addr = ...`: its byte offset in its buffer
  bool retire = false;       // dead after its last use (Block::dead_after): its bytes stay until needed
};

using Value = std::variant<std::monostate, std::int64_t, double, TensorVal, std::shared_ptr<TileVal>>;

struct Frame;
struct Op;
using Exec = void (*)(Frame&, const Op&);

struct Block {
  std::vector<Op> ops;
  std::vector<int> args;  // slots bound when the block is entered (scf.for: the induction value, iter_args)
  // A function body's: after ops[i], the slots defined in it whose last use that is (a use inside a
  // nested region counts at the op that holds the region). A tile there is dead: its bytes are taken
  // back when a new tile finds no room (PTOAS's PlanMemory reuses dead tiles). Nested blocks have none:
  // a loop body's tile dies when the next iteration redefines it, as a C++ Tile at the end of its scope.
  std::vector<std::vector<int>> dead_after;
};

struct Op {
  Exec exec = nullptr;
  std::string name;
  int line = 0, col = 0;
  std::vector<int> in, out;        // value slots read / written
  std::vector<Type> types;         // the types the op needs at run time (its operands', as written)
  std::vector<std::int64_t> ints;  // static integers (sizes, predicates, pipes, ...)
  std::vector<double> floats;
  std::vector<Block> regions;
  const InstrDesc* desc = nullptr;
  bool ssa = false;                // `%d = pto.tadd %a, %b : ...`: dst is a fresh tile (pto_ops.hpp ssa_dst)
  int callee = -1;                 // func.call: the function's index
};

struct Function {
  std::string name;
  bool is_private = false, declaration = false;
  std::string kernel_kind;  // "cube", "vector" or "" (pto.kernel_kind)
  std::vector<Type> params, results;
  std::vector<int> param_slots;
  Block body;
  int slots = 0;
  int line = 0, col = 0;
  // What its body uses (not its callees'): cluster ops (pipes, sections) and the functions it calls.
  bool cluster_ops = false;
  std::vector<int> callees;
};

struct Program {
  std::string file;
  std::vector<Function> funcs;
  std::string target_arch;  // the module's pto.target_arch ("a2a3", "a5") or ""
  int find(const std::string& name) const {
    for (std::size_t i = 0; i < funcs.size(); ++i)
      if (funcs[i].name == name) return int(i);
    return -1;
  }
};

// What one core's run keeps across the functions it calls: the pipes pto.aic_initialize_pipe /
// aiv_initialize_pipe set up (ir_cluster_ops.cpp; a both-ways pipe is both).
struct PipeRing;
struct CoreCtx {
  std::shared_ptr<PipeRing> c2v, v2c;
};

// The values of one function's run on one core.
struct Frame {
  const Program& prog;
  std::vector<Value> v;
  std::vector<Value> yielded;  // scf.yield / func.return
  bool returned = false;
  CoreCtx* ctx = nullptr;
};

// A pto.t* instruction in MLIR's generic form ("pto.tadd"(...) : (...) -> ...) as the op's own form
// (generic.cpp).
Stmt generic_to_custom(const Stmt& s, const std::string& file);
// Fills b.dead_after from its ops' reads.
void mark_last_uses(Block& b);
// Compiles the statements of a file (one `module`, or functions at the top level).
std::shared_ptr<const Program> compile(const std::vector<Stmt>& top, const std::string& file);
// Runs `fn` of `prog` with `args` (one per parameter) on the calling thread's current core.
std::vector<Value> run_function(const Program& prog, int fn, std::vector<Value> args, CoreCtx* ctx);
// Whether running `fn` needs a cluster launch (one cube and two vector cores): it, or a function it calls,
// initialises a pipe, has a pto.section.cube / section.vector, or calls functions of both kernel kinds.
bool needs_clusters(const Program& prog, int fn);

// ---- what the per-dialect files register -----------------------------------------------------------

class Cursor;
struct Compiler;
using CompileFn = void (*)(Compiler&, Cursor&, Op&);
// The compile function of every op pto-run knows, by name (arith.*, scf.*, func.*, pto.*).
const std::map<std::string, CompileFn>& op_table();
void register_core_ops(std::map<std::string, CompileFn>& table);  // ir_core_ops.cpp
void register_pto_ops(std::map<std::string, CompileFn>& table);   // ir_pto_ops.cpp
void register_cube_ops(std::map<std::string, CompileFn>& table);  // ir_cube_ops.cpp
void register_cluster_ops(std::map<std::string, CompileFn>& table);  // ir_cluster_ops.cpp
void register_select_ops(std::map<std::string, CompileFn>& table);   // ir_select_ops.cpp
void register_compound_ops(std::map<std::string, CompileFn>& table);  // ir_compound_ops.cpp
void register_data_ops(std::map<std::string, CompileFn>& table);      // ir_data_ops.cpp

// The names in scope while a function compiles: SSA name -> slot and its type.
struct Compiler {
  const std::string& file;
  Program& prog;
  Function* fn = nullptr;
  std::vector<std::map<std::string, std::pair<int, Type>>> scopes;
  int define(const std::string& name, const Type& t, int line, int col);
  const std::pair<int, Type>* find(const std::string& name) const;  // null: not in scope
  Block compile_block(const Region& r, const std::vector<std::pair<std::string, Type>>& args);
  [[noreturn]] void error(int line, int col, const std::string& what) const;
};

// Reads a statement's tokens in order.
class Cursor {
public:
  Cursor(Compiler& c, const Stmt& s) : c_(c), s_(s), end_{Token::Kind::Punct, "<end of statement>", s.line, s.col, true} {}
  const Stmt& stmt() const { return s_; }
  bool done() const { return i_ >= s_.toks.size(); }
  const Token& peek(std::size_t k = 0) const;
  const Token& next();
  bool accept(const char* p);            // punctuation or keyword
  void expect(const char* p);
  int value(Type* type = nullptr);       // %name -> slot (and its type)
  Type type();
  // Result types: `(T, ...)`, `()` or one T.
  std::vector<Type> type_list();
  std::int64_t integer();
  double number();                       // an Int or Float token
  std::string ident();
  const Region& region();
  // `ins(%a, %b : T0, T1) outs(%c : T2)`: slots and types of each list (`outs(...)` may be absent where
  // outs_optional: pto.tprint).
  void ins_outs(std::vector<int>& ins, std::vector<Type>& in_types, std::vector<int>& outs, std::vector<Type>& out_types,
                bool outs_optional = false);
  // The attribute dictionaries ins_outs found after its operands, in order (ins then outs).
  const std::vector<std::map<std::string, std::string>>& operand_attrs() const { return operand_attrs_; }
  // `[%a, %b, 16]` of index values or constants: slots, or -1 - constant for a constant.
  std::vector<std::int64_t> index_list();
  void skip_attr_dict();                 // an optional `{...}`
  void keep_attr_dict() { operand_attrs_.push_back(attr_dict()); }  // an operand's optional `{...}`, kept
  std::map<std::string, std::string> attr_dict();  // an optional `{key = value, ...}`: raw texts
  [[noreturn]] void error(const std::string& what) const;  // at the current token
  [[noreturn]] void error_at(const Token& t, const std::string& what) const;
  Compiler& compiler() { return c_; }

private:
  Compiler& c_;
  const Stmt& s_;
  std::size_t i_ = 0;
  std::vector<std::map<std::string, std::string>> operand_attrs_;
  Token end_;  // what peek() gives past the last token (located at the op)
};

// Located errors: "file:line:col: error: what" (what already names the op).
[[noreturn]] void op_error(const Frame& f, const Op& op, const std::string& what);
std::int64_t as_int(const Frame& f, const Op& op, int slot);
double as_float(const Frame& f, const Op& op, int slot);
const TensorVal& as_tensor(const Frame& f, const Op& op, int slot);
TileVal& as_tile(const Frame& f, const Op& op, int slot);
// A slot list entry of index_list: its value.
std::int64_t index_of(const Frame& f, const Op& op, std::int64_t entry);
void run_block(Frame& f, const Block& b);

}  // namespace pto::ir::detail
