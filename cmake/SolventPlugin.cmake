# solvent_add_plugin(NAME SOURCES ... [CUDA] [LIBRARIES ...])
# One shared library per plugin, named libsolvent-NAME.so so the registry finds it:
# hidden visibility (only the descriptor is exported), the core's compile definitions
# (SOLVENT_VERSION) and C++20 through Solvent::core, output in
# SOLVENT_PLUGIN_OUTPUT_DIRECTORY, installed to SOLVENT_PLUGIN_INSTALL_DIR, and an RPATH
# that finds the core both inside a Solvent install (lib/solvent -> lib) and, for a plugin
# built against an installed package, in that package's library folder.
# With CUDA, the plugin is skipped (one message) when the project has no CUDA compiler, and
# otherwise links Solvent::cuda (one error check, one device probe) and the shared runtime.
#
# Used by Solvent's own tree and, through find_package(Solvent), by third-party projects;
# there SolventConfig.cmake supplies the defaults of the variables above.
function(solvent_add_plugin name)
  cmake_parse_arguments(P "CUDA;OPENMP" "" "SOURCES;LIBRARIES" ${ARGN})
  if(P_CUDA)
    get_property(_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
    if(DEFINED SOLVENT_HAVE_CUDA)
      set(_have_cuda ${SOLVENT_HAVE_CUDA})
    elseif("CUDA" IN_LIST _languages)
      set(_have_cuda ON)
    else()
      set(_have_cuda OFF)
    endif()
    if(NOT _have_cuda)
      message(STATUS "Solvent: skipping CUDA plugin ${name} (no CUDA compiler)")
      return()
    endif()
    if(NOT TARGET Solvent::cuda)
      message(STATUS "Solvent: skipping CUDA plugin ${name} (this Solvent was built without CUDA)")
      return()
    endif()
    if(NOT TARGET CUDA::cudart)
      find_package(CUDAToolkit REQUIRED)
    endif()
  endif()
  set(_output "${SOLVENT_PLUGIN_OUTPUT_DIRECTORY}")
  if(NOT _output)
    set(_output "${CMAKE_BINARY_DIR}/lib/solvent")
  endif()
  set(_rpath "$ORIGIN/..;$ORIGIN")
  if(SOLVENT_CORE_LIBRARY_DIR)
    list(APPEND _rpath "${SOLVENT_CORE_LIBRARY_DIR}")
  endif()
  add_library(${name} MODULE ${P_SOURCES})
  target_link_libraries(${name} PRIVATE Solvent::core ${P_LIBRARIES})
  # A package's private headers are included by their path in the package ("src/x.hpp").
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  set_target_properties(${name} PROPERTIES
    PREFIX "libsolvent-"
    CXX_VISIBILITY_PRESET hidden
    CUDA_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY "${_output}"
    INSTALL_RPATH "${_rpath}")
  if(P_CUDA)
    # Every CUDA plugin links the SDK's device layer and the shared CUDA runtime, so all
    # plugins of one process share one runtime and one device context.
    target_link_libraries(${name} PRIVATE Solvent::cuda CUDA::cudart)
    set_target_properties(${name} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF
      CUDA_RUNTIME_LIBRARY Shared)
  endif()
  if(P_OPENMP)
    # OpenMP where it is found, else one thread (its pragmas then ignored).
    if(NOT TARGET OpenMP::OpenMP_CXX)
      find_package(OpenMP QUIET)
    endif()
    if(TARGET OpenMP::OpenMP_CXX)
      target_link_libraries(${name} PRIVATE OpenMP::OpenMP_CXX)
    else()
      message(STATUS "Solvent: ${name} built without OpenMP (one thread)")
      target_compile_options(${name} PRIVATE -Wno-unknown-pragmas)
    endif()
  endif()
  if(SOLVENT_PLUGIN_INSTALL_DIR)
    install(TARGETS ${name} LIBRARY DESTINATION ${SOLVENT_PLUGIN_INSTALL_DIR})
  endif()
endfunction()
