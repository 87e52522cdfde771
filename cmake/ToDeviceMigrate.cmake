# to_device_migrate(TARGET <target> [MODE per-site|registry] [CHECK]
#                   [DEVICE_EXPR <expr>] [RULES <globs>] [TOOL <path>]
#                   [HEADER_FILTER <regex>] [ARGS <more tool options>...]
#                   [SIM_TEST [ARGS <program args>...] [MAX_COPIES <n>]
#                             [MAX_REPEATED_COPIES <n>]])
#
# Without CHECK: compiles the migrated sources of <target> instead of the
# originals. Each C++ source is rewritten by to-device-migrate into the build
# tree (re-generated when the source or the tool changes), and the original
# directory stays on the include path so relative #includes still resolve.
#
# A target of several sources is migrated by one run over all of them, so the
# tool analyses them as one program (a helper of one file called by a data
# set in another is per-sample code): into a mirror of the source tree (paths
# relative to PROJECT_SOURCE_DIR), whose directories come first on the include
# path. HEADER_FILTER: the headers the sources include whose absolute path
# matches <regex> are migrated too (--header-filter), into the same mirror, so
# the migrated sources include the migrated headers. Both need the sources
# under PROJECT_SOURCE_DIR (several sources elsewhere are migrated one by one).
#
# With SIM_TEST [ARGS <args>...] [MAX_COPIES <n>] [MAX_REPEATED_COPIES <n>]
# (last: what follows SIM_TEST is the test's): also builds <target>_original
# from the sources as written (the target's include directories as they are at
# this call, its libraries, definitions, options and C++ standard), and adds
# the CTest test todevice_add_sim_test() makes (TodeviceSimTest.cmake): the
# migrated <target> run on the simulator must print what <target>_original
# prints on the CPU, with no placement error and no host access to device
# memory. Without DEVICE_EXPR the migrated code then chooses its device with
# todevice::default_device() (the test sets TODEVICE=sim) and links todevice.
#
# With CHECK: the sources stay as they are, and building <target> first runs
# `to-device-migrate --check` on them: the build fails, listing each site as
# `file:line:col: warning: ... [rule]`, while any tensor, model or loss is left
# on the CPU. For keeping a migrated codebase migrated in CI.
#
# In this project the tool is the `to-device-migrate` target; elsewhere it comes
# from find_package(ToDeviceMigrate), or from the PATH.
if(NOT DEFINED TO_DEVICE_MIGRATE_EXECUTABLE)
  if(TARGET to-device-migrate)
    set(TO_DEVICE_MIGRATE_EXECUTABLE $<TARGET_FILE:to-device-migrate>)
  else()
    find_program(TO_DEVICE_MIGRATE_EXECUTABLE to-device-migrate REQUIRED)
  endif()
endif()

# The C++ sources of `target`, absolute, and the directories they are in.
function(_to_device_cxx_sources target out_sources out_dirs)
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(cxx)
  set(dirs)
  foreach(source IN LISTS sources)
    get_filename_component(abs ${source} ABSOLUTE BASE_DIR ${source_dir})
    if(abs MATCHES "\\.(cpp|cc|cxx|C)$")
      list(APPEND cxx ${abs})
      get_filename_component(dir ${abs} DIRECTORY)
      list(APPEND dirs ${dir})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES dirs)
  set(${out_sources} ${cxx} PARENT_SCOPE)
  set(${out_dirs} ${dirs} PARENT_SCOPE)
endfunction()

