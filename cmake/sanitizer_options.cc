// Default runtime options of the sanitizers, compiled into every executable
// of a STORLAB_SANITIZE build (the runtimes call these hooks at start-up).
// ASAN_OPTIONS / UBSAN_OPTIONS / LSAN_OPTIONS in the environment override them.
//
// No suppressions: nothing in storlab or its libraries needs one today. Add a
// suppressions file only for a finding in a third-party library that cannot
// be fixed here, with the reason beside each entry.

extern "C" {

// Stop at the first error (also for errors ASan could continue past), check
// that stack memory is not used after return, and that globals are not used
// before their initialisers ran. Leaks are reported at exit (LeakSanitizer).
const char* __asan_default_options() {  // NOLINT(bugprone-reserved-identifier)
  return "halt_on_error=1:detect_leaks=1:"
         "detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:"
         "strict_string_checks=1:print_summary=1";
}

// -fno-sanitize-recover=all already aborts on the first finding; print where.
const char* __ubsan_default_options() {  // NOLINT(bugprone-reserved-identifier)
  return "halt_on_error=1:print_stacktrace=1:print_summary=1";
}

}  // extern "C"
