/**
 * {@code torch.utils._debug_mode}: {@link org.jtorch.debug.DebugMode} records every op dispatched on the current thread
 * while it is open, as a hierarchical text log and as structured {@link org.jtorch.debug.DebugRecord}s, optionally with
 * a {@link org.jtorch.debug.TensorHash} of every input and output, so that two runs can be compared op by op
 * ({@link org.jtorch.debug.DebugMode#firstDivergence}). It is an interpreter on the thread's
 * {@link org.jtorch.dispatch.DispatchState} stack; nothing of it runs while no mode is open.
 */
package org.jtorch.debug;
