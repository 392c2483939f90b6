# STORLAB_PGO's training run (cmake/pgo.cmake): the instrumented storlab
# runs the seed table, its twelve 60-second jobs whole (with 10-second jobs
# the long phases — a NAS's end_fsync, a ZFS pool past its SSD's SLC — do
# not show, and the build gained half as much), on one thread (its counters
# are updated without atomics), and writes its profile into DATA.
# Invoked as: cmake -DSTORLAB=... -DDATA=... -DLOG=... -DSTAMP=... -P pgo_train.cmake
file(REMOVE_RECURSE "${DATA}")
execute_process(COMMAND "${STORLAB}" demo --runtime 60 --threads 1
                OUTPUT_FILE "${LOG}" ERROR_FILE "${LOG}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "STORLAB_PGO: the training run failed (${rc}; ${LOG})")
endif()
file(TOUCH "${STAMP}")
