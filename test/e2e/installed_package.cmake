# Installs this build into a scratch prefix, then configures and builds the
# user project examples/cmake_project against it with find_package:
#  1. to_device_migrate(TARGET regression): the migrated build must print what
#     the original prints;
#  2. the same with MODE registry, linking the installed todevice runtime;
#  3. to_device_migrate(TARGET regression CHECK): the build must fail, naming
#     the sites still on the CPU;
#  4. the simulator tests in the user's own CTest: step 1's project's
#     (to_device_migrate SIM_TEST, todevice_add_sim_test) pass; in
#     sim_test_project, a GPU program's placement bug fails its test with the
#     program's line, and its full migration passes.
# cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -P installed_package.cmake
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "${var} is not set")
  endif()
endforeach()

include(${CMAKE_CURRENT_LIST_DIR}/run_checked.cmake)

file(REMOVE_RECURSE ${WORK_DIR})
# The tool builds its precompiled headers into the build tree, not ~/.cache.
set(ENV{TO_DEVICE_MIGRATE_CACHE} ${BUILD_DIR}/test/pch-cache)
set(prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(installed bin/to-device-migrate include/todevice/todevice.h
        lib/cmake/ToDeviceMigrate/ToDeviceMigrateConfig.cmake lib/cmake/todevice/todeviceConfig.cmake
        share/doc/to-device-migrate/usage.md)
  if(NOT EXISTS ${prefix}/${installed})
    message(FATAL_ERROR "cmake --install did not install ${installed}")
  endif()
endforeach()

# 1. Migrated at build time, compared with the original. Built without
#    optimisation (as the examples are) and one job at a time: this test holds
#    one of ctest's slots.
set(project ${SOURCE_DIR}/examples/cmake_project)
set(build_type -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O0)
run(${CMAKE_COMMAND} -S ${project} -B ${WORK_DIR}/migrate -G Ninja ${build_type}
    -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/migrate -j 1)
file(READ ${WORK_DIR}/migrate/to_device/regression/regression.cpp migrated)
if(NOT migrated MATCHES "model->to\\(device\\)")
  message(FATAL_ERROR "the source compiled for regression was not migrated:\n${migrated}")
endif()
run(${WORK_DIR}/migrate/regression_original)
set(expected "${run_output}")
run(${WORK_DIR}/migrate/regression)
if(NOT run_output STREQUAL expected OR expected STREQUAL "")
  message(FATAL_ERROR "migrated output differs:\n--- original\n${expected}\n--- migrated\n${run_output}")
endif()

# 2. --mode=registry: the migrated code uses todevice::Registry, which the
#    project gets from the installed todevice package (find_dependency in
#    ToDeviceMigrateConfig.cmake), not from this build tree.
run(${CMAKE_COMMAND} -S ${project} -B ${WORK_DIR}/registry -G Ninja ${build_type}
    -DCMAKE_PREFIX_PATH=${prefix} -DMODE=registry)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/registry -j 1 --target regression)
file(READ ${WORK_DIR}/registry/to_device/regression/regression.cpp migrated)
if(NOT migrated MATCHES "todevice::Registry")
  message(FATAL_ERROR "--mode=registry did not emit a registry:\n${migrated}")
endif()
file(STRINGS ${WORK_DIR}/registry/CMakeCache.txt todevice_dir REGEX "^todevice_DIR:")
if(NOT todevice_dir MATCHES "^todevice_DIR:PATH=${prefix}/")
  message(FATAL_ERROR "todevice was not found in the installed prefix: ${todevice_dir}")
endif()
run(${WORK_DIR}/registry/regression)
if(NOT run_output STREQUAL expected)
  message(FATAL_ERROR "registry output differs:\n--- original\n${expected}\n--- registry\n${run_output}")
endif()

# 3. CHECK mode: the build fails and says why.
run(${CMAKE_COMMAND} -S ${project} -B ${WORK_DIR}/check -G Ninja -DCMAKE_PREFIX_PATH=${prefix}
    -DCHECK_ONLY=ON)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/check --target regression
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "CHECK mode built a target whose model is still on the CPU:\n${out}")
endif()
if(NOT "${out}${err}" MATCHES "regression.cpp:[0-9]+:[0-9]+: warning: not on the device yet: [^\n]*\\[model-placement\\]")
  message(FATAL_ERROR "CHECK mode failed without naming the site:\n${out}\n${err}")
endif()
# 4. The simulator tests, in the users' own CTest.
run(${CMAKE_CTEST_COMMAND} --test-dir ${WORK_DIR}/migrate --output-on-failure)
if(NOT run_output MATCHES "regression-on-sim" OR NOT run_output MATCHES "regression-copies")
  message(FATAL_ERROR "the example project's simulator tests did not run:\n${run_output}")
endif()
run(${CMAKE_COMMAND} -S ${CMAKE_CURRENT_LIST_DIR}/sim_test_project -B ${WORK_DIR}/sim_test -G Ninja
    ${build_type} -DCMAKE_PREFIX_PATH=${prefix}
    -DGPU_PROGRAM=${SOURCE_DIR}/examples/others/gpu_program.cpp)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/sim_test -j 1)
execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${WORK_DIR}/sim_test --output-on-failure
                        -R "^gpu_program-on-sim$"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
# The bug's line in the source gpu_program is built from (the runtime's
# include, added by the migration, moves it down one).
file(READ ${WORK_DIR}/sim_test/to_device/gpu_program/gpu_program.cpp compiled)
string(FIND "${compiled}" "// the simulator stops here" at)
string(SUBSTRING "${compiled}" 0 ${at} before)
string(REGEX MATCHALL "\n" newlines "${before}")
list(LENGTH newlines bug_line)
math(EXPR bug_line "${bug_line} + 1")
if(rc EQUAL 0 OR NOT out MATCHES "mixes the device and the CPU on the simulator: placement error at [^\n]*gpu_program.cpp:${bug_line} in main: argument 'weight' of aten::nll_loss_forward is on cpu")
  message(FATAL_ERROR "the simulator test of a misplaced program did not fail at its line (${bug_line}):\n${out}\n${err}")
endif()
run(${CMAKE_CTEST_COMMAND} --test-dir ${WORK_DIR}/sim_test --output-on-failure
    -R "^gpu_program_migrated-on-sim$")
message(STATUS "installed package: per-site and registry builds match the original; CHECK mode fails as it should; "
               "the simulator tests pass on migrations and fail at a misplaced line")
