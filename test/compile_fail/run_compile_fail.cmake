# A compile-fail test: SRC must not compile, and the compiler's output must contain EXPECT.
execute_process(COMMAND ${CXX} -std=c++20 -mf16c -fsyntax-only -I${INC1} -I${INC2} ${SRC}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "${SRC} compiled, but it must not")
endif()
string(FIND "${err}" "${EXPECT}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${SRC} failed to compile, but without the expected message\n  expected: ${EXPECT}\n  got:\n${err}")
endif()
