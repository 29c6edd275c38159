package org.jtorch;

/** PyTorch's {@code TypeError} (e.g. ordering complex numbers). */
public class TorchTypeException extends IllegalArgumentException {
    public TorchTypeException(String message) { super(message); }
}
