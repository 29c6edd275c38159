/**
 * {@code torch.export}: a module's forward captured ahead of time as a functional graph with its signature and state
 * ({@link org.jtorch.export.Export}, {@link org.jtorch.export.ExportedProgram}).
 */
package org.jtorch.export;
