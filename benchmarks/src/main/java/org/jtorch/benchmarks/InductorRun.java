package org.jtorch.benchmarks;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.compile.Compile;
import org.jtorch.compile.CompileMode;
import org.jtorch.compile.CompileOptions;
import org.jtorch.compile.inductor.codegen.KernelCompiler;
import org.jtorch.examples.ServeModel;
import org.jtorch.examples.gpt.Gpt;
import org.jtorch.examples.gpt.GptConfig;
import org.jtorch.examples.serve.ServedModel;
import org.jtorch.nn.functional.F;

/**
 * The compiler backend's figures, as a whole program (medians of timed repetitions after warm-up):
 *
 * <ul>
 *   <li>a chain of 10 pointwise ops on 16M floats, compiled (one kernel), against one eager {@code add} of the same
 *       size (the memory-bound floor: read two, write one) and against the chain run eagerly;
 *   <li>a chain of six pointwise ops on a 2048² tensor, compiled against eager;
 *   <li>softmax, layer norm and GELU+bias rows: kernels per compiled graph;
 *   <li>TrainGpt's model (4×128 GPT, batch 16×128) forward+backward compile latency: cold (the first compile in the
 *       process), then from the kernel cache (after {@code Compile.reset()}).
 * </ul>
 *
 * <p>With the argument {@code latency} it measures compile latency only, in a fresh process: TrainGpt's model first
 * (cold), then the first call of each smaller benchmark, each again after {@code Compile.reset()} (kernels from the
 * in-process cache).
 *
 * <p>With the arguments {@code memory [steps [mode]]} it measures a steady-state compiled training step of TrainGpt's
 * model (forward, {@code sum()} of the logits, backward; gradients set to none between steps) three ways: every kernel
 * output allocated on each call ({@code allow_buffer_reuse=False}, the backend before memory planning: "before"), the
 * default mode (intermediates kept between calls) and {@code mode="reduce-overhead"} (outputs kept too). Per step,
 * medians over {@code steps} steps (default 10) after three warm-up steps: the bytes of kernel-output storage the
 * compiled graphs allocated ({@code CompileCounters.planBytesAllocated}), the bytes every thread of the JVM allocated
 * ({@code com.sun.management.ThreadMXBean#getTotalThreadAllocatedBytes}: extern calls' results, gradients, small
 * objects), and the step's time. A {@code mode} ({@code before}, {@code default} or {@code reduce-overhead}) measures
 * that one alone, so that each can run in a fresh JVM.
 *
 * <p>With the arguments {@code forward [reps]} it measures the served model's forward
 * ({@code ServedModel.gptNextToken}: TrainGpt's model, last position's logits) on a batch of 64 sequences of 16 tokens
 * under no-grad, eager and compiled with the inductor backend, in alternating blocks of {@code reps} calls (default 50)
 * after warm-up: medians per block and over all blocks, and the JVM's allocation per call.
 *
 * <pre>./mvnw -B -q -pl benchmarks -am -DskipTests package exec:exec@inductor</pre>
 */
public final class InductorRun {
    private InductorRun() {}

    public static void main(String[] args) {
        Torch.manualSeed(0);
        Map<String, String> results = new LinkedHashMap<>();
        if (args.length > 0 && args[0].equals("latency")) {
            compileLatency(results);
            smallCompileLatency(results);
        } else if (args.length > 0 && args[0].equals("forward")) {
            servedForward(results, args.length > 1 ? Integer.parseInt(args[1]) : 50);
        } else if (args.length > 0 && args[0].equals("memory")) {
            stepMemory(results, args.length > 1 ? Integer.parseInt(args[1]) : 10, args.length > 2 ? args[2] : null);
        } else {
            chains(results);
            rows(results);
            compileLatency(results);
        }
        results.forEach((k, v) -> System.out.println(k + ": " + v));
    }

    private static Tensor chain10(Tensor x) {
        return x.mul(1.5)
                .add(0.25)
                .relu()
                .sub(0.5)
                .mul(x)
                .add(1.0)
                .abs()
                .mul(0.75)
                .sub(0.125)
                .add(x);
    }

    private static Tensor chain6(Tensor x) {
        return x.mul(2.0).add(1.0).relu().mul(x).sub(0.5).abs();
    }

