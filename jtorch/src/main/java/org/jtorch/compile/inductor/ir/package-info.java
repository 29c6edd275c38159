/**
 * The compiler backend's loop-level IR: scalar expressions over a kernel's index variables
 * ({@link org.jtorch.compile.inductor.ir.Expr}), affine buffer accesses ({@link org.jtorch.compile.inductor.ir.Access})
 * and loop kernels ({@link org.jtorch.compile.inductor.ir.LoopKernel}): a pointwise loop nest, or rows of reductions
 * followed by per-row and per-element stores.
 */
package org.jtorch.compile.inductor.ir;
