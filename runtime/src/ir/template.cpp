// Module::instantiate: a .pto file with template parameters `${NAME}` (a tiling search's knobs: tile
// sizes, buffer counts, loop bounds), each replaced by its value before the file is parsed.
#include <pto/ir/module.hpp>

#include <cctype>

#include "syntax.hpp"

namespace pto::ir {
namespace {

bool name_char(char c, bool first) { return c == '_' || std::isalpha(static_cast<unsigned char>(c)) || (!first && std::isdigit(static_cast<unsigned char>(c))); }

}  // namespace

std::string Module::instantiate(std::string_view text, const std::map<std::string, std::string>& values, const std::string& file) {
  for (const auto& [name, value] : values) {
    bool ok = !name.empty() && !value.empty();
    for (std::size_t k = 0; k < name.size(); ++k) ok = ok && name_char(name[k], k == 0);
    for (char c : value) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' || c == '+');
    if (!ok)
      throw Error(file + ": error: template parameter '" + name + "' = '" + value + "': a name is letters, digits and _ (not "
                  "first a digit), a value a number or a word (letters, digits, _ . + -)");
  }
  std::string out;
  out.reserve(text.size());
  int line = 1, col = 1;
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '$' && i + 1 < text.size() && text[i + 1] == '{') {
      std::size_t end = i + 2;
      while (end < text.size() && name_char(text[end], end == i + 2)) ++end;
      if (end == i + 2 || end >= text.size() || text[end] != '}')
        detail::syntax_error(file, line, col, "a template parameter is written ${NAME} (NAME: letters, digits and _)");
      const std::string name(text.substr(i + 2, end - i - 2));
      const auto it = values.find(name);
      if (it == values.end())
        detail::syntax_error(file, line, col, "${" + name + "} has no value: give it values with pto-run --param " + name +
                                                  "=V1,V2,... (a tiling search) or pto::ir::Module::instantiate");
      out += it->second;
      col += int(end + 1 - i);
      i = end + 1;
      continue;
    }
    if (text[i] == '\n') line++, col = 1;
    else ++col;
    out += text[i++];
  }
  return out;
}

}  // namespace pto::ir
