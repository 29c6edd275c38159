package org.jtorch.ops;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtorch.Tensor;

/**
 * The derivatives of a {@code _foreach_*} op, derived from its base op's registered rules, as PyTorch's autograd
 * generator derives each foreach entry of derivatives.yaml from the single-tensor op's: the gradient at position
 * {@code i} is the base op's VJP applied to position {@code i}'s arguments, output and output gradient, and the tangent
 * at position {@code i} is the base op's JVP there. The base rules are written in differentiable ops, so second and
 * higher derivatives come as they do for the base op.
 *
 * <p>The foreach op's tensor inputs are numbered as autograd numbers them ({@code Tensor[]} arguments expanded in
 * place). Which of them a tensor of the base call at position {@code i} is, is found by identity: element {@code i} of
 * a tensor list, or a tensor shared by every position (the 0-d {@code other} of the {@code .Tensor} overloads), whose
 * gradient is the sum over the positions. A tensor the split makes itself (the 0-d base of
 * {@code _foreach_pow.ScalarAndTensor}) is no input and gets no gradient.
 */
final class ForeachDerivatives {
    private ForeachDerivatives() {}

    /** The reverse-mode rule: the base op's VJP position by position; positions no gradient reached are skipped. */
    static OpDef.MaskedVjp vjp(OpDef base, ForeachOps.Split split) {
        OpDef.MaskedVjp rule = base.vjp();
        return (args, outputs, gradOutputs, mask) -> {
            Inputs inputs = new Inputs(args);
            Tensor[] grads = new Tensor[inputs.count()];
            for (int i = 0; i < gradOutputs.length; i++) {
                if (gradOutputs[i] == null) continue;
                Object[] at = split.at(args, i);
                int[] slots = inputs.slotsAt(at, i);
                boolean[] needs = new boolean[slots.length];
                boolean any = false;
                for (int j = 0; j < slots.length; j++) {
                    needs[j] = slots[j] >= 0 && mask.needs(slots[j]);
                    any |= needs[j];
                }
                if (!any) continue;
                Tensor[] out = outputs == null ? null : new Tensor[] {outputs[i]};
                Tensor[] g = rule.apply(at, out, new Tensor[] {gradOutputs[i]}, InputMask.of(needs));
                for (int j = 0; j < slots.length && j < g.length; j++) {
                    if (g[j] != null && slots[j] >= 0) inputs.accumulate(grads, slots[j], g[j]);
                }
            }
            return grads;
        };
    }

    /**
     * The forward-mode rule: the base op's JVP position by position (null, a zero tangent, where no input of the
     * position has a tangent); null if the base op has none, so that forward AD refuses the foreach op by its name.
     */
    static OpDef.Jvp jvp(OpDef base, ForeachOps.Split split) {
        OpDef.Jvp rule = base.jvp();
        if (rule == null) return null;
        return (args, outputs, tangents) -> {
            Inputs inputs = new Inputs(args);
            Tensor[] result = new Tensor[outputs.length];
            for (int i = 0; i < outputs.length; i++) {
                Object[] at = split.at(args, i);
                int[] slots = inputs.slotsAt(at, i);
                Tensor[] t = new Tensor[slots.length];
                boolean any = false;
                for (int j = 0; j < slots.length; j++) {
                    t[j] = slots[j] >= 0 ? tangents[slots[j]] : null;
                    any |= t[j] != null;
                }
                if (any) result[i] = rule.apply(at, new Tensor[] {outputs[i]}, t)[0];
            }
            return result;
        };
    }

    /** The foreach op's tensor inputs, numbered as autograd numbers them. */
    private static final class Inputs {
        private final List<Tensor> tensors = new ArrayList<>();
        /** Per input: whether it is a lone tensor shared by every position (not an element of a list). */
        private final List<Boolean> shared = new ArrayList<>();
        /** Per argument: the number of its first input, or -1 for an argument that is no tensor. */
        private final int[] firstSlot;

        private final Object[] args;

        Inputs(Object[] args) {
            this.args = args;
            this.firstSlot = new int[args.length];
            for (int k = 0; k < args.length; k++) {
                firstSlot[k] = -1;
                if (args[k] instanceof Tensor t) {
                    firstSlot[k] = tensors.size();
                    tensors.add(t);
                    shared.add(true);
                } else if (args[k] instanceof Tensor[] ts) {
                    firstSlot[k] = tensors.size();
                    for (Tensor t : ts) {
                        tensors.add(t);
                        shared.add(false);
                    }
                }
            }
        }

        int count() {
            return tensors.size();
        }

        /**
         * For each tensor of the base call {@code at} (in the order of the base op's gradients), the foreach input it
         * is, or -1: element {@code i} of a list, else a shared tensor; a tensor passed twice (the same list given as
         * {@code self} and {@code other}) takes its places in argument order.
         */
        int[] slotsAt(Object[] at, int i) {
            List<Tensor> baseTensors = new ArrayList<>();
            for (Object a : at) {
                if (a instanceof Tensor t) baseTensors.add(t);
                else if (a instanceof Tensor[] ts) baseTensors.addAll(Arrays.asList(ts));
            }
            int[] slots = new int[baseTensors.size()];
            boolean[] taken = new boolean[tensors.size()];
            for (int j = 0; j < slots.length; j++) slots[j] = find(baseTensors.get(j), i, taken);
            return slots;
        }

        private int find(Tensor t, int i, boolean[] taken) {
            if (t == null) return -1;
            int sharedSlot = -1;
            for (int k = 0; k < args.length; k++) {
                int slot = firstSlot[k];
                if (args[k] instanceof Tensor[] ts) {
                    if (i < ts.length && ts[i] == t && !taken[slot + i]) {
                        taken[slot + i] = true;
                        return slot + i;
                    }
                } else if (slot >= 0 && tensors.get(slot) == t && sharedSlot < 0) sharedSlot = slot;
            }
            return sharedSlot;
        }

        /**
         * Adds a position's gradient to input {@code slot}'s: a list element gets its position's gradient as the base
         * op returned it (autograd brings it to the input's shape and dtype); a shared tensor sums every position's,
         * each first brought to its shape, since the positions broadcast it to different shapes.
         */
        void accumulate(Tensor[] grads, int slot, Tensor g) {
            if (shared.get(slot)) g = sumToShape(g, tensors.get(slot).impl().shapeRef());
            grads[slot] = grads[slot] == null ? g : grads[slot].add(g);
        }
    }

    /** {@code g} summed over the dims it was broadcast along, down to {@code shape}. */
    private static Tensor sumToShape(Tensor g, long[] shape) {
        long[] gs = g.impl().shapeRef();
        if (Arrays.equals(gs, shape)) return g;
        int lead = gs.length - shape.length;
        List<Long> dims = new ArrayList<>();
        for (int d = 0; d < gs.length; d++) {
            if (d < lead || shape[d - lead] == 1 && gs[d] != 1) dims.add((long) d);
        }
        Tensor r = dims.isEmpty()
                ? g
                : ReductionOps.sum(g, dims.stream().mapToLong(Long::longValue).toArray(), true);
        return r.reshape(shape);
    }
}
