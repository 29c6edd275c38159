package org.jtorch.nn;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code torch.nn.ModuleDict}: named submodules in insertion order; it has no forward of its own. */
public final class ModuleDict extends Module {
    /** {@code ModuleDict()}. */
    public ModuleDict() {}

    /** {@code ModuleDict(mapping)}: entries in map order. */
    public ModuleDict(Map<String, ? extends Module> modules) {
        modules.forEach(this::put);
    }

    /** {@code dict[key] = module}: a new key goes last, an existing key is replaced in place; returns this. */
    public ModuleDict put(String key, Module module) {
        register(key, module);
        return this;
    }

    /** {@code dict[key]}. */
    public Module get(String key) {
        Module m = registeredModules().get(key);
        if (m == null) throw new IllegalArgumentException("'" + key + "'");
        return m;
    }

    /** {@code pop(key)}: removes the entry and returns its module. */
    public Module pop(String key) {
        Module m = get(key);
        deleteAttribute(key);
        return m;
    }

    /** {@code key in dict}. */
    public boolean containsKey(String key) {
        return registeredModules().containsKey(key);
    }

    /** {@code keys()}. */
    public List<String> keys() {
        return new ArrayList<>(registeredModules().keySet());
    }

    /** {@code values()}. */
    public List<Module> values() {
        return new ArrayList<>(registeredModules().values());
    }

    /** {@code len(dict)}. */
    public int size() {
        return registeredModules().size();
    }
}
