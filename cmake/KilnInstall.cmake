# Installation (`cmake --install BUILD [--prefix P]`) and Debian packages
# (`cpack -G DEB` in BUILD): two components,
#   runtime   libkiln_runtime (.so and .a), its header, kiln-run-module,
#             pkg-config kiln-runtime.pc and the CMake package (Kiln::runtime)
#             -> the package libkiln-runtime;
#   compiler  kiln-compile, kiln-run, kiln-opt, kiln-tune, libkiln.so (the
#             compiler's C API, kiln/session.h) and its headers, pkg-config
#             kiln.pc, the GPU shim CUDA model libraries link, the Python
#             package -> the package kiln.
# Every installed file finds the others relative to itself (RUNPATH
# $ORIGIN/../lib, .pc files from ${pcfiledir}), so an install tree can be
# moved or unpacked into a scratch root. docs/install.md.

set(_kiln_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/Kiln)

# ---- runtime -----------------------------------------------------------
target_include_directories(kiln_runtime_shared INTERFACE
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_include_directories(kiln_runtime INTERFACE
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
set_target_properties(kiln_runtime_shared PROPERTIES
  EXPORT_NAME runtime VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR})
set_target_properties(kiln_runtime PROPERTIES EXPORT_NAME runtime_static)
install(TARGETS kiln_runtime_shared kiln_runtime EXPORT KilnTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime)
install(TARGETS kiln-run-module
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(FILES include/kiln/kiln_runtime.h include/kiln/version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kiln COMPONENT runtime)

# A .pc file whose prefix is found from its own directory.
function(kiln_install_pkgconfig name component)
  file(RELATIVE_PATH KILN_PC_PREFIX_FROM_PCFILEDIR
       ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${name}.pc.in
                 ${PROJECT_BINARY_DIR}/pkgconfig/${name}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/${name}.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT ${component})
endfunction()
kiln_install_pkgconfig(kiln-runtime runtime)

include(CMakePackageConfigHelpers)
install(EXPORT KilnTargets NAMESPACE Kiln:: DESTINATION ${_kiln_cmake_dir}
  COMPONENT runtime)
configure_package_config_file(cmake/KilnConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/KilnConfig.cmake
  INSTALL_DESTINATION ${_kiln_cmake_dir})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/KilnConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/KilnConfig.cmake
              ${PROJECT_BINARY_DIR}/cmake/KilnConfigVersion.cmake
  DESTINATION ${_kiln_cmake_dir} COMPONENT runtime)

# ---- compiler ------------------------------------------------------------
if(NOT KILN_RUNTIME_ONLY)
  install(TARGETS kiln-compile kiln-run kiln-opt kiln-tune
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT compiler)
  install(DIRECTORY include/kiln DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
    COMPONENT compiler FILES_MATCHING PATTERN "*.h"
    PATTERN "kiln_runtime.h" EXCLUDE PATTERN "version.h" EXCLUDE)
  install(TARGETS kiln_gpu_shim
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}/kiln COMPONENT compiler)
  install(TARGETS kiln_shared
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT compiler)
  # Programs that embed the compiler include kiln/session.h, which includes
  # MLIR's C API headers (llvm-22-dev's and libmlir-22-dev's).
  set(KILN_PC_MLIR_INCLUDE_DIR ${MLIR_INCLUDE_DIRS})
  list(GET KILN_PC_MLIR_INCLUDE_DIR 0 KILN_PC_MLIR_INCLUDE_DIR)
  kiln_install_pkgconfig(kiln compiler)
endif()

# ---- Debian packages -------------------------------------------------------
set(CPACK_PACKAGE_NAME kiln)
set(CPACK_PACKAGE_VENDOR "Kiln")
set(CPACK_PACKAGE_CONTACT "Kiln developers <kiln@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Kiln: a deep-learning compiler for ONNX models on MLIR")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libkiln-runtime)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "libc6 (>= 2.34)")
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION
    "Kiln runtime: loads and runs model libraries compiled by kiln-compile")
set(CPACK_DEBIAN_COMPILER_PACKAGE_NAME kiln)
# Model libraries link LLVM's OpenMP runtime and are linked by clang-22 and
# ld.lld; the tools link MLIR 22's and LLVM 22's shared libraries (libLLVM.so.22.1
# is llvm-22-dev's; libomp.so.5 is libomp-22-dev's).
set(CPACK_DEBIAN_COMPILER_PACKAGE_DEPENDS
    "libkiln-runtime (= ${PROJECT_VERSION}), libmlir-22, llvm-22-dev, clang-22, lld-22, libomp-22-dev, libprotobuf-c1, libjansson4")
set(CPACK_COMPONENT_COMPILER_DESCRIPTION
    "Kiln compiler: kiln-compile, kiln-run, kiln-opt and kiln-tune")
set(CPACK_COMPONENTS_ALL runtime)
if(NOT KILN_RUNTIME_ONLY)
  list(APPEND CPACK_COMPONENTS_ALL compiler)
endif()
include(CPack)
