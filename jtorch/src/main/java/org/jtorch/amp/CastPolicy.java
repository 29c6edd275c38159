package org.jtorch.amp;

/**
 * How autocast treats an op's floating-point tensor arguments: ATen's {@code at::autocast::CastPolicy}, the part of it
 * that CPU autocast uses. Only float32, float16 and bfloat16 arguments on the CPU are cast (ATen's
 * {@code is_autocast_eligible}); float64, integer and boolean tensors are left as they are.
 */
public enum CastPolicy {
    /** {@code lower_precision_fp}: cast to the scope's dtype (bfloat16 or float16): matrix products, convolutions. */
    LOWER_PRECISION_FP,
    /** {@code fp32}: cast to float32, for ops whose accuracy suffers in 16 bits: losses, most linear algebra. */
    FP32,
    /**
     * {@code promote}: cast to the widest dtype among the arguments and the scope's dtype, for ops that need equal
     * dtypes ({@code cat}, {@code stack}, {@code index_copy}).
     */
    PROMOTE
}
