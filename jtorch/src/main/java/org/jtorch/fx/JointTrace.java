package org.jtorch.fx;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.autograd.Autograd;
import org.jtorch.autograd.GradMode;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.ops.Creation;

/**
 * How {@link AotAutograd#traceJoint} records the joint graph: the function runs on fake tensors under a {@link Tracer}
 * with grad mode on, then {@code autograd.grad} of its differentiable outputs runs under the same tracer, so the ops of
 * every VJP (all written with JTorch ops) are recorded after the forward's and read the forward's values by node.
 */
final class JointTrace {
    private JointTrace() {}

    static GraphModule trace(Function<Tensor[], Tensor[]> fn, Tensor[] exampleInputs) {
        checkInputs(exampleInputs);
        Tensor[] outputs;
        Tensor[] gradients = new Tensor[exampleInputs.length];
        Tracer tracer;
        // On fake tensors no kernel runs, so capture costs the ops' meta rules only; and Java code that reads a value
        // (item(), a Java kernel over the data) fails naming the read, where on real tensors it would leave the value
        // it read in the graph as a constant, wrong for the next inputs.
        try (FakeTensorMode fake = FakeTensorMode.open()) {
            Tensor[] primals = new Tensor[exampleInputs.length];
            List<Tensor> wrt = new ArrayList<>();
            for (int i = 0; i < primals.length; i++) {
                // A fresh leaf: the trace extends no history of the caller's tensors, and autograd.grad can capture
                // the gradient of each input.
                primals[i] = fake.fromTensor(exampleInputs[i].detach()).requiresGrad(exampleInputs[i].requiresGrad());
                if (primals[i].requiresGrad()) wrt.add(primals[i]);
            }
            GraphModule forward = functionalForward(fn, primals);
            tracer = new Tracer();
            for (int i = 0; i < primals.length; i++) tracer.input(primals[i], "primals_" + (i + 1));
            try (var _ = DispatchState.enter(tracer);
                    var _ = GradMode.set(true)) {
                outputs = forward.call(primals.clone());
                List<Tensor> differentiable = differentiableOutputs(outputs);
                List<Tensor> tangents = new ArrayList<>(differentiable.size());
                for (Tensor out : differentiable) {
                    // The tangent only seeds the traced backward; below the tracer its creation is not recorded.
                    Tensor tangent = DispatchState.runBelow(tracer, () -> Creation.onesLike(out));
                    tracer.lateInput(tangent, "tangents_" + (tangents.size() + 1));
                    tangents.add(tangent);
                }
                List<Tensor> grads = Autograd.grad(
                        differentiable,
                        wrt,
                        Autograd.GradOptions.defaults().gradOutputs(tangents).allowUnused(true));
                for (int i = 0, k = 0; i < primals.length; i++)
                    if (primals[i].requiresGrad()) gradients[i] = grads.get(k++);
            }
        }
        Tensor[] results = new Tensor[outputs.length + gradients.length];
        System.arraycopy(outputs, 0, results, 0, outputs.length);
        System.arraycopy(gradients, 0, results, outputs.length, gradients.length);
        tracer.output(results);
        for (Node n : tracer.graph().nodes()) {
            if (n.op().equals(Node.GET_ATTR)
                    && FakeTensorMode.isFake(tracer.constants().get(n.target()))) {
                throw new TorchException("aot_autograd: a tensor made during tracing without an op (a " + n.meta()
                        + " read by " + n.users().stream().map(Node::target).toList() + ") has no value a graph "
                        + "could keep as a constant");
            }
        }
        GraphModule joint = new GraphModule(tracer.graph(), tracer.constants());
        DeadCodeElimination.run(joint.graph());
        return joint;
    }

    /**
     * The forward of {@code fn} as a graph without mutations, as AOT autograd functionalizes before autograd sees an
     * op: autograd would otherwise keep the old value of a tensor written in place as a copy made below the tracer,
     * which no graph node computes. The joint trace replays this graph, so {@code fn} itself runs once. A function that
     * writes into one of its inputs is refused.
     */
    private static GraphModule functionalForward(Function<Tensor[], Tensor[]> fn, Tensor[] primals) {
        GraphModule traced;
        try (var _ = GradMode.set(true)) {
            traced = Fx.trace(new Tracer(), args -> requireArray(fn.apply(args)), primals);
        }
        if (isFunctional(traced)) return traced;
        GraphModule functional = Functionalization.run(traced);
        List<Node> nodes = functional.graph().nodes();
        for (Node n : nodes) {
            if (n.op().equals(Node.CALL_FUNCTION) && n.form() != Node.Form.FUNCTIONAL) {
                // what is left are the copies into written inputs, at the end
                int input = nodes.indexOf(n.inputNodes().getLast());
                throw new TorchException("aot_autograd: the traced function writes into its input " + input
                        + " in place; only functions that leave their inputs unchanged can be compiled");
            }
        }
        return functional;
    }

    private static boolean isFunctional(GraphModule gm) {
        for (Node n : gm.graph().nodes()) {
            if (n.op().equals(Node.CALL_FUNCTION) && n.form() != Node.Form.FUNCTIONAL) return false;
        }
        return true;
    }

    private static void checkInputs(Tensor[] inputs) {
        if (inputs == null || inputs.length == 0) {
            throw new TorchException("aot_autograd: traceJoint needs at least one example input");
        }
        boolean anyRequiresGrad = false;
        for (int i = 0; i < inputs.length; i++) {
            if (inputs[i] == null) {
                throw new TorchException(
                        "aot_autograd: example input " + i + " is null; every input must be a " + "tensor");
            }
            anyRequiresGrad |= inputs[i].requiresGrad();
        }
        if (!anyRequiresGrad) {
            throw new TorchException("aot_autograd: no example input requires grad, so there is no backward to trace; "
                    + "call requiresGrad(true) on the inputs to differentiate, or trace with Fx.makeFx");
        }
    }

    private static Tensor[] requireArray(Tensor[] outputs) {
        if (outputs == null) throw new TorchException("aot_autograd: the traced function returned null");
        return outputs;
    }

    private static List<Tensor> differentiableOutputs(Tensor[] outputs) {
        List<Tensor> differentiable = new ArrayList<>();
        for (int i = 0; i < outputs.length; i++) {
            if (outputs[i] == null) {
                throw new TorchException("aot_autograd: output " + i + " of the traced function is null");
            }
            if (outputs[i].requiresGrad()) differentiable.add(outputs[i]);
        }
        if (differentiable.isEmpty()) {
            throw new TorchException("aot_autograd: none of the " + outputs.length + " outputs of the traced "
                    + "function requires grad, so there is no backward to trace (do the outputs depend on an input "
                    + "that requires grad, outside no_grad?)");
        }
        return differentiable;
    }
}
