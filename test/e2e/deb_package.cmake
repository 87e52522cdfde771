# Builds the .deb with CPack, checks its metadata, unpacks it into a scratch
# root and migrates a file with the unpacked tool (which must find the unpacked
# runtime headers, not the source tree's).
# cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -P deb_package.cmake
include(${CMAKE_CURRENT_LIST_DIR}/run_checked.cmake)

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(ENV{TO_DEVICE_MIGRATE_CACHE} ${BUILD_DIR}/test/pch-cache)
run(cpack -G DEB -B ${WORK_DIR} --config ${BUILD_DIR}/CPackConfig.cmake)
file(GLOB deb ${WORK_DIR}/to-device-migrate_*.deb)
if(NOT deb)
  message(FATAL_ERROR "cpack made no .deb in ${WORK_DIR}")
endif()
run(dpkg-deb --field ${deb} Package Version Architecture Depends)
if(NOT run_output MATCHES "Package: to-device-migrate" OR NOT run_output MATCHES "Depends: [^\n]*libtorch-dev"
   OR NOT run_output MATCHES "Architecture: amd64")
  message(FATAL_ERROR "unexpected package metadata:\n${run_output}")
endif()
run(dpkg-deb --contents ${deb})
foreach(path ./usr/bin/to-device-migrate ./usr/include/todevice/todevice.h ./usr/lib/libtodevice.so
        ./usr/lib/cmake/ToDeviceMigrate/ToDeviceMigrateConfig.cmake ./usr/share/doc/to-device-migrate/usage.md)
  string(FIND "${run_output}" "${path}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the .deb lacks ${path}:\n${run_output}")
  endif()
endforeach()

set(root ${WORK_DIR}/root)
run(dpkg-deb -x ${deb} ${root})
run(${root}/usr/bin/to-device-migrate --version)
file(WRITE ${WORK_DIR}/input.cpp "#include <torch/torch.h>\nint main() { auto x = torch::ones({2}); return x.size(0) - 2; }\n")
run(${root}/usr/bin/to-device-migrate --mode=registry ${WORK_DIR}/input.cpp -o ${WORK_DIR}/output.cpp)
file(READ ${WORK_DIR}/output.cpp migrated)
if(NOT migrated MATCHES "#include <todevice/todevice.h>")
  message(FATAL_ERROR "the unpacked tool did not migrate in registry mode:\n${migrated}")
endif()
message(STATUS "${deb}: metadata, contents and the unpacked tool are fine")
