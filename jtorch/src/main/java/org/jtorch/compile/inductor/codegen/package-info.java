/**
 * Code generation for the compiler backend: each {@link org.jtorch.compile.inductor.ir.LoopKernel} becomes one class
 * with Vector API loops over contiguous runs, scalar tails and strided fallbacks, its class file written directly with
 * the JDK's {@code java.lang.classfile} API ({@link org.jtorch.compile.inductor.codegen.KernelBytecode}) and loaded as
 * a hidden class ({@link org.jtorch.compile.inductor.codegen.KernelCompiler}), cached by its readable Java listing
 * ({@link org.jtorch.compile.inductor.codegen.KernelSource}), which the structured trace shows.
 */
package org.jtorch.compile.inductor.codegen;
