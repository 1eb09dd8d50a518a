package graphmem;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.neo4j.server.CommunityBootstrapper;

/**
 * Runs the real Neo4j Community server (Bolt + HTTP + Neo4j Browser) in this JVM,
 * the same way bin/neo4j does, but with configuration passed on the command line.
 *
 * <p>Usage: {@code java -cp <lib/*:classes> graphmem.Neo4jLauncher <home-dir> [key=value ...]}
 *
 * <p>{@code <home-dir>} becomes NEO4J_HOME (data/, logs/, run/neo4j.pid live below it). If
 * {@code <home-dir>/conf/neo4j.conf} exists it is read first; the key=value arguments override it.
 * On SIGTERM/SIGINT the bootstrapper's own shutdown hook stops the DBMS cleanly.
 * Used by scripts/neo4j-local.
 */
public final class Neo4jLauncher {
    private Neo4jLauncher() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: Neo4jLauncher <home-dir> [setting=value ...]");
            System.exit(64);
        }
        Path home = Path.of(args[0]).toAbsolutePath().normalize();
        Map<String, String> overrides = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq <= 0) {
                System.err.println("graphmem-neo4j: bad setting (expected key=value): " + args[i]);
                System.exit(64);
            }
            overrides.put(args[i].substring(0, eq).trim(), args[i].substring(eq + 1).trim());
        }
        Path confFile = home.resolve("conf").resolve("neo4j.conf");

        long t0 = System.nanoTime();
        CommunityBootstrapper bootstrapper = new CommunityBootstrapper();
        // Also registers a JVM shutdown hook (stops the DBMS) and a SIGTERM/SIGINT handler
        // that calls System.exit(0), which runs that hook.
        Runtime.getRuntime().addShutdownHook(new Thread(
                () -> System.out.println("graphmem-neo4j: shutting down"), "graphmem-neo4j-shutdown-msg"));
        int rc = bootstrapper.start(
                home, Files.isRegularFile(confFile) ? confFile : null, overrides,
                /* expandCommands */ false, /* daemonMode */ false);
        if (rc != 0 || !bootstrapper.isRunning()) {
            System.err.println("graphmem-neo4j: failed to start (exit code " + rc + "), see "
                    + home.resolve("logs"));
            System.exit(rc != 0 ? rc : 1);
        }
        System.out.printf("graphmem-neo4j: ready bolt=%s http=%s home=%s (%.1fs)%n",
                overrides.getOrDefault("server.bolt.listen_address", "127.0.0.1:7687"),
                overrides.getOrDefault("server.http.listen_address", "127.0.0.1:7474"),
                home, (System.nanoTime() - t0) / 1e9);
        System.out.flush();

        // Keep main alive until the JVM is told to exit (SIGTERM -> System.exit -> shutdown hooks).
        new CountDownLatch(1).await();
    }
}
