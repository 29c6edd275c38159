package org.jtorch.examples.serve;

/** A request the server refuses, with the HTTP status (4xx) and the message the client gets. */
public final class BadRequest extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;

    public BadRequest(int status, String message) {
        super(message);
        if (status < 400 || status > 499) throw new IllegalArgumentException("not a 4xx status: " + status);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
