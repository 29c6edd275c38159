package org.jtorch.fx;

import org.jtorch.DType;

/** The short dtype names of PyTorch's {@code torch.utils._dtype_abbrs}, which graph printouts use. */
final class DTypeAbbreviation {
    private DTypeAbbreviation() {}

    /** {@code f32}, {@code i64}, {@code b8}...; bcomplex32, which PyTorch's table lacks, is {@code bc32}. */
    static String of(DType d) {
        return switch (d) {
            case BOOL -> "b8";
            case UINT8 -> "u8";
            case UINT16 -> "u16";
            case UINT32 -> "u32";
            case UINT64 -> "u64";
            case INT8 -> "i8";
            case INT16 -> "i16";
            case INT32 -> "i32";
            case INT64 -> "i64";
            case FLOAT16 -> "f16";
            case BFLOAT16 -> "bf16";
            case FLOAT32 -> "f32";
            case FLOAT64 -> "f64";
            case FLOAT8_E4M3FN -> "f8e4m3fn";
            case FLOAT8_E5M2 -> "f8e5m2";
            case FLOAT8_E4M3FNUZ -> "f8e4m3fnuz";
            case FLOAT8_E5M2FNUZ -> "f8e5m2fnuz";
            case FLOAT8_E8M0FNU -> "f8e8m0fnu";
            case COMPLEX32 -> "c32";
            case BCOMPLEX32 -> "bc32";
            case COMPLEX64 -> "c64";
            case COMPLEX128 -> "c128";
        };
    }
}
