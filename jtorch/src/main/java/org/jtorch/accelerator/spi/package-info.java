/**
 * The device backend SPI: {@link org.jtorch.accelerator.spi.DeviceBackend} (found with
 * {@link java.util.ServiceLoader}) contributes a device type with its memory, copies, generators and
 * per-op kernels ({@link org.jtorch.accelerator.spi.KernelTable}); {@link org.jtorch.accelerator.spi.Backends}
 * is the registry the dispatcher, {@code Tensor.empty} and the {@code Accelerator} facade consult for every
 * device other than the CPU and meta.
 */
package org.jtorch.accelerator.spi;
