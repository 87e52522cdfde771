# to_device_migrate(TARGET <target> [MODE per-site|registry] [DEVICE_EXPR <expr>]
#                   [RULES <globs>] [TOOL <path>])
#
# Compiles the migrated sources of <target> instead of the originals: each C++
# source is rewritten by to-device-migrate into the build tree (re-generated
# when the source or the tool changes), and the original directory stays on the
# include path so relative #includes still resolve.
if(NOT DEFINED TO_DEVICE_MIGRATE_EXECUTABLE)
  if(TARGET to-device-migrate)
    set(TO_DEVICE_MIGRATE_EXECUTABLE $<TARGET_FILE:to-device-migrate>)
  else()
    find_program(TO_DEVICE_MIGRATE_EXECUTABLE to-device-migrate REQUIRED)
  endif()
endif()

function(to_device_migrate)
  cmake_parse_arguments(ARG "" "TARGET;MODE;DEVICE_EXPR;RULES;TOOL" "" ${ARGN})
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
    if(ARG_MODE STREQUAL "registry" AND TARGET todevice)
      target_link_libraries(${ARG_TARGET} PRIVATE todevice)
    endif()
  endif()
  if(ARG_RULES)
    list(APPEND extra_args "--rules=${ARG_RULES}")
  endif()

  get_target_property(sources ${ARG_TARGET} SOURCES)
  get_target_property(source_dir ${ARG_TARGET} SOURCE_DIR)
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/to_device/${ARG_TARGET})
  set(migrated_sources)
  set(include_dirs)
  foreach(source IN LISTS sources)
    get_filename_component(abs ${source} ABSOLUTE BASE_DIR ${source_dir})
    if(NOT abs MATCHES "\\.(cpp|cc|cxx|C)$")
      list(APPEND migrated_sources ${source})
      continue()
    endif()
    get_filename_component(name ${abs} NAME)
    get_filename_component(dir ${abs} DIRECTORY)
    set(out ${out_dir}/${name})
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
      COMMAND ${tool} ${extra_args} ${abs} -o ${out}
      DEPENDS ${abs} ${tool}
      COMMENT "Migrating ${name} to the device (${ARG_TARGET})"
      VERBATIM)
    list(APPEND migrated_sources ${out})
    list(APPEND include_dirs ${dir})
  endforeach()
  list(REMOVE_DUPLICATES include_dirs)
  set_property(TARGET ${ARG_TARGET} PROPERTY SOURCES ${migrated_sources})
  target_include_directories(${ARG_TARGET} PRIVATE ${include_dirs})
endfunction()
