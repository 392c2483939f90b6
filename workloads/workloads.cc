// The workloads library: see workloads/fio/ (virtual-time fio) and
// workloads/demo (the seed table).
