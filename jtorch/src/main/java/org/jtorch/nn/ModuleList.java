package org.jtorch.nn;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** {@code torch.nn.ModuleList}: an indexed list of registered submodules; it has no forward of its own. */
public final class ModuleList extends Module implements Iterable<Module> {
    /** {@code ModuleList(modules)}. */
    public ModuleList(Module... modules) {
        for (Module m : modules) append(m);
    }

    /** {@code ModuleList(iterable)}. */
    public ModuleList(Iterable<? extends Module> modules) {
        for (Module m : modules) append(m);
    }

    /** {@code append(module)}: returns this. */
    public ModuleList append(Module module) {
        register(Integer.toString(size()), module);
        return this;
    }

    /** {@code extend(modules)}: returns this. */
    public ModuleList extend(Iterable<? extends Module> modules) {
        for (Module m : modules) append(m);
        return this;
    }

    /** {@code len(list)}. */
    public int size() {
        return registeredModules().size();
    }

    /** {@code list[index]}: negative indices count from the end. */
    public Module get(int index) {
        return list().get(wrap(index));
    }

    /** {@code list[index] = module}: replaces the child in place. */
    public void set(int index, Module module) {
        register(Integer.toString(wrap(index)), module);
    }

    private int wrap(int index) {
        int n = size();
        if (index < -n || index >= n) throw new IndexOutOfBoundsException("index " + index + " is out of range");
        return index < 0 ? index + n : index;
    }

    private List<Module> list() {
        return new ArrayList<>(registeredModules().values());
    }

    @Override
    public Iterator<Module> iterator() {
        return List.copyOf(list()).iterator();
    }
}
