package org.jtorch.func;

import java.util.ArrayList;
import java.util.List;

/**
 * The transforms in flight on this thread, outermost first (functorch's dynamic layer stack). A level
 * number is the depth at which the transform was entered, so that nested transforms are ordered.
 */
final class Levels {
    private Levels() {}

    /** One transform in flight: a vmap interpreter or a grad level. */
    sealed interface Layer permits VmapInterpreter, GradLayer {
        int level();
    }

    /** A grad/vjp transform's level. */
    record GradLayer(int level) implements Layer {}

    private static final ThreadLocal<List<Layer>> STACK = ThreadLocal.withInitial(ArrayList::new);

    static int nextLevel() { return STACK.get().size() + 1; }

    static void push(Layer l) { STACK.get().add(l); }

    static void pop(Layer l) {
        List<Layer> s = STACK.get();
        if (s.isEmpty() || s.get(s.size() - 1) != l) throw new IllegalStateException("transform levels closed out of order");
        s.remove(s.size() - 1);
    }

    /** The innermost vmap in flight, or null. */
    static VmapInterpreter innermostVmap() {
        List<Layer> s = STACK.get();
        for (int i = s.size() - 1; i >= 0; i--) if (s.get(i) instanceof VmapInterpreter v) return v;
        return null;
    }

    /** Whether a grad transform other than {@code self} is in flight (its results must stay differentiable). */
    static boolean otherGradActive(Layer self) {
        for (Layer l : STACK.get()) if (l instanceof GradLayer && l != self) return true;
        return false;
    }
}