    private static void chains(Map<String, String> results) {
        Tensor big = Torch.randn(16L << 20), other = Torch.randn(16L << 20);
        Function<Tensor, Tensor> compiled10 = Torch.compile(InductorRun::chain10, CompileOptions.defaults());
        long before = Compile.counters().kernels();
        compiled10.apply(big);
        results.put("10-op chain kernels", String.valueOf(Compile.counters().kernels() - before));
        double add = median(() -> big.add(other), 15);
        double eager10 = median(() -> chain10(big), 5);
        double comp10 = median(() -> compiled10.apply(big), 15);
        results.put("16M add (eager)", ms(add));
        results.put("10-op chain 16M eager", ms(eager10));
        results.put(
                "10-op chain 16M compiled",
                ms(comp10) + String.format(" (%.2fx of one add, %.2fx eager)", comp10 / add, eager10 / comp10));

        Tensor square = Torch.randn(2048, 2048);
        Function<Tensor, Tensor> compiled6 = Torch.compile(InductorRun::chain6, CompileOptions.defaults());
        compiled6.apply(square);
        double eager6 = median(() -> chain6(square), 20);
        double comp6 = median(() -> compiled6.apply(square), 20);
        results.put("6-op chain 2048² eager", ms(eager6));
        results.put("6-op chain 2048² compiled", ms(comp6) + String.format(" (%.2fx eager)", eager6 / comp6));
    }

    private static void rows(Map<String, String> results) {
        Tensor x = Torch.randn(4096, 512), w = Torch.randn(512), b = Torch.randn(512);
        Map<String, Function<Tensor, Tensor>> fns = new LinkedHashMap<>();
        fns.put("softmax", t -> F.softmax(t, -1));
        fns.put("layer norm", t -> F.layerNorm(t, new long[] {512}, w, b, 1e-5));
        fns.put("GELU+bias", t -> F.gelu(t.add(b)));
        for (var e : fns.entrySet()) {
            Function<Tensor, Tensor> c = Torch.compile(e.getValue(), CompileOptions.defaults());
            long before = Compile.counters().kernels();
            c.apply(x);
            long kernels = Compile.counters().kernels() - before;
            double eager = median(() -> e.getValue().apply(x), 20);
            double comp = median(() -> c.apply(x), 20);
            results.put(
                    e.getKey() + " rows 4096x512",
                    kernels + " kernel(s), eager " + ms(eager) + ", compiled " + ms(comp));
        }
    }

    private static void compileLatency(Map<String, String> results) {
        GptConfig config = new GptConfig(65, 128, 4, 4, 128, "layernorm");
        Gpt model = new Gpt(config);
        Tensor idx = Torch.randint(0, 65, 16, 128);
        for (String when : List.of("cold", "cached")) {
            Compile.reset();
            Function<Tensor, Tensor> compiled = Torch.compile(model::call, CompileOptions.defaults());
            long compiledBefore = KernelCompiler.compiledCount();
            long start = System.nanoTime();
            Tensor out = compiled.apply(idx);
            out.sum().backward();
            double seconds = (System.nanoTime() - start) / 1e9;
            results.put(
                    "GPT fwd+bwd first call (" + when + ")",
                    String.format(
                            "%.2f s, %d kernels, %d classes generated (%d kernels reused a loaded class),"
                                    + " class-file generation %.3f s in total so far",
                            seconds,
                            Compile.counters().kernels(),
                            KernelCompiler.compiledCount() - compiledBefore,
                            Compile.counters().kernelCacheHits(),
                            KernelCompiler.generateNanos() / 1e9));
            model.zeroGrad();
        }
    }

    private static void stepMemory(Map<String, String> results, int steps, String only) {
        GptConfig config = new GptConfig(65, 128, 4, 4, 128, "layernorm");
        Gpt model = new Gpt(config);
        Tensor idx = Torch.randint(0, 65, 16, 128);
        Map<String, CompileOptions> modes = new LinkedHashMap<>();
        modes.put("before", CompileOptions.defaults().option("allow_buffer_reuse", false));
        modes.put("default", CompileOptions.defaults());
        modes.put("reduce-overhead", CompileOptions.defaults().mode(CompileMode.REDUCE_OVERHEAD));
        if (only != null) modes.keySet().retainAll(List.of(only));
        if (modes.isEmpty()) throw new IllegalArgumentException("mode: before, default or reduce-overhead");
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        for (var mode : modes.entrySet()) {
            Compile.reset();
            Function<Tensor, Tensor> step = Torch.compile(t -> model.call(t).sum(), mode.getValue());
            Runnable run = () -> {
                step.apply(idx).backward();
                model.zeroGrad();
            };
            for (int i = 0; i < 3; i++) run.run();
            double[] plan = new double[steps], all = new double[steps], time = new double[steps];
            for (int i = 0; i < steps; i++) {
                long planBefore = Compile.counters().planBytesAllocated();
                long allBefore = threads.getTotalThreadAllocatedBytes();
                long start = System.nanoTime();
                run.run();
                time[i] = System.nanoTime() - start;
                all[i] = threads.getTotalThreadAllocatedBytes() - allBefore;
                plan[i] = Compile.counters().planBytesAllocated() - planBefore;
            }
            Arrays.sort(plan);
            Arrays.sort(all);
            Arrays.sort(time);
            results.put(
                    "GPT fwd+bwd steady step, " + mode.getKey(),
                    String.format(
                            "kernel-output storage %.2f MB, all JVM allocation %.2f MB, %s (medians of %d steps)",
                            plan[steps / 2] / 1e6, all[steps / 2] / 1e6, ms(time[steps / 2]), steps));
        }
    }