# One run over all of the target's C++ sources (one program; a header they
# share is migrated once) into a mirror tree; mirrored include directories first.
function(_to_device_migrate_as_one target tool extra_args cxx_sources source_dirs)
  set(root ${CMAKE_CURRENT_BINARY_DIR}/to_device/${target}/root)
  set(mirrored)
  foreach(abs IN LISTS cxx_sources)
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${abs})
    if(rel MATCHES "^\\.\\./")
      message(FATAL_ERROR "to_device_migrate(HEADER_FILTER): ${abs} is not under ${PROJECT_SOURCE_DIR}")
    endif()
    list(APPEND mirrored ${root}/${rel})
  endforeach()
  add_custom_command(OUTPUT ${mirrored}
    COMMAND ${tool} ${extra_args} --out-root ${root} ${cxx_sources}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    DEPENDS ${cxx_sources} ${tool}
    COMMENT "Migrating the sources of ${target} and their headers to the device"
    VERBATIM)
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(kept)
  foreach(source IN LISTS sources)
    get_filename_component(abs ${source} ABSOLUTE BASE_DIR ${source_dir})
    if(NOT abs IN_LIST cxx_sources)
      list(APPEND kept ${source})
    endif()
  endforeach()
  set_property(TARGET ${target} PROPERTY SOURCES ${kept} ${mirrored})
  # Mirrored directories first (migrated headers), then the originals (the rest).
  get_target_property(includes ${target} INCLUDE_DIRECTORIES)
  if(NOT includes)
    set(includes)
  endif()
  set(first)
  foreach(dir IN LISTS includes source_dirs)
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${dir})
    if(dir AND NOT rel MATCHES "^\\.\\." AND NOT dir MATCHES "\\$<")
      list(APPEND first ${root}/${rel})
    endif()
  endforeach()
  target_include_directories(${target} BEFORE PRIVATE ${first})
  target_include_directories(${target} PRIVATE ${source_dirs})
endfunction()

# <target>_original: <target> built from its sources as written (SIM_TEST).
function(_to_device_original_of target)
  get_target_property(type ${target} TYPE)
  if(NOT type STREQUAL "EXECUTABLE")
    message(FATAL_ERROR "to_device_migrate(SIM_TEST): ${target} is not an executable")
  endif()
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(absolute)
  foreach(source IN LISTS sources)
    get_filename_component(abs ${source} ABSOLUTE BASE_DIR ${source_dir})
    list(APPEND absolute ${abs})
  endforeach()
  add_executable(${target}_original ${absolute})
  # Include directories now, before the migrated mirror is put first.
  get_target_property(includes ${target} INCLUDE_DIRECTORIES)
  if(includes)
    target_include_directories(${target}_original PRIVATE ${includes})
  endif()
  target_link_libraries(${target}_original PRIVATE $<TARGET_PROPERTY:${target},LINK_LIBRARIES>)
  target_compile_definitions(${target}_original PRIVATE
                             $<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>)
  target_compile_options(${target}_original PRIVATE $<TARGET_PROPERTY:${target},COMPILE_OPTIONS>)
  foreach(property CXX_STANDARD CXX_STANDARD_REQUIRED CXX_EXTENSIONS)
    get_target_property(value ${target} ${property})
    if(NOT value STREQUAL "value-NOTFOUND")
      set_property(TARGET ${target}_original PROPERTY ${property} ${value})
    endif()
  endforeach()
endfunction()

