# ascend_sim_add_timing_test(NAME name TARGET program GOLDEN file [TOLERANCE pct]
#                            [ARGS args...] [WORKING_DIRECTORY dir])
# A CTest that runs `program` (a main.cpp linked against ascend_sim::sdk), takes the timing of
# every kernel it launches (latency, per-core pipe busy and scalar stall, HBM use) from its
# stats.json and compares it with the golden file: exactly, or each number within TOLERANCE
# percent. It fails with a readable diff when the timing moves. The target
# `NAME_update_golden` records the golden again (cmake --build . --target NAME_update_golden).
find_package(Python3 COMPONENTS Interpreter QUIET)
function(ascend_sim_add_timing_test)
  cmake_parse_arguments(T "" "NAME;TARGET;GOLDEN;TOLERANCE;WORKING_DIRECTORY" "ARGS" ${ARGN})
  if(NOT T_NAME OR NOT T_TARGET OR NOT T_GOLDEN)
    message(FATAL_ERROR "ascend_sim_add_timing_test: NAME, TARGET and GOLDEN are required")
  endif()
  if(NOT T_WORKING_DIRECTORY)
    set(T_WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  get_filename_component(golden ${T_GOLDEN} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  set(py python3)
  if(Python3_EXECUTABLE)
    set(py ${Python3_EXECUTABLE})
  endif()
  set(tol "")
  if(T_TOLERANCE)
    set(tol --tolerance ${T_TOLERANCE})
  endif()
  add_test(NAME ${T_NAME}
           COMMAND ${py} ${ASCEND_SIM_TIMING_GOLDEN} check ${golden} ${tol} --
                   $<TARGET_FILE:${T_TARGET}> ${T_ARGS}
           WORKING_DIRECTORY ${T_WORKING_DIRECTORY})
  add_custom_target(${T_NAME}_update_golden
                    COMMAND ${py} ${ASCEND_SIM_TIMING_GOLDEN} update ${golden} --
                            $<TARGET_FILE:${T_TARGET}> ${T_ARGS}
                    WORKING_DIRECTORY ${T_WORKING_DIRECTORY} DEPENDS ${T_TARGET} VERBATIM)
endfunction()
