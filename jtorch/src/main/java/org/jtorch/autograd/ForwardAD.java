package org.jtorch.autograd;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.internal.Shapes;
import org.jtorch.ops.FeatureMetaOps;
import org.jtorch.ops.ShapeOps;
import org.jtorch.storage.Storage;

/**
 * {@code torch.autograd.forward_ad}: forward-mode automatic differentiation with dual tensors.
 *
 * <pre>{@code
 * try (DualLevel _ = ForwardAD.dualLevel()) {
 *     Tensor x = ForwardAD.makeDual(primal, tangent);
 *     Tensor y = Torch.sin(x);
 *     Tensor jvp = ForwardAD.unpackDual(y).tangent();   // cos(primal) * tangent
 * }
 * }</pre>
 *
 * Each open level is an interpreter on this thread's {@link DispatchState} stack: an op that receives a tensor with a
 * tangent at the level runs on the primals and then its {@link org.jtorch.ops.OpDef.Jvp} rule, with the level itself
 * lowered out of the way, so rules written in differentiable ops nest (forward-over-forward) and compose with reverse
 * mode (forward-over-reverse). With no level open the dispatcher pays nothing.
 *
 * <p>Unlike PyTorch's {@code dual_level} (one level at a time), levels nest, as functorch's {@code jvp} levels do:
 * {@code makeDual} and {@code unpackDual} use the innermost open level unless given one.
 */
public final class ForwardAD {
    private ForwardAD() {}

    /** {@code with dual_level():} opens a level on this thread; close it (try-with-resources) to drop its tangents. */
    public static DualLevel dualLevel() {
        int depth = DispatchState.countEntered(DispatchState.Kind.FORWARD_AD);
        DualLevel level = new DualLevel(depth, DispatchState.nextLevel());
        level.open(DispatchState.enter(level.mode()));
        return level;
    }

    /** Checks that {@code level} is the innermost dual level of this thread, the only one that may close. */
    static void checkExit(DualLevel level) {
        if (DispatchState.innermostEntered(DispatchState.Kind.FORWARD_AD) != level.mode()) {
            throw new IllegalStateException(
                    "dual levels must be closed in reverse order of opening, on the thread that opened them");
        }
    }

    /**
     * The innermost open level of this thread that is in effect, or null. A level is out of effect while its own rules
     * run (and while a custom Function's forward runs on its primals).
     */
    public static DualLevel currentLevel() {
        DispatchState.Interpreter innermost = DispatchState.innermostInEffect(DispatchState.Kind.FORWARD_AD);
        return innermost instanceof ForwardMode m ? m.dualLevel() : null;
    }

    /** {@code make_dual(tensor, tangent)} at the innermost open level. */
    public static Tensor makeDual(Tensor primal, Tensor tangent) {
        return makeDual(primal, tangent, currentLevel());
    }

    /**
     * {@code make_dual(tensor, tangent, level=level)}: a view of {@code primal} that carries {@code tangent} at
     * {@code level}. The tangent is used as is when its layout is the primal's, else copied into one.
     */
    public static Tensor makeDual(Tensor primal, Tensor tangent, DualLevel level) {
        if (level == null || !level.isOpen() || !DispatchState.isInEffect(level.mode())) {
            throw new TorchException("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
                    + "enter_dual_level() first.");
        }
        if (!(primal.isFloatingPoint() || primal.isComplex())) {
            throw new IllegalArgumentException("Expected primal to be floating point or complex, but got: torch."
                    + primal.dtype().pyName());
        }
        if (!(tangent.isFloatingPoint() || tangent.isComplex())) {
            throw new IllegalArgumentException("Expected tangent to be floating point or complex, but got: torch."
                    + tangent.dtype().pyName());
        }
        if (Tangents.get(primal, level) != null) {
            throw new TorchException(
                    "Making a dual Tensor based on a Tensor that already has a forward gradient at the same level "
                            + level.depth() + " is not supported.");
        }
        if (!Arrays.equals(primal.impl().shapeRef(), tangent.impl().shapeRef())) {
            throw new TorchException(
                    "Trying to set a forward gradient that has a different size than that of the original Tensor, "
                            + "this is not supported. Tensor is of size "
                            + Shapes.str(primal.impl().shapeRef())
                            + " while the given forward gradient is of size "
                            + Shapes.str(tangent.impl().shapeRef()) + ".");
        }
        // PyTorch lets the dtypes differ and the rules then mix precisions; JTorch refuses it up front.
        if (primal.dtype() != tangent.dtype()) {
            throw new TorchException("make_dual: expected the tangent to have the primal's dtype "
                    + primal.dtype().pyName() + ", but got " + tangent.dtype().pyName());
        }
        Tensor dual = DispatchState.runBelow(level.mode(), () -> ShapeOps.view(primal, primal.shape()));
        Tangents.set(dual, level, sameLayout(tangent, primal, level));
        return dual;
    }

    /** {@code unpack_dual(tensor)} at the innermost open level (tangent null when there is no level). */
    public static UnpackedDual unpackDual(Tensor t) {
        DualLevel level = currentLevel();
        return level == null ? new UnpackedDual(t, null) : unpackDual(t, level);
    }

    /**
     * {@code unpack_dual(tensor, level=level)}: the primal is a view of {@code t} without the level's tangent (tangents
     * at other levels stay); the tangent is null when {@code t} carries none there.
     */
    public static UnpackedDual unpackDual(Tensor t, DualLevel level) {
        Tensor tangent = level.isOpen() && DispatchState.isInEffect(level.mode()) ? Tangents.get(t, level) : null;
        if (tangent == null) return new UnpackedDual(t, null);
        Tensor primal = DispatchState.runBelow(level.mode(), () -> ShapeOps.view(t, t.shape()));
        return new UnpackedDual(primal, tangent);
    }

    /** The tangent of {@code t} at the innermost open level, or null ({@code unpack_dual(t).tangent}). */
    public static Tensor tangent(Tensor t) {
        DualLevel level = currentLevel();
        return level == null ? null : Tangents.get(t, level);
    }

    /**
     * {@code tangent} itself when its strides are {@code like}'s, else a copy with {@code like}'s exact geometry
     * (storage size, offset, strides), so that view ops replayed on tangents address the same elements as on primals.
     */
    static Tensor sameLayout(Tensor tangent, Tensor like, DualLevel level) {
        if (tangent.storageOffset() == like.storageOffset()
                && Arrays.equals(tangent.impl().strideRef(), like.impl().strideRef())) return tangent;
        // dispatched, so that a tangent batched by vmap gets a batched copy with the primal's geometry per example
        return DispatchState.runBelow(level.mode(), () -> FeatureMetaOps.newZerosWithSameFeatureMeta(tangent, like, 0)
                .copy_(tangent));
    }

    /** A zeroed storage of {@code like}'s kind, size and device. */
    static Storage storageLike(Tensor like) {
        DType.StorageKind kind = like.dtype().storageKind();
        long slots = like.impl().storage().slots();
        return like.isMeta() ? Storage.meta(kind, slots) : Storage.allocate(kind, slots);
    }
}
