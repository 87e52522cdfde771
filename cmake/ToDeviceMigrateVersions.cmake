# The LibTorch and LLVM versions this project builds with, checked once at
# configure time with one clear message each (docs/install.md).
#
# Supported: LibTorch 1.13 to 2.14, LLVM 14 to 23 (built and tested with the
# three Debian releases' own: docs/install.md). .ci/install-deps reads the LLVM
# bounds from here.
set(TO_DEVICE_LLVM_MIN 14)
set(TO_DEVICE_LLVM_MAX 23)
set(TO_DEVICE_TORCH_MIN 1.13)
set(TO_DEVICE_TORCH_MAX 2.14)

# The install prefix of the LLVM to use: the one -DLLVM_DIR names, else the
# newest supported /usr/lib/llvm-N that has Clang's CMake package.
function(todevice_find_llvm_prefix out)
  if(LLVM_DIR)
    get_filename_component(prefix "${LLVM_DIR}/../../.." ABSOLUTE)
    set(${out} "${prefix}" PARENT_SCOPE)
    return()
  endif()
  foreach(v RANGE ${TO_DEVICE_LLVM_MAX} ${TO_DEVICE_LLVM_MIN} -1)
    if(EXISTS /usr/lib/llvm-${v}/lib/cmake/clang/ClangConfig.cmake)
      set(${out} /usr/lib/llvm-${v} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "" PARENT_SCOPE)
endfunction()

function(todevice_check_llvm)
  if(LLVM_VERSION_MAJOR VERSION_LESS TO_DEVICE_LLVM_MIN OR
     LLVM_VERSION_MAJOR VERSION_GREATER TO_DEVICE_LLVM_MAX)
    message(FATAL_ERROR "to-device-migrate: LLVM ${LLVM_PACKAGE_VERSION} (${LLVM_DIR}) is outside "
      "the supported range, LLVM ${TO_DEVICE_LLVM_MIN} to ${TO_DEVICE_LLVM_MAX}: pass "
      "-DLLVM_DIR=<prefix>/lib/cmake/llvm of one in that range (docs/install.md)")
  endif()
  message(STATUS "to-device-migrate: LLVM ${LLVM_PACKAGE_VERSION} (${LLVM_DIR})")
endfunction()

# Checks the LibTorch find_package(Torch) found, and sets `out` to the C++
# standard its headers require (17, or 20 for 2.10 and later): the number in
# their own "#error C++N or later compatible compiler is required" line.
function(todevice_check_torch out)
  string(REGEX MATCH "^[0-9]+\\.[0-9]+" torch_version "${Torch_VERSION}")
  if(torch_version VERSION_LESS TO_DEVICE_TORCH_MIN OR torch_version VERSION_GREATER TO_DEVICE_TORCH_MAX)
    message(FATAL_ERROR "to-device-migrate: LibTorch ${Torch_VERSION} (${Torch_DIR}) is outside "
      "the supported range, LibTorch ${TO_DEVICE_TORCH_MIN} to ${TO_DEVICE_TORCH_MAX}: pass "
      "-DCMAKE_PREFIX_PATH=<libtorch> of one in that range (docs/install.md)")
  endif()
  set(standard 17)
  foreach(dir IN LISTS TORCH_INCLUDE_DIRS)
    foreach(header torch/all.h c10/macros/Macros.h)
      if(EXISTS ${dir}/${header})
        file(STRINGS ${dir}/${header} lines REGEX "C\\+\\+[0-9]+ or later compatible compiler")
        foreach(line IN LISTS lines)
          string(REGEX MATCH "C\\+\\+([0-9]+) or later" _ "${line}")
          if(CMAKE_MATCH_1 GREATER standard)
            set(standard ${CMAKE_MATCH_1})
          endif()
        endforeach()
      endif()
    endforeach()
  endforeach()
  message(STATUS "to-device-migrate: LibTorch ${Torch_VERSION} (${Torch_DIR}), C++${standard}")
  set(${out} ${standard} PARENT_SCOPE)
endfunction()
