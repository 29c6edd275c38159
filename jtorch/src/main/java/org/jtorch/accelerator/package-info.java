/**
 * {@code torch.accelerator}: the backend-agnostic facade over the current accelerator, which is the device backend
 * found through {@link org.jtorch.accelerator.spi.DeviceBackend}. With no backend on the class path the facade reports
 * that no accelerator is present, exactly as PyTorch does on a CPU-only machine.
 */
package org.jtorch.accelerator;
