# Sourced by the real-time benchmarks: guest halt polling. On a virtual
# machine an idle vCPU halts (`hlt`, an exit to the host), and waking it
# for a timer or a thread takes the host's round trip. This project's VMs
# boot with the cpuidle-haltpoll driver but polling off
# (haltpoll.guest_halt_poll_ns=0): every QD1 request through an export
# wakes three or four threads, and `nbdkit memory` answers a 4K read at
# QD1 in 43.8 us at the median there, 22.1 us with polling on — which
# decides how close a fast device comes (docs/nbd.md and docs/fusefs.md,
# stop 57). With HALT_POLL_NS=N in the
# environment (root), an idle vCPU polls up to N ns before it halts for
# the run, and the old setting is restored at exit. 200000 is the
# governor's own default (guest_halt_poll_ns in Linux's
# drivers/cpuidle/governors/haltpoll.c) and what a KVM host polls on its
# side by default (KVM_HALT_POLL_NS_DEFAULT, arch/x86/include/asm/
# kvm_host.h); bare metal's shallow C-states give the same.
# Linux: Documentation/virt/guest-halt-polling.rst.
#
#   halt_poll_apply     apply HALT_POLL_NS, if set; print the setting
#   halt_poll_restore   put back what was there before (in the EXIT trap)

halt_poll_param=/sys/module/haltpoll/parameters/guest_halt_poll_ns
halt_poll_saved=

halt_poll_apply() {
  if [[ ! -r $halt_poll_param ]]; then
    [[ -z ${HALT_POLL_NS:-} ]] || { echo "HALT_POLL_NS: no guest halt polling here ($halt_poll_param)" >&2; exit 2; }
    echo "guest halt polling: not available (bare metal, or no cpuidle-haltpoll)"
    return
  fi
  if [[ -n ${HALT_POLL_NS:-} ]]; then
    [[ $HALT_POLL_NS =~ ^[0-9]+$ ]] || { echo "HALT_POLL_NS: nanoseconds, not '$HALT_POLL_NS'" >&2; exit 2; }
    halt_poll_saved=$(<"$halt_poll_param")
    echo "$HALT_POLL_NS" >"$halt_poll_param" || { echo "HALT_POLL_NS: cannot set $halt_poll_param (root?)" >&2; exit 2; }
  fi
  echo "guest halt polling: $(<"$halt_poll_param") ns (HALT_POLL_NS=N sets it for a run)"
}

halt_poll_restore() {
  [[ -z $halt_poll_saved ]] || echo "$halt_poll_saved" >"$halt_poll_param"
  halt_poll_saved=
}
