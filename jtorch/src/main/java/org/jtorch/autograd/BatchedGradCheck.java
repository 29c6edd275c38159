package org.jtorch.autograd;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.ops.JoinOps;
import org.jtorch.ops.RandomOps;

/**
 * gradcheck's {@code check_batched_grad}: the gradients of one output for two random output gradients, computed at once
 * by {@code vmap} over the backward pass, must equal ({@code allclose} at its defaults) two separate backward passes.
 * This is not a comparison with finite differences but with the same backward unbatched: it catches backward formulas
 * that vmap's batching rules compute wrongly, or refuse.
 */
final class BatchedGradCheck {
    private BatchedGradCheck() {}

    /** Throws a {@link GradCheck.GradcheckError} naming the first input whose batched gradient differs. */
    static void check(Tensor out, List<Tensor> inputs) {
        List<Tensor> seeds = List.of(RandomOps.randnLike(out), RandomOps.randnLike(out));
        List<List<Tensor>> separate = new ArrayList<>();
        for (Tensor seed : seeds) separate.add(GradCheck.vjp(out, inputs, seed));
        List<Tensor> batched;
        try {
            batched = VmapService.HOOKS.vmap(seed -> GradCheck.vjp(out, inputs, seed), JoinOps.stack(seeds, 0));
        } catch (TorchException e) {
            GradCheck.GradcheckError error = new GradCheck.GradcheckError("gradcheck: while computing batched "
                    + "gradients (vmap over the backward pass), got: " + e.getMessage());
            error.initCause(e);
            throw error;
        }
        for (int i = 0; i < inputs.size(); i++) {
            Tensor expected = JoinOps.stack(
                    List.of(separate.get(0).get(i), separate.get(1).get(i)), 0);
            if (!Arrays.equals(batched.get(i).shape(), expected.shape())
                    || !batched.get(i).allclose(expected)) {
                throw new GradCheck.GradcheckError("gradcheck: batched gradient computation (vmap over the backward "
                        + "pass) differs for output 0 and input " + i + ":\nGot:\n" + batched.get(i)
                        + "\nExpected:\n" + expected);
            }
        }
    }
}
