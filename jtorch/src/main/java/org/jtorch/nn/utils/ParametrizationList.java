package org.jtorch.nn.utils;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.nn.Module;

/**
 * {@code torch.nn.utils.parametrize.ParametrizationList}: {@code module.parametrizations.<name>}, holding the
 * unconstrained tensor(s) and the chain of parametrizations applied to them. The first parametrization's right inverse
 * decides the layout, as in PyTorch: one tensor is kept as {@code original}, several (a {@link Parametrize.MultiInput})
 * as {@code original0}, {@code original1}, ...; the parametrizations are the children {@code 0}, {@code 1}, ..., so a
 * state dict holds {@code parametrizations.weight.original} and the parametrizations' own buffers
 * ({@code parametrizations.weight.0._u}). Built by {@link Parametrize#registerParametrization}.
 */
public final class ParametrizationList extends Module {
    private final boolean isTensor;
    private final int ntensors;
    private int size;
    private boolean unsafe;

    ParametrizationList(Module first, Tensor original, boolean isParameter, boolean unsafe) {
        this.unsafe = unsafe;
        register("0", first);
        size = 1;
        DTypeShape before = new DTypeShape(original);
        boolean requiresGrad = original.requiresGrad();
        if (first instanceof Parametrize.MultiInput multi) {
            List<Tensor> parts;
            try (var _ = Torch.noGrad()) {
                parts = multi.rightInverse(original);
            }
            isTensor = false;
            ntensors = parts.size();
            for (int i = 0; i < parts.size(); i++) {
                Tensor part = parts.get(i).detach();
                if (isParameter) registerParameter("original" + i, part.requiresGrad(requiresGrad));
                else registerBuffer("original" + i, part);
            }
        } else {
            Tensor value = original;
            if (first instanceof Parametrize.RightInverse inverse) {
                try (var _ = Torch.noGrad()) {
                    value = inverse.rightInverse(original);
                }
                if (value.dtype() != original.dtype()) {
                    throw new TorchException("When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                            + "original.dtype: " + original.dtype() + "\nright_inverse(original).dtype: "
                            + value.dtype());
                }
            }
            isTensor = true;
            ntensors = 1;
            // PyTorch's original.set_(right_inverse(original)): the same tensor object, the new data.
            if (value != original) original.setData(value.detach());
            if (isParameter) registerParameter("original", original);
            else registerBuffer("original", original);
        }
        if (!unsafe)
            before.check(
                    value(),
                    "Registering a parametrization may not change the %s of the tensor, unless"
                            + " `unsafe` flag is enabled.\nunparametrized %s: %s\nparametrized %s: %s");
    }

    /** The dtype and shape a safe parametrization keeps. */
    record DTypeShape(org.jtorch.DType dtype, org.jtorch.Size shape) {
        DTypeShape(Tensor t) {
            this(t.dtype(), t.size());
        }

        void check(Tensor z, String format) {
            if (z.dtype() != dtype) {
                throw new TorchException(String.format(format, "dtype", "dtype", dtype, "dtype", z.dtype()));
            }
            if (!z.size().equals(shape))
                throw new TorchException(String.format(format, "shape", "shape", shape, "shape", z.size()));
        }
    }

    void append(Module parametrization, boolean unsafe) {
        register(Integer.toString(size++), parametrization);
        this.unsafe |= unsafe;
    }

    /** {@code is_tensor}: whether the unconstrained state is one tensor ({@code original}). */
    public boolean isTensor() {
        return isTensor;
    }

    /** {@code unsafe}. */
    public boolean unsafe() {
        return unsafe;
    }

    /** {@code len(self)}: the number of chained parametrizations. */
    public int size() {
        return size;
    }

    /** {@code self[i]}: the i-th parametrization. */
    public Module get(int i) {
        return getSubmodule(Integer.toString(i));
    }

    /** {@code original}, or {@code original<i>} for a parametrization of several tensors. */
    public List<Tensor> originals() {
        List<Tensor> out = new ArrayList<>();
        if (isTensor) out.add(getOriginal("original"));
        else for (int i = 0; i < ntensors; i++) out.add(getOriginal("original" + i));
        return out;
    }

    private Tensor getOriginal(String name) {
        Tensor p = registeredParameters().get(name);
        return p != null ? p : registeredBuffers().get(name);
    }

    /** {@code forward()}: the parametrized tensor, the chain applied to the originals. */
    public Tensor value() {
        Module first = get(0);
        Tensor x = first instanceof Parametrize.MultiInput multi
                ? multi.forward(originals())
                : first.call(originals().getFirst());
        for (int i = 1; i < size; i++) x = get(i).call(x);
        return x;
    }

    /**
     * {@code right_inverse(value)}: assigns {@code value} to the parametrized tensor through the parametrizations'
     * right inverses, in reverse order, into the originals (which keep their identity).
     */
    public void rightInverse(Tensor value) {
        try (var _ = Torch.noGrad()) {
            for (int i = size - 1; i >= 1; i--) value = inverse(get(i)).rightInverse(value);
            if (get(0) instanceof Parametrize.MultiInput multi) {
                List<Tensor> parts = multi.rightInverse(value);
                List<Tensor> originals = originals();
                if (parts.size() != originals.size()) {
                    throw new TorchException("'right_inverse' must return a sequence of tensors of length "
                            + originals.size() + ". Got a sequence of length " + parts.size() + ".");
                }
                for (int i = 0; i < parts.size(); i++)
                    originals.get(i).setData(parts.get(i).detach());
            } else {
                value = inverse(get(0)).rightInverse(value);
                Tensor original = originals().getFirst();
                if (value.dtype() != original.dtype()) {
                    throw new TorchException("The tensor returned by `right_inverse` has dtype "
                            + value.dtype() + " while `original` has dtype "
                            + original.dtype());
                }
                original.setData(value.detach());
            }
        }
    }

    private static Parametrize.RightInverse inverse(Module m) {
        if (m instanceof Parametrize.RightInverse r) return r;
        throw new TorchException(
                "parametrization " + m.getClass().getSimpleName() + " does not implement right_inverse.");
    }
}
