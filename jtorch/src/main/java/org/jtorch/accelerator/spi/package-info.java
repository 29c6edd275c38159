/**
 * The device backend SPI: {@link org.jtorch.accelerator.spi.DeviceBackend} (found with {@link java.util.ServiceLoader})
 * contributes a device type with its memory, copies, generators and per-op kernels
 * ({@link org.jtorch.accelerator.spi.KernelTable}, keyed by the ops' qualified names). The registry of the loaded
 * backends, which the op layer, {@code Tensor.empty} and the {@code Accelerator} facade consult for every device other
 * than the CPU and meta, is internal ({@code org.jtorch.ops.Backends}).
 *
 * <p>A backend works on the library's storage ({@code org.jtorch.storage}) and meta rules' results
 * ({@code org.jtorch.dispatch.Spec}), which the module does not export. With JTorch on the class path a backend sees
 * them; on the module path they must be granted at launch ({@code --add-exports org.jtorch/org.jtorch.storage=M}, the
 * same for {@code org.jtorch.dispatch}, where M is the backend's module, or {@code ALL-UNNAMED}), as a PyTorch
 * out-of-tree backend builds against ATen's internal headers.
 */
package org.jtorch.accelerator.spi;
