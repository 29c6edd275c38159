package org.jtorch.optim;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * One parameter group's update in the form {@link Optimizer#compileStep()} compiles: a function of tensors that reads
 * the parameters, gradients, state and the step's scalars, and ends by copying the new parameters and state into the
 * tensors they replace. The host does what depends on Java numbers ({@link #prepare()}: state creation, the step
 * counters, the per-step scalars such as {@code -lr / (1 - beta1^t)} computed in double exactly as the eager step
 * computes them); the scalars enter the graph as tensors (0-d views of one buffer), so a learning rate that changes
 * every step (a scheduler) never recompiles, and the kernels of equally shaped parameters are one generated class. The
 * update uses the eager foreach step's own arithmetic, op for op (fused multiply-adds where its kernels have them), so
 * the compiled step computes the same bits.
 */
interface StepGraph {
    /**
     * The host part of this step and the update's inputs, the step's scalars last; null when this step must run eagerly
     * (checked before anything changes).
     */
    Tensor[] prepare();

    /** Traces (or runs) the update on {@code in}, the tensors {@link #prepare()} returned. */
    void update(Tensor[] in);

    /**
     * What the traced graph depends on besides its inputs' metadata: the hyper-parameters it holds as constants and the
     * parameters themselves (by identity). A change recompiles.
     */
    List<Object> guards();

    /**
     * Whether {@code params} (with gradients) can take a compiled update: all of one floating dtype the scalars can be
     * kept in exactly as the eager step rounds them (float32, float64), gradients of that dtype and shape, on the CPU.
     */
    static boolean compilable(List<Tensor> params) {
        if (params.isEmpty()) return false;
        DType dtype = params.getFirst().dtype();
        if (dtype != DType.FLOAT32 && dtype != DType.FLOAT64) return false;
        for (Tensor p : params) {
            Tensor g = p.grad();
            if (p.dtype() != dtype || p.device() != Device.CPU || g == null || g.dtype() != dtype) return false;
            if (!java.util.Arrays.equals(g.shape(), p.shape())) return false;
        }
        return true;
    }

    /**
     * Copies each new value into the tensor it replaces ({@code {tensor, value}} pairs), after every value is computed:
     * the graph then ends with its write-backs, which the compiler folds into the kernels computing the values.
     */
    static void writeBack(List<Tensor[]> writes) {
        for (Tensor[] w : writes) w[0].copy_(w[1]);
    }

    /**
     * {@code values} as 0-d tensors of {@code dtype} (views of one buffer), appended to {@code inputs}: each is rounded
     * to the dtype as the eager kernels round a Python scalar.
     */
    static void addScalars(List<Tensor> inputs, double[] values, DType dtype) {
        Tensor all = Torch.tensor(values, dtype, values.length);
        for (int k = 0; k < values.length; k++) inputs.add(all.select(0, k));
    }
}
