# solvent_add_package_library(NAME [OPENMP] SOURCES ... [CUDA_SOURCES ...] [LIBRARIES ...])
# The one helper library a package may have, named solvent-<package>-common (a package with
# CPU and CUDA plugins that share device code may add its device half,
# solvent-<package>-common-cuda, so that its CPU plugins never link the CUDA runtime): static,
# position-independent (it is linked into plugin modules), hidden symbols, the package's
# public headers (include/solvent_<package>/) on its interface and the package root on its
# private include path. CUDA_SOURCES are added only where CUDA is enabled, together with
# the device layer. OPENMP: OpenMP on its interface where it is found, else one thread, said
# once at configure. In-tree only: third-party plugins build as they like.
function(solvent_add_package_library name)
  cmake_parse_arguments(P "OPENMP" "" "SOURCES;CUDA_SOURCES;LIBRARIES" ${ARGN})
  set(_sources ${P_SOURCES})
  if(SOLVENT_HAVE_CUDA)
    list(APPEND _sources ${P_CUDA_SOURCES})
  endif()
  add_library(${name} STATIC ${_sources})
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/include)
    target_include_directories(${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  endif()
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC Solvent::core ${P_LIBRARIES})
  set_target_properties(${name} PROPERTIES
    POSITION_INDEPENDENT_CODE ON
    CXX_VISIBILITY_PRESET hidden
    CUDA_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  if(SOLVENT_HAVE_CUDA AND P_CUDA_SOURCES)
    target_link_libraries(${name} PUBLIC Solvent::cuda CUDA::cudart)
    set_target_properties(${name} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
  endif()
  if(P_OPENMP)
    solvent_link_openmp(${name} PUBLIC)
  endif()
endfunction()

# OpenMP for `target` (PUBLIC or PRIVATE), or one thread where it is not found: its pragmas
# are then ignored, silently.
function(solvent_link_openmp target scope)
  if(TARGET OpenMP::OpenMP_CXX)
    target_link_libraries(${target} ${scope} OpenMP::OpenMP_CXX)
  else()
    message(STATUS "Solvent: ${target} built without OpenMP (one thread)")
    target_compile_options(${target} PRIVATE -Wno-unknown-pragmas)
  endif()
endfunction()

# solvent_add_headers_package(NAME): a package of headers only (a family header package or a
# package whose public headers are all templates): an INTERFACE library exposing include/.
function(solvent_add_headers_package name)
  add_library(${name} INTERFACE)
  target_include_directories(${name} INTERFACE ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_link_libraries(${name} INTERFACE Solvent::core)
endfunction()
