# Profile-guided optimization of a Release build with GCC (-DSTORLAB_PGO=ON).
#
# As CPython's `./configure --enable-optimizations` does: the build first
# makes an instrumented `storlab` in ${CMAKE_BINARY_DIR}/pgo/instrumented (a
# nested build of this source tree with the same options), runs it on a
# training workload (cmake/pgo_train.cmake: `storlab demo`, on one thread),
# and compiles the simulator's libraries and the `storlab` program with the
# profile it wrote (-fprofile-use). GCC then lays out hot paths together,
# inlines where calls are hot and predicts branches from the counts; the
# program's output is the same bytes (no value-changing optimization is
# enabled: no -ffast-math). `storlab demo` 14-17 % less CPU on top of
# link-time optimization (docs/sim.md "Speed").
#
# The profile is remade when the instrumented program changes (any source it
# is built from); an object that is not recompiled keeps the profile it was
# built with, which matches its code. Functions the training never ran (the
# exports' real-time paths) are optimized as without a profile
# (-fprofile-partial-training), not as cold code.
#
# Internal: STORLAB_PGO=GENERATE is the nested build's mode, with
# STORLAB_PGO_DATA the directory its counters go to.
#
# Included before the targets (the nested build's flags apply to all of
# them); storlab_pgo_use() runs after them.

set(STORLAB_PGO OFF CACHE STRING
    "Profile-guided optimization of a Release build with GCC: ON trains first (cmake/pgo.cmake)")
if(STORLAB_PGO STREQUAL "GENERATE")
  # -fprofile-prefix-path: the counter files are named by each object's path
  # below the build directory, so the outer build finds them under its own.
  # The training runs on one thread, so single (not atomic) updates are exact.
  add_compile_options(-fprofile-generate=${STORLAB_PGO_DATA}
                      -fprofile-prefix-path=${CMAKE_BINARY_DIR} -fprofile-update=single)
  add_link_options(-fprofile-generate=${STORLAB_PGO_DATA})
elseif(STORLAB_PGO AND (NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU"
                        OR NOT CMAKE_BUILD_TYPE STREQUAL "Release"))
  message(FATAL_ERROR "STORLAB_PGO needs a Release build with GCC "
                      "(here: ${CMAKE_CXX_COMPILER_ID}, ${CMAKE_BUILD_TYPE})")
endif()

function(storlab_pgo_use)
  if(NOT STORLAB_PGO OR STORLAB_PGO STREQUAL "GENERATE")
    return()
  endif()

  set(storlab_pgo_dir ${CMAKE_BINARY_DIR}/pgo)
  set(storlab_pgo_build ${storlab_pgo_dir}/instrumented)
  set(storlab_pgo_data ${storlab_pgo_dir}/data)
  set(storlab_pgo_stamp ${storlab_pgo_dir}/trained)
  file(MAKE_DIRECTORY ${storlab_pgo_dir})

  # The nested build: the same options as this one (so every unity source
  # holds the same files and the profile matches), no tests, the counters on.
  execute_process(
    COMMAND ${CMAKE_COMMAND} -S ${PROJECT_SOURCE_DIR} -B ${storlab_pgo_build} -G ${CMAKE_GENERATOR}
            -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
            "-DCMAKE_CXX_FLAGS=${CMAKE_CXX_FLAGS}" -DCMAKE_UNITY_BUILD=${CMAKE_UNITY_BUILD}
            -DSTORLAB_LTO=${STORLAB_LTO} -DSTORLAB_FUSE=${STORLAB_FUSE} -DSTORLAB_NBD=${STORLAB_NBD}
            -DSTORLAB_TESTS=OFF -DSTORLAB_PGO=GENERATE -DSTORLAB_PGO_DATA=${storlab_pgo_data}
    OUTPUT_FILE ${storlab_pgo_dir}/configure.log ERROR_FILE ${storlab_pgo_dir}/configure.log
    RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "STORLAB_PGO: configuring the instrumented build failed "
                        "(${storlab_pgo_dir}/configure.log)")
  endif()

  # Builds the instrumented program (a no-op when it is up to date: ninja
  # leaves it untouched, and the training below does not run again).
  add_custom_target(
    storlab_pgo_instrumented
    COMMAND ${CMAKE_COMMAND} --build ${storlab_pgo_build} --target storlab
    BYPRODUCTS ${storlab_pgo_build}/cli/storlab
    COMMENT "STORLAB_PGO: the instrumented storlab"
    USES_TERMINAL)
  add_custom_command(
    OUTPUT ${storlab_pgo_stamp}
    COMMAND ${CMAKE_COMMAND} -DSTORLAB=${storlab_pgo_build}/cli/storlab -DDATA=${storlab_pgo_data}
            -DLOG=${storlab_pgo_dir}/train.log -DSTAMP=${storlab_pgo_stamp}
            -P ${PROJECT_SOURCE_DIR}/cmake/pgo_train.cmake
    DEPENDS ${storlab_pgo_build}/cli/storlab ${PROJECT_SOURCE_DIR}/cmake/pgo_train.cmake
    COMMENT "STORLAB_PGO: training (storlab demo on one thread, ~1 minute)"
    USES_TERMINAL)
  add_custom_target(storlab_pgo_profile DEPENDS ${storlab_pgo_stamp})
  add_dependencies(storlab_pgo_profile storlab_pgo_instrumented)

  # The simulator's libraries and the storlab program (CMakeLists.txt).
  foreach(t ${STORLAB_PROGRAM_TARGETS})
    add_dependencies(${t} storlab_pgo_profile)
    target_compile_options(
      ${t} PRIVATE -fprofile-use=${storlab_pgo_data} -fprofile-prefix-path=${CMAKE_BINARY_DIR}
                   -fprofile-partial-training -Wno-missing-profile)
    # A generated source (the embedded catalog) lies in each build's own
    # tree, so its functions' recorded locations differ between the two
    # builds: it is compiled without the profile (it runs once, at start).
    get_target_property(srcs ${t} SOURCES)
    foreach(src ${srcs})
      get_source_file_property(generated ${src} TARGET_DIRECTORY ${t} GENERATED)
      if(generated)
        set_source_files_properties(${src} TARGET_DIRECTORY ${t} PROPERTIES COMPILE_OPTIONS
                                    -fno-profile-use)
      endif()
    endforeach()
  endforeach()
  message(STATUS "storlab: profile-guided optimization (trained in ${storlab_pgo_dir})")
endfunction()
