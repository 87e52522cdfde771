# Which of c10d's process groups the runtime can build against this LibTorch.
#
# c10d's headers declare ProcessGroupGloo only under USE_C10D_GLOO and
# ProcessGroupNCCL only under USE_C10D_NCCL. Debian's TorchConfig passes those
# to its users; pytorch.org's and pip's LibTorch do not (they are set for
# LibTorch's own build only), although the library has both. So each is
# defined for todevice when the torch target does not already define it and a
# program including the header with it compiles (Gloo's or NCCL's own headers
# may be missing: then that process group is left out, and docs/distributed.md
# says what remains).
#
#   todevice_probe_c10d(<target>)  sets TODEVICE_C10D_GLOO and TODEVICE_C10D_NCCL
include(CheckCXXSourceCompiles)
include(CMakePushCheckState)

function(todevice_probe_c10d_group target group header type)
  get_target_property(defined torch INTERFACE_COMPILE_DEFINITIONS)
  if(NOT defined)
    set(defined "")
  endif()
  if("USE_C10D_${group}" IN_LIST defined)
    set(TODEVICE_C10D_${group} ON PARENT_SCOPE)
    return()
  endif()
  cmake_push_check_state(RESET)
  set(CMAKE_REQUIRED_QUIET ON)
  # Compiled, not linked, and from TorchConfig's variables rather than its
  # target: a test project given the torch target imports its whole link
  # interface, which names targets of LibTorch's own (Debian's
  # torch_cpu_library; pip's protobuf::libprotobuf) that it cannot resolve.
  set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
  set(CMAKE_REQUIRED_INCLUDES ${TORCH_INCLUDE_DIRS} ${CUDAToolkit_INCLUDE_DIRS})
  set(CMAKE_REQUIRED_FLAGS "${TORCH_CXX_FLAGS}")
  set(CMAKE_REQUIRED_DEFINITIONS -DUSE_C10D_${group} ${ARGN})
  check_cxx_source_compiles("
    #include <torch/csrc/distributed/c10d/${header}>
    int main() { return sizeof(c10d::${type}::Options) > 0 ? 0 : 1; }"
    TODEVICE_C10D_${group}_COMPILES)
  cmake_pop_check_state()
  if(TODEVICE_C10D_${group}_COMPILES)
    target_compile_definitions(${target} PRIVATE USE_C10D_${group})
    set(TODEVICE_C10D_${group} ON PARENT_SCOPE)
  else()
    set(TODEVICE_C10D_${group} OFF PARENT_SCOPE)
  endif()
endfunction()

function(todevice_probe_c10d target)
  todevice_probe_c10d_group(${target} GLOO ProcessGroupGloo.hpp ProcessGroupGloo)
  set(nccl OFF)
  if(TARGET torch_cuda OR TORCH_CUDA_LIBRARIES)
    # NCCL's header comes with the CUDA toolkit, or (pip) in its own package:
    # TODEVICE_NCCL_INCLUDE_DIR names that directory.
    set(include_flags)
    if(TODEVICE_NCCL_INCLUDE_DIR)
      set(include_flags "-I${TODEVICE_NCCL_INCLUDE_DIR}")
      target_include_directories(${target} PRIVATE ${TODEVICE_NCCL_INCLUDE_DIR})
    endif()
    todevice_probe_c10d_group(${target} NCCL ProcessGroupNCCL.hpp ProcessGroupNCCL ${include_flags})
    set(nccl ${TODEVICE_C10D_NCCL})
  endif()
  message(STATUS "todevice: c10d process groups: Gloo ${TODEVICE_C10D_GLOO}, NCCL ${nccl}")
  set(TODEVICE_C10D_GLOO ${TODEVICE_C10D_GLOO} PARENT_SCOPE)
  set(TODEVICE_C10D_NCCL ${nccl} PARENT_SCOPE)
endfunction()
