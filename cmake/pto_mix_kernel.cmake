# pto_add_mix_kernel(<target> SOURCES <file>... [ARCH A2A3|A5] [LIBRARIES <lib>...])
#
# First each source's chevron launches (`kernel<<<blocks, l2ctrl, stream>>>(args)`, a kernel file's own
# launcher) are rewritten into pto::chevron calls (pto_chevron; nothing else changes, #line keeps
# diagnostics on the original file, whose directory stays on the include path).
# Builds a mixed (cube + vector) kernel as the chip's toolchain does: every source is compiled twice,
# once for the cube core (__DAV_CUBE__, and __DAV_C220_CUBE__ on A2A3 / __DAV_C310_CUBE__ on A5) and
# once for the vector cores (__DAV_VEC__, __DAV_C220_VEC__ / __DAV_C310_VEC__), both with PTO_MIX_SIDE
# (1 cube, 2 vector). Every symbol the cube compilation defines is then renamed (a suffix), so an inline
# function, template or class that the two macro sets make different is never merged by the linker into
# one copy (the ODR hazard of linking both compilations into one program), and both are linked into
# one relocatable object, the static library <target>. The vector compilation keeps its names: the
# host calls the launcher the source defines (see pto::mix_entry, docs/clusters.md). Link <target> and
# pto::pto to the host program. Cross-compiling, set PTO_CHEVRON_EXECUTABLE to a pto_chevron built for
# the build machine (or give the toolchain a CMAKE_CROSSCOMPILING_EMULATOR).
set(PTO_MIX_RENAME_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/pto_mix_rename.cmake")

function(pto_add_mix_kernel target)
  cmake_parse_arguments(MIX "" "ARCH" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT MIX_SOURCES)
    message(FATAL_ERROR "pto_add_mix_kernel(${target}): SOURCES is empty")
  endif()
  if(NOT MIX_ARCH)
    set(MIX_ARCH A2A3)
  endif()
  if(MIX_ARCH STREQUAL "A2A3")
    set(chip C220)
  elseif(MIX_ARCH STREQUAL "A5")
    set(chip C310)
  else()
    message(FATAL_ERROR "pto_add_mix_kernel(${target}): ARCH ${MIX_ARCH} is not A2A3 or A5")
  endif()
  if(NOT CMAKE_OBJCOPY OR NOT CMAKE_NM OR NOT CMAKE_OBJDUMP)
    message(FATAL_ERROR "pto_add_mix_kernel(${target}): needs objcopy, nm and objdump (CMAKE_OBJCOPY, CMAKE_NM, "
                        "CMAKE_OBJDUMP: binutils)")
  endif()
  set(pto_lib pto::pto)
  set(chevron pto::pto_chevron)
  if(TARGET pto)  # inside pto-runtime's own build
    set(pto_lib pto)
    set(chevron pto_chevron)
  endif()
  if(PTO_CHEVRON_EXECUTABLE)  # cross-compiling: a pto_chevron built for the build machine
    set(chevron "${PTO_CHEVRON_EXECUTABLE}")
  endif()
  set(sources "")
  set(dirs "")
  set(index 0)
  foreach(src IN LISTS MIX_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE)
    get_filename_component(name "${src}" NAME)
    get_filename_component(dir "${abs}" DIRECTORY)
    # A directory per source: two sources may share a name (a/k.cpp, b/k.cpp).
    set(gendir "${CMAKE_CURRENT_BINARY_DIR}/${target}_chevron/${index}")
    math(EXPR index "${index} + 1")
    set(gen "${gendir}/${name}")
    add_custom_command(OUTPUT "${gen}" COMMAND ${CMAKE_COMMAND} -E make_directory "${gendir}"
                       COMMAND ${chevron} "${abs}" "${gen}" DEPENDS "${abs}" ${chevron}
                       COMMENT "pto_chevron: ${name}" VERBATIM)
    list(APPEND sources "${gen}")
    list(APPEND dirs "${dir}")
  endforeach()
  list(REMOVE_DUPLICATES dirs)
  foreach(side cube vec)
    string(TOUPPER ${side} SIDE)
    if(side STREQUAL "cube")
      set(id 1)
    else()
      set(id 2)
    endif()
    add_library(${target}_${side} OBJECT ${sources})
    target_include_directories(${target}_${side} PRIVATE ${dirs})
    target_compile_definitions(${target}_${side} PRIVATE __DAV_${SIDE}__=1 __DAV_${chip}_${SIDE}__=1 PTO_MIX_SIDE=${id})
    target_link_libraries(${target}_${side} PRIVATE ${pto_lib} ${MIX_LIBRARIES})
    # The renaming reads and rewrites machine code's symbol tables: LTO objects hold IR instead.
    set_target_properties(${target}_${side} PROPERTIES INTERPROCEDURAL_OPTIMIZATION OFF)
    # -fdata-sections: each variable in a section of its own, so the kernel's statics can be told apart
    # from the runtime's and the C++ library's (pto_mix_rename.cmake).
    target_compile_options(${target}_${side} PRIVATE $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-fno-lto -fdata-sections>)
  endforeach()
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${target}_mix.o")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} "-DCUBE=$<JOIN:$<TARGET_OBJECTS:${target}_cube>,|>" "-DVEC=$<JOIN:$<TARGET_OBJECTS:${target}_vec>,|>"
            "-DOUT=${out}" "-DNM=${CMAKE_NM}" "-DOBJCOPY=${CMAKE_OBJCOPY}" "-DOBJDUMP=${CMAKE_OBJDUMP}"
            "-DCXX=${CMAKE_CXX_COMPILER}" "-DRUNTIME=$<TARGET_FILE:${pto_lib}>"
            -P "${PTO_MIX_RENAME_SCRIPT}"
    DEPENDS ${target}_cube ${target}_vec $<TARGET_OBJECTS:${target}_cube> $<TARGET_OBJECTS:${target}_vec> "${PTO_MIX_RENAME_SCRIPT}"
            ${pto_lib}
    COMMENT "pto_add_mix_kernel(${target}): the cube compilation's symbols renamed, both sides linked"
    VERBATIM)
  add_library(${target} STATIC "${out}")
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
  target_link_libraries(${target} INTERFACE ${pto_lib} ${MIX_LIBRARIES})
endfunction()
