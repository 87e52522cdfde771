# Runs EXPECTED and ACTUAL (ACTUAL with the environment ACTUAL_ENV, "VAR=value")
# and fails unless both succeed and print exactly the same standard output.
foreach(var EXPECTED ACTUAL)
  if(NOT EXISTS "${${var}}")
    message(FATAL_ERROR "${var} program '${${var}}' does not exist")
  endif()
endforeach()

execute_process(COMMAND "${EXPECTED}" RESULT_VARIABLE expected_rc
                OUTPUT_VARIABLE expected_out ERROR_VARIABLE expected_err)
if(ACTUAL_ENV)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ACTUAL_ENV} "${ACTUAL}"
                  RESULT_VARIABLE actual_rc OUTPUT_VARIABLE actual_out ERROR_VARIABLE actual_err)
else()
  execute_process(COMMAND "${ACTUAL}" RESULT_VARIABLE actual_rc
                  OUTPUT_VARIABLE actual_out ERROR_VARIABLE actual_err)
endif()

if(NOT expected_rc EQUAL 0)
  message(FATAL_ERROR "original program failed (${expected_rc}):\n${expected_err}")
endif()
if(NOT actual_rc EQUAL 0)
  message(FATAL_ERROR "migrated program failed (${actual_rc}) [${ACTUAL_ENV}]:\n${actual_err}")
endif()
if(expected_out STREQUAL "")
  message(FATAL_ERROR "original program printed nothing: nothing to compare")
endif()
if(NOT expected_out STREQUAL actual_out)
  message(FATAL_ERROR "outputs differ [${ACTUAL_ENV}]\n--- original\n${expected_out}\n--- migrated\n${actual_out}")
endif()
message(STATUS "same output (${ACTUAL_ENV}):\n${actual_out}")
