/**
 * The structured compile trace, PyTorch's {@code TORCH_TRACE}: every stage of a compile (the captured graph, its
 * guards, the AOT graphs, the backend's output, metrics, graph breaks, recompile reasons, timing spans) written as
 * glog-prefixed JSON records with payloads, one file per process, in the format that {@code tlparse} reads.
 *
 * <p>{@link org.jtorch.compile.trace.StructuredTrace} is the writer: it is on when the system property
 * {@code jtorch.trace.dir} or the environment variable {@code TORCH_TRACE} names a directory, or after
 * {@link org.jtorch.compile.trace.StructuredTrace#start(java.nio.file.Path)}; every event method returns at once when
 * it is off. The report ({@code bin/jtorch-trace DIR}, the class {@code org.jtorch.compile.trace.report.TraceReport})
 * turns the files into static HTML.
 */
package org.jtorch.compile.trace;
