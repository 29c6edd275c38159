package org.jtorch.nn;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;

/** {@code torch.nn.Sequential}: children called in order, each output feeding the next. */
public class Sequential extends Module implements Iterable<Module> {
    /*
     * Sequential stays open to subclasses (a named block built from layers, as PyTorch code subclasses
     * nn.Sequential), so `this` escapes from its constructors by design: they call only Module's final
     * registration, which fills Module's own tables and runs no overridable method.
     */

    /** {@code Sequential(*modules)}: children named {@code "0"}, {@code "1"}, .... */
    @SuppressWarnings("this-escape")
    public Sequential(Module... modules) {
        for (int i = 0; i < modules.length; i++) register(Integer.toString(i), modules[i]);
    }

    /** {@code Sequential(OrderedDict)}: children under the given names, in map order. */
    @SuppressWarnings("this-escape")
    public Sequential(Map<String, ? extends Module> modules) {
        modules.forEach(this::register);
    }

    /** {@code append(module)}: adds a child named by its position; returns this. */
    public Sequential append(Module module) {
        register(Integer.toString(size()), module);
        return this;
    }

    /** {@code len(seq)}. */
    public int size() {
        return registeredModules().size();
    }

    /** {@code seq[index]}: negative indices count from the end. */
    public Module get(int index) {
        List<Module> all = new ArrayList<>(registeredModules().values());
        int n = all.size();
        if (index < -n || index >= n) throw new IndexOutOfBoundsException("index " + index + " is out of range");
        return all.get(index < 0 ? index + n : index);
    }

    /** {@code seq[from:to]}: Python slice bounds (negative, clamped); the children keep their names. */
    public Sequential slice(int from, int to) {
        List<Map.Entry<String, Module>> all =
                new ArrayList<>(registeredModules().entrySet());
        int n = all.size();
        int start = clampSliceBound(from, n);
        int end = clampSliceBound(to, n);
        LinkedHashMap<String, Module> picked = new LinkedHashMap<>();
        for (int i = start; i < end; i++)
            picked.put(all.get(i).getKey(), all.get(i).getValue());
        return new Sequential(picked);
    }

    private static int clampSliceBound(int i, int n) {
        if (i < 0) i += n;
        return Math.max(0, Math.min(i, n));
    }

    @Override
    public Iterator<Module> iterator() {
        return List.copyOf(registeredModules().values()).iterator();
    }

    /**
     * Feeds the input (a module appended twice runs twice, as in PyTorch) through every child with {@link Module#call},
     * so their hooks run.
     */
    @Override
    public Tensor forward(Tensor input) {
        for (Module m : registeredModules().values()) input = m.call(input);
        return input;
    }
}
