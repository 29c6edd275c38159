package org.jtorch.io;

import java.util.HashMap;
import java.util.Map;
import org.jtorch.DType;

/**
 * dtype ↔ storage class names as PyTorch pickles them. The twelve dtypes that had legacy typed storages keep them
 * ({@code torch FloatStorage}, {@code torch BFloat16Storage}, ...) and are rebuilt with {@code _rebuild_tensor_v2};
 * every newer dtype (uint16/32/64, the float8 formats, complex32, ...) is saved as a {@code torch.storage
 * UntypedStorage} of bytes and rebuilt with {@code _rebuild_tensor_v3}, which carries the dtype
 * ({@code torch.storage._new_dtypes()}).
 */
final class StorageTypes {
    static final String UNTYPED = "torch.storage.UntypedStorage";
    private static final Map<String, StorageType> BY_NAME = new HashMap<>();

    static {
        for (DType d : DType.values()) {
            if (isLegacy(d)) {
                String cls = d.cppName() + "Storage";
                BY_NAME.put("torch." + cls, new StorageType(cls, d, false));
                BY_NAME.put("torch.cuda." + cls, new StorageType(cls, d, false));
            }
        }
        for (String q :
                new String[] {"QUInt8Storage", "QInt8Storage", "QInt32Storage", "QUInt4x2Storage", "QUInt2x4Storage"}) {
            BY_NAME.put("torch." + q, new StorageType(q, null, false));
        }
        BY_NAME.put(UNTYPED, new StorageType("UntypedStorage", DType.UINT8, true));
    }

    private StorageTypes() {}

    /** True for the dtypes that pickle with a legacy typed storage class and {@code _rebuild_tensor_v2}. */
    static boolean isLegacy(DType d) {
        return switch (d) {
            case FLOAT64, FLOAT32, FLOAT16, BFLOAT16, INT64, INT32, INT16, INT8, UINT8, BOOL, COMPLEX128, COMPLEX64 ->
                true;
            default -> false;
        };
    }

    /** The storage class a pickled global names ({@code torch.FloatStorage}), or null. */
    static StorageType byQualifiedName(String name) {
        return BY_NAME.get(name);
    }

    /** Module and class of the legacy storage of {@code d}: {@code {"torch", "FloatStorage"}}. */
    static String[] legacyGlobal(DType d) {
        return new String[] {"torch", d.cppName() + "Storage"};
    }
}
