/**
 * {@code torch.amp}: {@link org.jtorch.amp.Amp#autocast} regions that run the ops of PyTorch's CPU autocast lists in
 * bfloat16 or float16, in float32 or in the widest input type, and {@link org.jtorch.amp.GradScaler}, which scales
 * float16 losses and skips the steps whose gradients overflow.
 */
package org.jtorch.amp;
