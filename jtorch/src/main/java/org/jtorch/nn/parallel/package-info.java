/**
 * {@code torch.nn.parallel}: {@link org.jtorch.nn.parallel.DistributedDataParallel}, data-parallel training over the
 * ranks of an {@code org.jtorch.distributed} process group.
 */
package org.jtorch.nn.parallel;
