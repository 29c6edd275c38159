package org.jtorch.autograd;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.ops.Creation;
import org.jtorch.ops.JoinOps;
import org.jtorch.ops.RandomOps;

/**
 * gradcheck's {@code check_batched_forward_grad}: for each input, the forward-mode JVPs of two random tangents,
 * computed at once by {@code vmap} over the tangents, must equal ({@code allclose} at its defaults) two separate JVPs.
 * As {@link BatchedGradCheck} for the backward pass, it compares forward AD with itself unbatched: it catches JVP rules
 * that vmap's batching rules compute wrongly, or refuse.
 */
final class BatchedForwardGradCheck {
    private BatchedForwardGradCheck() {}

    /** Throws a {@link GradCheck.GradcheckError} naming the first input whose batched JVP differs. */
    static void check(Function<List<Tensor>, Tensor> fn, List<Tensor> inputs) {
        for (int i = 0; i < inputs.size(); i++) {
            Tensor input = inputs.get(i);
            if (!(input.isFloatingPoint() || input.isComplex())) continue;
            int index = i;
            List<Tensor> tangents = List.of(RandomOps.randnLike(input), RandomOps.randnLike(input));
            Tensor expected = JoinOps.stack(
                    List.of(jvp(fn, inputs, index, tangents.get(0)), jvp(fn, inputs, index, tangents.get(1))), 0);
            Tensor batched;
            try {
                batched = VmapService.HOOKS
                        .vmap(t -> List.of(jvp(fn, inputs, index, t)), JoinOps.stack(tangents, 0))
                        .get(0);
            } catch (TorchException e) {
                GradCheck.GradcheckError error = new GradCheck.GradcheckError("gradcheck: while computing batched "
                        + "gradients with forward-mode AD (vmap over the tangents), got: " + e.getMessage());
                error.initCause(e);
                throw error;
            }
            if (!Arrays.equals(batched.shape(), expected.shape()) || !batched.allclose(expected)) {
                throw new GradCheck.GradcheckError("gradcheck: batched gradient computation with forward-mode AD (vmap "
                        + "over the tangents) differs for output 0 and input " + i + ":\nGot:\n" + batched
                        + "\nExpected:\n" + expected);
            }
        }
    }

    /**
     * The output's tangent when input {@code i} carries {@code tangent} (zeros when the output does not depend on it).
     * The inputs are fresh leaves that require grad, because {@code fn} may itself differentiate.
     */
    private static Tensor jvp(Function<List<Tensor>, Tensor> fn, List<Tensor> inputs, int i, Tensor tangent) {
        try (DualLevel level = ForwardAD.dualLevel()) {
            List<Tensor> args = new ArrayList<>(inputs.size());
            for (int j = 0; j < inputs.size(); j++) {
                Tensor x = inputs.get(j).detach().requiresGrad(true);
                args.add(j == i ? ForwardAD.makeDual(x, tangent, level) : x);
            }
            UnpackedDual out = ForwardAD.unpackDual(fn.apply(args), level);
            return out.tangent() != null
                    ? out.tangent()
                    : Creation.zerosLike(out.primal().detach());
        }
    }
}
