package dev.lore.neo4j;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;

/**
 * Server runs a real Neo4j 5.26 database in this JVM for Lore's tests and CI:
 * Bolt on 127.0.0.1:PORT with authentication disabled, the HTTP server off, and
 * its files under DATA_DIR. It prints one ready line and runs until it is
 * stopped (SIGTERM closes the database cleanly).
 *
 * Usage: java dev.lore.neo4j.Server PORT DATA_DIR
 */
public final class Server {
    private Server() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: Server PORT DATA_DIR");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        Path dataDir = Path.of(args[1]).toAbsolutePath();
        Files.createDirectories(dataDir);

        // Loopback only and no auth: this server exists for tests on one machine.
        // A modest page cache keeps it beside the other services on a small box.
        Neo4j neo4j = Neo4jBuilders.newInProcessBuilder(dataDir)
                .withDisabledServer()
                .withConfig(BoltConnector.enabled, true)
                .withConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
                .withConfig(BoltConnector.advertised_address, new SocketAddress("127.0.0.1", port))
                .withConfig(GraphDatabaseSettings.auth_enabled, false)
                .withConfig(GraphDatabaseSettings.pagecache_memory, 256L * 1024 * 1024)
                .build();

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                neo4j.close();
            } finally {
                stopped.countDown();
            }
        }, "lore-neo4j-shutdown"));

        System.out.println("lore-neo4j ready " + neo4j.boltURI() + " data=" + dataDir);
        System.out.flush();
        stopped.await();
    }
}
