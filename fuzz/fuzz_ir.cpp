// libFuzzer target over the PTO IR front door: tokenizer, statement splitter, parser and verifier
// (pto::ir::Module::parse, which type-checks every op against the instruction rules). Any input must
// either compile or throw pto::Error with a `file:line:col: error:` message: a crash, a hang, a
// sanitizer report or another exception type is a bug. Built by -DPTO_FUZZ=ON with clang (fuzz/README.md).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <string_view>

#include <pto/ir/module.hpp>
#include <pto/isa/error.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const pto::ir::Module m = pto::ir::Module::parse(text, "fuzz.pto");
    for (const std::string& e : m.entries()) (void)m.params(e);
    (void)m.target_arch();
  } catch (const pto::Error& e) {
    // Every rejection names a place in the file.
    if (std::string_view(e.what()).find("fuzz.pto:") == std::string_view::npos) {
      std::fprintf(stderr, "pto::Error without a file:line:col location: %s\n", e.what());
      std::abort();
    }
  }
  return 0;
}
