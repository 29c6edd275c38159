package org.jtorch.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What a Java team adopting JTorch does first: a new Maven project whose only dependency is {@code org.jtorch:jtorch},
 * and a twenty-line training program, compiled and run once as a module (its {@code module-info} requiring
 * {@code org.jtorch}) and once on the class path. Each build runs in the Maven that runs this one (offline when it is)
 * against a repository holding only this build's JTorch (installed by the POM before the tests run); the user's
 * repository is a read-only tail for the plugins. So a missing POM element, an unexported package the program needs or
 * a module descriptor the compiler plugin cannot read fails here, not in a user's first hour.
 */
class FreshProjectTest {
    private static final Path HOME = Path.of("target", "fresh-project");

    /** Fits y = x·(1, -2, 0.5) + 0.25 with one Linear layer and SGD, printing the loss and where JTorch was loaded. */
    private static final String PROGRAM = """
            package demo;

            import static org.jtorch.Torch.*;

            import org.jtorch.Tensor;
            import org.jtorch.nn.Linear;
            import org.jtorch.nn.functional.F;
            import org.jtorch.optim.SGD;

            public class Train {
                public static void main(String[] args) {
                    manualSeed(0);
                    Tensor x = randn(256, 3);
                    Tensor y = x.matmul(tensor(new float[][] {{1}, {-2}, {0.5f}})).add(0.25);
                    Linear model = new Linear(3, 1);
                    SGD opt = new SGD(model.parameters(), SGD.Options.defaults().lr(0.1));
                    for (int step = 0; step <= 200; step++) {
                        Tensor loss = F.mseLoss(model.call(x), y);
                        opt.zeroGrad();
                        loss.backward();
                        opt.step();
                        if (step % 100 == 0) System.out.printf("step %d loss %.6f%n", step, loss.item());
                    }
                    System.out.println("jtorch module: " + Tensor.class.getModule().getName());
                    System.out.println("jtorch from " + Tensor.class.getProtectionDomain().getCodeSource());
                    System.out.println("weight " + model.parameters().get(0) + " bias " + model.parameters().get(1));
                }
            }
            """;

    @Test
    void trainsOnTheModulePath() throws Exception {
        String out = build("module-path", true);
        assertTrainedAndLoadedFrom(out, "org.jtorch");
    }

    @Test
    void trainsOnTheClassPath() throws Exception {
        String out = build("class-path", false);
        assertTrainedAndLoadedFrom(out, "null"); // an unnamed module: the class path
    }

    @Test
    void theInstalledJarCarriesTheLicence() throws IOException {
        String version = System.getProperty("jtorch.version");
        Path jar = Path.of(System.getProperty("fresh.project.repository"), "org", "jtorch", "jtorch", version)
                .resolve("jtorch-" + version + ".jar");
        try (JarFile file = new JarFile(jar.toFile())) {
            assertTrue(file.getEntry("META-INF/LICENSE") != null, "META-INF/LICENSE in " + jar);
            assertTrue(file.getEntry("META-INF/NOTICE") != null, "META-INF/NOTICE in " + jar);
            byte[] licence =
                    file.getInputStream(file.getEntry("META-INF/LICENSE")).readAllBytes();
            assertTrue(
                    new String(licence, StandardCharsets.UTF_8).contains("Apache License"),
                    "the licence is Apache-2.0's text");
        }
    }

    private static void assertTrainedAndLoadedFrom(String out, String module) {
        Matcher m = Pattern.compile("step (\\d+) loss ([0-9.]+)").matcher(out);
        List<Double> losses = new ArrayList<>();
        while (m.find()) losses.add(Double.parseDouble(m.group(2)));
        assertEquals(3, losses.size(), out);
        assertTrue(losses.get(0) > 0.5, "a random layer starts far off: " + out);
        assertTrue(losses.get(2) < 1e-4, "SGD fits a noiseless linear map: " + out);
        assertTrue(out.contains("jtorch module: " + module + "\n"), out);
        // This build's jar, from the repository it was installed into, not one from the user's repository.
        Matcher jar = Pattern.compile("jtorch from \\((\\S+) ").matcher(out);
        assertTrue(jar.find(), out);
        Path repository = Path.of(System.getProperty("fresh.project.repository"));
        assertTrue(Path.of(java.net.URI.create(jar.group(1))).startsWith(repository), out);
        // The fitted parameters are the ones that generated the data.
        assertTrue(out.contains("weight tensor([[ 1.0000, -2.0000,  0.5000]]"), out);
        assertTrue(out.contains("bias tensor([0.2500]"), out);
    }

