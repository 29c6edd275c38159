package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.Test;

/** The examples of spec/creation-and-dtypes.md §7, verbatim. */
class TypePromotionTest {
    private static Tensor dim(DType d) {
        return Torch.zeros(new long[] {2}, d);
    }

    private static Tensor zeroDim(DType d) {
        return Torch.zeros(new long[0], d);
    }

    @Test
    void scalarsDoNotPromoteWithinTheirCategory() {
        assertEquals(DType.INT32, Torch.resultType(dim(DType.INT32), 5L));
        assertEquals(DType.FLOAT32, Torch.resultType(dim(DType.INT32), 5.5));
        assertEquals(DType.INT32, Torch.resultType(dim(DType.INT32), zeroDim(DType.INT64)));
    }

    @Test
    void zeroDimTensorOfHigherCategoryDecides() {
        assertEquals(DType.FLOAT64, Torch.resultType(dim(DType.INT32), zeroDim(DType.FLOAT64)));
        assertEquals(DType.FLOAT32, Torch.resultType(dim(DType.FLOAT32), zeroDim(DType.FLOAT64)));
        assertEquals(DType.FLOAT64, Torch.resultType(dim(DType.FLOAT32), dim(DType.FLOAT64)));
    }

    @Test
    void promoteTypesTable() {
        assertEquals(DType.INT16, Torch.promoteTypes(DType.UINT8, DType.INT8));
        assertEquals(DType.UINT8, Torch.promoteTypes(DType.BOOL, DType.UINT8));
        assertEquals(DType.FLOAT16, Torch.promoteTypes(DType.INT64, DType.FLOAT16));
        assertEquals(DType.FLOAT32, Torch.promoteTypes(DType.FLOAT16, DType.BFLOAT16));
        assertEquals(DType.COMPLEX128, Torch.promoteTypes(DType.COMPLEX64, DType.FLOAT64));
        assertEquals(DType.COMPLEX64, Torch.promoteTypes(DType.COMPLEX32, DType.FLOAT32));
        assertEquals(DType.FLOAT32, Torch.promoteTypes(DType.UINT16, DType.FLOAT32));
    }

    @Test
    void complexScalarKeepsFloatPrecision() {
        assertEquals(
                DType.BCOMPLEX32,
                new TypePromotion.State()
                        .add(dim(DType.BFLOAT16))
                        .add(org.jtorch.Scalar.complex(0, 1))
                        .result());
        assertEquals(
                DType.COMPLEX32,
                new TypePromotion.State()
                        .add(dim(DType.FLOAT16))
                        .add(org.jtorch.Scalar.complex(0, 1))
                        .result());
        assertEquals(
                DType.COMPLEX64,
                new TypePromotion.State()
                        .add(dim(DType.FLOAT32))
                        .add(org.jtorch.Scalar.complex(0, 1))
                        .result());
    }

    @Test
    void refusedPromotions() {
        TorchException u = assertThrows(TorchException.class, () -> Torch.promoteTypes(DType.UINT16, DType.INT32));
        assertTrue(
                u.getMessage().contains("Promotion for uint16, uint32, uint64 types is not supported"), u.getMessage());
        TorchException f =
                assertThrows(TorchException.class, () -> Torch.promoteTypes(DType.FLOAT8_E4M3FN, DType.FLOAT32));
        assertTrue(f.getMessage().contains("Promotion for Float8 Types is not supported"), f.getMessage());
        // and through an op, on the meta device, before any kernel
        assertThrows(TorchException.class, () -> Torch.zeros(new long[] {3}, DType.UINT16, Device.META)
                .add(Torch.zeros(new long[] {3}, DType.INT32, Device.META)));
    }

    @Test
    void canCastRules() {
        assertTrue(Torch.canCast(DType.INT64, DType.FLOAT32));
        assertTrue(!Torch.canCast(DType.FLOAT32, DType.INT64));
        assertTrue(!Torch.canCast(DType.COMPLEX64, DType.FLOAT64));
        assertTrue(!Torch.canCast(DType.INT32, DType.BOOL));
    }

    @Test
    void inPlaceRefusesNarrowingResult() {
        Tensor i = Torch.zeros(new long[] {2}, DType.INT64);
        TorchException e = assertThrows(TorchException.class, () -> i.add_(Torch.ones(2)));
        assertTrue(
                e.getMessage().contains("result type Float can't be cast to the desired output type Long"),
                e.getMessage());
    }
}
