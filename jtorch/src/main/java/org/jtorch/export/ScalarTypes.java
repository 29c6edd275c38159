package org.jtorch.export;

import org.jtorch.DType;
import org.jtorch.TorchException;

/**
 * The export schema's {@code ScalarType} codes ({@code torch/_export/serde/schema.py}), which name dtypes in a
 * {@code .pt2} archive: {@code FLOAT = 7}, {@code LONG = 5}... Complex32 and the dtypes the schema has no code for
 * cannot be saved.
 */
final class ScalarTypes {
    private ScalarTypes() {}

    /** The code of {@code dtype}. */
    static int code(DType dtype) {
        return switch (dtype) {
            case UINT8 -> 1;
            case INT8 -> 2;
            case INT16 -> 3;
            case INT32 -> 4;
            case INT64 -> 5;
            case FLOAT16 -> 6;
            case FLOAT32 -> 7;
            case FLOAT64 -> 8;
            case COMPLEX32 -> 9;
            case COMPLEX64 -> 10;
            case COMPLEX128 -> 11;
            case BOOL -> 12;
            case BFLOAT16 -> 13;
            case UINT16 -> 28;
            case FLOAT8_E4M3FN -> 29;
            case FLOAT8_E5M2 -> 30;
            case FLOAT8_E4M3FNUZ -> 31;
            case FLOAT8_E5M2FNUZ -> 32;
            case FLOAT8_E8M0FNU -> 33;
            case UINT32 -> 34;
            case UINT64 -> 35;
            default -> throw new TorchException("torch.export.save: the export schema has no scalar type for " + dtype);
        };
    }

    /** The dtype of {@code code}; {@code what} names the value in the error. */
    static DType dtype(long code, String what) {
        for (DType d : DType.values()) {
            try {
                if (code(d) == code) return d;
            } catch (TorchException noCode) {
                // a dtype the schema cannot name is never the answer
            }
        }
        throw new TorchException(what + ": unknown scalar type code " + code);
    }
}
