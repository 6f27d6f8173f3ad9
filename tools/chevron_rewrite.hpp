// The chevron rewrite pto_add_mix_kernel runs on a kernel source: every `kernel<...><<<blocks, l2ctrl,
// stream>>>(args)` becomes `pto::chevron<&kernel<...>>(blocks, l2ctrl, stream)(args)`, which launches
// the kernel's two compilations through pto::launch_mix. Nothing else changes; a `#line` keeps
// diagnostics on the original file. The callee is found by scanning back from `<<<` over one name
// with `::` qualifiers and balanced template arguments; a `<<<` with no name before it or no `>>>` after
// it (in a comment, say) is left as it is.
#pragma once
#include <cctype>
#include <string>

namespace pto_tools {

inline bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The start of the callee expression that ends just before `end` (exclusive), or npos.
inline std::size_t callee_start(const std::string& s, std::size_t end) {
  std::size_t i = end;
  while (i > 0 && std::isspace(static_cast<unsigned char>(s[i - 1]))) --i;
  for (;;) {
    if (i > 0 && s[i - 1] == '>') {  // template arguments: back to the matching '<'
      int depth = 0;
      do {
        --i;
        if (s[i] == '>') ++depth;
        else if (s[i] == '<') --depth;
      } while (i > 0 && depth > 0);
      if (depth != 0) return std::string::npos;
      while (i > 0 && std::isspace(static_cast<unsigned char>(s[i - 1]))) --i;
    }
    const std::size_t name_end = i;
    while (i > 0 && name_char(s[i - 1])) --i;
    if (i == name_end) return std::string::npos;
    if (i >= 2 && s[i - 1] == ':' && s[i - 2] == ':') {
      i -= 2;
      continue;
    }
    return i;
  }
}

// Rewrites every chevron launch of `src`; `file` names the original for the #line directive.
inline std::string rewrite_chevrons(const std::string& src, const std::string& file) {
  std::string out = "#line 1 \"" + file + "\"\n";
  std::size_t from = 0;
  for (;;) {
    const std::size_t open = src.find("<<<", from);
    if (open == std::string::npos) break;
    const std::size_t close = src.find(">>>", open + 3);
    const std::size_t start = close == std::string::npos ? std::string::npos : callee_start(src, open);
    if (start == std::string::npos || start < from) {  // not a launch (a comment?): left as it is
      out.append(src, from, open + 3 - from);
      from = open + 3;
      continue;
    }
    std::string callee = src.substr(start, open - start);
    while (!callee.empty() && std::isspace(static_cast<unsigned char>(callee.back()))) callee.pop_back();
    out.append(src, from, start - from);
    out += "pto::chevron<&" + callee + ">(" + src.substr(open + 3, close - open - 3) + ")";
    from = close + 3;
  }
  out.append(src, from, std::string::npos);
  return out;
}

}  // namespace pto_tools
