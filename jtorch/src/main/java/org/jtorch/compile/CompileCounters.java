package org.jtorch.compile;

/**
 * What the compiler has done since start-up or the last {@link Compile#reset()} ({@code torch._dynamo.utils.counters}).
 *
 * @param frames compilations started: each first call of a compiled function, and each recompilation
 * @param graphs graphs captured and handed to a backend
 * @param graphBreaks captures ended by an operation a graph cannot hold ({@code item()}, {@code nonzero})
 * @param recompiles compilations of a function that had compiled before, after a guard failed
 * @param kernels kernels the backend generated
 * @param comboKernels kernels the backend made by fusing independent kernels into one (horizontal fusion)
 */
public record CompileCounters(
        long frames, long graphs, long graphBreaks, long recompiles, long kernels, long comboKernels) {}
