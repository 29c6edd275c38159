/**
 * {@code jtorch-trace}, JTorch's tlparse: the static HTML report of a structured compile trace
 * ({@link org.jtorch.compile.trace.report.TraceReport}).
 */
package org.jtorch.compile.trace.report;
