# to_device_migrate(TARGET <target> [MODE per-site|registry] [CHECK]
#                   [DEVICE_EXPR <expr>] [RULES <globs>] [TOOL <path>]
#                   [ARGS <more tool options>...])
#
# Without CHECK: compiles the migrated sources of <target> instead of the
# originals. Each C++ source is rewritten by to-device-migrate into the build
# tree (re-generated when the source or the tool changes), and the original
# directory stays on the include path so relative #includes still resolve.
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

function(to_device_migrate)
  cmake_parse_arguments(ARG "CHECK" "TARGET;MODE;DEVICE_EXPR;RULES;TOOL" "ARGS" ${ARGN})
  if(NOT ARG_TARGET)
    message(FATAL_ERROR "to_device_migrate: TARGET is required")
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
