package org.jtorch;

import java.util.List;
import java.util.ServiceLoader;

/**
 * The device types a device string may name: {@code cpu}, {@code meta} and those of the loaded device backends, as
 * PyTorch checks {@code torch.device("...")} against its device types. {@link Device} asks here rather than the backend
 * registry itself, so that the value types depend on nothing above them: the registry, which lives in a higher layer,
 * provides {@link Registry} as a service.
 */
public final class DeviceTypes {
    private DeviceTypes() {}

    /** What the library's backend registry tells device strings; implemented by that registry, not by users. */
    public interface Registry {
        /** Whether an enabled backend serves {@code type}. */
        boolean accepts(String type);

        /** Every type a device string may name, in the order error messages list them (cpu and meta first). */
        List<String> knownTypes();
    }

    /** Found on first use, as the backends themselves are loaded on first use. */
    private static final class Loaded {
        static final Registry REGISTRY = ServiceLoader.load(Registry.class, DeviceTypes.class.getClassLoader())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + Registry.class.getName() + " is installed"));
    }

    static boolean isKnown(String type) {
        return type.equals("cpu") || type.equals("meta") || Loaded.REGISTRY.accepts(type);
    }

    static List<String> known() {
        return Loaded.REGISTRY.knownTypes();
    }
}
