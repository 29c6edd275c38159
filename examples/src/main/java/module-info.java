/**
 * The examples are written against JTorch's exported API only, so they run as a module of their own: a program that
 * reached into the library's internals would not compile here.
 */
module org.jtorch.examples {
    requires org.jtorch;
    // The loss plot is drawn with java.awt and written with javax.imageio.
    requires java.desktop;
    // ServeModel serves inference with the JDK's HTTP server; its load test's clients use java.net.http.
    requires jdk.httpserver;
    requires java.net.http;
    // ServeLoad reports the load average next to its figures.
    requires java.management;
}
