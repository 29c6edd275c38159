package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.jtorch.internal.Shapes;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;
import org.jtorch.testing.Views;
import org.junit.jupiter.api.Test;

/**
 * {@link ComplexOps}: geometry of the component views, storage sharing, values against hand-computed references, the
 * materialised conjugation, meta tensors and PyTorch's errors. Inputs are built from raw interleaved storage, so no op
 * under test builds its own input.
 */
class ComplexOpsTest {

    /** A contiguous complex64 tensor of {@code shape} from interleaved (re, im) values. */
    private static Tensor c64(long[] shape, float... reIm) {
        return Tensor.of(
                TensorImpl.of(Storage.wrap(reIm.clone()), 0, shape, Shapes.contiguousStrides(shape), DType.COMPLEX64));
    }

    private static Tensor f32(long[] shape, float... v) {
        return Tensor.of(
                TensorImpl.of(Storage.wrap(v.clone()), 0, shape, Shapes.contiguousStrides(shape), DType.FLOAT32));
    }

    private static Tensor f64(long[] shape, double... v) {
        return Tensor.of(
                TensorImpl.of(Storage.wrap(v.clone()), 0, shape, Shapes.contiguousStrides(shape), DType.FLOAT64));
    }

    private static long[] s(long... shape) {
        return shape;
    }

    /** [[1+2i, 3+4i, 5+6i], [7+8i, 9+10i, 11+12i]] viewed transposed: shape [3, 2], strides [1, 3]. */
    private static Tensor transposedC64() {
        return Views.of(c64(s(2, 3), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), 0, s(3, 2), s(1, 3));
    }

    // ---- real / imag ------------------------------------------------------------------------------

    @Test
    void realAndImagAreStridedViewsOfTheInterleavedStorage() {
        Tensor z = transposedC64();
        Tensor re = ComplexOps.real(z), im = ComplexOps.imag(z);
        assertEquals(DType.FLOAT32, re.dtype());
        assertArrayEquals(s(3, 2), re.shape());
        assertArrayEquals(s(2, 6), re.stride());
        assertEquals(0, re.storageOffset());
        assertEquals(1, im.storageOffset());
        assertSame(z.untypedStorage(), re.untypedStorage());
        assertSame(z.untypedStorage(), im.untypedStorage());
        assertArrayEquals(new double[] {1, 7, 3, 9, 5, 11}, re.toDoubleArray());
        assertArrayEquals(new double[] {2, 8, 4, 10, 6, 12}, im.toDoubleArray());
    }

    @Test
    void writesThroughTheComponentViewsReachTheComplexTensor() {
        Tensor z = c64(s(2), 1, 2, 3, 4);
        ComplexOps.imag(z).copy_(f32(s(2), -5, -6));
        ComplexOps.real(z).copy_(f32(s(2), 10, 20));
        assertArrayEquals(new double[] {10, -5, 20, -6}, z.toDoubleArray());
    }

    @Test
    void componentViewsKeepAnOffsetInComplexElements() {
        // element 1 of a 3-element complex storage: its real part is float slot 2, its imaginary part slot 3
        Tensor z = Views.of(c64(s(3), 1, 2, 3, 4, 5, 6), 1, s(2), s(1));
        assertEquals(2, ComplexOps.real(z).storageOffset());
        assertEquals(3, ComplexOps.imag(z).storageOffset());
        assertArrayEquals(new double[] {4, 6}, ComplexOps.imag(z).toDoubleArray());
    }

