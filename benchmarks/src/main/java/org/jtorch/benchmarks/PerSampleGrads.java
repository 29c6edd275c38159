package org.jtorch.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.Autograd;
import org.jtorch.func.Func;
import org.jtorch.func.VmapOptions;
import org.jtorch.nn.Module;
import org.jtorch.nn.functional.F;

/**
 * The two ways the per-sample gradient benchmarks compute the cross-entropy gradients of a model for each sample of a
 * batch: torch.func's recipe and the loop of single-sample backward passes.
 */
final class PerSampleGrads {
    private PerSampleGrads() {}

    /** The model's parameters, detached, by name: the first argument of {@link #vmapGrad}'s function. */
    static Map<String, Tensor> detachedParameters(Module model) {
        Map<String, Tensor> params = new LinkedHashMap<>();
        for (var e : model.namedParameters().entrySet())
            params.put(e.getKey(), e.getValue().detach());
        return params;
    }

    /**
     * {@code vmap(grad(loss), in_dims=(None, 0, 0))} over {@code functional_call}: applied to (parameters, samples,
     * targets), the gradient of each sample's loss with respect to every parameter, by name.
     */
    static Function<Object[], Object> vmapGrad(Module model) {
        Function<Object[], Object> loss = a -> {
            @SuppressWarnings("unchecked")
            Map<String, Tensor> p = (Map<String, Tensor>) a[0];
            return F.crossEntropy(
                    Func.functionalCall(model, p, ((Tensor) a[1]).unsqueeze(0)), ((Tensor) a[2]).unsqueeze(0));
        };
        return Func.vmap(
                Func.grad(loss, Func.GradOptions.defaults()),
                VmapOptions.defaults().inDims(null, 0, 0));
    }

    /** One backward pass per sample; each parameter's gradients stacked over the samples. */
    static List<Tensor> loop(Module model, Tensor xs, Tensor ys) {
        List<Tensor> ps = model.parameters();
        List<List<Tensor>> grads = new ArrayList<>();
        for (int i = 0; i < xs.size(0); i++) {
            Tensor l = F.crossEntropy(
                    model.call(xs.select(0, i).unsqueeze(0)), ys.select(0, i).unsqueeze(0));
            grads.add(Autograd.grad(List.of(l), ps, Autograd.GradOptions.defaults()));
        }
        List<Tensor> stacked = new ArrayList<>();
        for (int k = 0; k < ps.size(); k++) {
            List<Tensor> col = new ArrayList<>();
            for (List<Tensor> g : grads) col.add(g.get(k));
            stacked.add(Torch.stack(col));
        }
        return stacked;
    }
}
