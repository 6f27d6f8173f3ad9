# Run by pto_add_mix_kernel: CUBE, VEC (lists of objects), OUT, NM, OBJCOPY, OBJDUMP, CXX, RUNTIME (libpto).
# 1. Every global or weak symbol the cube objects define gets the suffix __pto_aic (their references to one
#    another follow; references to anything else, the runtime included, do not), so the two compilations
#    are never merged. Kept shared: the variables libpto itself defines (its hooks, which its headers hold
#    as inline variables: tile placement, the TF32 mode, GM lifetime; its inline functions' statics) and
#    those of namespace pto::detail: one object of the runtime, whichever compilation names it.
# 2. The kernel's own writable data (its globals and statics, in .data* and .bss* sections, the runtime's
#    excepted) moves to the sections pto_kdata / pto_kbss, which the runtime gives each emulated core a
#    copy of (runtime/src/kernel_statics.cpp): on the chip every core has its own.
# 3. All objects are linked into OUT (ld -r).
string(REPLACE "|" ";" CUBE "${CUBE}")  # the object lists arrive joined by |
string(REPLACE "|" ";" VEC "${VEC}")
# The lines `tool args... file` prints, as a list in `out`.
function(listing out file tool)
  execute_process(COMMAND "${tool}" ${ARGN} "${file}" OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pto_add_mix_kernel: ${tool} failed on ${file}")
  endif()
  string(REPLACE "\n" ";" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

listing(lines "${RUNTIME}" "${NM}" --defined-only -P)
foreach(line IN LISTS lines)
  if(line MATCHES "^(_Z[^ ]+) [BDRVu] ")
    set("runtime_${CMAKE_MATCH_1}" 1)
  endif()
endforeach()
set(names "")
foreach(obj IN LISTS CUBE)
  listing(lines "${obj}" "${NM}" --defined-only -P)
  foreach(line IN LISTS lines)
    if(line MATCHES "^([^ ]+) ([A-Za-z])")
      set(name "${CMAKE_MATCH_1}")
      set(type "${CMAKE_MATCH_2}")
      # Upper case: global (T, D, B, R, W, V, ...); u: GNU unique (static locals of inline functions);
      # n with a C++ name: a COMDAT group's signature (a constructor's or destructor's C5 / D5), renamed
      # too, or `ld -r` would keep one group of the two compilations and drop the other's definitions.
      set(shared FALSE)
      if(DEFINED "runtime_${name}" OR (type MATCHES "^[BDRVu]$" AND name MATCHES "^_Z(GV)?Z*NK?3pto6detail"
                                        AND NOT name MATCHES "mix_registered"))
        set(shared TRUE)  # the runtime's state, but each side's registration of the kernel (mix_kernel.hpp)
      endif()
      if((type MATCHES "^[A-Z]$" OR type STREQUAL "u" OR (type STREQUAL "n" AND name MATCHES "^_Z")) AND NOT type STREQUAL "U"
         AND NOT shared)
        list(APPEND names "${name}")
      endif()
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES names)  # a weak symbol defined by several cube objects is renamed once
set(map "")
foreach(name IN LISTS names)
  string(APPEND map "${name} ${name}__pto_aic\n")
endforeach()
file(WRITE "${OUT}.syms" "${map}")
set(renamed "")
set(i 0)
foreach(obj IN LISTS CUBE)
  set(r "${OUT}.cube${i}.o")
  execute_process(COMMAND "${OBJCOPY}" "--redefine-syms=${OUT}.syms" "${obj}" "${r}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pto_add_mix_kernel: ${OBJCOPY} failed on ${obj}")
  endif()
  list(APPEND renamed "${r}")
  math(EXPR i "${i} + 1")
endforeach()
# The kernel's writable data: every .data* / .bss* section but relro data and the runtime's variables.
set(objects "")
foreach(obj IN LISTS renamed VEC)
  listing(lines "${obj}" "${OBJDUMP}" -h -w)
  set(moves "")
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "^ *[0-9]+ (\\.(data|bss)[^ ]*) +([0-9a-f]+) ")
      continue()
    endif()
    set(section "${CMAKE_MATCH_1}")
    set(kind "${CMAKE_MATCH_2}")
    if(CMAKE_MATCH_3 MATCHES "^0+$")
      continue()  # empty
    endif()
    if(section MATCHES "^\\.data\\.rel\\.ro")
      continue()
    endif()
    string(REGEX REPLACE "^\\.(data|bss)(\\.rel)?(\\.local)?\\.?" "" symbol "${section}")
    string(REGEX REPLACE "__pto_aic$" "" symbol "${symbol}")
    # The runtime's (pto::detail: its hooks, each side's registration of the kernel, written once at
    # static initialisation), the exception personality's pointer (constant) and <iostream>'s init
    # object are one for all cores.
    if(DEFINED "runtime_${symbol}" OR symbol MATCHES "^_Z(GV)?Z*NK?3pto6detail" OR symbol MATCHES "^DW\\.ref\\."
       OR symbol MATCHES "__ioinit$")  # <iostream>'s std::ios_base::Init object: empty
      continue()
    endif()
    list(APPEND moves "--rename-section" "${section}=pto_k${kind}")
  endforeach()
  if(moves)
    set(moved "${obj}.kdata.o")
    execute_process(COMMAND "${OBJCOPY}" ${moves} "${obj}" "${moved}" RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "pto_add_mix_kernel: ${OBJCOPY} failed on ${obj}:\n${err}")
    endif()
    list(APPEND objects "${moved}")
  else()
    list(APPEND objects "${obj}")
  endif()
endforeach()
execute_process(COMMAND "${CXX}" -r -nostdlib -o "${OUT}" ${objects} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pto_add_mix_kernel: linking the two compilations failed:\n${err}")
endif()
