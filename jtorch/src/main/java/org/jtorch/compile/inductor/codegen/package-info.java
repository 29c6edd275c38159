/**
 * Code generation for the compiler backend: each structure of {@link org.jtorch.compile.inductor.ir.LoopKernel} becomes
 * one class, which takes the kernel's sizes, strides and offsets as run-time arguments, with Vector API loops over
 * contiguous runs, scalar tails and strided fallbacks. Its class file is written directly with the JDK's
 * {@code java.lang.classfile} API ({@link org.jtorch.compile.inductor.codegen.KernelBytecode}) and loaded as a hidden
 * class ({@link org.jtorch.compile.inductor.codegen.KernelCompiler}), cached by its readable Java listing
 * ({@link org.jtorch.compile.inductor.codegen.KernelSource}, which names the sizes instead of holding them), which the
 * structured trace shows.
 */
package org.jtorch.compile.inductor.codegen;
