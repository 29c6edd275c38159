package org.jtorch.fx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.autograd.Function;

/**
 * What a backward graph's gradients carry when it runs with {@code createGraph}: the graph's own ops are not recorded,
 * so instead of gradients without history (which a second backward would silently treat as constants) they get this
 * node, connected to the compiled function's inputs that require grad (and to any saved value or incoming gradient that
 * does), and differentiating through it raises PyTorch's error for double backward through a compiled function.
 */
final class CompiledFunctionBackward extends Function {
    static final String ERROR = "torch.compile with aot_autograd does not currently support double backward: the "
            + "backward graph of an AotFunction (CompiledFunctionBackward) was differentiated again, e.g. by "
            + "create_graph=True followed by another backward; run the function eagerly for higher-order gradients";

    private final int sourceCount;

    private CompiledFunctionBackward(int sourceCount) {
        this.sourceCount = sourceCount;
    }

    /**
     * The gradients, given history through this node when one of {@code sources} requires grad; unchanged (and nulls
     * kept) otherwise.
     */
    static Tensor[] guard(List<Tensor> sources, Tensor[] gradients) {
        List<Object> args = new ArrayList<>();
        for (Tensor t : sources) if (t != null && t.requiresGrad()) args.add(t);
        if (args.isEmpty()) return gradients;
        int connected = args.size();
        for (Tensor g : gradients) if (g != null) args.add(g);
        Tensor[] guarded = new CompiledFunctionBackward(connected).applyAll(args.toArray());
        Tensor[] result = new Tensor[gradients.length];
        for (int i = 0, k = 0; i < gradients.length; i++) if (gradients[i] != null) result[i] = guarded[k++];
        return result;
    }

    @Override
    protected Tensor[] forward(Ctx ctx, Object... args) {
        return Arrays.copyOfRange(args, sourceCount, args.length, Tensor[].class);
    }

    @Override
    protected Tensor[] backward(Ctx ctx, Tensor... grads) {
        throw new TorchException(ERROR);
    }
}
