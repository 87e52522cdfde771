# todevice_add_sim_test(<target> [NAME <test>] [ARGS <args>...]
#                       [EXPECT_SAME_OUTPUT_AS <cpu-target> [CPU_ARGS <args>...]]
#                       [MAX_COPIES <n>] [MAX_REPEATED_COPIES <n>]
#                       [WORKING_DIRECTORY <dir>])
#
# Adds a CTest test (default name: <target>-on-sim) that runs <target>'s
# program on the simulated accelerator (docs/simulator.md) and fails, printing
# the simulator's message with the program's source line, when:
#  - an operator mixes the device and the CPU (a placement error), even one the
#    program catches;
#  - host code reads or writes device memory (the line that did, and the line
#    that made that memory);
#  - the program exits non-zero, or never used the device (no copy to it, no
#    heavy operator on it: the program does not choose its device with
#    todevice::default_device(), so TODEVICE=sim changed nothing);
#  - its stdout differs from <cpu-target>'s, run with CPU_ARGS (default: ARGS),
#    compared exactly: the simulator computes bit-identical results;
#  - it copies host memory to the device more than MAX_COPIES times, or copies
#    a host tensor unchanged since its last copy more than MAX_REPEATED_COPIES
#    times (TODEVICE_SIM_REPORT=lines: the lines that do).
#
# The program runs as built, with the simulator preloaded (LD_PRELOAD) and
# TODEVICE=sim: nothing is relinked, so the binary proven is the one you ship.
# It must choose its device with todevice::default_device() (to-device-migrate
# --device-expr='todevice::default_device()', or to_device_migrate(... SIM_TEST))
# and link a shared LibTorch (Debian's is). Build it with -g for file:line.
set(_TODEVICE_RUN_SIM_TEST ${CMAKE_CURRENT_LIST_DIR}/TodeviceRunSimTest.cmake)

function(todevice_add_sim_test target)
  cmake_parse_arguments(ARG "" "NAME;EXPECT_SAME_OUTPUT_AS;MAX_COPIES;MAX_REPEATED_COPIES;WORKING_DIRECTORY"
                        "ARGS;CPU_ARGS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "todevice_add_sim_test: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "todevice_add_sim_test: ${target} is not a target")
  endif()
  if(NOT TARGET todevice::todevice_sim)
    message(FATAL_ERROR "todevice_add_sim_test: this todevice has no simulator (todevice::todevice_sim)")
  endif()
  set(name ${target}-on-sim)
  if(ARG_NAME)
    set(name ${ARG_NAME})
  endif()
  set(directory ${CMAKE_CURRENT_BINARY_DIR})
  if(ARG_WORKING_DIRECTORY)
    set(directory ${ARG_WORKING_DIRECTORY})
  endif()
  set(definitions
    "-DPROGRAM=$<TARGET_FILE:${target}>"
    "-DARGS=${ARG_ARGS}"
    "-DSIM_LIBRARY=$<TARGET_FILE:todevice::todevice_sim>"
    "-DWORKING_DIRECTORY=${directory}")
  if(ARG_EXPECT_SAME_OUTPUT_AS)
    set(cpu_args ${ARG_ARGS})
    if(DEFINED ARG_CPU_ARGS)
      set(cpu_args ${ARG_CPU_ARGS})
    endif()
    list(APPEND definitions "-DCPU_PROGRAM=$<TARGET_FILE:${ARG_EXPECT_SAME_OUTPUT_AS}>"
         "-DCPU_ARGS=${cpu_args}")
  endif()
  foreach(limit MAX_COPIES MAX_REPEATED_COPIES)
    if(DEFINED ARG_${limit})
      list(APPEND definitions "-D${limit}=${ARG_${limit}}")
    endif()
  endforeach()
  add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} ${definitions} -P ${_TODEVICE_RUN_SIM_TEST})
  set_tests_properties(${name} PROPERTIES LABELS todevice-sim)
endfunction()