function(to_device_migrate)
  # What follows SIM_TEST is the test's (its ARGS are the program's, not the tool's).
  list(FIND ARGN SIM_TEST sim_test_at)
  set(own_args ${ARGN})
  set(sim_test_args)
  if(sim_test_at GREATER -1)
    math(EXPR after "${sim_test_at} + 1")
    list(LENGTH ARGN count)
    if(after LESS count)
      list(SUBLIST ARGN ${after} -1 sim_test_args)
    endif()
    list(SUBLIST ARGN 0 ${sim_test_at} own_args)
  endif()
  cmake_parse_arguments(ARG "CHECK" "TARGET;MODE;DEVICE_EXPR;RULES;TOOL;HEADER_FILTER" "ARGS"
                        ${own_args})
  if(NOT ARG_TARGET)
    message(FATAL_ERROR "to_device_migrate: TARGET is required")
  endif()
  if(sim_test_at GREATER -1)
    if(ARG_CHECK)
      message(FATAL_ERROR "to_device_migrate: SIM_TEST tests a migrated build; CHECK migrates nothing")
    endif()
    _to_device_original_of(${ARG_TARGET})
    if(NOT ARG_DEVICE_EXPR)
      set(ARG_DEVICE_EXPR "todevice::default_device()")
    endif()
    if(TARGET todevice)
      target_link_libraries(${ARG_TARGET} PRIVATE todevice)
    elseif(TARGET todevice::todevice)
      target_link_libraries(${ARG_TARGET} PRIVATE todevice::todevice)
    endif()
    todevice_add_sim_test(${ARG_TARGET} EXPECT_SAME_OUTPUT_AS ${ARG_TARGET}_original
                          ${sim_test_args})
  endif()
  set(tool ${TO_DEVICE_MIGRATE_EXECUTABLE})
  if(ARG_TOOL)
    set(tool ${ARG_TOOL})
  endif()
  set(extra_args)
  if(ARG_DEVICE_EXPR)
    list(APPEND extra_args "--device-expr=${ARG_DEVICE_EXPR}")
  endif()
  if(ARG_MODE)
    list(APPEND extra_args "--mode=${ARG_MODE}")
    if(ARG_MODE STREQUAL "registry" AND NOT ARG_CHECK)
      # The registry the migrated code uses: this project's, or the installed one.
      if(TARGET todevice)
        target_link_libraries(${ARG_TARGET} PRIVATE todevice)
      elseif(TARGET todevice::todevice)
        target_link_libraries(${ARG_TARGET} PRIVATE todevice::todevice)
      endif()
    endif()
  endif()
  if(ARG_RULES)
    list(APPEND extra_args "--rules=${ARG_RULES}")
  endif()
  if(ARG_HEADER_FILTER)
    list(APPEND extra_args "--header-filter=${ARG_HEADER_FILTER}")
  endif()
  list(APPEND extra_args ${ARG_ARGS})
  _to_device_cxx_sources(${ARG_TARGET} cxx_sources source_dirs)

  if(ARG_CHECK)
    set(stamp ${CMAKE_CURRENT_BINARY_DIR}/to_device/${ARG_TARGET}.checked)
    add_custom_command(OUTPUT ${stamp}
      COMMAND ${tool} --check ${extra_args} ${cxx_sources}
      COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
      DEPENDS ${cxx_sources} ${tool}
      COMMENT "Checking that ${ARG_TARGET} places everything on the device"
      VERBATIM)
    add_custom_target(${ARG_TARGET}_to_device_check DEPENDS ${stamp})
    add_dependencies(${ARG_TARGET} ${ARG_TARGET}_to_device_check)
    return()
  endif()

  set(all_under_project TRUE)
  foreach(abs IN LISTS cxx_sources)
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${abs})
    if(rel MATCHES "^\\.\\./")
      set(all_under_project FALSE)
    endif()
  endforeach()
  list(LENGTH cxx_sources source_count)
  if(ARG_HEADER_FILTER OR (source_count GREATER 1 AND all_under_project))
    _to_device_migrate_as_one(${ARG_TARGET} "${tool}" "${extra_args}" "${cxx_sources}"
                              "${source_dirs}")
    return()
  endif()
  get_target_property(sources ${ARG_TARGET} SOURCES)
  get_target_property(source_dir ${ARG_TARGET} SOURCE_DIR)
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/to_device/${ARG_TARGET})
  set(migrated_sources)
  foreach(source IN LISTS sources)
    get_filename_component(abs ${source} ABSOLUTE BASE_DIR ${source_dir})
    if(NOT abs IN_LIST cxx_sources)
      list(APPEND migrated_sources ${source})
      continue()
    endif()
    get_filename_component(name ${abs} NAME)
    set(out ${out_dir}/${name})
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
      COMMAND ${tool} ${extra_args} ${abs} -o ${out}
      DEPENDS ${abs} ${tool}
      COMMENT "Migrating ${name} to the device (${ARG_TARGET})"
      VERBATIM)
    list(APPEND migrated_sources ${out})
  endforeach()
  set_property(TARGET ${ARG_TARGET} PROPERTY SOURCES ${migrated_sources})
  target_include_directories(${ARG_TARGET} PRIVATE ${source_dirs})
endfunction()
