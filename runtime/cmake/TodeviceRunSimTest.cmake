# The test todevice_add_sim_test() adds (TodeviceSimTest.cmake), run by CTest:
#   cmake -DPROGRAM=... -DARGS=... -DSIM_LIBRARY=... -DWORKING_DIRECTORY=...
#         [-DCPU_PROGRAM=... -DCPU_ARGS=...] [-DMAX_COPIES=n] [-DMAX_REPEATED_COPIES=n]
#         -P TodeviceRunSimTest.cmake
# Fails with the simulator's own lines (placement errors, host access, the
# copying lines) in its message.
foreach(var PROGRAM SIM_LIBRARY WORKING_DIRECTORY)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "TodeviceRunSimTest: ${var} is not set")
  endif()
endforeach()
get_filename_component(program_name ${PROGRAM} NAME)

# Fails the test with `text`, printed as is (a FATAL_ERROR's text would be
# re-wrapped, splitting the file:line an editor or a grep looks for).
function(fail)
  set(text)
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE ${last}) # the arguments joined as they are (semicolons kept)
    string(APPEND text "${ARGV${i}}")
  endforeach()
  message(NOTICE "${text}")
  message(FATAL_ERROR "${program_name}: the simulator test failed (above)")
endfunction()

# The simulator's lines of `text` ("todevice_sim: ..."), one per line.
function(simulator_lines text out)
  # Semicolons (the totals have some) would split the list of lines.
  string(REPLACE ";" "<semicolon>" text "${text}")
  string(REGEX MATCHALL "todevice_sim:[^\n]*" lines "${text}")
  list(JOIN lines "\n" joined)
  string(REPLACE "<semicolon>" ";" joined "${joined}")
  set(${out} "${joined}" PARENT_SCOPE)
endfunction()

# The program on the simulator, as built: the simulator preloaded, which
# registers the simulated device; TODEVICE=sim makes todevice::default_device()
# return it; the report lists the lines that copy.
get_filename_component(sim_dir ${SIM_LIBRARY} DIRECTORY)
set(library_path "${sim_dir}")
if(DEFINED ENV{LD_LIBRARY_PATH})
  string(APPEND library_path ":$ENV{LD_LIBRARY_PATH}")
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env "LD_PRELOAD=${SIM_LIBRARY}" "LD_LIBRARY_PATH=${library_path}"
          TODEVICE=sim TODEVICE_SIM_REPORT=lines ${PROGRAM} ${ARGS}
  WORKING_DIRECTORY ${WORKING_DIRECTORY}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
simulator_lines("${err}" report)

if(err MATCHES "todevice_sim: (placement error[^\n]*)")
  fail("${program_name} mixes the device and the CPU on the simulator: ${CMAKE_MATCH_1}\n"
                      "--- the simulator's report:\n${report}")
endif()
if(err MATCHES "todevice_sim: (host code (read|wrote) simulated-device memory[^\n]*)")
  fail("${program_name} accesses device memory from host code: ${CMAKE_MATCH_1}")
endif()
if(NOT rc EQUAL 0)
  string(LENGTH "${err}" length)
  if(length GREATER 4000)
    math(EXPR from "${length} - 4000")
    string(SUBSTRING "${err}" ${from} -1 err)
  endif()
  fail("${program_name} failed on the simulator (${rc}):\n${err}")
endif()

if(NOT err MATCHES "todevice_sim: host->device: ([0-9]+) copies, [0-9]+ bytes;[^\n]*moved again unchanged: ([0-9]+) copies")
  fail("${program_name} ran without the simulator's report: was ${SIM_LIBRARY} "
                      "loaded? (a statically linked LibTorch cannot be preloaded into)\n${err}")
endif()
set(copies ${CMAKE_MATCH_1})
set(repeated ${CMAKE_MATCH_2})
set(heavy_on_device 0)
if(err MATCHES "heavy operators: ([0-9]+) on the device")
  set(heavy_on_device ${CMAKE_MATCH_1})
endif()
if(copies EQUAL 0 AND heavy_on_device EQUAL 0)
  fail("${program_name} never used the simulated device (no copy to it, no heavy "
                      "operator on it): does it choose its device with todevice::default_device()? "
                      "TODEVICE=sim changes nothing otherwise.\n${report}")
endif()

if(DEFINED CPU_PROGRAM)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env TODEVICE=cpu ${CPU_PROGRAM} ${CPU_ARGS}
                  WORKING_DIRECTORY ${WORKING_DIRECTORY}
                  RESULT_VARIABLE cpu_rc OUTPUT_VARIABLE cpu_out ERROR_VARIABLE cpu_err)
  get_filename_component(cpu_name ${CPU_PROGRAM} NAME)
  if(NOT cpu_rc EQUAL 0)
    fail("${cpu_name} (the CPU program to compare with) failed (${cpu_rc}):\n${cpu_err}")
  endif()
  if(NOT out STREQUAL cpu_out)
    fail("${program_name} on the simulator prints other output than ${cpu_name} on "
                        "the CPU (compared exactly: the simulator computes what the CPU does)\n"
                        "--- ${cpu_name}:\n${cpu_out}\n--- ${program_name} on the simulator:\n${out}")
  endif()
endif()

if(DEFINED MAX_COPIES AND copies GREATER MAX_COPIES)
  fail("${program_name} copied host memory to the device ${copies} times, more than "
                      "MAX_COPIES ${MAX_COPIES}:\n${report}")
endif()
if(DEFINED MAX_REPEATED_COPIES AND repeated GREATER MAX_REPEATED_COPIES)
  fail("${program_name} copied a host tensor unchanged since its last copy ${repeated} "
                      "times, more than MAX_REPEATED_COPIES ${MAX_REPEATED_COPIES}:\n${report}")
endif()
string(REGEX MATCH "todevice_sim: host->device:[^\n]*" totals "${err}")
message(STATUS "${program_name} on the simulator: ${totals}")
if(err MATCHES "heavy operators: [0-9]+ on the device, [1-9][0-9]* on the host[^\n]*")
  message(STATUS "note: ${CMAKE_MATCH_0}")
endif()
