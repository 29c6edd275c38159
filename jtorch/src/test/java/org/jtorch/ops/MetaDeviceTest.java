package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.Test;

/** The meta device runs meta rules only: shapes, dtypes and errors, and never allocates data. */
class MetaDeviceTest {
    @Test
    void hugeTensorsCostNothing() {
        Tensor m = Torch.zeros(new long[] {1 << 20, 1 << 20}, DType.BFLOAT16, Device.META);
        Tensor r = m.exp().add(Torch.zeros(new long[] {1 << 20}, DType.FLOAT32, Device.META));
        assertEquals(Device.META, r.device());
        assertEquals(DType.FLOAT32, r.dtype());
        assertArrayEquals(new long[] {1 << 20, 1 << 20}, r.shape());
        assertThrows(TorchException.class, m::item);
    }

    @Test
    void errorsMatchTheRealDevice() {
        Tensor a = Torch.zeros(new long[] {2, 3}, DType.FLOAT32, Device.META);
        Tensor b = Torch.zeros(new long[] {4, 3}, DType.FLOAT32, Device.META);
        TorchException e = assertThrows(TorchException.class, () -> a.add(b));
        assertTrue(e.getMessage()
                .contains("The size of tensor a (2) must match the size of tensor b (4) at non-singleton dimension 0"));
        Tensor ca = Torch.zeros(2, 3), cb = Torch.zeros(4, 3);
        TorchException real = assertThrows(TorchException.class, () -> ca.add(cb));
        assertEquals(e.getMessage(), real.getMessage());
    }

    @Test
    void mixingDevicesIsRefused() {
        Tensor m = Torch.zeros(new long[] {2}, DType.FLOAT32, Device.META);
        TorchException e = assertThrows(TorchException.class, () -> m.add(Torch.zeros(2)));
        assertTrue(e.getMessage().contains("Expected all tensors to be on the same device"));
        // a 0-d CPU tensor acts as a scalar
        assertEquals(Device.META, m.add(Torch.scalarTensor(1.0)).device());
    }

    @Test
    void metaShapesEqualRealShapesForPointwise() {
        long[][] shapes = {{2, 1, 3}, {4, 3}, {}, {0, 3}};
        for (long[] s1 : shapes) {
            for (long[] s2 : shapes) {
                Tensor r1, m1;
                try {
                    r1 = Torch.zeros(s1).mul(Torch.zeros(s2));
                } catch (TorchException e) {
                    assertThrows(TorchException.class, () -> Torch.zeros(s1, DType.FLOAT32, Device.META)
                            .mul(Torch.zeros(s2, DType.FLOAT32, Device.META)));
                    continue;
                }
                m1 = Torch.zeros(s1, DType.FLOAT32, Device.META).mul(Torch.zeros(s2, DType.FLOAT32, Device.META));
                assertArrayEquals(r1.shape(), m1.shape());
                assertEquals(r1.dtype(), m1.dtype());
            }
        }
    }
}