    private static void servedForward(Map<String, String> results, int reps) {
        Function<Tensor, Tensor> eager =
                ServedModel.gptNextToken("eager", ServeModel.demoModel()).forward();
        Gpt compiledGpt = ServeModel.demoModel();
        compiledGpt.compile(CompileOptions.defaults().backend("inductor"));
        Function<Tensor, Tensor> compiled =
                ServedModel.gptNextToken("compiled", compiledGpt).forward();
        Tensor batch = Torch.randint(0, compiledGpt.config().vocabSize(), 64, 16);
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        Map<String, Function<Tensor, Tensor>> runs = new LinkedHashMap<>();
        runs.put("eager", eager);
        runs.put("compiled", compiled);
        Map<String, double[]> times = new LinkedHashMap<>();
        for (String name : runs.keySet()) times.put(name, new double[4 * reps]);
        for (int block = 0; block < 4; block++) {
            for (var run : runs.entrySet()) {
                if (block == 0) for (int i = 0; i < 60; i++) run.getValue().apply(batch); // JIT and plan warm-up
                long allBefore = threads.getTotalThreadAllocatedBytes();
                double[] t = times.get(run.getKey());
                for (int i = 0; i < reps; i++) {
                    long start = System.nanoTime();
                    run.getValue().apply(batch);
                    t[block * reps + i] = System.nanoTime() - start;
                }
                double[] mine = Arrays.copyOfRange(t, block * reps, (block + 1) * reps);
                Arrays.sort(mine);
                results.merge(
                        "GPT forward 64x16 " + run.getKey() + " block medians",
                        ms(mine[reps / 2]),
                        (a, b) -> a + ", " + b);
                results.put(
                        "GPT forward 64x16 " + run.getKey() + " JVM allocation per call",
                        String.format("%.2f MB", (threads.getTotalThreadAllocatedBytes() - allBefore) / 1e6 / reps));
            }
        }
        for (var e : times.entrySet()) {
            double[] t = e.getValue().clone();
            Arrays.sort(t);
            results.put("GPT forward 64x16 " + e.getKey() + " median", ms(t[t.length / 2]));
        }
    }

    /** The first call of each smaller benchmark (compile and one run), then again from the kernel cache. */
    private static void smallCompileLatency(Map<String, String> results) {
        Tensor big = Torch.randn(16L << 20), square = Torch.randn(2048, 2048), rows = Torch.randn(4096, 512);
        Tensor w = Torch.randn(512), b = Torch.randn(512);
        Map<String, Function<Tensor, Tensor>> fns = new LinkedHashMap<>();
        fns.put("10-op chain 16M", InductorRun::chain10);
        fns.put("6-op chain 2048²", InductorRun::chain6);
        fns.put("softmax rows", t -> F.softmax(t, -1));
        fns.put("layer norm rows", t -> F.layerNorm(t, new long[] {512}, w, b, 1e-5));
        fns.put("GELU+bias rows", t -> F.gelu(t.add(b)));
        Map<String, Tensor> inputs = Map.of("10-op chain 16M", big, "6-op chain 2048²", square);
        for (var e : fns.entrySet()) {
            Tensor x = inputs.getOrDefault(e.getKey(), rows);
            String line = "";
            for (String when : List.of("first", "cached")) {
                if (when.equals("cached")) Compile.reset();
                Function<Tensor, Tensor> c = Torch.compile(e.getValue(), CompileOptions.defaults());
                long start = System.nanoTime();
                c.apply(x);
                line += (line.isEmpty() ? "" : ", ") + when + " " + ms(System.nanoTime() - start);
            }
            results.put(e.getKey() + " first call", line);
        }
    }

    private static String ms(double nanos) {
        return String.format("%.3f ms", nanos / 1e6);
    }

    private static double median(Supplier<?> run, int reps) {
        return median(
                () -> {
                    run.get();
                },
                reps);
    }

    private static double median(Runnable run, int reps) {
        for (int i = 0; i < 3; i++) run.run();
        double[] t = new double[reps];
        for (int i = 0; i < reps; i++) {
            long start = System.nanoTime();
            run.run();
            t[i] = System.nanoTime() - start;
        }
        Arrays.sort(t);
        return t[reps / 2];
    }
}
