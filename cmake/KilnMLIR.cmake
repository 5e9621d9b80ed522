# Linking against Debian's MLIR 22 (docs/mlir22-notes.md).
#
# libMLIR.so carries all of MLIR's C++ but none of the C API, which ships only
# as static libMLIRCAPI*.a wrappers. We link those archives by file, in one
# rescanned group, and then the shared MLIR and LLVM libraries. Linking the
# imported MLIRCAPI* targets instead would pull ~300 static archives in and
# put two copies of MLIR into the process.

set(KILN_MLIR_CAPI_LIBS
  MLIRCAPIIR MLIRCAPIRegisterEverything MLIRCAPITransforms MLIRCAPIConversion
  MLIRCAPIIRDL MLIRCAPIFunc MLIRCAPIArith MLIRCAPITensor MLIRCAPILinalg
  MLIRCAPISCF MLIRCAPIMath MLIRCAPIMemRef MLIRCAPIBufferization
  MLIRCAPITransformDialect MLIRCAPITransformDialectTransforms
  MLIRCAPIExecutionEngine MLIRCAPITarget MLIRCAPILLVM MLIRCAPIInterfaces
  MLIRCAPIGPU MLIRCAPINVVM MLIRCAPINVGPU MLIRCAPIVector MLIRCAPIAffine
  MLIRCAPIControlFlow MLIRCAPIDebug MLIRCAPIShard)

set(_kiln_capi_files)
foreach(lib IN LISTS KILN_MLIR_CAPI_LIBS)
  set(_path "${MLIR_INSTALL_PREFIX}/lib/lib${lib}.a")
  if(NOT EXISTS "${_path}")
    # MLIR_INSTALL_PREFIX is not set by every config; fall back on LLVM's.
    set(_path "${LLVM_LIBRARY_DIR}/lib${lib}.a")
  endif()
  if(NOT EXISTS "${_path}")
    message(FATAL_ERROR "MLIR C-API archive not found: ${_path}")
  endif()
  list(APPEND _kiln_capi_files "${_path}")
endforeach()
list(JOIN _kiln_capi_files "," _kiln_capi_csv)

# kiln_link_mlir(TARGET): link TARGET against MLIR's C API and shared libs.
function(kiln_link_mlir target)
  target_link_libraries(${target} PRIVATE
    "$<LINK_GROUP:RESCAN,${_kiln_capi_csv}>"
    MLIR LLVM stdc++ m)
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE C)
endfunction()
