package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;

/**
 * {@code isin}: whether each element is among the test elements. Both sides are compared in their promoted dtype; the
 * test elements are sorted once and each element binary-searched, O((n + m) log m). NaN is in nothing, as NaN ≠ NaN.
 * Complex and bool inputs are refused, as ATen's kernels have no such case.
 */
public final class IsinOps {
    private IsinOps() {}

    /** {@code isin.Tensor_Tensor(elements, test_elements, *, assume_unique=False, invert=False)}. */
    public static final OpDef ISIN = OpDef.composite(
            "isin.Tensor_Tensor(Tensor elements, Tensor test_elements, *, bool assume_unique=False, "
                    + "bool invert=False) -> Tensor",
            a -> membership((Tensor) a[0], (Tensor) a[1], Boolean.TRUE.equals(a[3])));

    /** {@code isin.Tensor_Scalar(elements, test_element, *, assume_unique=False, invert=False)}: an equality test. */
    public static final OpDef ISIN_TENSOR_SCALAR = OpDef.composite(
            "isin.Tensor_Scalar(Tensor elements, Scalar test_element, *, bool assume_unique=False, "
                    + "bool invert=False) -> Tensor",
            a -> {
                Tensor e = (Tensor) a[0];
                checkDtype(e.dtype());
                return Boolean.TRUE.equals(a[3]) ? e.ne(a[1]) : e.eq(a[1]);
            });

    /** {@code isin.Scalar_Tensor(element, test_elements, *, assume_unique=False, invert=False)}: a 0-d result. */
    public static final OpDef ISIN_SCALAR_TENSOR = OpDef.composite(
            "isin.Scalar_Tensor(Scalar element, Tensor test_elements, *, bool assume_unique=False, "
                    + "bool invert=False) -> Tensor",
            a -> {
                Tensor test = (Tensor) a[1];
                Scalar s = Scalar.of(a[0]);
                DType d = s.isComplex() ? DType.COMPLEX128 : s.isFloatingPoint() ? DType.FLOAT64 : DType.INT64;
                return membership(Creation.full(new long[0], a[0], d, test.device()), test, Boolean.TRUE.equals(a[3]));
            });

    private static void checkDtype(DType d) {
        if (d.isComplex() || d == DType.BOOL)
            throw new TorchException("Unsupported input type encountered for isin(): " + d.cppName());
    }

    private static Tensor membership(Tensor elements, Tensor test, boolean invert) {
        checkDtype(elements.dtype());
        checkDtype(test.dtype());
        DType common = TypePromotion.promoteTypes(elements.dtype(), test.dtype());
        Tensor e = elements.to(common),
                sorted = test.reshape(-1).to(common).sort().values();
        Tensor found;
        if (sorted.numel() == 0) {
            found = Creation.full(elements.shape(), false, DType.BOOL, elements.device());
        } else {
            Tensor at = SearchOps.searchsorted(sorted, e.reshape(-1)).clampMax(sorted.numel() - 1);
            found = sorted.indexSelect(0, at).eq(e.reshape(-1)).reshape(elements.shape());
        }
        return invert ? found.logicalNot() : found;
    }

    /** {@code torch.isin(elements, test_elements, assume_unique=False, invert)}. */
    public static Tensor isin(Tensor elements, Tensor testElements, boolean invert) {
        return ISIN.call1(elements, testElements, false, invert);
    }

    /** {@code torch.isin(elements, test_element, invert=invert)} with a scalar test element. */
    public static Tensor isin(Tensor elements, Number testElement, boolean invert) {
        return ISIN_TENSOR_SCALAR.call1(elements, testElement, false, invert);
    }

    /** {@code torch.isin(element, test_elements, invert=invert)} with a scalar element: a 0-d bool tensor. */
    public static Tensor isin(Number element, Tensor testElements, boolean invert) {
        return ISIN_SCALAR_TENSOR.call1(element, testElements, false, invert);
    }
}
