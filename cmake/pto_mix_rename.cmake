# Run by pto_add_mix_kernel: CUBE, VEC (lists of objects), OUT, NM, OBJCOPY, CXX.
# Every global or weak symbol the cube objects define gets the suffix __pto_aic (their references to one
# another follow; references to anything else, the runtime included, do not), then all objects are
# linked into OUT (ld -r). Kept shared: pto's variables, which its headers hold as inline variables
# (the runtime's hooks: tile placement, the TF32 mode, GM lifetime) or as static locals of its inline
# functions, with their guard variables and thread_local wrappers: each is one object of the runtime,
# whichever compilation names it. Functions are renamed, pto's too: they may differ under the macros.
string(REPLACE "|" ";" CUBE "${CUBE}")  # the object lists arrive joined by |
string(REPLACE "|" ";" VEC "${VEC}")
set(names "")
foreach(obj IN LISTS CUBE)
  execute_process(COMMAND "${NM}" --defined-only -P "${obj}" OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pto_add_mix_kernel: ${NM} failed on ${obj}")
  endif()
  string(REPLACE "\n" ";" lines "${listing}")
  foreach(line IN LISTS lines)
    if(line MATCHES "^([^ ]+) ([A-Za-z])")
      set(name "${CMAKE_MATCH_1}")
      set(type "${CMAKE_MATCH_2}")
      # Upper case: global (T, D, B, R, W, V, ...); u: GNU unique (static locals of inline functions);
      # n with a C++ name: a COMDAT group's signature (a constructor's or destructor's C5 / D5), renamed
      # too, or `ld -r` would keep one group of the two compilations and drop the other's definitions.
      set(shared FALSE)
      if((name MATCHES "^_Z(GV|TH|TW)Z?N3pto" OR (name MATCHES "^_ZZ?N3pto" AND type MATCHES "^[BDRVu]$"))
         AND NOT name MATCHES "mix_registered")  # except each side's registration of the kernel (mix_kernel.hpp)
        set(shared TRUE)
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
execute_process(COMMAND "${CXX}" -r -nostdlib -o "${OUT}" ${renamed} ${VEC} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pto_add_mix_kernel: linking the two compilations failed:\n${err}")
endif()
