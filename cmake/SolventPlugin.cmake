# solvent_add_plugin(NAME SOURCES ... [CUDA] [LIBRARIES ...])
# One shared library per plugin: hidden visibility (only the descriptor is exported),
# RPATH to find the core, output next to the other plugins, and the core's compile
# definitions (BOOST_DLL_USE_STD_FS, SOLVENT_VERSION) through Solvent::core.
# With CUDA, the plugin is skipped (one message) when no CUDA compiler was found.
function(solvent_add_plugin name)
  cmake_parse_arguments(P "CUDA" "" "SOURCES;LIBRARIES" ${ARGN})
  if(P_CUDA AND NOT SOLVENT_HAVE_CUDA)
    message(STATUS "Solvent: skipping CUDA plugin ${name} (no CUDA compiler)")
    return()
  endif()
  add_library(${name} MODULE ${P_SOURCES})
  target_link_libraries(${name} PRIVATE Solvent::core ${P_LIBRARIES})
  set_target_properties(${name} PROPERTIES
    PREFIX "libsolvent-"
    CXX_VISIBILITY_PRESET hidden
    CUDA_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY "${SOLVENT_PLUGIN_OUTPUT_DIRECTORY}"
    INSTALL_RPATH "$ORIGIN/..;$ORIGIN")
  if(P_CUDA)
    set_target_properties(${name} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
  endif()
  if(SOLVENT_PLUGIN_INSTALL_DIR)
    install(TARGETS ${name} LIBRARY DESTINATION ${SOLVENT_PLUGIN_INSTALL_DIR})
  endif()
endfunction()
