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
 * @param kernelClassesGenerated kernel classes whose class file the backend wrote: kernels that differ only in sizes,
 *     strides and offsets share one class, so this stays below {@code kernels}
 * @param kernelCacheHits kernels that reused a kernel class already loaded in the process (one of the same structure,
 *     whatever its sizes); the kernels counted in neither read their class from the on-disk cache
 * @param planBytesAllocated bytes of storage compiled graphs allocated for the outputs of their kernels and of the
 *     extern calls (matrix products, attention, ...) that write into storage of the graph's: what they keep between
 *     calls (once) and outputs new on each call; a steady-state call of a graph whose outputs are kept
 *     ({@code mode="reduce-overhead"}) adds nothing, nor do intermediates in any mode
 * @param buffersReused such outputs written into storage a compiled graph already held (freed by an earlier buffer of
 *     the same call, or kept from an earlier call)
 * @param externOutputsAllocated results of extern calls that the ops they run allocated, not counted in
 *     {@code planBytesAllocated}: those of ops that cannot write into given storage, and every result of a call
 *     autograd records
 */
public record CompileCounters(
        long frames,
        long graphs,
        long graphBreaks,
        long recompiles,
        long kernels,
        long comboKernels,
        long kernelClassesGenerated,
        long kernelCacheHits,
        long planBytesAllocated,
        long buffersReused,
        long externOutputsAllocated) {}
