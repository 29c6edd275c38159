package org.jtorch.library;

import java.util.HashMap;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.ops.InputMask;

/**
 * The {@code ctx} a custom op's {@link SetupContext} fills and its backward reads: saved tensors, other saved values,
 * and which tensor inputs need a gradient ({@code ctx.needs_input_grad}).
 */
public final class AutogradContext {
    private final InputMask mask;
    private Tensor[] saved = new Tensor[0];
    private final Map<String, Object> values = new HashMap<>();

    AutogradContext(InputMask mask) {
        this.mask = mask;
    }

    /** {@code ctx.save_for_backward(*tensors)}. */
    public void saveForBackward(Tensor... tensors) {
        saved = tensors.clone();
    }

    /** {@code ctx.saved_tensors}, in the order they were saved. */
    public Tensor[] savedTensors() {
        return saved.clone();
    }

    /** Saves a value that is not a tensor (a dim, a flag), as {@code ctx.name = value}. */
    public void put(String name, Object value) {
        values.put(name, value);
    }

    /** A value saved with {@link #put}; throws if none was saved under {@code name}. */
    public Object get(String name) {
        if (!values.containsKey(name)) throw new IllegalArgumentException("nothing saved on the context as " + name);
        return values.get(name);
    }

    /** {@code ctx.needs_input_grad[i]}: whether tensor input {@code i} (in argument order) needs a gradient. */
    public boolean needsInputGrad(int i) {
        return mask.needs(i);
    }
}
