# The Python module's tests (tests/python), included by CMakeLists.txt after CTest when the module is built.
# pytest through ctest. In the sanitizer build the library inside the extension is instrumented,
# so python3 starts with the ASan runtime preloaded (it must come first), with libstdc++ beside it
# (python3 does not link it, and ASan's __cxa_throw interceptor finds no real __cxa_throw
# otherwise: the first C++ exception aborts), and leak checks off (the interpreter keeps its
# objects to the end).
set(env "PYTHONPATH=${CMAKE_BINARY_DIR}/python" "POSENC=$<TARGET_FILE:posenc>"
        "POSENC_SOURCE_DIR=${CMAKE_SOURCE_DIR}" "POSENC_BUILD_DIR=${CMAKE_BINARY_DIR}")
if(POSENC_SANITIZE)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so OUTPUT_VARIABLE asan
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libstdc++.so.6 OUTPUT_VARIABLE libstdcxx
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  list(APPEND env "LD_PRELOAD=${asan} ${libstdcxx}" "ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1"
       "POSENC_SANITIZED=1")
endif()
add_test(NAME python.pytest
         COMMAND ${POSENC_PYTHON_EXECUTABLE} -m pytest -q -p no:cacheprovider ${CMAKE_SOURCE_DIR}/tests/python)
set_tests_properties(python.pytest PROPERTIES ENVIRONMENT "${env}" SKIP_RETURN_CODE 5 COST 5)
