// The stack as a tree for the run report (html_report.h): nested HTML
// lists, each node a box with its figures over the run (ops and bytes per
// direction, flushes, busy %, mean and peak queue depth, hit rates, the
// peak of what a volatile cache held). Thread-compatible.
#ifndef STORLAB_WORKLOADS_REPORT_STACK_TREE_H_
#define STORLAB_WORKLOADS_REPORT_STACK_TREE_H_

#include <string>

#include "sim/stack.h"
#include "workloads/report/run_sampler.h"

namespace storlab::report {

// Every node of `stack` under the nodes no other node has as a child, in
// the stack's order; figures between the sampler's first and last sample.
std::string StackTree(const Stack& stack, const RunSampler& sampler);

}  // namespace storlab::report

#endif  // STORLAB_WORKLOADS_REPORT_STACK_TREE_H_