    /**
     * Writes the project into {@code target/fresh-project/<name>} and runs {@code mvn compile exec:exec} there,
     * returning what the program printed.
     */
    private static String build(String name, boolean modular) throws IOException, InterruptedException {
        Path dir = HOME.resolve(name).toAbsolutePath();
        Path sources = dir.resolve("src/main/java");
        Files.createDirectories(sources.resolve("demo"));
        // Maven looks upwards for .mvn to find the project's root (and its jvm.config and maven.config): here it is.
        Files.createDirectories(dir.resolve(".mvn"));
        Files.writeString(sources.resolve("demo/Train.java"), PROGRAM);
        Path descriptor = sources.resolve("module-info.java");
        if (modular) {
            Files.writeString(descriptor, "module demo {\n    requires org.jtorch;\n}\n");
        } else {
            Files.deleteIfExists(descriptor);
        }
        Files.writeString(dir.resolve("pom.xml"), pom(modular));

        Path log = dir.resolve("build.log");
        Path repository =
                Path.of(System.getProperty("fresh.project.repository")).toAbsolutePath();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("maven.home"), "bin", "mvn").toString(),
                "-B",
                "-ntp",
                "-q",
                "-Dmaven.repo.local=" + repository,
                "-Dmaven.repo.local.tail=" + System.getProperty("user.repository"),
                "compile",
                "exec:exec"));
        if ("offline=true".equals(System.getProperty("fresh.project.mode"))) command.add(1, "-o");
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("MAVEN_OPTS");
        pb.environment().remove("MAVEN_ARGS");
        Process p = pb.start();
        boolean done = p.waitFor(5, TimeUnit.MINUTES);
        if (!done) p.destroyForcibly();
        String out = Files.readString(log);
        assertTrue(done, "the fresh project's build timed out:\n" + out);
        assertEquals(0, p.exitValue(), "the fresh project's build failed:\n" + out);
        return out;
    }

    /**
     * The POM a user writes: JTorch as the only dependency, and the JVM flags it needs to run the program. OpenBLAS,
     * which JTorch brings, stays on the class path in both layouts: JTorch reads its shared library as a resource.
     * protobuf-java, JTorch's other dependency (module com.google.protobuf, which ONNX export writes with), goes on the
     * module path beside JTorch, which requires it.
     */
    private static String pom(boolean modular) {
        String run = modular
                ? "--enable-native-access=org.jtorch"
                        + " --module-path ${project.build.outputDirectory}${path.separator}${org.jtorch:jtorch:jar}"
                        + "${path.separator}${com.google.protobuf:protobuf-java:jar}"
                        + " -cp ${org.bytedeco:openblas:jar:linux-x86_64} --module demo/demo.Train"
                : "--add-modules=jdk.incubator.vector --enable-native-access=ALL-UNNAMED -cp"
                        + " ${project.build.outputDirectory}${path.separator}${org.jtorch:jtorch:jar}"
                        + "${path.separator}${org.bytedeco:openblas:jar:linux-x86_64} demo.Train";
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>demo</groupId>
                  <artifactId>fresh</artifactId>
                  <version>1</version>
                  <properties>
                    <maven.compiler.release>25</maven.compiler.release>
                    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
                  </properties>
                  <dependencies>
                    <dependency>
                      <groupId>org.jtorch</groupId>
                      <artifactId>jtorch</artifactId>
                      <version>%s</version>
                    </dependency>
                  </dependencies>
                  <build>
                    <plugins>
                      <plugin>
                        <artifactId>maven-compiler-plugin</artifactId>
                        <version>3.14.0</version>
                      </plugin>
                      <plugin>
                        <artifactId>maven-resources-plugin</artifactId>
                        <version>3.3.1</version>
                      </plugin>
                      <plugin>
                        <artifactId>maven-dependency-plugin</artifactId>
                        <version>3.9.0</version>
                        <executions>
                          <execution>
                            <goals>
                              <goal>properties</goal>
                            </goals>
                          </execution>
                        </executions>
                      </plugin>
                      <plugin>
                        <groupId>org.codehaus.mojo</groupId>
                        <artifactId>exec-maven-plugin</artifactId>
                        <version>3.5.0</version>
                        <configuration>
                          <executable>${java.home}/bin/java</executable>
                          <commandlineArgs>%s</commandlineArgs>
                        </configuration>
                      </plugin>
                    </plugins>
                  </build>
                </project>
                """.formatted(System.getProperty("jtorch.version"), run);
    }
}
