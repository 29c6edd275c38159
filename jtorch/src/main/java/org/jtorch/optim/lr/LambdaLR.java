package org.jtorch.optim.lr;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;
import org.jtorch.optim.Optimizer;

/** {@code LambdaLR}: each group's rate is its base rate times {@code lr_lambda(epoch)}. */
public final class LambdaLR extends LRScheduler {
    private final List<IntToDoubleFunction> lrLambdas;

    /** {@code LambdaLR(optimizer, lr_lambda)}: one function for every group. */
    public LambdaLR(Optimizer optimizer, IntToDoubleFunction lrLambda) {
        this(optimizer, lrLambda, -1);
    }

    /** {@code LambdaLR(optimizer, lr_lambda, last_epoch)}. */
    public LambdaLR(Optimizer optimizer, IntToDoubleFunction lrLambda, int lastEpoch) {
        this.lrLambdas = Collections.nCopies(optimizer.paramGroups().size(), lrLambda);
        super(optimizer, lastEpoch);
    }

    /** {@code LambdaLR(optimizer, [lr_lambda, ...])}: one function per group. */
    public LambdaLR(Optimizer optimizer, List<IntToDoubleFunction> lrLambdas) {
        this(optimizer, lrLambdas, -1);
    }

    /** {@code LambdaLR(optimizer, [lr_lambda, ...], last_epoch)}. */
    public LambdaLR(Optimizer optimizer, List<IntToDoubleFunction> lrLambdas, int lastEpoch) {
        int groups = optimizer.paramGroups().size();
        if (lrLambdas.size() != groups) {
            throw new IllegalArgumentException("Expected " + groups + " lr_lambdas, but got " + lrLambdas.size());
        }
        this.lrLambdas = List.copyOf(lrLambdas);
        super(optimizer, lastEpoch);
    }

    @Override
    protected List<Double> computeLr() {
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < baseLrs.size(); i++)
            out.add(baseLrs.get(i) * lrLambdas.get(i).applyAsDouble(lastEpoch));
        return out;
    }

    /**
     * Java functions carry no state to save: {@code lr_lambdas} is a list of None, as PyTorch saves plain functions.
     */
    @Override
    protected void writeTrailingState(Map<String, Object> sd) {
        sd.put("lr_lambdas", new ArrayList<>(Collections.nCopies(lrLambdas.size(), null)));
    }
}
