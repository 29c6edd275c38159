/**
 * {@code torch.distributed} on Open MPI: {@link org.jtorch.distributed.Distributed} (process groups, collectives,
 * point-to-point), {@link org.jtorch.distributed.Work} for asynchronous calls, and
 * {@link org.jtorch.distributed.DistributedException}. See docs/distributed.md for running on one host and several.
 */
package org.jtorch.distributed;
