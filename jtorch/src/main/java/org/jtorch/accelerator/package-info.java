/**
 * {@code torch.accelerator}: the backend-agnostic facade over the current accelerator. API layer; imports
 * only the {@code org.jtorch} value types. This build is CPU-only, so the facade reports that no
 * accelerator is present, exactly as PyTorch does on a CPU-only machine.
 */
package org.jtorch.accelerator;
