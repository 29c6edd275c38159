package org.jtorch.onnx;

import com.google.protobuf.ByteString;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.onnx.proto.OnnxProto.TensorProto;
import org.jtorch.onnx.proto.OnnxProto.TensorProto.DataType;

/** JTorch tensors and dtypes as ONNX {@code TensorProto}s and element types. */
final class TensorProtos {
    private TensorProtos() {}

    /** ONNX's element type for a JTorch dtype; complex and the 8-bit formats ONNX lacks are refused. */
    static DataType dataType(DType dtype) {
        return switch (dtype) {
            case BOOL -> DataType.BOOL;
            case UINT8 -> DataType.UINT8;
            case UINT16 -> DataType.UINT16;
            case UINT32 -> DataType.UINT32;
            case UINT64 -> DataType.UINT64;
            case INT8 -> DataType.INT8;
            case INT16 -> DataType.INT16;
            case INT32 -> DataType.INT32;
            case INT64 -> DataType.INT64;
            case FLOAT16 -> DataType.FLOAT16;
            case BFLOAT16 -> DataType.BFLOAT16;
            case FLOAT32 -> DataType.FLOAT;
            case FLOAT64 -> DataType.DOUBLE;
            case FLOAT8_E4M3FN -> DataType.FLOAT8E4M3FN;
            case FLOAT8_E5M2 -> DataType.FLOAT8E5M2;
            case FLOAT8_E4M3FNUZ -> DataType.FLOAT8E4M3FNUZ;
            case FLOAT8_E5M2FNUZ -> DataType.FLOAT8E5M2FNUZ;
            case COMPLEX64 -> DataType.COMPLEX64;
            case COMPLEX128 -> DataType.COMPLEX128;
            default -> throw new TorchException("onnx export: dtype " + dtype + " has no ONNX element type");
        };
    }

    /** The JTorch dtype of an ONNX element type, or null when JTorch has none. */
    static DType dtypeOf(int dataType) {
        for (DType d : DType.values()) {
            try {
                if (dataType(d).getNumber() == dataType) return d;
            } catch (TorchException noOnnxType) {
                // a JTorch dtype without an ONNX element type cannot be the answer
            }
        }
        return null;
    }

    /**
     * The value of an initializer whose data is inline ({@code raw_data}, or {@code int64_data} as {@link #int64s}
     * writes), or null when it holds none (a weight written later by the model writer).
     */
    static Tensor valueOf(TensorProto t) {
        DType dtype = dtypeOf(t.getDataType());
        if (dtype == null) return null;
        long[] dims = t.getDimsList().stream().mapToLong(Long::longValue).toArray();
        if (t.hasRawData()) {
            ByteBuffer bytes = ByteBuffer.wrap(t.getRawData().toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
            return Torch.asarray(bytes, dtype).reshape(dims);
        }
        if (dtype == DType.INT64 && t.getInt64DataCount() > 0) {
            long[] values =
                    t.getInt64DataList().stream().mapToLong(Long::longValue).toArray();
            return Torch.tensor(values).reshape(dims);
        }
        return null;
    }

    /** The tensor's data as one row-major, little-endian run of bytes (ONNX's raw_data layout). */
    static byte[] littleEndianBytes(Tensor t) {
        Tensor c = t.detach().contiguous();
        long size = c.numel() * c.dtype().itemSize();
        if (size > Integer.MAX_VALUE - 8) {
            throw new TorchException("onnx export: a tensor of " + size + " bytes does not fit one array");
        }
        byte[] out = new byte[(int) size];
        MemorySegment src = c.impl().storage().segment();
        MemorySegment.copy(src, c.storageOffset() * c.dtype().itemSize(), MemorySegment.ofArray(out), 0, size);
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN)
            swapElements(out, c.dtype().itemSize());
        return out;
    }

    private static void swapElements(byte[] bytes, int width) {
        for (int start = 0; start < bytes.length; start += width) {
            for (int i = 0, j = width - 1; i < j; i++, j--) {
                byte b = bytes[start + i];
                bytes[start + i] = bytes[start + j];
                bytes[start + j] = b;
            }
        }
    }

    /** A named tensor proto holding the data inline (raw_data). */
    static TensorProto of(String name, Tensor t) {
        return header(name, t)
                .setRawData(ByteString.copyFrom(littleEndianBytes(t)))
                .build();
    }

    /** The proto's name, element type and dims, without data. */
    static TensorProto.Builder header(String name, Tensor t) {
        TensorProto.Builder b = TensorProto.newBuilder()
                .setName(name)
                .setDataType(dataType(t.dtype()).getNumber());
        for (long d : t.shape()) b.addDims(d);
        return b;
    }

    /** An int64 vector constant (shapes, axes, slice bounds). */
    static TensorProto int64s(String name, long... values) {
        TensorProto.Builder b = TensorProto.newBuilder()
                .setName(name)
                .setDataType(DataType.INT64.getNumber())
                .addDims(values.length);
        for (long v : values) b.addInt64Data(v);
        return b.build();
    }

    /** A rank-0 constant of the given dtype holding {@code value}. */
    static TensorProto scalar(String name, DType dtype, double value) {
        TensorProto.Builder b = TensorProto.newBuilder()
                .setName(name)
                .setDataType(dataType(dtype).getNumber());
        MemorySegment bytes = MemorySegment.ofArray(new byte[dtype.itemSize()]);
        switch (dtype) {
            case FLOAT32 ->
                bytes.set(ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0, (float) value);
            case FLOAT64 -> bytes.set(ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0, value);
            case INT64 ->
                bytes.set(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0, (long) value);
            case INT32 -> bytes.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0, (int) value);
            case BOOL -> bytes.set(ValueLayout.JAVA_BYTE, 0, (byte) (value != 0 ? 1 : 0));
            default -> {
                return of(name, Torch.scalarTensor(value).to(dtype));
            }
        }
        return b.setRawData(ByteString.copyFrom(bytes.toArray(ValueLayout.JAVA_BYTE)))
                .build();
    }
}