    @Test
    void componentViewsOfEveryComplexDtypeHaveItsRealDtype() {
        Tensor z128 = Tensor.of(TensorImpl.of(Storage.wrap(new double[] {1.5, -2.5}), 0, s(1), s(1), DType.COMPLEX128));
        assertEquals(DType.FLOAT64, ComplexOps.imag(z128).dtype());
        assertEquals(-2.5, ComplexOps.imag(z128).item());
        for (DType d : new DType[] {DType.COMPLEX32, DType.BCOMPLEX32}) {
            Tensor z = Tensor.of(TensorImpl.empty(s(2), d));
            ComplexOps.imag(z).copy_(f32(s(2), 0.5f, -3));
            assertEquals(d.toReal(), ComplexOps.real(z).dtype());
            assertArrayEquals(new double[] {0, 0.5, 0, -3}, z.toDoubleArray(), d.toString());
        }
    }

    @Test
    void realOfARealTensorIsTheTensorItselfAndImagIsATypeError() {
        Tensor x = f32(s(2), 1, 2);
        assertSame(x, ComplexOps.real(x));
        TorchTypeException e = assertThrows(TorchTypeException.class, () -> ComplexOps.imag(x));
        assertEquals("imag is not implemented for tensors with non-complex dtypes.", e.getMessage());
    }

    @Test
    void componentViewsOfEmptyAndMetaTensors() {
        Tensor empty = c64(s(0, 3));
        assertArrayEquals(s(0, 3), ComplexOps.real(empty).shape());
        Tensor meta = Tensor.of(TensorImpl.meta(s(4, 5), DType.COMPLEX128));
        Tensor im = ComplexOps.imag(meta);
        assertEquals(Device.META, im.device());
        assertEquals(DType.FLOAT64, im.dtype());
        assertArrayEquals(s(10, 2), im.stride());
    }

    // ---- view_as_real / view_as_complex ------------------------------------------------------------

    @Test
    void viewAsRealAppendsAPairDimensionWithStrideOne() {
        Tensor r = ComplexOps.viewAsReal(transposedC64());
        assertArrayEquals(s(3, 2, 2), r.shape());
        assertArrayEquals(s(2, 6, 1), r.stride());
        assertEquals(DType.FLOAT32, r.dtype());
        assertArrayEquals(new double[] {1, 2, 7, 8, 3, 4, 9, 10, 5, 6, 11, 12}, r.toDoubleArray());
        TorchTypeException e = assertThrows(TorchTypeException.class, () -> ComplexOps.viewAsReal(f32(s(2), 1, 2)));
        assertEquals("view_as_real is only supported for complex tensors", e.getMessage());
    }

