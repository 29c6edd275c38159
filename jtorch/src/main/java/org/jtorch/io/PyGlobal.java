package org.jtorch.io;

/**
 * A pickled global (a Python class or function named by module and name) that JTorch keeps as a name: nothing is looked
 * up or run. It appears in loaded objects only where a checkpoint references a global that has no Java counterpart and
 * the load allows it.
 */
public record PyGlobal(String module, String name) {
    /** {@code module.name}, the form used by allowlists and error messages. */
    public String qualifiedName() {
        return module + "." + name;
    }

    /** Seeded per process, so that a file cannot fill a dict with global keys of one hash. */
    @Override
    public int hashCode() {
        return KeyHash.fold(KeyHash.of(this));
    }

    @Override
    public String toString() {
        return qualifiedName();
    }
}
