package org.jtorch.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.Autograd;
import org.jtorch.func.Func;
import org.jtorch.func.VmapOptions;
import org.jtorch.nn.Linear;
import org.jtorch.nn.ReLU;
import org.jtorch.nn.Sequential;
import org.jtorch.nn.functional.F;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Per-sample gradients of a 784-256-10 MLP (float32, cross entropy) for a batch of 64: torch.func's recipe
 * {@code vmap(grad(loss), in_dims=(None, 0, 0))} over {@code functional_call}, against the loop of 64 single-sample
 * backward passes. The peer is benchmarks/peers/torch_per_sample_grad.py.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class PerSampleGradBench {
    Sequential model;
    Map<String, Tensor> params;
    Tensor xs, ys;
    Function<Object[], Object> perSample;

    @Setup
    public void setup() {
        Torch.manualSeed(0);
        model = new Sequential(new Linear(784, 256), new ReLU(), new Linear(256, 10));
        params = new LinkedHashMap<>();
        for (var e : model.namedParameters().entrySet())
            params.put(e.getKey(), e.getValue().detach());
        xs = Torch.randn(64, 784);
        ys = Torch.randint(0, 10, 64);
        Function<Object[], Object> loss = a -> {
            @SuppressWarnings("unchecked")
            Map<String, Tensor> p = (Map<String, Tensor>) a[0];
            return F.crossEntropy(
                    Func.functionalCall(model, p, ((Tensor) a[1]).unsqueeze(0)), ((Tensor) a[2]).unsqueeze(0));
        };
        perSample = Func.vmap(
                Func.grad(loss, Func.GradOptions.defaults()),
                VmapOptions.defaults().inDims(null, 0, 0));
    }

    @Benchmark
    public Object vmapGrad() {
        return perSample.apply(new Object[] {params, xs, ys});
    }

    @Benchmark
    public Object loop() {
        List<Tensor> ps = model.parameters();
        List<List<Tensor>> grads = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
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
