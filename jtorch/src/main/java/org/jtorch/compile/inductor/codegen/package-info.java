/**
 * Code generation for the compiler backend: each {@link org.jtorch.compile.inductor.ir.LoopKernel} becomes the Java
 * source of one class ({@link org.jtorch.compile.inductor.codegen.KernelSource}) with Vector API loops over contiguous
 * runs, scalar tails and strided fallbacks; the sources of a graph are compiled in one {@code javax.tools} task and
 * loaded as hidden classes ({@link org.jtorch.compile.inductor.codegen.KernelCompiler}), cached by source.
 */
package org.jtorch.compile.inductor.codegen;
