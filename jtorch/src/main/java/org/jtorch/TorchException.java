package org.jtorch;

/** PyTorch's {@code RuntimeError}: an op was called with arguments it cannot handle. */
public class TorchException extends RuntimeException {
    public TorchException(String message) { super(message); }

    public TorchException(String message, Throwable cause) { super(message, cause); }
}
