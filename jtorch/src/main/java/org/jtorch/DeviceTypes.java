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

        /** The current device index of a backend device type (set with {@code Accelerator.setDeviceIndex}). */
        int currentIndex(String type);
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

    /**
     * {@code device} with its index: an index-less backend device means the backend's current device, as in PyTorch;
     * the CPU, meta and indexed devices are returned as they are.
     */
    static Device withCurrentIndex(Device device) {
        if (device.hasIndex() || device == Device.CPU || device == Device.META) return device;
        return Device.of(device.type(), Loaded.REGISTRY.currentIndex(device.type()));
    }
}