    @Test
    void viewAsComplexPairsTheLastDimension() {
        Tensor x = f32(s(3, 2), 1, 2, 3, 4, 5, 6);
        Tensor z = ComplexOps.viewAsComplex(x);
        assertEquals(DType.COMPLEX64, z.dtype());
        assertArrayEquals(s(3), z.shape());
        assertArrayEquals(s(1), z.stride());
        assertSame(x.untypedStorage(), z.untypedStorage());
        assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6}, z.toDoubleArray());
        // every second row of a [4, 2] tensor: stride 4 floats = 2 complex elements, offset 2 floats = 1 element
        Tensor rows = Views.of(f32(s(4, 2), 1, 2, 3, 4, 5, 6, 7, 8), 2, s(2, 2), s(4, 1));
        Tensor zr = ComplexOps.viewAsComplex(rows);
        assertArrayEquals(s(2), zr.stride());
        assertEquals(1, zr.storageOffset());
        assertArrayEquals(new double[] {3, 4, 7, 8}, zr.toDoubleArray());
    }

    @Test
    void viewAsComplexMapsHalfFloatAndDouble() {
        assertEquals(DType.COMPLEX128, ComplexOps.viewAsComplex(f64(s(2), 1, 2)).dtype());
        Tensor half = Tensor.of(TensorImpl.empty(s(2), DType.FLOAT16));
        assertEquals(DType.COMPLEX32, ComplexOps.viewAsComplex(half).dtype());
        Tensor meta = Tensor.of(TensorImpl.meta(s(5, 2), DType.FLOAT32));
        Tensor zm = ComplexOps.viewAsComplex(meta);
        assertEquals(Device.META, zm.device());
        assertArrayEquals(s(5), zm.shape());
    }

    @Test
    void viewAsRealThenViewAsComplexIsTheSameView() {
        Tensor z = transposedC64();
        Tensor back = ComplexOps.viewAsComplex(ComplexOps.viewAsReal(z));
        assertArrayEquals(z.shape(), back.shape());
        assertArrayEquals(z.stride(), back.stride());
        assertArrayEquals(z.toDoubleArray(), back.toDoubleArray());
    }

    @Test
    void viewAsComplexErrorsAsPyTorch() {
        Tensor nine = f32(s(9), 0, 1, 2, 3, 4, 5, 6, 7, 8);
        assertMessage(
                TorchException.class,
                "Tensor must have a last dimension of size 2",
                () -> ComplexOps.viewAsComplex(f32(s(3), 1, 2, 3)));
        assertMessage(
                TorchException.class,
                "Tensor must have a last dimension with stride 1",
                () -> ComplexOps.viewAsComplex(Views.of(nine, 0, s(3, 2), s(1, 3))));
        assertMessage(
                TorchException.class,
                "Tensor must have a stride divisible by 2 for all but last dimension",
                () -> ComplexOps.viewAsComplex(Views.of(nine, 0, s(3, 2), s(3, 1))));
        assertMessage(
                TorchException.class,
                "Tensor must have a storage_offset divisible by 2",
                () -> ComplexOps.viewAsComplex(Views.of(nine, 1, s(2, 2), s(2, 1))));
        assertMessage(
                TorchException.class,
                "Input tensor must have one or more dimensions",
                () -> ComplexOps.viewAsComplex(f32(s(), 1)));
        assertMessage(
                UnsupportedOperationException.class,
                "view_as_complex is only supported for half, float and double tensors, "
                        + "but got a tensor of scalar type: BFloat16",
                () -> ComplexOps.viewAsComplex(Tensor.of(TensorImpl.empty(s(2), DType.BFLOAT16))));
        assertMessage(
                UnsupportedOperationException.class,
                "but got a tensor of scalar type: Long",
                () -> ComplexOps.viewAsComplex(Tensor.of(TensorImpl.empty(s(2), DType.INT64))));
    }

    // ---- conjugation ------------------------------------------------------------------------------

    @Test
    void conjMaterialisesANewTensorWithNegatedImaginaryParts() {
        Tensor z = transposedC64();
        Tensor c = ComplexOps.conj(z);
        assertNotSame(z.untypedStorage(), c.untypedStorage());
        assertArrayEquals(s(3, 2), c.shape());
        assertArrayEquals(new double[] {1, -2, 7, -8, 3, -4, 9, -10, 5, -6, 11, -12}, c.toDoubleArray());
        assertArrayEquals(c.toDoubleArray(), ComplexOps.conjPhysical(z).toDoubleArray());
        // no aliasing, unlike PyTorch's lazy conj view: writing the result leaves the input alone
        ComplexOps.real(c).copy_(f32(s(3, 2), 0, 0, 0, 0, 0, 0));
        assertEquals(1.0, z.toDoubleArray()[0]);
        assertFalse(ComplexOps.isConj(c));
        assertSame(c, ComplexOps.resolveConj(c));
    }

    @Test
    void conjOfANonComplexTensorIsTheTensorItself() {
        Tensor x = f32(s(2), 1, -2);
        assertSame(x, ComplexOps.conj(x));
        assertSame(x, ComplexOps.conjPhysical(x));
        Tensor i = Tensor.of(TensorImpl.empty(s(2), DType.INT64));
        assertSame(i, ComplexOps.conj(i));
    }

    @Test
    void conjKeepsTheDtypeAndWorksOnEmptyAndMetaTensors() {
        Tensor z128 =
                Tensor.of(TensorImpl.of(Storage.wrap(new double[] {1, 2, -0.5, 0}), 0, s(2), s(1), DType.COMPLEX128));
        Tensor c = ComplexOps.conj(z128);
        assertEquals(DType.COMPLEX128, c.dtype());
        assertArrayEquals(new double[] {1, -2, -0.5, -0.0}, c.toDoubleArray());
        assertArrayEquals(s(0, 2), ComplexOps.conj(c64(s(0, 2))).shape());
        Tensor meta = ComplexOps.conj(Tensor.of(TensorImpl.meta(s(3), DType.COMPLEX64)));
        assertEquals(Device.META, meta.device());
        assertEquals(DType.COMPLEX64, meta.dtype());
    }

    // ---- complex / polar --------------------------------------------------------------------------

    @Test
    void complexPairsRealAndImaginaryPartsWithBroadcasting() {
        Tensor re = f32(s(2, 1), 1, 2), im = f32(s(3), 10, 20, 30);
        Tensor z = ComplexOps.complex(re, im);
        assertEquals(DType.COMPLEX64, z.dtype());
        assertArrayEquals(s(2, 3), z.shape());
        assertArrayEquals(new double[] {1, 10, 1, 20, 1, 30, 2, 10, 2, 20, 2, 30}, z.toDoubleArray());
    }

    @Test
    void complexOfNonContiguousAndOtherFloatDtypes() {
        Tensor re = Views.of(f64(s(2, 2), 1, 2, 3, 4), 0, s(2, 2), s(1, 2)); // [[1, 3], [2, 4]]
        Tensor z = ComplexOps.complex(re, f64(s(2, 2), -1, -2, -3, -4));
        assertEquals(DType.COMPLEX128, z.dtype());
        assertArrayEquals(new double[] {1, -1, 3, -2, 2, -3, 4, -4}, z.toDoubleArray());
        Tensor h = Tensor.of(TensorImpl.empty(s(2), DType.FLOAT16));
        assertEquals(DType.COMPLEX32, ComplexOps.complex(h, h).dtype());
        assertArrayEquals(
                s(0, 4), ComplexOps.complex(f32(s(0, 4)), f32(s(4), 1, 2, 3, 4)).shape());
        Tensor m = ComplexOps.complex(
                Tensor.of(TensorImpl.meta(s(2, 1), DType.FLOAT32)), Tensor.of(TensorImpl.meta(s(3), DType.FLOAT32)));
        assertEquals(Device.META, m.device());
        assertArrayEquals(s(2, 3), m.shape());
    }

    @Test
    void complexRefusesMixedOrNonFloatPartsWithATypeError() {
        assertMessage(
                TorchTypeException.class,
                "Expected object of scalar type Float but got scalar type Double for second argument",
                () -> ComplexOps.complex(f32(s(1), 1), f64(s(1), 1)));
        Tensor l = Tensor.of(TensorImpl.empty(s(1), DType.INT64));
        assertMessage(
                TorchTypeException.class,
                "Expected both inputs to be Half, Float or Double tensors but got Long and Long",
                () -> ComplexOps.complex(l, l));
        Tensor b = Tensor.of(TensorImpl.empty(s(1), DType.BFLOAT16));
        assertMessage(TorchTypeException.class, "but got BFloat16 and BFloat16", () -> ComplexOps.polar(b, b));
    }

    @Test
    void polarIsAbsTimesCosAndSinOfTheAngle() {
        double[] abs = {1, 2, -1, 0}, angle = {0.5, Math.PI, 0.5, 3};
        Tensor z = ComplexOps.polar(f64(s(4), abs), f64(s(4), angle));
        assertEquals(DType.COMPLEX128, z.dtype());
        double[] got = z.toDoubleArray();
        for (int i = 0; i < 4; i++) {
            assertEquals(abs[i] * Math.cos(angle[i]), got[2 * i], 1e-15);
            assertEquals(abs[i] * Math.sin(angle[i]), got[2 * i + 1], 1e-15);
        }
        Tensor zf = ComplexOps.polar(f32(s(1), 2), f32(s(1), (float) (Math.PI / 2)));
        assertEquals(DType.COMPLEX64, zf.dtype());
        assertEquals(0, zf.toDoubleArray()[0], 1e-6);
        assertEquals(2, zf.toDoubleArray()[1], 1e-6);
        Tensor h = Tensor.of(TensorImpl.empty(s(1), DType.FLOAT16));
        assertMessage(TorchException.class, "\"polar_cpu\" not implemented for 'Half'", () -> ComplexOps.polar(h, h));
    }

    // ---- mH / adjoint -----------------------------------------------------------------------------

    @Test
    void mHOfARealMatrixIsItsTransposedView() {
        Tensor x = f32(s(2, 3), 1, 2, 3, 4, 5, 6);
        Tensor h = ComplexOps.mH(x);
        assertSame(x.untypedStorage(), h.untypedStorage());
        assertArrayEquals(s(3, 2), h.shape());
        assertArrayEquals(s(1, 3), h.stride());
        assertArrayEquals(new double[] {1, 4, 2, 5, 3, 6}, h.toDoubleArray());
    }

    @Test
    void mHOfAComplexBatchIsTheConjugateTransposeOfEachMatrix() {
        // batch of two 1x2 matrices: [[1+2i, 3+4i]], [[5+6i, 7+8i]]
        Tensor z = c64(s(2, 1, 2), 1, 2, 3, 4, 5, 6, 7, 8);
        Tensor h = ComplexOps.mH(z);
        assertArrayEquals(s(2, 2, 1), h.shape());
        assertArrayEquals(new double[] {1, -2, 3, -4, 5, -6, 7, -8}, h.toDoubleArray());
        assertArrayEquals(h.toDoubleArray(), ComplexOps.adjoint(z).toDoubleArray());
    }

    @Test
    void mHRefusesVectorsAndConjugatesScalars() {
        assertMessage(
                TorchException.class,
                "tensor.mH is only supported on matrices or batches of matrices. Got 1-D tensor.",
                () -> ComplexOps.mH(f32(s(3), 1, 2, 3)));
        assertMessage(
                TorchException.class,
                "tensor.adjoint() is only supported on matrices",
                () -> ComplexOps.adjoint(f32(s(3), 1, 2, 3)));
        assertArrayEquals(new double[] {1, -2}, ComplexOps.mH(c64(s(), 1, 2)).toDoubleArray());
        Tensor meta = ComplexOps.mH(Tensor.of(TensorImpl.meta(s(4, 2, 3), DType.COMPLEX64)));
        assertArrayEquals(s(4, 3, 2), meta.shape());
    }

    // ---- predicates -------------------------------------------------------------------------------

    @Test
    void isrealTestsTheImaginaryPart() {
        Tensor z = c64(s(3), 1, 0, 2, 1e-30f, 0, -0.0f);
        assertArrayEquals(
                new boolean[] {true, false, true}, ComplexOps.isreal(z).toBooleanArray());
        Tensor r = ComplexOps.isreal(f32(s(2), Float.NaN, 1));
        assertEquals(DType.BOOL, r.dtype());
        assertArrayEquals(new boolean[] {true, true}, r.toBooleanArray());
        Tensor m = ComplexOps.isreal(Tensor.of(TensorImpl.meta(s(2, 2), DType.COMPLEX64)));
        assertEquals(Device.META, m.device());
        assertEquals(DType.BOOL, m.dtype());
        assertTrue(ComplexOps.isComplex(z));
        assertFalse(ComplexOps.isComplex(r));
    }

    private static void assertMessage(Class<? extends RuntimeException> type, String substring, Runnable call) {
        RuntimeException e = assertThrows(type, call::run);
        assertTrue(
                e.getMessage().contains(substring),
                () -> "message \"" + e.getMessage() + "\" lacks \"" + substring + "\"");
    }
}
