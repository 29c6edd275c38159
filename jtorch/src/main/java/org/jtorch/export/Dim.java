package org.jtorch.export;

import org.jtorch.TorchException;

/**
 * {@code torch.export.Dim(name, min=, max=)}: a dynamic dimension of an exported program's inputs. Dimensions given the
 * same {@code Dim} are one symbol and must be equal on every call; the program serves every size from {@code min} to
 * {@code max}.
 *
 * @param name the symbol's name in messages
 * @param min the smallest size the program must serve
 * @param max the largest size, {@link Long#MAX_VALUE} for no bound
 */
public record Dim(String name, long min, long max) {
    /** Checks the name and the range. */
    public Dim {
        if (name == null || name.isEmpty()) throw new TorchException("Dim: a dimension needs a name");
        if (min < 0) throw new TorchException("Dim " + name + ": min " + min + " is negative");
        if (min > max) throw new TorchException("Dim " + name + ": min " + min + " is above max " + max);
    }

    /** {@code Dim(name)}: any size from 0 up. */
    public static Dim of(String name) {
        return new Dim(name, 0, Long.MAX_VALUE);
    }

    /** {@code Dim(name, min=min, max=max)}. */
    public static Dim of(String name, long min, long max) {
        return new Dim(name, min, max);
    }
}
