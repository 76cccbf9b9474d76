// Testcontainers for Java (JUnit 5): the simulator per test class (docs/ci.md).
// UNTESTED here: the testcontainers and JUnit jars come from Maven Central, which this machine
// cannot reach. Needs org.testcontainers:testcontainers and org.junit.jupiter:junit-jupiter.
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.*;
import java.net.Socket;
import java.net.URI;
import java.net.http.*;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.*;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

class KdsSimContainerTest {
    static final String TOKEN = "java-pos-token";
    static final String ADMIN_TOKEN = "java-admin-token";
    static GenericContainer<?> kds =
        new GenericContainer<>(DockerImageName.parse("ghcr.io/kds-sim/kds-sim:0.1"))
            .withExposedPorts(8104, 9104, 9105)
            .withEnv("KDS_TOKEN", TOKEN)
            .withEnv("KDS_ADMIN_TOKEN", ADMIN_TOKEN)
            .withEnv("KDS_MEMORY", "1")
            .waitingFor(Wait.forHttp("/health").forPort(8104).forStatusCode(200));
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll static void start() { kds.start(); }
    @AfterAll static void stop() { kds.stop(); }

    static String base() { return "http://" + kds.getHost() + ":" + kds.getMappedPort(8104); }

    @BeforeEach void reset() throws Exception {
        var req = HttpRequest.newBuilder(URI.create(base() + "/api/admin/reset"))
            .header("x-admin-token", ADMIN_TOKEN)
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{}")).build();
        assertEquals(200, http.send(req, HttpResponse.BodyHandlers.ofString()).statusCode());
    }

    @Test void tcpCreateOrderIsAnsweredWithItsId() throws Exception {
        String order = "{\"command\":\"create-order\",\"order\":{\"id\":\"j-1\",\"name\":\"Java\","
            + "\"time\":" + System.currentTimeMillis() + ",\"mode\":\"ToGo\","
            + "\"items\":[{\"lineId\":\"1\",\"name\":\"Soup\",\"qty\":1,\"mods\":[]}]}}";
        try (Socket s = new Socket(kds.getHost(), kds.getMappedPort(9104))) {
            s.getOutputStream().write(order.getBytes(StandardCharsets.UTF_8));
            s.shutdownOutput();
            assertEquals("j-1", new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
